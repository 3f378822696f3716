"""Small charts and tables drawn on a reportlab canvas inside a box (x, y, w, h in points, y up).

Generic: no game and no simulation here. One fill colour, and every bar carries its value as text (colour
never carries information alone); text uses the project's embedded fonts only, never below 6 pt.
"""

from __future__ import annotations

import math
from typing import Callable, Sequence

from pipeline.render.fonts import FontSet, default_fonts
from pipeline.render.glyphs import draw_string, fitted as fitted_label, string_width

Box = tuple[float, float, float, float]
INK = (0.13, 0.13, 0.13)
MUTED = (0.40, 0.40, 0.40)
GRID = (0.86, 0.86, 0.86)
FILL = (0.36, 0.52, 0.70)
STRIPE = (0.95, 0.95, 0.95)
TITLE_SIZE = 8.5
LABEL_SIZE = 7.0
MIN_SIZE = 6.0
PAD = 3.0


def _behind(font: str) -> tuple[str, ...]:
    """Labels are the data's (card names, bots): every font is backed by the fallback chain."""
    return default_fonts().behind(font)


def _width(text: str, font: str, size: float) -> float:
    return string_width(text, font, size, _behind(font))


def fitted(text: str, font: str, size: float, room: float) -> tuple[str, float]:
    """Shrink to the 6 pt minimum, then cut with an ellipsis, so a label never leaves its room."""
    return fitted_label(text, font, size, room, MIN_SIZE, _behind(font))


def text(canvas, x: float, y: float, value: str, font: str, size: float, align: str = "left",
         room: float | None = None, colour=INK) -> None:
    if room is not None:
        value, size = fitted(value, font, size, room)
    canvas.setFillColorRGB(*colour)
    draw_string(canvas, x, y, value, font, size, _behind(font), align)


def draw_title(canvas, box: Box, title: str, fonts: FontSet) -> float:
    """Draw the title at the top of the box; return the top of the plot below it."""
    x, y, w, h = box
    if not title:
        return y + h
    text(canvas, x, y + h - TITLE_SIZE, title, fonts.bold("body"), TITLE_SIZE, room=w)
    return y + h - TITLE_SIZE - 2 * PAD


def nice_step(span: float, count: int = 4, whole: bool = False) -> float:
    """A 1-2-2.5-5 step giving about `count` ticks over `span` (whole numbers for counts)."""
    raw = max(span, 1e-12) / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw - 1e-12)
    return max(1.0, round(step)) if whole else step


def _tick_label(value: float, step: float) -> str:
    decimals = len(f"{step:.6f}".rstrip("0").split(".")[1])       # as many as the step needs: 0.25 -> 2
    return f"{value:.{decimals}f}"


def _value_axis(canvas, fonts: FontSet, left: float, bottom: float, width: float, height: float, top: float,
                whole: bool) -> Callable[[float], float]:
    """Grid lines and tick labels for values 0..top; returns value -> y."""
    step = nice_step(top, 4, whole)
    top = step * math.ceil(top / step - 1e-9) if top > 0 else step
    scale = height / top
    canvas.setLineWidth(0.4)
    ticks = [i * step for i in range(int(round(top / step)) + 1)]
    for tick in ticks:
        y = bottom + tick * scale
        canvas.setStrokeColorRGB(*GRID)
        canvas.line(left, y, left + width, y)
        text(canvas, left - PAD, y - LABEL_SIZE * 0.35, _tick_label(tick, step), fonts.name("body"),
             LABEL_SIZE, "right", colour=MUTED)
    return lambda v: bottom + v * scale


def _axis_width(fonts: FontSet, top: float, whole: bool) -> float:
    step = nice_step(top, 4, whole)
    top = step * math.ceil(top / step - 1e-9) if top > 0 else step
    return _width(_tick_label(top, step), fonts.name("body"), LABEL_SIZE) + 2 * PAD


