"""Challengers faithful to its seed (issue 30), over many seeded games on the shipped workbook: a robot level swap
always brings a strictly stronger card, the solo robot's levels make it harder, the drafter uses its redraw."""

from __future__ import annotations

import copy
import random

import pytest

from pipeline.games.challengers.bots import BOTS
from pipeline.games.challengers.engine import CHANCE, new_game
from tests.conftest import ROOT, validate_game
from tests.data.workbook_damage import cell, damaged, find, lines, where
from tests.games.challengers.challengers_fixture import workbook_records
from tests.games.playout import run, sample

BOOK = "sheets/challengers.xlsx"


def workbook_data(**params):
    loaded = workbook_records()
    assert loaded is not None, "sheets/challengers.xlsx is missing or does not load"
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


# --- level piles against rounds and player counts (stage 5, checks/supply.py) --------------------------------

def test_validation_finds_the_level_a_pile_short_at_seven_players_when_hands_may_be_short(project):
    """Worst case, 7 players all taking A in rounds 1-5 (keep 2, draw 5): 56 kept before round 5, whose hands
    need 35 more of the 78 cards left without circus; B from 8 players in round 7 (72 kept + 40 > 76)."""
    report, records = validate_game("challengers", ROOT)
    assert lines(report) == []
    rule = find(records, "rules", "parameter", "short_pile")
    a5 = find(records, "schedule", "round", 5, level="A")
    b7 = find(records, "schedule", "round", 7, level="B")
    assert damaged("challengers", project, BOOK, ("rules", cell(rule, "value"), "deal_what_is_left")) == [
        f"{where(a5, 'level')}: level A pile (without circus): 78 cards; with 7 players all taking it in every round "
        f"that offers it, they keep 56 before round 5, whose hands need 35 more: hands run short from 7 players "
        f"(short_pile deal_what_is_left at {where(rule, 'value')}) [piles]",
        f"{where(b7, 'level')}: level B pile (without circus): 76 cards; with 8 players all taking it in every round "
        f"that offers it, they keep 40 before round 7, whose hands need 40 more: hands run short from 8 players "
        f"(short_pile deal_what_is_left at {where(rule, 'value')}) [piles]"]
    report, back = validate_game("challengers", project)
    assert back is not None and not report.errors                      # a warning: the game stays playable


def test_refill_warns_only_when_every_level_together_runs_short():
    """Piles of 30 A, 20 B, 10 C: refill serves hands from any level, so only the 60 cards together count; 4
    players keep 2 a round (48 before round 7) and round 7's hands need 20: 68 > 60."""
    from pipeline.games.challengers.checks.common import params
    from pipeline.games.challengers.checks.supply import check_supply
    from pipeline.core.errors import Report
    _, records = validate_game("challengers", ROOT)
    p, report = params(records), Report()
    check_supply(records, {**p, "short_pile": "refill"}, {"A": (30, ""), "B": (20, ""), "C": (10, "")}, report)
    b7 = find(records, "schedule", "round", 7, level="B")
    assert lines(report) == [
        f"{where(b7, 'level')}: level A+B+C pile: 60 cards; with 4 players all taking it in every round that offers "
        f"it, they keep 48 before round 7, whose hands need 20 more: hands run short from 4 players (short_pile "
        f"refill at {where(find(records, 'rules', 'parameter', 'short_pile'), 'value')}) [piles]"]
    report = Report()
    check_supply(records, {**p, "short_pile": "refill", "players_max": 4}, {"A": (30, ""), "B": (20, ""),
                                                                            "C": (18, "")}, report)
    assert lines(report) == []                         # 48 + 20 = 68 cards: enough for 4 players


