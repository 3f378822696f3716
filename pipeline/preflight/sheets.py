"""The preflight's rules on the cards of a file (found by cards.py): their sizes, the crop marks around them,
and duplex backs mirrored behind their fronts."""

from __future__ import annotations

from collections import Counter

from pipeline.preflight.model import FileResult, Options, Problem
from pipeline.preflight.cards import marks_inside
from pipeline.preflight.geometry import at_mm, centre, height, mm, size_mm, size_text, width

ON_SHEETS = ("faces", "marks")          # methods that find cards laid out on a sheet (not a print-shop page)


def card_sizes(result: FileResult, options: Options) -> list[Problem]:
    """With options.card, every card that size (either way round) within the tolerance; without, one size
    a sheet (a warning: pnp's token sheets pool several sizes on purpose)."""
    found = []
    tolerance = options.tolerance_mm
    for page, cards in zip(result.pages, result.cards):
        sizes = Counter(_rounded(size_mm(rect)) for rect in cards.rects)
        if options.card is not None:
            want = options.card
            wrong = [r for r in cards.rects if not _fits(size_mm(r), want, tolerance)]
            for size, count in Counter(_rounded(size_mm(r)) for r in wrong).items():
                first = next(r for r in wrong if _rounded(size_mm(r)) == size)
                found.append(Problem(page.number, "error", "cards",
                                     f"{_cards(count)} {'measures' if count == 1 else 'measure'} "
                                     f"{size_text(*size)}, not {want[0]:g} × {want[1]:g} mm (± {tolerance:g}); "
                                     f"the first {at_mm(first, page.media)}"))
        elif len(_distinct(sizes, tolerance)) > 1:
            listed = ", ".join(f"{size_text(*s)} × {n}" for s, n in sorted(sizes.items(), key=lambda i: -i[1]))
            found.append(Problem(page.number, "warning", "cards", f"cards of several sizes on one sheet: {listed}"))
    if options.card is not None and not any(c.rects for c in result.cards):
        found.append(Problem(None, "error", "cards", f"no cards found (no crop marks around clipped faces, no mark "
                                                     f"grid, no TrimBox) to measure against {options.card[0]:g} × "
                                                     f"{options.card[1]:g} mm"))
    return found


def marks(result: FileResult) -> list[Problem]:
    """No crop mark inside a card's trim (on a sheet; a print-shop page's own lines are its art)."""
    found = []
    for page, cards in zip(result.pages, result.cards):
        if cards.method not in ON_SHEETS:
            continue
        inside = marks_inside(page.strokes, cards.rects)
        if inside:
            stroke, card, run = max(inside, key=lambda item: item[2])
            more = f" ({len(inside)} marks in all)" if len(inside) > 1 else ""
            found.append(Problem(page.number, "error", "marks",
                                 f"crop mark {at_mm(stroke.rect, page.media)} runs {mm(run):.2f} mm into the card "
                                 f"{at_mm(card, page.media)}{more}"))
    return found


def duplex(result: FileResult, options: Options) -> tuple[list[Problem], list[tuple[int, int, float]]]:
    """Pages (1, 2), (3, 4)…: each back's cards are its front's mirrored about the page's vertical axis, each
    within the tolerance of where the long-edge flip puts it. "auto" checks only files whose every pair of
    pages holds the same number of cards on the same paper; "on" checks every pair and says what is wrong."""
    if options.duplex == "off" or len(result.pages) < 2:
        return [], []
    pairs = [(i, i + 1) for i in range(0, len(result.pages) - 1, 2)]
    why = _not_duplex(result, pairs, options)
    if why is not None:
        if options.duplex == "on":
            return [Problem(why[0], "error", "duplex", why[1])], []
        return [], []
    found, checked = [], []
    for front, back in pairs:
        problem, worst = _mirrored(result, front, back, options.tolerance_mm)
        checked.append((front + 1, back + 1, worst))
        if problem is not None:
            found.append(problem)
    return found, checked


def _not_duplex(result: FileResult, pairs, options: Options) -> tuple[int | None, str] | None:
    """Why the pages are not fronts and backs (page, reason), or None."""
    if len(result.pages) % 2:
        return None, f"has {len(result.pages)} pages: duplex needs a back page for every front page"
    for front, back in pairs:
        f, b = result.cards[front], result.cards[back]
        if f.method not in ON_SHEETS or b.method not in ON_SHEETS:
            return front + 1, f"pages {front + 1} and {back + 1} are not both sheets of cards with crop marks"
        if len(f.rects) != len(b.rects):
            return back + 1, f"holds {len(b.rects)} cards, its front page {front + 1} {len(f.rects)}"
        pf, pb = result.pages[front].media, result.pages[back].media
        if max(abs(width(pf) - width(pb)), abs(height(pf) - height(pb))) > 1:
            return back + 1, f"is not the size of its front page {front + 1}"
    return None


def _mirrored(result: FileResult, front: int, back: int, tolerance: float) -> tuple[Problem | None, float]:
    page = result.pages[front].media
    axis = page[0] + page[2]
    backs = list(result.cards[back].rects)
    off = []
    worst = 0.0
    for card in result.cards[front].rects:
        cx, cy = centre(card)
        tx = axis - cx
        nearest = min(backs, key=lambda r: max(abs(centre(r)[0] - tx), abs(centre(r)[1] - cy)))
        distance = mm(max(abs(centre(nearest)[0] - tx), abs(centre(nearest)[1] - cy),
                          abs(width(nearest) - width(card)), abs(height(nearest) - height(card))))
        worst = max(worst, distance)
        if distance > tolerance:
            off.append((distance, card))
    if not off:
        return None, worst
    distance, card = max(off, key=lambda item: item[0])
    return Problem(back + 1, "error", "duplex",
                   f"backs are not the front page {front + 1}'s cards mirrored for a long-edge flip: "
                   f"{len(off)} of {len(result.cards[front].rects)} off by more than {tolerance:g} mm, the worst "
                   f"by {distance:.2f} mm (front card {at_mm(card, page)})"), worst


def _fits(size: tuple[float, float], want: tuple[float, float], tolerance: float) -> bool:
    return any(abs(size[0] - a) <= tolerance and abs(size[1] - b) <= tolerance for a, b in (want, want[::-1]))


def _rounded(size: tuple[float, float]) -> tuple[float, float]:
    return (round(size[0], 2), round(size[1], 2))


def _distinct(sizes: Counter, tolerance: float) -> list[tuple[float, float]]:
    kept: list[tuple[float, float]] = []
    for size in sizes:
        if not any(_fits(size, other, tolerance) for other in kept):
            kept.append(size)
    return kept


def _cards(count: int) -> str:
    return "1 card" if count == 1 else f"{count} cards"
