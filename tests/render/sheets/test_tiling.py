"""Boards tiled on home paper: geometry read back from the written PDFs (content streams, pdfplumber,
pixels, the shared preflight), never from the plan."""

from __future__ import annotations

import importlib.util
import io
import itertools
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pdfplumber
import pikepdf
import pypdfium2
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.core.errors import PipelineError
from pipeline.core.printing import PrintOptions
from pipeline.core.units import MM, PAPERS_MM, mm
from pipeline.render.faces.renderer import FaceRenderer
from pipeline.render.fonts import default_fonts
from pipeline.render.sheets import tiling
from pipeline.render.sheets.plan import PAGE_MARGIN as MARGIN
from pipeline.render.sheets.tiling import _content, _frame, _map_group, plan_tiles, write_board_pnp, write_board_print
from tests.render.sheets.printcheck import PDFCHECK, run_pdfcheck as pdfcheck

BOARD = (230.0, 230.0)
TOL = 0.01  # mm
STD14 = {"Courier", "Helvetica", "Times-Roman", "Symbol", "ZapfDingbats"}


@dataclass(frozen=True)
class StubBoard:
    """A board-like face: a coloured bleed rectangle, a checker of filled squares, a bold title."""

    key: str = "board"
    width: float = mm(BOARD[0])
    height: float = mm(BOARD[1])
    bleed: float = mm(3)

    def draw(self, canvas):
        b, w, h = self.bleed, self.width, self.height
        canvas.setFillColorRGB(0.85, 0.75, 0.55)
        canvas.rect(-b, -b, w + 2 * b, h + 2 * b, stroke=0, fill=1)
        canvas.setFillColorRGB(0.6, 0.45, 0.3)
        for i in range(int(w / mm(20)) + 1):
            for j in range(int(h / mm(20)) + 1):
                if (i + j) % 2 == 0:
                    canvas.rect(mm(20 * i + 5), mm(20 * j + 5), mm(10), mm(10), stroke=0, fill=1)
        canvas.setFillColorRGB(0.1, 0.1, 0.4)
        canvas.setFont(default_fonts().name("bold"), 28)
        canvas.drawCentredString(w / 2, h / 2, "PLATEAU")


def write(tmp_path, paper="a4", face=None, name=None, **options) -> tuple[Path, dict]:
    path = tmp_path / f"{name or paper}.pdf"
    opts = PrintOptions(paper=paper, game_title="Build It", component_title="Plateau", **options)
    return path, write_board_pnp(path, face or StubBoard(), opts)


# ----------------------------------------------------------------------------- reading geometry back
def _mul(m, n):
    (a, b, c, d, e, f), (A, B, C, D, E, F) = m, n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


@dataclass(frozen=True)
class Placement:
    """The board form on one page: its transform (board pt -> page pt) and its clip, in board mm."""

    ctm: tuple
    window: tuple[float, float, float, float]

    def to_board(self, x_pt: float, y_pt: float) -> tuple[float, float]:
        a, b, c, d, e, f = self.ctm
        x, y, det = x_pt - e, y_pt - f, (a * d - b * c) * MM
        return (d * x - c * y) / det, (-b * x + a * y) / det


def placements(path) -> list[Placement]:
    """Walk each page's content stream: CTM through q/Q/cm, the last clip rectangle, the form's Do."""
    found = []
    with pikepdf.open(path) as pdf:
        for page in pdf.pages:
            ctm, stack, rect, clip, here = (1, 0, 0, 1, 0, 0), [], None, None, []
            for ins in pikepdf.parse_content_stream(page):
                op = str(ins.operator)
                args = [float(v) for v in ins.operands] if op in ("cm", "re") else []
                if op == "q":
                    stack.append((ctm, clip))
                elif op == "Q":
                    ctm, clip = stack.pop()
                elif op == "cm":
                    ctm = _mul(tuple(args), ctm)
                elif op == "re":
                    rect = args
                elif op in ("W", "W*"):
                    x, y, w, h = rect
                    clip = (x / MM, y / MM, (x + w) / MM, (y + h) / MM)
                elif op == "Do":
                    here.append(Placement(ctm, clip))
            assert len(here) == 1, "the board form is placed once per tile"
            found.append(here[0])
    return found


