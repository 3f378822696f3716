"""The duplex calibration sheet, measured from its PDF: where its marks are, and that what a user reads on
it, passed as --back-offset, puts every back over its front on a printer with that error."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys

import pdfplumber
import pikepdf
import pytest

from pipeline.core.errors import PipelineError
from pipeline.core.units import MM, PAPERS_MM
from pipeline.render.sheets.calibration import write_calibration
from tests.conftest import ROOT, copy_project, run_cli
from tests.render.sheets.printcheck import pdfcheck
from tests.render.sheets.test_imposition import cards_on, deck, write

RED = (0.85, 0.1, 0.1)
BLACK = (0, 0, 0)
EDGE_MM = 5.0             # home printers clip up to 5 mm: nothing of the sheet closer to the paper edge


def _colour(obj, key: str) -> tuple:
    value = obj.get(key) or ()
    return tuple(round(c, 2) for c in value) if isinstance(value, (tuple, list)) else ()


def _lines(page, colour=None) -> list[tuple[float, float, float, float]]:
    """Straight segments in mm from the bottom-left, optionally of one stroke colour."""
    found = []
    for ln in page.lines:
        if colour is not None and _colour(ln, "stroking_color") != colour:
            continue
        found.append((ln["x0"] / MM, (page.height - ln["bottom"]) / MM, ln["x1"] / MM,
                      (page.height - ln["top"]) / MM))
    return found


def _circles(page, colour) -> list[tuple[float, float, float]]:
    """Stroked circles of one colour: (x centre, y centre, radius), mm from the bottom-left."""
    found = []
    for c in page.curves:
        if not c["stroke"] or _colour(c, "stroking_color") != colour:
            continue
        w, h = (c["x1"] - c["x0"]) / MM, (c["bottom"] - c["top"]) / MM
        if abs(w - h) < 0.05:
            found.append(((c["x0"] + c["x1"]) / 2 / MM, page.height / MM - (c["top"] + c["bottom"]) / 2 / MM,
                          w / 2))
    return found


def _cap_heights(path) -> dict[str, float]:
    """Each embedded font's cap height (FontDescriptor /CapHeight), as a fraction of the font size."""
    with pikepdf.open(path) as pdf:
        return {str(font.BaseFont).lstrip("/"): float(font.FontDescriptor.CapHeight) / 1000
                for page in pdf.pages for _, font in page.Resources.Font.items()}


def _labels(page, cap_heights: dict[str, float]) -> list[tuple[float, float, str]]:
    """Signed numbers printed on the page: (x, y) of the middle of their digits, mm from the bottom-left:
    across, the middle of the advance widths; up, the baseline plus half the cap height (where the eye
    sees the middle of a figure, not the middle of the font's ascent-to-descent box)."""
    found = []
    for w in page.extract_words(x_tolerance=1, return_chars=True):      # the ruler numbers are 5 mm apart
        if re.fullmatch(r"[+−]?\d+", w["text"]):
            char = w["chars"][0]
            middle = char["matrix"][5] + cap_heights[char["fontname"]] * char["size"] / 2
            found.append(((w["x0"] + w["x1"]) / 2 / MM, middle / MM, w["text"]))
    return found


def _value(text: str) -> int:
    return int(text.replace("−", "-").replace("+", ""))


def _text(page) -> str:
    return " ".join(page.extract_text().replace("\u00a0", " ").split())


