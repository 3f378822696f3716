"""Fightball's rules engine and bots: the scorer's properties over random stacks (hypothesis), the fast round's
interface and invariants, the data it refuses, and whole games with both bots, on the fixture
(tests/games/fightball/fightball_fixture.py) and on the real workbook. The worked examples of fightball.md §4 are scenario
files (tests/games/cases/fightball/*.json, run by tests/games/test_scenarios.py)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.games.fightball.bots import AHEAD_BAR, BOTS, HeuristicBot, USEFUL, best_place
from pipeline.games.fightball.engine import CHANCE, evaluate_stack, new_game
from pipeline.games.fightball.engine.data import BALL, BUZZ, EFFECT, PLAYER, SHOT, legal_attack_cell
from pipeline.games.fightball.engine.scoring import (DONE, FALSE_START, FOULED, HURRIED_SHOT, PLAY, TOO_LATE, finish,
                                                     read_stack)
from tests.games.fightball.fightball_fixture import fixture_data, fixture_rows, workbook_records
from tests.games.playout import play, sample

DATA = fixture_data()
FOULS = {FALSE_START, TOO_LATE, HURRIED_SHOT}
PLAYABLE = [card.index for card in DATA.cards if card.kind != BUZZ]

placed = st.tuples(st.sampled_from(PLAYABLE), st.integers(0, 1))
stacks = st.lists(placed, min_size=1, max_size=9)
cells = st.sampled_from(DATA.cells)


def awards(cell, stack, data=DATA):
    return evaluate_stack(cell, stack, data.params, data)


# --- the scorer's properties -----------------------------------------------------------------------------------

@settings(max_examples=400, deadline=None)
@given(cells, stacks)
def test_points_are_never_negative_and_fouls_go_to_the_other_coach(cell, stack):
    found = awards(cell, stack)
    assert all(points > 0 for _, points, _ in found)
    placers = {seat for _, seat in stack}
    for coach, _, kind in found:
        if kind in FOULS:                   # charged to the placer of a card: the other coach scores
            assert 1 - coach in placers
    assert sum(1 for _, _, kind in found if kind == PLAY) <= 1
    assert sum(1 for _, _, kind in found if kind == TOO_LATE) <= 1


def _without_effect_ops(data):
    return tuple(card._replace(ops=()) if card.kind == EFFECT else card for card in data.cards)


@settings(max_examples=400, deadline=None)
@given(cells, stacks)
def test_a_fouls_points_are_never_stolen(cell, stack):
    """Effects (steals included) never change the stack's fouls: the same fouls with every effect made blank."""
    rules = DATA.rules
    fouls = [a for a in awards(cell, stack) if a[2] in FOULS]
    blank = _without_effect_ops(DATA)
    plain = finish(read_stack(stack, cell, rules, blank), cell, rules, blank, DATA.move_points)
    assert fouls == [a for a in plain if a[2] in FOULS]


@settings(max_examples=300, deadline=None)
@given(cells, stacks, stacks)
def test_cards_above_a_false_start_or_the_first_late_card_never_change_the_result(cell, stack, more):
    play = read_stack(stack, cell, DATA.rules, DATA.cards)
    if play.status == FOULED or (play.status == DONE and play.late):
        assert awards(cell, stack + more) == awards(cell, stack)


PLAYERS = [card.index for card in DATA.cards if card.kind == PLAYER]
BALLS = [card.index for card in DATA.cards if card.kind == BALL]
SHOTS = [card.index for card in DATA.cards if card.kind == SHOT]


@settings(max_examples=300, deadline=None)
@given(cells, st.sampled_from(PLAYERS), st.sampled_from(BALLS), st.sampled_from(SHOTS), stacks, placed, stacks)
def test_cards_above_the_first_late_card_never_change_the_result(cell, attacker, ball, shot, middle, late, more):
    """A complete play (whatever lies between its attacker and its Shot card), a late card, then anything."""
    seat = 0 if legal_attack_cell(cell, 0) else 1
    stack = [(attacker, seat)] + [p for p in middle if DATA.cards[p[0]].kind != SHOT] + [(ball, 1), (shot, 0), late]
    assert read_stack(stack, cell, DATA.rules, DATA.cards).late
    found = awards(cell, stack)
    assert awards(cell, stack + more) == found
    assert [a for a in found if a[2] == TOO_LATE] == [(1 - late[1], 1, TOO_LATE)]


@settings(max_examples=300, deadline=None)
@given(cells, stacks)
def test_the_first_card_decides_the_false_start(cell, stack):
    (card, seat), found = stack[0], awards(cell, stack)
    legal = DATA.cards[card].kind == PLAYER and legal_attack_cell(cell, seat)
    assert (found == [(1 - seat, cell.points, FALSE_START)]) != legal


@settings(max_examples=200, deadline=None)
@given(cells, stacks)
def test_a_shot_card_below_the_ball_is_a_hurried_shot_worth_the_parameter(cell, stack):
    data = DATA.with_params(hurried_shot_points=3)
    for coach, points, kind in awards(cell, stack, data):
        assert points == 3 or kind != HURRIED_SHOT


