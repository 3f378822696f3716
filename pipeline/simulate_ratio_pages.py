"""The ratio tables of a simulation (pipeline/simulate_ratios.py) as PDF panels: per key, a bar chart of the
table's sorting rate with its 95 % intervals beside the table split into half-page columns (every card);
grouped keys: the pooled rates as bars and a table, then every group in one full-width table; single rates:
one table."""

from __future__ import annotations

from pipeline.simulate_ratios import POOLED, RatioResult, rows

COLUMN_ROWS = 56        # rows of a table's half-page column on an A4 page
BAR_ROW = 10.0          # points per bar of a long chart
NOTE_SIZE = 7.0


def ratio_panels(found: list[RatioResult], fonts, charts) -> list:
    panels = []
    for r in found:
        if not r.keyed:
            panels.append(_table_panel(r, rows(r), fonts, charts, (3.2, 1, 1.6, 1.6), full=False))
        elif r.grouped:
            panels += _grouped(r, fonts, charts)
        else:
            panels += _per_key(r, fonts, charts)
    return panels


def _per_key(r: RatioResult, fonts, charts) -> list:
    """Bars of the sorting ratio beside the first column of the table, then the table's other columns."""
    table = rows(r, counted=False, compact=True)
    parts = max(1, -(-(len(table) - 1) // COLUMN_ROWS))
    size = -(-(len(table) - 1) // parts)
    widths = (2.2,) + (2.4,) * len(r.table.ratios)
    panels = [_bars(r, r.rows, fonts, charts, f"{r.table.title}: {_label(r, _which(r))}")]
    for k in range(parts):
        part = [table[0]] + table[1 + k * size:1 + (k + 1) * size]
        title = r.table.title + (f" ({k + 1}/{parts})" if parts > 1 else "")
        panels.append(_table_panel(r, part, fonts, charts, widths, title=title, full=False, note=k == 0))
    return panels


def _grouped(r: RatioResult, fonts, charts) -> list:
    pooled = POOLED if POOLED in r.groups else r.groups[0]
    shown = r.group(pooled)
    head = f"{r.table.title}" + (" (every group pooled)" if pooled == POOLED else f" ({pooled})")
    widths = (1.6,) + (2.4, 1.4) * len(r.table.ratios)
    panels = [_bars(r, shown, fonts, charts, f"{head}: {_label(r, _which(r))}"),
              _table_panel(r, rows(r, pooled, compact=True, counted_head="counted"), fonts, charts, widths,
                           title=head)]
    if len(r.groups) > 1:
        every = [row for row in rows(r, compact=True, counted_head="counted") if row[0] != POOLED]
        panels.append(_table_panel(r, every, fonts, charts, (3.2, 1.6) + (2.4, 1.4) * len(r.table.ratios),
                                   title=f"{r.table.title}: each group", full=True, note=False, aligns="ll"))
    return panels

    return panels


def _which(r: RatioResult) -> int:
    return r.table.sort if r.table.sort is not None else 0


def _label(r: RatioResult, k: int) -> str:
    ratio = r.table.ratios[k]
    return ratio.label or f"{ratio.numerator} / {ratio.denominator}"


def _bars(r: RatioResult, shown, fonts, charts, title: str):
    from pipeline.render import chart_pages as layout

    k = _which(r)
    rates = [row.rates[k] for row in shown]
    values = [rate.rate or 0.0 for rate in rates]
    errors = [rate.interval or (v, v) for rate, v in zip(rates, values)]
    fmt = "{:.3f}" if r.table.ratios[k].share else "{:.2f}"
    labels = [row.key for row in shown]
    return layout.Panel(min(700.0, 30 + BAR_ROW * len(shown)), lambda c, box: charts.bar_chart(
        c, box, labels, values, errors, f"{title} (95 % interval)", fonts, fmt, horizontal=True))


def _table_panel(r: RatioResult, table, fonts, charts, widths, *, title: str | None = None, full: bool = False,
                 note: bool = True, aligns: str = ""):
    from pipeline.render import chart_pages as layout

    title = r.table.title if title is None else title
    lines = _wrap(r.table.note, fonts, charts, 240 if not full else 500) if note and r.table.note else []
    height = layout.table_height(len(table), title="t") + len(lines) * (NOTE_SIZE + 2)

    def draw(canvas, box):
        x, y, w, h = box
        top = charts._title(canvas, box, title, fonts)
        for line in lines:
            top -= NOTE_SIZE + 2
            charts.text(canvas, x, top + 2, line, fonts.name("body"), NOTE_SIZE, room=w, colour=charts.MUTED)
        total = sum(widths)
        layout.table(canvas, x, top, [w * f / total for f in widths], table, fonts, aligns=aligns)
    return layout.Panel(height, draw, full)


def _wrap(text: str, fonts, charts, width: float) -> list[str]:
    lines, line = [], ""
    for word in text.split():
        trial = f"{line} {word}".strip()
        if line and charts._width(trial, fonts.name("body"), NOTE_SIZE) > width:
            lines.append(line)
            trial = word
        line = trial
    return lines + ([line] if line else [])
