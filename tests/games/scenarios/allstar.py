"""All-Star Draft's scenario adapter (tests/games/cases/allstar/): the fixture with a case's symbols and params,
what each expectation key reads, the pure functions a case may call, the bots, and `auto` (first legal
action until a phase)."""

from __future__ import annotations

import re

import pytest

from pipeline.games.allstar.bots import BOTS, best_team
from pipeline.games.allstar.engine import (CHANCE, State, arena_key, bus_column, competition_ranks, has_all_symbols,
                                           is_full_house, is_straight, power, single_key, team_key)
from pipeline.games.allstar.engine.data import PHASE_NAMES
from pipeline.games.allstar.engine.keys import decode
from tests.games.allstar.allstar_fixture import fixture_data
from tests.games.playout import to_action

EXAMPLES = (re.compile(r"ASD-[TD]\d+"), {f"ASD-T{i}" for i in range(1, 15)} | {f"ASD-D{i}" for i in range(1, 12)})
PLAYERS = BOTS


def game_data(case: dict):
    return fixture_data(case.get("symbols"), **case.get("params", {}))


def start(data, case: dict) -> State:
    return State.from_setup(data, case["setup"])


def per_seat(values, expected: dict) -> dict:
    return {s: values[int(s)] for s in expected}


def observe(state: State, key: str, expected):
    """The state's value for an expectation key, shaped like the expectation."""
    ids = state.ids
    seat_lists = {"bench": state.bench, "packet": state.packet, "hand": state.hand, "gained": state.gained,
                  "team": state.team, "hidden": state.hidden}
    if key in seat_lists:
        return per_seat([ids(x) for x in seat_lists[key]], expected)
    if key == "teams":
        return per_seat([[ids(t) for t in teams] for teams in state.teams], expected)
    if key == "team_keys":
        return per_seat([[list(decode(state.data.key_int(t, state.side))) for t in teams]
                         for teams in state.teams], expected)
    simple = {
        "phase": lambda: PHASE_NAMES[state.phase], "mode": lambda: state.mode, "player": state.current_player, "round": lambda: state.round_no,
        "terminal": state.is_terminal, "returns": state.returns, "scores": state.scores,
        "supporters": lambda: state.supporters, "tickets": lambda: state.tickets, "playoff": state.playoff_scores,
        "playoff_points": lambda: state.playoff_points, "ranks": lambda: state.rank, "alive": lambda: state.alive,
        "bench_sizes": lambda: [len(b) for b in state.bench], "packet_sizes": lambda: [len(p) for p in state.packet],
        "hand_sizes": lambda: [len(h) for h in state.hand], "team_counts": lambda: [len(t) for t in state.teams],
        "deck_size": lambda: len(state.deck), "box_size": lambda: len(state.box), "box": lambda: ids(state.box),
        "species_count": lambda: len(state.species), "market": lambda: ids(state.market),
        "chooser": lambda: state.chooser, "buses": lambda: [list(b) for b in state.buses],
        "arenas": lambda: [state.data.arenas[a].id for a in state.arenas], "turns": lambda: state.turns,
    }
    if key in simple:
        return simple[key]()
    if key == "counters":
        return {name: state.counters.get(name, 0) for name in expected}
    if key == "outcome":
        outcome = state.outcome()
        return {name: outcome[name] for name in expected}
    if key == "matches":
        return [{"round": r, "bus": bus, "arena": state.data.arenas[a].id, "teams": [ids(t) for t in teams],
                 "ranks": list(ranks), "points": list(points)} for r, bus, a, teams, ranks, points in state.log]
    if key == "outcomes":
        return [[o, pytest.approx(p)] for o, p in state.chance_outcomes()]
    if key == "legal":
        legal = state.legal_actions()
        found = {"has": [a for a in expected.get("has", []) if to_action(a) in legal],
                 "not": [a for a in expected.get("not", []) if to_action(a) not in legal], "count": len(legal)}
        return {k: v for k, v in found.items() if k in expected}
    if key == "observation":
        seen = state.observation(expected["seat"])
        return {"seat": expected["seat"], **{k: seen[k] for k in expected if k != "seat"}}
    raise KeyError(f"unknown expectation {key!r}")


def auto_until(state: State, target: dict) -> None:
    """First legal action / first chance outcome until the phase (and round) named, or the end."""
    while not state.is_terminal():
        if PHASE_NAMES[state.phase] == target["phase"] and state.round_no == target.get("round", state.round_no):
            return
        if state.current_player() == CHANCE:
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(state.legal_actions()[0])


CALLS = {
    "team_key": lambda d, a: list(team_key(a["team"], a["players"], d)),
    "arena_key": lambda d, a: list(arena_key(a["team"], a["players"], a["arena"], d)),
    "power": lambda d, a: power([d.cards[c] for c in d.ints(a["team"])]),
    "single_key": lambda d, a: list(single_key(a["card"], a["players"], d)),
    "is_straight": lambda d, a: is_straight([d.cards[c] for c in d.ints(a["team"])]),
    "is_full_house": lambda d, a: is_full_house([d.cards[c] for c in d.ints(a["team"])]),
    "has_all_symbols": lambda d, a: has_all_symbols([d.cards[c] for c in d.ints(a["team"])]),
    "competition_ranks": lambda d, a: competition_ranks([tuple(k) for k in a["keys"]]),
    "ranks": lambda d, a: competition_ranks([arena_key(t, a["players"], a["arena"], d) for t in a["teams"]]),
    "points": lambda d, a: [d.arena(a["arena"]).points[r - 1] for r in a["ranks"]],
    "bus_column": lambda d, a: bus_column(a["team"], a.get("arena"), d),
    "playoff_points": lambda d, a: [d.points(a["players"], r) for r in range(1, a["players"] + 1)],
    "best_team": lambda d, a: [d.names[c] for c in best_team(d.ints(a["pool"]), d, 0 if a["players"] <= 4 else 1, 5)],
}
