"""One conformance suite over the registry (STYLE.md habit 9): every game with a rules engine, every player
count it supports and every bot it ships, through the interface `pnp simulate` uses. Seeded playouts end by
the rules under the cap; a decision node always has legal actions; chance outcomes are a distribution; an
illegal action is refused with the state unchanged; the same seed replays the same game."""

from __future__ import annotations

import math
import random

import pytest

from pipeline.core.errors import Report
from pipeline.games import REGISTRY, load_game
from pipeline.play.contract import CHANCE
from pipeline.play.driver import flag_of, play
from pipeline.validate import load_records
from tests.conftest import ROOT

MAX_STEPS = 100_000
NOT_AN_ACTION = ("not-an-action", -7)


@pytest.fixture(scope="module", params=sorted(REGISTRY))
def game(request):
    module = load_game(request.param, ROOT)
    report = Report()
    records = load_records(module, ROOT, report)
    assert records is not None, [str(p) for p in report.errors]
    assert module.simulation is not None, f"{request.param} is registered without a rules engine"
    return request.param, module.simulation, records


def _settings(sim, records):
    low, high = sim.player_range(records)
    return [(players, bot) for players in range(low, high + 1) for bot in sorted(sim.bots)]


def test_seeded_playouts_keep_the_interface_and_end_by_the_rules(game):
    name, sim, records = game
    for players, bot in _settings(sim, records):
        for seed in range(2):
            rng = random.Random(seed)
            bots = [sim.bots[bot](seat) for seat in range(players)]
            state, steps = sim.new_game(records, players), 0
            while not state.is_terminal():
                seat = state.current_player()
                if seat == CHANCE:
                    outcomes = state.chance_outcomes()
                    assert outcomes and math.isclose(sum(p for _, p in outcomes), 1.0, abs_tol=1e-9), (name, steps)
                    assert all(p >= 0 for _, p in outcomes)
                    action = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
                else:
                    assert 0 <= seat < players and state.legal_actions(), (name, players, bot, seed, steps)
                    action = bots[seat].choose(state, rng)
                if steps % 97 == 0:
                    before = str(state)
                    with pytest.raises(ValueError):
                        state.apply_action(NOT_AN_ACTION)
                    assert str(state) == before, (name, "an illegal action changed the state")
                state.apply_action(action)
                steps += 1
                assert steps < MAX_STEPS, (name, players, bot, seed, "did not end")
            outcome = state.outcome()
            assert flag_of(outcome) is None, (name, players, bot, seed, outcome.get("cap"))
            returns = state.returns()
            # a solo game is won or lost against an automated opponent: 1, ½ (a draw) or 0
            total_ok = sum(returns) in (0.0, 0.5, 1.0) if players == 1 else math.isclose(sum(returns), 1.0)
            assert len(returns) == players and total_ok, (name, returns)


def test_the_same_seed_replays_the_same_game(game):
    name, sim, records = game
    players = sim.default_players
    bots = (sorted(sim.bots)[0],) * players
    first = play(sim, records, players, 11, bots)
    assert play(sim, records, players, 11, bots) == first
    others = {repr(sorted(play(sim, records, players, seed, bots).items())) for seed in range(12, 16)}
    assert len(others) == 4, f"{name}: different seeds gave the same game"
