"""Grid maths for home-printing card sheets, in millimetres, with no drawing.

A SheetPlan says where every card, crop mark, header and footer goes on one portrait page. The page is
A4 or US Letter; nothing comes closer than MARGIN to the paper edge, because home printers clip there.
The planner tries every combination of card orientation, cut style, crop-mark length and band placement,
and keeps the one with the most cards (ties: bleed gutters, then upright cards, then longer marks, then
header and footer above and below the cards).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

MARGIN = 10.0                 # printers clip near the edge: nothing is drawn closer than this
MARK_GAP = 1.0                # a crop mark starts this far from the trim (from the bleed, outside a bleed block)
MARK_LENGTHS = (3.0, 2.0)     # preferred first; the shorter one is taken only when it wins cards
BAND_GAP = 1.5                # air between the crop marks and the header/footer bands
LINE = 3.5                    # one 7 pt line of text (Lato ascent + descent is about 3 mm)
FOOTER_SPACING = 5.0          # between the footer's items when they share one line
FOLD_CLEAR = 3.0              # room for the fold line and its label between the two halves' mark offsets
EPS = 1e-6                    # floating-point slack when counting what fits


@dataclass(frozen=True)
class Rect:
    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    @property
    def height(self) -> float:
        return self.y1 - self.y0

    @property
    def centre(self) -> tuple[float, float]:
        return ((self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2)

    def mirror_x(self, axis: float) -> "Rect":
        return Rect(2 * axis - self.x1, self.y0, 2 * axis - self.x0, self.y1)

    def mirror_y(self, axis: float) -> "Rect":
        return Rect(self.x0, 2 * axis - self.y1, self.x1, 2 * axis - self.y0)

    def shifted(self, dx: float, dy: float) -> "Rect":
        return Rect(self.x0 + dx, self.y0 + dy, self.x1 + dx, self.y1 + dy)


@dataclass(frozen=True)
class Slot:
    """Where one face goes: its trim rectangle on the page and its turn (degrees, counter-clockwise)."""

    rect: Rect
    rotation: int


@dataclass(frozen=True)
class Band:
    """A header or footer strip; `vertical` bands run bottom-to-top in a side margin."""

    rect: Rect
    vertical: bool

    @property
    def length(self) -> float:
        return self.rect.height if self.vertical else self.rect.width

    @property
    def thickness(self) -> float:
        return self.rect.width if self.vertical else self.rect.height


Segment = tuple[tuple[float, float], tuple[float, float]]


@dataclass(frozen=True)
class SheetPlan:
    paper: tuple[float, float]
    card: tuple[float, float]         # trim as designed (w, h), before any turn on the page
    bleed: float
    cols: int
    rows: int                         # rows of fronts (fold-over: per half)
    rotated: bool
    bleed_mode: bool                  # True: gutters of 2 x bleed, each face keeps its bleed
    mark_len: float
    side_bands: bool
    footer_lines: int
    foldover: bool
    origin: tuple[float, float]       # bottom-left of the whole card area (both halves when folding)

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    @property
    def cell_size(self) -> tuple[float, float]:
        w, h = self.card
        return (h, w) if self.rotated else (w, h)

    @property
    def gutter(self) -> float:
        return 2 * self.bleed if self.bleed_mode else 0.0

    @property
    def mark_offset(self) -> float:
        """Outer marks clear the outer cards' bleed, so they stay visible on dark artwork."""
        return MARK_GAP + (self.bleed if self.bleed_mode else 0.0)

    @property
    def fold_gap(self) -> float:
        return 2 * self.mark_offset + FOLD_CLEAR

    @property
    def block_size(self) -> tuple[float, float]:
        cw, ch = self.cell_size
        g = self.gutter
        return self.cols * cw + (self.cols - 1) * g, self.rows * ch + (self.rows - 1) * g

    @property
    def front_block(self) -> Rect:
        bw, bh = self.block_size
        x0, y0 = self.origin
        if self.foldover:
            y0 += bh + self.fold_gap
        return Rect(x0, y0, x0 + bw, y0 + bh)

    @property
    def fold_y(self) -> float:
        return self.origin[1] + self.block_size[1] + self.fold_gap / 2

    def cell(self, col: int, row: int) -> Rect:
        """Front cell; row 0 is the top row."""
        cw, ch = self.cell_size
        block = self.front_block
        x0 = block.x0 + col * (cw + self.gutter)
        y1 = block.y1 - row * (ch + self.gutter)
        return Rect(x0, y1 - ch, x0 + cw, y1)

    def front_slot(self, index: int) -> Slot:
        """Fronts fill rows from the top; when folding, from the fold line up, so that a short sheet's
        fronts and backs stay next to the fold and share its marks."""
        col, row = index % self.cols, index // self.cols
        if self.foldover:
            row = self.rows - 1 - row
        return Slot(self.cell(col, row), 90 if self.rotated else 0)

    def duplex_back_slot(self, index: int, offset: tuple[float, float]) -> Slot:
        """A long-edge flip mirrors the sheet about its vertical centre line. The back is turned the
        opposite way to its front (-90 for +90), so it is upright once the card is turned over."""
        front = self.front_slot(index)
        rect = front.rect.mirror_x(self.paper[0] / 2).shifted(*offset)
        return Slot(rect, (-front.rotation) % 360)

    def fold_back_slot(self, index: int) -> Slot:
        """Folding mirrors the lower half onto the upper one about the fold line; the back's turn is the
        front's reflected the same way (180 for an upright card, 90 for a card turned 90)."""
        front = self.front_slot(index)
        return Slot(front.rect.mirror_y(self.fold_y), (180 - front.rotation) % 360)

    def header_band(self) -> Band:
        pw, ph = self.paper
        if self.side_bands:
            return Band(Rect(MARGIN, MARGIN, MARGIN + LINE, ph - MARGIN), True)
        return Band(Rect(MARGIN, ph - MARGIN - LINE, pw - MARGIN, ph - MARGIN), False)

    def footer_band(self) -> Band:
        pw, ph = self.paper
        thickness = LINE * self.footer_lines
        if self.side_bands:
            return Band(Rect(pw - MARGIN - thickness, MARGIN, pw - MARGIN, ph - MARGIN), True)
        return Band(Rect(MARGIN, MARGIN, pw - MARGIN, MARGIN + thickness), False)


