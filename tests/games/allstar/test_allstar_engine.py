"""All-Star Draft's rules engine and bots: the worked examples of all-star-draft.md §4 as scenario files
(tests/games/cases/allstar/*.json, run by tests/games/test_scenarios.py), the pure ranking functions, then properties over many
seeded games for 2 to 6 managers and every 2-manager mode.

The games run on the fixture of tests/games/allstar/allstar_fixture.py (independent of sheets/allstar.xlsx); one test plays
the real workbook when it loads. The scenario files run in tests/games/test_scenarios.py.
"""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from pipeline.games.allstar.bots import BOTS, DraftBot, RandomBot, best_team
from pipeline.games.allstar.engine import (CHANCE, GameData, State, TERMINAL, arena_key, bus_column, competition_ranks,
                                           has_all_symbols, is_full_house, is_straight, new_game, power, single_key,
                                           team_key)
from pipeline.games.allstar.engine.data import PHASE_NAMES
from tests.games.allstar.allstar_fixture import PARAMS, fixture_data, fixture_rows, workbook_data
from tests.games.playout import play, run, sample
from tests.games.scenarios.allstar import auto_until


@pytest.fixture(scope="module")
def data() -> GameData:
    return fixture_data()


OUTCOME_KEYS = {"scores", "rounds", "turns", "end_reason", "cap", "blame", "counters", "playoff", "mode"}

# --- data, parameters, setup --------------------------------------------------------------------------------

@pytest.mark.parametrize("change, message", [
    ({"mode": "solo"}, "mode"), ({"max_steps": 5}, "max_steps"), ({"min_substitution": 5, "max_substitution": 4},
                                                                     "min_substitution"),
    ({"final_tiebreak_includes_ticket_bonus": "yes"}, "final_tiebreak_includes_ticket_bonus"),
    ({"players_min": 5, "players_max": 4}, "players_min"), ({"team_size": True}, "team_size"),
])
def test_bad_parameters_are_refused_by_name(data, change, message):
    with pytest.raises(ValueError, match=message):
        data.with_params(**change)


def test_missing_parameter_is_named():
    with pytest.raises(ValueError, match="duo_species"):
        fixture_data().with_params(**{}).__class__(fixture_data().rows, {k: v for k, v in PARAMS.items()
                                                                          if k != "duo_species"})


@pytest.mark.parametrize("players, mode, params, message", [
    (7, None, {}, "players"), (1, None, {}, "players"), (3, "duel", {}, "2-manager"), (2, "bingo", {}, "mode"),
    (6, None, {"species_per_manager": 3}, "species_per_manager"), (2, None, {"rounds": 5}, "rounds"),
    (4, None, {"hand_size": 7}, "hand_size"), (2, "heritage", {"duo_hand_size": 10}, "duo_hand_size"),
    (2, None, {"team_size": 7}, "team_size"), (2, "open_market", {"open_market_species": 3}, "hand_size"),
])
def test_games_the_data_cannot_play_are_refused(data, players, mode, params, message):
    with pytest.raises(ValueError, match=message):
        new_game(data.with_params(**params), players, mode)


def test_the_mode_parameter_is_the_2_manager_draft(data):
    duel = data.with_params(mode="duel")
    assert new_game(duel, 2).mode == "duel" and new_game(duel, 4).mode == "classic"
    assert new_game(duel, 2, "classic").mode == "classic"
    with pytest.raises(ValueError, match="2-manager"):
        new_game(duel, 4, "duel")


def test_first_player_must_be_a_seat(data):
    with pytest.raises(ValueError, match="first_player"):
        new_game(data, 2, "open_market", first_player=2)
    state = new_game(data, 2, "open_market", first_player=1)
    auto_until(state, {"phase": "take"})
    assert state.current_player() == 1 and state.om_first == 1


def test_inconsistent_rows_are_refused():
    def broken(sheet, change):
        rows = fixture_rows()
        change(rows[sheet])
        return GameData.from_rows(rows["species"], rows["symbols"], rows["hockey"], rows["orders"],
                                  rows["tiebreak_sides"], rows["arenas"], rows["playoff_points"], PARAMS)
    with pytest.raises(ValueError, match="unknown icon"):
        broken("arenas", lambda rows: rows[0].update(icons="not_for_3"))
    with pytest.raises(ValueError, match="orders side 2-4 species"):
        broken("orders", lambda rows: rows.__setitem__(slice(None), [r for r in rows if r["value"] != "owl"
                                                                      or r["side"] != "2-4"]))
    with pytest.raises(ValueError, match="tiebreak_sides"):
        broken("tiebreak_sides", lambda rows: rows[0].update(bronze="symbol"))
    with pytest.raises(ValueError, match="playoff_points: no points for 6 managers, rank 6"):
        broken("playoff_points", lambda rows: rows.pop())
    with pytest.raises(ValueError, match="unknown species"):
        broken("hockey", lambda rows: rows[0].update(species="yeti"))
    with pytest.raises(ValueError, match="second card"):
        broken("hockey", lambda rows: rows[1].update(number=1))


