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

Two copies of a small page (an A5 player aid) print 2-up: one sheet holds both copies, each turned 90° in
its half, reduced just enough to fit inside CARD_EDGE margins and the header (A5 is exactly half of A4, and
a home printer leaves its edge blank), never below TWO_UP_MIN_SCALE; a two-faced page prints its second
face on the back, mirrored for a long-edge flip so that each copy's back lies behind its front.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Sequence

from pipeline.core.errors import PipelineError, Problem
from pipeline.core.output import deliver
from pipeline.core.printing import PrintOptions
from pipeline.core.units import MM, PAPERS_MM
from pipeline.render.fonts import default_fonts
from pipeline.render.pdf import new_canvas
from pipeline.render.sheets.decor import draw_header
from pipeline.render.sheets.imposition import Face, FaceForms
from pipeline.render.sheets.plan import BAND_GAP, Band, CARD_EDGE, LINE, PAGE_MARGIN, Rect, Slot

HEADER_BAND = LINE + BAND_GAP
FIT_TOLERANCE = 0.01   # mm: a face designed at exactly the usable size fits despite float rounding
TWO_UP_MIN_SCALE = 0.85   # a 2-up page is reduced at most this much (7 pt text prints at 6 pt)
TWO_UP_GAP = 4.0          # mm between the two copies: room to cut between them


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
    deliver(target, buffer.getvalue())
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


def two_up_box(paper: str) -> Rect:
    """Where a 2-up sheet's two copies go: CARD_EDGE from the paper's edges, below the header band."""
    pw, ph = PAPERS_MM[paper]
    return Rect(CARD_EDGE, CARD_EDGE, pw - CARD_EDGE, ph - CARD_EDGE - HEADER_BAND)


def two_up_scale(size_mm: tuple[float, float], paper: str) -> float | None:
    """The scale at which two copies of a page, each turned, fit one sheet; None below TWO_UP_MIN_SCALE."""
    w, h = size_mm
    box = two_up_box(paper)
    scale = min(1.0, box.width / h, (box.height - TWO_UP_GAP) / (2 * w))
    return scale if scale >= TWO_UP_MIN_SCALE else None


def two_up_slots(size_mm: tuple[float, float], paper: str, scale: float, back: bool) -> list[Slot]:
    """The two copies' slots (top, bottom) at `scale`, in unscaled page mm: the rect is the scaled trim.
    A back page mirrors the front about the sheet's vertical centre line and turns the other way."""
    w, h = size_mm[0] * scale, size_mm[1] * scale
    box = two_up_box(paper)
    cx, cy = box.centre
    pw = PAPERS_MM[paper][0]
    slots = []
    for centre_y in (cy + (w + TWO_UP_GAP) / 2, cy - (w + TWO_UP_GAP) / 2):
        rect = Rect(cx - h / 2, centre_y - w / 2, cx + h / 2, centre_y + w / 2)
        slots.append(Slot(rect.mirror_x(pw / 2), 270) if back else Slot(rect, 90))
    return slots


def write_two_up(target, faces: Sequence[Face], options: PrintOptions, scale: float) -> dict:
    """Both copies of a page on one sheet side; face i of the page on side i (two faces: recto verso)."""
    fonts = default_fonts()
    pw, ph = PAPERS_MM[options.paper]
    size = (faces[0].width / MM, faces[0].height / MM)
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, (pw * MM, ph * MM), fonts,
                        title=" · ".join(t for t in (options.game_title, options.component_title) if t))
    forms = FaceForms(canvas, [face for face in faces for _ in range(2)])
    header = Band(Rect(CARD_EDGE, ph - CARD_EDGE - LINE, pw - CARD_EDGE, ph - CARD_EDGE), False)
    titles = [t for t in (options.game_title, options.component_title) if t]
    sides = ("recto", "verso") if len(faces) == 2 else ()
    for index, face in enumerate(faces):
        forms.ensure(face)
        for slot in two_up_slots(size, options.paper, scale, back=index % 2 == 1):
            cx, cy = slot.rect.centre
            canvas.saveState()
            canvas.translate(cx * MM, cy * MM)
            canvas.scale(scale, scale)
            w, h = slot.rect.width / scale, slot.rect.height / scale
            forms.place(face, Slot(Rect(-w / 2, -h / 2, w / 2, h / 2), slot.rotation), 0.0)
            canvas.restoreState()
        side = f" ({sides[index]})" if index < len(sides) else ""
        draw_header(canvas, fonts, header, " · ".join(titles + [f"2 exemplaires, réduits à {round(scale * 100)} %",
                                                                 f"page {index + 1}/{len(faces)}{side}"]))
        canvas.showPage()
    canvas.save()
    deliver(target, buffer.getvalue())
    return {"pages": len(faces), "paper": options.paper, "up": 2, "scale": round(scale, 4),
            "backs_mode": "duplex" if len(faces) == 2 else "none", "forms": len(forms.names)}