def test_refill_takes_back_the_cards_set_aside_then_the_next_level():
    from tests.games.challengers.challengers_fixture import fixture_data
    data = fixture_data(sets="castle,circus,forest,harbour,space")
    state, index = new_game(data, 2), data.index
    assert state.phase == "hand" and state.draw_level == "A"
    state.piles["A"], state.pile_size["A"] = {}, 0
    state.out = [("A", index["castle_herault"]), ("B", index["castle_reine"])]
    assert not state._level_exhausted() and state.chance_outcomes() == [("castle_herault", 1.0)]
    assert state.piles["A"] == {index["castle_herault"]: 1} and state.out == [("B", index["castle_reine"])]
    state.apply_action("castle_herault")
    assert state.draw_level == "B" and state.counters["next_level_draws"] == 1
    assert {o for o, _ in state.chance_outcomes()} == {data.card_ids[c] for c in state.piles["B"]}
    for card in ("castle_reine", "castle_reine", "forest_ours", "forest_ours"):
        state.apply_action(card)
    assert state.phase == "pick" and data.ids(state.hand) == ["castle_herault", "castle_reine", "castle_reine",
                                                              "forest_ours", "forest_ours"]


def test_deal_what_is_left_leaves_the_hand_short():
    from tests.games.challengers.challengers_fixture import fixture_data
    data = fixture_data(sets="castle,circus,forest,harbour,space", short_pile="deal_what_is_left")
    state, index = new_game(data, 2), data.index
    state.piles["A"], state.pile_size["A"] = {index["castle_herault"]: 2}, 2
    state.apply_action("castle_herault")                # the second, the only card left, follows at once
    assert state.phase == "pick" and len(state.hand) == 2 and state.counters["short_hands"] == 1


# --- the drafter uses its redraw --------------------------------------------------------------------------------

@pytest.mark.parametrize("window, at_least", [("any_time", 30), ("after_first_pick", 5)])
def test_the_drafter_redraws_in_either_window(window, at_least):
    """It redraws when a fresh hand's best card is worth more than its hand's (with the shipped cards: a hand
    without a From the bench partner for a name it owns): 0 times in 400 games before issue 30."""
    data = workbook_data(redraw_window=window)
    redraws = sum(run(new_game(data, 4), [BOTS["drafter"](s) for s in range(4)], random.Random(seed))
                  .counters.get("redraws", 0) for seed in range(20))
    assert redraws >= at_least


# --- the owner chooses the bench card a BENCH_TO_DISCARD sends away (engine/match.py) ---------------------------

@pytest.mark.parametrize("order, offered", [("losing_flag_first", ["city_passant", "city_recrue"]),
                                            ("bench_first", ["city_passant", "city_recrue", "harbour_docker"])])
def test_a_losing_the_flag_discard_waits_for_its_owner_then_the_capture_goes_on(order, offered):
    """Docker (2, Losing the flag: discard 1 bench card) holds the flag over Recrue and Passant; Vigile (3)
    takes it. losing_flag_first: the choice comes before the Docker is benched; bench_first: after."""
    from pipeline.games.challengers.engine import Match
    from tests.games.challengers.challengers_fixture import fixture_data
    data = fixture_data()
    i = data.index
    match = Match(data, {i["harbour_docker"]: 1, i["city_recrue"]: 1}, {i["city_vigile"]: 1, i["city_recrue"]: 1},
                  {**data.params, "capture_order": order}, benches=((i["city_recrue"], i["city_passant"]), ()),
                  deciders=(True, True))
    match.feed(i["harbour_docker"])
    match.feed(i["city_vigile"])
    assert match.choice == (0, 1) and sorted(data.ids(match.choices())) == offered and match.defender == 0
    with pytest.raises(ValueError):
        match.choose(i["city_vigile"])
    match.choose(i["city_passant"])
    assert match.choice is None and match.defender == 1 and data.ids(match.flag[1]) == ["city_vigile"]
    assert data.ids(match.discard[0]) == ["city_passant"] and match.pending() == 0
    assert sorted(data.ids(slot[-1] for slot in match.bench[0].values())) == ["city_recrue", "harbour_docker"]


def test_random_players_choose_bench_discards_in_whole_games():
    data = workbook_data()
    chosen = sum(run(new_game(data, 4), [BOTS["random"](s) for s in range(4)], random.Random(seed))
                 .counters.get("bench_discards_chosen", 0) for seed in range(30))
    assert chosen > 0
