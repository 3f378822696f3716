"""Geometry of printable dice, in millimetres, with no drawing: the cube net with its glue tabs, how many
nets fit a page (both orientations, mixed), and the sticker sheets' groups of rows.

Coordinates are the page's: origin at the bottom-left corner, y up. A net is drawn in its own frame (origin
at the bottom-left of its bounding box) and placed upright or turned 90° counter-clockwise.

The net is the Latin cross, faces `e` wide, with the lids on the second column:

            [3]                     belt: faces 1, 2, 6, 5 (left to right), lids 3 (top) and 4 (bottom),
        [1] [2] [6] [5] >           so opposite faces are 1–6, 2–5 and 3–4, as on a standard d6.
            [4]

Seven glue tabs close it: above and below faces 1, 6 and 5, and right of 5 (the edge that closes the belt).
They stay inside the 4e × 3e box but for the last one, so a net takes (4e + t) × 3e.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from pipeline.core.units import PAPERS_MM
from pipeline.render.sheets.plan import BAND_GAP, LINE, MARK_GAP, PAGE_MARGIN, Rect

Point = tuple[float, float]
Segment = tuple[Point, Point]

NET_GAP = 2.0               # mm between two nets' outlines: room for the scissors
TAB_RATIO = 0.3             # tab depth as a share of the face edge, within TAB_LIMITS
TAB_LIMITS = (3.0, 6.0)
TAB_SLANT = math.radians(30)  # a tab's sides lean in by this angle, so neighbouring tabs never touch
STICKER_MARK = 3.0          # crop-mark length around a sticker block
STICKER_LABEL = 24.0        # the row-label column left of a sticker grid
GROUP_GAP = 4.0             # gutter between two sticker groups (at most 0.4 sticker)
DIE_FACES = 6
EPS = 1e-6

# face number -> (column, row) of its square in the net, row 0 at the bottom
NET_CELLS = {1: (0, 1), 2: (1, 1), 6: (2, 1), 5: (3, 1), 3: (1, 2), 4: (1, 0)}


@dataclass(frozen=True)
class NetShape:
    edge: float
    tab: float                              # depth of a glue tab
    faces: tuple[tuple[int, Rect], ...]     # (face number, square), face 1 first
    outline: tuple[Point, ...]              # the cut line: one closed polygon, counter-clockwise
    folds: tuple[Segment, ...]              # the 12 cube edges: 5 between faces, 7 at the tabs' roots
    tabs: tuple[tuple[Point, ...], ...]     # the 7 trapezoids (root first)
    label_tab: int                          # index of the tab that carries the die's label

    @property
    def size(self) -> tuple[float, float]:
        return 4 * self.edge + self.tab, 3 * self.edge


def tab_depth(edge: float) -> float:
    return min(TAB_LIMITS[1], max(TAB_LIMITS[0], TAB_RATIO * edge), 0.5 * edge)


def cube_net(edge: float) -> NetShape:
    e, t = edge, tab_depth(edge)
    s = t * math.tan(TAB_SLANT)
    faces = tuple((n, Rect(c * e, r * e, (c + 1) * e, (r + 1) * e)) for n, (c, r) in sorted(NET_CELLS.items()))

    def down(x0):      # a tab below the belt, root from (x0, e) to (x0 + e, e)
        return ((x0, e), (x0 + s, e - t), (x0 + e - s, e - t), (x0 + e, e))

    def up(x1):        # a tab above the belt, root from (x1, 2e) to (x1 - e, 2e), walked right to left
        return ((x1, 2 * e), (x1 - s, 2 * e + t), (x1 - e + s, 2 * e + t), (x1 - e, 2 * e))

    right = ((4 * e, e), (4 * e + t, e + s), (4 * e + t, 2 * e - s), (4 * e, 2 * e))
    below = [down(0), down(2 * e), down(3 * e)]
    above = [up(4 * e), up(3 * e), up(e)]
    outline: list[Point] = [*below[0], (e, 0), (2 * e, 0), *below[1], *below[2][1:], *right[1:], *above[0][1:],
                            *above[1][1:], (2 * e, 3 * e), (e, 3 * e), *above[2], (0, e)]
    outline = _dedupe(outline)
    tabs = (below[0], below[1], below[2], right, above[0], above[1], above[2])
    inner = [((x, e), (x, 2 * e)) for x in (e, 2 * e, 3 * e)] + [((e, y), (2 * e, y)) for y in (e, 2 * e)]
    roots = [(tab[0], tab[-1]) for tab in tabs]
    return NetShape(e, t, faces, tuple(outline), tuple(inner + roots), tabs, label_tab=5)


def _dedupe(points: list[Point]) -> list[Point]:
    out: list[Point] = []
    for p in points:
        if not out or abs(p[0] - out[-1][0]) > EPS or abs(p[1] - out[-1][1]) > EPS:
            out.append(p)
    if len(out) > 1 and abs(out[0][0] - out[-1][0]) < EPS and abs(out[0][1] - out[-1][1]) < EPS:
        out.pop()
    return out


# --- the page around the dice ---------------------------------------------------------------------------

@dataclass(frozen=True)
class PageFrame:
    """Header on top, footer (calibration bar and notes, one or more lines) at the bottom, the rest free."""

    paper: tuple[float, float]
    footer_lines: int

    @property
    def header(self) -> Rect:
        pw, ph = self.paper
        return Rect(PAGE_MARGIN, ph - PAGE_MARGIN - LINE, pw - PAGE_MARGIN, ph - PAGE_MARGIN)

    @property
    def footer(self) -> Rect:
        pw, _ = self.paper
        return Rect(PAGE_MARGIN, PAGE_MARGIN, pw - PAGE_MARGIN, PAGE_MARGIN + LINE * self.footer_lines)

    @property
    def region(self) -> Rect:
        pw, ph = self.paper
        return Rect(PAGE_MARGIN, self.footer.y1 + BAND_GAP, pw - PAGE_MARGIN, self.header.y0 - BAND_GAP)


def page_frame(paper: str, footer_lengths: tuple[float, ...]) -> PageFrame:
    from pipeline.render.sheets.plan import footer_line_count

    size = PAPERS_MM[paper]
    return PageFrame(size, footer_line_count(footer_lengths, size[0] - 2 * PAGE_MARGIN))


# --- nets on a page ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class NetSlot:
    """A net's bounding box on the page; `rotated`: turned 90° counter-clockwise."""

    rect: Rect
    rotated: bool


