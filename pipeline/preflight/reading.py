"""What the preflight reads of one page, with pypdfium2's raw PDFium calls (no rendering): the page boxes the
page declares, the rectangles its top-level pictures are clipped to (how pnp places a card: a face clipped
to its trim), the short straight strokes that may be crop marks, the bounds of everything else drawn, each
placed raster with its size on the page, and the fonts its text uses. Form XObjects are walked with their
matrices composed, so a picture or a stroke inside a form is measured where it lands on the page."""

from __future__ import annotations

import ctypes
from dataclasses import dataclass, field

import pypdfium2.raw as pdfium

from pipeline.preflight.geometry import IDENTITY, Matrix, Rect, apply, contains, height, mm, overlap, scales, then, width

BOXES = (("MediaBox", pdfium.FPDFPage_GetMediaBox), ("CropBox", pdfium.FPDFPage_GetCropBox),
         ("BleedBox", pdfium.FPDFPage_GetBleedBox), ("TrimBox", pdfium.FPDFPage_GetTrimBox),
         ("ArtBox", pdfium.FPDFPage_GetArtBox))
MARK_MM = (1.0, 30.0)           # a crop mark is a straight stroke this long
MARK_STROKE_MM = 1.0            # and no thicker
STRAIGHT = 0.02                 # pt: how far from horizontal or vertical a mark may lean
MAX_DEPTH = 12                  # form XObjects inside form XObjects
INVISIBLE_TEXT = 3              # text render mode 3: neither filled nor stroked (an OCR layer)


@dataclass(frozen=True)
class Stroke:
    """One straight, axis-aligned stroked line of the page (a crop mark candidate), in page points."""
    x0: float
    y0: float
    x1: float
    y1: float
    width: float

    @property
    def vertical(self) -> bool:
        return abs(self.x0 - self.x1) < abs(self.y0 - self.y1)

    @property
    def rect(self) -> Rect:
        return (min(self.x0, self.x1), min(self.y0, self.y1), max(self.x0, self.x1), max(self.y0, self.y1))

    @property
    def length(self) -> float:
        return max(width(self.rect), height(self.rect))


@dataclass(frozen=True)
class Raster:
    """A placed image: its pixels, where it lands on the page, and its effective resolution each way."""
    pixels: tuple[int, int]
    bounds: Rect
    dpi: float


@dataclass
class PageFacts:
    number: int
    boxes: dict[str, Rect | None]               # as the page declares them; None when absent
    clipped: list[Rect] = field(default_factory=list)       # top-level pictures' rectangular clips
    strokes: list[Stroke] = field(default_factory=list)     # short straight strokes outside those pictures
    drawn: list[Rect] = field(default_factory=list)         # the bounds of everything else drawn at the top
    rasters: list[Raster] = field(default_factory=list)
    fonts: dict[str, bool] = field(default_factory=dict)   # every font the text uses -> embedded

    @property
    def media(self) -> Rect:
        return self.boxes["MediaBox"] or (0.0, 0.0, 612.0, 792.0)


def read_page(document, index: int) -> PageFacts:
    """The facts of page `index` (0-based) of a pypdfium2 PdfDocument."""
    page = document[index]
    try:
        facts = PageFacts(index + 1, _boxes(page))
        fonts: dict[int, tuple[str, bool]] = {}
        for i in range(pdfium.FPDFPage_CountObjects(page)):
            _top(pdfium.FPDFPage_GetObject(page, i), facts, fonts)
        # PDFium drops a clip that changes nothing (an object wholly inside it): a stroke wholly inside a
        # clipped picture's clip is that picture's art too
        facts.strokes = [s for s in facts.strokes if not any(contains(c, s.rect, 0.01) for c in facts.clipped)]
        return facts
    finally:
        page.close()


def _boxes(page) -> dict[str, Rect | None]:
    found: dict[str, Rect | None] = {}
    for name, getter in BOXES:
        values = [ctypes.c_float() for _ in range(4)]
        ok = getter(page, *values)
        if ok:
            x0, y0, x1, y1 = (v.value for v in values)
            found[name] = (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))
        else:
            found[name] = None
    return found


def _top(obj, facts: PageFacts, fonts: dict) -> None:
    """A top-level object. One clipped to a rectangle smaller than the page is part of a card (a face pnp
    clips to its trim, or to its bleed on sheets that keep it). Crop marks are never clipped: the strokes of
    anything clipped to less than the page are art."""
    clip, clipped = _clip(obj)
    page = facts.media
    if clip is not None and min(mm(width(clip)), mm(height(clip))) >= 5 and clipped and clip not in facts.clipped:
        facts.clipped.append(clip)
    clipped = clipped and (clip is None or width(clip) * height(clip) < 0.9 * width(page) * height(page))
    strokes_before = len(facts.strokes)
    _walk(obj, IDENTITY, facts, fonts, 0)
    if clipped:
        del facts.strokes[strokes_before:]
    elif len(facts.strokes) == strokes_before:
        bounds = _bounds(obj)
        visible = bounds if bounds is None or clip is None else overlap(bounds, clip)
        if visible is not None:
            facts.drawn.append(visible)


