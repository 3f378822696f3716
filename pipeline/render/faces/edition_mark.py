"""The edition mark (issue 21): small grey text on every face and printed page saying which printing it is.

A face's mark is "Game · version · id", the id being the short data id of the values the face is drawn with,
its place in the deck left out (pipeline/core/edition.py card_id), so two printings of a card can be told apart and
a playtester can report "carte 3f2a";
a deck's back, no one card's, says "Game · version" (so identical backs stay one face).
A page's mark is "Game · version", drawn by the page writers at the end of their header band
(render/sheets/decor.py draw_header) or beside a rulebook's page number, from the `edition` of the PDF credits the build
sets around each component's files (pipeline/render/pdf.py).

On a face the mark is set in the game's body font at SIZE, in the lightest grey that reaches MARK_RATIO (WCAG 2,
render/colours.py) against every colour drawn under it (render/faces/contrast.py: a darker grey on a pale
wash, a light one on a dark band), inside the safe zone (SAFE_MM from the trim, or SMALL_SHARE of a token's
side under SMALL_SIDE_MM), at the template's `edition_mark: {anchor: …, inset: …}` (bottom centre by
default; `inset`, in mm from the trim, only moves it further in, past a frame drawn along the edge), and
GAP_MM or more from any of the face's own text. A face too narrow for the whole mark, or where it would come
that close to the face's text (a long name), gets the shorter forms of `Edition.texts` (version and id, then
the id alone), or the mark goes to another corner or edge, where a grey reads if one does (over a pattern,
where none does, it stands on a plate of its own); a token carries its id alone, and one under MIN_SIDE_MM
none.
The mark is added after layout (`stamp`), so faces compared by `pnp diff` and the layout cache stay unmarked.
"""

from __future__ import annotations

import bisect
import hashlib
import math
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any, Mapping

from pipeline.core.edition import card_id, mark_text
from pipeline.core.units import MM
from pipeline.render.colours import RATIO, contrast, luminance, luminance_ratio
from pipeline.render.faces.contrast import Grounds
from pipeline.render.faces.primitives import Group, Rect, Text
from pipeline.render.faces.text import add_run, font_metrics
from pipeline.render.glyphs import string_width

SIZE = 5.0                          # pt: read at a glance, and quoted in every playtest report ("carte 7861")
MARK_RATIO = RATIO + 0.1            # WCAG 2 contrast with its ground, with a margin over the 4.5:1 text needs
GAP_MM = 1.0                        # from any other text of the face
SAFE_MM = 3.0                       # the print-and-play safe zone (tests/render/test_safe_zone.py)
SMALL_SIDE_MM = 30.0                # under this side a face is a token: its margin is SMALL_SHARE of the side
SMALL_SHARE = 0.10
MIN_SIDE_MM = 12.0                  # a smaller token has no room for a mark: its sheet's header carries it
PLATE_PAD_MM = 0.6                  # around a mark that needs a plate of its own (less than GAP_MM)
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


_STAMPED: dict[tuple, Any] = {}      # (face key, texts, fonts) -> (marked key, primitives): a deck's copies share one
STAMPED_MAX = 4096


def stamp(face, texts: tuple[str, ...], fonts):
    """`face` with its mark (`_stamp`), worked out once for identical faces (the same key: the same drawing)."""
    key = (face.key, face.width, face.height, face.mark_anchor, face.mark_inset, texts, fonts.name("body"),
           fonts.fallbacks)
    marked = _STAMPED.get(key)
    if marked is None:
        if len(_STAMPED) >= STAMPED_MAX:
            _STAMPED.clear()
        marked = _STAMPED[key] = _stamp(face, texts, fonts)
    return face if marked is None else replace(face, key=marked[0], primitives=marked[1])


