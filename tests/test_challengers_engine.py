"""Challengers' rules engine: the pairing chart (circle method, §3.5)."""

from __future__ import annotations

import pytest

from pipeline.games.challengers.engine.pairing import pairings, participants_for


def test_eight_participants_meet_every_other_exactly_once_in_seven_rounds():
    table = pairings(8, 7)
    met = [pair for round_ in table for pair in round_]
    assert len(met) == 28 and len(set(met)) == 28
    assert all(sorted(x for pair in round_ for x in pair) == list(range(8)) for round_ in table)


@pytest.mark.parametrize("players, participants, per_round", [(1, 2, 1), (2, 2, 1), (3, 4, 2), (4, 4, 2),
                                                              (5, 6, 3), (6, 6, 3), (7, 8, 4), (8, 8, 4)])
def test_robot_joins_odd_counts_and_everyone_plays_each_round(players, participants, per_round):
    assert participants_for(players) == participants
    for round_ in pairings(participants, 7):
        assert len(round_) == per_round
        assert sorted(x for pair in round_ for x in pair) == list(range(participants))


def test_six_participants_meet_new_opponents_for_five_rounds_then_repeat():
    table = pairings(6, 7)
    first_cycle = [pair for round_ in table[:5] for pair in round_]
    assert len(set(first_cycle)) == 15
    assert table[5] == table[0] and table[1] == [(0, 2), (1, 5), (3, 4)]


def test_odd_participant_count_is_refused():
    with pytest.raises(ValueError):
        pairings(5, 1)
