"""Token sheets: small single-sided pieces of several sizes sharing home sheets, in shelves.

A game's tokens (pawns, coins, buses, supporters, tickets, a calendar strip…) come in a few sizes and a few
dozen each: one sheet per kind would leave most of each page empty. Here every piece is a *unit*:

- a single-sided piece is its front;
- a two-sided piece is a fold-over pair: its front, and its back beside it to the right, the two sharing
  the fold line (small grey triangles above and below the block point at it). Cut the pair out, fold,
  glue: the back is the front's mirror about the fold, so it lands behind its own front whatever the
  printer's duplex drift, which shows most on a piece under ~20 mm.

Units of one size form a block, a grid with shared cut lines filling rows from the top; blocks follow
one another down the page in the order given, a new page when a row no longer fits. Between two blocks the
gap holds one mark length: the upper block's marks below it and the lower block's above it share that band
(one mark for both where their cut lines meet; each mark continues the cut line of its block). A
preflight that reads one grid a page sees the gap as a gutter, not a phantom row of cards. Margins, bands
and marks follow the print-and-play norm of pipeline/render/sheets/plan.py: nothing within CARD_EDGE /
MARK_EDGE of the edge, crop marks MARK_MAX long.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from typing import Sequence

from pipeline.core.errors import PipelineError, Problem
from pipeline.core.output import deliver
from pipeline.core.printing import PrintOptions
from pipeline.core.units import MM, PAPERS_MM
from pipeline.render.fonts import default_fonts
from pipeline.render.pdf import new_canvas
from pipeline.render.sheets.decor import FOOTER_NOTES, draw_footer, draw_header, draw_marks, footer_items
from pipeline.render.sheets.imposition import Face, FaceForms
from pipeline.render.sheets.marks import crop_marks
from pipeline.render.sheets.plan import (BAND_EDGES, BAND_GAP, Band, CARD_EDGE, EPS, LINE, MARK_EDGE, MARK_GAP,
                                         MARK_MAX, Rect, SheetPlan, Slot, footer_line_count)

FOLD_MODE = "tokens"                               # footer note of a sheet with fold-over pairs (FOOTER_NOTES)
BLOCK_GAP = 2 * MARK_GAP + MARK_MAX                # between two blocks: their marks share the gap
SIDE = MARK_EDGE + MARK_MAX + MARK_GAP             # from the paper's side edge to the pieces
FOLD_ARROW = 2.0                                   # mm: the grey triangle pointing at a pair's fold line


@dataclass(frozen=True)
class Piece:
    """One token: its front, and its back when it has one (printed beside it, to fold over)."""

    front: Face
    back: Face | None = None

    @property
    def unit_mm(self) -> tuple[float, float]:
        w, h = self.front.width / MM, self.front.height / MM
        return (2 * w, h) if self.back is not None else (w, h)


@dataclass(frozen=True)
class Placed:
    piece: Piece
    rect: Rect                 # the unit's trim (both halves of a pair)
    rotated: bool              # turned 90°: a unit that fits the sheet only that way

    def slots(self) -> list[tuple[Face, Slot]]:
        r, turn = self.rect, 90 if self.rotated else 0
        if self.piece.back is None:
            return [(self.piece.front, Slot(r, turn))]
        # the pair is split across its longer side: the fold runs between the two halves
        if self.rotated:
            mid = (r.y0 + r.y1) / 2
            front, back = Rect(r.x0, mid, r.x1, r.y1), Rect(r.x0, r.y0, r.x1, mid)
        else:
            mid = (r.x0 + r.x1) / 2
            front, back = Rect(r.x0, r.y0, mid, r.y1), Rect(mid, r.y0, r.x1, r.y1)
        # folding mirrors the back about the fold: about a vertical fold it stays upright (like a long-edge
        # duplex flip), about a horizontal one it turns by 180 - the front's turn (like fold-over sheets)
        back_turn = (180 - turn) % 360 if self.rotated else (-turn) % 360
        return [(self.piece.front, Slot(front, turn)), (self.piece.back, Slot(back, back_turn))]

    @property
    def fold(self) -> tuple[str, float] | None:
        if self.piece.back is None:
            return None
        r = self.rect
        return ("h", (r.y0 + r.y1) / 2) if self.rotated else ("v", (r.x0 + r.x1) / 2)


@dataclass(frozen=True)
class TokenFrame:
    """What a token page leaves for pieces, and its header and footer bands."""

    paper: tuple[float, float]
    area: Rect
    header: Band
    footer: Band
    footer_lines: int


def token_frame(paper_name: str, folds: bool = True) -> TokenFrame:
    """`folds`: the footer carries the fold-over note (a sheet with two-sided pieces)."""
    pw, ph = PAPERS_MM[paper_name]
    edge = BAND_EDGES[0]
    lines = footer_line_count(footer_items(default_fonts(), FOLD_MODE if folds else "none"), pw - 2 * edge)
    header = Band(Rect(edge, ph - edge - LINE, pw - edge, ph - edge), False)
    footer = Band(Rect(edge, edge, pw - edge, edge + LINE * lines), False)
    top = header.rect.y0 - BAND_GAP - MARK_MAX - MARK_GAP
    bottom = footer.rect.y1 + BAND_GAP + MARK_MAX + MARK_GAP
    side = max(SIDE, CARD_EDGE)
    return TokenFrame((pw, ph), Rect(side, bottom, pw - side, top), header, footer, lines)


def plan_tokens(pieces: Sequence[Piece], paper_name: str, where: str = "tokens") -> list[list[list[Placed]]]:
    """Pages of blocks of placed units. A unit that fits no page either way up is a PipelineError."""
    frame = token_frame(paper_name, any(piece.back is not None for piece in pieces))
    area = frame.area
    pages: list[list[list[Placed]]] = [[]]
    y = area.y1                                      # top of the free room on the current page
    for size, group in _runs(pieces):
        w, h, rotated = _orient(size, area)
        if w is None:
            raise PipelineError(Problem(where, f"a {size[0]:g}×{size[1]:g} mm piece does not fit on "
                                        f"{paper_name} paper with its crop marks", "imposition"))
        cols = max(1, math.floor((area.width + EPS) / w))
        x0 = area.x0 + (area.width - cols * w) / 2
        block: list[Placed] = []
        for index in range(0, len(group), cols):
            if block:
                top = block[-1].rect.y0
            else:
                top = y - BLOCK_GAP if pages[-1] else area.y1
            if top - h < area.y0 - EPS:              # no room for this row: close the block, new page
                if block:
                    pages[-1].append(block)
                pages.append([])
                block, top = [], area.y1
            row = group[index:index + cols]
            block.extend(Placed(piece, Rect(x0 + i * w, top - h, x0 + (i + 1) * w, top), rotated)
                         for i, piece in enumerate(row))
        pages[-1].append(block)
        y = block[-1].rect.y0
    return pages


def _runs(pieces: Sequence[Piece]) -> list[tuple[tuple[float, float], list[Piece]]]:
    """Consecutive pieces of one unit size, as blocks."""
    runs: list[tuple[tuple[float, float], list[Piece]]] = []
    for piece in pieces:
        size = tuple(round(v, 3) for v in piece.unit_mm)
        if runs and runs[-1][0] == size:
            runs[-1][1].append(piece)
        else:
            runs.append((size, [piece]))
    return runs


def _orient(size: tuple[float, float], area: Rect):
    w, h = size
    if w <= area.width + EPS and h <= area.height + EPS:
        return w, h, False
    if h <= area.width + EPS and w <= area.height + EPS:
        return h, w, True
    return None, None, False


def write_tokens(target, pieces: Sequence[Piece], options: PrintOptions) -> dict:
    """The token sheets (single-sided), with crop marks per block and fold ticks per pair."""
    pages = plan_tokens(pieces, options.paper, "token sheet")
    folds = any(piece.back is not None for piece in pieces)
    frame = token_frame(options.paper, folds)
    fonts = default_fonts()
    pw, ph = frame.paper
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, (pw * MM, ph * MM), fonts,
                        title=" · ".join(t for t in (options.game_title, options.component_title) if t))
    faces = [face for piece in pieces for face in (piece.front, piece.back) if face is not None]
    forms = FaceForms(canvas, faces)
    for number, blocks in enumerate(pages, 1):
        for block in blocks:
            for placed in block:
                for face, slot in placed.slots():
                    forms.ensure(face)
                    forms.place(face, slot, 0.0)
        segments, folds = [], []
        for block in blocks:
            plan = _mark_plan(frame, block)
            segments.extend(crop_marks(plan, [[p.rect for p in block]]))
            folds.extend(_fold_ticks(block))
        draw_marks(canvas, segments)
        _draw_folds(canvas, folds)
        parts = [t for t in (options.game_title, options.component_title) if t]
        if options.ink_saver:
            parts.append("version économie d'encre")
        parts.append(f"page {number}/{len(pages)}")
        draw_header(canvas, fonts, frame.header, " · ".join(parts))
        draw_footer(canvas, fonts, frame.footer, frame.footer_lines, FOOTER_NOTES.get(FOLD_MODE, ()) if folds else ())
        canvas.showPage()
    canvas.save()
    deliver(target, buffer.getvalue())
    return {"pages": len(pages), "sheets": len(pages), "backs_mode": "none", "paper": options.paper,
            "pieces": len(pieces), "fold_pairs": sum(p.back is not None for p in pieces),
            "mark_length_mm": [MARK_MAX, MARK_MAX], "forms": len(forms.names)}


def _mark_plan(frame: TokenFrame, block: list[Placed]) -> SheetPlan:
    """A SheetPlan shaped enough for crop_marks: shared cuts, MARK_MAX on both axes, no fold."""
    r = block[0].rect
    return SheetPlan(frame.paper, (r.width, r.height), 0.0, 1, 1, False, False, MARK_MAX, MARK_MAX, False,
                     frame.footer_lines, False, (r.x0, r.y0))


def _fold_ticks(block: list[Placed]) -> list[tuple[tuple[float, float], str]]:
    """Each pair's fold line, pointed at from outside the block (above and below, or left and right):
    (where the arrow's tip is, the way it points)."""
    x0 = min(p.rect.x0 for p in block)
    x1 = max(p.rect.x1 for p in block)
    y0 = min(p.rect.y0 for p in block)
    y1 = max(p.rect.y1 for p in block)
    folds = sorted({(placed.fold[0], round(placed.fold[1], 6)) for placed in block if placed.fold is not None})
    arrows = []
    for kind, at in folds:
        if kind == "v":
            arrows += [((at, y1 + MARK_GAP), "down"), ((at, y0 - MARK_GAP), "up")]
        else:
            arrows += [((x0 - MARK_GAP, at), "right"), ((x1 + MARK_GAP, at), "left")]
    return arrows


def _draw_folds(canvas, arrows) -> None:
    """Small grey triangles pointing at the fold lines: a fold, not a cut (closed shapes, never read as
    crop marks)."""
    if not arrows:
        return
    canvas.saveState()
    canvas.setFillColorRGB(0.45, 0.45, 0.45)
    for (x, y), way in arrows:
        dx, dy = {"down": (0, 1), "up": (0, -1), "right": (-1, 0), "left": (1, 0)}[way]
        base = (x + dx * FOLD_ARROW, y + dy * FOLD_ARROW)
        half = (dy * FOLD_ARROW / 2, dx * FOLD_ARROW / 2)
        path = canvas.beginPath()
        path.moveTo(x * MM, y * MM)
        path.lineTo((base[0] + half[0]) * MM, (base[1] + half[1]) * MM)
        path.lineTo((base[0] - half[0]) * MM, (base[1] - half[1]) * MM)
        path.close()
        canvas.drawPath(path, stroke=0, fill=1)
    canvas.restoreState()
