"""Write-on pages: one face per page, centred under a header, measured back from the written PDFs."""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

import pdfplumber
import pikepdf
import pytest

from pipeline.core.errors import PipelineError
from pipeline.core.printing import PrintOptions
from pipeline.core.units import MM, PAPERS_MM, mm
from pipeline.render.fonts import default_fonts
from pipeline.render.sheets.pages import FITS_BOTH_MM, usable_box, write_pages
from pipeline.render.sheets.plan import PAGE_MARGIN as MARGIN
from tests.render.sheets.printcheck import run_pdfcheck as pdfcheck

TOL = 0.01  # mm
SHEET = (150.0, 200.0)


@dataclass(frozen=True)
class ScoreSheet:
    """A write-on face: a 2 mm bleed of colour (clipped away on the page), a frame at the trim drawn
    0.5 mm inside it, rows to write on, a bold title."""

    key: str = "score"
    width: float = mm(SHEET[0])
    height: float = mm(SHEET[1])
    bleed: float = mm(2)
    title: str = "Feuille de score"

    def draw(self, canvas):
        b, w, h = self.bleed, self.width, self.height
        canvas.setFillColorRGB(0.9, 0.2, 0.2)
        canvas.rect(-b, -b, w + 2 * b, h + 2 * b, stroke=0, fill=1)
        canvas.setFillColorRGB(1, 1, 1)
        canvas.rect(0, 0, w, h, stroke=0, fill=1)
        canvas.setStrokeColorRGB(0, 0, 0)
        canvas.setLineWidth(mm(1))                       # a 1 mm frame whose outer edge is the trim
        canvas.rect(mm(0.5), mm(0.5), w - mm(1), h - mm(1), stroke=1, fill=0)
        canvas.setLineWidth(0.5)
        for k in range(1, int(h / mm(10))):
            canvas.line(mm(5), k * mm(10), w - mm(5), k * mm(10))
        canvas.setFillColorRGB(0, 0, 0)
        canvas.setFont(default_fonts().name("bold"), 14)
        canvas.drawString(mm(5), h - mm(8), self.title)


def write(tmp_path, faces, paper="a4", name="pages") -> tuple[Path, dict]:
    path = tmp_path / f"{name}.pdf"
    options = PrintOptions(paper=paper, game_title="Build It", component_title="Feuille de score")
    return path, write_pages(path, faces, options)


def frame_of(page) -> tuple[float, float, float, float]:
    """The face's trim, from its 1 mm frame (outer edge = trim), in mm from the bottom-left."""
    frames = [r for r in page.rects if r["stroke"] and abs(r["linewidth"] - mm(1)) < 0.01]
    assert len(frames) == 1
    r = frames[0]                                        # the path runs along the stroke's middle
    return r["x0"] / MM - 0.5, r["y0"] / MM - 0.5, r["x1"] / MM + 0.5, r["y1"] / MM + 0.5


def clip_of(path, index: int) -> tuple[float, float, float, float]:
    """The clip rectangle set before the face is drawn (page coordinates, mm)."""
    with pikepdf.open(path) as pdf:
        ctm, rect = (1, 0, 0, 1, 0, 0), None
        for ins in pikepdf.parse_content_stream(pdf.pages[index]):
            op = str(ins.operator)
            if op == "cm":
                a, b, c, d, e, f = (float(v) for v in ins.operands)
                ctm = (ctm[0], ctm[1], ctm[2], ctm[3], ctm[4] + e, ctm[5] + f) if (a, b, c, d) == (1, 0, 0, 1) \
                    else ctm
            elif op == "re" and rect is None:
                rect = [float(v) for v in ins.operands]
            elif op in ("W", "W*"):
                x, y, w, h = rect
                return ((x + ctm[4]) / MM, (y + ctm[5]) / MM, (x + w + ctm[4]) / MM, (y + h + ctm[5]) / MM)
    raise AssertionError("no clip")