def targets(page, placement) -> list[tuple[float, float]]:
    """Crosshair centres in board mm (their circles, stroked black at 0.35 pt)."""
    circles = [c for c in page.curves if abs(c["linewidth"] - 0.35) < 0.01]
    centres = [placement.to_board((c["x0"] + c["x1"]) / 2, (c["y0"] + c["y1"]) / 2) for c in circles]
    return sorted((round(x, 3), round(y, 3)) for x, y in centres)


def marks(page) -> list[tuple[float, float, float, float]]:
    return [(ln["x0"] / MM, ln["y0"] / MM, ln["x1"] / MM, ln["y1"] / MM) for ln in page.lines
            if abs(ln["linewidth"] - 0.3) < 0.01]


def visible_boxes(path):
    """Every painted item's visible box (clips applied), in mm, by the shared preflight's interpreter."""
    spec = importlib.util.spec_from_file_location("pdfcheck", PDFCHECK)
    check = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(check)
    pages = []
    with pikepdf.open(path) as pdf:
        for number, page in enumerate(pdf.pages, 1):
            scanner = check.Scanner(number, {}, [])
            scanner.run(page.obj, page.obj.get("/Resources"), check.GState(), 0)
            pages.append([tuple(v / MM for v in item.vis) for item in scanner.items
                          if item.vis is not None and not item.invisible])
    return pages


# ----------------------------------------------------------------------------- the 230 mm board
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_230_mm_board_takes_two_tiles_overlapping_by_exactly_the_overlap(tmp_path, paper):
    path, info = write(tmp_path, paper)
    assert info["pages"] == 2 and sorted(info["tiles"]) == [1, 2] and info["overlap_mm"] == 10.0
    first, second = placements(path)
    a, b = first.window, second.window
    if info["tiles"] == (2, 1):     # side by side: x overlaps, y is the whole board with its bleed
        assert a[2] - b[0] == pytest.approx(10.0, abs=TOL)
        assert (a[1], a[3]) == pytest.approx((b[1], b[3]), abs=TOL)
        assert a[0] == pytest.approx(-info["edge_bleed_mm"], abs=TOL)
        assert b[2] == pytest.approx(BOARD[0] + info["edge_bleed_mm"], abs=TOL)
    else:                           # one above the other: row 1 is the board's top
        assert b[3] - a[1] == pytest.approx(10.0, abs=TOL)
        assert a[3] == pytest.approx(BOARD[1] + info["edge_bleed_mm"], abs=TOL)
    assert info["edge_bleed_mm"] == 3.0   # room enough on both papers to keep the full bleed
    for p in (first, second):   # printed at 100 %: the form is only moved (or turned), never scaled
        assert p.ctm[0] * p.ctm[3] - p.ctm[1] * p.ctm[2] == pytest.approx(1.0, abs=1e-9)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_nothing_is_drawn_within_10_mm_of_the_paper_edge(tmp_path, paper):
    path, _ = write(tmp_path, paper)
    with pdfplumber.open(path) as pdf:
        sizes = [(p.width / MM, p.height / MM) for p in pdf.pages]
        assert sorted(sizes[0]) == pytest.approx(sorted(PAPERS_MM[paper]), abs=0.01)
        for page in pdf.pages:                   # the sheet's own text and marks (never clipped)
            pw, ph = page.width / MM, page.height / MM
            sheet_chars = [c for c in page.chars if c["size"] < 20]  # the stub's 28 pt title is board, clipped
            for obj in sheet_chars + marks(page):
                x0, y0, x1, y1 = ((obj["x0"] / MM, obj["y0"] / MM, obj["x1"] / MM, obj["y1"] / MM)
                                  if isinstance(obj, dict) else obj)
                assert min(x0, y0, pw - x1, ph - y1) >= MARGIN - TOL
    for boxes, (pw, ph) in zip(visible_boxes(path) if PDFCHECK.exists() else [], sizes):   # clips applied
        assert boxes
        for x0, y0, x1, y1 in boxes:
            assert min(x0, y0, pw - x1, ph - y1) >= MARGIN - TOL, (x0, y0, x1, y1)
    document = pypdfium2.PdfDocument(str(path))                 # and the pixels agree
    for index in range(len(document)):
        image = document[index].render(scale=2).to_pil().convert("L")
        band = int((MARGIN - 0.3) * 2 / 25.4 * 72)
        w, h = image.size
        for box in ((0, 0, w, band), (0, h - band, w, h), (0, 0, band, h), (w - band, 0, w, h)):
            assert image.crop(box).getextrema() == (255, 255), f"ink near the edge of page {index + 1}"
    document.close()
    if PDFCHECK.exists():               # the independent preflight: paper, fonts, marks off the "cards"
        result = pdfcheck(path, "--paper", paper, "--duplex", "off")
        assert result.returncode == 0, result.stdout


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_seam_targets_sit_at_the_same_board_coordinates_on_both_tiles(tmp_path, paper):
    path, info = write(tmp_path, paper)
    first, second = placements(path)
    with pdfplumber.open(path) as pdf:
        ours, theirs = targets(pdf.pages[0], first), targets(pdf.pages[1], second)
    assert len(ours) == 2 and ours == theirs
    overlap = [max(first.window[i], second.window[i]) for i in (0, 1)] + \
              [min(first.window[i], second.window[i]) for i in (2, 3)]
    for x, y in ours:                       # inside the strip both tiles print
        assert overlap[0] < x < overlap[2] and overlap[1] < y < overlap[3]


