"""The report of simulated games (pipeline/simulate_stats.py computes the numbers): the same numbers as
text rows, written as Markdown tables and as A4 pages of charts and tables (pipeline/render/charts.py).
Seats are shown numbered from 1 (engine seat 0 is "seat 1").
"""

from __future__ import annotations

import io
import re
from collections import defaultdict
from pathlib import Path

from pipeline.simulate_stats import CounterStats, SimulationResult, _natural, flag_of

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
    keys = sorted(set(a) | set(b), key=_natural)
    rows = [["", f"{first} / game", f"{second} / game", f"{first} share"]]
    for key in keys:
        x, y = (t[key].total if key in t else 0 for t in (a, b))
        per = [num(t[key].mean if key in t else 0, 3) for t in (a, b)]
        rows.append([key, *per, f"{x / (x + y):.1%}" if x + y else "—"])
    return rows


def sweep_rows(sweep, points, names: list[str], between: str = " ") -> list[list[str]]:
    """A rule sweep: per setting, its point on the axis, each seat's win rate with its interval (after
    `between`: a new line in a narrow terminal), shared wins and the games compared."""
    narrow = between == "\n"
    rows = [[(",\n" if narrow else ", ").join(sweep.parameters), sweep.label or "x"]
            + [n if narrow else f"{n} win rate (95 % CI)" for n in names] + ["shared", "games"]]
    for setting, result in points:
        seats = [f"{s.rate:.3f}{between}" + (f"{s.low:.2f}–{s.high:.2f}" if narrow else
                                              f"({s.low:.2f}–{s.high:.2f})") for s in result.seats]
        rows.append([", ".join(map(str, setting)), sweep_x(sweep, setting), *seats,
                     str(shared_games(result)), str(result.finished)])
    return rows


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
    rows = [["rule parameter", "this run", "other reading", "games compared", "winner changed"]]
    for name, used, other, compared, changed in effects:
        share = f"{changed} ({changed / compared:.0%})" if compared else "—"
        rows.append([name, used, str(other), str(compared), share])
    return rows


def md_table(rows: list[list[str]]) -> list[str]:
    cells = [[str(c).replace("|", "\\|") for c in row] for row in rows]
    aligns = ["---"] + ["---:" if all(_numeric(r[i]) for r in cells[1:]) else "---" for i in range(1, len(cells[0]))]
    return ([f"| {' | '.join(cells[0])} |", f"|{'|'.join(aligns)}|"]
            + [f"| {' | '.join(row)} |" for row in cells[1:]] + [""])


def frequency_lines(result: SimulationResult, paired=()) -> list[str]:
    """Markdown: the counters, every frequency table with each row's share, and the paired tables."""
    lines, table = [], md_table
    if result.counters:
        lines += ["## Counters", ""] + table(counter_rows(result.counters, "counter", result.finished))
    for name, stats in result.frequencies:
        lines += [f"## How often: {name}", ""] + table(counter_rows(stats, name, result.finished, share=True))
    tables = dict(result.frequencies)
    for first, second in paired:
        if first in tables or second in tables:
            lines += [f"## {first} vs {second}", ""] + table(paired_rows(result, first, second))
    return lines