def bar_chart(canvas, box: Box, labels: Sequence[str], values: Sequence[float],
              errors: Sequence[tuple[float, float]] | None = None, title: str = "", fonts: FontSet | None = None,
              value_format: Callable[[float], str] | str = "{:.2f}", *, horizontal: bool = False,
              whole: bool = False, top: float | None = None, reference: tuple[str, float] | None = None,
              value_labels: Sequence[str] | None = None) -> None:
    """Bars with their value printed at the end; `errors` are (low, high) whisker ends in value units
    (a confidence interval). Horizontal bars suit long labels; rows that do not fit are counted in the title.
    `whole`: the value axis ticks whole numbers (counts). Horizontal only: `top`, the value the full width
    holds (several charts of one table on one scale); `reference`, (its name, a value) drawn as a dashed
    line across the bars with its name and value under them; `value_labels`, the text at each bar's end
    instead of its formatted value ("—" for a rate with nothing to measure)."""
    fmt = value_format.format if isinstance(value_format, str) else value_format
    fonts = fonts or default_fonts()
    if horizontal:
        _horizontal_bars(canvas, box, list(labels), list(values), errors, title, fonts, fmt, top, reference,
                         value_labels)
        return
    x, y, w, h = box
    plot_top = draw_title(canvas, box, title, fonts)
    tops = [max(v, e[1]) if errors else v for v, e in zip(values, errors or [None] * len(values))]
    peak = max(tops, default=0) or 1.0
    left = x + _axis_width(fonts, peak, whole)
    bottom = y + LABEL_SIZE + 2 * PAD
    height = plot_top - bottom - LABEL_SIZE - PAD          # room above the highest bar for its value
    y_of = _value_axis(canvas, fonts, left, bottom, x + w - left, height, peak, whole)
    slot = (x + w - left) / max(1, len(values))
    for i, (label, value) in enumerate(zip(labels, values)):
        centre = left + slot * (i + 0.5)
        bar = min(slot * 0.6, 48)
        canvas.setFillColorRGB(*FILL)
        canvas.rect(centre - bar / 2, bottom, bar, y_of(value) - bottom, stroke=0, fill=1)
        top = y_of(value)
        if errors:
            top = _whisker(canvas, centre, y_of(errors[i][0]), y_of(errors[i][1]), min(bar / 2, 6), vertical=True)
        text(canvas, centre, top + PAD, fmt(value), fonts.name("body"), LABEL_SIZE, "centre", room=slot)
        text(canvas, centre, y, str(label), fonts.name("body"), LABEL_SIZE, "centre", room=slot - 2)
    _baseline(canvas, left, bottom, x + w, bottom)


def _whisker(canvas, at: float, low: float, high: float, cap: float, vertical: bool) -> float:
    canvas.setStrokeColorRGB(*INK)
    canvas.setLineWidth(0.8)
    if vertical:
        canvas.lines([(at, low, at, high), (at - cap, low, at + cap, low), (at - cap, high, at + cap, high)])
    else:
        canvas.lines([(low, at, high, at), (low, at - cap, low, at + cap), (high, at - cap, high, at + cap)])
    return high


def _baseline(canvas, x0: float, y0: float, x1: float, y1: float) -> None:
    canvas.setStrokeColorRGB(*INK)
    canvas.setLineWidth(0.7)
    canvas.line(x0, y0, x1, y1)


