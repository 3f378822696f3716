"""Every game's worked examples, one runner: each case of each scenario file in tests/games/cases/<game>/ is set
up, played step by step and checked (tests/games/scenarios/<game>.py says what is that game's own).

A step may: `illegal` (refused with ValueError, the state unchanged), `set` a hand, `do` an action, give
`chance` outcomes, let a `bot` choose (`expect_action`: what it must choose), `auto` to a phase, `settle`
pending chance, `play` to the end with bots (`seed`), and `expect` values of the state. A case may also
`calls` pure functions and compare their results."""

from __future__ import annotations

import json
import random

import pytest

from tests.games.playout import assert_refused, run, scenario_cases
from tests.games.scenarios import CASES, adapter, games


def _cases() -> list:
    return [pytest.param(game, *param.values, id=f"{game}/{param.id}")
            for game in games() for param in scenario_cases(CASES / game)]


@pytest.mark.parametrize("game, example, case", _cases())
def test_worked_example(game, example, case):
    rules = adapter(game)
    data = rules.game_data(case)
    for call in case.get("calls", []):
        assert rules.CALLS[call["fn"]](data, call) == call["expect"], f"{example} {case['name']!r}: {call}"
    if "setup" not in case:
        return
    state = rules.start(data, case)
    rng = random.Random(0)
    for number, step in enumerate(case["steps"], 1):
        where = f"{example} {case['name']!r} step {number} {step}"
        play_step(rules, data, state, step, rng, where)
        for key, expected in step.get("expect", {}).items():
            assert rules.observe(state, key, expected) == expected, f"{key}: {where}\n{state}"


def play_step(rules, data, state, step: dict, rng: random.Random, where: str) -> None:
    if "illegal" in step:
        assert_refused(state, rules.to_action(step["illegal"]), where)
    if "set" in step:
        rules.set_hand(state, data, step["set"])
    if "do" in step:
        state.apply_action(rules.to_action(step["do"]))
    if "chance" in step:
        if hasattr(rules, "chance"):
            rules.chance(state, step["chance"], where)
        else:
            state.apply_action(rules.to_action(step["chance"]))
    if "bot" in step:
        action = rules.PLAYERS[step["bot"]](state.current_player()).choose(state, rng)
        if "expect_action" in step:
            assert action == rules.to_action(step["expect_action"]), where
        state.apply_action(action)
    if "auto" in step:
        rules.auto_until(state, step["auto"])
    if step.get("settle"):
        rules.settle(state)
    if "play" in step:
        seats = [rules.PLAYERS[step["play"]](seat) for seat in range(len(state.returns()))]
        run(state, seats, random.Random(step.get("seed", 0)))


@pytest.mark.parametrize("game", games())
def test_every_worked_example_has_a_scenario(game):
    pattern, required = adapter(game).EXAMPLES
    examples = " ".join(json.loads(path.read_text(encoding="utf-8"))["example"]
                        for path in (CASES / game).glob("*.json"))
    assert required and required <= set(pattern.findall(examples)), sorted(required - set(pattern.findall(examples)))


def test_every_step_verb_is_known():
    """A misspelt verb would make a step silently do nothing."""
    known = {"illegal", "because", "set", "do", "chance", "bot", "expect_action", "auto", "settle", "play", "seed",
             "expect"}
    for game in games():
        for param in scenario_cases(CASES / game):
            case = param.values[1]
            assert set(case) <= {"name", "doc", "params", "symbols", "setup", "steps", "calls"}, (game, param.id)
            for step in case.get("steps", []):
                assert set(step) <= known, (game, param.id, sorted(set(step) - known))
