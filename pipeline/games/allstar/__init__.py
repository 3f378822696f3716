"""All-Star Draft, a hockey drafting game for 2–6 managers (shared/games/all-star-draft.md): the game record
the registry loads (game_module) and the simulation record (SIMULATION) that plugs its rules engine into
`pnp simulate` and validation stage 6.

Rooms, as in every game (games/_template/): schema.py, checks.py, components.py, rulebook.py, bots.py,
engine/ (the pure rules)."""

from __future__ import annotations

from pathlib import Path

from pipeline.data.specs import GameModule, Records
from pipeline.games.allstar.bots import BOTS
from pipeline.games.allstar.schema import RULE_PARAMETERS
from pipeline.games.kit import game_record, players_from_rules
from pipeline.play.contract import KeyFigure, Simulation, blame_rows, other_readings, per_records


def game_module(root: Path) -> GameModule:
    from pipeline.games.allstar import checks
    from pipeline.games.allstar.schema import (ARENAS, BALANCE, HOCKEY, ORDERS, PLAYOFF_POINTS, RULES, SPECIES, SYMBOLS,
                                               TIEBREAK_SIDES)

    return game_record("allstar", "All-Star Draft", root,
                       (SPECIES, SYMBOLS, HOCKEY, ORDERS, TIEBREAK_SIDES, ARENAS, PLAYOFF_POINTS, RULES, BALANCE),
                       checks=checks, components=_components, simulation=SIMULATION,
                       rule_parameters=RULE_PARAMETERS,
                       # the seed rulebook names no one: a placeholder
                       author="Auteurs de All-Star Draft (non nommés par le livret d'origine : à compléter), prototype pnp",
                       keywords=("jeu de cartes", "draft", "hockey", "2 à 6 joueurs"))


def _components(records):
    from pipeline.games.allstar import components
    from pipeline.games.allstar.rulebook import with_rulebook

    return with_rulebook(records, components.components(records))


# --- the simulation record ----------------------------------------------------------------------------------

SHEETS = ("species", "symbols", "hockey", "orders", "tiebreak_sides", "arenas", "playoff_points")


def _game_data(records: Records):
    from pipeline.games.allstar import engine
    from pipeline.games.allstar.components import parameters

    return engine.GameData.from_rows(*([dict(rec.values) for rec in records[sheet]] for sheet in SHEETS),
                                     parameters(records))


game_data = per_records(_game_data)       # build the tables once per batch, not per game


def new_game(records: Records, players: int):
    from pipeline.games.allstar import engine

    return engine.new_game(game_data(records), players)


# the points the rulebook leaves open (see the rulebook's "Choix de cette édition")
READINGS = other_readings(("swaps_per_round", ("per_team", "one_total")), ("playoff_weakest_by", ("power", "full_key")),
                          ("final_tiebreak_includes_ticket_bonus", ("yes", "no")))

KEY_FIGURES = (KeyFigure("shootouts", "shootouts per game"),
               KeyFigure("playoff_rounds", "playoff rounds per game"))
SIMULATION = Simulation(new_game=new_game, bots=BOTS, players=players_from_rules(RULE_PARAMETERS),
                        default_players=4, blame=blame_rows,
                        readings=READINGS, key_figures=KEY_FIGURES)
