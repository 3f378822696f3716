"""A stack of real cards as a rulebook figure (a generic figure kind): the faces of a game's own card templates
drawn as a cascade, the bottom card of the pile first and highest, each next card shifted down and drawn over
it so that the top band of every card (its name, its values) stays visible. A pile on the table reads from the
first card played to the last; the figure reads the same way, top to bottom. Each card may carry a label
beside its band and a mark over it ("cross": the card is ignored; "foul": the card is a foul), and the pile a
caption under it.

A game puts a StackFigure among its RulebookSpec.figures; the rulebook kind (pipeline/kinds/rulebook.py) lays
it out with the build's own `layout`: every card through its template, then the labels, marks and caption
through templates/common/fig-stack.yaml. The result, a StackLayout, is drawn by a figure row like any face.
It is legible: what a card hides of the card under it is not drawn at all (so the PDF's text is the text one
sees, bottom card first), and smallest_text reads only what is drawn, so the layout never reduces the figure
so far that a visible word prints under 6 pt. Nothing here knows any game."""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from pipeline.core.units import MM
from pipeline.data.specs import FaceSpec
from pipeline.render.faces.art import Art, Placeholder
from pipeline.render.faces.primitives import Circle, Group, Line, Polygon, Rect, Text, draw_all

OVERLAY = "../common/fig-stack.yaml"     # relative to a game's template folder, as FaceSpec.template is
MARKS = ("", "cross", "foul")
GAP_MM = 2.0                # between the cards and their labels
LABEL_MARGIN_MM = 1.0       # between a label and the figure's right edge
CAPTION_MM = 8.0            # the caption's line(s) under the pile
OUTLINE = (0.45, 0.45, 0.45)
OUTLINE_WIDTH = 0.5
CORNER_MM = 2.5             # the outline's corner radius (a poker card's)
ASCENT, DESCENT = 0.75, 0.22    # of a font size: a run's glyph box above and below its baseline
CHAR_WIDTH = 0.6            # of a font size: a generous mean advance, for a rotated run's extent


@dataclass(frozen=True)
class StackCard:
    """One card of a pile: its real face, and what the figure says about it."""

    face: FaceSpec
    label: str = ""             # beside its band ("faute", "ignorée", "total 12")
    mark: str = ""              # one of MARKS
    band_mm: float | None = None    # what shows of it under the next card (None: the figure's band_mm)

    def __post_init__(self):
        if self.mark not in MARKS:
            raise ValueError(f"stack card {self.face.name}: mark {self.mark!r} is not one of {MARKS}")
        if self.band_mm is not None and self.band_mm <= 0:
            raise ValueError(f"stack card {self.face.name}: band_mm must be positive")


@dataclass(frozen=True)
class StackFigure:
    """A pile of cards, bottom card first. Sizes in mm: `band_mm` of every card but the top one shows (a
    card's own band_mm overrides it); the top card shows `top_mm` (None: the whole card); the labels take a
    column `label_mm` wide on the right (none when no card has a label)."""

    name: str
    cards: tuple[StackCard, ...]
    band_mm: float = 14.0
    top_mm: float | None = None
    label_mm: float = 21.0
    caption: str = ""
    legible: bool = field(default=True, init=False)    # a rulebook diagram (FaceSpec.legible)

    def __post_init__(self):
        if not self.cards:
            raise ValueError(f"stack figure {self.name}: no card")
        if self.band_mm <= 0 or (self.top_mm is not None and self.top_mm <= 0):
            raise ValueError(f"stack figure {self.name}: band_mm and top_mm must be positive")

    @property
    def faces(self) -> tuple[FaceSpec, ...]:
        return tuple(card.face for card in self.cards)

    def shown_mm(self, card_height_mm: float) -> list[float]:
        """How much of each card shows, bottom card first: its band, the top card's `top_mm`."""
        shown = [min(card.band_mm or self.band_mm, card_height_mm) for card in self.cards[:-1]]
        return shown + [card_height_mm if self.top_mm is None else min(card_height_mm, self.top_mm)]