def markdown(result: SimulationResult, title: str, game: str | None = None, readings=(), *, sweeps=(),
             paired=(), names: list[str] | None = None, rules=()) -> str:
    """`sweeps`: (Sweep, [(setting, result)]) pairs; `paired`: (first, second) frequency tables shown side by
    side; `names`: who sits at each seat (sides), for the sweep's columns; `rules`: the run's overrides, for
    the replay commands."""
    table = md_table
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
    lines += frequency_lines(result, paired)
    if readings:
        lines += ["## Readings of the rulebook: how often the other one changes the winner", "",
                  "The same seeds replayed with the other value of each parameter that settles a point the "
                  "rulebook leaves open; a game counts when both versions ended by the rules.", ""]
        lines += table(reading_rows(readings))
    for sweep, points in sweeps:
        lines += [f"## Sweep: win rate as a function of {sweep.label or ', '.join(sweep.parameters)}", "",
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
    from pipeline.output import atomic_write

    atomic_write(Path(target), text.encode())


# --- PDF ----------------------------------------------------------------------------------------------------

MARGIN = 40.0           # points (14 mm): inside every home printer's margins
FLAGGED_SHOWN = 12
PAIRED_ROWS = 56        # rows of a paired table's column on an A4 page


def write_pdf(result: SimulationResult, target, title: str, fonts, *, sweeps=(), paired=(), names=None,
              panels=None, subtitle: str = "") -> int:
    """A4 pages of key numbers and charts; `target` a path (written atomically) or a binary file object.
    Same result, same bytes. Returns the number of pages. `sweeps`, `paired`, `names` as markdown()'s;
    `panels`: other panels to show first (the matchup matrix); `subtitle`: what was played, if not one run."""
    from reportlab.lib.pagesizes import A4

    from pipeline.render import chart_pages as layout
    from pipeline.render import charts
    from pipeline.render.pdf import new_canvas

    in_pairs = {name for pair in paired for name in pair}        # shown as a table, not as bars
    shown = (list(panels or ()) + _panels(result, fonts, charts, in_pairs)
             + extra_panels(result, fonts, charts, sweeps, paired, names or seat_labels(result)))
    pages = layout.flow(shown, A4, MARGIN, MARGIN + 46, MARGIN + 22)
    buffer = target if hasattr(target, "write") else io.BytesIO()
    canvas = new_canvas(buffer, A4, fonts, title=f"{title} — simulation")
    for number, placed in enumerate(pages, 1):
        _header(canvas, result, title, fonts, charts, number, len(pages), A4, subtitle)
        for panel, box in placed:
            panel.draw(canvas, box)
        canvas.showPage()
    canvas.save()
    if buffer is not target:
        from pipeline.output import atomic_write

        atomic_write(Path(target), buffer.getvalue())
    return len(pages)


def _header(canvas, result: SimulationResult, title: str, fonts, charts, number: int, pages: int, size,
            subtitle: str = "") -> None:
    width, top, body = size[0] - 2 * MARGIN, size[1] - MARGIN, fonts.name("body")
    if number == 1:
        charts.text(canvas, MARGIN, top - 18, f"{title} — simulation", fonts.name("title"), 18, room=width)
        what = subtitle or (f"replay of game seed {result.seed}" if result.replay else f"{result.games} games, "
                            f"master seed {result.seed} (game i plays seed {result.seed} × 1000003 + i)")
        bots = ", ".join(dict.fromkeys(result.bots))
        charts.text(canvas, MARGIN, top - 32, f"{what} · {result.players} players · bots: {bots} · "
                    f"{result.finished} finished by the rules, {len(result.flagged)} flagged", body, 8,
                    room=width, colour=charts.MUTED)
    else:
        charts.text(canvas, MARGIN, top - 10, f"{title} — simulation (continued)", fonts.bold("body"), 9)
    charts.text(canvas, MARGIN + width, MARGIN - 18, f"pnp simulate · page {number}/{pages}", body, 7, "right",
                colour=charts.MUTED)


def _panels(result: SimulationResult, fonts, charts, skip=frozenset()) -> list:
    from pipeline.render import chart_pages as layout

    P = layout.Panel

    def table(rows, fractions, title, full=False, aligns=""):
        return P(layout.table_height(len(rows), title=title),
                 lambda c, box: layout.titled_table(c, box, rows, fonts, fractions, title, aligns=aligns), full)

    seats = result.seats + ((result.first_player,) if result.first_player else ())
    done, reasons = [o for o in result.outcomes if not flag_of(o)], result.end_reasons
    scores = [s for o in done for s in o.get("scores") or ()]
    rounds = [o["rounds"] for o in done if o.get("rounds") is not None]
    panels = [] if not done else [       # no game ended by the rules: no statistics, only what happened
        table(seat_rows(result), (0.6, 1.5, 0.8, 1, 1.6, 1.3), "Win rate by seat (shared wins count 1/k)",
              aligns="llrrrr"),
        table(spread_rows(result), (2.2, 1, 1, 1, 1), "Scores and game length"),
        P(180, lambda c, box: charts.bar_chart(
            c, box, [f"seat {s.seat + 1}" if s.seat >= 0 else "first to play" for s in seats], [s.rate for s in seats],
            [(s.low, s.high) for s in seats],
            "Win rate by seat, 95 % Wilson interval", fonts, "{:.2f}")),
        P(180, lambda c, box: charts.histogram(c, box, scores, 16, "Final scores (every seat)", fonts)),
        P(150, lambda c, box: charts.histogram(c, box, rounds, 16, "Game length (rounds)", fonts))]
    panels.append(P(150, lambda c, box: charts.bar_chart(
        c, box, [r for r, _ in reasons], [n for _, n in reasons], None, "End reasons (games)", fonts,
        "{:.0f}", horizontal=True)))
    seeds: dict[str, list[int]] = defaultdict(list)
    for f in result.flagged:
        seeds[f.message].append(f.seed)
    none = [["—", "none: every game ended by the rules", ""]]
    flagged = [[str(len(s)), message, ", ".join(map(str, s[:3])) + (", …" if len(s) > 3 else "")]
               for message, s in list(seeds.items())[:FLAGGED_SHOWN]] or none
    flagged.insert(0, ["games", "what happened", "seeds"])
    if len(seeds) > FLAGGED_SHOWN:
        flagged.append(["…", f"and {len(seeds) - FLAGGED_SHOWN} other kinds: see report.md", ""])
    panels.append(table(flagged, (0.6, 7, 2.6), "Flagged games (replay one with --replay SEED)", True, "rll"))
    if result.nominal:
        panels.append(table(nominal_rows(result), (2.6, 1, 1, 1), "Nominal vs simulated"))
    if result.counters:
        panels.append(table(counter_rows(result.counters, "counter", result.finished), (2.2, 1, 1, 1.3),
                            "Counters"))
    for name, stats in result.frequencies:
        if name in skip:
            continue
        panels.append(P(min(300, 26 + 12 * len(stats)), lambda c, box, s=stats, n=name: charts.bar_chart(
            c, box, [x.name for x in s], [x.mean for x in s], None, f"How often per game: {n}", fonts,
            "{:.2f}", horizontal=True)))
    return panels


def extra_panels(result: SimulationResult, fonts, charts, sweeps, paired, names: list[str]) -> list:
    """The paired tables and the sweeps (a line chart of each seat's win rate, and its table)."""
    from pipeline.render import chart_pages as layout

    P, panels, tables = layout.Panel, [], dict(result.frequencies)
    for first, second in paired:
        if first in tables or second in tables:
            rows = paired_rows(result, first, second)
            parts = -(-(len(rows) - 1) // PAIRED_ROWS)           # half-page columns of at most PAIRED_ROWS rows
            size = -(-(len(rows) - 1) // max(1, parts))
            for k in range(max(1, parts)):
                part = [rows[0]] + rows[1 + k * size:1 + (k + 1) * size]
                title = f"{first} vs {second}" + (f" ({k + 1}/{parts})" if parts > 1 else "")
                panels.append(P(layout.table_height(len(part), title="t"), lambda c, box, r=part, t=title:
                                layout.titled_table(c, box, r, fonts, (2.4, 1.5, 1.7, 1.5), t)))
    for sweep, points in sweeps:
        what = sweep.label or ", ".join(sweep.parameters)
        labels = [sweep_x(sweep, setting) for setting, _ in points]
        series = [(names[k], [r.seats[k].rate for _, r in points], [(r.seats[k].low, r.seats[k].high)
                                                                      for _, r in points])
                  for k in range(result.players)]
        panels.append(P(190, lambda c, box, l=labels, s=series, w=what: charts.line_chart(
            c, box, l, s, f"Win rate by seat as a function of {w}", fonts, top=1.0, axis_label=w)))
        rows = sweep_rows(sweep, points, names)
        panels.append(P(layout.table_height(len(rows), title="t"), lambda c, box, r=rows, w=what: layout.titled_table(
            c, box, r, fonts, (1.8, 1.6) + (2.4,) * result.players + (0.7, 0.7), f"Sweep of {w} (same seeds)"),
                        True))
    return panels
