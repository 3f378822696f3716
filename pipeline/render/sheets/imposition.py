"""Imposition: finished faces onto paper, never knowing what is on them.

- write_pnp: home-printing sheets (A4 or US Letter) with crop marks, a header, a calibration bar and
  backs printed duplex, folded over, or not at all;
- write_print: the print-service file, one face per page with TrimBox and BleedBox;
- write_png: every page of a print file as a 300 dpi PNG.

Each distinct face (by key) is drawn once per PDF as a form XObject and placed by reference, so a common
back costs one drawing however many cards share it. Pages are drawn as they come: nothing is kept per
face beyond the input sequences.
"""

from __future__ import annotations

from collections import Counter

import io
import itertools
from pathlib import Path
from typing import Protocol, Sequence

from pipeline.core.errors import PipelineError, Problem
from pipeline.core.output import atomic_write, deliver
from pipeline.core.printing import PrintOptions
from pipeline.core.units import MM, PAPERS_MM
from pipeline.render import png
from pipeline.render.fonts import FontSet, default_fonts
from pipeline.render.pdf import new_canvas
from pipeline.render.sheets.decor import (FOOTER_NOTES, draw_fold_line, draw_footer, draw_header, draw_marks,
                                          footer_items)
from pipeline.render.sheets.marks import crop_marks
from pipeline.render.sheets.plan import CARD_EDGE, MARK_EDGE, Rect, SheetPlan, Slot, choose_plan

SIZE_TOLERANCE = 0.01  # points: faces of one sheet must share a trim size


class Face(Protocol):
    key: str
    width: float
    height: float
    bleed: float

    def draw(self, canvas) -> None: ...


class FaceForms:
    """The form XObjects of one canvas, by face key. Names are given in order of first use, so the
    output does not depend on the keys' spelling (which may not be a valid PDF name anyway)."""

    def __init__(self, canvas, faces: Sequence[Face] = ()):
        self.canvas = canvas
        self.names: dict[str, str] = {}
        # A face placed once is drawn in place: a form per unique front would only add an object, a
        # stream header and a Do to every card. Repeated faces (common backs) become forms.
        self.uses = Counter(face.key for face in faces)

    def ensure(self, face: Face) -> str | None:
        if self.uses and self.uses[face.key] <= 1:
            return None
        name = self.names.get(face.key)
        if name is None:
            name = f"Face{len(self.names)}"
            b = face.bleed
            self.canvas.beginForm(name, -b, -b, face.width + b, face.height + b)
            face.draw(self.canvas)
            self.canvas.endForm()
            self.names[face.key] = name
        return name

    def place(self, face: Face, slot: Slot, clip_bleed: float) -> None:
        """Centre the face on the slot, turn it, and clip it to its trim grown by `clip_bleed`."""
        c = self.canvas
        cx, cy = slot.rect.centre
        c.saveState()
        c.translate(cx * MM, cy * MM)
        c.rotate(slot.rotation)
        c.translate(-face.width / 2, -face.height / 2)
        path = c.beginPath()
        path.rect(-clip_bleed, -clip_bleed, face.width + 2 * clip_bleed, face.height + 2 * clip_bleed)
        c.clipPath(path, stroke=0, fill=0)
        name = self.names.get(face.key)
        if name is None:
            face.draw(c)
        else:
            c.doForm(name)
        c.restoreState()


def plan_pnp(fronts: Sequence[Face], backs: Sequence[Face] | None, options: PrintOptions,
             where: str = "cards") -> SheetPlan:
    """The sheet plan write_pnp will follow: PipelineError, before anything is drawn, when the faces do
    not go together or a card fits no sheet of this paper."""
    mode = options.backs if backs is not None else "none"
    _check_faces(where, fronts, backs if mode != "none" else None)
    card = (fronts[0].width / MM, fronts[0].height / MM)
    reserve = tuple(abs(v) for v in options.back_offset_mm) if mode == "duplex" else (0.0, 0.0)
    plan = choose_plan(PAPERS_MM[options.paper], card, fronts[0].bleed / MM, foldover=mode == "foldover",
                       footer_items=footer_items(default_fonts(), mode), reserve=reserve,
                       keep_bleed=options.keep_bleed)
    if plan is None:
        raise PipelineError(Problem(where, f"a {card[0]:g}×{card[1]:g} mm card does not fit on "
                                    f"{options.paper} paper {CARD_EDGE:g} mm from the edge, with crop marks "
                                    f"{MARK_EDGE:g} mm from it", "imposition"))
    return plan