def footer_line_count(items: tuple[float, ...], band_length: float) -> int:
    """One line when the footer's items fit side by side, else one line per item."""
    one_line = sum(items) + FOOTER_SPACING * (len(items) - 1)
    return 1 if one_line <= band_length + EPS else len(items)


def _count(room: float, size: float, gutter: float) -> int:
    return max(0, math.floor((room + gutter + EPS) / (size + gutter)))


def _try(paper, card, bleed, rotated, bleed_mode, mark_len, side_bands, foldover, footer_items, reserve):
    """The plan for one combination of choices, or None when not a single card fits."""
    pw, ph = paper
    aw, ah = pw - 2 * MARGIN, ph - 2 * MARGIN
    footer_lines = footer_line_count(footer_items, ah if side_bands else aw)
    header_t, footer_t = LINE, LINE * footer_lines
    offset = MARK_GAP + (bleed if bleed_mode else 0.0)
    # the reserve keeps shifted backs (per-printer offset) and their marks inside the margins
    zone_x = offset + mark_len + reserve[0]
    zone_y = offset + mark_len + reserve[1]
    if side_bands:
        # both side bands get the same width so the cards stay centred for the duplex mirror
        band = BAND_GAP + max(header_t, footer_t)
        room_w, room_h = aw - 2 * zone_x - 2 * band, ah - 2 * zone_y
    else:
        room_w, room_h = aw - 2 * zone_x, ah - 2 * zone_y - header_t - footer_t - 2 * BAND_GAP
    w, h = (card[1], card[0]) if rotated else card
    gutter = 2 * bleed if bleed_mode else 0.0
    cols = _count(room_w, w, gutter)
    fold_gap = 2 * offset + FOLD_CLEAR
    rows = _count((room_h - fold_gap) / 2, h, gutter) if foldover else _count(room_h, h, gutter)
    if cols < 1 or rows < 1:
        return None
    plan = SheetPlan(paper, card, bleed, cols, rows, rotated, bleed_mode, mark_len, side_bands,
                     footer_lines, foldover, (0.0, 0.0))
    bw, bh = plan.block_size
    total_h = 2 * bh + fold_gap if foldover else bh
    if side_bands:
        y_lo, y_hi = MARGIN + zone_y, ph - MARGIN - zone_y
    else:
        y_lo = MARGIN + footer_t + BAND_GAP + zone_y
        y_hi = ph - MARGIN - header_t - BAND_GAP - zone_y
    origin = ((pw - bw) / 2, (y_lo + y_hi - total_h) / 2)
    return SheetPlan(paper, card, bleed, cols, rows, rotated, bleed_mode, mark_len, side_bands,
                     footer_lines, foldover, origin)


