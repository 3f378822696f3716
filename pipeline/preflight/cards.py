"""Where the cards of a page are, read back from the page itself (pipeline/preflight/reading.py's facts):

- a picture clipped to a rectangle (how pnp places a face) whose four edges lie on crop-mark lines is a card:
  its trim is those four lines (the clip itself on sheets with shared cut lines, the lines a bleed's width
  inside it on sheets that keep each card's bleed); a clipped picture no mark lines up with (a rulebook's
  figure, a score sheet) is not a card;
- with no such picture (a PDF from elsewhere), the cut lines the marks draw (two marks or more on one line)
  make a grid, narrow intervals between wider ones are gutters, and every cell something is drawn across is a
  card;
- a print-shop page (a TrimBox inside its MediaBox, no marks) is one card: its TrimBox.

A crop mark is a short straight thin stroke drawn outside the pictures (reading.Stroke)."""

from __future__ import annotations

from dataclasses import dataclass

from pipeline.preflight.geometry import Rect, centre, height, overlap, pt, width
from pipeline.preflight.reading import PageFacts, Stroke

ON_LINE = pt(0.1)               # a mark lies on a card's edge line within this
BLEED_MAX = pt(6)               # how far inside a clip a card's trim may be (its bleed on the sheet)
INSIDE = pt(0.02)               # a mark entering a card by less than this is on its edge, not inside
INSIDE_RUN = pt(0.1)            # and must run at least this far inside to count


@dataclass(frozen=True)
class Cards:
    method: str                 # "faces" (clipped pictures on mark lines), "marks" (a grid), "TrimBox", ""
    rects: tuple[Rect, ...]


def find_cards(facts: PageFacts) -> Cards:
    xs = sorted({round(s.x0, 2) for s in facts.strokes if s.vertical})
    ys = sorted({round(s.y0, 2) for s in facts.strokes if not s.vertical})
    faces = [trim for clip in facts.clipped if (trim := _on_mark_lines(clip, xs, ys)) is not None]
    if faces:
        return Cards("faces", tuple(faces))
    trim, media = facts.boxes["TrimBox"], facts.media
    if trim is not None and overlap(trim, media) is not None and trim != media:
        return Cards("TrimBox", (trim,))
    grid = _grid(facts)
    return Cards("marks", grid) if grid else Cards("", ())


def _grid(facts: PageFacts) -> tuple[Rect, ...]:
    """The cells of the cut lines' grid that something is drawn across; none when most of the strokes on the
    lines run through those cells (a table's rules, not crop marks, which stay outside the cards)."""
    xs, ys = cut_lines(facts.strokes, True), cut_lines(facts.strokes, False)
    cards = []
    for y0, y1 in _spans(ys):
        for x0, x1 in _spans(xs):
            cell = (x0, y0, x1, y1)
            cx, cy = centre(cell)
            if any(r[0] <= cx <= r[2] and r[1] <= cy <= r[3] for r in facts.drawn):
                cards.append(cell)
    on_lines = [s for s in facts.strokes if any(abs((s.x0 if s.vertical else s.y0) - line) <= ON_LINE
                                                for line in (xs if s.vertical else ys))]
    crossing = {id(s) for s, _, _ in marks_inside(on_lines, tuple(cards))}
    return tuple(cards) if 2 * len(crossing) < len(on_lines) else ()


def _on_mark_lines(clip: Rect, xs: list[float], ys: list[float]) -> Rect | None:
    """The trim of a clipped picture: its clip, or the clip less a bleed the same on every side, when mark
    lines run along at least one vertical and one horizontal side at that inset (a pooled sheet leaves out
    the marks of a line that would cross another block of cards); None when no mark lines up."""
    inward_x, inward_y = min(BLEED_MAX, width(clip) / 4), min(BLEED_MAX, height(clip) / 4)
    sides = ([x - clip[0] for x in xs if -ON_LINE <= x - clip[0] <= inward_x],
             [y - clip[1] for y in ys if -ON_LINE <= y - clip[1] <= inward_y],
             [clip[2] - x for x in xs if -ON_LINE <= clip[2] - x <= inward_x],
             [clip[3] - y for y in ys if -ON_LINE <= clip[3] - y <= inward_y])
    insets = [min(side, key=abs) for side in sides if side]
    if not ((sides[0] or sides[2]) and (sides[1] or sides[3])) or max(insets) - min(insets) > ON_LINE:
        return None
    inset = max(sum(insets) / len(insets), 0.0)
    return (clip[0] + inset, clip[1] + inset, clip[2] - inset, clip[3] - inset)


def cut_lines(strokes: list[Stroke], vertical: bool) -> list[float]:
    """The lines two marks or more lie on (a mark at each end of a cut), sorted."""
    counts: dict[float, int] = {}
    for s in strokes:
        if s.vertical == vertical:
            at = s.x0 if vertical else s.y0
            near = next((line for line in counts if abs(line - at) <= ON_LINE), at)
            counts[near] = counts.get(near, 0) + 1
    return sorted(line for line, n in counts.items() if n >= 2)


def _spans(lines: list[float]) -> list[tuple[float, float]]:
    """The intervals between consecutive cut lines that are cards: all of them, or, when every other one is
    narrower than half of the rest (gutters between cards that do not share their cut lines), the wide ones."""
    spans = list(zip(lines, lines[1:]))
    if len(spans) >= 3 and len(spans) % 2:
        wide, narrow = spans[0::2], spans[1::2]
        if max(b - a for a, b in narrow) < 0.5 * min(b - a for a, b in wide):
            return wide
    return spans


def marks_inside(strokes: list[Stroke], cards: tuple[Rect, ...]) -> list[tuple[Stroke, Rect, float]]:
    """Every mark that reaches inside a card's trim, with the card and how far (pt) it runs there; its stroke's
    width counts, so a mark along a card's edge prints half of itself on the card."""
    found = []
    for s in strokes:
        half = s.width / 2
        r = s.rect
        body = (r[0] - half, r[1], r[2] + half, r[3]) if s.vertical else (r[0], r[1] - half, r[2], r[3] + half)
        for card in cards:
            common = overlap(body, (card[0] + INSIDE, card[1] + INSIDE, card[2] - INSIDE, card[3] - INSIDE))
            if common is not None:
                common = overlap(body, card)
                run = height(common) if s.vertical else width(common)
                if run >= INSIDE_RUN:
                    found.append((s, card, run))
    return found
