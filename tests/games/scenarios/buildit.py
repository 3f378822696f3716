"""Build It's scenario adapter (tests/games/cases/buildit/): the real workbook's data with a case's params, plots
named "c3" in actions and expectations, and what each expectation key reads."""

from __future__ import annotations

import re
from functools import lru_cache

import pytest

from pipeline import PROJECT_ROOT
from pipeline.core.errors import Report
from pipeline.games import load_game
from pipeline.games.buildit.bots import BOTS
from pipeline.games.buildit.components import parameters
from pipeline.games.buildit.engine import GameData, State, plot_index
from pipeline.games.buildit.engine.data import FREE, KINDS, PHASE_NAMES
from pipeline.validate import load_records

EXAMPLES = (re.compile(r"BI-[TD]\d+"), {"BI-T5", "BI-T6", "BI-T7", "BI-D1", "BI-D2", "BI-D5", "BI-D6", "BI-D7",
                                        "BI-D8", "BI-D9", "BI-D10", "BI-D11", "BI-D12", "BI-D13", "BI-D14"})
PLAYERS = BOTS
CALLS: dict = {}


@lru_cache(maxsize=1)
def workbook_data() -> GameData:
    """The real workbook's cards and rules."""
    report = Report()
    records = load_records(load_game("buildit", PROJECT_ROOT), PROJECT_ROOT, report)
    assert records is not None and not report.errors, [str(p) for p in report.errors]
    rows = {sheet: [dict(r.values) for r in records[sheet]] for sheet in ("contracts", "cities", "normal_cards")}
    return GameData.from_rows(rows["contracts"], rows["cities"], rows["normal_cards"], parameters(records))


def game_data(case: dict) -> GameData:
    data = workbook_data()
    return data.with_params(**case["params"]) if "params" in case else data


def start(data, case: dict) -> State:
    return State.from_setup(data, case["setup"])


PLOT_AT = {"permit": (1,), "site": (1,), "build": (1,), "sell": (1,), "play": (3,)}


def to_action(spec):
    """A JSON action (plots named "c3") -> an engine action; a bare string or number is a chance outcome."""
    if not isinstance(spec, list):
        return spec
    action = list(spec)
    for i in PLOT_AT.get(action[0], ()):
        if isinstance(action[i], str):
            action[i] = plot_index(action[i])
        elif isinstance(action[i], list):
            action[i] = tuple(sorted(plot_index(p) for p in action[i]))
    return tuple(action)


def observe(state: State, key: str, expected):
    """The state's value for an expectation key, shaped like the expectation."""
    seat_map = {"hand": state.hand, "contracts": state.contracts, "fulfilled": state.fulfilled, "front": state.front}
    if key in seat_map:
        return {s: list(seat_map[key][int(s)]) for s in expected}
    simple = {
        "gold": lambda: list(state.gold), "points": lambda: list(state.points), "scores": state.scores,
        "player": state.current_player, "phase": lambda: PHASE_NAMES[state.phase], "terminal": state.is_terminal,
        "winners": state.winners, "returns": state.returns, "end": lambda: state.end_reason,
        "rounds": lambda: state.round_no, "turns": lambda: state.turns, "discard": lambda: state.discard,
        "permit_cost": lambda: [state.permit_cost(s) for s in range(state.n)],
        "site_cost": lambda: [state.site_cost(s) for s in range(state.n)],
    }
    if key in simple:
        return simple[key]()
    if key == "board":
        codes = {name: state.board[plot_index(name)] for name in expected}
        return {name: None if code == FREE else [code // 3, KINDS[code % 3]] for name, code in codes.items()}
    if key == "supply":
        return {s: [state.supply(int(s), k) for k in range(3)] for s in expected}
    if key == "immune":
        return {s: sorted(state.immune[int(s)]) for s in expected}
    if key == "counters":
        return {name: state.counters.get(name, 0) for name in expected}
    if key == "outcomes":
        return [[o, pytest.approx(p)] for o, p in state.chance_outcomes()]
    if key == "legal":
        legal = set(state.legal_actions())
        found = {"has": [a for a in expected.get("has", []) if to_action(a) in legal],
                 "not": [a for a in expected.get("not", []) if to_action(a) not in legal]}
        return {k: v for k, v in found.items() if k in expected}
    raise KeyError(f"unknown expectation {key!r}")
