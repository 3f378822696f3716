"""The ratio tables of a simulation (pipeline/play/ratios.py) as PDF panels: per key, a bar chart of the
table's sorting rate with its 95 % intervals beside the same keys' table, in chunks of a page (every card);
grouped keys: the pooled rates as bars and a table, then keys by groups as a heat map; single rates: one
table."""

from __future__ import annotations

from pipeline.play.ratios import POOLED, RatioResult, counts, group_labels, pivot, rows, shown_rate

COLUMN_ROWS = 56        # rows of a table's half-page column on an A4 page
NOTE_SIZE = 7.0
NOTE_WIDTH = 500.0      # points: a note's lines across the page
ROW = 7.5 * 1.55        # a table row (render/charts/pages.py table, 7.5 pt): each bar faces its row
GAP = 16.0              # between the bars and the table (render/charts/pages.py flow's gap)


def ratio_panels(found: list[RatioResult], fonts, charts) -> list:
    panels = []
    for r in found:
        if not r.keyed:
            panels.append(_table_panel(rows(r), fonts, charts, (3.2, 1, 1.6, 1.6), r.table.title,
                                       _notes(r, fonts, charts, 240)))
        elif r.grouped:
            panels += _grouped(r, fonts, charts)
        else:
            panels += _per_key(r, fonts, charts)
    return panels