@dataclass(frozen=True)
class NetPlan:
    frame: PageFrame
    shape: NetShape
    slots: tuple[NetSlot, ...]

    @property
    def per_page(self) -> int:
        return len(self.slots)


def plan_nets(frame: PageFrame, edge: float) -> NetPlan | None:
    """The most nets per page: columns (or rows) of upright nets, the space left filled with turned ones.
    Ties: fewer turned nets, then columns. None when not a single net fits."""
    shape = cube_net(edge)
    region = frame.region
    best: tuple | None = None
    for split in ("columns", "rows"):
        for boxes in _mixed_packings(shape.size, (region.width, region.height), split):
            key = (len(boxes), -sum(1 for _, _, turned in boxes if turned), split == "columns")
            if boxes and (best is None or key > best[0]):
                best = (key, boxes)
    if best is None:
        return None
    boxes = best[1]
    used_w = max(x + _dims(shape.size, turned)[0] for x, _, turned in boxes)
    used_h = max(y + _dims(shape.size, turned)[1] for _, y, turned in boxes)
    left = region.x0 + (region.width - used_w) / 2
    top = region.y1 - (region.height - used_h) / 2          # boxes are measured down from the top
    slots = []
    for x, y, turned in sorted(boxes, key=lambda b: (b[2], b[1], b[0])):    # upright first, rows down
        w, h = _dims(shape.size, turned)
        slots.append(NetSlot(Rect(left + x, top - y - h, left + x + w, top - y), turned))
    return NetPlan(frame, shape, tuple(slots))


def _dims(size: tuple[float, float], turned: bool) -> tuple[float, float]:
    return (size[1], size[0]) if turned else size


def _fit(room: float, size: float) -> int:
    return max(0, math.floor((room + NET_GAP + EPS) / (size + NET_GAP)))


def _mixed_packings(size: tuple[float, float], room: tuple[float, float], split: str):
    """Every packing of `a` upright columns (or rows) followed by turned ones in the room left, as boxes
    (x, y, turned) from the region's top-left corner, y down."""
    if split == "rows":              # the same problem, transposed
        for boxes in _mixed_packings((size[1], size[0]), (room[1], room[0]), "columns"):
            yield [(y, x, turned) for x, y, turned in boxes]
        return
    w, h = size
    W, H = room
    for a in range(_fit(W, w) + 1):
        per_upright, per_turned = _fit(H, h), _fit(H, w)
        boxes = [(c * (w + NET_GAP), r * (h + NET_GAP), False) for c in range(a) for r in range(per_upright)]
        x0 = a * (w + NET_GAP)
        for c in range(_fit(W - x0, h)):
            boxes += [(x0 + c * (h + NET_GAP), r * (w + NET_GAP), True) for r in range(per_turned)]
        yield boxes


