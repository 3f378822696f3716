"""Challengers, a deck-building and flag-capture card game for 1 to 8 players (shared/games/challengers.md):
the game record the registry loads (game_module) and the simulation record (SIMULATION) that plugs its rules
engine into `pnp simulate` and validation stage 6.

Rooms, as in every game (games/_template/): schema.py, checks.py, components.py, rulebook/, bots.py,
engine/ (the pure rules: the draft, the pairing, the match, the robot)."""

from __future__ import annotations

from pathlib import Path

from pipeline.data.specs import GameModule, Records
from pipeline.games.challengers.bots import BOTS
from pipeline.games.challengers.schema import RULE_PARAMETERS
from pipeline.games.kit import engine_rows, game_record, players_from_rules
from pipeline.play.contract import (KeyFigure, Ratio, RatioTable, Simulation, Sweep, blame_rows, other_readings,
                                    per_records)

GAME_ID = "challengers"


def game_module(root: Path) -> GameModule:
    from pipeline.games.challengers import checks, schema

    return game_record(GAME_ID, "Challengers", root,
                       (schema.SETS, schema.CARDS, schema.CARD_OPS, schema.STARTER, schema.SCHEDULE, schema.TROPHIES,
                        schema.ROBOT_DECKS, schema.ROBOT_LEVELS, schema.SOLO_CARDS, schema.RULES, schema.BALANCE),
                       checks=checks, components=_components, simulation=SIMULATION,
                       rule_parameters=RULE_PARAMETERS,
                       author="Auteurs de Challengers (non nommés par l'aide de jeu d'origine : à compléter), prototype pnp",
                       keywords=("jeu de cartes", "deck-building", "capture du drapeau", "1 à 8 joueurs"))


def _components(records):
    from pipeline.games.challengers import components
    from pipeline.games.challengers.rulebook import with_rulebook

    return with_rulebook(records, components.components(records))


# --- the simulation record ----------------------------------------------------------------------------------

def _game_data(records: Records):
    from pipeline.games.challengers.engine import GameData
    from pipeline.games.challengers.schema import ENGINE_SHEETS, RULE_PARAMETERS as SPECS

    rows, params = engine_rows(records, ENGINE_SHEETS, SPECS)
    return GameData.from_rows(*rows, params)


game_data = per_records(_game_data)       # build the card tables once per batch, not per game


def new_game(records: Records, players: int):
    from pipeline.games.challengers import engine

    return engine.new_game(game_data(records), players)


# the points the source leaves open (CH-A5, CH-A6, CH-A9, CH-A18, the solo robot's deck, an empty pile): the
# rulebook's "Choix de cette édition" prints them
READINGS = other_readings(("solo_robot_deck", ("kept", "per_round")),
                          ("redraw_window", ("any_time", "after_first_pick")),
                          ("short_pile", ("refill", "deal_what_is_left")),
                          ("fans_from_trophies", ("values", "count")),
                          ("capture_order", ("losing_flag_first", "bench_first")),
                          ("opening_triggers_on_attack", ("no", "yes")))

# what `pnp simulate challengers` measures beyond the seats (the engine's counters, engine/__init__.py)
ROBOT_WON = Ratio("robot:won", "robot:matches", "robot's match win rate")
RATIOS = (
    RatioTable("set_strength", "Set strength: win rate of the players who drafted most from a set",
               (Ratio("set_lead_won", "set_lead", "win rate"),),
               note="Per selection of five sets (and every selection pooled as \"all\"): the players whose most-"
                    "drafted set it was, and how often they won the game. A set no better than another reads the "
                    "players' average win rate (1 / players; solo: the win rate against the robot)."),
    RatioTable("cards", "Cards: pick rate and win rate when picked",
               (Ratio("picked", "offered", "pick rate"), Ratio("picked_by_winner", "picked", "win rate when picked")),
               sort=1, note="Pick rate: copies kept of copies offered in a hand. Win rate when picked: copies kept by "
                            "the game's winner of copies kept. A card no better than another reads the players' "
                            "average win rate."),
    RatioTable("matches", "Matches", (Ratio("reveals", "matches", "reveals per match", share=False),
                                      Ratio("match_end:empty_deck", "matches", "lost on an empty deck"),
                                      Ratio("match_end:bench_full", "matches", "lost on a full bench"),
                                      ROBOT_WON)),
)
ROBOT_SWEEP = Sweep(("robot_level",), tuple((level,) for level in range(1, 6)), "robot level", y=ROBOT_WON)

KEY_FIGURES = (KeyFigure("reveals", "reveals per match", per="matches"),
               KeyFigure("matches", "matches per game"))
SIMULATION = Simulation(new_game=new_game, bots=BOTS, players=players_from_rules(RULE_PARAMETERS),
                        default_players=4, blame=blame_rows, readings=READINGS, sweeps=(ROBOT_SWEEP,),
                        ratios=RATIOS, key_figures=KEY_FIGURES)
