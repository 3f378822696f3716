"""The duplex calibration sheet, measured from its PDF: where its marks are, and that what a user reads on
it, passed as --back-offset, puts every back over its front on a printer with that error."""

from __future__ import annotations

import json
import re

import pdfplumber
import pytest

from pipeline.render.calibration import SCALE_GAP_MM, write_calibration
from pipeline.units import MM, PAPERS_MM
from tests.conftest import copy_project, run_cli
from tests.printcheck import MISSING, PDFCHECK, pdfcheck
from tests.test_imposition import cards_on, deck, write

RED = (0.85, 0.1, 0.1)


def _lines(page, colour=None) -> list[tuple[float, float, float, float]]:
    """Straight segments in mm from the bottom-left, optionally of one stroke colour."""
    height = page.height
    found = []
    for ln in page.lines:
        if colour is not None and tuple(round(c, 2) for c in ln["stroking_color"] or ()) != colour:
            continue
        found.append((ln["x0"] / MM, (height - ln["bottom"]) / MM, ln["x1"] / MM, (height - ln["top"]) / MM))
    return found


def _labels(page) -> list[tuple[float, float, str]]:
    """Signed numbers printed on the page: (x centre, y centre, text), mm from the bottom-left."""
    words = page.extract_words(x_tolerance=1)      # the ruler numbers are 5 mm apart
    found = []
    for w in words:
        if re.fullmatch(r"[+−]?\d+", w["text"]):
            found.append(((w["x0"] + w["x1"]) / 2 / MM, (page.height - (w["top"] + w["bottom"]) / 2) / MM, w["text"]))
    return found


def _value(text: str) -> int:
    return int(text.replace("−", "-").replace("+", ""))


@pytest.fixture(scope="module", params=["a4", "letter"])
def sheet(request, tmp_path_factory):
    path = tmp_path_factory.mktemp("calibration") / f"pnp-{request.param}.pdf"
    info = write_calibration(path, request.param)
    return request.param, path, info


def test_two_pages_of_the_paper_with_the_cross_at_the_centre(sheet):
    paper, path, info = sheet
    w, h = PAPERS_MM[paper]
    assert info["pages"] == 2 and info["centre_mm"] == [w / 2, h / 2]
    with pdfplumber.open(path) as pdf:
        assert len(pdf.pages) == 2
        for page in pdf.pages:
            assert (page.width / MM, page.height / MM) == pytest.approx((w, h), abs=0.01)
        front = _lines(pdf.pages[0], colour=(0, 0, 0))
        back = _lines(pdf.pages[1], colour=RED)
    # the front's small centre cross: two 6 mm segments through the centre
    cross = [s for s in front if abs(abs(s[2] - s[0]) + abs(s[3] - s[1]) - 6) < 0.01]
    assert len(cross) == 2
    for x0, y0, x1, y1 in cross:
        assert ((x0 + x1) / 2, (y0 + y1) / 2) == pytest.approx((w / 2, h / 2), abs=0.1)
    # the back's long red cross: behind the front's centre after a long-edge flip (x -> W - x)
    long = [s for s in back if abs(s[2] - s[0]) + abs(s[3] - s[1]) > 100]
    assert len(long) == 2
    for x0, y0, x1, y1 in long:
        assert (w - (x0 + x1) / 2, (y0 + y1) / 2) == pytest.approx((w / 2, h / 2), abs=0.1)


def test_rulers_tick_every_millimetre_and_are_numbered_every_five(sheet):
    paper, path, _ = sheet
    w, h = PAPERS_MM[paper]
    cx, cy = w / 2, h / 2
    with pdfplumber.open(path) as pdf:
        page = pdf.pages[0]
        lines, labels = _lines(page, colour=(0, 0, 0)), _labels(page)
    top = cy + SCALE_GAP_MM
    ticks = sorted(x0 for x0, y0, x1, y1 in lines if abs(x0 - x1) < 1e-6 and abs(y0 - top) < 0.01)
    assert len(ticks) == 31
    assert [b - a for a, b in zip(ticks, ticks[1:])] == pytest.approx([1.0] * 30, abs=0.01)
    assert ticks[15] == pytest.approx(cx, abs=0.01)
    horizontal = {_value(t): x for x, y, t in labels if top < y < top + 8}
    assert sorted(horizontal) == [-15, -10, -5, 0, 5, 10, 15]
    for value, x in horizontal.items():       # X reads +d at d mm right of the centre
        assert x - cx == pytest.approx(value, abs=0.3)
    side = cx + SCALE_GAP_MM
    vertical = {_value(t): y for x, y, t in labels if side + 2 < x < side + 12}
    assert sorted(vertical) == [-15, -10, -5, 0, 5, 10, 15]
    for value, y in vertical.items():         # Y reads -d at d mm above the centre
        assert y - cy == pytest.approx(-value, abs=0.3)


