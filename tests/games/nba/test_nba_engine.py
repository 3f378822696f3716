"""NBA Deck-Building's rules engine and bots: the worked examples of nba-deck-building.md §5 as scenario files
(tests/games/cases/nba/*.json, run by tests/games/test_scenarios.py: each vector injects hands and dice and checks each action's
numbers, AMB-15/16), the parameters, the expected-dice tables, then properties over many seeded games
(cards conserved, dice in play, scores, determinism, illegal actions refused) for every variant and option.

The games run on the fixture of tests/games/nba/nba_fixture.py (independent of sheets/nba.xlsx); one test plays the
real workbook when it loads.
"""

from __future__ import annotations

import random

import pytest

from pipeline import PROJECT_ROOT
import pipeline.games.nba as nba_play
from pipeline.games.nba.bots import BOTS, HeuristicBot, RandomBot, cheapest_payment
from pipeline.games.nba.engine import CHANCE, State, TERMINAL, new_game
from pipeline.games.nba.engine.actions import minimal_payments
from pipeline.games.nba.engine.data import SKILL_INDEX
from pipeline.games.nba.engine.rules import expected_best, normal_turns
from tests.games.nba.nba_fixture import PARAMS, fixture_data, fixture_rows
from tests.games.playout import run, sample

WORKBOOK = PROJECT_ROOT / "sheets" / "nba.xlsx"
OUTCOME_KEYS = {"scores", "rounds", "turns", "end_reason", "cap", "blame", "counters", "first_player",
                "money_time_from", "special_by"}


@pytest.fixture(scope="module")
def data():
    return fixture_data()


# --- data and parameters ------------------------------------------------------------------------------------

@pytest.mark.parametrize("change, message", [
    ({"end_rule": "sudden_death"}, "end_rule"), ({"max_steps": 5}, "max_steps"), ({"hand_size": True}, "hand_size"),
    ({"variant_draft": "yes"}, "variant_draft"), ({"cost_window_min": 6, "cost_window_max": 5}, "cost_window_min"),
    ({"length": "marathon"}, "length"),
])
def test_bad_parameters_are_refused_by_name(data, change, message):
    with pytest.raises(ValueError, match=message):
        data.with_params(**change)


def test_missing_parameter_is_named():
    with pytest.raises(ValueError, match="overtime_max"):
        fixture_data().__class__(fixture_data().rows, {k: v for k, v in PARAMS.items() if k != "overtime_max"})


def broken(sheet: str, change) -> None:
    rows = fixture_rows()
    change(rows[sheet])
    from pipeline.games.nba.engine.data import GameData
    GameData.from_rows(rows["skills"], rows["dice"], rows["players"], rows["tactics"], rows["fatigue"],
                       rows["durations"], PARAMS)


@pytest.mark.parametrize("sheet, change, message", [
    ("players", lambda rows: rows[0].update(positions="MJ/C"), "a_starter_mj_1.*positions"),
    ("players", lambda rows: rows[45].update(id="kyle_korver"), "unique.*kyle_korver"),
    ("tactics", lambda rows: rows[0].update(keep_IT=1), "a_base_offense_3_pts.*offence tactic keeps"),
    ("tactics", lambda rows: rows[5].update(keep_IT=0, keep_ST=0), "a_base_defense_switch.*at least one"),
    ("durations", lambda rows: rows.pop(1), "no row for length 'normal'"),
    ("dice", lambda rows: rows[9].update(colour="green"), "green"),
    ("dice", lambda rows: rows.__setitem__(slice(None), [r for r in rows if r["die"] != "ST"]), "die ST has no face"),
    ("players", lambda rows: rows[0].update(initiation=False), "set A has no initiation starter for position MJ"),
    ("players", lambda rows: rows[2].update(value="two"), "a_starter_ai_1.*value"),
])
def test_inconsistent_rows_are_refused(sheet, change, message):
    with pytest.raises(ValueError, match=message):
        broken(sheet, change)


@pytest.mark.parametrize("params, message", [
    ({"variant_draft": True, "draft_rounds": 10}, "draft_rounds"),
    ({"variant_team_selection": True, "team_min_substitutes": 10, "team_min_tactics": 3}, "team_deck_size"),
    ({"length": "epic", "variant_draft": False}, None),
])
def test_games_the_data_cannot_play_are_refused(params, message):
    data = fixture_data(**params)
    if message is None:
        assert new_game(data).current_player() == CHANCE
        return
    with pytest.raises(ValueError, match=message):
        new_game(data)


def test_two_players_only(data):
    with pytest.raises(ValueError, match="played by 2"):
        new_game(data, 3)


