"""Challengers' scenario adapter (tests/games/cases/challengers/): the fixture (tests/games/challengers/challengers_fixture.py, with the
test cards of challengers.md §4.2 as t_<name>), what each expectation key reads, and the pure functions a case
may call: a match told card by card (tell_match, the game's own Match), the lead, level caps, copies, the start
player, the finalists, the trophy values, the matches per round, and whole seeded games.

Setup: {"players": n} (sets chosen by `params` `sets`, or drawn: the first chance node). Chance steps give one
outcome or a list of outcomes in order. Participants: seats 0 … n−1, then the robot."""

from __future__ import annotations

import random
import re

from pipeline.games.challengers.bots import BOTS
from pipeline.games.challengers.engine import CHANCE, new_game, tell_match
from pipeline.games.challengers.engine.data import copies_of, level_cap_ok
from pipeline.games.challengers.engine.scoring import (lead_winner, matches_per_round, qualified, rank_key,
                                                       start_player, trophy_values)
from tests.games.challengers.challengers_fixture import fixture_data
from tests.games.playout import run, sample, to_action

EXAMPLES = (re.compile(r"CH-[TD]\d+"), {f"CH-T{i}" for i in range(1, 8)} | {f"CH-D{i}" for i in range(1, 9)})
PLAYERS = BOTS


def game_data(case: dict):
    return fixture_data(**case.get("params", {}))


def start(data, case: dict):
    return new_game(data, case["setup"]["players"])


def chance(state, spec, where: str) -> None:
    for outcome in spec if isinstance(spec, list) else [spec]:
        assert state.current_player() == CHANCE, f"{where}: not a chance node\n{state}"
        state.apply_action(outcome)


def auto_until(state, phase: str) -> None:
    """The drafter at every seat, chance from Random(0), until the phase named ("final": the final's first
    node; "round:N": round N's first decision), or the end."""
    rng, bots = random.Random(0), [BOTS["drafter"](seat) for seat in range(state.n)]
    reached = {"final": lambda: state.final}.get(phase, lambda: state.phase == phase)
    if phase.startswith("round:"):
        reached = lambda: state.round >= int(phase[6:]) and state.current_player() >= 0    # noqa: E731
    while not reached() and not state.is_terminal():
        seat = state.current_player()
        state.apply_action(sample(state.chance_outcomes(), rng) if seat == CHANCE else bots[seat].choose(state, rng))


def observe(state, key: str, expected):
    data = state.data
    ids = data.ids
    if key == "legal":
        legal = state.legal_actions()
        found = {"has": [a for a in expected.get("has", []) if to_action(a) in legal],
                 "not": [a for a in expected.get("not", []) if to_action(a) not in legal], "count": len(legal)}
        return {k: v for k, v in found.items() if k in expected}
    if key == "outcomes":
        return [[o, round(p, 6)] for o, p in state.chance_outcomes()]
    if key == "counters":
        return {k: state.counters.get(k, 0) for k in expected}
    if key == "outcome":
        outcome = state.outcome()
        return {k: outcome[k] for k in expected}
    if key == "decks":
        return {seat: dict(sorted((data.card_ids[c], n) for c, n in state.decks[int(seat)].items()))
                for seat in expected}
    if key == "hidden_from":
        return {viewer: sum(value is None for of in range(state.n) for _, value in
                            state.visible_trophies(int(viewer), of)) for viewer in expected}
    if key in ("match_benches", "match_discards"):
        m = state.match
        return [[ids(slot) for slot in bench.values()] for bench in m.bench] if key == "match_benches" else \
            [ids(d) for d in m.discard]
    if key == "pile":
        return {card: state.piles[data.cards[data.index[card]].level].get(data.index[card], 0) for card in expected}
    simple = {
        "phase": lambda: state.phase, "player": state.current_player, "round": lambda: state.round,
        "hand": lambda: ids(state.hand), "picks_left": lambda: state.picks_left, "level": lambda: state.level,
        "redraws_left": lambda: state.redraws_left, "deck_size": lambda: state.deck_size,
        "tokens": lambda: state.tokens,
        "trophies": lambda: [[list(t) for t in ts] for ts in state.trophies], "robot": lambda: state.robot,
        "trophy_counts": lambda: [len(ts) for ts in state.trophies], "terminal": state.is_terminal,
        "returns": state.returns, "end_reason": lambda: state.end_reason, "chosen": lambda: list(state.chosen),
        "pile_size": lambda: state.pile_size, "final": lambda: state.final, "finalists": lambda: state.finalists,
        "sides": lambda: list(state.sides), "scores": lambda: state.outcome()["scores"],
    }
    return simple[key]()