def _read(labels, position: float, axis: int) -> float:
    """What a user reads at `position` on a ruler: interpolated between its numbered ticks."""
    points = sorted((label[axis], _value(label[2])) for label in labels)
    for (p0, v0), (p1, v1) in zip(points, points[1:]):
        if p0 <= position <= p1:
            return v0 + (v1 - v0) * (position - p0) / (p1 - p0)
    raise AssertionError(f"{position} is off the ruler")


@pytest.mark.parametrize("error", [(1.5, -1.0), (-2.0, 0.5), (0.0, 3.0)])
def test_what_is_read_passed_as_back_offset_puts_backs_over_their_fronts(sheet, tmp_path, error):
    """A printer that moves the back page's artwork by `error` (mm, in the back page's coordinates):
    the back's cross shows through the front at (W/2 - ex, H/2 + ey); the numbers read there, passed as
    --back-offset, cancel the error on a real card sheet."""
    paper, path, _ = sheet
    w, h = PAPERS_MM[paper]
    ex, ey = error
    with pdfplumber.open(path) as pdf:
        labels = _labels(pdf.pages[0])
    cx, cy = w / 2, h / 2
    x_reading = _read([l for l in labels if cy + SCALE_GAP_MM < l[1] < cy + SCALE_GAP_MM + 8], cx - ex, 0)
    y_reading = _read([l for l in labels if cx + SCALE_GAP_MM + 2 < l[0] < cx + SCALE_GAP_MM + 12], cy + ey, 1)
    fronts, backs = deck(9)
    sheet_path, _ = write(tmp_path, "duplex", fronts, backs, paper=paper, back_offset_mm=(x_reading, y_reading))
    with pdfplumber.open(sheet_path) as pdf:
        placed, behind = cards_on(pdf.pages[0]), cards_on(pdf.pages[1])
    colour_of_back = {f.colour: b.colour for f, b in zip(fronts, backs)}
    for card in placed:
        printed = [(b.centre[0] + ex, b.centre[1] + ey) for b in behind if b.colour == colour_of_back[card.colour]]
        seen_from_front = [(w - x, y) for x, y in printed]
        assert any(abs(x - card.centre[0]) < 0.3 and abs(y - card.centre[1]) < 0.3 for x, y in seen_from_front)
    assert (x_reading, y_reading) == pytest.approx((-ex, -ey), abs=0.3)


def test_the_sheet_says_how_to_pass_the_offset(sheet):
    paper, path, _ = sheet
    with pdfplumber.open(path) as pdf:
        text = pdf.pages[0].extract_text()
    assert f"pnp build <jeu> --paper {paper} --back-offset X,Y" in text
    assert "recto verso" in text and "bord long" in text and "100 %" in text


def test_same_sheet_byte_for_byte(tmp_path):
    a, b = tmp_path / "a.pdf", tmp_path / "b.pdf"
    write_calibration(a, "a4")
    write_calibration(b, "a4")
    assert a.read_bytes() == b.read_bytes()


@pytest.mark.skipif(not PDFCHECK.is_file(), reason=MISSING)
def test_pdfcheck_passes(sheet):
    paper, path, _ = sheet
    checked = pdfcheck(path, "--duplex", "off", "--paper", paper)
    assert checked["exit"] == 0, checked["report"]["findings"]


def test_a_duplex_build_writes_the_sheets_and_says_so(tmp_path):
    root = copy_project(tmp_path)
    result = run_cli("build", "buildit", "--paper", "letter", "--back-offset", "1.5,-1", root=root)
    assert result.returncode == 0, result.stderr
    assert ("duplex calibration → output/calibration/pnp-letter.pdf: print one double-sided once per printer"
            in result.stdout)
    assert sorted(p.name for p in (root / "output" / "calibration").iterdir()) == ["pnp-letter.pdf"]
    report = (root / "output" / "buildit" / "report.md").read_text()
    assert "print `output/calibration/pnp-letter.pdf` double-sided" in report
    assert "this build used `--back-offset 1.5,-1`" in report
    data = json.loads((root / "output" / "buildit" / "report.json").read_text())
    assert data["calibration"] == ["output/calibration/pnp-letter.pdf"]


def test_no_calibration_sheet_without_duplex_backs(tmp_path):
    root = copy_project(tmp_path)
    result = run_cli("build", "buildit", "--paper", "a4", "--backs", "foldover", root=root)
    assert result.returncode == 0, result.stderr
    assert "calibration" not in result.stdout and not (root / "output" / "calibration").exists()