def test_expected_tables_match_the_rulebook(data):
    """§2.3's table of the best k of n (k 2, 3; n 2..7), to two decimals."""
    table = {("3P", 2): [5.67, 8.09, 10.04, 11.58, 12.78, 13.73], ("IN", 2): [6.33, 8.58, 10.07, 11.07, 11.76, 12.25],
             ("PE", 2): [7.00, 8.85, 9.89, 10.54, 10.98, 11.28], ("3P", 3): [5.67, 8.50, 11.16, 13.52, 15.56, 17.28],
             ("IN", 3): [6.33, 9.50, 12.12, 14.11, 15.58, 16.66], ("PE", 3): [7.00, 10.50, 12.75, 14.18, 15.15, 15.86]}
    for (die, k), row in table.items():
        assert [round(data.best_table(die)[n][k], 2) for n in range(2, 8)] == row, (die, k)
    # a defence's reduction: the matching faces only (§2.2's per-die table, one die)
    assert round(data.best_table("BL", frozenset({"red"}))[1][1], 2) == 1.00
    assert round(data.best_table("IT", frozenset({"blue"}))[1][1], 2) == 0.83
    assert round(data.best_table("ST", frozenset({"yellow"}))[1][1], 2) == 1.00


def test_expected_best_against_brute_force(data):
    from itertools import product
    faces = [data.face[label][1] for label in data.faces["IN"]]
    for n in range(1, 5):
        for k in range(1, 4):
            rolls = list(product(faces, repeat=n))
            brute = sum(sum(sorted(r, reverse=True)[:k]) for r in rolls) / len(rolls)
            assert expected_best(faces, n, k) == pytest.approx(brute)


def test_nominal_is_the_initiation_fives_expectation(data):
    assert [nba_play.initiation_levels(data)[SKILL_INDEX[s]] for s in ("GI", "3P", "PE", "RB")] == [6, 3, 3, 4]
    kentucky = data.tactic[data.index["kentucky_offense"]]
    assert data.expected_attack(kentucky, nba_play.initiation_levels(data)) == pytest.approx(8.5)   # 3 of 3 blue


def test_minimal_payments_and_the_bots_cheapest_one(data):
    rng = random.Random(7)
    players = [c for c in range(len(data.names)) if data.kind[c] == 0]
    for _ in range(300):
        hand = rng.sample(players, rng.randint(0, 8))
        cost = rng.randint(1, 10)
        pays = minimal_payments(hand, data.value, cost)
        brute = set()
        from itertools import combinations
        for k in range(1, len(hand) + 1):
            for combo in combinations(sorted(hand), k):
                values = [data.value[c] for c in combo]
                if sum(values) >= cost and all(sum(values) - v < cost for v in values):
                    brute.add(combo)
        assert pays == brute
        cheapest = cheapest_payment(hand, data.value, cost)
        if not pays:
            assert cheapest is None
        else:
            assert tuple(sorted(cheapest)) in pays
            assert sum(data.value[c] for c in cheapest) == min(sum(data.value[c] for c in p) for p in pays)


# --- properties over many seeded games -----------------------------------------------------------------------

ILLEGAL = [("bogus",), (), "no-such-card", 42, None, ("end", 1), ("offence", 9), ("defence", "x"),
           ("buy_player", "kyle_korver", ("a_starter_mj_1",)), ("buy_tactic", "nope", ()), ("in", "fatigue", "MJ"),
           ("place", "a_starter_mj_1", 0), ("reroll", ("3P:9",) * 11), ("keep", "nope"), ("trash", "fatigue"),
           ("refresh", (7,)), ("starter", "b_starter_mj_1"), ("draft", (), ()), ("move", "MJ", "MJ", "x"), "3P:3"]
OPTIONS = [
    {}, {"variant_money_time": True, "clutch_players": True}, {"variant_draft": True}, {"variant_team_selection": True},
    {"end_rule": "market_empty_literal"}, {"river_when_pile_empty": "static"}, {"keep_mode": "exactly"},
    {"negative_score": "allow_negative"}, {"fatigue_removed_to": "box", "allow_free_tactic_discard": True},
    {"dice_cap_scope": "per_tactic", "dice_cap": 4}, {"market_sort_key": "value", "first_player": "seat0"},
    {"length": "short", "hand_size": 5, "offence_slots": 1, "defence_slots": 2, "market_slots": 3, "track_slots": 4},
]


def dice_out(state: State, seat: int) -> dict:
    counts: dict = {}
    rolling = state.rolled if state.mover == seat else []
    for label in state.off_zone[seat] + state.def_zone[seat] + rolling:
        die = label.split(":")[0]
        counts[die] = counts.get(die, 0) + 1
    return counts


def check_invariants(state: State, rng: random.Random, last_reveal: list) -> None:
    data = state.data
    if state.turns:
        assert state.total_cards() == data.total_cards, state
    if state.prm["negative_score"] == "clamp0":
        assert min(state.scores) >= 0
    for seat in range(2):
        assert all(n <= data.owned[die] for die, n in dice_out(state, seat).items()), state
    if state.is_terminal():
        assert state.current_player() == TERMINAL and state.legal_actions() == [] and state.chance_outcomes() == []
        return
    player = state.current_player()
    if player == CHANCE:
        outcomes = state.chance_outcomes()
        assert len(outcomes) > 1 and abs(sum(p for _, p in outcomes) - 1) < 1e-9
        assert len({o for o, _ in outcomes}) == len(outcomes)
        if state.kind == "reveal" and state.pile_sorted:
            key = data.value if state.prm["market_sort_key"] == "value" else data.cost
            costs = {key[data.index[o]] for o, _ in outcomes}
            assert len(costs) == 1 and min(costs) >= last_reveal[0]
            last_reveal[0] = min(costs)
    else:
        assert 0 <= player < 2
        if state.kind != "main" or rng.random() < 0.3:
            actions = state.legal_actions()
            assert actions and actions == sorted(actions) and len(set(actions)) == len(actions), state