def test_cut_line_glue_zone_and_their_labels(tmp_path):
    path, info = write(tmp_path, "a4")
    assert info["tiles"] == (2, 1)
    first, second = placements(path)
    with pdfplumber.open(path) as pdf:
        a1, b1 = pdf.pages
        drawn = ["".join(c["text"] for c in page.chars) for page in (a1, b1)]   # in drawing order (turned)
        assert "couper ici" in drawn[0] and "coller ici" not in drawn[0]
        assert "coller ici" in drawn[1] and "couper ici" not in drawn[1]
        dashed = [ln for ln in a1.lines if abs(ln["linewidth"] - 0.6) < 0.01]
        hatches = [ln for ln in b1.lines if abs(ln["linewidth"] - 0.4) < 0.01]
    assert len(dashed) == 1 and dashed[0]["x0"] == pytest.approx(dashed[0]["x1"])
    cut_x = first.to_board(dashed[0]["x0"], dashed[0]["y0"])[0]
    assert cut_x == pytest.approx(first.window[2] - 2.0, abs=TOL)    # 2 mm inside the far edge of the strip
    xs = [second.to_board(ln[k], ln["y0"])[0] for ln in hatches for k in ("x0", "x1")]
    assert min(xs) == pytest.approx(second.window[0], abs=TOL)       # the glue zone starts with the strip
    assert max(xs) == pytest.approx(cut_x - 2.0, abs=TOL)            # and stops 2 mm short of the cut


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_crop_marks_are_5_mm_and_at_the_board_corners_stay_off_the_board(tmp_path, paper):
    path, _ = write(tmp_path, paper)
    segments = []                                   # (board x0, y0, x1, y1) of every mark
    with pdfplumber.open(path) as pdf:
        for page, placement in zip(pdf.pages, placements(path)):
            x0w, y0w, x1w, y1w = placement.window
            for x0, y0, x1, y1 in marks(page):
                (ax, ay), (bx, by) = placement.to_board(x0 * MM, y0 * MM), placement.to_board(x1 * MM, y1 * MM)
                lo_x, hi_x, lo_y, hi_y = min(ax, bx), max(ax, bx), min(ay, by), max(ay, by)
                # never on this tile's printed board: at least 1 mm outside its window
                assert hi_x <= x0w - 0.99 or lo_x >= x1w + 0.99 or hi_y <= y0w - 0.99 or lo_y >= y1w + 0.99
                assert hi_x - lo_x + hi_y - lo_y == pytest.approx(5.0, abs=0.01)      # 5 mm, like every sheet's
                segments.append((lo_x, lo_y, hi_x, hi_y))

    def beyond(lo, hi, corner, size):              # wholly past the corner, outside the trim
        return hi < -0.99 if corner == 0 else lo > size + 0.99

    for cx, cy in itertools.product((0.0, BOARD[0]), (0.0, BOARD[1])):    # both edges through each corner
        vertical = [s for s in segments if max(abs(s[0] - cx), abs(s[2] - cx)) < TOL]
        horizontal = [s for s in segments if max(abs(s[1] - cy), abs(s[3] - cy)) < TOL]
        assert any(beyond(s[1], s[3], cy, BOARD[1]) for s in vertical), (cx, cy)
        assert any(beyond(s[0], s[2], cx, BOARD[0]) for s in horizontal), (cx, cy)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_page_map_header_and_calibration_footer(tmp_path, paper):
    path, info = write(tmp_path, paper)
    names = ["A1", "B1"] if info["tiles"] == (2, 1) else ["A1", "A2"]
    with pdfplumber.open(path) as pdf:
        for index, page in enumerate(pdf.pages):
            text = page.extract_text()
            assert f"Build It · Plateau · tuile {names[index]} ({index + 1}/2)" in text
            assert "plan d'assemblage" in text and all(name in text for name in names)
            assert "50 mm — imprimer à 100 % (taille réelle)" in text
            cells = [r for r in page.rects if r["stroke"] and abs(r["linewidth"] - 0.5) < 0.01]
            assert len(cells) == 2
            filled = [r for r in cells if tuple(r["non_stroking_color"]) == pytest.approx((0.3, 0.3, 0.3))]
            assert len(filled) == 1
            inside = "".join(c["text"] for c in page.chars if filled[0]["x0"] < c["x0"] < filled[0]["x1"]
                             and filled[0]["top"] < c["top"] < filled[0]["bottom"])
            assert inside == names[index]
            extent = (max(r["x1"] for r in cells) - min(r["x0"] for r in cells),
                      max(r["bottom"] for r in cells) - min(r["top"] for r in cells))
            assert max(extent) / MM == pytest.approx(30.0, abs=0.5)     # the whole board, 30 mm long
            bars = [c for c in page.curves if abs(c["linewidth"] - 0.5) < 0.01]
            assert len(bars) == 1 and (bars[0]["x1"] - bars[0]["x0"]) / MM == pytest.approx(50.0, abs=0.01)
    with pikepdf.open(path) as pdf:     # every size the sheet sets (turned labels included), scale 1
        for page in pdf.pages:
            sizes = [float(i.operands[1]) for i in pikepdf.parse_content_stream(page) if str(i.operator) == "Tf"]
            assert sizes and min(sizes) >= 6.0


