"""Build It's rules engine and bots: the worked examples of build-it.md §4 as scenario files
(tests/games/cases/buildit/*.json, run by tests/games/test_scenarios.py), then properties over many seeded games."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.games.buildit.bots import BOTS, HeuristicBot, RandomBot
from pipeline.games.buildit.engine import CHANCE, GameData, State, TERMINAL, new_game, plot_index, plot_name
from pipeline.games.buildit.engine.data import FREE, KINDS
from tests.games.playout import play, sample
from tests.games.scenarios.buildit import workbook_data

OUTCOME_KEYS = {"scores", "gold", "winners", "end_reason", "rounds", "turns", "cap", "counters", "blame"}


@pytest.fixture(scope="module")
def data() -> GameData:
    """The real workbook's cards and rules."""
    return workbook_data()


# --- data, setup, interface -----------------------------------------------------------------------------------

def test_plot_names():
    assert plot_index("a1") == 0 and plot_index("c3") == 18 and plot_index("h8") == 63
    assert [plot_name(p) for p in (0, 18, 63)] == ["a1", "c3", "h8"]
    with pytest.raises(ValueError):
        plot_index("i1")


def test_setup_is_chance(data):
    state = new_game(data, 3)
    assert state.current_player() == CHANCE
    assert state.chance_outcomes() == [(c, 0.2) for c in ("carreville", "croix_les_bains", "diagonia",
                                                           "longueville", "zigzagbourg")]
    state.apply_action("diagonia")
    deal = state.chance_outcomes()                          # the first card of seat 0's starting hand
    assert math.isclose(sum(p for _, p in deal), 1) and dict(deal)["cancel"] == pytest.approx(8 / 65)
    for _ in range(6):                                      # 2 cards for each of 3 seats
        state.apply_action("cancel" if state.ndeck.counts.get("cancel") else deal[0][0])
    assert [len(h) for h in state.hand] == [2, 2, 2] and state.ndeck.size == 59
    assert state.chance_outcomes() == [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]   # first player
    state.apply_action(2)
    assert state.current_player() == 2 and state.gold == [5, 5, 7] and state.turns == 1
    assert "seat 2: 7 gold" in str(state) and "phase draw" in str(state)
    assert state.legal_actions() == [("draw", "contract"), ("draw", "normal")]


def test_first_player_fixed_and_players_checked(data):
    state = new_game(data, 2, first_player=1)
    while state.current_player() == CHANCE:
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.current_player() == 1
    for players in (1, 5):
        with pytest.raises(ValueError, match="players"):
            new_game(data, players)


def test_conflicting_variants_are_refused(data):
    with pytest.raises(ValueError, match="variant_contractual.*variant_high_density"):
        data.with_params(variant_contractual=True, variant_high_density=True)
    both = data.with_params(variant_contractual=True, variant_high_density=True, end_when="all")
    assert new_game(both, 2).current_player() == CHANCE


def test_unknown_model_and_missing_parameter_are_refused(data):
    card = {"id": "x", "model": "teleport", "copies": 1, "cost": 0}
    with pytest.raises(ValueError, match="teleport"):
        GameData.from_rows([], [], [card], data.params)
    with pytest.raises(ValueError, match="max_rounds"):
        GameData.from_rows([], [], [], {k: v for k, v in data.params.items() if k != "max_rounds"})


def passive_game(data: GameData, players: int) -> State:
    """Every seat draws from the first open pile and ends its turn at once; chance takes the first outcome."""
    state = new_game(data, players, first_player=0)
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            actions = state.legal_actions()
            state.apply_action(("end",) if ("end",) in actions else actions[0])
    return state


@pytest.mark.parametrize("players, rounds", [(2, 10), (3, 10), (4, 10), (3, 3)])
def test_bi_t4_calendar(data, players, rounds):
    state = passive_game(data.with_params(rounds=rounds), players)
    result = state.outcome()
    assert set(result) == OUTCOME_KEYS
    assert (result["end_reason"], result["rounds"], result["turns"]) == ("calendar", rounds, rounds * players)
    assert result["gold"] == [5 + 2 * rounds] * players            # BI-D3: 5 + 2 x 10 = 25 before cards and sales
    assert result["cap"] is None and result["blame"] == []


def test_changing_a_parameter_changes_the_game(data):
    assert passive_game(data.with_params(start_gold=7, income=3), 2).gold == [37, 37]


def test_contractual_variant_has_no_calendar(data):
    state = passive_game(data.with_params(variant_contractual=True, max_rounds=15), 2)
    assert state.outcome()["end_reason"] == "cap" and state.round_no == 15 and state.turns == 30
    assert state.capped and state.outcome()["blame"] == [["rules", "max_rounds"], ["rules", "variant_contractual"]]


