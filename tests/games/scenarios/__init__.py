"""Scenario adapters: what one game's scenario files (tests/games/cases/<game>/*.json) need that the runner
(tests/games/test_scenarios.py) does not know. Each module, named like its folder, has:

    EXAMPLES                    (regex of example ids, the set the files must cover)
    game_data(case)             the data a case plays on (its `params`, other fixture changes)
    start(data, case)           the State of the case's `setup`
    to_action(spec)             a JSON action -> an engine action
    observe(state, key, expected)   the state's value for an expectation key, shaped like the expectation
    CALLS                       pure functions a case may call: name -> f(data, call)
    PLAYERS                     bots by name, for `bot` and `play` steps
and optionally chance(state, spec, where), set_hand(state, data, spec), settle(state), auto_until(state, target).
"""

from __future__ import annotations

from importlib import import_module
from pathlib import Path
from types import ModuleType

CASES = Path(__file__).parent.parent / "cases"


def games() -> list[str]:
    return sorted(folder.name for folder in CASES.iterdir() if folder.is_dir())


def adapter(game: str) -> ModuleType:
    return import_module(f"tests.games.scenarios.{game}")
