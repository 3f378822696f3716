"""NBA Deck-Building's scenario adapter (tests/games/cases/nba/): the fixture with a case's params, injected hands
(`set`, AMB-16), chance given as a list of outcomes, `settle` and `play` (bots to the end), what each
expectation key reads, and the pure functions a case may call."""

from __future__ import annotations

import re

import pytest

from pipeline.games.nba.bots import BOTS
from pipeline.games.nba.engine import CHANCE, State
from pipeline.games.nba.engine.data import DICE, SKILL_INDEX
from pipeline.games.nba.engine.rules import (attack_points, dice_to_roll, expected_best, normal_turns,
                                             offensive_rerolls, push_track, shift_track)
from tests.games.nba.nba_fixture import fixture_data
from tests.games.playout import to_action


VECTORS = ("DICE-01", "REROLL-01", "ACT-01", "ROLL-01", "ROLL-02", "ROLL-03", "SCORE-01", "SCORE-NEG", "T1-FRED",
           "T1-SOPHIE", "T2-FRED", "T2-SOPHIE", "T3-FRED-IMPLIED", "SCOREBOARD-AFTER-2-ROUNDS", "RIVER-01",
           "RIVER-PUSH-FULL", "RIVER-PUSH-HOLE", "FLOW-SOPHIE-T1-END", "FLOW-FRED-T2-END", "LENGTH-01", "AMB-21")

EXAMPLES = (re.compile(r"[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+"), set(VECTORS))


def game_data(case: dict):
    return fixture_data(**case.get("params", {}))


def start(data, case: dict) -> State:
    return State.from_setup(data, case["setup"])


def per_seat(lists, expected: dict, show) -> dict:
    return {s: show(lists[int(s)]) for s in expected}


def observe(state: State, key: str, expected):
    """The state's value for an expectation key, shaped like the expectation."""
    data = state.data
    names = data.names

    def ids(cards):
        return sorted(names[c] for c in cards)

    def slots(cards):
        return [None if c is None else names[c] if c >= 0 else "counter" for c in cards]
    seat_lists = {"hand": (state.hand, ids), "discard": (state.discard, ids), "mini": (state.mini, ids),
                  "court": (state.court, slots), "board_offence": (state.off_board, slots),
                  "board_defence": (state.def_board, slots), "top": (state.top, lambda t: slots(t[::-1])),
                  "rest": (state.rest, lambda r: sorted(names[c] for c, n in r.items() for _ in range(n))),
                  "rest_size": (state.rest, lambda r: sum(r.values())), "off_zone": (state.off_zone, sorted),
                  "def_zone": (state.def_zone, sorted)}
    if key in seat_lists:
        lists, show = seat_lists[key]
        return per_seat(lists, expected, show)
    if key == "levels":
        return {s: {k: state.levels(int(s))[SKILL_INDEX[k]] for k in v} for s, v in expected.items()}
    if key == "collective":
        return {s: state.collective(int(s)) for s in expected}
    if key == "activation":           # the tactic being activated and the dice it rolls
        tactic = data.tactic[state.active]
        return {"tactic": tactic.id, "dice": {d: n for d, n, _ in data.dice_for(tactic, state.levels(state.mover))}}
    simple = {
        "node": lambda: state.kind, "player": state.current_player, "scores": lambda: state.scores,
        "terminal": state.is_terminal, "returns": state.returns, "turn": lambda: state.turn,
        "turns": lambda: state.turns, "period": lambda: state.period, "mover": lambda: state.mover,
        "track": lambda: slots(state.track), "market": lambda: slots(state.market),
        "pile_size": lambda: len(state.pile),
        "player_discard": lambda: ids(state.player_discard), "tactic_discard": lambda: ids(state.tactic_discard),
        "fatigue": lambda: len(state.fatigue_supply), "box_size": lambda: len(state.box),
        "rolled": lambda: list(state.rolled), "reroll_allow": lambda: state.reroll_allow,
        "money": lambda: state.money, "first": lambda: state.first,
        "tactic_pile": lambda: sorted(names[c] for c, n in state.tactic_pile.items() for _ in range(n)),
    }
    if key in simple:
        return simple[key]()
    if key == "counters":
        return {name: state.counters.get(name, 0) for name in expected}
    if key == "outcome":
        outcome = state.outcome()
        return {name: observe_outcome(outcome, name, expected[name]) for name in expected}
    if key == "outcomes":
        return [[o, pytest.approx(p)] for o, p in state.chance_outcomes()]
    if key == "legal":
        legal = state.legal_actions()
        found = {"has": [a for a in expected.get("has", []) if to_action(a) in legal],
                 "not": [a for a in expected.get("not", []) if to_action(a) not in legal], "count": len(legal),
                 "tags": sorted({a[0] for a in legal}) if state.current_player() >= 0 else None}
        return {k: v for k, v in found.items() if k in expected}
    raise KeyError(f"unknown expectation {key!r}")


def observe_outcome(outcome: dict, name: str, expected):
    if name == "counters":
        return {k: outcome["counters"].get(k, 0) for k in expected}
    return outcome[name]


class IdleBot:
    """Ends every phase at once (forced ties, overtime tests)."""

    def __init__(self, seat: int):
        self.seat = seat

    def choose(self, state, rng):
        legal = state.legal_actions()
        for action in (("end",), ("refresh", ()), ("reroll", ())):
            if action in legal:
                return action
        return legal[0]


PLAYERS = {**BOTS, "idle": IdleBot}


def settle(state: State) -> None:
    """First chance outcome until a decision (or the end)."""
    while state.current_player() == CHANCE:
        state.apply_action(state.chance_outcomes()[0][0])


CALLS = {
    "faces": lambda d, a: [d.face[label][1] for label in d.faces[a["die"]]],
    "face_labels": lambda d, a: list(d.faces[a["die"]]),
    "face_sums": lambda d, a: {die: sum(d.face[label][1] for label in d.faces[die]) for die in DICE},
    "has_faces": lambda d, a: [label for label in a["labels"] if label in d.face],
    "red_chances": lambda d, a: {die: sum(1 for label in d.faces[die] if d.face[label][2] == "red")
                                 for die in ("IT", "BL", "ST")},
    "offensive_rerolls": lambda d, a: [offensive_rerolls(own, opp) for own, opp, _ in a["cases"]],
    "dice_to_roll": lambda d, a: dice_to_roll(a["levels"], a["skills"], a["cap"], a.get("scope", "per_skill")),
    "attack_points": lambda d, a: attack_points([(x.split(":")[0], d.face[x][1]) for x in a["off"]],
                                                [d.face[x][1:] for x in a["def"]], a.get("negative", "clamp0")),
    "push_track": lambda d, a: list(push_track(a["track"], a["card"])),
    "shift_track": lambda d, a: list(shift_track(a["track"])),
    "normal_turns": lambda d, a: [normal_turns(n) for n, _ in a["cases"]],
    "expected_best": lambda d, a: round(expected_best([d.face[x][1] for x in d.faces[a["die"]]], a["n"], a["k"]), 2),
}


def chance(state: State, outcomes: list, where: str) -> None:
    """A step's chance outcomes, in order, each at a chance node."""
    for outcome in outcomes:
        assert state.current_player() == CHANCE, f"{where}: not a chance node ({state.kind})\n{state}"
        state.apply_action(outcome)


def set_hand(state: State, data, spec: dict) -> None:
    """Inject a hand (AMB-16: the narrative's hands break the card flow)."""
    state.hand[spec["seat"]] = data.ints(spec["hand"])