# ----------------------------------------------------------------------------- the usable box
def test_usable_box_is_the_documented_contract():
    a4, letter = usable_box("a4"), usable_box("letter")
    assert (a4.x0, a4.y0, a4.width, a4.height) == pytest.approx((10, 10, 190, 272), abs=1e-9)
    assert (letter.width, letter.height) == pytest.approx((195.9, 254.4), abs=1e-9)
    assert FITS_BOTH_MM == pytest.approx((190.0, 254.4), abs=1e-9)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_each_face_is_centred_in_the_usable_box_with_a_header(tmp_path, paper):
    faces = [ScoreSheet(), ScoreSheet(key="other", title="Autre feuille"), ScoreSheet()]
    path, info = write(tmp_path, faces, paper)
    assert info["pages"] == 3 and info["turned"] == 0
    box = usable_box(paper)
    with pdfplumber.open(path) as pdf:
        for index, page in enumerate(pdf.pages):
            assert (page.width / MM, page.height / MM) == pytest.approx(PAPERS_MM[paper], abs=0.01)
            x0, y0, x1, y1 = frame_of(page)
            assert (x1 - x0, y1 - y0) == pytest.approx(SHEET, abs=TOL)
            assert ((x0 + x1) / 2, (y0 + y1) / 2) == pytest.approx(box.centre, abs=TOL)
            assert clip_of(path, index) == pytest.approx((x0, y0, x1, y1), abs=TOL)   # the bleed is cut off
            assert f"Build It · Feuille de score · page {index + 1}/3" in page.extract_text()
            header = [c for c in page.chars if c["size"] < 10]
            assert header and min(c["y0"] for c in header) / MM >= box.y1 - TOL       # above the face's box
            assert max(c["y1"] for c in header) / MM <= page.height / MM - MARGIN + TOL
            assert not [ln for ln in page.lines if abs(ln["linewidth"] - 0.3) < 0.01]   # no crop marks


def test_a_landscape_face_is_turned_and_centred(tmp_path):
    wide = ScoreSheet(key="wide", width=mm(250), height=mm(180))
    path, info = write(tmp_path, [wide], "a4")
    assert info["turned"] == 1
    with pdfplumber.open(path) as pdf:
        page = pdf.pages[0]
        x0, y0, x1, y1 = frame_of(page)
        title = [c for c in page.chars if c["size"] > 10 or c["fontname"].endswith("Bold")]
    assert (x1 - x0, y1 - y0) == pytest.approx((180.0, 250.0), abs=TOL)
    assert ((x0 + x1) / 2, (y0 + y1) / 2) == pytest.approx(usable_box("a4").centre, abs=TOL)
    assert title and all(c["matrix"][:4] == pytest.approx((0, 1, -1, 0)) for c in title)


def test_repeated_faces_are_one_form_and_writes_are_byte_identical(tmp_path):
    faces = [ScoreSheet()] * 5
    outputs = []
    for _ in range(2):
        buffer = io.BytesIO()
        info = write_pages(buffer, faces, PrintOptions(paper="letter", game_title="Build It"))
        outputs.append(buffer.getvalue())
    assert info["forms"] == 1 and info["pages"] == 5
    assert outputs[0] == outputs[1]
    with pikepdf.open(io.BytesIO(outputs[0])) as pdf:
        fonts = [o for o in pdf.objects if isinstance(o, pikepdf.Dictionary) and o.get("/Type") == "/Font"]
        assert fonts and all("/FontFile2" in font.FontDescriptor for font in fonts)


# ----------------------------------------------------------------------------- refusals
@pytest.mark.parametrize("paper,size", [("a4", (195.0, 260.0)), ("letter", (196.0, 200.0)),
                                        ("letter", (150.0, 255.0)), ("a4", (100.0, 300.0))])
def test_a_face_too_big_for_the_paper_is_a_located_problem(tmp_path, paper, size):
    faces = [ScoreSheet(), ScoreSheet(key="big", width=mm(size[0]), height=mm(size[1]))]
    with pytest.raises(PipelineError) as caught:
        write(tmp_path, faces, paper)
    (problem,) = caught.value.problems
    assert problem.rule == "imposition" and str(tmp_path / "pages.pdf") in str(problem.where)
    assert f"page 2 is {size[0]:.1f}×{size[1]:.1f} mm" in problem.message
    assert "190.0×254.4" in problem.message
    assert not (tmp_path / "pages.pdf").exists()


def test_a_face_at_the_common_limit_fits_both_papers(tmp_path):
    face = ScoreSheet(key="limit", width=mm(FITS_BOTH_MM[0]), height=mm(FITS_BOTH_MM[1]))
    for paper in PAPERS_MM:
        _, info = write(tmp_path, [face], paper, name=paper)
        assert info["pages"] == 1 and info["turned"] == 0


def test_options_and_empty_input_are_refused(tmp_path):
    with pytest.raises(ValueError, match="paper"):
        PrintOptions(paper="a5")
    with pytest.raises(PipelineError, match="no pages"):
        write(tmp_path, [])


# ----------------------------------------------------------------------------- preflight
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_pdfcheck_passes(tmp_path, paper):
    path, _ = write(tmp_path, [ScoreSheet(), ScoreSheet(key="wide", width=mm(250), height=mm(180))], paper)
    result = pdfcheck(path, "--paper", paper, "--duplex", "off")     # and pnp's own preflight
    assert result.returncode == 0, result.stdout
