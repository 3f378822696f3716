"""The ratio tables of a simulation (pipeline/simulate_ratios.py) as PDF panels: per key, a bar chart of the
table's sorting rate with its 95 % intervals beside the same keys' table, in chunks of a page (every card);
grouped keys: the pooled rates as bars and a table, then every group in one full-width table; single rates:
one table."""

from __future__ import annotations

from pipeline.simulate_ratios import POOLED, RatioResult, rows

COLUMN_ROWS = 56        # rows of a table's half-page column on an A4 page
NOTE_SIZE = 7.0
ROW = 7.5 * 1.55        # a table row (chart_pages.table at 7.5 pt): each bar faces its row


def ratio_panels(found: list[RatioResult], fonts, charts) -> list:
    panels = []
    for r in found:
        if not r.keyed:
            panels.append(_table_panel(r, rows(r), fonts, charts, (3.2, 1, 1.6, 1.6)))
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
        notes = _notes(r, fonts, charts) if k == 0 else []
        panels.append(_bars(r, r.rows[k * size:(k + 1) * size], fonts, charts,
                            f"{_label(r, _which(r))}, 95 % interval{suffix}", len(notes), r.rows))
        panels.append(_table_panel(r, part, fonts, charts, widths, title=r.table.title + suffix, notes=notes))
    return panels


def _grouped(r: RatioResult, fonts, charts) -> list:
    """The pooled group (or the only one) as bars beside its table, then every group in one table."""
    pooled = POOLED if POOLED in r.groups else r.groups[0]
    head = r.table.title + (" (every group pooled)" if pooled == POOLED else f" ({pooled})")
    notes = _notes(r, fonts, charts)
    widths = (1.6,) + (2.4, 1.4) * len(r.table.ratios)
    panels = [_bars(r, r.group(pooled), fonts, charts, f"{_label(r, _which(r))}, 95 % interval", len(notes),
                    r.group(pooled)),
              _table_panel(r, rows(r, pooled, compact=True, counted_head="counted"), fonts, charts, widths,
                           title=head, notes=notes)]
    if len(r.groups) > 1:
        every = [row for row in rows(r, compact=True, counted_head="counted") if row[0] != POOLED]
        panels.append(_table_panel(r, every, fonts, charts, (3.2, 1.6) + (2.4, 1.4) * len(r.table.ratios),
                                   title=f"{r.table.title}: each group", full=True, notes=[], aligns="ll"))
    return panels


def _which(r: RatioResult) -> int:
    return r.table.sort if r.table.sort is not None else 0


def _label(r: RatioResult, k: int) -> str:
    ratio = r.table.ratios[k]
    label = ratio.label or f"{ratio.numerator} / {ratio.denominator}"
    return label[:1].upper() + label[1:]


def _bars(r: RatioResult, shown, fonts, charts, title: str, notes: int, every):
    """Horizontal bars, one per row of the table panel beside it and level with it (same title band, note
    lines and header row above the first bar), on the scale of `every` row of the table (its other chunks),
    with the rate of all of them pooled as a dashed line."""
    from pipeline.render import chart_pages as layout

    k = _which(r)
    rates = [row.rates[k] for row in shown]
    values = [rate.rate or 0.0 for rate in rates]
    errors = [rate.interval or (v, v) for rate, v in zip(rates, values)]
    fmt = "{:.3f}" if r.table.ratios[k].share else "{:.2f}"
    labels = [row.key for row in shown]
    lead = notes * (NOTE_SIZE + 2) + ROW
    top = max([(row.rates[k].interval or (0, row.rates[k].rate or 0))[1] for row in every], default=0)
    numerator, denominator = (sum(getattr(row.rates[k], part) for row in every) for part in ("numerator",
                                                                                               "denominator"))
    reference = ("all", numerator / denominator) if denominator and len(every) > 1 else None
    under = charts.LABEL_SIZE + charts.PAD if reference else 0

    def draw(canvas, box):
        x, y, w, h = box
        plot = charts._title(canvas, box, title, fonts)
        charts.bar_chart(canvas, (x, plot - lead - ROW * len(shown) - under, w, ROW * len(shown) + under), labels,
                         values, errors, "", fonts, fmt, horizontal=True, top=top, reference=reference)
    return layout.Panel(layout.table_height(len(shown) + 1, title="t") + notes * (NOTE_SIZE + 2) + under, draw)


def _notes(r: RatioResult, fonts, charts, width: float = 240) -> list[str]:
    return _wrap(r.table.note, fonts, charts, width) if r.table.note else []


def _table_panel(r: RatioResult, table, fonts, charts, widths, *, title: str | None = None, full: bool = False,
                 notes: list[str] | None = None, aligns: str = ""):
    from pipeline.render import chart_pages as layout

    title = r.table.title if title is None else title
    lines = _notes(r, fonts, charts, 500 if full else 240) if notes is None else notes
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
