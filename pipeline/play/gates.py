"""Balance gates (issue 16): what a game's `balance` sheet promises, one gate per row ("the first player wins
between 40 % and 60 % of games"), checked in two steps.

Stage 2 (every `pnp validate`, no game played) types the gates: a known metric, a band with at least one
bound and min ≤ max, a rate's bounds within 0–1, a seat and a player count the game has. `pnp validate
--balance` then plays seeded games (pipeline/play/driver.py) at every player count the gates name and measures
each gate with its 95 % interval (pipeline/play/metrics.py). A gate fails only when the whole interval
lies outside its band, so noise never fails a build; an interval that straddles a bound is undecided (a
warning that says how many games would decide it); otherwise the gate holds.

Metric names follow Ludii where one fits: first_player_advantage, completion, drawishness, duration.
"""

from __future__ import annotations

import difflib
import math
from dataclasses import dataclass
from typing import Callable

from pipeline.core.errors import Report
from pipeline.data.balance import PRESENCE, SEAT, SHEET
from pipeline.data.schema import Record
from pipeline.data.specs import Records
from pipeline.play.contract import Simulation
from pipeline.play.metrics import (Measure, catalog, completion, drawishness, duration, first_player_advantage,
                                   key_figure, least_present, seat_win_rate)
from pipeline.play.stats import SimulationResult, wilson

@dataclass(frozen=True)
class Metric:
    """A gate's metric: its name, whether it is a share of games (bounds within 0–1), and how it is measured."""

    name: str
    rate: bool
    measure: Callable[[SimulationResult], Measure]


@dataclass(frozen=True)
class Gate:
    """One row of the sheet, typed: the band [low, high] (None: open on that side) at `players` players."""

    record: Record
    metric: Metric
    low: float | None
    high: float | None
    players: int


def metrics(sim: Simulation, records: Records) -> dict[str, Metric]:
    """Every metric this game's gates may name, but seat_win_rate:<seat> (seat_metric())."""
    found = {
        "first_player_advantage": Metric("first_player_advantage", True, first_player_advantage),
        "completion": Metric("completion", True, completion),
        "drawishness": Metric("drawishness", True, drawishness),
        "duration": Metric("duration", False, lambda result: duration(result, "rounds")),
        "duration_turns": Metric("duration_turns", False, lambda result: duration(result, "turns")),
    }
    for figure in sim.key_figures:
        found.setdefault(figure.counter, Metric(figure.counter, False, lambda result, f=figure: key_figure(result, f)))
    for table in (sim.catalogs(records) or {}):
        keys = catalog(sim, records, table)
        found[PRESENCE + table] = Metric(PRESENCE + table, True,
                                         lambda result, t=table, k=keys: least_present(result, t, k))
    return found


def seat_metric(name: str, seat: int) -> Metric:
    return Metric(name, True, lambda result: seat_win_rate(result, seat - 1))


def read_gates(sim: Simulation, records: Records, report: Report) -> list[Gate]:
    """Stage 2 of the `balance` sheet: its gates, every problem of a row at its cell (the row is left out)."""
    known = metrics(sim, records)
    fewest, most = sim.player_range(records)
    gates, seen = [], {}
    for rec in records.get(SHEET, ()):
        name = rec.get("metric")
        if name is None:
            continue                                   # "required value is empty", already said
        players = rec.get("players") or sim.default_players
        problems = len(report.errors)
        if rec.get("players") is not None and not fewest <= players <= most:
            report.error(rec.at("players"), f"this game takes {fewest}–{most} players, not {players}", "range")
        metric = _metric(name, known, rec, players, fewest <= players <= most, report)
        low, high = rec.get("min"), rec.get("max")
        if low is None and high is None:
            report.error(rec.at("metric"), "a gate needs a min, a max or both", "required")
        if low is not None and high is not None and low > high:
            report.error(rec.at("min"), f"min {low:g} is above max {high:g}", "range")
        for column, bound in (("min", low), ("max", high)):
            if metric is not None and metric.rate and bound is not None and not 0 <= bound <= 1:
                report.error(rec.at(column), f"{name} is a share of games: {bound:g} is outside 0–1", "range")
        key = (name, players)
        if key in seen:
            report.error(rec.at("metric"), f"{name} at {players} players is already gated on row {seen[key]}",
                         "unique")
        seen.setdefault(key, rec.ref.row)
        if len(report.errors) == problems:
            gates.append(Gate(rec, metric, low, high, players))
    return gates


