"""Records -> Fightball's engine (PLACEHOLDER until the engine lands): new_game, the nominal values, readings."""

from __future__ import annotations

from pipeline.games.base import Records, other_readings


def new_game(records: Records, players: int):
    raise NotImplementedError("the Fightball engine is not written yet")


def nominal(records: Records) -> dict:
    return {}


READINGS = other_readings(("new_attacker_same_name_compares", ("current", "first")), ("tie_rule", ("draw", "overtime")))
