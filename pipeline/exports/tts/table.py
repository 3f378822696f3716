"""Where each object lands on the TTS table: a fixed arrangement, so that loading the Saved Object shows the
game laid out rather than piled at the origin.

- Boards first, in a row centred on the origin;
- decks in a row in front of them (towards −z), centred too;
- everything else (pages, tokens, dice) in a block beside them (towards +x), in shelves, top-aligned with the
  boards; each group (the pages, the tokens, one die's six faces) starts a shelf of its own.

Rows wrap at ROW_WIDTH units; objects keep GAP units apart. Footprints come from each object's real size
(objects.footprint), in TTS units (≈ inches [U]). Deterministic: the order of the objects given is kept.
"""

from __future__ import annotations

from typing import Sequence

from pipeline.exports.tts.objects import footprint, move

GAP = 1.0           # units between two objects
ROW_WIDTH = 60.0    # units: a row of boards or decks wraps beyond this
SIDE_WIDTH = 40.0   # units: the block of tokens, pages and dice wraps beyond this


def arrange(boards: Sequence[dict], decks: Sequence[dict], others: Sequence[Sequence[dict]]) -> None:
    """Set every object's posX/posZ (and its cards'): boards, then decks in front, then the groups of
    `others` beside them, each group (the pages, the tokens, one die's faces) starting a new shelf."""
    top = _rows_height(_shelves(boards, ROW_WIDTH)) / 2 if boards else 0.0   # boards centred on the origin
    bottom, right = top, 0.0
    for group in (boards, decks):
        for shelf in _shelves(group, ROW_WIDTH):
            width, height = _shelf_width(shelf), max(footprint(obj)[1] for obj in shelf)
            _place_row(shelf, -width / 2, bottom - height / 2)
            right = max(right, width / 2)
            bottom -= height + GAP
    left = right + 2 * GAP if boards or decks else 0.0
    for group in others:
        for shelf in _shelves(group, SIDE_WIDTH):
            height = max(footprint(obj)[1] for obj in shelf)
            _place_row(shelf, left, top - height / 2)
            top -= height + GAP


def _shelves(objects: Sequence[dict], width: float) -> list[list[dict]]:
    """The objects in order, cut into rows no wider than `width` (a wider object gets a row of its own)."""
    shelves: list[list[dict]] = []
    used = 0.0
    for obj in objects:
        w = footprint(obj)[0]
        if shelves and used + GAP + w <= width:
            shelves[-1].append(obj)
            used += GAP + w
        else:
            shelves.append([obj])
            used = w
    return shelves


def _shelf_width(shelf: Sequence[dict]) -> float:
    return sum(footprint(obj)[0] for obj in shelf) + GAP * (len(shelf) - 1)


def _rows_height(shelves: Sequence[Sequence[dict]]) -> float:
    return sum(max(footprint(obj)[1] for obj in shelf) for shelf in shelves) + GAP * (len(shelves) - 1)


def _place_row(shelf: Sequence[dict], left: float, z: float) -> None:
    """Objects side by side from `left`, their centres on the line z."""
    x = left
    for obj in shelf:
        width = footprint(obj)[0]
        move(obj, x + width / 2, z)
        x += width + GAP
