"""Fightball's scenario adapter (tests/games/cases/fightball/): the fixture (tests/games/fightball/fightball_fixture.py, with the test
cards of fightball.md §4.2), decks cut down to a few cards for the fast-round cases (setup `decks`: per seat,
card id -> copies), what each expectation key reads, and the pure scorer as `calls`.

Seats are written "N" (0, north, rows 0-1) and "S" (1, south, rows 3-4) in calls; cells by label ("N-red" =
a red cell of north's half, row 0 col 1; "S-blue" row 4 col 0; "green" row 1 col 0; "N-blue" row 1 col 1;
"S-red" row 4 col 1) or by index row * 5 + col."""

from __future__ import annotations

import re
from functools import lru_cache

import pytest

from pipeline.games.fightball.bots import BOTS
from pipeline.games.fightball.engine import State, evaluate_stack, new_game
from pipeline.games.fightball.engine.data import COLOURS, NOBODY
from pipeline.games.fightball.engine.scoring import play_total, read_stack
from tests.games.fightball.fightball_fixture import fixture_data, tiny_rows, workbook_records
from tests.games.playout import to_action  # noqa: F401  (the runner's reading of JSON actions)

EXAMPLES = (re.compile(r"FB-[TD]\d+[ab]?"),
            {"FB-T1a", "FB-T1b"} | {f"FB-T{i}" for i in range(2, 6)} | {f"FB-D{i}" for i in range(1, 21)})
PLAYERS = BOTS
SEAT = {"N": 0, "S": 1}
READING_PARAMETERS = ("new_attacker_same_name_compares", "tie_rule", "shot_at_buzz")
CELLS = {"N-red": 1, "N-blue": 6, "green": 5, "S-blue": 20, "S-red": 21, "N-corner": 0}


def game_data(case: dict):
    """The fixture's cards; the rulebook's readings as the workbook's rules sheet sets them (a case without
    params plays this edition's choices), then the case's params."""
    decks = case.get("setup", {}).get("decks")
    rows = tiny_rows({card: n for deck in decks for card, n in deck.items()}) if decks else None
    return fixture_data(rows, **{**workbook_readings(), **case.get("params", {})})


@lru_cache(maxsize=1)
def workbook_readings() -> dict:
    """The value sheets/fightball.xlsx gives each rule parameter that settles a reading of the rulebook."""
    records = workbook_records()
    return {rec.get("parameter"): rec.get("value") for rec in records["rules"]
            if rec.get("parameter") in READING_PARAMETERS}


def start(data, case: dict) -> State:
    return new_game(data)


def cell_of(data, label):
    return data.cell_at[CELLS.get(label, label) if isinstance(label, str) else label]


def stack_of(data, cards: list) -> list:
    return [(data.index[card], SEAT[seat]) for card, seat in cards]


def awards(data, call: dict) -> list:
    found = evaluate_stack(cell_of(data, call["cell"]), stack_of(data, call["stack"]), data.params, data)
    return [["NS"[coach], points, kind] for coach, points, kind in found]


def total(data, call: dict) -> int:
    cell = cell_of(data, call["cell"])
    return play_total(read_stack(stack_of(data, call["stack"]), cell, data.rules, data.cards), cell, data.rules,
                      data.cards)


def field(data, call: dict) -> dict:
    """Field cards by colour, in all and per half (the green row split between the halves it joins)."""
    count = {c: sum(1 for cell in data.cells if COLOURS[cell.colour] == c) for c in COLOURS}
    halves = {side: {c: sum(1 for cell in data.cells if COLOURS[cell.colour] == c and cell.row in rows)
                     + (2 if c == "G" else 0) for c in COLOURS}
              for side, rows in (("N", (0, 1)), ("S", (3, 4)))}
    owners = {side: sorted({COLOURS[cell.colour] for cell in data.cells if cell.owner == SEAT[side]})
              for side in SEAT}
    return {"all": count, "halves": halves, "owned_colours": owners}


CALLS = {"awards": awards, "total": total, "field": field}


def observe(state: State, key: str, expected):
    cards = state.data.cards
    name = lambda card: None if card == NOBODY else cards[card].id     # noqa: E731
    if key in ("stacks", "last_stacks"):
        stacks = state.stacks if key == "stacks" else state.last_stacks
        return {cell: [list(pair) for pair in state.stack_ids(int(cell), stacks)] for cell in expected}
    if key == "legal":
        legal = state.legal_actions()
        found = {"has": [a for a in expected.get("has", []) if to_action(a) in legal],
                 "not": [a for a in expected.get("not", []) if to_action(a) not in legal], "count": len(legal)}
        return {k: v for k, v in found.items() if k in expected}
    if key == "outcomes":
        return [[o, pytest.approx(p)] for o, p in state.chance_outcomes()]
    if key == "counters":
        return {k: state.counters.get(k, 0) for k in expected}
    if key == "outcome":
        outcome = state.outcome()
        return {k: outcome[k] for k in expected}
    simple = {
        "phase": lambda: state.PHASE_NAMES[state.phase], "player": state.current_player, "actor": lambda: state.actor,
        "hand": lambda: [name(c) for c in state.hand], "from_deck": lambda: state.from_deck,
        "discard": lambda: [[name(c) for c in pile] for pile in state.discard], "left": lambda: state.left,
        "scores": lambda: state.scores, "live": lambda: state.live, "quarter": lambda: state.quarter,
        "quarter_scores": lambda: state.quarter_scores, "terminal": state.is_terminal, "returns": state.returns,
        "end_reason": lambda: state.end_reason, "log": lambda: state.log,
    }
    return simple[key]()