def test_move_play_and_zone_values_follow_the_field():
    north, south = DATA.move_points
    assert north[-1] == south[-1] == 3 and north[0] == north[1] == 2
    rows = [[DATA.cell_at[r * 5 + c] for c in range(5)] for r in range(5)]
    assert rows[2][2] is None and len(DATA.cells) == 24
    assert {cell.owner for cell in rows[0] + rows[1] if cell.colour != 2} == {0}
    assert {cell.owner for cell in rows[3] + rows[4] if cell.colour != 2} == {1}


# --- the data the engine refuses --------------------------------------------------------------------------------

@pytest.mark.parametrize("change, message", [
    ({"team_north": "nobody"}, "team_north"), ({"threshold": 0}, "threshold"), ({"tie_rule": "coin"}, "tie_rule"),
])
def test_bad_parameters_are_refused_by_name(change, message):
    with pytest.raises(ValueError, match=message):
        fixture_data(**change)


@pytest.mark.parametrize("sheet, row, column, value, message", [
    ("effect_ops", 0, "arg", "five", "number"), ("effect_ops", 0, "phase", "TOTAL", "phase"),
    ("effect_ops", 0, "op", "DISCARD_SEARCH", "unknown effect op"), ("teams", 1, "buzz", 0, "BUZZ"),
    ("effect_ops", 0, "effect", "nord_nothing", "nord_hp has no operation"),
])
def test_bad_rows_are_refused_with_what_is_wrong(sheet, row, column, value, message):
    rows = fixture_rows()
    rows[sheet][row][column] = value
    with pytest.raises(ValueError, match=message):
        fixture_data(rows)


def test_fightball_is_for_two_coaches():
    with pytest.raises(ValueError, match="2 coaches"):
        new_game(DATA, 3)


# --- the fast round ---------------------------------------------------------------------------------------------

def _walk(data, seed: int, names=("heuristic", "heuristic")):
    """A whole game step by step: yields each state before its step."""
    state, rng = new_game(data), random.Random(seed)
    bots = [BOTS[name](seat) for seat, name in enumerate(names)]
    while not state.is_terminal():
        yield state
        seat = state.current_player()
        state.apply_action(sample(state.chance_outcomes(), rng) if seat == CHANCE else bots[seat].choose(state, rng))
    yield state


def test_legal_actions_are_ordered_and_every_one_is_accepted():
    seen = Counter()
    for state in _walk(DATA, 3, ("random", "random")):
        if state.is_terminal() or state.current_player() == CHANCE:
            continue
        legal = state.legal_actions()
        seat, hand = state.current_player(), state.hand[state.current_player()]
        if hand == -1:
            assert legal[0] == ("DRAW_DECK",) and legal[1:] in ([], [("TAKE_DISCARD_TOP",)])
            assert (len(legal) == 2) == bool(state.discard[seat])
        elif hand == DATA.buzz[seat]:
            assert legal == [("PLACE_BUZZ",)]
        else:
            assert legal[:24] == [("PLACE", cell) for cell in DATA.cell_ids]
            assert legal[24:] == ([("DISCARD",)] if state.from_deck[seat] else []) + (
                [("HOLD",)] if state.waiting == -1 else [])                 # no hold while the other holds
        seen[len(legal)] += 1
        for action in random.Random(len(seen)).sample(legal, min(3, len(legal))):
            state.clone().apply_action(action)
    assert {1, 2, 25, 26} <= set(seen)


def test_refused_actions_leave_the_state_as_it_was():
    for number, state in enumerate(_walk(DATA, 4)):
        if number % 37 or state.is_terminal():
            continue
        before = state.snapshot()
        for action in (("PLACE", 12), ("PLACE", 25), ("PLACE", "1"), ("DISCARD", 1), ("FLY",), "nord_buzz", 7):
            if action in state.legal_actions():
                continue
            with pytest.raises(ValueError):
                state.apply_action(action)
            assert state.snapshot() == before


def test_quarter_scores_are_the_scorer_on_the_quarters_stacks():
    """The engine keeps each cell's awards as cards land; at scoring they equal evaluate_stack on the stacks."""
    quarter, checked = 1, 0
    for state in _walk(DATA, 5):
        if state.quarter != quarter or state.is_terminal():
            expected = [0, 0]
            for cell in DATA.cells:
                for coach, points, _ in awards(cell, state.last_stacks[cell.index]):
                    expected[coach] += points
            assert state.quarter_scores[-1] == expected
            quarter, checked = state.quarter, checked + 1
        else:
            live = [0, 0]
            for cell in DATA.cells:
                for coach, points, _ in state.awards[cell.index]:
                    live[coach] += points
            assert state.live == live
    assert checked == 4 and state.scores == [sum(q[s] for q in state.quarter_scores) for s in range(2)]


def test_cards_are_conserved_within_a_quarter():
    for number, state in enumerate(_walk(DATA, 6)):
        if number % 11 or state.is_terminal():
            continue
        for seat in range(2):
            on_field = sum(1 for stack in state.stacks for _, s in stack if s == seat)
            held = state.hand[seat] != -1 and state.hand[seat] != DATA.buzz[seat]
            assert state.left[seat] + len(state.discard[seat]) + on_field + held == DATA.size[seat]


