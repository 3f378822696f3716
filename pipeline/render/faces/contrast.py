"""How well a face's text reads: each run's fill colour against the ground drawn under it (issue 29).

The measure is WCAG 2's contrast ratio of relative luminances (render/colours.py `contrast`), from 1 (the
same colour) to 21 (black on white). Printed text needs 4.5:1, or 3:1 from 14 pt up (`needed`).

The ground under a run is read from the face's own primitives, in the order they paint: at points spread
over the band where the run's letters sit (baseline to x-height, SAMPLE_MM apart), the colour of the last
shape painted there before the text: a fill (rectangle, rounded or not, circle, polygon, the cells of a grid)
or an outline (a shape's stroke, a line, dashes counted solid), groups moved and turned as they draw; white
(the paper) where none is. A run whose
ground is an image or an icon cannot be read this way: its ground is None, and `readings` says so, for the
caller to render it (`face_readings` does: it draws the face without its text and reads the pixels at the
same points). A run's ratio is its worst sample's, so a word half over a dark band counts as over it.

`readings` is what a test runs over every face of every game; `Grounds` what the edition mark
(render/faces/edition_mark.py) uses to choose its grey.
"""

from __future__ import annotations

import io
import math
from typing import Iterable, NamedTuple

from pipeline.core.units import MM
from pipeline.render.colours import contrast, needed
from pipeline.render.faces.art import Art, Placeholder
from pipeline.render.faces.primitives import Circle, Group, Line, Polygon, Rect, Text
from pipeline.render.faces.text import font_metrics
from pipeline.render.glyphs import string_width

SAMPLE_MM = 0.25            # the spacing of the points read under a run: finer than a thin outline
X_HEIGHT = 0.5              # of the size: the band from the baseline up where every letter has ink
WHITE = (1.0, 1.0, 1.0)


class Reading(NamedTuple):
    """One run of text as it prints: `box` (x0, y0, x1, y1) in the face's frame, points; `ground` the colour
    under its worst point (None: an image or an icon is under it); `ratio` its contrast there."""
    text: str
    size: float
    colour: tuple
    ground: tuple | None
    ratio: float
    box: tuple
    points: tuple = ()      # where the ground was read, in the face's frame

    @property
    def reads(self) -> bool:
        return self.ground is None or self.ratio >= needed(self.size) - 1e-9


class _Matrix(NamedTuple):
    """An affine map (a, b, c, d, e, f) as in PDF: (x, y) -> (a x + c y + e, b x + d y + f)."""
    a: float
    b: float
    c: float
    d: float
    e: float
    f: float

    def apply(self, x: float, y: float) -> tuple[float, float]:
        return self.a * x + self.c * y + self.e, self.b * x + self.d * y + self.f

    def then_group(self, group: Group) -> "_Matrix":
        cos, sin = math.cos(math.radians(group.angle)), math.sin(math.radians(group.angle))
        a, b, c, d, e, f = self
        return _Matrix(a * cos + c * sin, b * cos + d * sin, -a * sin + c * cos, -b * sin + d * cos,
                       a * group.x + c * group.y + e, b * group.x + d * group.y + f)

    def inverse(self) -> "_Matrix":
        a, b, c, d, e, f = self
        det = a * d - b * c
        return _Matrix(d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det)


