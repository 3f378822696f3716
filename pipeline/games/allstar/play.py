"""All-Star Draft's engine plugged into the simulation driver (`pnp simulate allstar`, validation stage 6)."""

from __future__ import annotations

from pipeline.games.allstar import engine
from pipeline.games.allstar.bots import BOTS
from pipeline.games.base import Records, Simulation
from pipeline.simulate import blame_rows

SHEETS = ("species", "symbols", "hockey", "orders", "tiebreak_sides", "arenas", "playoff_points")
_DATA: dict[int, tuple] = {}     # id(records) -> (records, GameData): build the tables once per batch


def game_data(records: Records):
    from pipeline.games.allstar.components import parameters

    cached = _DATA.get(id(records))
    if cached is None or cached[0] is not records:
        rows = [[dict(rec.values) for rec in records[sheet]] for sheet in SHEETS]
        data = engine.GameData.from_rows(*rows, parameters(records))
        _DATA.clear()
        cached = _DATA[id(records)] = (records, data)
    return cached[1]


def new_game(records: Records, players: int):
    return engine.new_game(game_data(records), players)


SIMULATION = Simulation(new_game=new_game, bots=BOTS, players=(2, 6), default_players=4, blame=blame_rows)