def _stamp(face, texts: tuple[str, ...], fonts) -> tuple[str, tuple] | None:
    """The key and primitives of `face` (a FaceLayout) with its mark drawn last (None: no room for one): the
    first of `texts` that fits across the safe zone and comes no closer than GAP_MM to the face's own text at
    the face's anchor, else at the next anchor where one does, preferring a place where a grey reads on what
    is under it; else the shortest at the face's anchor. Where no grey reads at any of them (a mark across a pattern), the first clear place gets a plate
    of the lightest colour under it, PLATE_PAD_MM around the mark. Its key changes with the mark, so faces
    with different marks are never shared."""
    font, fallbacks = fonts.name("body"), fonts.fallbacks
    ascent, descent = fonts.ascent("body") * SIZE, fonts.descent("body") * SIZE
    inset = (max(safe_margin_mm(face.width / MM, face.height / MM), face.mark_inset) + SLACK_MM) * MM
    room = face.width - 2 * inset
    if min(face.width, face.height) < MIN_SIDE_MM * MM or ascent + descent > face.height - 2 * inset:
        return None
    fitting = [(t, w) for t in texts for w in (string_width(t, font, SIZE, fallbacks),) if w <= room]
    if not fitting:
        return None
    gap = (GAP_MM + SLACK_MM) * MM
    bands = ((inset - gap, inset + descent + ascent + gap),
             (face.height - inset - descent - ascent - gap, face.height - inset + gap))
    taken = [(x0 - gap, y0 - gap, x1 + gap, y1 + gap) for x0, y0, x1, y1 in text_boxes(face.primitives, bands=bands)]
    places = []                 # (text, x, y): the face's anchor first, every form longest first, then the others
    for anchor in (face.mark_anchor, *(a for a in ANCHORS if a != face.mark_anchor)):
        vertical, _, horizontal = anchor.partition("-")
        y = inset + descent if vertical == "bottom" else face.height - inset - ascent
        for text, width in fitting:
            x = {"left": inset, "right": face.width - inset - width}.get(horizontal, (face.width - width) / 2)
            places.append((text, x, y, (x, y - descent, x + width, y + ascent)))
    clear = [p for p in places if not any(_overlap(p[3], box) for box in taken)]
    grounds = Grounds(face.primitives, bands)           # every place is inside a band
    chosen = next(((p, grey) for p in clear for grey in (mark_grey(grounds.under(p[3])),) if grey is not None),
                  None)
    plate = ()
    if chosen is None:          # a pattern or a border under every place: the mark gets a plate of its own
        place = clear[0] if clear else places[len(fitting) - 1]
        x0, y0, x1, y1 = place[3]
        fill = max(_known(grounds.under(place[3])), key=luminance)
        pad = PLATE_PAD_MM * MM
        plate = (Rect(x0 - pad, y0 - pad, x1 - x0 + 2 * pad, y1 - y0 + 2 * pad, pad, fill, None, 0.0, None),)
        chosen = place, mark_grey([fill]) or closest_grey([fill])
    (text, x, y, _), grey = chosen
    runs: list = []
    add_run(runs, font, SIZE, x, y, text, fallbacks)
    key = hashlib.sha1(f"{face.key}\0{text}\0{x:.3f},{y:.3f}\0{grey}\0{plate}".encode("utf-8")).hexdigest()
    return key, (*face.primitives, *plate, Text(grey, tuple(runs), (), SIZE))


def _known(grounds) -> tuple:
    return tuple(g for g in grounds if g is not None) or ((1.0, 1.0, 1.0),)


_GREY_LUMINANCE = [luminance((v / 255,) * 3) for v in range(256)]     # grey level -> its luminance


@lru_cache(maxsize=512)
def _grey(grounds: tuple) -> tuple[float, float, float] | None:
    dark = min(contrast((0, 0, 0), g) for g in grounds) >= min(contrast((1, 1, 1), g) for g in grounds)
    under = [luminance(g) for g in grounds]

    def reads(v: int) -> bool:      # colours.contrast of (v / 255,) * 3 and each ground, luminances worked out once
        return min(luminance_ratio(_GREY_LUMINANCE[v], lg) for lg in under) >= MARK_RATIO

    # The first level that reads, from the ground's side towards the far end (255 down to 0 for a dark mark,
    # 0 up for a light one). On one ground the levels that read are those up to some `low` and from some
    # `high` on (the ratio falls as the grey nears the ground's luminance, rises past it); on several, the
    # levels every one of them allows, whose largest is 255 or some ground's `low`, whose smallest 0 or some
    # ground's `high`: those few are tried in order, with the same test as all 256 would be.
    ends = [_reading_ends(lg) for lg in under]
    candidates = sorted({255, *(low for low, _ in ends)}, reverse=True) if dark else \
        sorted({0, *(high for _, high in ends)})
    return next(((v / 255,) * 3 for v in candidates if 0 <= v <= 255 and reads(v)), None)


def _reading_ends(ground: float) -> tuple[int, int]:
    """(low, high) for a ground of this luminance: levels 0..low read darker than it, high..255 lighter (each
    side possibly empty: low -1, high 256), by the test `_grey` makes, found by bisection on each side."""
    cross = bisect.bisect_left(_GREY_LUMINANCE, ground)        # levels below it are darker than the ground

    def ratio(v: int) -> float:
        return luminance_ratio(_GREY_LUMINANCE[v], ground)
    lo, hi = 0, cross                   # the first darker level that does not read (falls as v rises)
    while lo < hi:
        mid = (lo + hi) // 2
        lo, hi = (mid + 1, hi) if ratio(mid) >= MARK_RATIO else (lo, mid)
    low = lo - 1
    lo, hi = cross, 256                 # the first lighter level that reads (rises as v rises)
    while lo < hi:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if ratio(mid) >= MARK_RATIO else (mid + 1, hi)
    return low, lo


def mark_grey(grounds) -> tuple[float, float, float] | None:
    """The grey of a mark drawn over these ground colours: the lightest that reaches MARK_RATIO on all of them
    where they are light, the darkest where they are dark; None when no grey does (a mark across a dark band
    and a light one) or when an image is under it (None among the grounds: its colours are unknown)."""
    return None if any(g is None for g in grounds) else _grey(_known(grounds))


def closest_grey(grounds) -> tuple[float, float, float]:
    """The grey that reads best over these grounds when none reaches MARK_RATIO: black or white."""
    known = _known(grounds)
    return max(((0.0,) * 3, (1.0,) * 3), key=lambda grey: min(contrast(grey, g) for g in known))


PAGE_GREY = mark_grey([(1.0, 1.0, 1.0)])      # a page's mark, on the white paper of its header band


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
    canvas.setFillColorRGB(*PAGE_GREY)
    draw_string(canvas, x, y, text, font, SIZE, fonts.fallbacks, align=align)
    canvas.restoreState()
    return string_width(text, font, SIZE, fonts.fallbacks)
