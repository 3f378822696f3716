"""Playing engine states in tests: scenario files (tests/games/cases/<game>/*.json), a position built by a scenario
played to its end, or a whole seeded game.

pipeline.play.driver.play is the shipped driver (it starts from a game's Simulation record); tests also need to
finish an arbitrary mid-game state, so this is the small loop they share across games."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

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


# --- scenario files ------------------------------------------------------------------------------------------

def scenario_cases(folder: Path) -> list:
    """Every case of every scenario file in `folder`, as pytest params (example, case) named file: case."""
    cases = []
    for path in sorted(folder.glob("*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        cases += [pytest.param(doc["example"], case, id=f"{path.stem}: {case['name']}") for case in doc["cases"]]
    return cases


def to_action(spec):
    """A JSON action (lists) -> an engine action (tuples); a bare string or number is a chance outcome."""
    if isinstance(spec, list):
        return tuple(to_action(x) for x in spec)
    return spec


def assert_refused(state, action, where: str) -> None:
    """An illegal action raises ValueError and leaves the state exactly as it was."""
    before = state.snapshot()
    with pytest.raises(ValueError):
        state.apply_action(action)
    assert state.snapshot() == before, where