def test_numbers_may_arrive_as_text_and_one_side_may_borrow_the_other():
    rows = fixture_rows()
    rows["hockey"] = [{**r, "number": str(r["number"])} for r in rows["hockey"]]
    rows["orders"] = [r for r in rows["orders"] if not (r["side"] == "5-6" and r["attribute"] == "number")]
    data = GameData.from_rows(rows["species"], rows["symbols"], rows["hockey"], rows["orders"],
                              rows["tiebreak_sides"], rows["arenas"], rows["playoff_points"], PARAMS)
    assert data.orders[1]["number"] == tuple(range(9, 0, -1))
    assert team_key(["bear_4", "duck_4", "horse_4", "panda_7", "duck_9"], 3, data) == (3, 2, 4)


def test_pure_functions_accept_records_ids_and_integers(data):
    team = ["bear_4", "duck_4", "horse_4", "panda_7", "duck_9"]
    records = [data.cards[data.index[c]] for c in team]
    assert team_key(team, 4, data) == team_key(records, 4, data) == team_key(data.ints(team), 4, data)
    assert power(records) == power([c._asdict() for c in records]) == 3
    with pytest.raises(ValueError, match="yeti_1"):
        team_key(["yeti_1"], 4, data)


# --- the pure functions against brute force ------------------------------------------------------------------

def naive_key(cards, players: int, data: GameData) -> tuple:
    """§3.2 written out with the sheet's orders, as the rules digest states it."""
    side = 0 if players <= 4 else 1
    crit, orders = data.criteria[side], data.orders[side]
    best = None
    for attr in crit:
        values = [getattr(c, attr) for c in cards]
        for value in set(values):
            key = (values.count(value), 3 - crit.index(attr), len(orders[attr]) - orders[attr].index(value))
            best = key if best is None or key > best else best
    return best


def naive_full_house(cards) -> bool:
    def shared(group):
        return {(a, getattr(group[0], a)) for a in ("symbol", "number", "species")
                if all(getattr(c, a) == getattr(group[0], a) for c in group)}
    for three in combinations(range(5), 3):
        rest = [cards[i] for i in range(5) if i not in three]
        if any(p != q for p in shared([cards[i] for i in three]) for q in shared(rest)):
            return True
    return False


def test_keys_and_flags_match_the_rules_on_random_teams(data):
    rng = random.Random(3)
    for _ in range(3000):
        species = rng.sample(data.species_ids, rng.randint(1, 5))
        pool = [c for s in species for c in data.species_cards[s]]
        team = tuple(sorted(rng.sample(pool, 5)))
        cards = [data.cards[c] for c in team]
        players = rng.randint(2, 6)
        assert team_key(team, players, data) == naive_key(cards, players, data)
        assert team_key(team, players, data)[0] == power(cards)
        flags = data.flags(team)
        assert bool(flags & 2) == naive_full_house(cards) == is_full_house(cards)
        numbers = sorted(c.number for c in cards)
        assert bool(flags & 1) == (numbers == list(range(numbers[0], numbers[0] + 5))) == is_straight(cards)
        assert bool(flags & 4) == (len({c.symbol for c in cards}) == 5) == has_all_symbols(cards)
        arena = rng.choice(data.arenas)
        special = bool(flags & arena.special)
        assert arena_key(team, players, arena.id, data) == (int(special),) + naive_key(cards, players, data)
        assert bus_column(team, arena.id, data) == (0 if special else 6 - power(cards))


def test_competition_ranks():
    assert competition_ranks([5, 3, 3, 1]) == [1, 2, 2, 4]
    assert competition_ranks([(1, 2), (1, 2)]) == [1, 1]
    assert competition_ranks([2, 9, 2, 9, 1]) == [3, 1, 3, 1, 5]


def test_single_keys_never_tie_between_real_cards(data):
    for side in (0, 1):
        assert len(set(data.single[side])) == len(data.cards)
    assert single_key("horse_9", 5, data) < single_key("caribou_2", 5, data)
    assert single_key("horse_9", 3, data) > single_key("caribou_2", 3, data)


def test_the_bots_best_team_is_a_best_subset(data):
    rng = random.Random(5)
    for _ in range(300):
        pool = rng.sample(range(len(data.cards)), rng.randint(5, 12))
        players = rng.randint(2, 6)
        best = max(team_key(t, players, data) for t in combinations(pool, 5))
        assert team_key(best_team(pool, data, 0 if players <= 4 else 1, 5), players, data) == best