def test_high_density_ends_when_the_board_is_full(data):
    for params, reason in (({"variant_high_density": True}, "high_density"),
                           ({"variant_high_density": True, "variant_contractual": True, "end_when": "all"}, "all")):
        game = data.with_params(**params)
        board = {plot_name(p): [p % 4, KINDS[p // 4 % 3]] for p in range(1, 64)}     # all but a1
        state = State.from_setup(game, {"players": 4, "start": "main", "round": 12, "seats": [{"gold": 1}],
                                        "board": board})
        state.apply_action(("end",))
        assert not state.is_terminal()                       # a1 is still free
        for _ in range(3):
            state.apply_action(("end",))
        state.apply_action(("permit", 0))
        state.apply_action(("end",))
        assert state.outcome()["end_reason"] == reason and state.round_no == 13


def test_max_actions_per_turn_forces_the_end_of_the_turn(data):
    game = data.with_params(max_actions_per_turn=10)
    state = State.from_setup(game, {"players": 2, "start": "main", "contract_deck": {"picsou": 1},
                                    "seats": [{"gold": 1}]})
    for _ in range(5):                                       # a Permit bought and sold back: a loop only the cap stops
        state.apply_action(("permit", 0))
        state.apply_action(("sell", 0, -1))
    assert state.current_player() == 1 and state.capped and state.turns == 2
    assert state.outcome()["blame"] == [["rules", "max_actions_per_turn"]]


def test_city_points_timing_at_the_end_or_on_build(data):
    """BI-A3: end scoring counts standing buildings only; on_build keeps points a Demolition later removes."""
    setup = {"players": 2, "start": "main", "current": 1, "city": "diagonia", "contract_deck": {"picsou": 1},
             "seats": [{"gold": 4, "hand": ["demolition"]}, {"gold": 2}],
             "board": {"c3": [1, "construction"], "d4": [1, "site"]}}
    for scoring, after in (("end", [0, 0]), ("on_build", [0, 1])):
        state = State.from_setup(data.with_params(city_points_timing=scoring), setup)
        state.apply_action(("build", plot_index("d4")))          # the domino {c3, d4}: Diagonia's 1 star
        assert state.scores() == [0, 1]
        for action in (("end",), ("draw", "contract"), ("play", "demolition", 1, plot_index("c3"))):
            state.apply_action(action)
        assert state.board[plot_index("d4")] == 3 * 1 + 0 and state.scores() == after


def test_any_connected_subset_builds_part_of_a_group(data):
    game = data.with_params(build_target="any_connected_subset")
    state = State.from_setup(game, {"players": 2, "start": "main", "contract_deck": {"picsou": 1},
                                    "seats": [{"gold": 10, "contracts": ["jemlarjan"]}],
                                    "board": {"a1": [0, "site"], "b1": [0, "site"], "c1": [0, "site"]}})
    builds = [a for a in state.legal_actions() if a[0] == "build"]
    assert len(builds) == 6 and ("build", (0, 2)) not in builds    # 3 singles, 2 pairs, the line; a1+c1 do not touch
    with pytest.raises(ValueError):
        state.apply_action(("build", (0, 2)))
    state.apply_action(("build", (0, 1)))
    assert state.gold == [6 + 2, 5] and state.fulfilled[0] == ("jemlarjan",) and state.board[2] == 3 * 0 + 1


# --- properties over many seeded games -----------------------------------------------------------------------

MIXES = [("random",) * 2, ("random", "heuristic", "random"), ("heuristic", "random") * 2, ("heuristic",) * 3]


def check_invariants(state: State, pawns: int) -> None:
    assert all(g >= 0 for g in state.gold), state
    counts = [0] * (3 * state.n)
    for code in state.board:                                # one pawn per plot: the board holds one code per plot
        if code != FREE:
            counts[code] += 1
    for code, owned in enumerate(state.owned):
        assert counts[code] == len(owned) and 0 <= pawns - counts[code] == state.supply(code // 3, code % 3)
    if not state.is_terminal():
        actions = state.legal_actions()
        assert actions and actions == sorted(actions) and len(set(actions)) == len(actions), state


ILLEGAL = [("bogus",), (), ("permit", -1), ("permit", 64), ("build", 0.5), ("play", "nope", -1, -1), "no-such-card",
           ("cancel", "sabotage"), ("sell", 3, 9), ("draw", "city"), ("offer", "kidditch", 0, -5), ("accept", 1)]


def test_random_and_heuristic_games_keep_the_rules(data):
    rng = random.Random(7)
    for index in range(24):
        bots = MIXES[index % len(MIXES)]
        state = new_game(data, len(bots))
        seats = [BOTS[name](seat) for seat, name in enumerate(bots)]
        steps = 0
        while not state.is_terminal():
            check_invariants(state, 12)
            if steps % 7 == 0:
                refuse_illegal(state, rng)
            if steps % 31 == 0 and state.current_player() >= 0:
                accept_every_legal(state)
            player = state.current_player()
            if player == CHANCE:
                state.apply_action(sample(state.chance_outcomes(), rng))
            else:
                state.apply_action(seats[player].choose(state, rng))
            steps += 1
        check_invariants(state, 12)
        result = state.outcome()
        assert set(result) == OUTCOME_KEYS and result["end_reason"] in ("calendar", "contracts")
        assert result["rounds"] <= 10 and result["turns"] <= 10 * len(bots)
        assert sum(state.returns()) == pytest.approx(1) and state.current_player() == TERMINAL


def refuse_illegal(state: State, rng: random.Random) -> None:
    before = state.snapshot()
    legal = set(state.legal_actions())
    for action in ILLEGAL + [("permit", p) for p in range(64) if state.board[p] != FREE][:3]:
        if action not in legal:
            with pytest.raises((ValueError)):
                state.apply_action(action)
            assert state.snapshot() == before


def accept_every_legal(state: State) -> None:
    before = state.snapshot()
    for action in state.legal_actions()[:40]:
        trial = state.clone()
        trial.apply_action(action)                          # never raises
    assert state.snapshot() == before                       # clones are independent


@settings(max_examples=15, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4))
def test_heuristic_games_terminate_and_build(data, seed, players):
    result = play_game(data, players, seed)
    assert result["end_reason"] in ("calendar", "contracts") and result["cap"] is None
    assert len(result["winners"]) >= 1 and all(g >= 0 for g in result["gold"])
    fulfilled = sum(v for k, v in result["counters"].items() if k.startswith("fulfilled:"))
    assert result["counters"]["built_plots"] > 0 and fulfilled > 0


def test_heuristic_bots_beat_random_bots(data):
    """About 70 % of 2-player games (measured over 200); 100 games, at least 60 wins (2 standard deviations
    below), a margin a coin-flipping bot (50 %) would miss by 2 standard deviations too."""
    heuristic_wins = 0
    for seed in range(100):
        heuristic_seat = seed % 2
        bots = ("heuristic", "random") if heuristic_seat == 0 else ("random", "heuristic")
        heuristic_wins += heuristic_seat in play_game(data, 2, seed, bots=bots)["winners"]
    assert heuristic_wins >= 60


def test_flat_build_cost_changes_simulated_results(data):
    per_plot = [play_game(data, 4, s) for s in range(6)]
    flat = [play_game(data.with_params(build_cost_mode="flat"), 4, s) for s in range(6)]
    spent = lambda results: sum(r["counters"]["built_plots"] for r in results)
    assert spent(flat) > spent(per_plot)


def test_bots_answer_reactions_and_offers(data):
    state = State.from_setup(data, {"players": 2, "start": "main", "contract_deck": {"picsou": 1},
                                    "seats": [{"gold": 9, "hand": ["demolition", "coin_gain_1"]}, {"hand": ["cancel"]}],
                                    "board": {"e5": [1, "construction"]}})
    rng = random.Random(0)
    assert HeuristicBot(0).choose(state, rng) == ("play", "coin_gain_1", -1, -1)
    state.apply_action(("play", "demolition", 1, plot_index("e5")))
    assert HeuristicBot(1).choose(state, rng) == ("cancel", "cancel")      # a Demolition against itself
    assert RandomBot(1).choose(state, rng) in state.legal_actions()
    state = State.from_setup(data, {"players": 2, "start": "main", "contract_deck": {"picsou": 1},
                                    "board": {"a1": [0, "permit"]}})
    state.apply_action(("sell", 0, 1))
    assert HeuristicBot(1).choose(state, rng) == ("refuse",)


def play_game(data, players: int, seed: int, bots=None, first_player: int | None = None) -> dict:
    """One seeded game by the named bots (default all heuristic); its outcome dict."""
    names = bots or ("heuristic",) * players
    if len(names) != players:
        raise ValueError(f"{len(names)} bots for {players} players")
    return play(new_game(data, players, first_player), BOTS, names, seed)


@pytest.mark.parametrize("variant, reason", [("variant_contractual", "contracts"),
                                             ("variant_high_density", "high_density")])
def test_the_variants_without_a_calendar_end_by_their_own_rule(data, variant, reason):
    """Audit (issue 11), point 8: with 4 heuristic players, at least 95 % of games end by the variant's
    condition, not at the 40-round safety cap (they were 3 of 60 and 0 of 60)."""
    ends = [play_game(data.with_params(**{variant: True}), 4, seed)["end_reason"] for seed in range(100)]
    assert ends.count(reason) >= 95, {r: ends.count(r) for r in set(ends)}
