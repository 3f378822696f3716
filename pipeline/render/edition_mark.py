"""The edition mark (issue 21): small grey text on every face and printed page saying which printing it is.

A face's mark is "Game · version · id", the id being the short data id of the values the face is drawn with,
its place in the deck left out (pipeline/edition.py card_id), so two printings of a card can be told apart and
a playtester can report "carte 3f2a";
a deck's back, no one card's, says "Game · version" (so identical backs stay one face).
A page's mark is "Game · version", drawn by the page writers at the end of their header band
(sheetdecor.draw_header) or beside a rulebook's page number, from the `edition` of the PDF credits the build
sets around each component's files (pipeline/render/pdf.py).

On a face the mark is set in the game's body font at SIZE, in a grey that still prints, inside the safe zone
(SAFE_MM from the trim, or SMALL_SHARE of a token's side under SMALL_SIDE_MM), at the template's
`edition_mark: {anchor: …, inset: …}` (bottom centre by default; `inset`, in mm from the trim, only moves it
further in, past a frame drawn along the edge). A face too narrow for the whole mark gets the shorter
forms of `Edition.texts` (version and id, then the id alone); a token under MIN_SIDE_MM gets none.
The mark is added after layout (`stamp`), so faces compared by `pnp diff` and the layout cache stay unmarked.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, replace
from typing import Any, Mapping

from pipeline.edition import card_id, mark_text
from pipeline.render.glyphs import string_width
from pipeline.render.primitives import Text
from pipeline.render.text import add_run
from pipeline.units import MM

SIZE = 4.5                          # pt: legible with a loupe, invisible at arm's length
GREY = (0.6, 0.6, 0.6)              # 40 % black: light, yet every home printer prints it
SAFE_MM = 3.0                       # the print-and-play safe zone (tests/test_safe_zone.py)
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

    def texts(self, context: Mapping[str, Any] | None) -> tuple[str, ...]:
        """A face's mark, longest first: the whole mark, then without the title, then the id alone. A face
        that is no one card's (context None: a deck's back) says the game and the version only."""
        if context is None:
            return self.page_text, self.version
        short = self.short(context)
        return mark_text(self.title, self.version, short), f"{self.version} · {short}", short


def safe_margin_mm(width_mm: float, height_mm: float) -> float:
    """How far inside the trim a face's text stays: SAFE_MM, or SMALL_SHARE of a token's smaller side."""
    side = min(width_mm, height_mm)
    return min(SAFE_MM, SMALL_SHARE * side) if side < SMALL_SIDE_MM else SAFE_MM


def stamp(face, texts: tuple[str, ...], fonts):
    """`face` (a FaceLayout) with its mark drawn last: the first of `texts` that fits across the safe zone,
    at the face's anchor. Its key changes with the mark, so faces with different marks are never shared."""
    font, fallbacks = fonts.name("body"), fonts.fallbacks
    ascent, descent = fonts.ascent("body") * SIZE, fonts.descent("body") * SIZE
    inset = (max(safe_margin_mm(face.width / MM, face.height / MM), face.mark_inset) + SLACK_MM) * MM
    room = face.width - 2 * inset
    if min(face.width, face.height) < MIN_SIDE_MM * MM or ascent + descent > face.height - 2 * inset:
        return face
    text = next((t for t in texts if string_width(t, font, SIZE, fallbacks) <= room), None)
    if text is None:
        return face
    width = string_width(text, font, SIZE, fallbacks)
    vertical, _, horizontal = face.mark_anchor.partition("-")
    x = {"left": inset, "right": face.width - inset - width}.get(horizontal, (face.width - width) / 2)
    y = inset + descent if vertical == "bottom" else face.height - inset - ascent
    runs: list = []
    add_run(runs, font, SIZE, x, y, text, fallbacks)
    key = hashlib.sha1(f"{face.key}\0{text}\0{x:.3f},{y:.3f}".encode("utf-8")).hexdigest()
    return replace(face, key=key, primitives=(*face.primitives, Text(GREY, tuple(runs), (), SIZE)))


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
