"""The edition mark (issue 21): small grey text on every face and printed page saying which printing it is.

A face's mark is "Game · version · id", the id being the short data id of the values the face is drawn with,
its place in the deck left out (pipeline/core/edition.py card_id), so two printings of a card can be told apart and
a playtester can report "carte 3f2a";
a deck's back, no one card's, says "Game · version" (so identical backs stay one face).
A page's mark is "Game · version", drawn by the page writers at the end of their header band
(render/sheets/decor.py draw_header) or beside a rulebook's page number, from the `edition` of the PDF credits the build
sets around each component's files (pipeline/render/pdf.py).

On a face the mark is set in the game's body font at SIZE, in a grey that still prints, inside the safe zone
(SAFE_MM from the trim, or SMALL_SHARE of a token's side under SMALL_SIDE_MM), at the template's
`edition_mark: {anchor: …, inset: …}` (bottom centre by default; `inset`, in mm from the trim, only moves it
further in, past a frame drawn along the edge). A face too narrow for the whole mark, or where it would
touch the face's own text (a long name), gets the shorter forms of `Edition.texts` (version and id, then the
id alone), or, when even the id would touch it, the mark goes to another corner or edge; a token carries its
id alone, and one under MIN_SIDE_MM none.
The mark is added after layout (`stamp`), so faces compared by `pnp diff` and the layout cache stay unmarked.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field, replace
from typing import Any, Mapping

from pipeline.core.edition import card_id, mark_text
from pipeline.core.units import MM
from pipeline.render.faces.primitives import Group, Rect, Text
from pipeline.render.faces.text import add_run, font_metrics
from pipeline.render.glyphs import string_width

SIZE = 4.5                          # pt: legible with a loupe, invisible at arm's length
GREY = (0.6, 0.6, 0.6)              # 40 % black: light, yet every home printer prints it
DARK_GREY = (0.25, 0.25, 0.25)      # on a mid-tone ground (a team colour), where 40 % would not read
LIGHT_GREY = (0.85, 0.85, 0.85)     # on a dark ground
MARK_GREYS = (GREY, DARK_GREY, LIGHT_GREY)
SAFE_MM = 3.0                       # the print-and-play safe zone (tests/render/test_safe_zone.py)
SMALL_SIDE_MM = 30.0                # under this side a face is a token: its margin is SMALL_SHARE of the side
SMALL_SHARE = 0.10
MIN_SIDE_MM = 12.0                  # a smaller token has no room for a mark: its sheet's header carries it
SLACK_MM = 0.2                      # the glyph boxes a PDF reader measures run a little beyond ascent + descent
ANCHORS = ("bottom", "bottom-left", "bottom-right", "top", "top-left", "top-right")
DEFAULT_ANCHOR = "bottom"


@dataclass(frozen=True)
class Edition:
    """What one game's marks say. `ids`: each face's full data id -> its short form over the whole game."""

    title: str
    version: str
    ids: Mapping[str, str] = field(default_factory=dict)     # edition.card_id -> short id

    @property
    def page_text(self) -> str:
        """'Build It · v0.1': the mark of a printed page (no card's id)."""
        return mark_text(self.title, self.version, None)

    def short(self, context: Mapping[str, Any]) -> str:
        """The short id of a card drawn with these values (its full id's prefix when the game did not list it)."""
        full = card_id(context)
        return self.ids.get(full, full[:4])

    def texts(self, context: Mapping[str, Any] | None, token: bool = False) -> tuple[str, ...]:
        """A face's mark, longest first: the whole mark, then without the title, then the id alone. A face
        that is no one card's (context None: a deck's back) says the game and the version only. A token
        (`token`: smaller than SMALL_SIDE_MM) carries its id alone, its back nothing: its sheet's header says
        the game and the version."""
        if context is None:
            return () if token else (self.page_text, self.version)
        short = self.short(context)
        return (short,) if token else (mark_text(self.title, self.version, short), f"{self.version} · {short}", short)


def safe_margin_mm(width_mm: float, height_mm: float) -> float:
    """How far inside the trim a face's text stays: SAFE_MM, or SMALL_SHARE of a token's smaller side."""
    side = min(width_mm, height_mm)
    return min(SAFE_MM, SMALL_SHARE * side) if side < SMALL_SIDE_MM else SAFE_MM


def stamp(face, texts: tuple[str, ...], fonts):
    """`face` (a FaceLayout) with its mark drawn last: the first of `texts` that fits across the safe zone and
    touches none of the face's own text at the face's anchor, else at the next anchor where one does, else the
    shortest at the face's anchor. Its key changes with the mark, so faces with different marks are never
    shared."""
    font, fallbacks = fonts.name("body"), fonts.fallbacks
    ascent, descent = fonts.ascent("body") * SIZE, fonts.descent("body") * SIZE
    inset = (max(safe_margin_mm(face.width / MM, face.height / MM), face.mark_inset) + SLACK_MM) * MM
    room = face.width - 2 * inset
    if min(face.width, face.height) < MIN_SIDE_MM * MM or ascent + descent > face.height - 2 * inset:
        return face
    fitting = [(t, w) for t in texts for w in (string_width(t, font, SIZE, fallbacks),) if w <= room]
    if not fitting:
        return face
    bands = ((inset, inset + descent + ascent), (face.height - inset - descent - ascent, face.height - inset))
    taken = text_boxes(face.primitives, bands=bands)
    places = []                 # (text, x, y): the face's anchor first, every form longest first, then the others
    for anchor in (face.mark_anchor, *(a for a in ANCHORS if a != face.mark_anchor)):
        vertical, _, horizontal = anchor.partition("-")
        y = inset + descent if vertical == "bottom" else face.height - inset - ascent
        for text, width in fitting:
            x = {"left": inset, "right": face.width - inset - width}.get(horizontal, (face.width - width) / 2)
            places.append((text, x, y, (x, y - descent, x + width, y + ascent)))
    text, x, y, _ = next((p for p in places if not any(_overlap(p[3], box) for box in taken)),
                         places[len(fitting) - 1])
    runs: list = []
    add_run(runs, font, SIZE, x, y, text, fallbacks)
    grey = mark_grey(face.primitives, x + string_width(text, font, SIZE, fallbacks) / 2, y + (ascent - descent) / 2)
    key = hashlib.sha1(f"{face.key}\0{text}\0{x:.3f},{y:.3f}\0{grey}".encode("utf-8")).hexdigest()
    return replace(face, key=key, primitives=(*face.primitives, Text(grey, tuple(runs), (), SIZE)))


def mark_grey(primitives, x: float, y: float) -> tuple[float, float, float]:
    """The grey that reads on the ground at (x, y): the fill of the last filled rectangle of the face drawn
    there (white where there is none). GREY on a light ground, DARK_GREY on a mid-tone one, LIGHT_GREY on a
    dark one (relative luminance of the ground: 0.8 and 0.45 the thresholds)."""
    ground = (1.0, 1.0, 1.0)
    for item in primitives:
        if isinstance(item, Rect) and item.fill and item.x <= x <= item.x + item.width \
                and item.y <= y <= item.y + item.height:
            ground = item.fill
    luminance = 0.2126 * ground[0] + 0.7152 * ground[1] + 0.0722 * ground[2]
    return GREY if luminance >= 0.8 else DARK_GREY if luminance >= 0.45 else LIGHT_GREY


def text_boxes(primitives, origin: tuple[float, float] = (0.0, 0.0), angle: float = 0.0,
               bands: tuple[tuple[float, float], ...] | None = None) -> list[tuple]:
    """The box (x0, y0, x1, y1, points, in the face's frame) of every run of text the primitives draw, groups
    (moved and turned) included: what the mark must keep clear of. With `bands` (y0, y1), an unturned run
    that reaches none of them is left out unmeasured: only a box there can touch a mark there."""
    boxes = []
    cos, sin = math.cos(math.radians(angle)), math.sin(math.radians(angle))

    def place(x: float, y: float) -> tuple[float, float]:
        return origin[0] + x * cos - y * sin, origin[1] + x * sin + y * cos

    for item in primitives:
        if isinstance(item, Text):
            for run in item.runs:
                if not run.text.strip():
                    continue
                up, down, _ = font_metrics(run.font)
                if bands is not None and angle == 0.0:
                    low, high = origin[1] + run.y - down * run.size, origin[1] + run.y + up * run.size
                    if not any(min(high, b1) > max(low, b0) for b0, b1 in bands):
                        continue
                width = string_width(run.text, run.font, run.size)
                corners = [place(run.x + dx, run.y + dy) for dx in (0, width) for dy in (-down * run.size,
                                                                                        up * run.size)]
                boxes.append((min(c[0] for c in corners), min(c[1] for c in corners),
                              max(c[0] for c in corners), max(c[1] for c in corners)))
        elif isinstance(item, Group):
            boxes += text_boxes(item.children, place(item.x, item.y), angle + item.angle, bands)
    return boxes


def _overlap(a: tuple, b: tuple) -> bool:
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


def draw_page_mark(canvas, fonts, x: float, y: float, text: str, align: str = "right") -> float:
    """A page's mark with its baseline at (x, y) points, `align`ed there (left, centre, right); returns its
    width in points (0 when `text` is empty)."""
    from pipeline.render.glyphs import draw_string

    if not text:
        return 0.0
    font = fonts.name("body")
    canvas.saveState()
    canvas.setFillColorRGB(*GREY)
    draw_string(canvas, x, y, text, font, SIZE, fonts.fallbacks, align=align)
    canvas.restoreState()
    return string_width(text, font, SIZE, fonts.fallbacks)
