"""Rates read from the games' counters (Simulation.ratios, play/contract.py Ratio and RatioTable): a numerator's
total over a denominator's over the games that ended by the rules, with a 95 % Wilson interval when it is a
share. Per key of two counter tables (a card's pick rate: picked / offered), grouped by the part of the key
before "|" with the groups pooled as "all" (a set's win rate per selection of sets), or one rate of two
counters (the robot's match win rate: robot:won / robot:matches). Rows for the Markdown (simulation/report.py),
the PDF (simulation/ratio_pages.py) and a CSV per table; a sweep's y reads the same single rates.

Pure computation and text; pipeline/play/stats.py's totals are the input.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path

from pipeline.play.contract import Ratio, RatioTable
from pipeline.play.stats import SimulationResult, natural_key, wilson

POOLED = "all"          # the group pooling every group's rows of the same name


@dataclass(frozen=True)
class Rate:
    numerator: float
    denominator: float
    share: bool             # a proportion: Wilson interval; else a mean per unit of the denominator

    @property
    def rate(self) -> float | None:
        return self.numerator / self.denominator if self.denominator else None

    @property
    def interval(self) -> tuple[float, float] | None:
        """95 % Wilson interval of a share (None for a mean, an empty denominator, or more successes than
        trials: a miscounted ratio shows its rate without an interval)."""
        if not self.share or not self.denominator or self.numerator > self.denominator:
            return None
        return wilson(self.numerator, int(round(self.denominator)))


@dataclass(frozen=True)
class RatioRow:
    group: str                  # "" when the keys have no group; POOLED for the groups pooled
    key: str                    # the key (after "|"); a single ratio: its label
    rates: tuple[Rate, ...]     # one per ratio of the table (one for a single ratio's row)


@dataclass(frozen=True)
class RatioResult:
    table: RatioTable
    keyed: bool                 # rows are the keys of counter tables (else one row per single ratio)
    rows: tuple[RatioRow, ...]

    @property
    def grouped(self) -> bool:
        return any(row.group for row in self.rows)

    def group(self, name: str) -> list[RatioRow]:
        return [row for row in self.rows if row.group == name]

    @property
    def groups(self) -> list[str]:
        return list(dict.fromkeys(row.group for row in self.rows))


def totals(result: SimulationResult) -> tuple[dict[str, float], dict[str, dict[str, float]]]:
    """(counter name -> total, table name -> {key: total}) over the games that ended by the rules."""
    plain = {c.name: c.total for c in result.counters}
    tables = {name: {c.name: c.total for c in stats} for name, stats in result.frequencies}
    return plain, tables


def single_rate(result: SimulationResult, ratio: Ratio) -> Rate:
    """One ratio of two counters ("robot:won" over "robot:matches"); a counter never counted is 0."""
    plain, tables = totals(result)

    def total(name: str) -> float:
        table, _, key = name.partition(":")
        return tables.get(table, {}).get(key, 0) if key else plain.get(name, 0)
    return Rate(total(ratio.numerator), total(ratio.denominator), ratio.share)


def is_keyed(table: RatioTable, result: SimulationResult) -> bool:
    """A name is a counter table when the games counted rows "name:key" under it, else a counter."""
    _, tables = totals(result)
    return any(r.denominator in tables or r.numerator in tables for r in table.ratios)


def compute(table: RatioTable, result: SimulationResult) -> RatioResult:
    if not is_keyed(table, result):         # one row per ratio the games counted (no robot: no robot's rate)
        found = [RatioRow("", r.label or f"{r.numerator} / {r.denominator}", (single_rate(result, r),))
                 for r in table.ratios]
        return RatioResult(table, False, tuple(row for row in found if row.rates[0].denominator))
    _, tables = totals(result)
    keys = sorted({k for r in table.ratios for name in (r.numerator, r.denominator) for k in tables.get(name, {})},
                  key=natural_key)
    split = [(key.partition("|")[0], key.partition("|")[2]) if "|" in key else ("", key) for key in keys]

    def rates(of_keys: list[str]) -> tuple[Rate, ...]:
        return tuple(Rate(sum(tables.get(r.numerator, {}).get(k, 0) for k in of_keys),
                          sum(tables.get(r.denominator, {}).get(k, 0) for k in of_keys), r.share)
                     for r in table.ratios)

    rows = [RatioRow(group, row, rates([key])) for key, (group, row) in zip(keys, split)]
    if len(set(group for group, _ in split)) > 1:
        names = sorted({row for _, row in split}, key=natural_key)
        rows = [RatioRow(POOLED, name, rates([k for k, (_, row) in zip(keys, split) if row == name]))
                for name in names] + rows
    ordered = [row for group in dict.fromkeys(r.group for r in rows) for row in _sorted(
        [r for r in rows if r.group == group], table.sort)]
    return RatioResult(table, True, tuple(ordered))


def _sorted(rows: list[RatioRow], sort: int | None) -> list[RatioRow]:
    if sort is None:
        return rows
    return sorted(rows, key=lambda row: (row.rates[sort].rate is None, -(row.rates[sort].rate or 0),
                                         natural_key(row.key)))


def computed(tables, result: SimulationResult) -> list[RatioResult]:
    """Every table the game declares that the games counted anything for."""
    found = [compute(table, result) for table in tables]
    return [r for r in found if any(rate.denominator or rate.numerator for row in r.rows for rate in row.rates)]


def keyed_tables(found: list[RatioResult]) -> set[str]:
    """The counter tables a keyed ratio table shows (their own frequency tables would repeat it)."""
    return {name for r in found if r.keyed for ratio in r.table.ratios for name in (ratio.numerator, ratio.denominator)}


# --- text ---------------------------------------------------------------------------------------------------

def shown_rate(rate: Rate) -> str:
    value = rate.rate
    return "—" if value is None else f"{value:.3f}" if rate.share else f"{value:.2f}"


def shown_interval(rate: Rate) -> str:
    interval = rate.interval
    return "" if interval is None else f"{interval[0]:.3f}–{interval[1]:.3f}"


def counts(rate: Rate) -> str:
    return f"{_count(rate.numerator)} / {_count(rate.denominator)}"


def _count(value: float) -> str:
    return f"{int(value)}" if float(value).is_integer() else f"{value:.2f}"


def rows(found: RatioResult, group: str | None = None, counted: bool = True, compact: bool = False,
         counted_head: str | None = None) -> list[list[str]]:
    """Header then one row per key (of `group` only, if given; a group column when the table has groups and
    no group is chosen); per ratio its rate and 95 % interval (`compact`: in one cell, "0.333 (0.297–0.372)")
    and (`counted`) "numerator / denominator" (headed by the ratio's counters, or `counted_head`)."""
    table = found.table
    chosen = found.rows if group is None else found.group(group)
    with_group = found.grouped and group is None
    if not found.keyed:
        head = ["quantity", "rate", "95 % CI"] + (["counted"] if counted else [])
    else:
        head = (["group"] if with_group else []) + ["key"]
        for ratio in table.ratios:
            label = ratio.label or f"{ratio.numerator} / {ratio.denominator}"
            head += ([label] if compact else [label, "95 % CI"]) + (
                [counted_head or f"{ratio.numerator} / {ratio.denominator}"] if counted else [])
    body = []
    for row in chosen:
        cells = ([row.group] if with_group else []) + [row.key]
        for rate in row.rates:
            interval = shown_interval(rate)
            shown = ([shown_rate(rate) + (f" ({interval})" if interval else "")] if compact
                     else [shown_rate(rate), interval])
            cells += shown + ([counts(rate)] if counted else [])
        body.append(cells)
    return [head] + body


def group_labels(groups: list[str]) -> dict[str, str]:
    """Short names of a table's groups: a group named by parts joined by "+" (a selection of sets) is named by
    the parts it lacks from every group's parts ("without stadium") when that is shorter; else by itself."""
    parts = {g: set(g.split("+")) for g in groups if g != POOLED}
    union = set().union(*parts.values()) if parts else set()
    labels = {}
    for g in groups:
        missing = sorted(union - parts.get(g, union))
        short = "without " + " + ".join(missing) if missing else g
        labels[g] = short if len(short) < len(g) else g
    return labels


def pivot(found: RatioResult) -> tuple[list[str], list[str], dict[tuple[str, str], Rate]]:
    """A grouped table as a matrix of its sorting ratio (or its first): (keys in the pooled group's order,
    groups, {(key, group): rate}); a key a group never counted has no cell."""
    k = found.table.sort if found.table.sort is not None else 0
    groups = found.groups
    keys = list(dict.fromkeys(row.key for group in groups for row in found.group(group)))
    return keys, groups, {(row.key, row.group): row.rates[k] for row in found.rows}


def pivot_rows(found: RatioResult) -> list[list[str]]:
    """Header (key, then each group's short name), then per key "rate (numerator / denominator)" per group."""
    keys, groups, cells = pivot(found)
    labels = group_labels(groups)
    return [["key"] + [labels[g] for g in groups]] + [
        [key] + [f"{shown_rate(cells[key, g])} ({counts(cells[key, g])})" if (key, g) in cells else "—"
                 for g in groups] for key in keys]


def csv_text(found: RatioResult) -> str:
    """One row per key: group, key, then per ratio its numerator, denominator, rate, low and high."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    head = ["group", "key"]
    for ratio in found.table.ratios:
        name = (ratio.label or f"{ratio.numerator}_per_{ratio.denominator}").replace(" ", "_")
        head += [ratio.numerator, ratio.denominator, name, f"{name}_low", f"{name}_high"]
    writer.writerow(head if found.keyed else ["quantity", "numerator", "denominator", "rate", "low", "high"])
    for row in found.rows:
        cells = [row.group, row.key] if found.keyed else [row.key]
        for rate in row.rates:
            low, high = (f"{v:.6f}" for v in rate.interval) if rate.interval else ("", "")
            cells += [_plain(rate.numerator), _plain(rate.denominator),
                      "" if rate.rate is None else f"{rate.rate:.6f}", low, high]
        writer.writerow(cells)
    return out.getvalue()


def _plain(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.6f}"


def write_csvs(found: list[RatioResult], folder: Path) -> list[Path]:
    from pipeline.core.output import atomic_write

    written = []
    for r in found:
        atomic_write(folder / f"{r.table.id}.csv", csv_text(r).encode())
        written.append(folder / f"{r.table.id}.csv")
    return written
