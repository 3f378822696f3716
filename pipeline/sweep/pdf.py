"""The report of a rule sweep as A4 pages: a chart of the sweep (one rule: line charts of the win rates and the
first key figure over its values; two rules: heat maps of the first player's win rate and of the first key
figure; more: the tables alone), then the tables of pipeline/sweep/report.py. Drawn with the generic charts
(pipeline/render/charts/draw.py) flowed by pipeline/render/charts/pages.py; same sweep, same bytes."""

from __future__ import annotations

from pipeline.play.metrics import Measure
from pipeline.sweep import report as rows_of

MARGIN = 40.0           # points (14 mm), as the simulation report
TABLE_ROWS = 48         # rows of a table panel before it continues in another
MOST_SERIES = 3         # lines whose value labels stay apart on one chart


def write_pdf(result, target, fonts) -> int:
    """`target`: a path (written atomically) or a binary file object. Returns the number of pages."""
    from reportlab.lib.pagesizes import A4

    from pipeline.render.charts import pages as layout

    shown = chart_panels(result, fonts) + table_panels(result, fonts)
    return layout.write_flowed(target, shown, fonts, rows_of.title(result), lambda canvas, number, pages: _header(
        canvas, result, fonts, number, pages, A4), MARGIN)


def _header(canvas, result, fonts, number: int, pages: int, size) -> None:
    from pipeline.render.charts import draw as charts

    width, top, body = size[0] - 2 * MARGIN, size[1] - MARGIN, fonts.name("body")
    if number == 1:
        request, first = result.plan.loaded.request, result.points[0].result
        flagged = sum(not p.finishes for p in result.points)
        charts.text(canvas, MARGIN, top - 18, rows_of.title(result), fonts.name("title"), 18, room=width)
        charts.text(canvas, MARGIN, top - 32, f"{len(result.points)} combinations × {request.games} games, master "
                    f"seed {request.seed}, the same seeds in every combination · {first.players} player"
                    f"{'s' if first.players != 1 else ''} · bots: {', '.join(dict.fromkeys(first.bots))} · "
                    f"{flagged} combination{'s' if flagged != 1 else ''} flagged", body, 8, room=width,
                    colour=charts.MUTED)
    else:
        charts.text(canvas, MARGIN, top - 10, f"{rows_of.title(result)} (continued)", fonts.bold("body"), 9)
    charts.text(canvas, MARGIN + width, MARGIN - 18, f"pnp sweep · page {number}/{pages}", body, 7, "right",
                colour=charts.MUTED)


# --- charts ------------------------------------------------------------------------------------------------------

def _value(m: Measure) -> float:
    return m.value if m.value is not None else 0.0          # nothing measured (no finished game) reads 0


def _interval(m: Measure) -> tuple[float, float]:
    return (m.low, m.high) if m.value is not None else (0.0, 0.0)


def _series(name: str, measures) -> tuple[str, list[float], list[tuple[float, float]]]:
    return name, [_value(m) for m in measures], [_interval(m) for m in measures]


def win_series(points, names: list[str]) -> list:
    """Each seat's win rate and the first player's (seat 1's when the games do not say who started), or the
    first player's alone when the lines would be too many to tell apart."""
    seats = [_series(name, [p.seats[k] for p in points]) for k, name in enumerate(names)]
    if all(p.result.first_player is None for p in points):
        seats[0] = (f"{names[0]} (first player)",) + seats[0][1:]
        return seats if len(seats) <= MOST_SERIES else seats[:1]
    first = _series("first player", [p.first for p in points])
    return [first] + seats if len(seats) < MOST_SERIES else [first]


def chart_panels(result, fonts) -> list:
    from pipeline.render.charts import draw as charts, pages as layout

    axes, figures, P = result.plan.axes, result.plan.figures, layout.Panel
    if len(axes) == 1:
        measured = [p for p in result.points if p.result.finished]      # a value without finished games: none
        if not measured:
            return []
        labels, what = [p.setting[0][1] for p in measured], axes[0].name
        left_out = "" if len(measured) == len(result.points) else "; values without a finished game left out"
        lines = win_series(measured, rows_of.seat_names(result))
        panels = [P(200, lambda c, box: charts.line_chart(
            c, box, labels, lines, f"Win rate as a function of {what} (95 % interval{left_out})", fonts,
            top=_top(lines), axis_label=what))]
        if figures:
            line = [_series(figures[0].label, [p.figures[0] for p in measured])]
            named = f"{_capital(figures[0].label)} (95 % interval{left_out})"
            panels.append(P(200, lambda c, box: charts.line_chart(c, box, labels, line, named, fonts, top=_top(line),
                                                                  axis_label=what)))
        return panels
    if len(axes) == 2:
        height = min(560.0, 60 + 30 * (len(axes[0].values) + 1))
        panels = [P(height, lambda c, box: _heat(c, box, result, fonts, lambda p: p.first, "{:.3f}",
                                                 "First player's win rate (95 % interval)", fair=True), True)]
        if figures:
            panels.append(P(height, lambda c, box: _heat(c, box, result, fonts, lambda p: p.figures[0], "{:.2f}",
                                                         f"{_capital(figures[0].label)} (95 % interval)"), True))
        return panels
    return []