def test_fonts_are_embedded_and_writes_are_byte_identical(tmp_path):
    outputs = []
    for _ in range(2):
        write_board_pnp(buffer := io.BytesIO(), StubBoard(), PrintOptions(paper="letter", game_title="Build It"))
        outputs.append(buffer.getvalue())
    assert outputs[0] == outputs[1]
    with pikepdf.open(io.BytesIO(outputs[0])) as pdf:
        fonts = [o for o in pdf.objects if isinstance(o, pikepdf.Dictionary) and o.get("/Type") == "/Font"]
        assert fonts and all("/FontFile2" in font.FontDescriptor for font in fonts)
        assert not {str(font.BaseFont).split("+")[-1].split("-")[0] for font in fonts} & STD14
        forms = [o for o in pdf.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Form"]
        assert len(forms) == 1          # the board is drawn once, placed on every tile
    a, b = tmp_path / "a.pdf", tmp_path / "b.pdf"
    write_board_print(a, StubBoard(), "Build It — Plateau")
    write_board_print(b, StubBoard(), "Build It — Plateau")
    assert a.read_bytes() == b.read_bytes()


def test_print_file_is_the_bleed_box_with_trim_and_bleed_boxes(tmp_path):
    path = tmp_path / "print.pdf"
    info = write_board_print(path, StubBoard(), "Build It — Plateau")
    assert info["pages"] == 1
    with pikepdf.open(path) as pdf:
        page = pdf.pages[0]
        box = {name: [float(v) / MM for v in page.obj[name]] for name in ("/MediaBox", "/TrimBox", "/BleedBox")}
    trim, bleed = box["/TrimBox"], box["/BleedBox"]
    assert (trim[2] - trim[0], trim[3] - trim[1]) == pytest.approx(BOARD, abs=TOL)
    assert trim[:2] == pytest.approx([3.0, 3.0], abs=TOL)
    assert bleed == pytest.approx([0.0, 0.0, 236.0, 236.0], abs=TOL) and box["/MediaBox"] == pytest.approx(bleed)
    if PDFCHECK.exists():
        result = pdfcheck(path, "--bleed", "3", "--expect-card", "230x230")
        assert result.returncode == 0, result.stdout


# ----------------------------------------------------------------------------- bigger boards
@pytest.mark.parametrize("paper, size, tiles", [("a4", (600, 150), (3, 1)), ("letter", (437, 335), (3, 2))])
def test_middle_tiles_pass_the_preflight(tmp_path, paper, size, tiles):
    """A middle tile has targets on two seams: four crosshairs that must not frame a phantom card for the
    preflight (upright crosses did: CROP_MARK_IN_TRIM on every middle tile). Their arms are diagonal."""
    path, info = write(tmp_path, paper, StubBoard(width=mm(size[0]), height=mm(size[1])), name="wide")
    assert info["tiles"] == tiles
    result = pdfcheck(path, "--paper", paper, "--duplex", "off")
    assert result.returncode == 0, result.stdout
    with pdfplumber.open(path) as pdf:
        arms = [ln for ln in pdf.pages[1].lines if abs(ln["linewidth"] - 0.35) < 0.01]
    assert arms and all(abs(abs(ln["x1"] - ln["x0"]) - abs(ln["y1"] - ln["y0"])) < 0.01 for ln in arms)


def test_a_2x2_board_has_every_seam_registered_on_both_tiles(tmp_path):
    face = StubBoard(width=mm(400), height=mm(300))
    path, info = write(tmp_path, "a4", face, name="big", ink_saver=True)
    assert info["pages"] == 4 and info["tiles"] == (2, 2)
    found = placements(path)
    with pdfplumber.open(path) as pdf:
        seen = [targets(page, placement) for page, placement in zip(pdf.pages, found)]
        texts = [page.extract_text() for page in pdf.pages]
    for text, label in zip(texts, ["A1 (1/4)", "B1 (2/4)", "A2 (3/4)", "B2 (4/4)"]):
        assert f"Build It · Plateau · version économie d'encre · tuile {label}" in text
    for p, q in ((0, 1), (2, 3), (0, 2), (1, 3)):         # A1|B1, A2|B2, A1/A2, B1/B2
        wp, wq = found[p].window, found[q].window
        strip = (max(wp[0], wq[0]), max(wp[1], wq[1]), min(wp[2], wq[2]), min(wp[3], wq[3]))
        assert min(strip[2] - strip[0], strip[3] - strip[1]) == pytest.approx(10.0, abs=TOL)

        def inside(points):
            return [pt for pt in points if strip[0] < pt[0] < strip[2] and strip[1] < pt[1] < strip[3]]
        assert len(inside(seen[p])) == 2 and inside(seen[p]) == inside(seen[q])
    if PDFCHECK.exists():
        result = pdfcheck(path, "--paper", "a4", "--duplex", "off")
        assert result.returncode == 0, result.stdout


BOARD_TEMPLATE = """\
    size: [230, 230]
    bleed: 3
    elements:
      - rect: {x: -3, y: -3, w: 236, h: 236, fill: "#E8D9B0"}
      - group:
          {x: 11, y: 11, repeat: 8, dy: 26, var: row, elements: [
            {group: {repeat: 8, dx: 26, var: col, elements: [
              {rect: {x: 1, y: 1, w: 24, h: 24, fill: "{{ '#C9B27C' if (row + col) % 2 else '#F4ECD2' }}"}}]}}]}
      - text: {x: 15, y: 3, w: 200, h: 7, text: "Build It — plateau", size: 12, align: center}
    """


def test_a_template_board_tiles_and_prints(tmp_path):
    root = tmp_path / "proj"
    (root / "templates" / "game").mkdir(parents=True)
    (root / "templates" / "game" / "board.yaml").write_text(textwrap.dedent(BOARD_TEMPLATE), encoding="utf-8")
    renderer = FaceRenderer(root, root / "templates" / "game", default_fonts())
    face, problems = renderer.layout("board.yaml", {"card": {"index": 1, "copy": 1, "copies": 1}}, None, "board")
    assert problems == []
    for paper in ("a4", "letter"):
        path, info = write(tmp_path, paper, face, name=f"template-{paper}")
        assert info["pages"] == 2
        assert len(placements(path)) == 2
    write_board_print(tmp_path / "print.pdf", face, "Build It — Plateau")
    if PDFCHECK.exists():
        result = pdfcheck(tmp_path / "print.pdf", "--bleed", "3", "--expect-card", "230x230")
        assert result.returncode == 0, result.stdout


def test_options_and_impossible_boards_are_refused(tmp_path, monkeypatch):
    with pytest.raises(ValueError, match="paper"):
        PrintOptions(paper="a3")
    with pytest.raises(ValueError, match="overlap"):
        PrintOptions(overlap_mm=2)
    with pytest.raises(PipelineError, match="0×230 mm board cannot be tiled on a4 paper") as caught:
        write(tmp_path, "a4", StubBoard(width=0.0), name="flat")
    (problem,) = caught.value.problems
    assert problem.rule == "tiling" and str(tmp_path / "flat.pdf") in str(problem.where)
    monkeypatch.setattr(tiling, "plan_tiles", lambda *args: None)
    with pytest.raises(PipelineError, match="230×230 mm board cannot be tiled on letter paper with a 10 mm overlap"):
        write(tmp_path, "letter", name="none")
    assert not list(tmp_path.glob("*.pdf"))


# ----------------------------------------------------------------------------- the plan, for any board
@settings(max_examples=120, deadline=None)
@given(w=st.floats(60, 900), h=st.floats(60, 900), bleed=st.sampled_from([0.0, 2.0, 3.0]),
       paper=st.sampled_from(sorted(PAPERS_MM)), overlap=st.sampled_from([5.0, 10.0, 20.0]))
def test_any_plan_covers_the_board_and_stays_inside_the_margins(w, h, bleed, paper, overlap):
    plan = plan_tiles(PAPERS_MM[paper], (w, h), bleed, overlap, lambda long: _map_group(default_fonts(), (w, h), long))
    assert plan is not None
    area, frame, win, m = _content(plan.paper, 1), _frame(plan.edge, plan.mark_len), plan.window_page, plan.map_rect
    block = (win.x0 - frame, win.y0 - frame, win.x1 + frame, win.y1 + frame)
    for x0, y0, x1, y1 in [block] + ([(m.x0, m.y0, m.x1, m.y1)] if plan.cols * plan.rows > 1 else []):
        assert area.x0 - 1e-6 <= x0 and x1 <= area.x1 + 1e-6 and area.y0 - 1e-6 <= y0 and y1 <= area.y1 + 1e-6
    assert plan.cols * plan.rows == 1 or m.x0 >= block[2] or m.y1 <= block[1]    # map beside or below the tile
    first, last = plan.window(0, 0), plan.window(plan.cols - 1, plan.rows - 1)
    assert first.x0 == pytest.approx(-plan.edge) and first.y1 == pytest.approx(h + plan.edge)
    assert last.x1 == pytest.approx(w + plan.edge) and last.y0 == pytest.approx(-plan.edge)
    if plan.cols > 1:
        assert plan.window(0, 0).x1 - plan.window(1, 0).x0 == pytest.approx(overlap)
    if plan.rows > 1:
        assert plan.window(0, 1).y1 - plan.window(0, 0).y0 == pytest.approx(overlap)
