"""Two versions of a face compared by their pixels, and the pages that show them side by side.

`changed_boxes` draws both faces at a low resolution (pypdfium2), marks the cells of a coarse grid where any
pixel differs, and joins touching cells into boxes (millimetres from the trim's bottom-left). `write_changes`
puts one card per page: the old face and the new one side by side, the changed boxes outlined on both, and
the changed cells listed under them (French: a playtester reads it)."""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Sequence

from pipeline.core.units import MM, PAPERS_MM
from pipeline.render.fonts import default_fonts
from pipeline.render.glyphs import draw_string
from pipeline.render.pdf import new_canvas

DPI = 100
CELL_PX = 6                 # ~1.5 mm at 100 dpi: a changed digit is one box, not a cloud of specks
THRESHOLD = 24              # a channel differing by less is antialiasing noise
MARGIN_MM = 1.0             # an outline drawn around the change, not on it
OUTLINE = (0.86, 0.08, 0.12)
ABSENT = "(absente de cette version)"

Box = tuple[float, float, float, float]     # x0, y0, x1, y1 in mm from the trim's bottom-left, y up


def raster(face, dpi: int = DPI):
    """The face with its bleed as an RGB numpy array (rows from the top)."""
    import numpy
    import pypdfium2 as pdfium

    from pipeline.render.sheets.imposition import write_print

    buffer = io.BytesIO()
    write_print(buffer, [face], "face")
    pdf = pdfium.PdfDocument(buffer.getvalue())
    try:
        page = pdf[0]
        image = page.render(scale=dpi / 72.0, rev_byteorder=True).to_pil()
        page.close()
    finally:
        pdf.close()
    return numpy.asarray(image, dtype=numpy.int16)


def changed_boxes(old, new, dpi: int = DPI) -> list[Box]:
    """Where two faces of one size differ, as boxes in mm (the whole trim when their sizes differ)."""
    import numpy

    if abs(old.width - new.width) > 0.01 or abs(old.height - new.height) > 0.01:
        return [(0.0, 0.0, new.width / MM, new.height / MM)]
    a, b = raster(old, dpi), raster(new, dpi)
    rows, cols = min(a.shape[0], b.shape[0]), min(a.shape[1], b.shape[1])
    differs = (numpy.abs(a[:rows, :cols] - b[:rows, :cols]) > THRESHOLD).any(axis=2)
    grid_rows, grid_cols = -(-rows // CELL_PX), -(-cols // CELL_PX)
    padded = numpy.zeros((grid_rows * CELL_PX, grid_cols * CELL_PX), dtype=bool)
    padded[:rows, :cols] = differs
    cells = padded.reshape(grid_rows, CELL_PX, grid_cols, CELL_PX).any(axis=(1, 3))
    px_mm = 25.4 / dpi
    bleed_mm, height_mm = new.bleed / MM, new.height / MM
    boxes = []
    for top, left, bottom, right in _regions(cells):
        x0, x1 = left * CELL_PX * px_mm - bleed_mm, min(right * CELL_PX, cols) * px_mm - bleed_mm
        y_top, y_bottom = top * CELL_PX * px_mm - bleed_mm, min(bottom * CELL_PX, rows) * px_mm - bleed_mm
        box = (x0 - MARGIN_MM, height_mm - y_bottom - MARGIN_MM, x1 + MARGIN_MM, height_mm - y_top + MARGIN_MM)
        boxes.append(tuple(round(v, 2) for v in box))
    return sorted(boxes, key=lambda box: (-box[3], box[0]))


def _regions(cells) -> list[tuple[int, int, int, int]]:
    """Bounding boxes (top, left, bottom, right; end exclusive) of the 8-connected groups of marked cells."""
    marked = {(int(r), int(c)) for r, c in zip(*cells.nonzero())}
    regions = []
    while marked:
        stack = [marked.pop()]
        top, left, bottom, right = stack[0][0], stack[0][1], stack[0][0] + 1, stack[0][1] + 1
        while stack:
            r, c = stack.pop()
            top, left, bottom, right = min(top, r), min(left, c), max(bottom, r + 1), max(right, c + 1)
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    if (r + dr, c + dc) in marked:
                        marked.discard((r + dr, c + dc))
                        stack.append((r + dr, c + dc))
        regions.append((top, left, bottom, right))
    return regions


@dataclass(frozen=True)
class ChangePage:
    """One card's page: a title, the old and new faces (either may be None: added, removed), the boxes
    that differ, and text lines (the changed cells)."""

    title: str
    old_label: str
    old: Sequence = ()              # faces of the old version (front, then back when it changed)
    new: Sequence = ()
    boxes: Sequence[Sequence[Box]] = ()   # per face pair
    lines: Sequence[str] = ()


def write_changes(target, pages: Sequence[ChangePage], title: str, paper: str = "a4") -> dict:
    """One page per card, on `paper` in landscape: old at left, new at right, changed boxes outlined."""
    fonts = default_fonts()
    height_mm, width_mm = PAPERS_MM[paper]          # landscape
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, (width_mm * MM, height_mm * MM), fonts, title=title)
    font, bold = fonts.name("body"), fonts.bold("body")
    fallbacks = fonts.behind(font)
    for page in pages:
        draw_string(canvas, 12 * MM, (height_mm - 14) * MM, page.title, bold, 12, fallbacks)
        columns = ((12.0, page.old, f"avant ({page.old_label})"), (width_mm / 2 + 4, page.new, "après"))
        pairs = max(len(page.old), len(page.new))
        room_w = width_mm / 2 - 16
        room_h = (height_mm - 60) / max(pairs, 1)
        for x_mm, faces, caption in columns:
            draw_string(canvas, x_mm * MM, (height_mm - 22) * MM, caption, font, 9, fallbacks)
            for index, face in enumerate(faces):
                if face is None:            # a card added (no old face) or removed (no new one)
                    draw_string(canvas, x_mm * MM, (height_mm - 32) * MM, ABSENT, font, 9, fallbacks)
                    continue
                scale = min(room_w * MM / face.width, room_h * MM / face.height, 2.0)
                top = height_mm - 26 - index * room_h
                y = top * MM - face.height * scale
                _place(canvas, face, x_mm * MM, y, scale, page.boxes[index] if index < len(page.boxes) else ())
        y = 26 * MM
        for line in list(page.lines)[:8]:
            draw_string(canvas, 12 * MM, y, line, font, 8, fallbacks)
            y -= 10
        canvas.showPage()
    canvas.save()
    data = buffer.getvalue()
    if hasattr(target, "write"):
        target.write(data)
    return {"pages": len(pages)}


def _place(canvas, face, x: float, y: float, scale: float, boxes: Sequence[Box]) -> None:
    canvas.saveState()
    canvas.translate(x, y)
    canvas.scale(scale, scale)
    path = canvas.beginPath()
    path.rect(0, 0, face.width, face.height)
    canvas.clipPath(path, stroke=0, fill=0)
    face.draw(canvas)
    canvas.restoreState()
    canvas.saveState()
    canvas.translate(x, y)
    canvas.setStrokeColorRGB(0.6, 0.6, 0.6)
    canvas.setLineWidth(0.4)
    canvas.rect(0, 0, face.width * scale, face.height * scale, stroke=1, fill=0)
    canvas.setStrokeColorRGB(*OUTLINE)
    canvas.setLineWidth(1.2)
    for x0, y0, x1, y1 in boxes:
        canvas.rect(x0 * MM * scale, y0 * MM * scale, (x1 - x0) * MM * scale, (y1 - y0) * MM * scale, stroke=1, fill=0)
    canvas.restoreState()