def test_the_bots_substitution_is_a_best_one(data):
    rng = random.Random(8)
    for _ in range(60):
        cards = rng.sample(range(len(data.cards)), rng.randint(7, 14))
        team, hand = cards[:5], cards[5:]
        state = State.from_setup(data, {"players": 2, "start": "substitute",
                                        "seats": [{"team": [data.names[c] for c in team],
                                                   "hand": [data.names[c] for c in hand]}]})
        action = DraftBot(0).choose(state, rng)
        options = {}
        for legal in state.legal_actions():
            new = [c for c in team if data.names[c] not in legal[1]] + list(data.ints(legal[2]))
            key = team_key(new, 2, data)
            options.setdefault(key, []).append(len(legal[1]))
        best = max(options)
        after = [c for c in team if data.names[c] not in action[1]] + list(data.ints(action[2]))
        assert team_key(after, 2, data) == best and len(action[1]) == min(options[best])
        state.apply_action(action)


# --- properties over many seeded games -----------------------------------------------------------------------

MIXES = [("draft", "random"), ("random", "draft", "random"), ("draft",) * 4, ("random",) * 5,
         ("draft", "random") * 3, ("draft", "draft")]
ILLEGAL = [("bogus",), (), ("pick", "yeti_1"), ("pick", 3), ("team", ("bear_1",)), ("team", "bear_1"),
           ("buses", (1, 1)), ("buses", ("a",)), ("swap", 9, "bear_1", "duck_1"), ("shoot", ["x"]),
           ("substitute", ("bear_1",), ("duck_1",)), ("give", {"a": 1}), ("play_team", None), "no-such-card", 42,
           ("no_swap", -1), ("discard", "bear_1"), ("take", "bear_1")]


def total_cards(state: State) -> int:
    n = state.n
    return (len(state.deck) + len(state.box) + len(state.market) + len(state.shots)
            + sum(len(state.packet[s]) + len(state.bench[s]) + len(state.gifts[s]) + len(state.hand[s])
                  + len(state.team[s]) + 5 * len(state.teams[s]) for s in range(n)))


def check_invariants(state: State, cards: int, rng: random.Random) -> None:
    assert all(s >= 0 for s in state.supporters) and all(t >= 0 for t in state.tickets), state
    if state.deck or state.species and len(state.species) == state.need_species:
        assert total_cards(state) == cards, state
    if state.is_terminal():
        return
    player = state.current_player()
    assert player == CHANCE or 0 <= player < state.n
    if player == CHANCE:
        outcomes = state.chance_outcomes()
        assert outcomes and abs(sum(p for _, p in outcomes) - 1) < 1e-9
    elif PHASE_NAMES[state.phase] not in ("playoff_team", "substitute") or rng.random() < 0.05:
        actions = state.legal_actions()
        assert actions and actions == sorted(actions) and len(set(actions)) == len(actions), state


def refuse_illegal(state: State) -> None:
    before = state.snapshot()
    legal = state.legal_actions() if PHASE_NAMES[state.phase] not in ("playoff_team", "substitute") else []
    for action in ILLEGAL:
        if action not in legal:
            with pytest.raises(ValueError):
                state.apply_action(action)
            assert state.snapshot() == before


def deck_cards(mode: str, players: int) -> int:
    return {"classic": 18 * players, "heritage": 45, "duel": 45, "open_market": 54}[mode]


@pytest.mark.parametrize("bots, mode", [(m, "classic") for m in MIXES] + [
    (("draft", "random"), "heritage"), (("random", "draft"), "duel"), (("draft", "draft"), "open_market"),
    (("random", "random"), "open_market"), (("draft", "draft"), "duel"), (("random", "random"), "heritage")])
def test_seeded_games_keep_the_rules(data, bots, mode, monkeypatch):
    shootouts = []
    original = State._shootout

    def checked_shootout(state):
        keys = [state.data.single[state.side][c] for c in state.shots.values()]
        shootouts.append(keys.count(min(keys)))
        original(state)
    monkeypatch.setattr(State, "_shootout", checked_shootout)
    rng = random.Random(hash((bots, mode)) % 1000)
    for game in range(3):
        state = new_game(data, len(bots), mode)
        seats = [BOTS[name](seat) for seat, name in enumerate(bots)]
        cards, steps, last_round = deck_cards(mode, len(bots)), 0, 1
        while not state.is_terminal():
            check_invariants(state, cards, rng)
            if steps % 5 == 0 and state.current_player() >= 0:
                refuse_illegal(state)
            if state.round_no != last_round:                     # a round just ended: 6r cards each
                last_round = state.round_no
                for s in range(state.n):
                    assert len(state.teams[s]) == last_round - 1 and len(state.bench[s]) == last_round - 1
            player = state.current_player()
            if player == CHANCE:
                state.apply_action(sample(state.chance_outcomes(), rng))
            else:
                state.apply_action(seats[player].choose(state, rng))
            steps += 1
            if PHASE_NAMES[state.phase] == "playoff_team" and not any(state.team):
                assert [len(h) for h in state.hand] == [18] * state.n
        check_invariants(state, cards, rng)
        result = state.outcome()
        assert set(result) == OUTCOME_KEYS and result["end_reason"] == "season" and result["rounds"] == 3
        assert result["cap"] is None and result["blame"] == [] and result["mode"] == mode
        assert result["scores"] == [s + p + b for s, p, b in zip(state.supporters, state.playoff_points, state.bonus)]
        assert sum(state.returns()) == pytest.approx(1) and state.current_player() == TERMINAL
        assert sum(v for k, v in result["counters"].items() if k.startswith("arena:")) == 6
        assert sum(v for k, v in result["counters"].items() if k.startswith("playoff_winner_seat:")) \
            + result["counters"].get("playoff_no_winner", 0) == 1
        assert sorted(state.rank) == sorted(state.rank) and all(1 <= r <= state.n for r in state.rank)
    assert all(losers == 1 for losers in shootouts)


