"""Fightball faithful to its seed (issue 30): the readings `pnp simulate` replays on the same seeds, the
points by cause (random bots score mostly by false starts, the heuristic bots by plays), and the balance
gates, which play the heuristic bot."""

from __future__ import annotations

from functools import lru_cache

import pytest

from pipeline.core.errors import Report
from pipeline.games import load_game
from pipeline.play import gates as balance
from pipeline.play.driver import check_settings, simulate
from pipeline.play.ratios import compute
from pipeline.play.variants import reading_effects
from tests.conftest import ROOT, validate_game

GAMES = 40


@lru_cache(maxsize=1)
def shipped():
    report, records = validate_game("fightball", ROOT)
    assert not report.errors and records is not None
    return load_game("fightball", ROOT).simulation, records


@lru_cache(maxsize=2)
def run(bots: str):
    sim, records = shipped()
    return simulate(sim, records, GAMES, 3, 2, (bots,))


def shares(result) -> dict[str, float]:
    from pipeline.games.fightball import POINTS_BY_CAUSE

    table = compute(POINTS_BY_CAUSE, result)
    return {row.key: row.rates[0].rate for row in table.rows}


def test_the_rules_sheet_plays_the_seeds_reading_of_the_same_name_player():
    _, records = shipped()
    values = {rec.get("parameter"): rec.get("value") for rec in records["rules"]}
    assert values["new_attacker_same_name_compares"] == "first"       # seed l.91: "le premier attaquant"
    assert values["shot_at_buzz"] == "taken_back"


def test_simulate_replays_every_declared_reading_on_the_same_seeds():
    sim, records = shipped()
    result = run("heuristic")
    rows = reading_effects(sim, records, result)
    assert [(name, used, other, compared) for name, used, other, compared, *_ in rows] == [
        ("new_attacker_same_name_compares", "first", "current", GAMES), ("tie_rule", "draw", "overtime", GAMES),
        ("shot_at_buzz", "taken_back", "placed", GAMES)]
    changed = {name: n for name, _, _, _, n, *_ in rows}
    assert 0 < changed["shot_at_buzz"] < GAMES           # a Shot card landing at the BUZZ decides some games


def test_shot_cards_held_at_the_buzz_are_counted_and_land_only_in_the_placed_reading():
    sim, records = shipped()
    from pipeline.play.contract import with_rules

    placed = simulate(sim, with_rules(records, (("shot_at_buzz", "placed"),)), GAMES, 3, 2, ("heuristic",))
    held = {c.name: c.total for c in dict(run("heuristic").frequencies)["shot_at_buzz"]}
    again = {c.name: c.total for c in dict(placed.frequencies)["shot_at_buzz"]}
    assert held.get("held", 0) > 0 and "placed" not in held
    assert 0 < again["placed"] <= again["held"]


def test_points_by_cause_random_bots_score_by_false_starts_the_heuristic_by_plays():
    random_shares, heuristic_shares = shares(run("random")), shares(run("heuristic"))
    assert list(random_shares) == ["valid plays", "false starts", "too-late cards", "hurried shots",
                                   "fouls made by effects"]
    for found in (random_shares, heuristic_shares):
        assert sum(found.values()) == pytest.approx(1.0)
    assert random_shares["false starts"] > 0.8 and random_shares["valid plays"] < 0.05
    assert heuristic_shares["false starts"] < 0.2 and heuristic_shares["valid plays"] > 0.7


def test_balance_gates_play_the_heuristic_bot_and_gate_the_false_starts():
    sim, records = shipped()
    assert check_settings(sim, 2, None) == ("heuristic", "heuristic")     # measure_gates passes no bots
    gates = {g.metric.name: g for g in balance.read_gates(sim, records, Report())}
    gate = gates["cause:false_start"]
    assert (gate.low, gate.high) == (None, 0.2)
    heuristic = balance.judge(gate, gate.metric.measure(run("heuristic")), GAMES)
    random = balance.judge(gate, gate.metric.measure(run("random")), GAMES)
    assert heuristic.state == balance.HOLDS and heuristic.measure.value < 0.2
    assert random.state == balance.FAILS and random.measure.low > 0.8


# --- holding: a coach may wait, the race still ends -------------------------------------------------------------

class Waiter:
    """Holds whenever it may, else plays at random: the worst case for a stall."""

    def __init__(self, seat: int):
        self.seat = seat

    def choose(self, state, rng):
        legal = state.legal_actions()
        return ("HOLD",) if ("HOLD",) in legal else rng.choice(legal)


@pytest.mark.parametrize("seed", range(3))
def test_holding_never_stalls_the_race_every_hold_is_followed_by_a_move(seed):
    import random

    from pipeline.games.fightball.engine import CHANCE
    from tests.games.fightball.fightball_fixture import fixture_data
    from pipeline.games.fightball.engine import new_game

    state, rng = new_game(fixture_data()), random.Random(seed)
    seats, last, holds, moves = [Waiter(0), Waiter(1)], None, 0, 0
    for _ in range(20_000):
        if state.is_terminal():
            break
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
            continue
        action = seats[state.current_player()].choose(state, rng)
        assert not (action == ("HOLD",) and last == ("HOLD",))          # two holds in a row never happen
        holds, moves = holds + (action == ("HOLD",)), moves + (action != ("HOLD",))
        last = action
        state.apply_action(action)
    assert state.is_terminal() and state.end_reason in ("final", "draw") and state.quarter == 4
    assert 0 < holds <= moves
    assert state.counters["hold:north"] + state.counters["hold:south"] == holds


def test_the_heuristic_waits_once_for_a_ball_then_throws_its_shot_card_away():
    import random

    from pipeline.games.fightball.bots import HeuristicBot
    from pipeline.games.fightball.engine import new_game
    from tests.games.fightball.fightball_fixture import fixture_data, tiny_rows

    data = fixture_data(tiny_rows({"nord_shot_b": 1, "nord_wall": 1, "sud_rook": 1, "sud_zip": 1, "sud_shot": 1}),
                        bot_error_pct=0)
    state, rng, bot = new_game(data), random.Random(0), HeuristicBot(0)
    for action in (1, ("DRAW_DECK",), "sud_rook", 1, ("PLACE", 5), 0, ("DRAW_DECK",), "nord_shot_b", 0):
        state.apply_action(action)
    assert bot.choose(state, rng) == ("HOLD",)
    state.apply_action(("HOLD",))
    state.apply_action(("DRAW_DECK",))
    state.apply_action("sud_zip")                   # no ball came
    state.apply_action(1)
    state.apply_action(("PLACE", 6))
    state.apply_action(0)
    assert bot.choose(state, rng) == ("DISCARD",)    # patience 1: it does not wait a second time
    assert HeuristicBot(0).choose(state, rng) == ("HOLD",)     # a fresh judgement would wait again