def _walk(obj, outer: Matrix, facts: PageFacts, fonts: dict, depth: int) -> None:
    kind = pdfium.FPDFPageObj_GetType(obj)
    matrix = then(_matrix(obj), outer)
    if kind == pdfium.FPDF_PAGEOBJ_FORM and depth < MAX_DEPTH:
        for i in range(pdfium.FPDFFormObj_CountObjects(obj)):
            _walk(pdfium.FPDFFormObj_GetObject(obj, i), matrix, facts, fonts, depth + 1)
    elif kind == pdfium.FPDF_PAGEOBJ_IMAGE:
        _raster(obj, matrix, facts)
    elif kind == pdfium.FPDF_PAGEOBJ_TEXT:
        _font(obj, facts, fonts)
    elif kind == pdfium.FPDF_PAGEOBJ_PATH:
        facts.strokes.extend(_strokes(obj, matrix))


def _matrix(obj) -> Matrix:
    m = pdfium.FS_MATRIX()
    if not pdfium.FPDFPageObj_GetMatrix(obj, m):
        return IDENTITY
    return (m.a, m.b, m.c, m.d, m.e, m.f)


def _bounds(obj) -> Rect | None:
    values = [ctypes.c_float() for _ in range(4)]
    if not pdfium.FPDFPageObj_GetBounds(obj, *values):
        return None
    return tuple(v.value for v in values)


def _clip(obj) -> tuple[Rect | None, bool]:
    """The object's clip as (its rectangle when it is one axis-aligned rectangle in page space, whether there
    is a clip at all)."""
    clip = pdfium.FPDFPageObj_GetClipPath(obj)
    paths = pdfium.FPDFClipPath_CountPaths(clip) if clip else 0
    if paths <= 0:
        return None, False
    if paths != 1:
        return None, True
    points = []
    for j in range(pdfium.FPDFClipPath_CountPathSegments(clip, 0)):
        segment = pdfium.FPDFClipPath_GetPathSegment(clip, 0, j)
        if pdfium.FPDFPathSegment_GetType(segment) == pdfium.FPDF_SEGMENT_BEZIERTO:
            return None, True
        points.append(_point(segment))
    xs, ys = sorted({round(x, 2) for x, _ in points}), sorted({round(y, 2) for _, y in points})
    if len(points) < 4 or len(xs) != 2 or len(ys) != 2:
        return None, True
    return (xs[0], ys[0], xs[1], ys[1]), True


def _point(segment) -> tuple[float, float]:
    x, y = ctypes.c_float(), ctypes.c_float()
    pdfium.FPDFPathSegment_GetPoint(segment, x, y)
    return (x.value, y.value)


def _raster(obj, matrix: Matrix, facts: PageFacts) -> None:
    w, h = ctypes.c_uint(), ctypes.c_uint()
    if not pdfium.FPDFImageObj_GetImagePixelSize(obj, w, h) or not w.value or not h.value:
        return
    placed_w, placed_h = scales(matrix)
    if placed_w <= 0 or placed_h <= 0:
        return
    dpi = min(w.value / (placed_w / 72), h.value / (placed_h / 72))
    corners = [apply(matrix, x, y) for x in (0, 1) for y in (0, 1)]
    bounds = (min(x for x, _ in corners), min(y for _, y in corners),
              max(x for x, _ in corners), max(y for _, y in corners))
    facts.rasters.append(Raster((w.value, h.value), bounds, dpi))


def _font(obj, facts: PageFacts, fonts: dict) -> None:
    if pdfium.FPDFTextObj_GetTextRenderMode(obj) == INVISIBLE_TEXT:
        return
    font = pdfium.FPDFTextObj_GetFont(obj)
    if not font:
        return
    key = ctypes.cast(font, ctypes.c_void_p).value
    if key not in fonts:
        size = pdfium.FPDFFont_GetBaseFontName(font, None, 0)
        buffer = ctypes.create_string_buffer(max(size, 1))
        pdfium.FPDFFont_GetBaseFontName(font, buffer, size)
        fonts[key] = (buffer.value.decode("utf-8", "replace") or "(unnamed)",
                      bool(pdfium.FPDFFont_GetIsEmbedded(font)))
    name, embedded = fonts[key]
    facts.fonts[name] = facts.fonts.get(name, True) and embedded


def _strokes(obj, matrix: Matrix) -> list[Stroke]:
    """The path's lines when it is only stroked (no fill) and is nothing but short straight axis-aligned
    lines, one per subpath, thin enough to be crop marks; [] for anything else."""
    fill, stroke = ctypes.c_int(), ctypes.c_int()
    if not pdfium.FPDFPath_GetDrawMode(obj, fill, stroke) or not stroke.value or fill.value:
        return []
    line = ctypes.c_float()
    pdfium.FPDFPageObj_GetStrokeWidth(obj, line)
    thickness = line.value * max(scales(matrix))
    count = pdfium.FPDFPath_CountSegments(obj)
    if count < 2 or count % 2 or count > 2000 or mm(thickness) > MARK_STROKE_MM:
        return []
    found = []
    for i in range(0, count, 2):
        start, end = pdfium.FPDFPath_GetPathSegment(obj, i), pdfium.FPDFPath_GetPathSegment(obj, i + 1)
        if pdfium.FPDFPathSegment_GetType(start) != pdfium.FPDF_SEGMENT_MOVETO or \
                pdfium.FPDFPathSegment_GetType(end) != pdfium.FPDF_SEGMENT_LINETO:
            return []
        (x0, y0), (x1, y1) = apply(matrix, *_point(start)), apply(matrix, *_point(end))
        mark = Stroke(x0, y0, x1, y1, thickness)
        if min(abs(x1 - x0), abs(y1 - y0)) > STRAIGHT or not MARK_MM[0] <= mm(mark.length) <= MARK_MM[1]:
            return []
        found.append(mark)
    return found
