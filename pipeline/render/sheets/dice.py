"""Printable dice: cube nets with glue tabs, and sticker sheets for blank dice. Knows nothing of any game:
a die is six finished faces (face 1..6) and a count.

Each face is drawn once per PDF as a form XObject, at its template's size, and placed scaled into every
square that shows it (a net's face, a sticker): one drawing, two sizes. Geometry lives in dice_plan.py; this
module only draws what the plans say and the words a playtester needs (header, what to cut, fold and glue,
which faces face each other).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from reportlab.pdfbase.pdfmetrics import stringWidth

from pipeline.core.errors import PipelineError, Problem
from pipeline.core.output import deliver
from pipeline.core.printing import PrintOptions
from pipeline.core.units import MM, PAPERS_MM
from pipeline.render.fonts import FontSet, default_fonts
from pipeline.render.glyphs import draw_string, fitted, string_width
from pipeline.render.pdf import new_canvas
from pipeline.render.sheets.decor import MIN_TEXT_SIZE, TEXT_SIZE, draw_footer, draw_header, draw_marks, footer_items
from pipeline.render.sheets.dice_plan import (DIE_FACES, MARK_ZONE, NetPlan, NetShape, STICKER_LABEL, StickerGroup,
                                              StickerPlan, cube_net, outer_marks, page_frame, plan_nets, plan_stickers)
from pipeline.render.sheets.imposition import Face
from pipeline.render.sheets.plan import Band, PAGE_MARGIN, Rect

CUT_WIDTH = 0.5             # points: the solid outline of a net
FOLD_WIDTH = 0.4
FOLD_GREY = 0.45            # a fold is grey and dashed, a cut black and solid
FOLD_DASH = (1.2, 0.8)      # mm
TAB_GREY = 0.88
FOLD_PIECES = 4
NET_NOTE = "Couper le trait plein · plier les pointillés · coller les languettes grises à l’intérieur"
STICKER_NOTES = ("Couper en bandes entre les repères, puis en carrés",
                 "Sur le dé : face 1 opposée à 6, 2 à 5, 3 à 4 (numéros en tête de colonne)")
SQUARE_TOLERANCE = 0.01     # mm


@dataclass(frozen=True)
class DieFaces:
    """One kind of die, laid out: its six faces (face 1 first), how many to print and its words."""

    label: str                  # short code on the glue tab and the sticker rows
    caption: str                # the sticker group's title
    count: int
    faces: tuple[Face, ...]


# --- planning (before anything is written) ----------------------------------------------------------------

def _footer_lengths(fonts: FontSet, notes: tuple[str, ...]) -> tuple[float, ...]:
    font = fonts.name("body")
    return footer_items(fonts, "") + tuple(stringWidth(note, font, TEXT_SIZE) / MM for note in notes)


def net_plan(paper: str, face_mm: float) -> NetPlan | None:
    return plan_nets(page_frame(paper, _footer_lengths(default_fonts(), (NET_NOTE,))), face_mm)


def sticker_plan(paper: str, sticker_mm: float, counts: Sequence[int]) -> StickerPlan | None:
    return plan_stickers(page_frame(paper, _footer_lengths(default_fonts(), STICKER_NOTES)), sticker_mm, list(counts))


def plan_problems(paper: str, face_mm: float, sticker_mm: float, counts: Sequence[int]
                  ) -> tuple[NetPlan | None, StickerPlan | None, list[str]]:
    """Both plans for one paper, and what does not fit, in words (the caller knows where it comes from)."""
    if face_mm <= 0 or sticker_mm <= 0:
        return None, None, [f"face size {face_mm:g} mm and sticker size {sticker_mm:g} mm must be positive"]
    messages = []
    nets, stickers = net_plan(paper, face_mm), sticker_plan(paper, sticker_mm, counts)
    if nets is None:
        w, h = cube_net(face_mm).size
        region = page_frame(paper, _footer_lengths(default_fonts(), (NET_NOTE,))).region
        messages.append(f"a cube net of {face_mm:g} mm faces measures {w:.1f}×{h:.1f} mm with its tabs: it "
                        f"does not fit, either way up, the {region.width:.1f}×{region.height:.1f} mm that "
                        f"{paper} paper leaves inside {PAGE_MARGIN:g} mm margins, the header and the footer")
    if stickers is None:
        messages.append(f"a row of six {sticker_mm:g} mm stickers with its label and crop marks does not fit "
                        f"on {paper} paper inside {PAGE_MARGIN:g} mm margins")
    return nets, stickers, messages


# --- drawing ---------------------------------------------------------------------------------------------

class _Forms:
    """One form XObject per distinct face key in one PDF, named in order of first use."""

    def __init__(self, canvas):
        self.canvas, self.names = canvas, {}

    def place(self, face: Face, square: Rect, turn: int = 0) -> None:
        """The face scaled into `square` (mm, in the current coordinates), turned `turn` degrees
        counter-clockwise about its centre, clipped to its trim."""
        if abs(face.width - face.height) > SQUARE_TOLERANCE * MM:
            raise ValueError(f"die face {face.key!r} is not square")
        c = self.canvas
        name = self.names.get(face.key)
        if name is None:
            name = self.names[face.key] = f"DieFace{len(self.names)}"
            b = face.bleed
            c.beginForm(name, -b, -b, face.width + b, face.height + b)
            face.draw(c)
            c.endForm()
        scale = square.width * MM / face.width
        cx, cy = square.centre
        c.saveState()
        c.translate(cx * MM, cy * MM)
        if turn:
            c.rotate(turn)
        c.scale(scale, scale)
        c.translate(-face.width / 2, -face.height / 2)
        path = c.beginPath()
        path.rect(0, 0, face.width, face.height)
        c.clipPath(path, stroke=0, fill=0)
        c.doForm(name)
        c.restoreState()


def _check(where: str, dice: Sequence[DieFaces]) -> None:
    problems = [Problem(where, f"die {d.label!r} has {len(d.faces)} faces, not {DIE_FACES}", "imposition")
                for d in dice if len(d.faces) != DIE_FACES]
    if not any(d.count for d in dice):
        problems.append(Problem(where, "no dice to print", "imposition"))
    if problems:
        raise PipelineError(problems)


def _canvas(buffer, options: PrintOptions, fonts: FontSet):
    pw, ph = PAPERS_MM[options.paper]
    title = " · ".join(t for t in (options.game_title, options.component_title) if t)
    return new_canvas(buffer, (pw * MM, ph * MM), fonts, title=title)


def _header(canvas, fonts: FontSet, frame, options: PrintOptions, what: str, page: int, pages: int) -> None:
    parts = [t for t in (options.game_title, options.component_title) if t] + [what, f"page {page}/{pages}"]
    draw_header(canvas, fonts, Band(frame.header, False), " · ".join(parts))


def _fit(text: str, fonts: FontSet, role: str, size: float, room: float) -> tuple[str, float]:
    """Shrink to the minimum printed size, then shorten with an ellipsis: a label never leaves its place."""
    font = fonts.name(role)
    return fitted(text, font, size, room * MM, MIN_TEXT_SIZE, fonts.behind(font))


def _centred_text(canvas, fonts: FontSet, role: str, text: str, size: float, x: float, y: float,
                  align: str = "centre") -> None:
    """Text whose glyphs are centred vertically on y (mm), centred on x or ending at x; a die's label and
    caption are the designer's: drawn with the fallback chain."""
    font = fonts.name(role)
    ascent, descent = fonts.ascent(role) * size, fonts.descent(role) * size
    baseline = y * MM - (ascent - descent) / 2
    draw_string(canvas, x * MM, baseline, text, font, size, fonts.behind(font), align)


