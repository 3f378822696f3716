"""Every slot, space or track cell a board or mat draws for a card or a token holds it with room to spare: at
least the item's size plus SLEEVE_MM each way (a sleeved card, fingers to lift a token), either way round
(issue 29: the Challengers bench slots were 92.5 × 62 mm for 63.5 × 88.9 mm cards).

The components are built as a user builds them (`pnp build GAME --only …`, home sheets and print-shop files)
on a project copy, and the slots are read back from the PDFs with pdfplumber: the outlines each board draws
its slots with (its colour, its dash, its line width), measured as drawn. The item's size is the one its
own deck is printed at (the game's components), never a number copied here.
"""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest

from pipeline.build import build
from pipeline.core.config import BuildConfig
from pipeline.core.units import MM
from tests.conftest import copy_project
from tests.render.test_safe_zone import game_components

SLEEVE_MM = 2.0
TOLERANCE_MM = 0.05


def _rgb(hex_colour: str) -> tuple[float, ...]:
    return tuple(round(int(hex_colour[i:i + 2], 16) / 255, 3) for i in (1, 3, 5))


def _stroked(colour: str, width: float | None = None, dashed: bool | None = None):
    """A selector: outlines drawn in `colour` (#RRGGBB), of line width `width` pt, dashed or not."""
    def chosen(path: dict) -> bool:
        drawn = tuple(round(float(c), 3) for c in (path.get("stroking_color") or ()))
        dash = path.get("dash")
        return (path.get("stroke") and drawn == _rgb(colour)
                and (width is None or abs(path["linewidth"] - width) < 0.01)
                and (dashed is None or bool(dash and dash[0]) == dashed))
    return chosen


def _sized(low_mm: float, high_mm: float):
    """A selector: outlines whose both sides lie between low_mm and high_mm."""
    def chosen(path: dict) -> bool:
        return path.get("stroke") and all(low_mm <= side / MM <= high_mm for side in (path["x1"] - path["x0"], path["bottom"] - path["top"]))
    return chosen


def _on_pages(first: int, last: int):
    """A selector: outlines on pages first..last (1-based) of the file, where one file holds other faces too."""
    def chosen(path: dict) -> bool:
        return first <= path["page_number"] <= last
    return chosen


# game, components built, file, what draws a slot, the deck whose item it holds, slots expected (at least)
CASES = {
    "challengers-bench": ("challengers", ("bench",), "pnp-a4/bench.pdf", (_stroked("#22304A", 0.9, True),),
                          "cards-city", 6 * 8),
    "challengers-trophies": ("challengers", ("track",), "pnp-a4/track.pdf", (_stroked("#E3B23C", 1.0, True),),
                             "trophies", 7),
    "fightball-mat": ("fightball", ("field-mat",), "print/field-mat.pdf", (_stroked("#1F5FBF", 0.8, True),),
                      "deck-eclairs", 10),
    "fightball-mat-red": ("fightball", ("field-mat",), "print/field-mat.pdf", (_stroked("#C0392B", 0.8, True),),
                          "deck-eclairs", 6),
    "fightball-mat-green": ("fightball", ("field-mat",), "print/field-mat.pdf", (_stroked("#2E8B4E", 0.8, True),),
                            "deck-eclairs", 8),
    "fightball-buzz": ("fightball", ("field-mat",), "print/field-mat.pdf", (_stroked("#1E1E1E", 1.2, True),),
                       "deck-eclairs", 1),
    "nba-court": ("nba", ("court",), "print/court.pdf", (_stroked("#5A3E1E", 1.2),), "players", 13),
    "nba-markets": ("nba", ("markets",), "print/markets.pdf", (_stroked("#5A3E1E", 1.2),), "players", 17),
    "buildit-board": ("buildit", ("board",), "print/board.pdf", (_stroked("#B3A88F", 0.6),), "pawns", 64),
    "buildit-calendar": ("buildit", ("calendar",), "print/calendar.pdf", (_sized(12, 40),), "coins", 10),
    "allstar-track": ("allstar", ("fanzones",), "print/fanzones.pdf", (_sized(5, 12), _on_pages(1, 6)),
                      "supporters", 6 * 50),          # the six Fan Zones; the Bus Station's icons follow them
}


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    root = copy_project(tmp_path_factory.mktemp("slots"))
    for game in sorted({case[0] for case in CASES.values()}):
        only = tuple(sorted({c for case in CASES.values() if case[0] == game for c in case[1]}))
        report, built = build(BuildConfig(root=root, games=(game,), papers=("a4",), formats=("pnp", "print"),
                                          only=only))
        assert built == [game], [str(p) for p in report.problems]
    return root


def _slots(path: Path, selectors) -> list[tuple[float, float]]:
    """(width, height) in mm of every outline the selectors pick, on every page of the file."""
    found = []
    with pdfplumber.open(path) as pdf:
        for page in pdf.pages:
            for drawn in (*page.rects, *page.curves):
                if all(select(drawn) for select in selectors):
                    found.append(((drawn["x1"] - drawn["x0"]) / MM, (drawn["bottom"] - drawn["top"]) / MM))
    return found


@pytest.mark.parametrize("case", list(CASES))
def test_every_slot_holds_its_item_with_two_millimetres_to_spare(project, case):
    game, _, file, selectors, item_deck, expected = CASES[case]
    item = next(c.size_mm for c in game_components(game)[1] if c.id == item_deck)
    slots = _slots(project / "output" / game / file, selectors)
    assert len(slots) >= expected, (case, len(slots))
    short, long = sorted(item)
    small = [(round(w, 2), round(h, 2)) for w, h in slots
             if min(w, h) < short + SLEEVE_MM - TOLERANCE_MM or max(w, h) < long + SLEEVE_MM - TOLERANCE_MM]
    assert not small, f"{case}: {len(small)} of {len(slots)} slots under {short + SLEEVE_MM:g} × " \
                      f"{long + SLEEVE_MM:g} mm, e.g. {small[:3]}"
