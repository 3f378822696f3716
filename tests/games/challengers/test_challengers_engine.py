"""Challengers' rules engine: the pairing chart (circle method, §3.5), properties of a match on any decks
(hypothesis: cards conserved, a bench never above bench_slots names, every match ends by a rule), whole games at
every player count with both bots on the fixture and on the real workbook, determinism, the interface (refused
actions, clones, returns), the robot's deck, and secret trophies (CH-A20)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.games.challengers.bots import BOTS
from pipeline.games.challengers.engine import CHANCE, Match, new_game
from pipeline.games.challengers.engine.pairing import pairings, participants_for
from tests.games.challengers.challengers_fixture import fixture_data, workbook_records
from tests.games.playout import run, sample

DATA = fixture_data()
GAME_CARDS = [c.index for c in DATA.cards if not c.id.startswith("t_")]


# --- pairing ------------------------------------------------------------------------------------------------

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


# --- a match on any decks -----------------------------------------------------------------------------------

decks = st.lists(st.sampled_from(GAME_CARDS), min_size=0, max_size=24)


def _counts(cards):
    return dict(Counter(cards))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deck0=decks, deck1=decks, seed=st.integers(0, 2 ** 16), slots=st.integers(1, 8),
       order=st.sampled_from(["losing_flag_first", "bench_first"]), opening=st.booleans())
def test_a_match_conserves_cards_keeps_benches_within_slots_and_ends(deck0, deck1, seed, slots, order, opening):
    params = {**DATA.params, "bench_slots": slots, "capture_order": order, "opening_triggers_on_attack": opening,
              "max_reveals_per_match": 500}
    match, rng = Match(DATA, _counts(deck0), _counts(deck1), params), random.Random(seed)
    for _ in range(5000):
        side = match.pending()
        if side is None:
            break
        match.feed(sample(match.outcomes(side), rng))
        for s, deck in ((0, deck0), (1, deck1)):
            assert Counter(match.every_card(s)) == Counter(deck), (s, str(match))
            assert len(match.bench[s]) <= slots
            assert all(len({DATA.cards[c].slot for c in slot}) == 1 for slot in match.bench[s].values())
    assert match.pending() is None and match.winner in (0, 1)
    assert match.end in ("empty_deck", "bench_full", "cap")
    if match.end == "empty_deck":
        assert match.cards_left(1 - match.winner) == 0
    if match.end == "cap":
        assert match.reveals == 500


def test_an_empty_deck_loses_at_the_opening():
    match = Match(DATA, {}, {DATA.index["city_recrue"]: 1})
    assert match.pending() is None and match.winner == 1 and match.end == "empty_deck"


# --- whole games --------------------------------------------------------------------------------------------

def _play(data, players, bot, seed):
    state = new_game(data, players)
    return run(state, [BOTS[bot](seat) for seat in range(players)], random.Random(seed))


@pytest.mark.parametrize("bot", sorted(BOTS))
@pytest.mark.parametrize("players", range(1, 9))
def test_whole_games_end_by_the_rules_on_the_fixture(players, bot):
    for seed in range(3):
        state = _play(DATA, players, bot, seed)
        out = state.outcome()
        assert state.is_terminal() and out["cap"] is None
        expected = {"lead", "rounds", "draw"} if players <= 2 else {"final"}
        assert out["end_reason"] in expected
        returns = state.returns()
        assert len(returns) == players and (sum(returns) == pytest.approx(1.0) or players == 1)
        if players >= 3:
            assert out["rounds"] == 7 and len(out["finalists"]) == 2 and state.robot not in out["finalists"]
            assert state.winners()[0] in out["finalists"]
            assert out["counters"]["matches"] == 7 * participants_for(players) // 2 + 1
        for seat in range(players):       # what a seat kept is in its deck unless removed
            assert state.deck_size[seat] == sum(state.decks[seat].values()) >= 1


@pytest.mark.parametrize("players", range(1, 9))
def test_whole_games_on_the_workbook(players):
    loaded = workbook_records()
    assert loaded is not None, "sheets/challengers.xlsx is missing or does not load"
    from pipeline.play.driver import play
    sim, records = loaded
    for bot in sorted(BOTS):
        for seed in range(2):
            out = play(sim, records, players, seed, (bot,) * players)
            assert out["error"] is None and not out["stuck"] and out["cap"] is None, out
            assert out["end_reason"] in ({"lead", "rounds", "draw"} if players <= 2 else {"final"})
            assert out["counters"]["matches"] >= 1 and out["counters"]["reveals"] >= out["counters"]["matches"]


def test_the_same_seed_plays_the_same_game_and_another_seed_another():
    first = _play(DATA, 4, "drafter", 5).outcome()
    assert _play(DATA, 4, "drafter", 5).outcome() == first
    assert _play(DATA, 4, "drafter", 6).outcome() != first


def test_solo_returns_one_only_when_the_player_beats_the_robot():
    seen, strong_robot = set(), fixture_data(robot_level=5, solo_challenge=True)
    for seed in range(40):
        state = _play(strong_robot, 1, "drafter", seed)
        player, robot = state.fans_of(0), state.fans_of(state.robot)
        seen.add(state.returns()[0])
        if state.returns() == [1.0]:
            assert player > robot
        elif state.returns() == [0.0]:
            assert robot >= player
    assert seen <= {0.0, 0.5, 1.0} and len(seen) >= 2


def test_counters_name_offered_picked_and_the_winners_cards():
    state = _play(DATA, 4, "drafter", 1)
    c = state.outcome()["counters"]
    picked = sum(v for k, v in c.items() if k.startswith("picked:"))
    assert picked == sum(len(p) for p in state.picks)
    assert sum(v for k, v in c.items() if k.startswith("offered:")) >= 5 * 7 * 4
    winner = state.winners()[0]
    assert sum(v for k, v in c.items() if k.startswith("picked_by_winner:")) == len(state.picks[winner])
    assert sum(v for k, v in c.items() if k.startswith("match_end:")) == c["matches"]
    assert all(k.split(":")[1].split("|")[0] == "+".join(state.chosen) for k in c if k.startswith("set_lead"))


# --- the interface ------------------------------------------------------------------------------------------

def _midgame(players=4, steps=150, seed=3, until=None):
    state, rng = new_game(DATA, players), random.Random(seed)
    bots = [BOTS["random"](s) for s in range(players)]
    for _ in range(steps):
        seat = state.current_player()
        if state.is_terminal() or (until is not None and until(state)):
            break
        state.apply_action(sample(state.chance_outcomes(), rng) if seat == CHANCE else bots[seat].choose(state, rng))
    return state


@pytest.mark.parametrize("steps", [0, 40, 150, 400])
def test_refused_actions_change_nothing_and_clones_are_independent(steps):
    state = _midgame(steps=steps)
    before = state.snapshot()
    for action in (("pick", "castle_roi"), ("remove", "nope"), ("option", 9), ("redraw", 1), "not-a-card", 99):
        with pytest.raises(ValueError):
            state.apply_action(action)
        assert state.snapshot() == before
    twin = state.clone()
    run(twin, [BOTS["drafter"](s) for s in range(4)], random.Random(0))
    assert state.snapshot() == before and twin.is_terminal()


def test_chance_outcomes_are_distributions_in_a_stable_order():
    state, rng = new_game(DATA, 3), random.Random(2)
    bots = [BOTS["drafter"](s) for s in range(3)]
    kinds = Counter()
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            assert len(outcomes) >= 2 and sum(p for _, p in outcomes) == pytest.approx(1.0)
            assert state.chance_outcomes() == outcomes
            kinds[state.phase] += 1
            state.apply_action(sample(outcomes, rng))
        else:
            state.apply_action(bots[state.current_player()].choose(state, rng))
    assert {"sets", "hand", "robot", "match", "trophy"} <= set(kinds)


def test_the_robot_swaps_level_minus_one_cards_for_r_cards():
    for level in (1, 3, 5):
        data = fixture_data(robot_level=level, sets="castle,circus,forest,harbour,space")
        state = new_game(data, 3)
        rng = random.Random(level)
        bots = [BOTS["drafter"](s) for s in range(3)]
        while state.phase not in ("start", "match"):
            seat = state.current_player()
            state.apply_action(sample(state.chance_outcomes(), rng) if seat == CHANCE
                               else bots[seat].choose(state, rng))
        robot = state.decks[state.robot]
        r_cards = sum(n for c, n in robot.items() if data.cards[c].level == "R")
        assert r_cards == level - 1 and sum(robot.values()) == 6          # round 1: 3 Bras, 2 Pinces, 1 Laser


def test_trophy_values_are_secret_in_three_to_eight_player_games_until_the_end():
    state = _midgame(players=4, steps=10 ** 6, until=lambda s: s.round == 3)
    holder = next((p for p in range(4) if state.trophies[p]), None)
    assert holder is not None and not state.is_terminal()
    other = (holder + 1) % 4
    assert all(value is None for _, value in state.visible_trophies(other, holder))
    assert state.visible_trophies(holder, holder) == state.trophies[holder]
    duo = _play(DATA, 2, "drafter", 0)
    assert duo.visible_trophies(0, 1) == duo.trophies[1]


# --- rule parameters ----------------------------------------------------------------------------------------

def test_fans_count_trophy_values_or_one_per_trophy():
    from pipeline.games.challengers.engine.scoring import fans
    assert fans([(1, 3), (7, 10)], 2) == 15 and fans([(1, 3), (7, 10)], 2, "count") == 4
    state = _play(fixture_data(fans_from_trophies="count"), 2, "drafter", 4)
    assert state.outcome()["scores"] == [len(state.trophies[s]) + state.tokens[s] for s in range(2)]


@pytest.mark.parametrize("rule, reason, phase", [("draw", "draw", "over"), ("random", None, "tie")])
def test_a_two_player_tie_after_round_seven_is_a_draw_or_chance(rule, reason, phase):
    state = new_game(fixture_data(duo_tie_rule=rule, sets="castle,circus,forest,harbour,space"), 2)
    state.round, state.trophies, state.tokens = 7, [[(3, 5)], [(2, 5)]], [1, 1]
    state._round_over()
    assert state.phase == phase and state.end_reason == reason
    if rule == "draw":
        assert state.returns() == [0.5, 0.5]
    else:
        assert state.chance_outcomes() == [(0, 0.5), (1, 0.5)]
        state.apply_action(1)
        assert state.returns() == [0.0, 1.0] and state.end_reason == "rounds"


def test_the_solo_challenge_adds_the_robots_solo_cards():
    data = fixture_data(solo_challenge=True, robot_level=1, sets="castle,circus,forest,harbour,space",
                        solo_robot_deck="per_round")
    state = new_game(data, 1)
    state.round = 5
    state._build_robot()
    assert data.index["robot_titan"] in state.decks[state.robot] and state.deck_size[state.robot] == 3 + 3 + 3 + 1
    state = new_game(fixture_data(robot_level=1, sets="castle,circus,forest,harbour,space",
                                  solo_robot_deck="per_round"), 1)
    state.round = 5
    state._build_robot()
    assert data.index["robot_titan"] not in state.decks[state.robot]


def test_a_kept_solo_robot_deck_is_built_once_and_never_grows():
    """Seed l.57: the solo robot gains no new cards: its round-1 deck, SOLO cards and swaps, for the whole game."""
    data = fixture_data(robot_level=3, sets="castle,circus,forest,harbour,space", solo_robot_deck="kept")
    for seed in range(10):
        state, rng, bot = new_game(data, 1), random.Random(seed), BOTS["drafter"](0)
        seen = []
        while not state.is_terminal():
            if state.phase == "start" or (state.phase == "match" and state.match.reveals == 0):
                seen.append((state.round, dict(state.decks[state.robot])))
            player = state.current_player()
            state.apply_action(sample(state.chance_outcomes(), rng) if player == CHANCE else bot.choose(state, rng))
        first = seen[0][1]
        assert sum(first.values()) == 6 and sum(n for c, n in first.items() if data.cards[c].level == "R") == 2
        assert {r for r, _ in seen} == set(range(1, state.round + 1)) and all(deck == first for _, deck in seen)


def test_no_level_swap_when_no_r_card_left_is_stronger():
    data = fixture_data(robot_level=5, sets="castle,circus,forest,harbour,space", solo_robot_deck="per_round")
    state = new_game(data, 3)
    state.round, index = 1, data.index
    state.decks[state.robot], state.r_pool = {index["robot_laser"]: 2}, {index["robot_blindage"]: 3}
    assert state.robot_base() == {}                     # Blindage (4) does not outrank the Laser (4)
    state.r_pool[index["robot_turbo"]] = 1
    assert state.robot_base() == {index["robot_laser"]: 2}
    state.swap_floor = 4
    assert state.robot_gains() == {index["robot_turbo"]: 1}


def test_listed_sets_must_be_sets_per_game_known_ids():
    with pytest.raises(ValueError, match="sets"):
        new_game(fixture_data(sets="castle,circus,forest,harbour"), 2)
    with pytest.raises(ValueError, match="sets"):
        new_game(fixture_data(sets="castle,circus,forest,harbour,city"), 2)
    assert new_game(fixture_data(sets="space,circus,forest,harbour,castle"), 2).chosen == (
        "castle", "circus", "forest", "harbour", "space")


def test_the_drafter_removes_weak_starters_from_round_four_never_below_eight_cards():
    state = new_game(fixture_data(sets="castle,circus,forest,harbour,space"), 2)
    bot, index = BOTS["drafter"](0), state.data.index
    state.phase, state.seat, state.round = "remove", 0, 4
    state.decks[0] = {index["city_recrue"]: 2, index["city_fanfare"]: 1, index["castle_roi"]: 6}
    state.deck_size[0] = 9
    assert bot.choose(state, random.Random(0)) == ("remove", "city_recrue")
    state.decks[0][index["city_recrue"]] = 1
    state.deck_size[0] = 8
    assert bot.choose(state, random.Random(0)) == ("done",)
    state.round, state.deck_size[0] = 3, 12
    assert bot.choose(state, random.Random(0)) == ("done",)