@dataclass(frozen=True)
class StackLayout:
    """A laid-out pile, drawn like a FaceLayout (trim box's bottom-left at (0, 0), points, y up). `primitives`
    are what is drawn: one Group per card (bottom card first, only what shows of it), then the overlay;
    `clips` the part of the figure each card's group is clipped to."""

    key: str
    width: float
    height: float
    primitives: tuple
    clips: tuple[tuple[float, float, float, float], ...]
    missing_art: tuple[str, ...] = ()
    project_root: Path = Path(".")
    legible: bool = True
    bleed: float = 0.0

    def draw(self, canvas) -> None:
        canvas.saveState()
        for group, (x, y, w, h) in zip(self.primitives, self.clips):
            canvas.saveState()
            path = canvas.beginPath()
            path.rect(x, y, w, h)
            canvas.clipPath(path, stroke=0, fill=0)
            draw_all(canvas, (group,), self.project_root, {})
            canvas.restoreState()
        draw_all(canvas, self.primitives[len(self.clips):], self.project_root, {})
        canvas.restoreState()


def card_tops(shown_mm: list[float]) -> list[float]:
    """Each card's top edge, in mm below the figure's top: the bands of the cards under it."""
    tops, y = [], 0.0
    for shown in shown_mm:
        tops.append(round(y, 3))
        y += shown
    return tops


def lay_out_stack(stack: StackFigure, layout: Callable[[FaceSpec], object]) -> StackLayout:
    """The cards laid out by `layout` (the build's, which reports a card's template problems), then the
    overlay; the figure is the pile, plus the label column and the caption when there are any."""
    faces = [layout(card.face) for card in stack.cards]
    card_w, card_h = max(face.width for face in faces), max(face.height for face in faces)
    shown = stack.shown_mm(card_h / MM)
    tops = card_tops(shown)
    labelled = any(card.label for card in stack.cards)
    width = card_w + ((GAP_MM + stack.label_mm) * MM if labelled else 0.0)
    pile_h = sum(shown) * MM
    height = pile_h + (CAPTION_MM * MM if stack.caption else 0.0)
    groups, clips = [], []
    for face, top, seen in zip(faces, tops, shown):
        y = height - top * MM - face.height               # the card's trim origin, points, y up
        box = (0.0, face.height - seen * MM, face.width, face.height)
        outline = Rect(0.0, 0.0, face.width, face.height, CORNER_MM * MM, None, OUTLINE, OUTLINE_WIDTH, None)
        groups.append(Group(0.0, y, 0.0, visible(face.primitives, box) + (outline,)))
        clips.append((0.0, y + face.height - seen * MM, face.width, seen * MM))
    context = overlay_context(stack, tops, shown, card_w / MM, width / MM, height / MM)
    overlay = layout(FaceSpec(OVERLAY, context, None, f"{stack.name}-overlay", size_mm=(width / MM, height / MM),
                              legible=True))
    key = hashlib.sha1("|".join([stack.name, *(face.key for face in faces), overlay.key,
                                 repr((shown, stack.label_mm))]).encode()).hexdigest()
    missing = tuple(dict.fromkeys(art for face in (*faces, overlay) for art in face.missing_art))
    return StackLayout(key, width, height, tuple(groups) + tuple(overlay.primitives), tuple(clips), missing,
                       faces[0].project_root)


def overlay_context(stack: StackFigure, tops: list[float], shown: list[float], card_w: float, width: float,
                    height: float) -> dict:
    """What templates/common/fig-stack.yaml draws with, in mm from the figure's top-left (y down). A card's
    `band` is its top band (the top card's too: its label and mark sit level with the others')."""
    bands = shown[:-1] + [min(shown[-1], stack.cards[-1].band_mm or stack.band_mm)]
    cards = [{"y": top, "h": round(seen, 3), "band": round(band, 3), "label": card.label, "mark": card.mark}
             for card, top, seen, band in zip(stack.cards, tops, shown, bands)]
    return {"size": [round(width, 3), round(height, 3)], "card_w": round(card_w, 3), "cards": cards,
            "label_x": round(card_w + GAP_MM, 3), "label_w": stack.label_mm - LABEL_MARGIN_MM, "caption": stack.caption,
            "caption_y": round(sum(shown) + 1.0, 3), "caption_h": CAPTION_MM - 1.0}