class Rulers:
    """The front's two rulers, found from the drawing: the long black horizontal and vertical lines, their
    ticks, and the numbers printed beside them. Reading is what a user does: find the numbered long ticks
    on either side of the red line and count millimetre ticks between them."""

    def __init__(self, page, path):
        lines, labels = _lines(page, BLACK), _labels(page, _cap_heights(path))
        self.horizontal = max((s for s in lines if abs(s[1] - s[3]) < 1e-6), key=lambda s: s[2] - s[0])
        self.vertical = max((s for s in lines if abs(s[0] - s[2]) < 1e-6), key=lambda s: s[3] - s[1])
        self.y = self.horizontal[1]                   # the horizontal ruler's line
        self.x = self.vertical[0]                     # the vertical ruler's line
        # ticks: (position along the ruler, length)
        self.x_ticks = sorted((x0, y1 - y0) for x0, y0, x1, y1 in lines
                              if abs(x0 - x1) < 1e-6 and abs(y0 - self.y) < 0.01 and y1 > y0)
        self.y_ticks = sorted((y0, x1 - x0) for x0, y0, x1, y1 in lines
                              if abs(y0 - y1) < 1e-6 and abs(x0 - self.x) < 0.01 and x1 > x0)
        # numbers: (position along the ruler of the number's centre, value)
        self.x_labels = [(x, _value(t)) for x, y, t in labels if self.y < y < self.y + 8
                         and self.horizontal[0] - 1 < x < self.horizontal[2] + 1]
        self.y_labels = [(y, _value(t)) for x, y, t in labels if self.x < x < self.x + 10
                         and self.vertical[1] - 1 < y < self.vertical[3] + 1]

    @staticmethod
    def numbered(ticks, labels) -> list[tuple[float, int]]:
        """Each number with the long tick it stands beside (its middle within 0.1 mm of the tick)."""
        longest = max(length for _, length in ticks)
        long_ticks = [p for p, length in ticks if abs(length - longest) < 1e-6]
        found = []
        for position, value in labels:
            tick = min(long_ticks, key=lambda t: abs(t - position))
            assert abs(tick - position) < 0.1, f"{value} is {tick - position:.2f} mm off its tick"
            found.append((tick, value))
        return found

    def read_x(self, x: float) -> float:
        """What a user reads where a vertical line crosses the horizontal ruler."""
        return _interpolate(self.numbered(self.x_ticks, self.x_labels), x)

    def read_y(self, y: float) -> float:
        return _interpolate(self.numbered(self.y_ticks, self.y_labels), y)


def _interpolate(numbered, position: float) -> float:
    points = sorted(numbered)
    for (p0, v0), (p1, v1) in zip(points, points[1:]):
        if p0 <= position <= p1:
            return v0 + (v1 - v0) * (position - p0) / (p1 - p0)
    raise AssertionError(f"{position:.2f} mm is off the ruler")


@pytest.fixture(scope="module", params=["a4", "letter"])
def sheet(request, tmp_path_factory):
    path = tmp_path_factory.mktemp("calibration") / f"pnp-{request.param}.pdf"
    info = write_calibration(path, request.param)
    return request.param, path, info


def test_two_pages_of_the_paper_with_the_cross_at_the_centre(sheet):
    paper, path, info = sheet
    w, h = PAPERS_MM[paper]
    assert info == {"kind": "calibration", "paper": paper, "pages": 2, "path": str(path), "page_mm": [w, h],
                    "centre_mm": [w / 2, h / 2], "scale_mm": [-15, 15], "flip": "long-edge",
                    "command": f"pnp build <jeu> --paper {paper} --back-offset X,Y"}
    with pdfplumber.open(path) as pdf:
        assert len(pdf.pages) == 2
        for page in pdf.pages:
            assert (page.width / MM, page.height / MM) == pytest.approx((w, h), abs=0.01)
        front = _lines(pdf.pages[0], BLACK)
        back = _lines(pdf.pages[1], RED)
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


def test_the_backs_corner_rings_sit_on_the_fronts_targets(sheet):
    paper, path, _ = sheet
    w, h = PAPERS_MM[paper]
    with pdfplumber.open(path) as pdf:
        targets = _circles(pdf.pages[0], BLACK)
        rings = _circles(pdf.pages[1], RED)
    outer = sorted((round(x, 2), round(y, 2)) for x, y, r in targets if r > 3)
    assert len(outer) == 4 and len(rings) == 4
    seen = sorted((round(w - x, 2), round(y, 2)) for x, y, r in rings)     # through the long-edge flip
    for (x, y), (tx, ty) in zip(seen, outer):
        assert (x, y) == pytest.approx((tx, ty), abs=0.1)
    xs, ys = sorted({x for x, _ in outer}), sorted({y for _, y in outer})
    assert xs[0] == pytest.approx(w - xs[-1], abs=0.01) and ys[0] == pytest.approx(h - ys[-1], abs=0.01)
    assert xs[0] < 25 and ys[0] < 25                 # near the corners