# --- whole games --------------------------------------------------------------------------------------------

OUTCOME_KEYS = {"scores", "rounds", "turns", "end_reason", "cap", "counters", "quarters"}


@pytest.mark.parametrize("names", [("heuristic", "heuristic"), ("random", "random"), ("heuristic", "random"),
                                   ("random", "heuristic")])
def test_games_end_by_the_rules(names):
    for seed in range(8):
        outcome = play(new_game(DATA), BOTS, names, seed)
        assert set(outcome) == OUTCOME_KEYS and outcome["cap"] is None
        assert outcome["rounds"] == 4 and len(outcome["quarters"]) == 4
        assert outcome["end_reason"] in ("final", "draw")
        assert outcome["scores"] == [sum(q[s] for q in outcome["quarters"]) for s in range(2)]
        counters = outcome["counters"]
        assert counters.get("buzz:north", 0) + counters.get("buzz:south", 0) == 4
        by_source = sum(v for k, v in counters.items() if k.startswith("points:"))
        assert by_source == sum(outcome["scores"])


def test_overtime_ends_within_its_quarters():
    data = DATA.with_params(tie_rule="overtime", overtime_quarters=2, quarters=1)
    reasons = Counter()
    for seed in range(40):
        outcome = play(new_game(data), BOTS, ("heuristic", "heuristic"), seed)
        reasons[outcome["end_reason"]] += 1
        assert 1 <= outcome["rounds"] <= 3
        assert (outcome["rounds"] > 1) == (outcome["quarters"][0][0] == outcome["quarters"][0][1])
    assert reasons["final"] > 20


def test_the_same_seed_replays_the_same_game():
    first = play(new_game(DATA), BOTS, ("heuristic", "random"), 21)
    assert play(new_game(DATA), BOTS, ("heuristic", "random"), 21) == first
    assert len({repr(play(new_game(DATA), BOTS, ("heuristic", "random"), s)) for s in range(22, 26)}) == 4


def test_the_heuristic_beats_the_random_player():
    scores = [play(new_game(DATA), BOTS, ("heuristic", "random"), seed)["scores"] for seed in range(10)]
    assert sum(north > south for north, south in scores) >= 9


def test_a_bot_choice_is_legal_reads_only_its_rng_and_changes_nothing():
    for number, state in enumerate(_walk(DATA, 8)):
        if number % 13 or state.is_terminal() or state.current_player() == CHANCE:
            continue
        before = state.snapshot()
        bot = HeuristicBot(state.current_player())
        action = bot.choose(state, random.Random(number))
        assert action == bot.choose(state, random.Random(number)) and action in state.legal_actions()
        assert state.snapshot() == before


def test_ahead_the_heuristic_runs_to_the_buzz():
    """A drawn card worth a little (0 < value <= AHEAD_BAR) is placed when level or behind, discarded when ahead;
    with only the BUZZ left, a useful discard-pile card is taken back only when not ahead."""
    data = DATA.with_params(bot_error_pct=0)
    seen = Counter()
    for state in _walk(data, 9):
        seat = state.current_player()
        if seat < 0:
            continue
        ahead, hand = state.live[seat] > state.live[1 - seat], state.hand[seat]
        action = HeuristicBot(seat).choose(state, random.Random(0))
        if hand != -1 and hand != data.buzz[seat] and state.from_deck[seat]:
            value = best_place(state, hand, seat, False)[1]
            if 0 < value <= AHEAD_BAR:
                assert (action == ("DISCARD",)) == ahead
                seen["ahead" if ahead else "not ahead"] += 1
        elif hand == -1 and state.left[seat] == 0 and state.discard[seat]:
            useful = best_place(state, state.discard[seat][-1], seat, True)[1] > USEFUL
            assert (action == ("TAKE_DISCARD_TOP",)) == (useful and not ahead)
            seen["last"] += 1
    assert seen["ahead"] and seen["not ahead"] and seen["last"], seen


def test_the_workbook_plays_with_both_bots():
    records = workbook_records()
    if records is None:
        pytest.skip("sheets/fightball.xlsx is not there yet")
    from pipeline.games.fightball import SIMULATION, game_data, nominal
    from pipeline.play.contract import with_rules
    from pipeline.play.driver import play as drive
    data = game_data(records)
    assert data.size == (43, 43)                # 44-card decks, the BUZZ apart
    assert 0 < nominal(records)["plays:valid/plays:complete"] < 1
    teams = sorted(rec["id"] for rec in records["teams"])
    for north, south in zip(teams, teams[1:] + teams[:1]):
        matched = with_rules(records, (("team_north", north), ("team_south", south)))
        for bots in (("heuristic", "heuristic"), ("random", "heuristic")):
            for seed in range(3):
                outcome = drive(SIMULATION, matched, 2, seed, bots)
                assert outcome["error"] is None and not outcome["stuck"], (north, south, bots, outcome["error"])
                assert outcome["end_reason"] in ("final", "draw") and outcome["rounds"] == 4
