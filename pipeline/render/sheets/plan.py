"""Grid maths for home-printing card sheets, in millimetres, with no drawing.

A SheetPlan says where every card, crop mark, header and footer goes on one portrait page, A4 or US
Letter, under the print-and-play norm (shared/DESIGN.md, "Print conventions"):

- home printers clip a band of 3–5 mm at the paper edge, so no card comes closer than CARD_EDGE (5 mm)
  and no crop mark, header or footer closer than MARK_EDGE (3 mm);
- crop marks are thin lines outside the cards, 5 mm long (what a steel rule lines up on), starting
  MARK_GAP off the trim. One exception, where a margin holds no band and is too tight for them: the marks
  there may be short (`short_y`, the top and bottom margins beside side bands): each runs from the edge of
  what is printed (the trim, on shared cuts) outward, at least SHORT_MIN (2 mm) long, and ends SHORT_EDGE
  (4.2 mm, what home printers leave blank) or more from the paper edge;
- the header and the footer (the 50 mm calibration bar) go where the room is: above and below the cards,
  or as vertical bands in the side margins when the top and bottom are tight. A side margin too narrow for
  a band beside full-length marks takes a windowed band (`windowed`): one line that runs between the marks,
  interrupted where each crosses it (Band.stops; pipeline/render/sheets/bandflow.py lays its words out).

Poker cards then print 9 a page (3 × 3) on both papers, with shared cut lines: on Letter, 6.35 mm stay
above and below the grid (short marks there) and 12.7 mm at each side (5 mm marks, a windowed band 5 mm
from the edge). The planner tries every combination of card orientation, cut style, band placement, band
distance from the edge, windowed bands and short marks, and keeps the one with the most cards (ties:
full-length marks, then bands the marks do not cross, then bleed gutters, then upright cards, then bands
farther from the edge, then longer marks, then bands above and below).

The other pages of the pipeline (write-on pages, board tiles, dice) keep PAGE_MARGIN: they have room.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, replace

from pipeline.render.sheets.bandflow import Piece, flow

CARD_EDGE = 5.0               # no card, nor its printed bleed, closer to the paper edge
MARK_EDGE = 3.0               # no crop mark, header or footer closer to the paper edge
BAND_EDGES = (5.0, 4.0, 3.0)  # where the header and footer may sit from the edge, safest first
PAGE_MARGIN = 10.0            # write-on pages, board tiles and dice sheets: nothing closer than this (tiles'
                              # marks are MARK_MAX long too)
MARK_GAP = 1.0                # a crop mark starts this far from the trim (from the bleed, outside a bleed block)
MARK_MAX = 5.0                # crop marks are 5 mm long where the margin allows
MARK_MIN = 5.0                # and never shorter: a layout that leaves less room is refused
SHORT_MIN = 2.0               # short marks (a bandless margin too tight for MARK_MIN): at least this long,
SHORT_EDGE = 4.2              # and ending this far from the paper edge, where home printers still print
WINDOW_MIN = 10.0             # a windowed band's stretch between two marks shorter than this stays empty
BAND_GAP = 1.5                # air between the crop marks and the header/footer bands
LINE = 3.5                    # one 7 pt line of text (Lato ascent + descent is about 3 mm)
BAR_MM = 50.0                 # the footer's calibration bar, first of its items
BAR_LABEL_GAP_MM = 2.0        # between the bar and its label
FOOTER_SPACING = 5.0          # between the footer's items when they share one line
FOLD_CLEAR = MARK_MAX         # the marks crossing the fold gap: one full-length mark, with the fold line and its label
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
    """A header or footer strip; `vertical` bands run bottom-to-top in a side margin. `stops`: where crop
    marks cross a windowed band (mm along it from its start), each kept `clear` on both sides."""

    rect: Rect
    vertical: bool
    stops: tuple[float, ...] = ()
    clear: float = 0.0

    @property
    def length(self) -> float:
        return self.rect.height if self.vertical else self.rect.width

    @property
    def thickness(self) -> float:
        return self.rect.width if self.vertical else self.rect.height

    def windows(self) -> list[tuple[float, float]]:
        """The stretches (start, end; mm along the band) free of the marks that cross it, WINDOW_MIN or
        longer, in reading order: the whole band when no mark crosses it."""
        found, start = [], 0.0
        for stop in sorted(self.stops) + [math.inf]:
            end = min(stop - self.clear, self.length)
            if end - start >= WINDOW_MIN - EPS:
                found.append((start, end))
            start = max(start, stop + self.clear)
            if start >= self.length:
                break
        return found


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
    mark_x: float                     # length of the marks in the left and right margins
    mark_y: float                     # length of the marks in the top and bottom margins (and a fold gap)
    side_bands: bool
    footer_lines: int
    foldover: bool
    origin: tuple[float, float]       # bottom-left of the whole card area (both halves when folding)
    header: Band | None = None
    footer: Band | None = None
    short_y: bool = False             # the top and bottom marks are short ones (SHORT_MIN, SHORT_EDGE)

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    @property
    def mark_len(self) -> float:
        """The shorter of the two axes' marks (what a report states)."""
        return min(self.mark_x, self.mark_y)

    @property
    def band_edge(self) -> float:
        """How far the header sits from the nearest paper edge."""
        r = self.header.rect
        return min(r.x0, r.y0, self.paper[0] - r.x1, self.paper[1] - r.y1)

    @property
    def cell_size(self) -> tuple[float, float]:
        w, h = self.card
        return (h, w) if self.rotated else (w, h)

    @property
    def gutter(self) -> float:
        return 2 * self.bleed if self.bleed_mode else 0.0

    @property
    def printed_bleed(self) -> float:
        """How far the outer faces print beyond the block's trim (shared cuts clip faces to their trim)."""
        return self.bleed if self.bleed_mode else 0.0

    @property
    def mark_offset(self) -> float:
        """Outer marks clear the outer cards' bleed, so they stay visible on dark artwork."""
        return MARK_GAP + self.printed_bleed

    @property
    def mark_offset_y(self) -> float:
        """Where the top and bottom marks start from the block: short ones right where the print ends."""
        return self.printed_bleed if self.short_y else self.mark_offset

    @property
    def cut_ys(self) -> list[float]:
        """Every horizontal line whose marks reach into the side margins: the cells' top and bottom edges
        (both blocks when folding) and the fold line."""
        rows = [self.cell(0, row) for row in range(self.rows)]
        ys = [y for r in rows for y in (r.y0, r.y1)]
        if self.foldover:
            ys += [2 * self.fold_y - y for y in ys] + [self.fold_y]
        return sorted({round(y, 6) for y in ys})

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


