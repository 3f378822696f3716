"""Faces drawn to images for exports, each distinct face (by key) once.

- `trimmed`: the face inside its trim only, at a given resolution: what a virtual table shows (no bleed: it
  would read as a fat border; EXPORTS.md §1.5);
- `with_bleed`: the face with a print shop's own bleed at the shop's exact pixel size. The trim is never
  scaled (scaling would move the cut line): the face is drawn at its true size, centred, and where the shop's
  bleed is wider than the face's own (1/8 in = 3.175 mm against 3 mm), a copy of the face enlarged to cover
  the whole page is drawn underneath first, so the last fraction of a millimetre repeats the face's edge.

Pages go through one PDF (reportlab) rendered by pdfium (pypdfium2), as the PNG format does. RGB, no alpha.
"""

from __future__ import annotations

import io
from typing import Iterable, Sequence

from PIL import Image

from pipeline.core.units import MM
from pipeline.render.fonts import default_fonts
from pipeline.render import png
from pipeline.render.pdf import new_canvas

MM_PER_INCH = 25.4


def trimmed(faces: Iterable, px_per_mm: float) -> dict[str, Image.Image]:
    """Face key -> its trimmed image, round(width × px_per_mm) × round(height × px_per_mm) pixels."""
    unique = _unique(faces)
    sizes = [(max(1, round(face.width / MM * px_per_mm)), max(1, round(face.height / MM * px_per_mm)))
             for face in unique]
    pages = [(face.width, face.height, _draw_trimmed(face)) for face in unique]
    return dict(zip((face.key for face in unique), _render(pages, sizes)))


def with_bleed(faces: Iterable, size_px: tuple[int, int], dpi: int) -> dict[str, Image.Image]:
    """Face key -> its image at exactly `size_px` (a print shop's file size at `dpi`), the trim centred at its
    true size and the rest bleed."""
    unique = _unique(faces)
    width, height = size_px[0] / dpi * MM_PER_INCH * MM, size_px[1] / dpi * MM_PER_INCH * MM
    pages = [(width, height, _draw_centred(face, width, height)) for face in unique]
    return dict(zip((face.key for face in unique), _render(pages, [size_px] * len(unique))))


def draw_centred(canvas, face, width: float, height: float) -> None:
    """`face` at its true size with its trim centred on a width × height page (points), over an enlarged copy
    when the page reaches beyond the face's own bleed (print services: pipeline/exports/dtc.py too)."""
    left, bottom = (width - face.width) / 2, (height - face.height) / 2
    reach = max(left, bottom) - face.bleed
    if reach > 1e-6:
        grow = max(width / (face.width + 2 * face.bleed), height / (face.height + 2 * face.bleed)) * 1.02
        canvas.saveState()
        canvas.translate(width / 2, height / 2)
        canvas.scale(grow, grow)
        canvas.translate(-face.width / 2, -face.height / 2)
        face.draw(canvas)
        canvas.restoreState()
    canvas.saveState()
    canvas.translate(left, bottom)
    path = canvas.beginPath()
    b = face.bleed
    path.rect(-b, -b, face.width + 2 * b, face.height + 2 * b)
    canvas.clipPath(path, stroke=0, fill=0)
    face.draw(canvas)
    canvas.restoreState()


def png_bytes(image: Image.Image, dpi: int | None = None, fast: bool = False) -> bytes:
    """PNG of an RGB image, the same bytes for the same pixels (pipeline/render/png.py). `fast`: zlib level 1
    (half the time, a sixth more bytes), for files uploaded once (print shops) rather than fetched by every
    player (virtual tables)."""
    return png.encode(image, dpi, level=1 if fast else 6)


def _unique(faces: Iterable) -> list:
    seen, unique = set(), []
    for face in faces:
        if face.key not in seen:
            seen.add(face.key)
            unique.append(face)
    return unique


def _draw_trimmed(face):
    def draw(canvas):
        path = canvas.beginPath()
        path.rect(0, 0, face.width, face.height)
        canvas.clipPath(path, stroke=0, fill=0)
        face.draw(canvas)
    return draw


def _draw_centred(face, width: float, height: float):
    return lambda canvas: draw_centred(canvas, face, width, height)


def _render(pages: Sequence[tuple[float, float, object]], sizes: Sequence[tuple[int, int]]) -> list[Image.Image]:
    """Each (width, height, draw) page drawn on a white page, rendered to exactly its size in pixels."""
    import pypdfium2 as pdfium

    if not pages:
        return []
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, pages[0][:2], default_fonts())
    for width, height, draw in pages:
        canvas.setPageSize((width, height))
        draw(canvas)
        canvas.showPage()
    canvas.save()
    document = pdfium.PdfDocument(buffer.getvalue())
    images = []
    try:
        for index, size in enumerate(sizes):
            page = document[index]
            try:
                # pdfium sizes the bitmap ceil(page × scale): 825 / 198 × 198 is 825.0000000000001, one pixel
                # too many, which the crop below would then take off one side (moving the trim by a pixel)
                scale = max(size[0] / page.get_width(), size[1] / page.get_height()) * (1 - 1e-9)
                image = page.render(scale=scale, rev_byteorder=True).to_pil()
            finally:
                page.close()
            if image.size != size:      # pdfium rounds up; the same page at the same scale: a pixel at most
                image = image.resize(size, Image.Resampling.LANCZOS) if _far(image.size, size) \
                    else image.crop((0, 0, *size))
            images.append(image)
    finally:
        document.close()
    return images


def _far(got: tuple[int, int], want: tuple[int, int]) -> bool:
    return got[0] < want[0] or got[1] < want[1] or got[0] - want[0] > 1 or got[1] - want[1] > 1
