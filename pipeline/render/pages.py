"""Write-on pages (score sheets, player aids to fill in): one face per page, no crop marks.

Each face is centred in the usable box of the paper and clipped to its trim (its bleed would only print a
frame of colour around it; a write-on page is not cut). A face that only fits turned (a landscape sheet) is
turned 90° counter-clockwise; the header stays upright. The usable box is what the 10 mm margins and the
header band leave:

    x: 10 mm .. paper width - 10 mm
    y: 10 mm .. paper height - 10 mm - HEADER_BAND (3.5 mm line + 1.5 mm air)

    A4      210 × 297 mm    ->  190.0 × 272.0 mm
    Letter  215.9 × 279.4   ->  195.9 × 254.4 mm
    both                    ->  190.0 × 254.4 mm   (FITS_BOTH_MM: a face this size prints on either paper)

Faces repeated by key (fifty copies of one score sheet) are drawn once as a form XObject.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Sequence

from pipeline.errors import PipelineError, Problem
from pipeline.printing import PrintOptions
from pipeline.render.fonts import default_fonts
from pipeline.render.imposition import Face, FaceForms, _deliver
from pipeline.render.pdf import new_canvas
from pipeline.render.sheetdecor import draw_header
from pipeline.render.sheetplan import BAND_GAP, LINE, PAGE_MARGIN, Band, Rect, Slot
from pipeline.units import MM, PAPERS_MM

HEADER_BAND = LINE + BAND_GAP
FIT_TOLERANCE = 0.01   # mm: a face designed at exactly the usable size fits despite float rounding


def usable_box(paper: str) -> Rect:
    """Where a face may go on `paper` (mm from the bottom-left corner), see the module docstring."""
    pw, ph = PAPERS_MM[paper]
    return Rect(PAGE_MARGIN, PAGE_MARGIN, pw - PAGE_MARGIN, ph - PAGE_MARGIN - HEADER_BAND)


def _fits_both() -> tuple[float, float]:
    boxes = [usable_box(paper) for paper in PAPERS_MM]
    return min(b.width for b in boxes), min(b.height for b in boxes)


FITS_BOTH_MM = _fits_both()


def write_pages(target, faces: Sequence[Face], options: PrintOptions) -> dict:
    """One face per page, centred in the usable box, under a header "game · component · page i/n"."""
    box = usable_box(options.paper)
    check_pages(faces, options.paper, str(target) if isinstance(target, (str, Path)) else "pages")
    fonts = default_fonts()
    pw, ph = PAPERS_MM[options.paper]
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, (pw * MM, ph * MM), fonts,
                        title=" · ".join(t for t in (options.game_title, options.component_title) if t))
    forms = FaceForms(canvas, faces)
    header = Band(Rect(PAGE_MARGIN, ph - PAGE_MARGIN - LINE, pw - PAGE_MARGIN, ph - PAGE_MARGIN), False)
    titles = [t for t in (options.game_title, options.component_title) if t]
    cx, cy = box.centre
    turned = 0
    for index, face in enumerate(faces):
        w, h = face.width / MM, face.height / MM
        turn = not _fits((w, h), box)          # _check made sure it fits one way or the other
        if turn:
            w, h, turned = h, w, turned + 1
        forms.ensure(face)
        forms.place(face, Slot(Rect(cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2), 90 if turn else 0), 0.0)
        draw_header(canvas, fonts, header, " · ".join(titles + [f"page {index + 1}/{len(faces)}"]))
        canvas.showPage()
    canvas.save()
    _deliver(target, buffer.getvalue())
    return {"pages": len(faces), "paper": options.paper, "usable_mm": (box.width, box.height),
            "turned": turned, "forms": len(forms.names)}


def check_pages(faces: Sequence[Face], paper: str, where: str = "pages") -> None:
    """Before anything is drawn: every face that does not fit this paper is named, all in one error."""
    box = usable_box(paper)
    if not faces:
        raise PipelineError(Problem(where, "no pages to write", "imposition"))
    problems = []
    for index, face in enumerate(faces):
        w, h = face.width / MM, face.height / MM
        if not _fits((w, h), box) and not _fits((h, w), box):
            problems.append(Problem(where, f"page {index + 1} is {w:.1f}×{h:.1f} mm: it does not fit, either "
                                    f"way up, the {box.width:.1f}×{box.height:.1f} mm that {paper} paper leaves "
                                    f"inside 10 mm margins and the header (a page for both A4 and Letter "
                                    f"is at most {FITS_BOTH_MM[0]:.1f}×{FITS_BOTH_MM[1]:.1f} mm)", "imposition"))
    if problems:
        raise PipelineError(problems)


def _fits(size: tuple[float, float], box: Rect) -> bool:
    return size[0] <= box.width + FIT_TOLERANCE and size[1] <= box.height + FIT_TOLERANCE