def footer_line_count(items: tuple[float, ...], band_length: float) -> int:
    """One line when the footer's items fit side by side, else one line per item."""
    one_line = sum(items) + FOOTER_SPACING * (len(items) - 1)
    return 1 if one_line <= band_length + EPS else len(items)


def _count(room: float, size: float, gutter: float) -> int:
    return max(0, math.floor((room + gutter + EPS) / (size + gutter)))


def footer_pieces(items: tuple[float, ...]) -> list[Piece]:
    """The footer's items as a windowed band lays them out: the calibration bar, its label (which may go to
    the next window), then the notes."""
    label = items[0] - BAR_MM - BAR_LABEL_GAP_MM
    bar = [Piece(BAR_MM, 0.0)] + ([Piece(label, BAR_LABEL_GAP_MM)] if label > EPS else [])
    return bar + [Piece(width, FOOTER_SPACING) for width in items[1:]]


def _mark_room(room: float) -> float:
    """The mark length a margin leaves (mm, down to 0.1 mm), at most MARK_MAX."""
    return min(MARK_MAX, math.floor(room * 10 + EPS) / 10)


@dataclass(frozen=True)
class _Choice:
    rotated: bool
    bleed_mode: bool
    side_bands: bool
    band_edge: float
    windowed: bool = False            # side bands between the marks, which cross them (Band.stops)
    short_y: bool = False             # short marks above and below (side bands only, no fold)