# --- sticker sheets --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class StickerGroup:
    """Some rows of one die kind on one page: `rows` rows starting at the kind's row `first_row`."""

    die: int                    # index in the dice list
    first_row: int
    rows: int
    continued: bool             # the kind began on an earlier page
    block: Rect                 # the stickers (its last row may be partial)


@dataclass(frozen=True)
class StickerPlan:
    """Every page is one grid of `per_row` × 6 columns: all groups share the column cuts, so the crop marks
    above and below the page's stickers serve every group. Groups are kept apart by a narrow gutter (a
    second cut), so a sliver of the next colour never shows on a miscut sticker."""

    frame: PageFrame
    sticker: float
    per_row: int                # dice per row (six stickers each)
    gutter: float
    pages: tuple[tuple[StickerGroup, ...], ...]

    def cells(self, group: StickerGroup, counts: list[int]) -> list[tuple[int, int, Rect]]:
        """(copy, face number, square) of every sticker of a group, row by row, face 1..6 per die."""
        s, out = self.sticker, []
        for r in range(group.rows):
            row = group.first_row + r
            y1 = group.block.y1 - r * s
            for slot in range(self.per_row):
                copy = row * self.per_row + slot
                if copy >= counts[group.die]:
                    break
                for face in range(1, DIE_FACES + 1):
                    x0 = group.block.x0 + (slot * DIE_FACES + face - 1) * s
                    out.append((copy, face, Rect(x0, y1 - s, x0 + s, y1)))
        return out


MARK_ZONE = MARK_GAP + STICKER_MARK     # around the page's grid: the crop marks (and the face numbers on top)


def sticker_gutter(sticker: float) -> float:
    """Under half a sticker, so a preflight reads it as a gutter between rows, not as a row."""
    return min(GROUP_GAP, 0.4 * sticker)


def sticker_row_width(per_row: int, sticker: float) -> float:
    """Label column, marks, the row itself, marks."""
    return STICKER_LABEL + 2 * MARK_ZONE + per_row * DIE_FACES * sticker


def plan_stickers(frame: PageFrame, sticker: float, counts: list[int]) -> StickerPlan | None:
    """Groups of rows, one die kind after the other, down the pages; a kind that does not fit the rest of
    a page goes on with its remaining rows on the next. None when one row does not fit an empty page."""
    region = frame.region
    per_row = math.floor((region.width - sticker_row_width(0, sticker) + EPS) / (DIE_FACES * sticker))
    if per_row < 1 or region.height < 2 * MARK_ZONE + sticker - EPS:
        return None
    gutter = sticker_gutter(sticker)
    x_block = region.x0 + (region.width - sticker_row_width(per_row, sticker)) / 2 + STICKER_LABEL + MARK_ZONE
    block_w = per_row * DIE_FACES * sticker
    bottom = region.y0 + MARK_ZONE
    pages: list[tuple[StickerGroup, ...]] = []
    page: list[StickerGroup] = []
    top = region.y1 - MARK_ZONE
    for die, count in enumerate(counts):
        needed, done = -(-count // per_row), 0
        while done < needed:
            start = top - (gutter if page else 0.0)
            fit = math.floor((start - bottom + EPS) / sticker)
            if fit < 1:
                pages.append(tuple(page))
                page, top = [], region.y1 - MARK_ZONE
                continue
            take = min(fit, needed - done)
            block = Rect(x_block, start - take * sticker, x_block + block_w, start)
            page.append(StickerGroup(die, done, take, done > 0, block))
            top = block.y0
            done += take
    if page:
        pages.append(tuple(page))
    return StickerPlan(frame, sticker, per_row, gutter, tuple(pages))


def outer_marks(rects: list[Rect], mark_len: float = STICKER_MARK) -> list[Segment]:
    """Crop marks at both ends of every cut line of a block of squares that share their edges, outside the
    block: a playtester cuts the rows into strips first, then each strip into squares."""
    xs = sorted({round(v, 6) for r in rects for v in (r.x0, r.x1)})
    ys = sorted({round(v, 6) for r in rects for v in (r.y0, r.y1)})
    left, right, bottom, top = xs[0], xs[-1], ys[0], ys[-1]
    near, far = MARK_GAP, MARK_GAP + mark_len
    marks: list[Segment] = []
    for x in xs:
        marks.append(((x, top + near), (x, top + far)))
        marks.append(((x, bottom - far), (x, bottom - near)))
    for y in ys:
        marks.append(((left - far, y), (left - near, y)))
        marks.append(((right + near, y), (right + far, y)))
    return marks