def _per_key(r: RatioResult, fonts, charts) -> list:
    """In chunks of at most COLUMN_ROWS keys: the sorting ratio's bars beside the same keys' table."""
    table = rows(r, counted=False, compact=True)
    parts = max(1, -(-(len(table) - 1) // COLUMN_ROWS))
    size = -(-(len(table) - 1) // parts)
    widths = (2.2,) + (2.4,) * len(r.table.ratios)
    panels = []
    for k in range(parts):
        part = [table[0]] + table[1 + k * size:1 + (k + 1) * size]
        suffix = f" ({k + 1}/{parts})" if parts > 1 else ""
        panels.append(_beside(r, r.rows[k * size:(k + 1) * size], r.rows, part, widths, r.table.title + suffix,
                              _notes(r, fonts, charts) if k == 0 else [], fonts, charts))
    return panels


def _grouped(r: RatioResult, fonts, charts) -> list:
    """The pooled group (or the only one) as bars beside its table, then every group in one table."""
    pooled = POOLED if POOLED in r.groups else r.groups[0]
    head = r.table.title + (" (every group pooled)" if pooled == POOLED else f" ({pooled})")
    table = rows(r, pooled, compact=True, counted_head="counted")
    panels = [_beside(r, r.group(pooled), r.group(pooled), table, (1.6,) + (2.4, 1.4) * len(r.table.ratios), head,
                      _notes(r, fonts, charts), fonts, charts)]
    if len(r.groups) > 1:
        panels.append(_heat_map(r, fonts, charts))
    return panels


def _heat_map(r: RatioResult, fonts, charts):
    """Keys by groups, each cell its rate and counts; coloured (orange above, blue below) only where its 95 %
    interval clears the pooled rate, grey where it does not (most cells of a short run)."""
    from pipeline.render.charts import pages as layout

    keys, groups, cells = pivot(r)
    labels = group_labels(groups)
    k = _which(r)
    pooled = [row.rates[k] for row in (r.group(POOLED) or r.rows)]
    numerator, denominator = sum(x.numerator for x in pooled), sum(x.denominator for x in pooled)
    centre = numerator / denominator if denominator else 0.5
    fmt = "{:.3f}" if r.table.ratios[k].share else "{:.2f}"

    def coloured(rate):
        interval = rate.interval
        clear = interval is not None and (interval[0] > centre or interval[1] < centre)
        return rate.rate if clear else None

    lines = [[[shown_rate(cells[key, g]), counts(cells[key, g])] if (key, g) in cells else None for g in groups]
             for key in keys]
    values = [[coloured(cells[key, g]) if (key, g) in cells else None for g in groups] for key in keys]
    title = f"{r.table.title}: {_label(r, k).lower()} by group"
    note = (f"Orange: above the rate of every group pooled ({fmt.format(centre)}), blue: below it, where the 95 % "
            "interval clears it; grey: within the interval.")
    return layout.Panel(40 + 30 * (len(keys) + 1), lambda c, box: charts.heat_map(
        c, box, keys, [labels[g] for g in groups], lines, values, title, fonts, low=0.0, centre=centre,
        high=max(1.0, centre), corner="key \\ group", note=note), True)


def _which(r: RatioResult) -> int:
    return r.table.sort if r.table.sort is not None else 0


def _label(r: RatioResult, k: int) -> str:
    ratio = r.table.ratios[k]
    label = ratio.label or f"{ratio.numerator} / {ratio.denominator}"
    return label[:1].upper() + label[1:]


def _beside(r: RatioResult, shown, every, table, widths, title: str, notes: list[str], fonts, charts):
    """One full-width panel: the title and note across the page, then the sorting ratio's horizontal bars on
    the left, each level with its row of the table on the right (on the scale of `every` row of the table,
    its other chunks too, with their pooled rate as a dashed line)."""
    from pipeline.render.charts import pages as layout

    k = _which(r)
    rates = [row.rates[k] for row in shown]
    values = [rate.rate or 0.0 for rate in rates]
    errors = [rate.interval or (v, v) for rate, v in zip(rates, values)]
    fmt = "{:.3f}" if r.table.ratios[k].share else "{:.2f}"
    shown_values = [fmt.format(v) if rate.rate is not None else "—" for rate, v in zip(rates, values)]
    top = max([(row.rates[k].interval or (0, row.rates[k].rate or 0))[1] for row in every], default=0)
    numerator, denominator = (sum(getattr(row.rates[k], part) for row in every)
                              for part in ("numerator", "denominator"))
    reference = ("all", numerator / denominator) if denominator and len(every) > 1 else None
    under = charts.LABEL_SIZE + charts.PAD if reference else 0
    head = charts.TITLE_SIZE + 2 * charts.PAD + len(notes) * (NOTE_SIZE + 2) + (2 if notes else 0)

    def draw(canvas, box):
        x, y, w, h = box
        top_y = _titled(canvas, box, title, notes, fonts, charts)
        half = (w - GAP) / 2
        charts.text(canvas, x, top_y - ROW * 0.7, f"{_label(r, k)}, 95 % interval", fonts.bold("body"), 7.5,
                    room=half, colour=charts.MUTED)
        charts.bar_chart(canvas, (x, top_y - ROW * (len(shown) + 1) - under, half, ROW * len(shown) + under),
                         [row.key for row in shown], values, errors, "", fonts, fmt, horizontal=True, top=top,
                         reference=reference, value_labels=shown_values)
        total = sum(widths)
        layout.table(canvas, x + half + GAP, top_y, [half * f / total for f in widths], table, fonts)
    return layout.Panel(head + ROW * len(table) + under, draw, True)


def _titled(canvas, box, title: str, notes: list[str], fonts, charts) -> float:
    """The title and the note's lines at the top of the box; returns the y below them."""
    x, _, w, _ = box
    top = charts.draw_title(canvas, box, title, fonts)
    for line in notes:
        top -= NOTE_SIZE + 2
        charts.text(canvas, x, top + 2, line, fonts.name("body"), NOTE_SIZE, room=w, colour=charts.MUTED)
    return top - (2 if notes else 0)


def _notes(r: RatioResult, fonts, charts, width: float = NOTE_WIDTH) -> list[str]:
    return _wrap(r.table.note, fonts, charts, width) if r.table.note else []


def _table_panel(table, fonts, charts, widths, title: str, notes: list[str], full: bool = False, aligns: str = ""):
    from pipeline.render.charts import pages as layout

    def draw(canvas, box):
        x, _, w, _ = box
        top = _titled(canvas, box, title, notes, fonts, charts)
        total = sum(widths)
        layout.table(canvas, x, top, [w * f / total for f in widths], table, fonts, aligns=aligns)
    return layout.Panel(layout.table_height(len(table), title="t") + len(notes) * (NOTE_SIZE + 2) + (2 if notes else 0),
                        draw, full)


def _wrap(text: str, fonts, charts, width: float) -> list[str]:
    lines, line = [], ""
    for word in text.split():
        trial = f"{line} {word}".strip()
        if line and charts._width(trial, fonts.name("body"), NOTE_SIZE) > width:
            lines.append(line)
            trial = word
        line = trial
    return lines + ([line] if line else [])
