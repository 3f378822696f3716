"""The print-and-play norm, measured on every game's real build (shared/DESIGN.md, "Print conventions"):
9 poker cards on every full front page of both papers (3 × 3, issue 29), pooled sheets included, no card within
5 mm of the paper edge, nothing printed within 3 mm of it, backs mirrored to 0.1 mm, and every print-service
file with its 3 mm bleed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipeline.core.units import MM, PAPERS_MM
from pipeline.games import available
from tests.conftest import ROOT, built_game
from tests.pdfindex import pages as index
from tests.render.sheets.printcheck import check_every_pdf, pdfcheck, prepare

GAMES = sorted(available(ROOT))
POKER = [63.5, 88.9]


@pytest.fixture(scope="module", params=[g for g in GAMES if g != "benchdeck"])
def built(request, tmp_path_factory) -> Path:
    return built_game(tmp_path_factory, request.param)


def _card_decks(built: Path) -> list[dict]:
    data = json.loads((built / "report.json").read_text())
    return [e for e in data["outputs"] if e["kind"] == "cards" and e["format"] == "pnp" and not e.get("ink_saver")]


def _edge(box, paper) -> float:
    pw, ph = PAPERS_MM[paper]
    x0, y0, x1, y1 = box
    return min(x0, y0, pw - x1, ph - y1)


def test_poker_decks_print_9_a_front_page_on_both_papers_and_their_backs_mirror(built):
    decks = [e for e in _card_decks(built) if e["size_mm"] == POKER and e["backs_mode"] == "duplex"]  # no pli/ twin
    assert {e["paper"] for e in decks} == {"a4", "letter"}
    for entry in decks:
        pw = PAPERS_MM[entry["paper"]][0]
        pages = pdfcheck(built.parent.parent / entry["path"], "--expect-card", "63.5x88.9", "--paper",
                         entry["paper"])["report"]["pages"]
        fronts, backs = pages[0::2], pages[1::2]
        counts = [sum(c["occupied"] for c in page["cards"]["cards"]) for page in fronts]
        full = 9                      # Letter too: short marks above and below the 3 × 3 grid
        assert entry["cards_per_page"] == full
        assert counts[:-1] == [full] * (len(counts) - 1) and 1 <= counts[-1] <= full, (entry["path"], counts)
        assert sum(counts) == entry["cards"]
        for front, back in zip(fronts, backs):
            placed = [c for c in front["cards"]["cards"] if c["occupied"]]
            behind = sorted((round(c["x_mm"], 2), round(c["y_mm"], 2)) for c in back["cards"]["cards"]
                            if c["occupied"])
            mirrored = sorted((round(pw - c["x_mm"] - c["w_mm"], 2), round(c["y_mm"], 2)) for c in placed)
            assert len(behind) == len(mirrored)
            assert all(abs(a - c) <= 0.1 and abs(b - d) <= 0.1 for (a, b), (c, d) in zip(mirrored, behind))


def _card_args(entry: dict) -> tuple[str, ...]:
    w, h = entry["size_mm"]
    return "--expect-card", f"{w:g}x{h:g}", "--paper", entry["paper"]


def test_no_card_within_5_mm_nor_any_mark_or_text_within_3_mm_of_the_edge(built):
    prepare([(built.parent.parent / entry["path"], _card_args(entry)) for entry in _card_decks(built)])
    for entry in _card_decks(built):
        path = built.parent.parent / entry["path"]
        pages = pdfcheck(path, *_card_args(entry))["report"]["pages"]
        read = index(path)
        assert len(read) == len(pages)
        for checked, page in zip(pages, read):
            cards = [(c["x_mm"], c["y_mm"], c["x_mm"] + c["w_mm"], c["y_mm"] + c["h_mm"])
                     for c in checked["cards"]["cards"] if c["occupied"]]
            assert cards, (entry["path"], checked["page"])
            assert min(_edge(c, entry["paper"]) for c in cards) >= 5 - 0.01, entry["path"]
            faces = [(x0 - 3.1, y0 - 3.1, x1 + 3.1, y1 + 3.1) for x0, y0, x1, y1 in cards]
            for obj in page.chars + page.lines + page.rects + page.curves:
                box = (obj["x0"] / MM, page.height / MM - obj["bottom"] / MM,
                       obj["x1"] / MM, page.height / MM - obj["top"] / MM)
                if any(f[0] <= box[0] and f[1] <= box[1] and box[2] <= f[2] and box[3] <= f[3] for f in faces):
                    continue       # the face's own art: clipped to its trim, or its bleed in a gutter
                assert _edge(box, entry["paper"]) >= 3 - 0.01, (entry["path"], checked["page"], obj.get("object_type"))


def test_every_file_passes_the_preflight_and_print_files_carry_3_mm_bleed(built):
    """check_every_pdf passes --bleed 3 for every print/ file (tests/render/sheets/printcheck.py)."""
    kinds = check_every_pdf(built)
    assert ("cards", "print") in kinds and ("cards", "pnp") in kinds
    printed = sorted(built.glob("print/*.pdf"))
    assert printed
    for path in printed:
        checked = pdfcheck(path, "--bleed", "3", "--duplex", "off")
        assert checked["exit"] == 0, (path.name, [f for f in checked["report"]["findings"]
                                                  if f["severity"] == "error"])