def _capital(label: str) -> str:
    return label[:1].upper() + label[1:]


def _top(lines) -> float | None:
    highest = max((high for _, _, intervals in lines for _, high in intervals), default=0.0)
    return highest or None


def _heat(canvas, box, result, fonts, pick, fmt: str, title: str, fair: bool = False) -> None:
    """The measure over the grid of the two rules' values: rows the first rule, columns the second. White is
    a fair first seat (1 / players) for a win rate, the baseline's value for a key figure."""
    from pipeline.render.charts import draw as charts

    first, second = result.plan.axes
    by_setting = {p.setting: p for p in result.points}
    cells, values = [], []
    for a in first.values:
        cells.append([]), values.append([])
        for b in second.values:
            p = by_setting[((first.name, a), (second.name, b))]
            m = pick(p)
            lines = [fmt.format(m.value), f"{fmt.format(m.low)}–{fmt.format(m.high)}"] if m.value is not None else []
            if p.result.flagged:
                lines.append(f"{len(p.result.flagged)} flagged")
            cells[-1].append(lines or None)
            values[-1].append(m.value)
    measured = [v for row in values for v in row if v is not None]
    if fair:
        centre = 1 / result.points[0].result.players
        low, high, note = max(0.0, centre - 0.25), min(1.0, centre + 0.25), f"white: {centre:.3f}, a fair first seat"
    else:
        base = pick(result.points[result.plan.baseline]).value
        centre = base if base is not None else (sum(measured) / len(measured) if measured else 0.0)
        # full colour at the farthest value, but never for a difference within a combination's own interval
        halves = [(m.high - m.low) / 2 for m in map(pick, result.points) if m.value is not None]
        span = max([abs(v - centre) for v in measured] + [sum(halves) / len(halves) if halves else 0.0])
        low, high = centre - span, centre + span
        note = f"white: {centre:.2f}, the baseline's value; full colour: {span:.2f} away or more"
    charts.heat_map(canvas, box, list(first.values), list(second.values), cells, values, title, fonts, low=low,
                    centre=centre, high=high, corner=f"{first.name} \\ {second.name}",
                    note=f"rows: {first.name}; columns: {second.name}; {note}; blue below, orange above")


# --- tables ------------------------------------------------------------------------------------------------------

def table_panels(result, fonts) -> list:
    game, axes = result.plan.loaded.request.game, len(result.plan.axes)
    flagged = rows_of.flag_rows(result, game, code=False)       # the replay commands apart: they are long
    found = [("Settings", rows_of.settings_rows(result)),
             ("Win rates (change: paired difference from the baseline, same seeds)", rows_of.win_rows(result)),
             ("Key figures", rows_of.figure_rows(result)),
             ("Scores and game length", rows_of.length_rows(result)),
             ("End reasons (games)", rows_of.reason_rows(result)),
             ("Flagged combinations", [row[:-1] for row in flagged]),
             ("Replay the first flagged game of each", [row[:axes] + row[-1:] for row in flagged])]
    panels = []
    for title, rows in found:
        if len(rows) > 1:
            panels += _table(rows, title, fonts)
    return panels


def _table(rows, title: str, fonts) -> list:
    """A full-width table, cut into parts of TABLE_ROWS rows (each with the header) so every part fits a page."""
    from pipeline.render.charts import pages as layout

    body = rows[1:]
    parts = -(-len(body) // TABLE_ROWS)
    widths = [3 + max(len(str(row[i])) for row in rows) for i in range(len(rows[0]))]    # characters, + padding
    panels = []
    for k in range(parts):
        part = [rows[0]] + body[k * TABLE_ROWS:(k + 1) * TABLE_ROWS]
        named = title + (f" ({k + 1}/{parts})" if parts > 1 else "")
        panels.append(layout.Panel(layout.table_height(len(part), title="t"), lambda c, box, r=part, t=named:
                                   layout.titled_table(c, box, r, fonts, widths, t, aligns=_aligns(r)), True))
    return panels


def _aligns(rows) -> str:
    """Text columns to the left, numbers to the right."""
    import re

    number = re.compile(r"[+\-]?[\d.]+.*|—|baseline")
    return "".join("r" if i and all(number.fullmatch(str(row[i])) for row in rows[1:]) else "l"
                   for i in range(len(rows[0])))
