"""TEMPLATE: players. A bot is a class made per seat with choose(state, rng) -> action; it reads the state's
public attributes and draws randomness only from the rng it is given."""

from __future__ import annotations

ROLL, STEP = ("roll",), ("step",)        # the example's two actions


class HeuristicBot:
    """Rolls while far from the target, steps when one step is enough."""

    def __init__(self, seat: int):
        self.seat = seat

    def choose(self, state, rng):
        return STEP if state.positions[self.seat] >= state.target - 1 else ROLL


class RandomBot:
    def __init__(self, seat: int):
        self.seat = seat

    def choose(self, state, rng):
        return rng.choice(state.legal_actions())


BOTS = {"heuristic": HeuristicBot, "random": RandomBot}