# --- pure functions a case may call ------------------------------------------------------------------------

def match(data, call: dict) -> dict:
    """A match told card by card: decks top first (ids), side 0 (`first`) opens; `keys` picks what to compare:
    winner, end, benches, discards, fans, defences (the flag card's defence each time the flag moves)."""
    told = tell_match(data, call["decks"][0], call["decks"][1], {**data.params, **call.get("params", {})},
                      tuple(call.get("benches", ((), ()))))
    told["defences"] = [e["defence"] for e in told["events"] if e["event"] in ("flag",) or
                        (e["event"] == "reveal" and "attack" not in e)]
    told["attacks"] = [e["attack"] for e in told["events"] if e["event"] == "reveal" and "attack" in e]
    return {k: told[k] for k in call["expect"]}


def trophy_range(data, call: dict) -> dict:
    """Trophy values seen per round over seeded 2-player games played by the drafter (CH-T5)."""
    seen: dict[str, set] = {}
    for seed in range(call.get("games", 20)):
        state = run(new_game(data, 2), [BOTS["drafter"](s) for s in range(2)], random.Random(seed))
        for trophies in state.trophies:
            for r, value in trophies:
                seen.setdefault(str(r), set()).add(value)
    return {r: sorted(seen.get(r, ())) for r in call["expect"]}


def finalists(data, call: dict) -> list:
    keys = [rank_key([tuple(t) for t in p["trophies"]], p["tokens"]) for p in call["players"]]
    sure, group, places = qualified(keys)
    return sorted(sure) if not places else [sorted(sure), sorted(group), places]


def games(data, call: dict) -> dict:
    """Seeded whole games of `players` with `bot`: what every game's outcome shows (end reasons, rounds, matches
    played, trophies of the robot, finalists)."""
    ends, rounds, matches, robot_trophies, finalists_seen = set(), set(), set(), set(), set()
    for seed in range(call.get("games", 10)):
        state = new_game(data, call["players"])
        run(state, [BOTS[call.get("bot", "drafter")](s) for s in range(state.n)], random.Random(seed))
        out = state.outcome()
        ends.add(out["end_reason"])
        rounds.add(out["rounds"])
        played = out["counters"].get("matches", 0) - out["counters"].get("finals", 0)
        matches.add(played / out["rounds"])
        robot_trophies.add(len(state.trophies[state.robot]) > 0 if state.robot >= 0 else None)
        finalists_seen.add(len(out["finalists"]) if out["finalists"] is not None else None)
    found = {"ends": sorted(ends), "rounds": sorted(rounds), "matches_per_round": sorted(matches),
             "robot_has_trophies": sorted(robot_trophies, key=str), "finalists": sorted(finalists_seen, key=str)}
    return {k: found[k] for k in call["expect"]}


def deck_phases(data, call: dict) -> dict:
    """Seeded whole games of `players` with `bot`: the Deck phases' counters summed (short_hands, empty_hands,
    piles_reshuffled, next_level_draws, redraws) and the hands dealt."""
    found = dict.fromkeys(("short_hands", "empty_hands", "piles_reshuffled", "next_level_draws", "redraws"), 0)
    for seed in range(call.get("games", 10)):
        state = run(new_game(data, call["players"]), [BOTS[call.get("bot", "drafter")](s)
                                                      for s in range(call["players"])], random.Random(seed))
        for key in found:
            found[key] += state.counters.get(key, 0)
    return {k: found[k] for k in call["expect"]}


CALLS = {
    "deck_phases": deck_phases,
    "match": match,
    "lead_winner": lambda data, call: lead_winner(*call["fans"], call.get("lead", data.params["lead_to_win"])),
    "level_cap_ok": lambda data, call: [level_cap_ok(level, s) for level, s in call["cards"]],
    "copies_of": lambda data, call: [copies_of(row) for row in call["rows"]],
    "pile_copies": lambda data, call: [data.piles(tuple(data.optional_sets[:5]))[data.cards[data.index[c]].level]
                                       .get(data.index[c]) for c in call["cards"]],
    "start_player": lambda data, call: start_player(*[[tuple(t) for t in ts] for ts in call["trophies"]]),
    "finalists": finalists,
    "trophy_values": lambda data, call: {str(r): trophy_values(data.trophies[r]) for r in call["rounds"]},
    "trophy_range": trophy_range,
    "matches_per_round": lambda data, call: [matches_per_round(n) for n in call["players"]],
    "games": games,
    "params": lambda data, call: {k: data.params[k] for k in call["expect"]},
}