def test_rulers_tick_every_millimetre_and_are_numbered_every_five(sheet):
    paper, path, _ = sheet
    w, h = PAPERS_MM[paper]
    cx, cy = w / 2, h / 2
    with pdfplumber.open(path) as pdf:
        rulers = Rulers(pdf.pages[0], path)
    for ticks, zero in ((rulers.x_ticks, cx), (rulers.y_ticks, cy)):
        positions = [p for p, _ in ticks]
        assert len(positions) == 31
        assert [b - a for a, b in zip(positions, positions[1:])] == pytest.approx([1.0] * 30, abs=0.01)
        assert positions[15] == pytest.approx(zero, abs=0.01)   # the ruler's middle tick faces the centre
        assert [i for i, (_, length) in enumerate(ticks) if length > 2] == [0, 5, 10, 15, 20, 25, 30]
    # every number stands beside its own long tick (checked in numbered), and says the right value
    x_numbers = Rulers.numbered(rulers.x_ticks, rulers.x_labels)
    assert sorted(v for _, v in x_numbers) == [-15, -10, -5, 0, 5, 10, 15]
    for x, value in x_numbers:                 # X reads +d at d mm right of the centre
        assert x - cx == pytest.approx(value, abs=0.01)
    y_numbers = Rulers.numbered(rulers.y_ticks, rulers.y_labels)
    assert sorted(v for _, v in y_numbers) == [-15, -10, -5, 0, 5, 10, 15]
    for y, value in y_numbers:                 # Y reads -d at d mm above the centre
        assert y - cy == pytest.approx(-value, abs=0.01)


@pytest.mark.parametrize("error", [(1.5, -1.0), (-2.0, 0.5), (0.0, 3.0), (-4.5, -2.5), (7.0, 0.0)])
def test_what_is_read_passed_as_back_offset_puts_backs_over_their_fronts(sheet, tmp_path, error):
    """A printer that moves the back page's artwork by `error` (mm, in the back page's coordinates).
    The back's red cross, as drawn on page 2, moved by the error and seen from the front through the
    long-edge flip (x -> W - x), crosses the front's rulers; the numbers read there, passed as
    back_offset_mm to the real card-sheet writer, put every printed back exactly behind its front."""
    paper, path, _ = sheet
    w, h = PAPERS_MM[paper]
    ex, ey = error
    with pdfplumber.open(path) as pdf:
        rulers = Rulers(pdf.pages[0], path)
        arms = [s for s in _lines(pdf.pages[1], RED) if abs(s[2] - s[0]) + abs(s[3] - s[1]) > 100]
    upright = next(s for s in arms if abs(s[0] - s[2]) < 1e-6)
    level = next(s for s in arms if abs(s[1] - s[3]) < 1e-6)
    seen_x = w - (upright[0] + ex)            # where the printed vertical arm shows through the front
    seen_y = level[1] + ey
    assert upright[1] + ey < rulers.y < upright[3] + ey      # the arm really reaches the ruler
    assert w - (level[2] + ex) < rulers.x < w - (level[0] + ex)
    x_reading, y_reading = rulers.read_x(seen_x), rulers.read_y(seen_y)

    fronts, backs = deck(9, designs=9)        # nine distinct backs: each back is found by its colour
    sheet_path, _ = write(tmp_path, "duplex", fronts, backs, paper=paper, back_offset_mm=(x_reading, y_reading))
    with pdfplumber.open(sheet_path) as pdf:
        placed, behind = cards_on(pdf.pages[0]), cards_on(pdf.pages[1])
    assert placed and len(placed) == len(behind)     # a large offset may cost a card a page
    back_of = {f.colour: b.colour for f, b in zip(fronts, backs)}
    for card in placed:
        (bx, by), = [b.centre for b in behind if b.colour == back_of[card.colour]]
        printed = (bx + ex, by + ey)                          # where this printer puts it
        assert (w - printed[0], printed[1]) == pytest.approx(card.centre, abs=0.05)
    assert (x_reading, y_reading) == pytest.approx((-ex, -ey), abs=0.05)


def test_the_sheet_says_how_to_pass_the_offset(sheet):
    paper, path, _ = sheet
    with pdfplumber.open(path) as pdf:
        front, back = _text(pdf.pages[0]), _text(pdf.pages[1])
    assert f"pnp build <jeu> --paper {paper} --back-offset X,Y" in front
    assert f"--paper {paper} --back-offset 1.5,-1" in front          # the worked example
    for words in ("recto verso", "bord long", "100 %", "taille réelle", "ajuster à la page", "transparence",
                  "signe compris", "X positif", "vers la droite", "Y positif", "vers le haut"):
        assert words in front, words
    assert "verso" in back