def choose_plan(paper: tuple[float, float], card: tuple[float, float], bleed: float, *, foldover: bool = False,
                footer_items: tuple[float, ...] = (0.0,), reserve: tuple[float, float] = (0.0, 0.0),
                keep_bleed: bool = False) -> SheetPlan | None:
    """The plan with the most cards per page; None when the card does not fit the paper at all.
    keep_bleed: only layouts where every face keeps its bleed (gutters), even if fewer cards fit."""
    best, best_key = None, None
    # without bleed, "bleed gutters" would be shared cuts under another name
    bleed_modes = ((True,) if keep_bleed else (True, False)) if bleed > 0 else (False,)
    for rotated, bleed_mode, mark_len, side_bands in itertools.product(
            (False, True), bleed_modes, MARK_LENGTHS, (False, True)):
        plan = _try(paper, card, bleed, rotated, bleed_mode, mark_len, side_bands, foldover,
                    footer_items, reserve)
        if plan is None:
            continue
        key = (plan.per_page, bleed_mode, not rotated, mark_len, not side_bands)
        if best_key is None or key > best_key:
            best, best_key = plan, key
    return best


def crop_marks(plan: SheetPlan, blocks: list[list[Rect]]) -> list[Segment]:
    """Crop marks for the placed cards (one list of trim rects per block; fold-over has two blocks).

    Every cut line gets a mark at both of its ends, outside its block. In bleed mode each card also gets
    short marks at its corners inside the gutters. Never on a card: marks start MARK_GAP off the trim.
    Overlapping marks on one line are merged, which joins the two halves' marks across a fold gap.
    """
    segments: list[Segment] = []
    for rects in blocks:
        if rects:
            segments.extend(_outer_marks(plan, rects))
            if plan.bleed_mode:
                segments.extend(_gutter_marks(plan, rects))
    return _merge_collinear(segments)


def _edges(values) -> list[float]:
    return sorted({round(v, 6) for v in values})


def _outer_marks(plan: SheetPlan, rects: list[Rect]) -> list[Segment]:
    xs = _edges([r.x0 for r in rects] + [r.x1 for r in rects])
    ys = _edges([r.y0 for r in rects] + [r.y1 for r in rects])
    left, right, bottom, top = xs[0], xs[-1], ys[0], ys[-1]
    near, far = plan.mark_offset, plan.mark_offset + plan.mark_len
    marks: list[Segment] = []
    for x in xs:
        marks.append(((x, top + near), (x, top + far)))
        marks.append(((x, bottom - far), (x, bottom - near)))
    for y in ys:
        marks.append(((left - far, y), (left - near, y)))
        marks.append(((right + near, y), (right + far, y)))
    return marks


def _gutter_marks(plan: SheetPlan, rects: list[Rect]) -> list[Segment]:
    """Each corner's edges extended into the gutter, where the gutter lies inside the block (the outer
    sides already have their marks). Half a gutter at most, so neighbours' marks do not overlap."""
    length = min(plan.mark_len, plan.gutter / 2 - MARK_GAP)
    if length < 1.0:
        return []
    left = min(r.x0 for r in rects) + EPS
    right = max(r.x1 for r in rects) - EPS
    bottom = min(r.y0 for r in rects) + EPS
    top = max(r.y1 for r in rects) - EPS
    near, far = MARK_GAP, MARK_GAP + length
    marks: list[Segment] = []
    for r in rects:
        for y in (r.y0, r.y1):
            if r.x0 > left:
                marks.append(((r.x0 - far, y), (r.x0 - near, y)))
            if r.x1 < right:
                marks.append(((r.x1 + near, y), (r.x1 + far, y)))
        for x in (r.x0, r.x1):
            if r.y0 > bottom:
                marks.append(((x, r.y0 - far), (x, r.y0 - near)))
            if r.y1 < top:
                marks.append(((x, r.y1 + near), (x, r.y1 + far)))
    return marks


def _merge_collinear(segments: list[Segment]) -> list[Segment]:
    """Union of overlapping or touching segments on the same horizontal or vertical line, in a stable
    order (so the PDF bytes do not depend on set iteration)."""
    lines: dict[tuple[str, float], list[tuple[float, float]]] = {}
    for (x0, y0), (x1, y1) in segments:
        if abs(x0 - x1) < EPS:
            lines.setdefault(("v", round(x0, 6)), []).append((min(y0, y1), max(y0, y1)))
        else:
            lines.setdefault(("h", round(y0, 6)), []).append((min(x0, x1), max(x0, x1)))
    merged: list[Segment] = []
    for (kind, at), spans in sorted(lines.items()):
        spans.sort()
        start, end = spans[0]
        for a, b in spans[1:] + [(math.inf, math.inf)]:
            if a <= end + EPS:
                end = max(end, b)
                continue
            merged.append(((at, start), (at, end)) if kind == "v" else ((start, at), (end, at)))
            start, end = a, b
    return merged