IDENTITY = _Matrix(1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def _rect_distance(shape: Rect, x: float, y: float) -> float:
    """Signed distance from (x, y) to a rectangle's outline, rounded corners included: < 0 inside."""
    half_w, half_h = abs(shape.width) / 2, abs(shape.height) / 2
    r = max(0.0, min(shape.radius, half_w, half_h))
    qx = abs(x - (shape.x + shape.width / 2)) - (half_w - r)
    qy = abs(y - (shape.y + shape.height / 2)) - (half_h - r)
    return math.hypot(max(qx, 0.0), max(qy, 0.0)) + min(max(qx, qy), 0.0) - r


def _segment_distance(x: float, y: float, x1: float, y1: float, x2: float, y2: float) -> float:
    dx, dy = x2 - x1, y2 - y1
    t = 0.0 if dx == dy == 0 else max(0.0, min(1.0, ((x - x1) * dx + (y - y1) * dy) / (dx * dx + dy * dy)))
    return math.hypot(x - x1 - t * dx, y - y1 - t * dy)


def _edges(shape) -> list[tuple]:
    if isinstance(shape, Line):
        return [(shape.x1, shape.y1, shape.x2, shape.y2)]
    points = shape.points
    return [(*a, *b) for a, b in zip(points, points[1:] + points[:1])]


def _inside(shape, x: float, y: float) -> bool:
    """Whether (x, y), in the shape's own frame, is inside its fill."""
    if isinstance(shape, Rect):
        return _rect_distance(shape, x, y) <= 0
    if isinstance(shape, Circle):
        return (x - shape.cx) ** 2 + (y - shape.cy) ** 2 <= shape.r ** 2
    if isinstance(shape, Polygon):
        inside, points = False, shape.points
        for (x1, y1), (x2, y2) in zip(points, points[1:] + points[:1]):
            if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                inside = not inside
        return inside
    return shape.x <= x <= shape.x + shape.width and shape.y <= y <= shape.y + shape.height   # Art, Placeholder


def _on_stroke(shape, x: float, y: float) -> bool:
    """Whether (x, y), in the shape's own frame, is under its outline (dashes counted as a solid line)."""
    half = shape.stroke_width / 2
    if isinstance(shape, Rect):
        return abs(_rect_distance(shape, x, y)) <= half
    if isinstance(shape, Circle):
        return abs(math.hypot(x - shape.cx, y - shape.cy) - shape.r) <= half
    return any(_segment_distance(x, y, *edge) <= half for edge in _edges(shape))


def _local_box(shape) -> tuple[float, float, float, float]:
    """A shape's box in its own frame, its outline included."""
    half = (getattr(shape, "stroke_width", 0.0) or 0.0) / 2
    if isinstance(shape, Circle):
        return shape.cx - shape.r - half, shape.cy - shape.r - half, shape.cx + shape.r + half, shape.cy + shape.r + half
    if isinstance(shape, (Polygon, Line)):
        xs = [c for e in _edges(shape) for c in (e[0], e[2])]
        ys = [c for e in _edges(shape) for c in (e[1], e[3])]
        return min(xs) - half, min(ys) - half, max(xs) + half, max(ys) + half
    x0, x1 = sorted((shape.x, shape.x + shape.width))
    y0, y1 = sorted((shape.y, shape.y + shape.height))
    return x0 - half, y0 - half, x1 + half, y1 + half


def _flatten(primitives, matrix: _Matrix = IDENTITY) -> Iterable[tuple]:
    """(primitive, its frame's matrix) in painting order, groups opened."""
    for item in primitives:
        if isinstance(item, Group):
            yield from _flatten(item.children, matrix.then_group(item))
        else:
            yield item, matrix


def _hit(test, shape, matrix: _Matrix):
    """`test` (_inside or _on_stroke) of `shape` as a function of a point of the face's frame: a shape moved
    only (no turn, the common case) is tested in the face's frame with its numbers worked out once."""
    a, b, c, d, e, f = matrix
    if (a, b, c, d) != (1.0, 0.0, 0.0, 1.0) or not isinstance(shape, (Rect, Circle)):
        inverse = matrix.inverse()
        return lambda x, y: test(shape, *inverse.apply(x, y))
    half = shape.stroke_width / 2 if test is _on_stroke else 0.0
    if isinstance(shape, Circle):
        cx, cy, r = shape.cx + e, shape.cy + f, shape.r
        if test is _inside:
            return lambda x, y: (x - cx) ** 2 + (y - cy) ** 2 <= r * r
        return lambda x, y: abs(math.hypot(x - cx, y - cy) - r) <= half
    hw, hh = abs(shape.width) / 2, abs(shape.height) / 2
    r = max(0.0, min(shape.radius, hw, hh))
    cx, cy, ix, iy = shape.x + shape.width / 2 + e, shape.y + shape.height / 2 + f, hw - r, hh - r
    if test is _inside and r == 0:
        return lambda x, y: abs(x - cx) <= hw and abs(y - cy) <= hh

    def distance(x: float, y: float) -> float:
        qx, qy = abs(x - cx) - ix, abs(y - cy) - iy
        return math.hypot(max(qx, 0.0), max(qy, 0.0)) + min(max(qx, qy), 0.0) - r
    if test is _inside:
        return lambda x, y: distance(x, y) <= 0
    return lambda x, y: abs(distance(x, y)) <= half


class _Ground:
    """The grounds painted so far, in order: (test, shape, the map from the face's frame to the shape's, its
    colour or None for an image, its box in the face's frame, the test as a function of the face's frame).
    A shape paints its fill, then its outline."""

    def __init__(self):
        self.layers: list[tuple] = []

    def add(self, item, matrix: _Matrix, bands: tuple | None = None) -> None:
        """Paint `item`; with `bands` ((y0, y1), …, the face's frame), only if its box reaches one of them."""
        layers = []
        if isinstance(item, (Rect, Circle, Polygon)) and item.fill is not None:
            layers.append((_inside, tuple(item.fill[:3])))
        if isinstance(item, (Rect, Circle, Polygon, Line)) and item.stroke is not None and item.stroke_width > 0:
            layers.append((_on_stroke, tuple(item.stroke[:3])))
        if isinstance(item, (Art, Placeholder)):
            layers.append((_inside, None))
        if not layers:
            return
        x0, y0, x1, y1 = _local_box(item)
        corners = [matrix.apply(x, y) for x in (x0, x1) for y in (y0, y1)]
        box = (min(c[0] for c in corners), min(c[1] for c in corners), max(c[0] for c in corners),
               max(c[1] for c in corners))
        if bands is not None and not any(box[1] <= y1 and y0 <= box[3] for y0, y1 in bands):
            return
        inverse = matrix.inverse()
        self.layers += [(test, item, inverse, colour, box, _hit(test, item, matrix)) for test, colour in layers]

    def near(self, box: tuple) -> "_Ground":
        """The grounds whose box meets `box` (x0, y0, x1, y1): all that can show under it."""
        found = _Ground()
        found.layers = [layer for layer in self.layers if layer[4][0] <= box[2] and box[0] <= layer[4][2]
                        and layer[4][1] <= box[3] and box[1] <= layer[4][3]]
        return found

    def at(self, x: float, y: float) -> tuple | None:
        """The colour showing at (x, y) of the face; None where an image or an icon is on top."""
        index = self.top(x, y)
        return WHITE if index < 0 else self.layers[index][3]

    def top(self, x: float, y: float) -> int:
        """The index of the layer showing at (x, y): the last painted whose shape holds it; -1 for the paper."""
        for index in range(len(self.layers) - 1, -1, -1):
            if self.layers[index][5](x, y):
                return index
        return -1


def _points(run, matrix: _Matrix) -> tuple[list[tuple[float, float]], tuple]:
    """Points over the band of a run where its letters have ink, in the face's frame, and the run's box."""
    width = string_width(run.text, run.font, run.size)
    up, down, _ = font_metrics(run.font)
    across = max(2, min(256, math.ceil(width / (SAMPLE_MM * MM))))
    band = (run.y + 0.1 * run.size, run.y + X_HEIGHT * run.size)
    points = [matrix.apply(run.x + width * (i + 0.5) / across, y) for i in range(across) for y in band]
    corners = [matrix.apply(run.x + dx, run.y + dy) for dx in (0.0, width) for dy in (-down * run.size,
                                                                                     up * run.size)]
    box = (min(c[0] for c in corners), min(c[1] for c in corners),
           max(c[0] for c in corners), max(c[1] for c in corners))
    return points, box


def readings(primitives) -> list[Reading]:
    """Every run of text the primitives draw, with the ground under it and its contrast."""
    ground, found = _Ground(), []
    for item, matrix in _flatten(primitives):
        if not isinstance(item, Text):
            ground.add(item, matrix)
            continue
        if item.colour is None:
            continue                                    # not drawn (render/faces/text.py draw_text)
        colour = tuple(item.colour[:3])
        for run in item.runs:
            if not run.text.strip():
                continue
            points, box = _points(run, matrix)
            local = ground.near(box)
            worst, worst_ratio = WHITE, 22.0
            for x, y in points:
                under = local.at(x, y)
                if under is None:
                    worst, worst_ratio = None, 0.0
                    break
                ratio = contrast(colour, under)
                if ratio < worst_ratio:
                    worst, worst_ratio = under, ratio
            found.append(Reading(run.text, run.size, colour, worst, worst_ratio, box, tuple(points)))
        for icon in item.icons:                         # inline icons paint over what follows
            ground.add(icon, matrix)
    return found


def _signed(shape, x: float, y: float) -> float:
    """Signed distance from (x, y), in the shape's frame, to a rectangle's or a circle's outline: < 0 inside."""
    if isinstance(shape, Circle):
        return math.hypot(x - shape.cx, y - shape.cy) - shape.r
    return _rect_distance(shape, x, y)


class Grounds:
    """What a text drawn last over a face would stand on: the face's shapes, painted in order. With `bands`
    ((y0, y1), …), only the shapes that reach one of them: `under` is then asked of boxes inside the bands."""

    def __init__(self, primitives, bands: tuple | None = None):
        self._ground = _Ground()
        for item, matrix in _flatten(primitives):
            self._ground.add(item, matrix, bands)

    def under(self, box: tuple) -> list[tuple | None]:
        """The colours showing under a box (x0, y0, x1, y1, the face's frame), each once, in the order met (None:
        an image or an icon). Read from the top down: an outline of a rectangle or a circle with the whole box
        inside it, clear of its line, is passed over; a fill of one holding the whole box hides all beneath
        it (both convex: the box's corners tell); what is left is read at points SAMPLE_MM apart across and
        twice that up, the box's edges included. A mark on a card's panel costs four corner tests."""
        x0, y0, x1, y1 = box
        corners = ((x0, y0), (x0, y1), (x1, y0), (x1, y1))
        kept, covered = [], False
        for layer in reversed(self._ground.near(box).layers):
            test, shape, inverse = layer[:3]
            if isinstance(shape, (Rect, Circle)):
                local = [inverse.apply(x, y) for x, y in corners]
                if test is _on_stroke and all(_signed(shape, *c) < -shape.stroke_width / 2 for c in local):
                    continue
                kept.append(layer)
                if test is _inside and all(_signed(shape, *c) <= 0 for c in local):
                    covered = True
                    break
            else:
                kept.append(layer)
        if covered and len(kept) == 1:
            return [kept[0][3]]
        layers = kept[::-1]
        shown = _shown(box, layers)
        return list(dict.fromkeys(WHITE if index < 0 else layers[index][3] for index in shown))


_SHOWN: dict[tuple, tuple[int, ...]] = {}      # (box, the layers' geometry) -> _shown's answer
SHOWN_MAX = 4096


def _shown(box: tuple, layers: list[tuple]) -> tuple[int, ...]:
    """Which of `layers` (bottom first; -1: none, the paper) shows at the points read under `box`, each once, in
    the order met: points SAMPLE_MM apart across and twice that up, the box's edges included. What shows
    depends on the layers' shapes and places, not on their colours, so the faces of a deck that differ in
    colour only (the same template) read their points once."""
    try:
        key = (box, tuple((layer[0], _shape_only(layer[1]), layer[2]) for layer in layers))
        found = _SHOWN.get(key)
    except TypeError:           # something unhashable in a shape: read the points
        key, found = None, None
    if found is not None:
        return found
    x0, y0, x1, y1 = box
    across = max(1, min(256, math.ceil((x1 - x0) / (SAMPLE_MM * MM))))
    up = max(1, min(16, math.ceil((y1 - y0) / (2 * SAMPLE_MM * MM))))
    ground = _Ground()
    ground.layers = layers
    found = tuple(dict.fromkeys(ground.top(x0 + (x1 - x0) * i / across, y0 + (y1 - y0) * j / up)
                                for i in range(across + 1) for j in range(up + 1)))
    if key is not None:
        if len(_SHOWN) >= SHOWN_MAX:
            _SHOWN.clear()
        _SHOWN[key] = found
    return found


def _shape_only(shape):
    """A shape with its colours left out: what decides where it is, not how it looks."""
    fields = getattr(shape, "_fields", ())
    return shape._replace(**{name: None for name in ("fill", "stroke") if name in fields})


def _without_text(primitives) -> tuple:
    return tuple(Group(item.x, item.y, item.angle, _without_text(item.children)) if isinstance(item, Group)
                 else item for item in primitives if not isinstance(item, Text))


def face_readings(face, fonts, dpi: int = 300) -> list[Reading]:
    """`readings` of a FaceLayout, the runs over an image or an icon included: the face is drawn without its
    text (pdfium, at `dpi`) and their ground read from the pixels at their points."""
    found = readings(face.primitives)
    if all(r.ground is not None for r in found):
        return found
    import pypdfium2 as pdfium

    from pipeline.render.faces.primitives import draw_all
    from pipeline.render.pdf import new_canvas

    buffer = io.BytesIO()
    canvas = new_canvas(buffer, (face.width + 2 * face.bleed, face.height + 2 * face.bleed), fonts)
    canvas.translate(face.bleed, face.bleed)
    draw_all(canvas, _without_text(face.primitives), face.project_root, {})
    canvas.showPage()
    canvas.save()
    pdf = pdfium.PdfDocument(buffer.getvalue())
    try:
        scale = dpi / 72.0
        image = pdf[0].render(scale=scale, rev_byteorder=True).to_pil()
    finally:
        pdf.close()

    def pixel(x: float, y: float) -> tuple:
        column = min(image.width - 1, max(0, int((x + face.bleed) * scale)))
        row = min(image.height - 1, max(0, int((face.height + face.bleed - y) * scale)))
        return tuple(c / 255.0 for c in image.getpixel((column, row)))

    out = []
    for reading in found:
        if reading.ground is None:
            grounds = [pixel(x, y) for x, y in reading.points]
            ground = min(grounds, key=lambda g: contrast(reading.colour, g))
            reading = reading._replace(ground=ground, ratio=contrast(reading.colour, ground))
        out.append(reading)
    return out