def test_the_sheet_says_when_to_print_the_fold_over_versions(sheet):
    """Backs more than 1 mm off and no way to rebuild (only the PDFs): the fold-over twins in pli/."""
    _, path, _ = sheet
    with pdfplumber.open(path) as pdf:
        front = _text(pdf.pages[0])
    for words in ("Plus de 1 mm", "pas moyen de refaire les fichiers", "recto seul", "versions à plier",
                  "dossier pli/", "-pli.pdf", "plier ici", "découper"):
        assert words in front, words


def test_nothing_within_five_mm_of_the_paper_edge(sheet):
    paper, path, _ = sheet
    with pdfplumber.open(path) as pdf:
        for page in pdf.pages:
            objects = page.chars + page.lines + page.curves + page.rects
            assert objects
            margin = EDGE_MM * MM
            for obj in objects:
                what = obj.get("text", obj["object_type"])
                assert obj["x0"] >= margin and obj["x1"] <= page.width - margin, what
                assert obj["top"] >= margin and obj["bottom"] <= page.height - margin, what


def test_text_is_legible_and_in_embedded_truetype_fonts(sheet):
    _, path, _ = sheet
    with pdfplumber.open(path) as pdf:
        chars = [c for page in pdf.pages for c in page.chars]
    assert chars
    assert min(c["size"] for c in chars) >= 6.0                  # the project's minimum printed size
    assert {c["fontname"].split("+")[-1] for c in chars} <= {"Lato-Regular", "Lato-Bold", "FjallaOne-Regular"}
    assert all("+" in c["fontname"] for c in chars)              # subset, hence embedded


def test_same_sheet_byte_for_byte_and_to_a_file_object(tmp_path):
    a, b = tmp_path / "a.pdf", tmp_path / "b.pdf"
    write_calibration(a, "a4")
    write_calibration(b, "a4")
    assert a.read_bytes() == b.read_bytes()
    buffer = io.BytesIO()
    info = write_calibration(buffer, "a4")
    assert buffer.getvalue() == a.read_bytes() and info["path"] is None
    c = tmp_path / "c.pdf"                                       # and from a fresh interpreter
    subprocess.run([sys.executable, "-c", "import sys; from pipeline.render.sheets.calibration import write_calibration;"
                    "write_calibration(sys.argv[1], 'a4')", str(c)], check=True, cwd=ROOT, timeout=120)
    assert c.read_bytes() == a.read_bytes()


def test_an_unknown_paper_is_refused(tmp_path):
    with pytest.raises(PipelineError, match="unknown paper 'a5'"):
        write_calibration(tmp_path / "x.pdf", "a5")
    assert not (tmp_path / "x.pdf").exists()


def test_pdfcheck_passes(sheet):
    paper, path, _ = sheet
    checked = pdfcheck(path, "--duplex", "off", "--paper", paper, "--strict")
    assert checked["exit"] == 0, checked["report"]["findings"]


def test_a_duplex_build_writes_the_sheets_and_says_so(tmp_path):
    root = copy_project(tmp_path)
    result = run_cli("build", "buildit", "--paper", "letter", "--back-offset", "1.5,-1", root=root)
    assert result.returncode == 0, result.stderr
    assert ("duplex calibration → output/calibration/pnp-letter.pdf: print one double-sided once per printer"
            in result.stdout)
    assert sorted(p.name for p in (root / "output" / "calibration").iterdir()) == ["pnp-letter.pdf"]
    report = (root / "output" / "buildit" / "report.md").read_text()
    assert "Imprimez [output/calibration/pnp-letter.pdf](../calibration/pnp-letter.pdf) en recto verso" in report
    assert "Ces fichiers ont été faits avec `--back-offset 1.5,-1`." in report        # the French print guide
    data = json.loads((root / "output" / "buildit" / "report.json").read_text())
    assert data["calibration"] == ["output/calibration/pnp-letter.pdf"]


def test_no_calibration_sheet_without_duplex_backs(tmp_path):
    root = copy_project(tmp_path)
    result = run_cli("build", "buildit", "--paper", "a4", "--backs", "foldover", root=root)
    assert result.returncode == 0, result.stderr
    assert "calibration" not in result.stdout and not (root / "output" / "calibration").exists()
