"""Rulebook tables: column widths from their content, a zebra style, and page breaks that never strand a
lone row."""

from __future__ import annotations

from reportlab.platypus import Paragraph, Table, TableStyle

from pipeline.render.rulebook import markdown as md
from pipeline.render.rulebook.style import ACCENT, HEAD_FILL, RULE_GREY, Styles, ZEBRA, markup, measure

CELL_PADDING = 5
CELL_SIZE = 9
MIN_SPLIT_ROWS = 7      # body rows a table needs before it may break across columns


class BookTable(Table):
    """Splits between rows (repeating its header) but leaves at least two body rows on each side of a column
    break, and a table of fewer than MIN_SPLIT_ROWS body rows never splits; a table that cannot moves whole to
    the next column (unless it already starts one)."""

    def split(self, avail_width, avail_height):
        if len(self._cellvalues) - self.repeatRows < MIN_SPLIT_ROWS and not at_top(self):
            return []           # a short table is read at a glance: it moves whole
        parts = super().split(avail_width, avail_height)
        if len(parts) == 2 and _body_rows(parts[1], self) < 2 and _body_rows(parts[0], self) >= 3:
            shorter = avail_height - self._rowHeights[len(parts[0]._cellvalues) - 1] - 0.5   # one more row goes on
            parts = super().split(avail_width, shorter)
        if len(parts) == 2 and not at_top(self):
            if min(_body_rows(part, self) for part in parts) < 2:
                return []
        return parts


def _body_rows(part: Table, table: Table) -> int:
    return len(part._cellvalues) - table.repeatRows


def at_top(flowable) -> bool:
    """True when the frame the flowable is being placed in is still empty (or unknown)."""
    return bool(getattr(getattr(flowable, "_frame", None), "_atTop", True))


def _cell(runs, style, styles: Styles) -> Paragraph:
    return Paragraph(markup(runs, styles, style.fontName), style)


def book_table(block: md.Table, styles: Styles, width: float) -> BookTable:
    rows = [block.header, *block.rows]
    columns = len(block.header)
    natural, minimum, total = [0.0] * columns, [0.0] * columns, [0.0] * columns
    for r, row in enumerate(rows):
        for c, runs in enumerate(row):
            wide, word = measure(runs, styles, CELL_SIZE, header=r == 0)
            natural[c] = max(natural[c], wide + 2 * CELL_PADDING + 1)
            minimum[c] = max(minimum[c], word + 2 * CELL_PADDING + 1)
            total[c] += wide
    data = [[_cell(runs, styles.cell(block.aligns[c], r == 0), styles) for c, runs in enumerate(row)]
            for r, row in enumerate(rows)]
    table = BookTable(data, colWidths=column_widths(natural, minimum, total, width), repeatRows=1, hAlign="LEFT",
                      splitInRow=1)   # a row taller than a page splits rather than failing the build
    table.min_width = sum(minimum)      # wider than its column: the builder floats it across both
    table.setStyle(_style(len(rows), styles.font("body")))
    table.spaceBefore, table.spaceAfter = 4, 10
    return table


def column_widths(natural: list[float], minimum: list[float], total: list[float], available: float) -> list[float]:
    """Natural widths when they fit. Else the short columns keep their natural width (water-filling: a column
    narrower than an equal share of what is left is served first) and the long ones share the rest in
    proportion to how much text they hold (`total`, as LaTeX's tabulary does), each between its widest word
    and its natural width."""
    if sum(natural) <= available:
        return list(natural)
    widths, waiting, room = list(natural), set(range(len(natural))), available
    while waiting:
        share = room / len(waiting)
        served = {c for c in waiting if natural[c] <= share}
        if not served:
            break
        waiting -= served
        room -= sum(natural[c] for c in served)
    while waiting:
        weight = sum(max(total[c], 1.0) for c in waiting)
        trial = {c: room * max(total[c], 1.0) / weight for c in waiting}
        fixed = ({c: minimum[c] for c in waiting if trial[c] < minimum[c]}
                 or {c: natural[c] for c in waiting if trial[c] > natural[c]})
        if not fixed:
            for c, value in trial.items():
                widths[c] = value
            break
        for c, value in fixed.items():
            widths[c] = value
        waiting -= set(fixed)
        room -= sum(fixed.values())
    return _shrunk(widths, minimum, available)


def _shrunk(widths: list[float], minimum: list[float], available: float) -> list[float]:
    """Take back any excess from what columns have above their widest word (or scale all, if even the
    widest words do not fit: they will overflow their cells)."""
    excess = sum(widths) - available
    if excess <= 1e-6:
        return widths
    spare = [w - m for w, m in zip(widths, minimum)]
    if sum(spare) >= excess:
        return [w - excess * s / sum(spare) for w, s in zip(widths, spare)]
    return [available * m / sum(minimum) for m in minimum]


def _style(rows: int, font: str) -> TableStyle:
    commands = [
        ("FONT", (0, 0), (-1, -1), font, CELL_SIZE),    # platypus sets a cell's font even for paragraphs
        ("BACKGROUND", (0, 0), (-1, 0), HEAD_FILL),
        ("LINEBELOW", (0, 0), (-1, 0), 0.8, ACCENT),
        ("LINEBELOW", (0, -1), (-1, -1), 0.5, RULE_GREY),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LEFTPADDING", (0, 0), (-1, -1), CELL_PADDING), ("RIGHTPADDING", (0, 0), (-1, -1), CELL_PADDING),
        ("TOPPADDING", (0, 0), (-1, -1), 3), ("BOTTOMPADDING", (0, 0), (-1, -1), 4),
    ]
    if rows > 1:
        commands.append(("ROWBACKGROUNDS", (0, 1), (-1, -1), [None, ZEBRA]))
    return TableStyle(commands)
