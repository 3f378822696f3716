"""The plain-reportlab floor for the benchmark job (bench/WORKLOAD.md): the same deck drawn by hand.

    python bench/reference_reportlab.py CSV OUT.pdf

Base-14 Helvetica (nothing embedded), the common back drawn once as a form object, A4 portrait with 3 x 3
cards whose bleed boxes abut, crop marks on the front pages, mirrored duplex backs (every front page is
followed by its back page), invariant=1. No validation, no templates: the least work this stack can do.
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path

from reportlab.lib.colors import HexColor, black, white
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

PAGE_W, PAGE_H = A4                  # 210 x 297 mm
TRIM_W, TRIM_H = 63 * mm, 88 * mm    # poker
BLEED = 3 * mm
PITCH_X, PITCH_Y = 69 * mm, 94 * mm  # bleed boxes abut
ORIGIN_X, ORIGIN_Y = 4.5 * mm, 10.5 * mm   # trim top-left of card (0, 0), from the page's top-left
COLS, ROWS = 3, 3
PER_PAGE = COLS * ROWS
MARK_GAP, MARK_LEN = 0.5 * mm, 2.5 * mm

BACK_FILL = HexColor("#1F2A44")
BACK_GOLD = HexColor("#D4AF37")


def cap_height(font: str) -> float:
    """Cap height of a base-14 font as a fraction of its size (Helvetica 0.718)."""
    return pdfmetrics.getFont(font).face.ascent / 1000.0


def trim_top_left(col: int, row: int) -> tuple[float, float]:
    """PDF coordinates (points, y up) of the trim box's top-left corner of the card at (col, row)."""
    return ORIGIN_X + col * PITCH_X, PAGE_H - (ORIGIN_Y + row * PITCH_Y)


def draw_front(c: Canvas, card: dict, icon: str, col: int, row: int) -> None:
    x0, y0 = trim_top_left(col, row)

    def X(x_mm: float) -> float:          # card-local mm (y down) -> page points (y up)
        return x0 + x_mm * mm

    def Y(y_mm: float) -> float:
        return y0 - y_mm * mm

    c.setFillColor(HexColor(card["color"]))
    c.rect(X(-3), Y(91), 69 * mm, 94 * mm, stroke=0, fill=1)

    c.setFillColor(black)
    c.setFont("Helvetica-Bold", 11)
    c.drawString(X(4), Y(9), card["title"])

    c.drawImage(icon, X(49), Y(13), 10 * mm, 10 * mm, mask="auto")   # one XObject per file, reused

    c.setLineWidth(0.8)
    c.setStrokeColor(black)
    c.setFont("Helvetica-Bold", 10)
    shift = cap_height("Helvetica-Bold") * 10 / 2
    for cx, key in ((13, "a"), (31.5, "b"), (50, "c")):
        c.setFillColor(white)
        c.circle(X(cx), Y(21), 4.5 * mm, stroke=1, fill=1)
        c.setFillColor(black)
        c.drawCentredString(X(cx), Y(21) - shift, card[key])

    c.setFillColor(white)
    c.roundRect(X(4), Y(84), 55 * mm, 54 * mm, 2 * mm, stroke=0, fill=1)

    c.setFillColor(black)
    text = c.beginText()
    text.setFont("Helvetica", 8, leading=10)
    text.setTextOrigin(X(6), Y(32) - cap_height("Helvetica") * 8)   # first line's top at y 32
    for line in simpleSplit(card["rules"], "Helvetica", 8, 51 * mm):
        text.textLine(line)
    c.drawText(text)


def crop_marks(c: Canvas, count: int) -> None:
    """At each trim corner two lines continuing the trim edges outwards, 0.5 mm off the corner, 2.5 mm
    long: they lie in the card's own bleed. 72 lines on a full page."""
    c.setStrokeColor(black)
    c.setLineWidth(0.3)
    lines = []
    for i in range(count):
        x0, y0 = trim_top_left(i % COLS, i // COLS)
        for x, y, dx, dy in ((x0, y0, -1, 1), (x0 + TRIM_W, y0, 1, 1), (x0, y0 - TRIM_H, -1, -1),
                             (x0 + TRIM_W, y0 - TRIM_H, 1, -1)):
            lines.append((x + dx * MARK_GAP, y, x + dx * (MARK_GAP + MARK_LEN), y))   # horizontal edge
            lines.append((x, y + dy * MARK_GAP, x, y + dy * (MARK_GAP + MARK_LEN)))   # vertical edge
    c.lines(lines)


def define_back(c: Canvas) -> None:
    """The common back as one form object, in bleed-box coordinates (origin bottom-left, y up)."""
    c.beginForm("back", 0, 0, PITCH_X, PITCH_Y)
    c.setFillColor(BACK_FILL)
    c.rect(0, 0, PITCH_X, PITCH_Y, stroke=0, fill=1)
    c.setStrokeColor(BACK_GOLD)
    c.setLineWidth(2)
    c.roundRect(BLEED + 4 * mm, BLEED + 4 * mm, TRIM_W - 8 * mm, TRIM_H - 8 * mm, 3 * mm, stroke=1, fill=0)
    c.setFillColor(white)
    c.setFont("Helvetica-Bold", 20)
    c.drawCentredString(PITCH_X / 2, PITCH_Y / 2 - cap_height("Helvetica-Bold") * 20 / 2, "DECK")
    c.endForm()


def draw_back_page(c: Canvas, count: int) -> None:
    for i in range(count):
        col, row = 2 - i % COLS, i // COLS           # mirrored for a long-edge flip
        x0, y0 = trim_top_left(col, row)
        c.saveState()
        c.translate(x0 - BLEED, y0 + BLEED - PITCH_Y)
        c.doForm("back")
        c.restoreState()


def main(csv_path: str, out_path: str) -> None:
    source = Path(csv_path)
    with source.open(newline="", encoding="utf-8") as handle:
        cards = list(csv.DictReader(handle))
    icons = {name: str(source.parent / name) for name in {card["icon"] for card in cards}}

    c = Canvas(out_path, pagesize=A4, invariant=1, pageCompression=1)
    c.setTitle("Benchmark deck (plain reportlab)")
    define_back(c)
    for start in range(0, len(cards), PER_PAGE):
        sheet = cards[start:start + PER_PAGE]
        for i, card in enumerate(sheet):
            draw_front(c, card, icons[card["icon"]], i % COLS, i // COLS)
        crop_marks(c, len(sheet))
        c.showPage()
        draw_back_page(c, len(sheet))
        c.showPage()
    c.save()


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: python bench/reference_reportlab.py CSV OUT.pdf")
    main(sys.argv[1], sys.argv[2])
