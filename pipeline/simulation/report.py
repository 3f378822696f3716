"""The report of simulated games (pipeline/play/stats.py computes the numbers): the same numbers as
text rows, written as Markdown tables (and as A4 pages by pipeline/simulation/pdf.py).
Seats are shown numbered from 1 (engine seat 0 is "seat 1").
"""

from __future__ import annotations

import io
import re
from pathlib import Path

from pipeline.play.stats import CounterStats, SimulationResult, flag_of, natural_key

# --- the same numbers as text rows, for Markdown and the PDF ------------------------------------------------

def num(value, digits: int = 2) -> str:
    if value is None:
        return "—"
    if float(value).is_integer() and not isinstance(value, bool):
        return f"{int(value)}"
    return f"{value:.{digits}f}"


def replay_command(result: SimulationResult, game: str, seed: int, rules=()) -> str:
    """The command that plays this game again: the run's `--rule` overrides (its sides too) included."""
    bots = result.bots[0] if len(set(result.bots)) == 1 else ",".join(result.bots)
    changed = "".join(f" --rule {name}={value}" for name, value in rules)
    return f"pnp simulate {game} --replay {seed} --players {result.players} --bots {bots}{changed}"


def settings_rows(result: SimulationResult, names: list[str] | None = None) -> list[list[str]]:
    """`names`: who sits at each seat, when the game has sides ("seat 1 (eclairs)")."""
    games = (f"1 (replay of the game seed {result.seed})" if result.replay else
             f"{result.games} (game i plays seed {result.seed} × 1000003 + i)")
    return [["setting", "value"], ["games", games], ["master seed", str(result.seed)],
            ["players", str(result.players)],
            ["bots", ", ".join(f"{i + 1}: {b}" for i, b in enumerate(result.bots))]] + (
            [["seats", ", ".join(names)]] if names and names != seat_labels(result) else []) + [
            ["finished by the rules", f"{result.finished} of {result.games} (the statistics below)"],
            ["flagged (cap, stuck, error)", str(len(result.flagged))],
            ["step guard", f"{result.max_steps} engine steps per game"]]


def seat_rows(result: SimulationResult) -> list[list[str]]:
    """One row per seat, then (games that say who started) the first player's row, whatever their seat."""
    extra = (result.first_player,) if result.first_player else ()
    return [["seat", "bot", "wins", "win rate", "95 % CI", "mean score"]] + [
        [str(s.seat + 1) if s.seat >= 0 else "1st", s.bot, num(s.wins), f"{s.rate:.3f}", f"{s.low:.3f}–{s.high:.3f}",
         num(s.mean_score)] for s in result.seats + extra]


def spread_rows(result: SimulationResult) -> list[list[str]]:
    rows = [["", "mean", "sd", "min", "max"]]
    for name, spread in (("score (every seat)", result.scores), ("winning margin", result.margins),
                         ("rounds", result.rounds), ("turns", result.turns)):
        if spread is not None:
            rows.append([name, num(spread.mean), num(spread.sd), num(spread.low), num(spread.high)])
    return rows


def reason_rows(result: SimulationResult) -> list[list[str]]:
    return [["end reason", "games", "share"]] + [
        [reason, str(count), f"{count / result.games:.1%}"] for reason, count in result.end_reasons]


def nominal_rows(result: SimulationResult) -> list[list[str]]:
    return [["quantity", "nominal", "simulated", "difference"]] + [
        [r.name, f"{r.nominal:.3f}"] + (["—", "—"] if r.simulated is None else
                                        [f"{r.simulated:.3f}", f"{r.simulated - r.nominal:+.3f}"])
        for r in result.nominal]


def counter_rows(stats: tuple[CounterStats, ...], name: str, finished: int, share: bool = False
                 ) -> list[list[str]]:
    """One row per counter; `share`: also each row's share of the table's total (a frequency table)."""
    whole = sum(c.total for c in stats)
    return [[name, "per game", "total"] + (["share"] if share else []) + ["games with any"]] + [
        [c.name, num(c.mean, 3), num(c.total)] + ([f"{c.total / whole:.1%}" if whole else "—"] if share else [])
        + [f"{c.games} ({c.games / finished:.0%})" if finished else "0"] for c in stats]