# --- nets ------------------------------------------------------------------------------------------------

def write_nets(target, dice: Sequence[DieFaces], plan: NetPlan, options: PrintOptions) -> dict:
    """One cube net per die, the kinds one after the other, `plan.per_page` nets a page."""
    where = str(target) if isinstance(target, (str, Path)) else "dice nets"
    _check(where, dice)
    fonts = default_fonts()
    copies = [(die, copy) for die in dice for copy in range(die.count)]
    per_page = plan.per_page
    pages = -(-len(copies) // per_page)
    buffer = io.BytesIO()
    canvas = _canvas(buffer, options, fonts)
    forms = _Forms(canvas)
    for page in range(pages):
        for (die, copy), slot in zip(copies[page * per_page:(page + 1) * per_page], plan.slots):
            canvas.saveState()
            if slot.rotated:
                canvas.translate(slot.rect.x1 * MM, slot.rect.y0 * MM)
                canvas.rotate(90)
            else:
                canvas.translate(slot.rect.x0 * MM, slot.rect.y0 * MM)
            _draw_net(canvas, fonts, forms, plan.shape, die, f"{die.label} {copy + 1}/{die.count}",
                      -90 if slot.rotated else 0)
            canvas.restoreState()
        _header(canvas, fonts, plan.frame, options, "patrons à plier", page + 1, pages)
        draw_footer(canvas, fonts, Band(plan.frame.footer, False), plan.frame.footer_lines, (NET_NOTE,))
        canvas.showPage()
    canvas.save()
    deliver(target, buffer.getvalue())
    return {"pages": pages, "paper": options.paper, "nets": len(copies), "nets_per_page": per_page,
            "turned_per_page": sum(1 for s in plan.slots if s.rotated), "face_mm": plan.shape.edge,
            "tab_mm": plan.shape.tab, "net_mm": plan.shape.size, "forms": len(forms.names)}


def _draw_net(canvas, fonts: FontSet, forms: _Forms, shape: NetShape, die: DieFaces, label: str, face_turn: int
              ) -> None:
    """In the net's own frame (mm from its bounding box's bottom-left): tabs, faces, folds, then the cut.
    A die does not care which way up a face is glued, so the faces of a turned net are turned back
    (`face_turn`) and every face on the sheet reads upright."""
    canvas.setFillGray(TAB_GREY)
    for tab in shape.tabs:
        _polygon(canvas, tab, stroke=False, fill=True)
    for number, square in shape.faces:
        forms.place(die.faces[number - 1], square, face_turn)
    tab = shape.tabs[shape.label_tab]
    (x0, y0), (x1, _) = tab[0], tab[-1]
    depth = tab[1][1] - y0
    room = abs(x1 - x0) - 2 * abs(tab[1][0] - x0) * 0.75
    text, size = _fit(label, fonts, "body", MIN_TEXT_SIZE, room)
    canvas.setFillGray(0)
    _centred_text(canvas, fonts, "body", text, size, (x0 + x1) / 2, y0 + depth / 2)
    canvas.setStrokeGray(FOLD_GREY)
    canvas.setLineWidth(FOLD_WIDTH)
    canvas.setDash([d * MM for d in FOLD_DASH])
    canvas.setLineCap(0)
    path = canvas.beginPath()
    for a, b in shape.folds:
        # four collinear pieces: a fold is one dashed stroke to the eye, and a preflight that looks for
        # crop marks (straight strokes of one to three pieces) does not take it for one
        path.moveTo(a[0] * MM, a[1] * MM)
        for k in range(1, FOLD_PIECES + 1):
            t = k / FOLD_PIECES
            path.lineTo((a[0] + t * (b[0] - a[0])) * MM, (a[1] + t * (b[1] - a[1])) * MM)
    canvas.drawPath(path, stroke=1, fill=0)
    canvas.setDash([])
    canvas.setStrokeGray(0)
    canvas.setLineWidth(CUT_WIDTH)
    canvas.setLineJoin(0)
    _polygon(canvas, shape.outline, stroke=True, fill=False)


def _polygon(canvas, points, stroke: bool, fill: bool) -> None:
    path = canvas.beginPath()
    path.moveTo(points[0][0] * MM, points[0][1] * MM)
    for x, y in points[1:]:
        path.lineTo(x * MM, y * MM)
    path.close()
    canvas.drawPath(path, stroke=1 if stroke else 0, fill=1 if fill else 0)


# --- stickers --------------------------------------------------------------------------------------------

def write_stickers(target, dice: Sequence[DieFaces], plan: StickerPlan, options: PrintOptions) -> dict:
    """Six stickers per die in rows (face 1..6 of a die side by side), grouped by kind, each row labelled,
    face numbers over the columns and crop marks around the page's grid."""
    where = str(target) if isinstance(target, (str, Path)) else "dice stickers"
    _check(where, dice)
    fonts = default_fonts()
    counts = [die.count for die in dice]
    buffer = io.BytesIO()
    canvas = _canvas(buffer, options, fonts)
    forms = _Forms(canvas)
    stickers = 0
    for index, groups in enumerate(plan.pages):
        cells = []
        for group in groups:
            group_cells = plan.cells(group, counts)
            for _, face, square in group_cells:
                forms.place(dice[group.die].faces[face - 1], square)
            _row_labels(canvas, fonts, plan, group, dice[group.die])
            cells.extend(group_cells)
        draw_marks(canvas, outer_marks([square for _, _, square in cells]))
        _face_numbers(canvas, fonts, plan, groups[0].block)
        stickers += len(cells)
        _header(canvas, fonts, plan.frame, options, "autocollants", index + 1, len(plan.pages))
        draw_footer(canvas, fonts, Band(plan.frame.footer, False), plan.frame.footer_lines, STICKER_NOTES)
        canvas.showPage()
    canvas.save()
    deliver(target, buffer.getvalue())
    return {"pages": len(plan.pages), "paper": options.paper, "stickers": stickers, "sticker_mm": plan.sticker,
            "dice_per_row": plan.per_row, "forms": len(forms.names)}


def _face_numbers(canvas, fonts: FontSet, plan: StickerPlan, block: Rect) -> None:
    """1..6 over each die's six columns, between the crop marks above the grid."""
    canvas.setFillGray(0)
    y = block.y1 + MARK_ZONE / 2 + 0.5
    for column in range(plan.per_row * DIE_FACES):
        x = block.x0 + (column + 0.5) * plan.sticker
        _centred_text(canvas, fonts, "bold", str(column % DIE_FACES + 1), TEXT_SIZE, x, y)


def _row_labels(canvas, fonts: FontSet, plan: StickerPlan, group: StickerGroup, die: DieFaces) -> None:
    """Every row names its die; a group's first row also gives the die's caption (and "suite" when the
    kind began on an earlier page)."""
    s, right = plan.sticker, group.block.x0 - MARK_ZONE - 1
    room = STICKER_LABEL - 1
    canvas.setFillGray(0)
    for r in range(group.rows):
        lines = [(die.label + (" (suite)" if group.continued and r == 0 else ""), "bold", TEXT_SIZE + 1)]
        if r == 0 and die.caption:
            lines += [(line, "body", MIN_TEXT_SIZE + 0.5) for line in _wrap(die.caption, fonts, room, 2)]
        step = 2.9
        y = group.block.y1 - (r + 0.5) * s + (len(lines) - 1) * step / 2
        for text, role, size in lines:
            text, size = _fit(text, fonts, role, size, room)
            _centred_text(canvas, fonts, role, text, size, right, y, align="right")
            y -= step


def _wrap(text: str, fonts: FontSet, room: float, most: int) -> list[str]:
    """Words into at most `most` lines of `room` mm at the caption size (the last one may be cut later)."""
    font, size = fonts.name("body"), MIN_TEXT_SIZE + 0.5
    lines: list[str] = []
    for word in text.split():
        if lines and string_width(f"{lines[-1]} {word}", font, size, fonts.behind(font)) <= room * MM:
            lines[-1] += f" {word}"
        elif len(lines) < most:
            lines.append(word)
        else:
            lines[-1] += f" {word}"
    return lines


# --- one face per page (print service, PNG) -----------------------------------------------------------------

def unique_faces(dice: Sequence[DieFaces], names: Sequence[Sequence[str]]) -> tuple[list[Face], list[str]]:
    """Every die's six faces once, with their file names, for write_print / write_png."""
    faces, out = [], []
    for die, die_names in zip(dice, names):
        faces.extend(die.faces)
        out.extend(die_names)
    return faces, out
