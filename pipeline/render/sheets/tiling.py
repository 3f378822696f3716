"""Faces bigger than home paper (boards), tiled at 100 % on A4 or US Letter; and the print-shop file.

Equal tiles, columns A, B… from the left, rows 1, 2… from the top, one per page in reading order (A1, B1,
…, A2…). Neighbours share an overlap strip (`overlap_mm`) printed on both. At every seam, the tile on the
**left** (or **above**) is trimmed along a dashed line "couper ici", a cut allowance `a` (2 mm) inside the
far edge of the overlap, and laid **on top** of its neighbour; the tile on the **right** (or **below**)
takes the glue: its strip is hatched "coller ici" up to `2a` short of the cut line, so a cut `a` off either
way shows the same board on both papers, never the hatching. Two crosshair targets per seam sit at the same
board coordinates on both tiles, mid-glue zone: hold the upper tile to the light, lay its targets on its
neighbour's. Assemble each row left to right, trim it along its lower cut line, lay it on the next row.
Crop marks continue the board's outer trim lines (so its corners get theirs) and the cut lines beyond the
printed area; a page map on every tile shows the board cut into tiles, this one filled.

The plan tries both paper orientations and the board upright or turned a quarter, each with the fewest
tiles whose printed area (framed by room for 5 mm marks and labels) and page map fit between header and
calibration footer, 10 mm inside the paper edge. It keeps the fewest pages, then the least board printed
twice (shorter seams to cut and glue), the larger page map (30 mm long, 25 when that saves a page), more
of the board's bleed beyond its outer trim (3, 2, 1 mm), the board upright, portrait paper. The board is
one form XObject, clipped on every tile.
"""

from __future__ import annotations

import io
import itertools
import math
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

from reportlab.pdfbase.pdfmetrics import stringWidth

from pipeline.core.errors import PipelineError, Problem, column_letter
from pipeline.core.output import deliver
from pipeline.core.printing import PrintOptions
from pipeline.core.units import MM, PAPERS_MM
from pipeline.render.fonts import FontSet, default_fonts
from pipeline.render.pdf import new_canvas
from pipeline.render.sheets.decor import TEXT_SIZE, draw_footer, draw_header, draw_marks, footer_items
from pipeline.render.sheets.imposition import Face, write_print
from pipeline.render.sheets.plan import (BAND_GAP, Band, EPS, LINE, MARK_GAP, MARK_MAX, PAGE_MARGIN, Rect,
                                         footer_line_count)

EDGE_BLEEDS = (3.0, 2.0, 1.0)  # board bleed kept beyond its outer trim, most preferred first
CUT_ALLOWANCE = 2.0           # board printed past the cut line; also the glue zone's distance to it
MAP_LONGS = (30.0, 25.0)      # the page map's longer side, preferred first
MAP_GAP = 4.0                 # between the tile's frame and the page map
TARGET_RADIUS, TARGET_ARM = 1.5, 2.5
HATCH_STEP, MAP_LABEL_SIZE = 2.0, 6.5   # mm between glue-zone hatches; pt, tile names in the page map
CUT_LABEL, GLUE_LABEL, MAP_TITLE = "couper ici", "coller ici", "plan d'assemblage"


@dataclass(frozen=True)
class Seam:
    """One seam seen from one tile, in board mm (y up). `cut`: this tile is trimmed at `line`; otherwise
    it carries the glue zone `glue` (a range across the seam). `span`: the seam's extent along it."""

    vertical: bool
    cut: bool
    line: float
    glue: tuple[float, float]
    span: tuple[float, float]

    @property
    def targets(self) -> list[tuple[float, float]]:
        across, (lo, hi) = sum(self.glue) / 2, self.span
        return [(across, a) if self.vertical else (a, across) for a in (lo + (hi - lo) / 4, lo + 3 * (hi - lo) / 4)]

    @property
    def glue_rect(self) -> Rect:
        (g0, g1), (s0, s1) = self.glue, self.span
        return Rect(g0, s0, g1, s1) if self.vertical else Rect(s0, g0, s1, g1)


