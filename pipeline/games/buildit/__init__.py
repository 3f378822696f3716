"""Build It: the game record the registry loads (game_module) and the simulation record (SIMULATION) that
plugs its rules engine into `pnp simulate` and validation stage 6.

Rooms, as in every game (games/_template/): schema.py (sheets, columns, rule parameters), checks.py
(validation stages 3–5), components.py (what is printed), rulebook.py (what the chapters see), bots.py or
bots/ (players), engine/ (the pure rules)."""

from __future__ import annotations

from pathlib import Path

from pipeline.data.specs import GameModule, Records
from pipeline.games.buildit.bots import BOTS
from pipeline.games.buildit.schema import RULE_PARAMETERS
from pipeline.games.kit import game_record, players_from_rules
from pipeline.play.contract import KeyFigure, Simulation, blame_rows, other_readings, per_records


def game_module(root: Path) -> GameModule:
    from pipeline.games.buildit import checks
    from pipeline.games.buildit.schema import BALANCE, CITIES, CONTRACTS, NORMAL_CARDS, RULES

    return game_record("buildit", "Build It", root, (CITIES, CONTRACTS, NORMAL_CARDS, RULES, BALANCE),
                       checks=checks, components=_components, simulation=SIMULATION,
                       rule_parameters=RULE_PARAMETERS,
                       # the seed rulebook names no one: a placeholder
                       author="Auteurs de Build It (non nommés par le livret d'origine : à compléter), prototype pnp",
                       keywords=("jeu de plateau", "construction", "négociation", "2 à 4 joueurs"))


def _components(records):
    from pipeline.games.buildit import components
    from pipeline.games.buildit.rulebook import with_rulebook

    return with_rulebook(records, components.components(records))


# --- the simulation record ----------------------------------------------------------------------------------

def _rows(records: Records, sheet: str) -> list[dict]:
    return [dict(rec.values) for rec in records[sheet]]


def _game_data(records: Records):
    from pipeline.games.buildit import engine
    from pipeline.games.buildit.components import parameters

    return engine.GameData.from_rows(_rows(records, "contracts"), _rows(records, "cities"),
                                     _rows(records, "normal_cards"), parameters(records))


game_data = per_records(_game_data)       # parse plans once per batch, not per game


def new_game(records: Records, players: int):
    from pipeline.games.buildit import engine

    return engine.new_game(game_data(records), players)


def nominal(records: Records) -> dict[str, float]:
    """BI-A22: what the data promises per card drawn, next to what bots actually collect."""
    from pipeline.games.buildit.checks import gold_distribution

    gold = gold_distribution(records)
    return {"gold_from_contracts/drawn_contract": float(gold["contracts"][1]),
            "gold_from_coin_gain/drawn_normal": float(gold["normal"][1])}


def variants(records: Records) -> tuple:
    """The two variants that replace the calendar's end (004_, "Variantes"): stage 6 checks they end."""
    return ((("variant_contractual", "yes"),), (("variant_high_density", "yes"),))


# the points the rulebook leaves open or contradicts (see the rulebook's "Choix de cette édition")
READINGS = other_readings(("build_cost_mode", ("per_plot", "flat")), ("city_points_timing", ("on_build", "end")),
                          ("build_target", ("maximal", "any_connected_subset")), ("contract_match", ("exact", "contains")))


KEY_FIGURES = (KeyFigure("gold_from_contracts", "Contract gold per game"),
               KeyFigure("fulfilled", "Contracts fulfilled per game"),
               KeyFigure("stolen", "Contracts stolen per game"))
SIMULATION = Simulation(new_game=new_game, bots=BOTS, players=players_from_rules(RULE_PARAMETERS),
                        default_players=4,
                        nominal=nominal, blame=blame_rows, variants=variants, readings=READINGS,
                        key_figures=KEY_FIGURES)
