"""Balance gates in words: the located line of a failed or undecided gate, and the table `pnp validate
--balance` prints (every gate with its measured value, its 95 % interval and its band)."""

from __future__ import annotations

from pipeline.core.errors import Report
from pipeline.play.gates import BALANCE_SEED, FAILS, HOLDS, UNDECIDED, UNMEASURED, Verdict


def number(value: float | None, rate: bool) -> str:
    """A rate with three decimals (0.534); another value with four significant digits (13.04, 6.880, 671.1)."""
    if value is None:
        return "—"
    if rate:
        return f"{value:.3f}"
    return f"{value:#.4g}" if abs(value) < 1000 else f"{value:.0f}"


def band(verdict: Verdict) -> str:
    low, high = verdict.gate.low, verdict.gate.high
    if low is not None and high is not None:
        return f"{low:g}–{high:g}"
    return f"≥ {low:g}" if low is not None else f"≤ {high:g}"


def measured(verdict: Verdict) -> str:
    """'0.61 [0.58, 0.64]'."""
    m, rate = verdict.measure, verdict.gate.metric.rate
    return f"{number(m.value, rate)} [{number(m.low, rate)}, {number(m.high, rate)}]"


def context(verdict: Verdict, seed: int) -> str:
    least = f"least: {verdict.measure.detail}; " if verdict.measure.detail else ""
    return f"({least}{verdict.games} games, {verdict.gate.players} players, seed {seed})"


def message(verdict: Verdict, seed: int) -> str:
    """The problem's text (its place is the gate's metric cell)."""
    gate, name = verdict.gate, verdict.gate.metric.name
    if verdict.state == FAILS:
        side = "above" if gate.high is not None and verdict.measure.low > gate.high else "below"
        return f"{name} {measured(verdict)} is {side} the band {band(verdict)} {context(verdict, seed)}"
    if verdict.state == UNDECIDED:
        more = (f"play more games (--games {verdict.needed})" if verdict.needed else
                "the value sits on the bound: move the bound or play many more games")
        return (f"{name} {measured(verdict)} straddles {verdict.bound:g}, a bound of the band {band(verdict)} "
                f"{context(verdict, seed)}: undecided: {more}")
    return f"{name} could not be measured: no game that ended by the rules gave it a value {context(verdict, seed)}"


VERDICT_WORDS = {HOLDS: "holds", FAILS: "FAILS", UNDECIDED: "undecided"}


def tables(verdicts: list[Verdict]) -> list[tuple[int, list[list[str]]]]:
    """The printed tables, one per player count (in the order the sheet first names it): (players, rows
    with the header first), one row per gate in sheet order."""
    found: dict[int, list[list[str]]] = {}
    for verdict in verdicts:
        m, rate, ref = verdict.measure, verdict.gate.metric.rate, verdict.gate.record.at("metric")
        rows = found.setdefault(verdict.gate.players,
                                [["gate", "cell", "measured", "95 % interval", "band", "verdict"]])
        rows.append([verdict.gate.metric.name + (f" ({m.detail})" if m.detail else ""), f"{ref.column}{ref.row}",
                     number(m.value, rate), f"[{number(m.low, rate)}, {number(m.high, rate)}]", band(verdict),
                     VERDICT_WORDS.get(verdict.state, "not measured")])
    return list(found.items())


def report_verdicts(verdicts: list[Verdict], report: Report, seed: int = BALANCE_SEED) -> None:
    """A failed or unmeasured gate is an error at its metric cell [balance], an undecided one a warning."""
    for verdict in verdicts:
        where = verdict.gate.record.at("metric")
        if verdict.state in (FAILS, UNMEASURED):
            report.error(where, message(verdict, seed), "balance")
        elif verdict.state == UNDECIDED:
            report.warning(where, message(verdict, seed), "balance")