def _try(paper, card, bleed, choice: _Choice, foldover, footer_items, reserve) -> SheetPlan | None:
    """The plan for one combination of choices, or None when not a single card fits.

    Each margin must hold, from the trim outwards: the mark offset, a mark of at least MARK_MIN, then
    either the paper's MARK_EDGE or (beside a band) BAND_GAP, the band and the band's distance from the
    edge; short marks (choice.short_y) need only SHORT_MIN from the printed edge to SHORT_EDGE; a windowed
    band needs BAND_GAP to the cards, the marks crossing it. Cards also stay CARD_EDGE from the edge. The
    reserve (the per-printer back offset) moves the backs: it is kept between the cards and CARD_EDGE and
    between the marks and a band; marks next to the bare paper edge are shortened on the shifted backs
    instead (see crop_marks)."""
    pw, ph = paper
    rx, ry = reserve
    edge = choice.band_edge
    printed = bleed if choice.bleed_mode else 0.0
    offset = MARK_GAP + printed
    offset_y = printed if choice.short_y else offset
    footer_lines = 1 if choice.windowed else \
        footer_line_count(footer_items, (ph if choice.side_bands else pw) - 2 * edge)
    header_t, footer_t = LINE, LINE * footer_lines
    # what lies beyond each side's marks, measured from the paper edge
    beside_band = lambda thickness, r: edge + thickness + BAND_GAP + r  # noqa: E731
    outer_top = outer_bottom = SHORT_EDGE if choice.short_y else MARK_EDGE
    mark_min_y = SHORT_MIN if choice.short_y else MARK_MIN
    need_x = CARD_EDGE + printed + rx
    if choice.windowed:
        outer_x = MARK_EDGE
        need_x = max(need_x, beside_band(max(header_t, footer_t), rx) + printed)
    elif choice.side_bands:
        outer_x = beside_band(max(header_t, footer_t), rx)
    else:
        outer_x = MARK_EDGE
        outer_top, outer_bottom = beside_band(header_t, ry), beside_band(footer_t, ry)
    need_x = max(need_x, outer_x + offset + MARK_MIN)
    need_top = max(CARD_EDGE + printed + ry, outer_top + offset_y + mark_min_y)
    need_bottom = max(CARD_EDGE + printed + ry, outer_bottom + offset_y + mark_min_y)
    w, h = (card[1], card[0]) if choice.rotated else card
    gutter = 2 * bleed if choice.bleed_mode else 0.0
    cols = _count(pw - 2 * need_x, w, gutter)
    room_h = ph - need_top - need_bottom
    fold_gap = 2 * offset + FOLD_CLEAR
    rows = _count((room_h - fold_gap) / 2, h, gutter) if foldover else _count(room_h, h, gutter)
    if cols < 1 or rows < 1:
        return None
    bw = cols * w + (cols - 1) * gutter
    bh = rows * h + (rows - 1) * gutter
    total_h = 2 * bh + fold_gap if foldover else bh
    # centred across (the duplex mirror needs it); up and down, the marks get equal room, then the
    # cards' own distance from the edge is enforced
    slack = ph - total_h - (outer_top + offset_y) - (outer_bottom + offset_y)
    y0 = outer_bottom + offset_y + slack / 2
    y0 = min(max(y0, need_bottom), ph - need_top - total_h)
    x0 = (pw - bw) / 2
    mark_x = _mark_room(x0 - offset - outer_x)
    mark_y = _mark_room(min(y0 - offset_y - outer_bottom, ph - (y0 + total_h) - offset_y - outer_top))
    if choice.side_bands:
        header = Band(Rect(edge, edge, edge + header_t, ph - edge), True)
        footer = Band(Rect(pw - edge - footer_t, edge, pw - edge, ph - edge), True)
    else:
        header = Band(Rect(edge, ph - edge - header_t, pw - edge, ph - edge), False)
        footer = Band(Rect(edge, edge, pw - edge, edge + footer_t), False)
    plan = SheetPlan(paper, card, bleed, cols, rows, choice.rotated, choice.bleed_mode, mark_x, mark_y,
                     choice.side_bands, footer_lines, foldover, (x0, y0), header, footer, choice.short_y)
    if not choice.windowed:
        return plan
    stops = tuple(y - edge for y in plan.cut_ys)            # the side marks cross the bands there
    footer = replace(footer, stops=stops, clear=BAND_GAP + ry)
    if flow(footer_pieces(footer_items), footer.windows()) is None:
        return None                                          # windows too short for the footer
    return replace(plan, header=replace(header, stops=stops, clear=BAND_GAP + ry), footer=footer)


def choose_plan(paper: tuple[float, float], card: tuple[float, float], bleed: float, *, foldover: bool = False,
                footer_items: tuple[float, ...] = (0.0,), reserve: tuple[float, float] = (0.0, 0.0),
                keep_bleed: bool = False) -> SheetPlan | None:
    """The plan with the most cards per page; None when the card does not fit the paper at all.
    keep_bleed: only layouts where every face keeps its bleed (gutters), even if fewer cards fit."""
    best, best_key = None, None
    # without bleed, "bleed gutters" would be shared cuts under another name
    bleed_modes = ((True,) if keep_bleed else (True, False)) if bleed > 0 else (False,)
    # side bands may be windowed and leave the top and bottom short marks (never across a fold)
    bands = [(False, False, False)] + [(True, windowed, short) for windowed in (False, True)
                                       for short in ((False,) if foldover else (False, True))]
    for rotated, bleed_mode, (side_bands, windowed, short_y), band_edge in itertools.product(
            (False, True), bleed_modes, bands, BAND_EDGES):
        choice = _Choice(rotated, bleed_mode, side_bands, band_edge, windowed, short_y)
        plan = _try(paper, card, bleed, choice, foldover, footer_items, reserve)
        if plan is None:
            continue
        key = (plan.per_page, not short_y, not windowed, bleed_mode, not rotated, band_edge, plan.mark_len,
               not side_bands)
        if best_key is None or key > best_key:
            best, best_key = plan, key
    return best
