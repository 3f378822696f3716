"""Playing engine states to the end in tests: a position built by a scenario, or a whole seeded game.

pipeline.simulate.play is the shipped driver (it starts from a game's Simulation record); tests also need to
finish an arbitrary mid-game state, so this is the small loop they share across games."""

from __future__ import annotations

import random

CHANCE = -1


def sample(outcomes, rng):
    """One rng.random() against the cumulative probabilities, in the engine's stable order."""
    x, total = rng.random(), 0.0
    for outcome, p in outcomes:
        total += p
        if x < total:
            return outcome
    return outcomes[-1][0]


def run(state, seats, rng, max_steps: int = 1_000_000):
    """Play a state to its end with one bot per seat; chance sampled from rng. Returns the final state."""
    for _ in range(max_steps):
        player = state.current_player()
        if player >= 0:
            state.apply_action(seats[player].choose(state, rng))
        elif player == CHANCE:
            state.apply_action(sample(state.chance_outcomes(), rng))
        else:
            return state
    raise RuntimeError(f"no end after {max_steps} steps:\n{state}")


def play(state, bots: dict, names: tuple, seed: int) -> dict:
    """A fresh game state played by the named bots, every chance outcome and choice from Random(seed)."""
    seats = [bots[name](seat) for seat, name in enumerate(names)]
    return run(state, seats, random.Random(seed)).outcome()
