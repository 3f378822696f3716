"""Every page of a fold-over file (pnp-<paper>/pli/…, or the main files with --backs foldover) tells the
playtester how to use it in its footer, as the duplex sheets say which edge to turn on: print one side, fold
the sheet on the dashed line, glue, then cut (pipeline/render/sheets/decor.py FOOTER_NOTES). Read back from
a real game's built files: the note on every page, in the footer band (the bottom one on A4, the right-hand
side band on Letter, read the way it runs), inside the printable area and clear of every crop mark."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest

from pipeline.core.units import MM, PAPERS_MM
from pipeline.render.sheets.decor import CALIBRATION_LABEL, FOOTER_NOTES
from pipeline.render.sheets.plan import BAND_GAP, MARK_EDGE
from tests.conftest import built_game
from tests.render.sheets.test_imposition import marks_on

NOTE = FOOTER_NOTES["foldover"][0]
BAND_MM = 15.0          # the footer band lies within this of its paper edge; the cards stay further in


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    return built_game(tmp_path_factory, "allstar")


def _footer_chars(page, paper: str) -> list[dict]:
    """The footer band's characters in reading order: the bottom band on A4, the right side band on Letter
    (turned: read bottom to top)."""
    width, height = (side * MM for side in PAPERS_MM[paper])
    if paper == "letter":
        chars = [c for c in page.chars if c["x0"] > width - BAND_MM * MM]
        return sorted(chars, key=lambda c: -c["bottom"])
    chars = [c for c in page.chars if c["top"] > height - BAND_MM * MM]
    return sorted(chars, key=lambda c: c["x0"])


def _flat(chars: list[dict]) -> str:
    return "".join(c["text"] for c in chars).replace(" ", "")


def test_the_note_reads_as_the_fold_over_files_are_used():
    assert "plier" in NOTE and "pointillé" in NOTE and "coller" in NOTE and "découper" in NOTE
    assert NOTE.index("plier") < NOTE.index("coller") < NOTE.index("découper")


@pytest.mark.parametrize("paper", ("a4", "letter"))
def test_every_fold_over_page_carries_the_note_in_its_footer_clear_of_the_marks(built, paper):
    files = sorted((built / f"pnp-{paper}" / "pli").glob("*-pli.pdf"))
    assert len(files) >= 3, files
    width, height = PAPERS_MM[paper]
    pages = 0
    for path in files:
        with pdfplumber.open(path) as pdf:
            for number, page in enumerate(pdf.pages, 1):
                pages += 1
                footer = _footer_chars(page, paper)
                flat = _flat(footer)
                assert _flat([{"text": CALIBRATION_LABEL}]) in flat, (path.name, number, flat)
                assert _flat([{"text": NOTE}]) in flat, (path.name, number, flat)
                marks = marks_on(page)
                for c in footer:
                    assert min(c["x0"], c["top"]) / MM >= MARK_EDGE - 0.01, (path.name, number, c["text"])
                    assert width - c["x1"] / MM >= MARK_EDGE - 0.01 and height - c["bottom"] / MM >= MARK_EDGE - 0.01
                    for x0, y0, x1, y1 in marks:        # pdfplumber's y0/y1 count from the bottom, as marks_on
                        apart = (c["x1"] / MM <= min(x0, x1) - BAND_GAP + 0.01
                                 or c["x0"] / MM >= max(x0, x1) + BAND_GAP - 0.01
                                 or c["y1"] / MM <= min(y0, y1) - BAND_GAP + 0.01
                                 or c["y0"] / MM >= max(y0, y1) + BAND_GAP - 0.01)
                        assert apart, (path.name, number, c["text"], (x0, y0, x1, y1))
    assert pages >= 30
