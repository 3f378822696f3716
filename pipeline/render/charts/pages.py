"""Tables and pages of panels for chart reports (pnp simulate): rows of text in striped columns, and panels
(a height and a draw(canvas, box)) flowed two to a row on as many pages as they need. Generic, like draw.py."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from pipeline.render.charts.draw import Box, GRID, PAD, STRIPE, TITLE_SIZE, draw_title, text
from pipeline.render.fonts import FontSet


def table(canvas, x: float, top: float, widths: Sequence[float], rows: Sequence[Sequence[str]],
          fonts: FontSet, size: float = 7.5, aligns: str = "", header: bool = True) -> float:
    """Rows of text in columns (`aligns`: one of l/r/c per column, default left then right); every other row
    striped. Returns the y below the table."""
    line = size * 1.55
    aligns = (aligns or "l" + "r" * (len(widths) - 1)).ljust(len(widths), "r")
    y = top
    for r, row in enumerate(rows):
        y -= line
        if r % 2 == 1 or (header and r == 0):
            canvas.setFillColorRGB(*(GRID if header and r == 0 else STRIPE))
            canvas.rect(x, y, sum(widths), line, stroke=0, fill=1)
        font = fonts.bold("body") if header and r == 0 else fonts.name("body")
        left = x
        for cell, width, align in zip(row, widths, aligns):
            where = {"l": (left + PAD, "left"), "r": (left + width - PAD, "right"),
                     "c": (left + width / 2, "centre")}[align]
            text(canvas, where[0], y + line * 0.3, str(cell), font, size, where[1], room=width - 2 * PAD)
            left += width
    return y


def table_height(rows: int, size: float = 7.5, title: str = "") -> float:
    return rows * size * 1.55 + (TITLE_SIZE + 2 * PAD if title else 0)


def titled_table(canvas, box: Box, rows: Sequence[Sequence[str]], fonts: FontSet, fractions: Sequence[float],
                 title: str = "", size: float = 7.5, aligns: str = "") -> None:
    """A table filling the box's width (column widths as fractions of it) under an optional title."""
    x, y, w, h = box
    top = draw_title(canvas, box, title, fonts)
    total = sum(fractions)
    table(canvas, x, top, [w * f / total for f in fractions], rows, fonts, size, aligns)


# --- pages of panels ------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Panel:
    """Something drawn in a box, `draw(canvas, box)`: half the content width unless `full`."""

    height: float
    draw: Callable
    full: bool = False


def flow(panels: Sequence[Panel], page: tuple[float, float], margin: float, first_top: float, top: float,
         gap: float = 16.0) -> list[list[tuple[Panel, Box]]]:
    """Place panels in reading order, two half-width panels side by side, on as many pages as they need.
    `first_top` and `top` are the distances from the page top to where panels start (room for headers)."""
    width = page[0] - 2 * margin
    half = (width - gap) / 2
    rows: list[list[Panel]] = []
    for panel in panels:
        if rows and len(rows[-1]) == 1 and not rows[-1][0].full and not panel.full:
            rows[-1].append(panel)
        else:
            rows.append([panel])
    pages: list[list[tuple[Panel, Box]]] = [[]]
    y = page[1] - first_top
    for row in rows:
        height = max(p.height for p in row)
        if y - height < margin and pages[-1]:
            pages.append([])
            y = page[1] - top
        for i, panel in enumerate(row):
            x = margin + i * (half + gap)
            pages[-1].append((panel, (x, y - height, width if panel.full else half, height)))
        y -= height + gap
    return pages


def write_flowed(target, panels, fonts, title: str, header, margin: float) -> int:
    """Panels flowed over A4 pages under a header drawn by `header(canvas, number, pages)`, to `target`: a path
    (written atomically) or a binary file object. Same panels, same bytes. Returns the number of pages."""
    import io
    from pathlib import Path

    from reportlab.lib.pagesizes import A4

    from pipeline.render.pdf import new_canvas

    pages = flow(panels, A4, margin, margin + 46, margin + 22)
    buffer = target if hasattr(target, "write") else io.BytesIO()
    canvas = new_canvas(buffer, A4, fonts, title=title)
    for number, placed in enumerate(pages, 1):
        header(canvas, number, len(pages))
        for panel, box in placed:
            panel.draw(canvas, box)
        canvas.showPage()
    canvas.save()
    if buffer is not target:
        from pipeline.core.output import atomic_write

        atomic_write(Path(target), buffer.getvalue())
    return len(pages)
