"""Challengers faithful to its seed (issue 30), over many seeded games on the shipped workbook: a robot level swap
always brings a strictly stronger card, the solo robot's levels make it harder, the drafter uses its redraw."""

from __future__ import annotations

import copy
import random

import pytest

from pipeline.games.challengers.bots import BOTS
from pipeline.games.challengers.engine import CHANCE, new_game
from tests.games.challengers.challengers_fixture import workbook_records
from tests.games.playout import run, sample


def workbook_data(**params):
    loaded = workbook_records()
    if loaded is None:
        pytest.skip("sheets/challengers.xlsx does not exist yet")
    from pipeline.games.challengers import game_data
    data = copy.copy(game_data(loaded[1]))
    data.params = {**data.params, **params}
    return data


def swaps_seen(data, players: int, seed: int) -> list[tuple[int, int]]:
    """Every level swap of a seeded game as (strength out, strength in), read from the robot's deck before and
    after each swap (independent of how the engine picks them)."""
    state, rng = new_game(data, players), random.Random(seed)
    bots = [BOTS["drafter"](s) for s in range(players)]
    swaps, out = [], None
    while not state.is_terminal():
        player = state.current_player()
        if player != CHANCE:
            state.apply_action(bots[player].choose(state, rng))
            continue
        in_robot_phase, before = state.phase == "robot", dict(state.decks[state.robot]) if state.robot >= 0 else {}
        state.apply_action(sample(state.chance_outcomes(), rng))
        if not in_robot_phase:
            continue
        after = state.decks[state.robot]
        lost = [c for c in before if after.get(c, 0) < before[c]]
        gained = [c for c in after if after[c] > before.get(c, 0)]
        if lost:
            out = data.cards[lost[0]].strength
        if gained:                          # the gain may follow its card out at once (a single outcome)
            swaps.append((out, data.cards[gained[0]].strength))
    return swaps


@pytest.mark.parametrize("players", [1, 3, 5, 7])
def test_every_level_swap_brings_a_strictly_stronger_card(players):
    swaps = []
    for level in (2, 3, 4, 5):
        data = workbook_data(robot_level=level, solo_robot_deck="per_round")
        for seed in range(25 if players < 5 else 8):
            swaps += swaps_seen(data, players, seed)
    assert len(swaps) > 50
    assert [s for s in swaps if s[1] <= s[0]] == []


def test_the_kept_solo_robot_gets_harder_with_each_level():
    rates = []
    for level in (1, 3, 5):
        data = workbook_data(robot_level=level, solo_robot_deck="kept")
        wins = [run(new_game(data, 1), [BOTS["drafter"](0)], random.Random(seed)).returns()[0] for seed in range(60)]
        rates.append(sum(wins) / len(wins))
    assert rates[0] > rates[1] + 0.1 > rates[2] + 0.2, rates