def write_pnp(target, fronts: Sequence[Face], backs: Sequence[Face] | None, options: PrintOptions,
              plan: SheetPlan | None = None) -> dict:
    """Home-printing card sheets; `backs[i]` is the back of `fronts[i]`; `plan` from plan_pnp (made here
    when not given). Returns what was laid out."""
    mode = options.backs if backs is not None else "none"
    plan = plan or plan_pnp(fronts, backs, options, _where(target))
    fonts = default_fonts()
    paper = PAPERS_MM[options.paper]
    per_sheet = plan.per_page
    sheets = -(-len(fronts) // per_sheet)
    pages = sheets * (2 if mode == "duplex" else 1)
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, (paper[0] * MM, paper[1] * MM), fonts,
                        title=" · ".join(t for t in (options.game_title, options.component_title) if t))
    forms = FaceForms(canvas, list(fronts) + list(backs or []) if mode != "none" else fronts)
    sheet_page = _SheetPage(canvas, forms, fonts, plan, options, mode, pages)
    for sheet in range(sheets):
        first = sheet * per_sheet
        count = min(per_sheet, len(fronts) - first)
        sheet_page.fronts(fronts, backs, first, count)
        if mode == "duplex":
            sheet_page.duplex_backs(backs, first, count)
    canvas.save()
    deliver(target, buffer.getvalue())
    return {"pages": pages, "sheets": sheets, "cards_per_page": per_sheet, "grid": (plan.cols, plan.rows),
            "rotated": plan.rotated, "bleed_mode": "bleed" if plan.bleed_mode else "shared-cut",
            "backs_mode": mode, "paper": options.paper, "mark_length_mm": [plan.mark_x, plan.mark_y],
            "side_bands": plan.side_bands, "forms": len(forms.names)}


class _SheetPage:
    """Draws the pages of one card-sheet PDF; keeps only the page counter between pages."""

    def __init__(self, canvas, forms: FaceForms, fonts: FontSet, plan: SheetPlan, options: PrintOptions,
                 mode: str, pages: int):
        self.canvas, self.forms, self.fonts, self.plan = canvas, forms, fonts, plan
        self.options, self.mode, self.pages = options, mode, pages
        self.page = 0
        # shared cut lines: a face may not spill onto its neighbour, so it is clipped to its trim
        self.clip = plan.bleed if plan.bleed_mode else 0.0

    def fronts(self, fronts, backs, first: int, count: int) -> None:
        plan = self.plan
        placed = [(fronts[first + i], plan.front_slot(i)) for i in range(count)]
        blocks = [[slot.rect for _, slot in placed]]
        if self.mode == "foldover":
            folded = [(backs[first + i], plan.fold_back_slot(i)) for i in range(count)]
            placed += folded
            blocks.append([slot.rect for _, slot in folded])
        self._page(placed, blocks, side="recto" if self.mode == "duplex" else "")
        if self.mode == "foldover":
            draw_fold_line(self.canvas, self.fonts, plan)
        self.canvas.showPage()

    def duplex_backs(self, backs, first: int, count: int) -> None:
        offset = self.options.back_offset_mm
        placed = [(backs[first + i], self.plan.duplex_back_slot(i, offset)) for i in range(count)]
        # marks on the back too: they show the backs' cut lines, and the printer's register against
        # the front marks when the sheet is held up to the light
        self._page(placed, [[slot.rect for _, slot in placed]], side="verso")
        self.canvas.showPage()

    def _page(self, placed, blocks: list[list[Rect]], side: str) -> None:
        self.page += 1
        for face, _ in placed:
            self.forms.ensure(face)
        for face, slot in placed:
            self.forms.place(face, slot, min(self.clip, face.bleed / MM) * MM)
        draw_marks(self.canvas, crop_marks(self.plan, blocks))
        draw_header(self.canvas, self.fonts, self.plan.header, self._header_text(side))
        draw_footer(self.canvas, self.fonts, self.plan.footer, self.plan.footer_lines,
                    FOOTER_NOTES.get(self.mode, ()))

    def _header_text(self, side: str) -> str:
        o = self.options
        parts = [t for t in (o.game_title, o.component_title) if t]
        if o.ink_saver:
            parts.append("version économie d'encre")
        if self.mode == "foldover":
            parts.append("à plier")
        parts.append(f"page {self.page}/{self.pages}" + (f" ({side})" if side else ""))
        return " · ".join(parts)