def _horizontal_bars(canvas, box: Box, labels: list, values: list, errors, title: str, fonts: FontSet,
                     fmt: Callable[[float], str], top: float | None = None,
                     reference: tuple[str, float] | None = None, value_labels=None) -> None:
    shown = list(value_labels) if value_labels is not None else [fmt(v) for v in values]
    x, y, w, h = box
    font = fonts.name("body")
    fits = max(1, int((h - (TITLE_SIZE + 2 * PAD if title else 0)) // (LABEL_SIZE + 2.5)))
    if len(values) > fits:
        title = f"{title} (first {fits - 1} of {len(values)})"
        labels, values = labels[:fits - 1], values[:fits - 1]
        errors = errors[:fits - 1] if errors else None
    plot_top = draw_title(canvas, box, title, fonts)
    label_room = min(max((_width(str(s), font, LABEL_SIZE) for s in labels), default=0), w * 0.42) + PAD
    tops = [max(v, e[1]) if errors else v for v, e in zip(values, errors or [None] * len(values))]
    lowest = min(0.0, min(values, default=0), min((e[0] for e in errors or ()), default=0))
    value_room = max((_width(v, font, LABEL_SIZE) for v in shown), default=0) + 2 * PAD
    highest = max(max(tops, default=0), 0, top or 0)
    scale = (x + w - value_room - x - label_room) / ((highest - lowest) or 1.0)
    zero = x + label_room - lowest * scale            # negative values (a loss) go left of the zero line
    under = LABEL_SIZE + PAD if reference else 0.0                # the reference's name under the bars
    slot = min((plot_top - y - under) / max(1, len(values)), 20.0)        # few rows stay together at the top
    bar = min(slot * 0.7, 14)
    for i, (label, value) in enumerate(zip(labels, values)):
        centre = plot_top - slot * (i + 0.5)
        canvas.setFillColorRGB(*FILL)
        canvas.rect(min(zero, zero + value * scale), centre - bar / 2, abs(value) * scale, bar, stroke=0, fill=1)
        end = max(zero, zero + value * scale)
        if errors:
            end = _whisker(canvas, centre, zero + errors[i][0] * scale, zero + errors[i][1] * scale,
                           min(bar / 2, 4), vertical=False)
        baseline = centre - LABEL_SIZE * 0.35
        text(canvas, end + PAD, baseline, shown[i], font, LABEL_SIZE)
        text(canvas, x + label_room - PAD, baseline, str(label), font, LABEL_SIZE, "right", room=label_room - PAD)
    _baseline(canvas, zero, plot_top - slot * len(values), zero, plot_top)
    if reference:
        name, value = reference
        at, bottom = zero + value * scale, plot_top - slot * len(values)
        canvas.setStrokeColorRGB(*INK)
        canvas.setLineWidth(0.6)
        canvas.setDash(2, 2)
        canvas.line(at, bottom - 1, at, plot_top)
        canvas.setDash()
        text(canvas, at, bottom - LABEL_SIZE - 1, f"{name}: {fmt(value)}", font, LABEL_SIZE - 0.5, "centre",
             colour=MUTED)


def histogram(canvas, box: Box, values: Sequence[float], bins: int | Sequence[float] = 12, title: str = "",
              fonts: FontSet | None = None) -> None:
    """Counts of values per bin, printed on the bars. `bins` is explicit edges or the most bins to use;
    whole-number data get whole-number bins ("4", or "4–5" when values spread wider than `bins`)."""
    fonts = fonts or default_fonts()
    labels, counts = bin_counts(values, bins)
    x, y, w, h = box
    plot_top = draw_title(canvas, box, title, fonts)
    peak = max(counts, default=0) or 1
    left = x + _axis_width(fonts, peak, True)
    bottom = y + LABEL_SIZE + 2 * PAD
    height = plot_top - bottom - LABEL_SIZE - PAD
    y_of = _value_axis(canvas, fonts, left, bottom, x + w - left, height, peak, True)
    slot = (x + w - left) / max(1, len(counts))
    font = fonts.name("body")
    every = max(1, math.ceil(max((_width(s, font, LABEL_SIZE) for s in labels), default=0) / (slot - 2)))
    for i, (label, count) in enumerate(zip(labels, counts)):
        centre = left + slot * (i + 0.5)
        canvas.setFillColorRGB(*FILL)
        canvas.rect(left + slot * i + 0.5, bottom, slot - 1, y_of(count) - bottom, stroke=0, fill=1)
        if count and _width(str(count), font, MIN_SIZE) <= slot + 1:
            text(canvas, centre, y_of(count) + PAD, str(count), font, LABEL_SIZE, "centre", room=slot + 1)
        if i % every == 0:
            text(canvas, centre, y, label, font, LABEL_SIZE, "centre")
    _baseline(canvas, left, bottom, x + w, bottom)


def bin_counts(values: Sequence[float], bins: int | Sequence[float] = 12) -> tuple[list[str], list[int]]:
    """(bin labels, counts). Whole numbers get whole-number bins ("4" or "4–5"), at most `bins` of them."""
    values = list(values)
    if not values:
        return [], []
    low, high = min(values), max(values)
    if isinstance(bins, int) and all(float(v).is_integer() for v in values):
        start, width = int(low), max(1, math.ceil((high - low + 1) / bins))
        counts = [0] * ((int(high) - start) // width + 1)
        for v in values:
            counts[(int(v) - start) // width] += 1
        return [f"{start + i * width}" + (f"–{start + i * width + width - 1}" if width > 1 else "")
                for i in range(len(counts))], counts
    edges = [low + i * ((high - low) / bins or 1.0) for i in range(bins + 1)] if isinstance(bins, int) else list(bins)
    counts = [0] * (len(edges) - 1)
    for v in values:
        counts[next((i for i in range(len(counts)) if v < edges[i + 1]), len(counts) - 1)] += 1
    return [f"{edges[i]:.3g}–{edges[i + 1]:.3g}" for i in range(len(counts))], counts


# --- a matrix as a heat map, series as lines -----------------------------------------------------------------

COOL = (0.36, 0.52, 0.70)       # below the centre value (FILL's blue)
WARM = (0.86, 0.50, 0.22)       # above it: blue/orange stays apart for colour-blind readers
SERIES = (FILL, WARM, MUTED, (0.35, 0.60, 0.35))
MARKERS = ("circle", "square", "triangle", "diamond")


def heat_colour(value: float, low: float, centre: float, high: float) -> tuple[tuple[float, ...], bool]:
    """The fill of a value (white at `centre`, deeper towards `low` or `high`) and whether text on it reads
    better in white."""
    side, end = (COOL, low) if value < centre else (WARM, high)
    strength = min(1.0, abs(value - centre) / (abs(end - centre) or 1.0))
    fill = tuple(1 - (1 - c) * strength for c in side)
    return fill, strength > 0.75


def heat_map(canvas, box: Box, rows: Sequence[str], columns: Sequence[str],
             cells: Sequence[Sequence[Sequence[str] | None]], values: Sequence[Sequence[float | None]],
             title: str = "", fonts: FontSet | None = None, *, low: float = 0.0, centre: float = 0.5,
             high: float = 1.0, corner: str = "", note: str = "") -> None:
    """A matrix of cells, each printing its own text lines (the value first, so colour never carries it
    alone), filled by its value: white at `centre`, blue towards `low`, orange towards `high`. A cell of
    None (nothing to show, like a team against itself) is grey with a dash. `note` goes under the grid."""
    fonts = fonts or default_fonts()
    x, y, w, h = box
    font, bold = fonts.name("body"), fonts.bold("body")
    top = draw_title(canvas, box, title, fonts)
    bottom = y + (LABEL_SIZE + 2 * PAD if note else 0)
    head = max((_width(r, bold, LABEL_SIZE) for r in (*rows, corner)), default=0) + 2 * PAD
    head = min(head, w * 0.3)
    cell_w = (w - head) / max(1, len(columns))
    cell_h = min(34.0, (top - bottom) / (len(rows) + 1))
    canvas.setFillColorRGB(*GRID)
    canvas.rect(x, top - cell_h, w, cell_h, stroke=0, fill=1)
    text(canvas, x + PAD, top - cell_h * 0.6, corner, font, LABEL_SIZE, room=head - 2 * PAD, colour=MUTED)
    for j, column in enumerate(columns):
        text(canvas, x + head + cell_w * (j + 0.5), top - cell_h * 0.6, column, bold, LABEL_SIZE, "centre",
             room=cell_w - 2 * PAD)
    for i, row in enumerate(rows):
        y0 = top - cell_h * (i + 2)
        text(canvas, x + PAD, y0 + cell_h / 2 - LABEL_SIZE * 0.35, row, bold, LABEL_SIZE, room=head - 2 * PAD)
        for j in range(len(columns)):
            lines, value = cells[i][j], values[i][j]
            fill, light = heat_colour(value, low, centre, high) if value is not None else (STRIPE, False)
            x0 = x + head + cell_w * j
            canvas.setFillColorRGB(*fill)
            canvas.setStrokeColorRGB(1, 1, 1)
            canvas.setLineWidth(1.0)
            canvas.rect(x0, y0, cell_w, cell_h, stroke=1, fill=1)
            lines = lines or ["—"]
            ink = (1, 1, 1) if light else INK
            first = y0 + cell_h / 2 + (len(lines) - 1) * (LABEL_SIZE * 0.6) - LABEL_SIZE * 0.35
            for k, line in enumerate(lines):
                text(canvas, x0 + cell_w / 2, first - k * LABEL_SIZE * 1.2, line, bold if k == 0 else font,
                     LABEL_SIZE + (1 if k == 0 else -0.5), "centre", room=cell_w - 2 * PAD,
                     colour=ink if value is not None else MUTED)
    if note:
        text(canvas, x, y, note, font, LABEL_SIZE - 0.5, room=w, colour=MUTED)


def line_chart(canvas, box: Box, labels: Sequence[str],
               series: Sequence[tuple[str, Sequence[float], Sequence[tuple[float, float]] | None]],
               title: str = "", fonts: FontSet | None = None, value_format: str = "{:.2f}", *,
               top: float | None = None, axis_label: str = "") -> None:
    """Series of values over the same categories (a rule's settings): one line each, with a marker shape of
    its own, its name in the legend, its values printed at the points and (low, high) whiskers if given."""
    fonts = fonts or default_fonts()
    x, y, w, h = box
    font = fonts.name("body")
    plot_top = draw_title(canvas, box, title, fonts)
    legend_x = x
    for k, (name, _, _) in enumerate(series):                   # the legend, under the title
        _marker(canvas, legend_x + 3, plot_top - 3, k)
        room = _width(name, font, LABEL_SIZE) + 14
        text(canvas, legend_x + 9, plot_top - 3 - LABEL_SIZE * 0.35, name, font, LABEL_SIZE, room=w - legend_x + x)
        legend_x += room
    plot_top -= LABEL_SIZE + 2 * PAD
    peak = top if top is not None else max((max(v for v in values) for _, values, _ in series if values),
                                           default=1.0) or 1.0
    left = x + _axis_width(fonts, peak, False)
    bottom = y + LABEL_SIZE + 2 * PAD + (LABEL_SIZE + PAD if axis_label else 0)
    y_of = _value_axis(canvas, fonts, left, bottom, x + w - left, plot_top - bottom - LABEL_SIZE, peak, False)
    slot = (x + w - left) / max(1, len(labels))
    x_of = [left + slot * (i + 0.5) for i in range(len(labels))]
    for i, label in enumerate(labels):
        text(canvas, x_of[i], bottom - LABEL_SIZE - PAD, str(label), font, LABEL_SIZE, "centre", room=slot - 2)
    if axis_label:
        text(canvas, left + (x + w - left) / 2, y, axis_label, font, LABEL_SIZE, "centre", room=x + w - left,
             colour=MUTED)
    for k, (name, values, errors) in enumerate(series):
        colour = SERIES[k % len(SERIES)]
        canvas.setStrokeColorRGB(*colour)
        canvas.setLineWidth(1.2)
        canvas.setDash(*(() if k == 0 else ((3, 2),)))
        canvas.lines([(x_of[i], y_of(values[i]), x_of[i + 1], y_of(values[i + 1])) for i in range(len(values) - 1)])
        canvas.setDash()
        for i, value in enumerate(values):
            if errors:
                _whisker(canvas, x_of[i] + (k - (len(series) - 1) / 2) * 4, y_of(errors[i][0]), y_of(errors[i][1]),
                         2.5, vertical=True)
            _marker(canvas, x_of[i], y_of(value), k)
            # the highest point at this x is labelled above it, the others below: labels never overlap for two
            rank = sorted(range(len(series)), key=lambda n: (-series[n][1][i], n)).index(k)
            above, below = PAD + 2, -(PAD + 2 + LABEL_SIZE * 0.7)
            offset = above if rank % 2 == 0 else below
            if y_of(value) + below < bottom + 1:                # no label under the axis or over the top
                offset = above
            elif y_of(value) + above + LABEL_SIZE > plot_top:
                offset = below
            text(canvas, x_of[i] + 5, y_of(value) + offset, value_format.format(value), font, LABEL_SIZE,
                 colour=INK)
    _baseline(canvas, left, bottom, x + w, bottom)


def _marker(canvas, cx: float, cy: float, k: int, r: float = 2.6) -> None:
    canvas.setFillColorRGB(*SERIES[k % len(SERIES)])
    canvas.setStrokeColorRGB(*INK)
    canvas.setLineWidth(0.5)
    shape = MARKERS[k % len(MARKERS)]
    if shape == "circle":
        canvas.circle(cx, cy, r, stroke=1, fill=1)
    elif shape == "square":
        canvas.rect(cx - r, cy - r, 2 * r, 2 * r, stroke=1, fill=1)
    else:
        points = ([(cx, cy + r * 1.2), (cx - r * 1.1, cy - r), (cx + r * 1.1, cy - r)] if shape == "triangle"
                  else [(cx, cy + r * 1.3), (cx - r, cy), (cx, cy - r * 1.3), (cx + r, cy)])
        path = canvas.beginPath()
        path.moveTo(*points[0])
        for point in points[1:]:
            path.lineTo(*point)
        path.close()
        canvas.drawPath(path, stroke=1, fill=1)