@dataclass(frozen=True)
class TilePlan:
    paper: tuple[float, float]        # as printed (landscape: wider than high)
    board: tuple[float, float]        # trim, mm
    cols: int
    rows: int
    overlap: float
    edge: float                       # board bleed shown beyond the outer trim
    mark_len: float
    rotated: bool                     # board turned 90° counter-clockwise on the page
    window_page: Rect                 # where every tile's printed board lands on the page
    map_rect: Rect
    footer_lines: int
    map_long: float = MAP_LONGS[0]    # the page map's longer side

    @property
    def tile(self) -> tuple[float, float]:
        return _tile_size(self.board, self.edge, self.overlap, self.cols, self.rows)

    @property
    def allowance(self) -> float:
        return min(CUT_ALLOWANCE, self.overlap / 4)

    def window(self, col: int, row: int) -> Rect:
        """The board (mm, y up) printed on tile (col, row); row 0 is the top row."""
        tw, th = self.tile
        x0 = -self.edge + col * (tw - self.overlap)
        y1 = self.board[1] + self.edge - row * (th - self.overlap)
        return Rect(x0, y1 - th, x0 + tw, y1)

    def cuts(self) -> tuple[list[float], list[float]]:
        """Board coordinates where the assembled tiles meet: x from the left, y from the top."""
        a = self.allowance
        xs = [0.0] + [self.window(c, 0).x1 - a for c in range(self.cols - 1)] + [self.board[0]]
        ys = [self.board[1]] + [self.window(0, r).y0 + a for r in range(self.rows - 1)] + [0.0]
        return xs, ys

    def seams(self, col: int, row: int) -> list[Seam]:
        a, o, win = self.allowance, self.overlap, self.window(col, row)
        across_x, across_y = (win.y0, win.y1), (win.x0, win.x1)
        seams = []
        if col < self.cols - 1:
            seams.append(Seam(True, True, win.x1 - a, (win.x1 - o, win.x1 - 2 * a), across_x))
        if col > 0:
            seams.append(Seam(True, False, win.x0 + o - a, (win.x0, win.x0 + o - 2 * a), across_x))
        if row < self.rows - 1:
            seams.append(Seam(False, True, win.y0 + a, (win.y0 + 2 * a, win.y0 + o), across_y))
        if row > 0:
            seams.append(Seam(False, False, win.y1 - o + a, (win.y1 - o + 2 * a, win.y1), across_y))
        return seams

    def marks(self, col: int, row: int) -> list:
        """Segments (board mm) continuing the outer trim lines and this tile's cut lines past its window."""
        win, (w, h) = self.window(col, row), self.board
        g, far = MARK_GAP, MARK_GAP + self.mark_len
        cuts = [s for s in self.seams(col, row) if s.cut]
        xs = [x for x in (0.0, w) if win.x0 <= x <= win.x1] + [s.line for s in cuts if s.vertical]
        ys = [y for y in (0.0, h) if win.y0 <= y <= win.y1] + [s.line for s in cuts if not s.vertical]
        segments = []
        for x in xs:
            segments += [((x, win.y0 - far), (x, win.y0 - g)), ((x, win.y1 + g), (x, win.y1 + far))]
        for y in ys:
            segments += [((win.x0 - far, y), (win.x0 - g, y)), ((win.x1 + g, y), (win.x1 + far, y))]
        return segments


def _tile_size(board, edge: float, overlap: float, cols: int, rows: int) -> tuple[float, float]:
    """Equal tiles covering the board and its kept bleed, each pair of neighbours sharing `overlap`."""
    return (board[0] + 2 * edge + (cols - 1) * overlap) / cols, (board[1] + 2 * edge + (rows - 1) * overlap) / rows


