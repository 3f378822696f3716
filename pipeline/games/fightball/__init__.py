"""Fightball, a real-time card game for two coaches (shared/games/fightball.md): the game record the registry
loads (game_module) and the simulation record (SIMULATION) that plugs its rules engine into `pnp simulate`
and validation stage 6.

Rooms, as in every game (games/_template/): schema.py, checks.py, components.py, rulebook/, bots.py,
engine/ (the pure rules: the stack scorer and the fast-round race)."""

from __future__ import annotations

from pathlib import Path

from pipeline.data.specs import GameModule, Records
from pipeline.games.fightball.bots import BOTS
from pipeline.games.kit import engine_rows, game_record
from pipeline.play.contract import (KeyFigure, Ratio, RatioTable, Sides, Simulation, Sweep, blame_rows, other_readings,
                                    per_records)

GAME_ID = "fightball"


def game_module(root: Path) -> GameModule:
    from pipeline.games.fightball import checks, schema

    return game_record(GAME_ID, "Fightball", root,
                       (schema.TEAMS, schema.PLAYERS, schema.SHOTS, schema.EFFECTS, schema.EFFECT_OPS, schema.RULES,
                        schema.BALANCE),
                       checks=checks, components=_components, simulation=SIMULATION,
                       rule_parameters=schema.RULE_PARAMETERS,
                       author="James Ernest et Mike Selinker (traduction française : Olivier Bourgeois), prototype pnp",
                       keywords=("jeu de cartes", "temps réel", "sport", "2 joueurs"))


def _components(records):
    from pipeline.games.fightball import components
    from pipeline.games.fightball.rulebook import with_rulebook

    return with_rulebook(records, components.components(records))


# --- the simulation record ----------------------------------------------------------------------------------

def _game_data(records: Records):
    from pipeline.games.fightball.engine import GameData
    from pipeline.games.fightball.schema import ENGINE_SHEETS, RULE_PARAMETERS as SPECS

    rows, params = engine_rows(records, ENGINE_SHEETS, SPECS)
    return GameData.from_rows(*rows, params)


game_data = per_records(_game_data)       # build the cards once per batch, not per game


def new_game(records: Records, players: int):
    from pipeline.games.fightball import engine

    return engine.new_game(game_data(records), players)


def nominal(records: Records) -> dict[str, float]:
    """"plays:valid/plays:complete" as the decks promise it unopposed (engine/expectations.py), next to the
    share the simulated games reach (defenders lower it, choices raise it)."""
    from pipeline.games.fightball.engine.expectations import unopposed_valid_share

    share = unopposed_valid_share(game_data(records))
    return {} if share is None else {"plays:valid/plays:complete": round(share, 3)}


# the points the rulebook leaves open or says two ways (FB-A8, FB-A11, the Shot card held at the BUZZ: l.51 v
# l.123): the rulebook's "Choix de cette édition" prints them
READINGS = other_readings(("new_attacker_same_name_compares", ("first", "current")), ("tie_rule", ("draw", "overtime")),
                          ("shot_at_buzz", ("taken_back", "placed")))

# the two decks a game matches (`pnp simulate fightball --teams eclairs,remparts`, `--matchups`); what raw
# speed buys against the bots' judgement (north's share of the race 0.3 to 0.7); each card played on the field
# vs thrown away
SIDES = Sides(("team_north", "team_south"), lambda records: [rec["id"] for rec in records["teams"]])
SPEED = Sweep(("speed_north", "speed_south"), ((30, 70), (40, 60), (50, 50), (60, 40), (70, 30)),
              "north's speed share", lambda setting: setting[0] / (setting[0] + setting[1]))
KEY_FIGURES = (KeyFigure("points", "points per game"),
               KeyFigure("points:false_start", "false-start points per game"),
               KeyFigure("cause:false_start", "false starts' share of the points", per="points_scored"))
# where the points come from: valid plays or each foul, as a share of every point scored (random bots score
# mostly by their false starts; the balance gates play the heuristic bot, the first of BOTS)
CAUSES = (("play", "valid plays"), ("false_start", "false starts"), ("too_late", "too-late cards"),
          ("hurried_shot", "hurried shots"), ("effect_foul", "fouls made by effects"))
POINTS_BY_CAUSE = RatioTable("points_by_cause", "Points by cause", tuple(
    Ratio(f"cause:{cause}", "points_scored", label, share=False) for cause, label in CAUSES),
    note="Each cause's share of every point scored (both coaches, every quarter); the counts are its points "
         "and all the points.")
SIMULATION = Simulation(new_game=new_game, bots=BOTS, players=(2, 2), default_players=2, blame=blame_rows,
                        nominal=nominal, readings=READINGS, sides=SIDES, sweeps=(SPEED,),
                        paired=(("played", "discarded"),), key_figures=KEY_FIGURES, ratios=(POINTS_BY_CAUSE,))
