"""The report of simulated games as A4 pages: key numbers as tables and charts (pipeline/render/charts/draw.py),
flowed two to a row (pipeline/render/charts/pages.py). The rows are simulation/report.py's, shared with the
Markdown report and the terminal."""

from __future__ import annotations

from collections import defaultdict

from pipeline.play.stats import SimulationResult, flag_of
from pipeline.simulation.report import (counter_rows, nominal_rows, paired_rows, seat_labels, seat_rows, spread_rows,
                                        sweep_rows, sweep_x, sweep_y_label)

MARGIN = 40.0           # points (14 mm): inside every home printer's margins
FLAGGED_SHOWN = 12
PAIRED_ROWS = 56        # rows of a paired table's column on an A4 page


def write_pdf(result: SimulationResult, target, title: str, fonts, *, sweeps=(), paired=(), names=None,
              panels=None, subtitle: str = "", ratios=()) -> int:
    """A4 pages of key numbers and charts; `target` a path (written atomically) or a binary file object.
    Same result, same bytes. Returns the number of pages. `sweeps`, `paired`, `names`, `ratios` as
    markdown()'s; `panels`: other panels to show first (the matchup matrix); `subtitle`: what was played, if
    not one run."""
    from reportlab.lib.pagesizes import A4

    from pipeline.play.ratios import computed, keyed_tables
    from pipeline.render.charts import draw as charts, pages as layout
    from pipeline.simulation.ratio_pages import ratio_panels

    found = computed(ratios, result)
    in_pairs = {name for pair in paired for name in pair} | keyed_tables(found)   # shown as tables, not bars
    shown = (list(panels or ()) + _panels(result, fonts, charts, in_pairs) + ratio_panels(found, fonts, charts)
             + extra_panels(result, fonts, charts, sweeps, paired, names or seat_labels(result)))
    return layout.write_flowed(target, shown, fonts, f"{title} — simulation", lambda canvas, number, pages: _header(
        canvas, result, title, fonts, charts, number, pages, A4, subtitle), MARGIN)


def _header(canvas, result: SimulationResult, title: str, fonts, charts, number: int, pages: int, size,
            subtitle: str = "") -> None:
    width, top, body = size[0] - 2 * MARGIN, size[1] - MARGIN, fonts.name("body")
    if number == 1:
        charts.text(canvas, MARGIN, top - 18, f"{title} — simulation", fonts.name("title"), 18, room=width)
        what = subtitle or (f"replay of game seed {result.seed}" if result.replay else f"{result.games} games, "
                            f"master seed {result.seed} (game i plays seed {result.seed} × 1000003 + i)")
        bots = ", ".join(dict.fromkeys(result.bots))
        charts.text(canvas, MARGIN, top - 32, f"{what} · {result.players} player{'s' if result.players != 1 else ''} · bots: {bots} · "
                    f"{result.finished} finished by the rules, {len(result.flagged)} flagged", body, 8,
                    room=width, colour=charts.MUTED)
    else:
        charts.text(canvas, MARGIN, top - 10, f"{title} — simulation (continued)", fonts.bold("body"), 9)
    charts.text(canvas, MARGIN + width, MARGIN - 18, f"pnp simulate · page {number}/{pages}", body, 7, "right",
                colour=charts.MUTED)


def _panels(result: SimulationResult, fonts, charts, skip=frozenset()) -> list:
    from pipeline.render.charts import pages as layout

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
    from pipeline.render.charts import pages as layout

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
        series, measured = sweep_series(sweep, points, names, result.players), sweep_y_label(sweep)
        measured = "Win rate by seat" if sweep.y is None else measured[:1].upper() + measured[1:]
        panels.append(P(190, lambda c, box, l=labels, s=series, w=what, m=measured: charts.line_chart(
            c, box, l, s, f"{m} as a function of {w}", fonts, top=1.0 if all(
                v <= 1 for _, values, _ in s for v in values) else None, axis_label=w)))
        rows = sweep_rows(sweep, points, names)
        widths = ((1.8, 1.6) + (2.4,) * result.players + (0.7, 0.7) if sweep.y is None
                  else (1.8, 1.6, 2.6, 1.6, 0.8))
        panels.append(P(layout.table_height(len(rows), title="t"), lambda c, box, r=rows, w=what, f=widths:
                        layout.titled_table(c, box, r, fonts, f, f"Sweep of {w} (same seeds)"), True))
    return panels


def sweep_series(sweep, points, names: list[str], players: int) -> list:
    """The sweep's lines: each seat's win rate, or its one y ratio (a point without a rate reads 0)."""
    if sweep.y is None:
        return [(names[k], [r.seats[k].rate for _, r in points], [(r.seats[k].low, r.seats[k].high)
                                                                   for _, r in points]) for k in range(players)]
    from pipeline.play.ratios import single_rate

    rates = [single_rate(r, sweep.y) for _, r in points]
    intervals = [rate.interval or (rate.rate or 0.0,) * 2 for rate in rates]
    return [(sweep_y_label(sweep), [rate.rate or 0.0 for rate in rates], intervals)]