def write_print(target, faces: Sequence[Face], title: str) -> dict:
    """Print-service file: one face per page; the page is the bleed box, TrimBox and BleedBox are set."""
    where = _where(target)
    if not faces:
        raise PipelineError(Problem(where, "no faces to write", "imposition"))
    fonts = default_fonts()
    buffer = io.BytesIO()
    first = faces[0]
    canvas = new_canvas(buffer, _bleed_size(first), fonts, title=title)
    forms = FaceForms(canvas, faces)
    for face in faces:
        b = face.bleed
        width, height = _bleed_size(face)
        canvas.setPageSize((width, height))
        canvas.setTrimBox((b, b, b + face.width, b + face.height))
        canvas.setBleedBox((0, 0, width, height))
        forms.ensure(face)
        rect = Rect(0, 0, width / MM, height / MM)
        forms.place(face, Slot(rect, 0), b)
        canvas.showPage()
    canvas.save()
    deliver(target, buffer.getvalue())
    return {"pages": len(faces), "forms": len(forms.names), "trim_mm": (first.width / MM, first.height / MM),
            "bleed_mm": first.bleed / MM}


def write_png(print_pdf_path, out_dir, names: Sequence[str], dpi: int = 300,
              keys: Sequence[str] | None = None) -> list[Path]:
    """Every page of a print PDF as `<out_dir>/<name>.png` at `dpi`, bleed included. `keys`, one per page, are
    the faces' keys (Face.key: the same key, the same drawing): a page whose key came before gets that page's
    bytes, not a second rasterising and encoding (a deck's copies, a back shared by every card)."""
    import pypdfium2 as pdfium

    out_dir = Path(out_dir)
    written, drawn = [], {}
    pdf = pdfium.PdfDocument(str(print_pdf_path))
    try:
        if len(pdf) != len(names) or (keys is not None and len(keys) != len(names)):
            raise PipelineError(Problem(str(print_pdf_path), f"{len(pdf)} pages but {len(names)} image names",
                                        "imposition"))
        for index, name in enumerate(names):
            key = keys[index] if keys is not None else None
            data = drawn.get(key) if key is not None else None
            if data is None:
                data = _png_page(pdf[index], dpi)
                if key is not None:
                    drawn[key] = data
            path = out_dir / f"{name}.png"
            atomic_write(path, data)
            written.append(path)
    finally:
        pdf.close()
    return written


def _png_page(page, dpi: int) -> bytes:
    try:
        image = page.render(scale=dpi / 72.0, rev_byteorder=True).to_pil()
        # pdfium rounds the bitmap size up; a partial last pixel row or column is dropped
        size = (round(page.get_width() * dpi / 72.0), round(page.get_height() * dpi / 72.0))
        if image.size != size:
            image = image.crop((0, 0, *size))
        return png.encode(image, dpi)
    finally:
        page.close()


def _bleed_size(face: Face) -> tuple[float, float]:
    return face.width + 2 * face.bleed, face.height + 2 * face.bleed


def _where(target) -> str:
    return str(target) if isinstance(target, (str, Path)) else "card sheet"


def _check_faces(where: str, fronts: Sequence[Face], backs: Sequence[Face] | None) -> None:
    if not fronts:
        raise PipelineError(Problem(where, "no cards to impose", "imposition"))
    if backs is not None and len(backs) != len(fronts):
        raise PipelineError(Problem(where, f"{len(fronts)} fronts but {len(backs)} backs", "imposition"))
    w, h = fronts[0].width, fronts[0].height
    for face in itertools.chain(fronts, backs or ()):
        if abs(face.width - w) > SIZE_TOLERANCE or abs(face.height - h) > SIZE_TOLERANCE:
            raise PipelineError(Problem(where, f"face {face.key!r} is {face.width / MM:.1f}×"
                                        f"{face.height / MM:.1f} mm, the sheet's cards are "
                                        f"{w / MM:.1f}×{h / MM:.1f} mm", "imposition"))