def _frame(edge: float, mark_len: float) -> float:
    """Room kept around the printed board: crop marks beyond the bleed, or a "couper ici" label."""
    return max(edge + MARK_GAP + mark_len, MARK_GAP + LINE)


def _tiles_needed(length: float, room: float, overlap: float) -> int | None:
    if length <= room + EPS:
        return 1
    return math.ceil((length - overlap) / (room - overlap) - EPS) if room > overlap else None


def plan_tiles(paper: tuple[float, float], board: tuple[float, float], bleed: float, overlap: float,
               map_group, footer_lines: int = 1) -> TilePlan | None:
    """The best plan (module docstring) or None; `map_group(long)`: the titled page map's (w, h), board upright."""
    best, best_key = None, None
    edges = tuple(dict.fromkeys(min(bleed, e) for e in EDGE_BLEEDS))
    for landscape, rotated, long, edge in itertools.product((False, True), (False, True), MAP_LONGS, edges):
        page = (max(paper), min(paper)) if landscape else (min(paper), max(paper))
        for plan in _candidates(page, board, overlap, edge, MARK_MAX, rotated, map_group(long), footer_lines):
            twice = overlap * ((plan.cols - 1) * board[1] + (plan.rows - 1) * board[0])
            key = (plan.cols * plan.rows, round(twice, 6), -long, -edge, rotated, landscape)
            if best_key is None or key < best_key:
                best, best_key = replace(plan, map_long=long), key
    return best


def _content(page: tuple[float, float], footer_lines: int) -> Rect:
    pw, ph = page
    return Rect(PAGE_MARGIN, PAGE_MARGIN + LINE * footer_lines + BAND_GAP, pw - PAGE_MARGIN, ph - PAGE_MARGIN - LINE - BAND_GAP)


def _candidates(page, board, overlap, edge, mark_len, rotated, map_group, footer_lines):
    """The fewest tiles that fit the paper, and one more column and/or row in case the map needs room."""
    area, frame = _content(page, footer_lines), _frame(edge, mark_len)
    room = (area.height, area.width) if rotated else (area.width, area.height)   # along board x, board y
    cols = _tiles_needed(board[0] + 2 * edge, room[0] - 2 * frame, overlap)
    rows = _tiles_needed(board[1] + 2 * edge, room[1] - 2 * frame, overlap)
    for c, r in itertools.product((0, 1), (0, 1)) if cols and rows else ():
        plan = _place(page, board, cols + c, rows + r, overlap, edge, mark_len, rotated, map_group, footer_lines)
        if plan is not None:
            yield plan


def _place(page, board, cols, rows, overlap, edge, mark_len, rotated, map_group, footer_lines):
    """The tile's window and the page map on the page, side by side or one above the other, centred."""
    area, frame = _content(page, footer_lines), _frame(edge, mark_len)
    tw, th = _tile_size(board, edge, overlap, cols, rows)
    ww, wh = (th, tw) if rotated else (tw, th)
    gw, gh = (0.0, 0.0) if cols * rows == 1 else map_group[::-1] if rotated else map_group   # no map for one tile
    bw, bh = ww + 2 * frame, wh + 2 * frame
    if bw > area.width + EPS or bh > area.height + EPS:
        return None
    if bw + MAP_GAP + gw <= area.width + EPS and gh <= area.height + EPS:          # map beside the tile
        x0, y0 = area.x0 + (area.width - bw - MAP_GAP - gw) / 2, area.y0 + (area.height - bh) / 2
        top = min(max(y0 + bh - frame, area.y0 + gh), area.y1)
        map_rect = Rect(x0 + bw + MAP_GAP, top - gh, x0 + bw + MAP_GAP + gw, top)
    elif bh + MAP_GAP + gh <= area.height + EPS and gw <= area.width + EPS:        # map below it
        x0, y0 = area.x0 + (area.width - bw) / 2, area.y0 + (area.height - bh + MAP_GAP + gh) / 2
        left = max(min(x0 + frame, area.x1 - gw), area.x0)
        map_rect = Rect(left, y0 - MAP_GAP - gh, left + gw, y0 - MAP_GAP)
    else:
        return None
    window = Rect(x0 + frame, y0 + frame, x0 + frame + ww, y0 + frame + wh)
    return TilePlan(page, board, cols, rows, overlap, edge, mark_len, rotated, window, map_rect, footer_lines)