def refuse_illegal(state: State) -> None:
    before = state.snapshot()
    legal = state.legal_actions()
    for action in ILLEGAL:
        if action not in legal:
            with pytest.raises(ValueError):
                state.apply_action(action)
            assert state.snapshot() == before


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "defaults")
def test_seeded_games_keep_the_rules(options):
    data = fixture_data(**options)
    for game, bots in enumerate((("heuristic", "random"), ("random", "heuristic"), ("heuristic", "heuristic"))):
        rng = random.Random(game * 31 + len(options))
        state = new_game(data)
        seats = [BOTS[name](seat) for seat, name in enumerate(bots)]
        steps, last_reveal = 0, [0]
        while not state.is_terminal():
            check_invariants(state, rng, last_reveal)
            if steps % 13 == 0:
                refuse_illegal(state)
            player = state.current_player()
            state.apply_action(sample(state.chance_outcomes(), rng) if player == CHANCE
                               else seats[player].choose(state, rng))
            steps += 1
        check_invariants(state, rng, last_reveal)
        result = state.outcome()
        assert set(result) == OUTCOME_KEYS and result["cap"] is None and result["blame"] == []
        assert result["end_reason"] in ("regulation", "overtime", "draw")
        assert sum(state.returns()) == pytest.approx(1)
        assert result["counters"]["normal_turns"] % 2 == 0 and result["rounds"] == max(state.seat_turns)
        assert result["special_by"][0] == result["first_player"]
        if state.prm["end_rule"] == "countdown6":
            assert result["counters"]["normal_turns"] == normal_turns(data.pile_cards(), state.prm["track_slots"])
        scored = sum(v for k, v in result["counters"].items() if k.startswith("points:"))
        assert scored == sum(state.scores)


def test_max_steps_caps_the_game(data):
    result = nba_play_game(data.with_params(max_steps=300), 0)
    assert result["cap"] == "max_steps" and result["blame"] == [["rules", "max_steps"]]
    assert result["end_reason"] == "cap" and result["turns"] < 24


def test_heuristic_beats_random_with_basketball_scores(data):
    wins, scores = 0.0, []
    for seed in range(16):
        seat = seed % 2
        seats = [HeuristicBot(s) if s == seat else RandomBot(s) for s in range(2)]
        state = run(new_game(data), seats, random.Random(seed))
        wins += state.returns()[seat]
    for seed in range(16):
        scores += nba_play_game(data, 100 + seed)["scores"]
    assert wins >= 15
    assert 70 <= sum(scores) / len(scores) <= 130           # §2.3: roughly 70–120 per player


def test_the_simulation_record_plays_through_the_driver(data):
    from pipeline.play.contract import Simulation
    from pipeline.play.driver import simulate
    sim = Simulation(new_game=lambda records, players: new_game(data, players), bots=BOTS, players=(2, 2),
                     default_players=2)
    result = simulate(sim, {}, games=6, seed=3, players=2)
    assert result.finished == 6 and not result.flagged
    assert nba_play.SIMULATION.players == (2, 2) and set(nba_play.SIMULATION.bots) == {"heuristic", "random"}


# --- the real workbook -----------------------------------------------------------------------------------------

def workbook_records():
    """The registered game's validated records; None if sheets/nba.xlsx does not load yet."""
    if not WORKBOOK.exists():
        return None
    from pipeline.core.errors import Report
    from pipeline.games import load_game
    from pipeline.validate import load_records
    report = Report()
    records = load_records(load_game("nba", PROJECT_ROOT), PROJECT_ROOT, report)
    return None if report.errors else records


def test_the_workbook_plays_and_its_nominal_values():
    records = workbook_records()
    assert records is not None, "sheets/nba.xlsx is missing or does not load"
    real = nba_play.game_data(records)
    for seed in range(10):
        result = nba_play_game(real, seed)
        assert result["end_reason"] in ("regulation", "overtime", "draw") and result["cap"] is None
    nominal = nba_play.nominal(records)
    offences = [r for r in records["tactics"] if r["type"] == "offence"]
    assert len(nominal) == len(offences) and all(v > 0 for v in nominal.values())
    kentucky = next(r for r in offences if r["name"] == "Kentucky Offense")
    key = f"points:{kentucky['id']}/activated:{kentucky['id']}"
    assert nominal[key] == pytest.approx(8.5)                 # 3 blue dice of 3, all kept


def nba_play_game(data, seed: int, bots=("heuristic", "heuristic")) -> dict:
    from tests.games.playout import play
    return play(new_game(data), BOTS, bots, seed)
