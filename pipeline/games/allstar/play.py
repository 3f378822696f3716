"""All-Star Draft's engine plugged into the simulation driver (`pnp simulate allstar`, validation stage 6)."""

from __future__ import annotations

from pipeline.games.allstar import engine
from pipeline.games.allstar.bots import BOTS
from pipeline.games.base import Records, Simulation, other_readings, per_records
from pipeline.games.kit import blame_rows

SHEETS = ("species", "symbols", "hockey", "orders", "tiebreak_sides", "arenas", "playoff_points")
def _game_data(records: Records):
    from pipeline.games.allstar.components import parameters

    return engine.GameData.from_rows(*([dict(rec.values) for rec in records[sheet]] for sheet in SHEETS),
                                     parameters(records))


game_data = per_records(_game_data)       # build the tables once per batch, not per game


def new_game(records: Records, players: int):
    return engine.new_game(game_data(records), players)


# the points the rulebook leaves open (see the rulebook's "Choix de cette édition")
READINGS = other_readings(("swaps_per_round", ("per_team", "one_total")), ("playoff_weakest_by", ("power", "full_key")),
                          ("final_tiebreak_includes_ticket_bonus", ("yes", "no")))

SIMULATION = Simulation(new_game=new_game, bots=BOTS, players=(2, 6), default_players=4, blame=blame_rows,
                        readings=READINGS)