# --- what of a card shows ------------------------------------------------------------------------------

Transform = tuple[float, float, float, float]     # cos, sin, dx, dy: child point -> the card's


def visible(primitives: tuple, box: tuple[float, float, float, float],
            transform: Transform = (1.0, 0.0, 0.0, 0.0)) -> tuple:
    """The primitives of a face that show inside `box` (x0, y0, x1, y1 in the card's points): shapes that
    reach into it (the clip cuts them), and only the text runs whose letters lie wholly inside (a half-hidden
    line would print half letters)."""
    kept = []
    for item in primitives:
        if isinstance(item, Group):
            cos, sin = math.cos(math.radians(item.angle)), math.sin(math.radians(item.angle))
            c, s, dx, dy = transform
            inner = (c * cos - s * sin, s * cos + c * sin, *_apply(transform, item.x, item.y))
            children = visible(item.children, box, inner)
            if children:
                kept.append(item._replace(children=children))
        elif isinstance(item, Text):
            runs = tuple(run for run in item.runs if _inside(_run_box(run, transform), box))
            icons = tuple(icon for icon in item.icons if _meets(_extent(icon, transform), box))
            if runs or icons:
                kept.append(item._replace(runs=runs, icons=icons))
        elif _meets(_extent(item, transform), box):
            kept.append(item)
    return tuple(kept)


def _apply(transform: Transform, x: float, y: float) -> tuple[float, float]:
    c, s, dx, dy = transform
    return c * x - s * y + dx, s * x + c * y + dy


def _bounds(points, transform: Transform) -> tuple[float, float, float, float]:
    moved = [_apply(transform, x, y) for x, y in points]
    xs, ys = [p[0] for p in moved], [p[1] for p in moved]
    return min(xs), min(ys), max(xs), max(ys)


def _corners(x0: float, y0: float, x1: float, y1: float) -> list[tuple[float, float]]:
    return [(x0, y0), (x1, y0), (x0, y1), (x1, y1)]


def _extent(item, transform: Transform) -> tuple[float, float, float, float]:
    if isinstance(item, Rect) or isinstance(item, (Art, Placeholder)):
        return _bounds(_corners(item.x, item.y, item.x + item.width, item.y + item.height), transform)
    if isinstance(item, Circle):
        return _bounds(_corners(item.cx - item.r, item.cy - item.r, item.cx + item.r, item.cy + item.r), transform)
    if isinstance(item, Polygon):
        return _bounds(item.points, transform)
    if isinstance(item, Line):
        return _bounds([(item.x1, item.y1), (item.x2, item.y2)], transform)
    icon = item                 # an inline icon (x, y on the baseline, width, height)
    return _bounds(_corners(icon.x, icon.y, icon.x + icon.width, icon.y + icon.height), transform)


def _run_box(run, transform: Transform) -> tuple[float, float, float, float]:
    right = run.x + CHAR_WIDTH * run.size * len(run.text)
    return _bounds(_corners(run.x, run.y - DESCENT * run.size, right, run.y + ASCENT * run.size), transform)


def _meets(extent, box, slack: float = 0.01) -> bool:
    return extent[0] < box[2] - slack and extent[2] > box[0] + slack and extent[1] < box[3] - slack \
        and extent[3] > box[1] + slack


def _inside(extent, box, slack: float = 0.5) -> bool:
    """Vertically inside (horizontally, a run's width is estimated: meeting the box is enough)."""
    return extent[1] >= box[1] - slack and extent[3] <= box[3] + slack and _meets(extent, box)