def tile_name(col: int, row: int) -> str:
    """Columns are letters from the left, rows numbers from the top: A1 is the top-left tile."""
    return f"{column_letter(col + 1)}{row + 1}"


def plan_board(face: Face, options: PrintOptions, where: str = "board") -> TilePlan:
    """The tiles write_board_pnp will print: PipelineError, before anything is drawn, when none fit."""
    fonts = default_fonts()
    board, bleed = (face.width / MM, face.height / MM), face.bleed / MM
    paper = PAPERS_MM[options.paper]
    footer_lines = footer_line_count(footer_items(fonts, ""), min(paper) - 2 * PAGE_MARGIN)
    group = lambda long: _map_group(fonts, board, long)  # noqa: E731
    plan = plan_tiles(paper, board, bleed, options.overlap_mm, group, footer_lines) if min(board) > 0 else None
    if plan is None:
        raise PipelineError(Problem(where, f"a {board[0]:g}×{board[1]:g} mm board cannot be tiled on "
                                    f"{options.paper} paper with a {options.overlap_mm:g} mm overlap", "tiling"))
    return plan


def write_board_pnp(target, face: Face, options: PrintOptions, plan: TilePlan | None = None) -> dict:
    """The board at 100 % on as few pages of `options.paper` as possible (`plan` from plan_board, made here
    when not given); see the module docstring."""
    plan = plan or plan_board(face, options, str(target) if isinstance(target, (str, Path)) else "board")
    fonts = default_fonts()
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, (plan.paper[0] * MM, plan.paper[1] * MM), fonts,
                        title=" · ".join(t for t in (options.game_title, options.component_title) if t))
    canvas.beginForm("Board", -face.bleed, -face.bleed, face.width + face.bleed, face.height + face.bleed)
    face.draw(canvas)
    canvas.endForm()
    pages = plan.cols * plan.rows
    for index in range(pages):
        _draw_tile(canvas, fonts, plan, options, index % plan.cols, index // plan.cols, index, pages)
        canvas.showPage()
    canvas.save()
    deliver(target, buffer.getvalue())
    return {"pages": pages, "tiles": (plan.cols, plan.rows), "overlap_mm": options.overlap_mm,
            "orientation": "landscape" if plan.paper[0] > plan.paper[1] else "portrait", "rotated": plan.rotated,
            "paper": options.paper, "tile_mm": plan.tile, "edge_bleed_mm": plan.edge, "mark_length_mm": plan.mark_len}


def write_board_print(target, face: Face, title: str) -> dict:
    """The print-shop file: one page = the bleed box, TrimBox/BleedBox set. A board is one big face."""
    return write_print(target, [face], title)


@contextmanager
def _placed(canvas, page: Rect, local: Rect, rotated: bool):
    """Local coordinates (mm) in which `local` lands on `page`, turned 90° counter-clockwise if rotated."""
    tx, ty = (page.x1 + local.y0, page.y0 - local.x0) if rotated else (page.x0 - local.x0, page.y0 - local.y0)
    canvas.saveState()
    canvas.translate(tx * MM, ty * MM)
    if rotated:
        canvas.rotate(90)
    yield
    canvas.restoreState()


def _draw_tile(canvas, fonts: FontSet, plan: TilePlan, options: PrintOptions, col, row, index, pages) -> None:
    win = plan.window(col, row)
    with _placed(canvas, plan.window_page, win, plan.rotated):
        canvas.saveState()
        path = canvas.beginPath()
        path.rect(win.x0 * MM, win.y0 * MM, win.width * MM, win.height * MM)
        canvas.clipPath(path, stroke=0, fill=0)
        canvas.doForm("Board")
        canvas.restoreState()
        for seam in plan.seams(col, row):
            turn = 90 if plan.rotated else 0
            if seam.cut:
                _cut_line(canvas, fonts, seam, win, turn)
            else:
                _glue_zone(canvas, fonts, seam, turn)
            for x, y in seam.targets:
                _target(canvas, x, y, min(TARGET_ARM, plan.overlap / 2 - plan.allowance))
        draw_marks(canvas, plan.marks(col, row))
    if plan.cols * plan.rows > 1:
        _draw_map(canvas, fonts, plan, col, row)
    pw, ph = plan.paper
    parts = [t for t in (options.game_title, options.component_title) if t]
    parts += ["version économie d'encre"] * options.ink_saver
    parts.append(f"tuile {tile_name(col, row)} ({index + 1}/{pages})")
    draw_header(canvas, fonts, Band(Rect(PAGE_MARGIN, ph - PAGE_MARGIN - LINE, pw - PAGE_MARGIN, ph - PAGE_MARGIN), False),
                " · ".join(parts))
    footer = Band(Rect(PAGE_MARGIN, PAGE_MARGIN, pw - PAGE_MARGIN, PAGE_MARGIN + LINE * plan.footer_lines), False)
    draw_footer(canvas, fonts, footer, plan.footer_lines, ())


def _label(canvas, fonts: FontSet, text: str, x: float, y: float, angle: float, halo: bool = False,
           size: float = TEXT_SIZE, bold: bool = False, grey: float = 0.0, frame_turn: float = 0) -> None:
    """`text` centred on (x, y) mm, turned by `angle`; on a white box when `halo`. `frame_turn`: how far the
    local frame is itself turned on the page (a board turned 90°). A label that would then read downwards
    or upside down on the page (page angle in ]90°, 270°]) is turned half a turn more: it stays centred on
    the same point and on the same line, and reads left to right or bottom to top."""
    if 90 < (angle + frame_turn) % 360 <= 270:
        angle += 180
    font = fonts.bold("body") if bold else fonts.name("body")
    width = stringWidth(text, font, size)
    ascent, descent = fonts.ascent("body") * size, fonts.descent("body") * size
    canvas.saveState()
    canvas.translate(x * MM, y * MM)
    canvas.rotate(angle)
    if halo:
        pad = 1.0 * MM
        canvas.setFillColorRGB(1, 1, 1)
        canvas.rect(-width / 2 - pad, -(ascent + descent + pad) / 2, width + 2 * pad, ascent + descent + pad,
                    stroke=0, fill=1)
    canvas.setFillColorRGB(grey, grey, grey)
    canvas.setFont(font, size)
    canvas.drawCentredString(0, -(ascent - descent) / 2, text)
    canvas.restoreState()


def _pen(canvas, grey: float, width: float, dash=()) -> None:
    canvas.setStrokeColorRGB(grey, grey, grey)
    canvas.setLineWidth(width)
    canvas.setDash(list(dash))


def _cut_line(canvas, fonts: FontSet, seam: Seam, win: Rect, turn: float = 0) -> None:
    """A dashed line over a white one (visible on any board), and its label just outside the tile."""
    (lo, hi), at = seam.span, seam.line
    (x0, y0), (x1, y1) = ((at, lo), (at, hi)) if seam.vertical else ((lo, at), (hi, at))
    canvas.saveState()
    canvas.setLineCap(0)
    for grey, width, dash in ((1, 1.6, ()), (0, 0.6, (3 * MM, 2 * MM))):
        _pen(canvas, grey, width, dash)
        canvas.line(x0 * MM, y0 * MM, x1 * MM, y1 * MM)
    canvas.restoreState()
    out = MARK_GAP + LINE / 2
    centre = (win.x1 + out, (lo + hi) / 2) if seam.vertical else ((lo + hi) / 2, win.y0 - out)
    _label(canvas, fonts, CUT_LABEL, *centre, 90 if seam.vertical else 0, frame_turn=turn)


def _glue_zone(canvas, fonts: FontSet, seam: Seam, turn: float = 0) -> None:
    """Grey 45° hatching clipped to the zone by arithmetic (no clip path), with its label on white."""
    r = seam.glue_rect
    offsets = [k * HATCH_STEP for k in range(math.ceil((r.x0 - r.y1) / HATCH_STEP),
                                             math.floor((r.x1 - r.y0) / HATCH_STEP) + 1)]
    spans = [(c, max(r.x0, r.y0 + c), min(r.x1, r.y1 + c)) for c in offsets]       # the line y = x - c
    canvas.saveState()
    _pen(canvas, 0.55, 0.4)
    canvas.lines([(a * MM, (a - c) * MM, b * MM, (b - c) * MM) for c, a, b in spans if b - a > EPS])
    canvas.restoreState()
    _label(canvas, fonts, GLUE_LABEL, *r.centre, 90 if seam.vertical else 0, halo=True, frame_turn=turn)


def _target(canvas, x: float, y: float, arm: float) -> None:
    """A crosshair (circle and a diagonal cross) as one path, black over a white halo. The cross is turned 45°
    so that no target reads as a crop mark or a registration cross: four targets of a middle tile would
    otherwise frame a phantom card for a preflight (and for an eye looking for where to cut)."""
    path = canvas.beginPath()
    path.circle(x * MM, y * MM, min(TARGET_RADIUS, arm * 0.6) * MM)
    d = arm / math.sqrt(2)
    for (x0, y0), (x1, y1) in (((x - d, y - d), (x + d, y + d)), ((x - d, y + d), (x + d, y - d))):
        path.moveTo(x0 * MM, y0 * MM)
        path.lineTo(x1 * MM, y1 * MM)
    canvas.saveState()
    for grey, width in ((1, 1.2), (0, 0.35)):
        _pen(canvas, grey, width)
        canvas.drawPath(path, stroke=1, fill=0)
    canvas.restoreState()


def _map_group(fonts: FontSet, board: tuple[float, float], long: float) -> tuple[float, float]:
    title, scale = stringWidth(MAP_TITLE, fonts.name("body"), TEXT_SIZE) / MM, long / max(board)
    return max(board[0] * scale, title), board[1] * scale + LINE


def _draw_map(canvas, fonts: FontSet, plan: TilePlan, col: int, row: int) -> None:
    """The whole board cut at its seams, in the board's orientation on the page, this tile filled."""
    m = plan.map_rect
    gw, gh = (m.height, m.width) if plan.rotated else (m.width, m.height)
    scale = plan.map_long / max(plan.board)
    left = (gw - plan.board[0] * scale) / 2
    xs, ys = plan.cuts()
    with _placed(canvas, plan.map_rect, Rect(0, 0, gw, gh), plan.rotated):
        _label(canvas, fonts, MAP_TITLE, gw / 2, gh - LINE / 2, 0)
        _pen(canvas, 0, 0.5)
        for r, c in itertools.product(range(plan.rows), range(plan.cols)):
            x0, x1 = left + xs[c] * scale, left + xs[c + 1] * scale
            y0, y1 = ys[r + 1] * scale, ys[r] * scale
            here = (c, r) == (col, row)
            canvas.setFillColorRGB(*((0.3,) * 3 if here else (1, 1, 1)))
            canvas.rect(x0 * MM, y0 * MM, (x1 - x0) * MM, (y1 - y0) * MM, stroke=1, fill=1)
            name = tile_name(c, r)
            if stringWidth(name, fonts.bold("body"), MAP_LABEL_SIZE) / MM < x1 - x0 - 0.5 and y1 - y0 > 2.5:
                _label(canvas, fonts, name, (x0 + x1) / 2, (y0 + y1) / 2, 0, size=MAP_LABEL_SIZE, bold=here,
                       grey=1.0 if here else 0.0)