def _metric(name: str, known: dict[str, Metric], rec: Record, players: int, players_ok: bool,
            report: Report) -> Metric | None:
    if name in known:
        return known[name]
    if name.startswith(SEAT):
        text = name[len(SEAT):].strip()
        if not text.isdigit():
            report.error(rec.at("metric"), f"{SEAT}<seat> takes a seat number ({SEAT}2), not {text!r}", "type")
            return None
        seat = int(text)
        if players_ok and not 1 <= seat <= players:
            report.error(rec.at("metric"), f"seat {seat} is not in a {players}-player game (seats 1–{players})",
                         "range")
            return None
        return seat_metric(name, seat)
    if name.startswith(PRESENCE):
        tables = [known_name for known_name in known if known_name.startswith(PRESENCE)]
        report.error(rec.at("metric"), f"unknown metric {name!r}: {PRESENCE}<table> names a table whose every key "
                     f"the game lists ({', '.join(tables) or 'this game lists none'})", "enum")
        return None
    names = [*known, SEAT + "<seat>"]
    close = difflib.get_close_matches(name, names, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    report.error(rec.at("metric"), f"unknown metric {name!r}{hint}; this game's metrics: {', '.join(names)}",
                 "enum")
    return None


# --- playing the gates (`pnp validate --balance`) ------------------------------------------------------------

BALANCE_GAMES = 1000     # per player count: every shipped gate decided, all five games in seconds
BALANCE_SEED = 1
HOLDS, FAILS, UNDECIDED, UNMEASURED = "holds", "fails", "undecided", "unmeasured"


@dataclass(frozen=True)
class Verdict:
    """A gate as measured on `games` seeded games: holds, fails (the whole interval outside the band),
    undecided (the interval straddles `bound`; `needed` games would likely decide it) or unmeasured."""

    gate: Gate
    measure: Measure
    games: int
    state: str
    bound: float | None = None
    needed: int | None = None


def measure_gates(sim: Simulation, records: Records, gates: list[Gate], games: int = BALANCE_GAMES,
                  seed: int = BALANCE_SEED, *, workers: int = 1, source=None, executor=None,
                  progress=None) -> list[Verdict]:
    """Play `games` seeded games at each player count the gates name (the same seeds at each), then judge
    every gate, in sheet order."""
    from pipeline.play.driver import simulate_runs

    results = {}
    for players in sorted({gate.players for gate in gates}):
        [results[players]] = simulate_runs(sim, records, ((),), games, seed, players, None, workers, progress,
                                           source=source, executor=executor)
    return [judge(gate, gate.metric.measure(results[gate.players]), games) for gate in gates]


def judge(gate: Gate, measure: Measure, games: int) -> Verdict:
    if measure.value is None:
        return Verdict(gate, measure, games, UNMEASURED)
    low, high = measure.low, measure.high
    if (gate.high is not None and low > gate.high) or (gate.low is not None and high < gate.low):
        return Verdict(gate, measure, games, FAILS)
    straddled = [b for b in (gate.low, gate.high) if b is not None and low < b < high]
    if not straddled:
        return Verdict(gate, measure, games, HOLDS)
    bound = min(straddled, key=lambda b: abs(measure.value - b))      # the closer bound needs the more games
    needed = games_needed(measure, bound, games, gate.metric.rate)
    return Verdict(gate, measure, games, UNDECIDED, bound, needed)


def games_needed(measure: Measure, bound: float, games: int, rate: bool = False) -> int | None:
    """Games that would likely put the interval on one side of `bound` at the same value, with a fifth more
    for luck, rounded up to two significant digits; None when the value sits on the bound. A rate's Wilson
    interval is recomputed at each count (at 0 or 1 it narrows as 1/n); another interval narrows as 1/√n."""
    distance = abs(measure.value - bound)
    half = measure.high - measure.value if bound > measure.value else measure.value - measure.low
    if distance <= 0 or half <= 0:
        return None
    if rate:
        def decided(n: int) -> bool:
            low, high = wilson(measure.value * n, n)
            return not low < bound < high
        top = measure.n
        while not decided(top):
            top *= 2
        bottom = top // 2
        while top - bottom > 1:                        # the fewest units that decide, by bisection
            middle = (bottom + top) // 2
            bottom, top = (bottom, middle) if decided(middle) else (middle, top)
        needed = math.ceil(games * 1.2 * top / measure.n)
    else:
        needed = math.ceil(round(games * 1.2 * (half / distance) ** 2, 6))  # round: 0.56 - 0.53 is not 0.03
    step = 10 ** max(0, len(str(needed)) - 2)
    return -(-needed // step) * step
