"""Build It's engine plugged into the simulation driver (`pnp simulate buildit`, validation stage 6)."""

from __future__ import annotations

from pipeline.games.base import Records, Simulation, other_readings, per_records
from pipeline.games.buildit import engine
from pipeline.games.buildit.bots import BOTS
from pipeline.games.buildit.checks import gold_distribution
from pipeline.games.kit import blame_rows


def _rows(records: Records, sheet: str) -> list[dict]:
    return [dict(rec.values) for rec in records[sheet]]


def _game_data(records: Records):
    from pipeline.games.buildit.components import parameters

    return engine.GameData.from_rows(_rows(records, "contracts"), _rows(records, "cities"),
                                     _rows(records, "normal_cards"), parameters(records))


game_data = per_records(_game_data)       # parse plans once per batch, not per game


def new_game(records: Records, players: int):
    return engine.new_game(game_data(records), players)


def nominal(records: Records) -> dict[str, float]:
    """BI-A22: what the data promises per card drawn, next to what bots actually collect."""
    gold = gold_distribution(records)
    return {"gold_from_contracts/drawn_contract": float(gold["contracts"][1]),
            "gold_from_coin_gain/drawn_normal": float(gold["normal"][1])}


def variants(records: Records) -> tuple:
    """The two variants that replace the calendar's end (004_, "Variantes"): stage 6 checks they end."""
    return ((("variant_contractual", "yes"),), (("variant_high_density", "yes"),))


# the points the rulebook leaves open or contradicts (see the rulebook's "Choix de cette édition")
READINGS = other_readings(("build_cost_mode", ("per_plot", "flat")), ("city_points_timing", ("on_build", "end")),
                          ("build_target", ("maximal", "any_connected_subset")), ("contract_match", ("exact", "contains")))

SIMULATION = Simulation(new_game=new_game, bots=BOTS, players=(2, 4), default_players=4,
                        nominal=nominal, blame=blame_rows, variants=variants, readings=READINGS)