def paired_rows(result: SimulationResult, first: str, second: str) -> list[list[str]]:
    """Two frequency tables with the same keys side by side (played vs discarded, per card): per game each,
    and the first's share of the two."""
    tables = dict(result.frequencies)
    a, b = ({c.name: c for c in tables.get(name, ())} for name in (first, second))
    keys = sorted(set(a) | set(b), key=natural_key)
    rows = [["", f"{first} / game", f"{second} / game", f"{first} share"]]
    for key in keys:
        x, y = (t[key].total if key in t else 0 for t in (a, b))
        per = [num(t[key].mean if key in t else 0, 3) for t in (a, b)]
        rows.append([key, *per, f"{x / (x + y):.1%}" if x + y else "—"])
    return rows


def sweep_rows(sweep, points, names: list[str], between: str = " ") -> list[list[str]]:
    """A rule sweep: per setting, its point on the axis, each seat's win rate with its interval (after
    `between`: a new line in a narrow terminal), shared wins and the games compared; a sweep with a `y`
    ratio: that rate with its interval and what it counted instead of the seats."""
    narrow = between == "\n"
    if sweep.y is not None:
        return _sweep_y_rows(sweep, points, between)
    rows = [[(",\n" if narrow else ", ").join(sweep.parameters), sweep.label or "x"]
            + [n if narrow else f"{n} win rate (95 % CI)" for n in names] + ["shared", "games"]]
    for setting, result in points:
        seats = [f"{s.rate:.3f}{between}" + (f"{s.low:.2f}–{s.high:.2f}" if narrow else
                                              f"({s.low:.2f}–{s.high:.2f})") for s in result.seats]
        rows.append([", ".join(map(str, setting)), sweep_x(sweep, setting), *seats,
                     str(shared_games(result)), str(result.finished)])
    return rows


def _sweep_y_rows(sweep, points, between: str) -> list[list[str]]:
    from pipeline.play.ratios import counts, shown_interval, shown_rate, single_rate

    y = sweep.y
    rows = [[", ".join(sweep.parameters), sweep.label or "x", f"{sweep_y_label(sweep)} (95 % CI)",
             f"{y.numerator} / {y.denominator}", "games"]]
    for setting, result in points:
        rate = single_rate(result, y)
        interval = shown_interval(rate)
        rows.append([", ".join(map(str, setting)), sweep_x(sweep, setting),
                     shown_rate(rate) + (f"{between}({interval})" if interval else ""), counts(rate),
                     str(result.finished)])
    return rows


def sweep_y_label(sweep) -> str:
    """What a sweep measures: its y ratio's label, or the win rate by seat."""
    if sweep.y is None:
        return "win rate"
    return sweep.y.label or f"{sweep.y.numerator} / {sweep.y.denominator}"


def sweep_x(sweep, setting) -> str:
    value = sweep.x(tuple(setting)) if sweep.x else ", ".join(map(str, setting))
    return num(value, 2) if isinstance(value, (int, float)) else str(value)


def shared_games(result: SimulationResult) -> int:
    """Finished games whose win was shared (a draw between two)."""
    return sum(1 for o in result.outcomes if not flag_of(o) and max(o["returns"]) < 1)


def flagged_rows(result: SimulationResult, game: str | None = None, rules=()) -> list[list[str]]:
    return [["game i", "seed", "what happened"] + (["replay"] if game else [])] + [
        [str(f.index), str(f.seed), f.message] + ([f"`{replay_command(result, game, f.seed, rules)}`"] if game else [])
        for f in result.flagged]


# --- Markdown -----------------------------------------------------------------------------------------------

def reading_rows(effects) -> list[list[str]]:
    rows = [["rule parameter", "this run", "other reading", "games compared", "winner changed",
             "seat 1's result: this run → other"]]
    for name, used, other, compared, changed, first, first_other in effects:
        share = f"{changed} ({changed / compared:.0%})" if compared else "—"
        seat = f"{first:.2f} → {first_other:.2f}" if compared else "—"
        rows.append([name, used, str(other), str(compared), share, seat])
    return rows


def md_table(rows: list[list[str]]) -> list[str]:
    cells = [[str(c).replace("|", "\\|") for c in row] for row in rows]
    aligns = ["---"] + ["---:" if all(_numeric(r[i]) for r in cells[1:]) else "---" for i in range(1, len(cells[0]))]
    return ([f"| {' | '.join(cells[0])} |", f"|{'|'.join(aligns)}|"]
            + [f"| {' | '.join(row)} |" for row in cells[1:]] + [""])