def test_max_steps_caps_the_game(data):
    result = play_game(data.with_params(max_steps=100), 4, 0)
    assert result["cap"] == "max_steps" and result["blame"] == [["rules", "max_steps"]]
    assert result["end_reason"] == "cap" and result["rounds"] < 3


def test_clones_are_independent(data):
    state = new_game(data, 3)
    auto_until(state, {"phase": "team", "round": 2})
    before = state.snapshot()
    for action in state.legal_actions():
        trial = state.clone()
        trial.apply_action(action)
        auto_until(trial, {"phase": "over"})
        assert trial.is_terminal()
    assert state.snapshot() == before
    assert "phase team" in str(state) and "seat 2:" in str(state)


def test_a_seat_sees_only_its_own_cards(data):
    """ASD-A22: another manager's bench and new team are hidden; revealed teams are public."""
    state = new_game(data, 3)
    auto_until(state, {"phase": "swap", "round": 2})
    seen = state.observation(1)
    assert seen["bench"] == state.ids(state.bench[1]) and seen["bench_sizes"] == [7, 7, 7]
    assert seen["teams"][0] == [state.ids(state.teams[0][0])]          # round 1's team was revealed
    for _ in range(3):
        state.apply_action(("no_swap", 0))
    state.apply_action(state.legal_actions()[0])                       # seat 0's new team, face down
    assert state.observation(1)["teams"][0][1] == [None] * 5
    assert state.observation(0)["teams"][0][1] == state.ids(state.teams[0][1])


def test_draft_bots_beat_random_bots(data):
    wins = 0.0
    for seed in range(40):
        seat = seed % 4
        seats = [DraftBot(s) if s == seat else RandomBot(s) for s in range(4)]
        wins += run(new_game(data, 4), seats, random.Random(seed)).returns()[seat]
    assert wins >= 24                                   # random play would win 10 of 40


PHASES_OF_MODE = {
    "classic": {"pick", "swap", "team", "buses", "playoff_team"},
    "heritage": {"pick", "discard", "swap", "team", "buses", "playoff_team"},
    "duel": {"pick", "keep", "give", "discard", "swap", "team", "buses", "playoff_team"},
    "open_market": {"take", "swap", "team", "buses", "playoff_team"},
}


@pytest.mark.parametrize("mode", sorted(PHASES_OF_MODE))
def test_random_bots_play_every_decision_of_a_mode(data, mode):
    rng, phases = random.Random(2), set()
    state = new_game(data, 2, mode)
    seats = [RandomBot(0), RandomBot(1)]
    while not state.is_terminal():
        player = state.current_player()
        if player >= 0:
            phases.add(PHASE_NAMES[state.phase])
            state.apply_action(seats[player].choose(state, rng))
        else:
            state.apply_action(sample(state.chance_outcomes(), rng))
    assert PHASES_OF_MODE[mode] <= phases


# --- the real workbook -----------------------------------------------------------------------------------------

def test_the_workbook_plays_every_count_and_mode():
    real = workbook_data()
    assert real is not None, "sheets/allstar.xlsx is missing"
    for players in range(real.params["players_min"], real.params["players_max"] + 1):
        for seed in range(20):
            result = play_game(real, players, seed)
            assert result["end_reason"] == "season", result
    for mode in ("heritage", "duel", "open_market"):
        for seed in range(20):
            assert play_game(real, 2, seed, mode=mode)["end_reason"] == "season"


def play_game(data, players: int, seed: int, bots=None, mode: str | None = None) -> dict:
    """One seeded game by the named bots (default all draft); its outcome dict."""
    names = bots or ("draft",) * players
    if len(names) != players:
        raise ValueError(f"{len(names)} bots for {players} players")
    return play(new_game(data, players, mode), BOTS, names, seed)
