"""NBA Deck-Building: the game record the registry loads (game_module) and the simulation record
(SIMULATION) that plugs its rules engine into `pnp simulate` and validation stage 6.

Rooms, as in every game (games/_template/): schema.py, checks/ (stages 3 and 5; the worked example),
components/ (cards, boards, dice), rulebook/ (chapters' context; the worked example), bots.py, engine/."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from pipeline.data.specs import GameModule, Records
from pipeline.games.kit import game_record
from pipeline.games.nba.bots import BOTS
from pipeline.play.contract import KeyFigure, Simulation, blame_rows, other_readings, per_records


def game_module(root: Path) -> GameModule:
    from pipeline.games.nba import checks, components, schema
    from pipeline.games.nba.checks import rules
    from pipeline.games.nba.schema import BALANCE, DICE_SHEET, DURATIONS, FATIGUE, PLAYERS, RULES, SKILL_SHEET, TACTICS

    # stage 3 is checks/__init__.py's; stage 5 and the summary are checks/rules.py's
    stages = SimpleNamespace(check_rows=checks.check_rows, check_rules=rules.check_rules, summary=rules.summary)
    return game_record("nba", "NBA Deck-Building", root,
                       (SKILL_SHEET, DICE_SHEET, PLAYERS, TACTICS, FATIGUE, DURATIONS, RULES, BALANCE),
                       checks=stages, components=components.components, simulation=SIMULATION,
                       rule_parameters=schema.RULE_PARAMETERS,
                       # the seed rulebook names no one: a placeholder
                       author="Auteurs de NBA Deck-Building (non nommés par le livret d'origine : à compléter), prototype pnp",
                       keywords=("jeu de cartes", "deck-building", "dés", "basket-ball", "2 joueurs"))


def _play_checks(records: Records, report, simulation) -> None:
    """Stage 6 first plays the durations table on the engine."""
    from pipeline.games.nba.checks import rules

    rules.check_durations_played(records, report, simulation)


# --- the simulation record ----------------------------------------------------------------------------------

SHEETS = ("skills", "dice", "players", "tactics", "fatigue", "durations")


def _game_data(records: Records):
    from pipeline.games.nba import engine
    from pipeline.games.nba.components import parameters

    return engine.GameData.from_rows(*([dict(rec.values) for rec in records[sheet]] for sheet in SHEETS),
                                     parameters(records))


game_data = per_records(_game_data)       # build the tables once per batch, not per game


def new_game(records: Records, players: int):
    from pipeline.games.nba import engine

    return engine.new_game(game_data(records), players)


def initiation_levels(data) -> list:
    """Team levels of set A's initiation five (§7.3: GI 6, 3P 3, PE 3, RB 4 with the proposed cards)."""
    five = [c for c in data.sets["A"]["starters"] if data.player[c].initiation]
    return [sum(data.stats[c][i] for c in five) for i in range(8)]


def nominal(records: Records) -> dict[str, float]:
    """Per offensive tactic, "points:<id>/activated:<id>" = its expected kept total (§2.3) when the initiation
    five activates it: shown next to the points a simulated activation finally scored (after defence)."""
    data = game_data(records)
    levels = initiation_levels(data)
    return {f"points:{t.id}/activated:{t.id}": round(data.expected_attack(t, levels), 3)
            for t in sorted((t for t in data.tactic if t and t.offence), key=lambda t: t.id)}


# the points the rulebook leaves open or contradicts (see the rulebook's "Choix de cette édition")
READINGS = other_readings(("dice_cap_scope", ("per_skill", "per_tactic")), ("negative_score", ("clamp0", "allow_negative")),
                          ("fatigue_removed_to", ("box", "supply")), ("keep_mode", ("up_to", "exactly")),
                          ("end_rule", ("countdown6", "market_empty_literal")))

def catalogs(records: Records) -> dict[str, list[str]]:
    """Every card a game can buy: the NBA Player cards (the pile and the Expert mini-markets are drawn from
    them; starters and substitutes are dealt, never bought) and the market Tactics (sets A and B are dealt)."""
    return {"bought_player": [rec["id"] for rec in records["players"] if rec["set"] == "NBA"],
            "bought_tactic": [rec["id"] for rec in records["tactics"] if rec["set"] == "market"]}


KEY_FIGURES = (KeyFigure("points", "points per activation", per="activated"),
               KeyFigure("bought_player", "Player cards bought per game"),
               KeyFigure("overtime", "overtimes per game"))
SIMULATION = Simulation(new_game=new_game, bots=BOTS, players=(2, 2), default_players=2, nominal=nominal,
                        blame=blame_rows, readings=READINGS, play_checks=_play_checks,
                        key_figures=KEY_FIGURES, catalogs=catalogs)