def frequency_lines(result: SimulationResult, paired=(), skip=frozenset()) -> list[str]:
    """Markdown: the counters, every frequency table with each row's share, and the paired tables (whose
    two tables are not repeated alone); `skip`: tables a ratio table already shows."""
    lines, table = [], md_table
    if result.counters:
        lines += ["## Counters", ""] + table(counter_rows(result.counters, "counter", result.finished))
    in_pairs = {name for pair in paired for name in pair} | set(skip)      # shown side by side below
    for name, stats in result.frequencies:
        if name not in in_pairs:
            lines += [f"## How often: {name}", ""] + table(counter_rows(stats, name, result.finished, share=True))
    tables = dict(result.frequencies)
    for first, second in paired:
        if first in tables or second in tables:
            lines += [f"## {first} vs {second}", ""] + table(paired_rows(result, first, second))
    return lines


def ratio_lines(found) -> list[str]:
    """The ratio tables (pipeline/play/ratios.py) under their titles and notes; a grouped table: its
    pooled group (every column), then every group side by side (its sorting rate and what it counted: the
    intervals are in its CSV)."""
    from pipeline.play.ratios import POOLED, group_labels, pivot_rows, rows

    lines = []
    for r in found:
        lines += [f"## {r.table.title}", ""] + ([r.table.note, ""] if r.table.note else [])
        if not r.grouped:
            lines += md_table(rows(r))
            continue
        pooled = POOLED if POOLED in r.groups else r.groups[0]
        lines += ["Every group pooled:" if pooled == POOLED else f"{pooled}:", ""] + md_table(rows(r, pooled))
        if len(r.groups) > 1:
            names = group_labels(r.groups)
            renamed = "; ".join(f"{names[g]}: {g}" for g in r.groups if names[g] != g)
            lines += [f"Each group{f' ({renamed})' if renamed else ''}:", ""] + md_table(pivot_rows(r))
    return lines


def markdown(result: SimulationResult, title: str, game: str | None = None, readings=(), *, sweeps=(),
             paired=(), names: list[str] | None = None, rules=(), ratios=()) -> str:
    """`sweeps`: (Sweep, [(setting, result)]) pairs; `paired`: (first, second) frequency tables shown side by
    side; `names`: who sits at each seat (sides), for the sweep's columns; `rules`: the run's overrides, for
    the replay commands; `ratios`: the game's RatioTables (pipeline/play/ratios.py)."""
    from pipeline.play.ratios import computed, keyed_tables

    table, found = md_table, computed(ratios, result)
    lines = [f"# {title} — simulation report", "", "## Settings", ""] + table(settings_rows(result, names))
    if result.finished:
        lines += ["## Win rate by seat", "", "A win shared by k seats counts 1/k; the interval is Wilson's, at "
                  "95 %.", ""] + table(seat_rows(result))
        lines += ["## Scores and game length", ""] + table(spread_rows(result))
    lines += ["## End reasons", ""] + table(reason_rows(result))
    if result.nominal:
        lines += ["## Nominal vs simulated", "", "Nominal: expected from the data alone; simulated: what the "
                  "bots' games realised (a name `a/b` is the ratio of counters a and b over all games).", ""]
        lines += table(nominal_rows(result))
    lines += ratio_lines(found)
    lines += frequency_lines(result, paired, keyed_tables(found))
    if readings:
        lines += ["## Readings of the rulebook: how often the other one changes the winner", "",
                  "The same seeds replayed with the other value of each parameter that settles a point the "
                  "rulebook leaves open; a game counts when both versions ended by the rules.", ""]
        lines += table(reading_rows(readings))
    for sweep, points in sweeps:
        lines += [f"## Sweep: {sweep_y_label(sweep)} as a function of {sweep.label or ', '.join(sweep.parameters)}",
                  "",
                  "The same seeds played at each setting of " + ", ".join(f"`{p}`" for p in sweep.parameters)
                  + ".", ""] + table(sweep_rows(sweep, points, names or seat_labels(result)))
    lines += ["## Flagged games", ""]
    lines += (table(flagged_rows(result, game, rules)) if result.flagged
              else ["None: every game ended by the rules.", ""])
    return "\n".join(lines)


def seat_labels(result: SimulationResult) -> list[str]:
    return [f"seat {i + 1}" for i in range(result.players)]


def _numeric(cell: str) -> bool:
    return re.fullmatch(r"[+-]?[\d.]+%?( \([\d.–%]+\))?|—", cell) is not None


def write_markdown(result: SimulationResult, target, title: str, game: str | None = None, readings=(),
                   **sections) -> None:
    """`target`: a path (written atomically) or a text/binary file object; `sections` as markdown()'s."""
    text = markdown(result, title, game, readings, **sections)
    if hasattr(target, "write"):
        target.write(text.encode() if isinstance(target, (io.BufferedIOBase, io.RawIOBase)) else text)
        return
    from pipeline.core.output import atomic_write

    atomic_write(Path(target), text.encode())
