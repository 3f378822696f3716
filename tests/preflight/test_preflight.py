"""pnp's own preflight (pipeline/preflight/) on PDFs made here with reportlab, each wrong in one way: each
gives its one line, at its page, and the same sheet made right passes."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from PIL import Image
from reportlab.lib.units import mm
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas as pdfcanvas

from pipeline.preflight import Options, check_file

A4 = (210 * mm, 297 * mm)
CARD = (63 * mm, 88 * mm)


def _font() -> str:
    """An embedded TrueType font: the project's body font, registered by the project's own font set."""
    from pipeline.render.fonts import default_fonts

    fonts = default_fonts()
    return fonts.name(sorted(fonts.names)[0])


def grid(columns: int = 3, rows: int = 3, card=CARD, mirrored: bool = False, shift: float = 0.0):
    """Lower-left corners of a grid of cards centred on A4 (shared cut lines); `mirrored` lists them as a
    long-edge back page sees them, `shift` moves the whole grid right (mm)."""
    left = (A4[0] - columns * card[0]) / 2 + shift * mm
    bottom = (A4[1] - rows * card[1]) / 2
    return [(left + c * card[0], bottom + r * card[1]) for r in range(rows) for c in range(columns)]


def draw_sheet(c, corners, card=CARD, mark_into: float = 0.0, cards: bool = True) -> None:
    """Cards as filled rectangles with a line of text (unless not `cards`), and 5 mm crop marks 2 mm off the
    grid on every cut line; `mark_into` (mm) lengthens the first vertical top mark down into the card below."""
    c.setFont(_font(), 9)
    for x, y in corners if cards else ():
        c.setFillColorRGB(0.85, 0.9, 0.95)
        c.rect(x, y, card[0], card[1], stroke=0, fill=1)
        c.setFillColorRGB(0, 0, 0)
        c.drawString(x + 5 * mm, y + card[1] / 2, "Carte")
    xs = sorted({round(x, 3) for x, _ in corners} | {round(x + card[0], 3) for x, _ in corners})
    ys = sorted({round(y, 3) for _, y in corners} | {round(y + card[1], 3) for _, y in corners})
    c.setLineWidth(0.3)
    for i, x in enumerate(xs):
        reach = mark_into * mm if i == 0 else -2 * mm
        c.line(x, ys[-1] + 7 * mm, x, ys[-1] - reach)
        c.line(x, ys[0] - 7 * mm, x, ys[0] - 2 * mm)
    for y in ys:
        c.line(xs[0] - 7 * mm, y, xs[0] - 2 * mm, y)
        c.line(xs[-1] + 2 * mm, y, xs[-1] + 7 * mm, y)


def write(path: Path, *pages) -> Path:
    """A PDF of A4 pages, each drawn by one function of the canvas."""
    c = pdfcanvas.Canvas(str(path), pagesize=A4, invariant=1)
    for draw in pages:
        draw(c)
        c.showPage()
    c.save()
    return path


def fronts_and_backs(path: Path, back_shift: float = 0.0) -> Path:
    """A duplex pair: six cards on three columns, fronts from the left, backs where a long-edge flip puts
    them (the right), moved `back_shift` mm."""
    fronts = grid()[:6][:5]
    width = A4[0]
    backs = [(width - x - CARD[0] + back_shift * mm, y) for x, y in fronts]
    return write(path, lambda c: draw_sheet(c, fronts), lambda c: draw_sheet(c, backs))


def lines(result) -> list[str]:
    return [p.line("f.pdf") for p in result.problems]


def test_a_good_sheet_passes_and_its_cards_are_measured(tmp_path):
    result = check_file(write(tmp_path / "f.pdf", lambda c: draw_sheet(c, grid())), Options(card=(63, 88)))
    assert lines(result) == []
    cards = result.cards[0]
    assert cards.method == "marks" and len(cards.rects) == 9
    assert all(abs(r[2] - r[0] - CARD[0]) < 0.01 and abs(r[3] - r[1] - CARD[1]) < 0.01 for r in cards.rects)


def test_wrong_card_size(tmp_path):
    path = write(tmp_path / "f.pdf", lambda c: draw_sheet(c, grid(card=(60 * mm, 88 * mm)), card=(60 * mm, 88 * mm)))
    assert lines(check_file(path, Options(card=(63, 88)))) == [
        "f.pdf: page 1: 9 cards measure 60.00 × 88.00 mm, not 63 × 88 mm (± 0.5); the first at x 15.0, y 16.5 mm"]
    assert lines(check_file(path, Options(card=(60.4, 88)))) == []        # within 0.5 mm


def draw_faces(c, corners, card=CARD, bleed: float = 3 * mm) -> None:
    """Cards as pnp places them: each face drawn with its bleed and clipped to its trim, 5 mm crop marks
    2 mm off the block on every cut line."""
    for x, y in corners:
        c.saveState()
        trim = c.beginPath()
        trim.rect(x, y, card[0], card[1])
        c.clipPath(trim, stroke=0, fill=0)
        c.setFillColorRGB(0.3, 0.5, 0.2)
        c.rect(x - bleed, y - bleed, card[0] + 2 * bleed, card[1] + 2 * bleed, stroke=0, fill=1)
        c.setStrokeColorRGB(1, 1, 1)
        c.line(x + 3 * mm, y + 10 * mm, x + 9 * mm, y + 10 * mm)          # the face's own short line: art
        c.restoreState()
    draw_sheet(c, corners, card, cards=False)


def test_clipped_faces_on_mark_lines_are_cards(tmp_path):
    result = check_file(write(tmp_path / "f.pdf", lambda c: draw_faces(c, grid())), Options(card=(63, 88)))
    assert lines(result) == [] and result.cards[0].method == "faces" and len(result.cards[0].rects) == 9


def test_cards_of_two_sizes_on_one_sheet(tmp_path):
    def sheet(c):
        draw_faces(c, grid(columns=1, rows=1, shift=-60))
        draw_faces(c, [(130 * mm, 150 * mm)], card=(40 * mm, 40 * mm))

    assert lines(check_file(write(tmp_path / "f.pdf", sheet))) == [
        "f.pdf: page 1: warning: cards of several sizes on one sheet: 63.00 × 88.00 mm × 1, 40.00 × 40.00 mm × 1"]


def test_a_mark_inside_a_card(tmp_path):
    path = write(tmp_path / "f.pdf", lambda c: draw_sheet(c, grid(), mark_into=4))
    assert lines(check_file(path)) == [
        "f.pdf: page 1: crop mark at x 10.5, y 276.5 mm runs 4.00 mm into the card at x 10.5, y 192.5 mm"]


def test_backs_not_mirrored(tmp_path):
    assert lines(check_file(fronts_and_backs(tmp_path / "good.pdf"))) == []
    result = check_file(fronts_and_backs(tmp_path / "f.pdf", back_shift=2))
    assert lines(result) == ["f.pdf: page 2: backs are not the front page 1's cards mirrored for a long-edge "
                             "flip: 5 of 5 off by more than 0.5 mm, the worst by 2.00 mm (front card at x 136.5, "
                             "y 16.5 mm)"]
    assert [(f, b) for f, b, _ in result.duplex] == [(1, 2)]
    assert lines(check_file(tmp_path / "f.pdf", Options(duplex="off"))) == []


def test_an_unembedded_standard_font(tmp_path):
    def sheet(c):
        c.setFont("Helvetica", 12)
        c.drawString(20 * mm, 20 * mm, "Règles du jeu")

    assert lines(check_file(write(tmp_path / "f.pdf", lambda c: None, sheet))) == [
        "f.pdf: page 2: font Helvetica is not embedded (one of the 14 standard PDF fonts: each printer "
        "substitutes its own)"]


def test_an_embedded_subset_font_passes(tmp_path):
    def sheet(c):
        c.setFont(_font(), 12)
        c.drawString(20 * mm, 20 * mm, "Règles du jeu")

    result = check_file(write(tmp_path / "f.pdf", sheet))
    assert lines(result) == [] and list(result.pages[0].fonts.values()) == [True]


def _image(c, pixels: int, size_mm: float) -> None:
    buffer = io.BytesIO()
    Image.new("RGB", (pixels, pixels), (200, 30, 30)).save(buffer, "PNG")
    buffer.seek(0)
    c.drawImage(ImageReader(buffer), 20 * mm, 20 * mm, size_mm * mm, size_mm * mm)


@pytest.mark.parametrize("pixels, expected", [
    (100, "f.pdf: page 1: image of 100 × 100 px placed at 35.28 × 35.28 mm is 72 dpi, under 150"),
    (300, "f.pdf: page 1: warning: image of 300 × 300 px placed at 35.28 × 35.28 mm is 216 dpi, under 300"),
    (420, None)])
def test_image_resolution(tmp_path, pixels, expected):
    path = write(tmp_path / "f.pdf", lambda c: _image(c, pixels, 25.4 / 72 * 100))    # 100 pt: 100 px = 72 dpi
    assert lines(check_file(path)) == ([expected] if expected else [])


def _print_page(trim: bool = True, bleed_mm: float = 3.0):
    def page(c):
        w, h, b = CARD[0] + 2 * bleed_mm * mm, CARD[1] + 2 * bleed_mm * mm, bleed_mm * mm
        c.setPageSize((w, h))
        c.setBleedBox((0, 0, w, h))
        if trim:
            c.setTrimBox((b, b, b + CARD[0], b + CARD[1]))
        c.setFillColorRGB(0.2, 0.4, 0.8)
        c.rect(0, 0, w, h, stroke=0, fill=1)
    return page


def test_a_print_shop_page_is_one_card_with_its_bleed(tmp_path):
    result = check_file(write(tmp_path / "f.pdf", _print_page(), _print_page()), Options(card=(63, 88)))
    assert lines(result) == [] and [c.method for c in result.cards] == ["TrimBox", "TrimBox"]


def test_a_missing_trimbox(tmp_path):
    path = write(tmp_path / "f.pdf", _print_page(trim=False))
    assert lines(check_file(path)) == ["f.pdf: page 1: has a BleedBox but no TrimBox: where to cut is not said"]


def test_too_little_bleed(tmp_path):
    path = write(tmp_path / "f.pdf", _print_page(bleed_mm=2))
    assert lines(check_file(path)) == [
        "f.pdf: page 1: bleed is 2.00 mm on the left, bottom, right, top, under 3 mm (TrimBox to BleedBox)"]
    assert lines(check_file(path, Options(bleed_mm=2))) == []


def test_a_trimbox_outside_the_bleedbox(tmp_path):
    def page(c):
        _print_page()(c)
        c.setTrimBox((-5, 8.5, 170, 258))

    found = lines(check_file(write(tmp_path / "f.pdf", page)))
    assert found[0].startswith("f.pdf: page 1: its TrimBox (-1.8 3.0 60.0 91.0 mm) is not inside its BleedBox")


def test_not_a_pdf(tmp_path):
    (tmp_path / "f.pdf").write_text("not a PDF")
    found = lines(check_file(tmp_path / "f.pdf"))
    assert len(found) == 1 and found[0].startswith("f.pdf: cannot be read as a PDF")


def test_the_command_line(tmp_path, capsys):
    from typer.testing import CliRunner

    from pipeline.cli.app import app

    folder = tmp_path / "pdfs"
    folder.mkdir()
    write(folder / "good.pdf", lambda c: draw_sheet(c, grid()))
    write(folder / "bad.pdf", lambda c: draw_sheet(c, grid(), mark_into=4))
    runner = CliRunner()
    passed = runner.invoke(app, ["preflight", str(folder / "good.pdf"), "--card", "63x88"])
    assert passed.exit_code == 0, passed.output
    assert f"{folder / 'good.pdf'}: 1 page, 9 cards (63.00 × 88.00 mm), 1 font embedded" in passed.output
    failed = runner.invoke(app, ["preflight", str(folder)])
    assert failed.exit_code == 1
    assert failed.output.splitlines()[0] == (f"{folder / 'bad.pdf'}: page 1: crop mark at x 10.5, y 276.5 mm runs "
                                             "4.00 mm into the card at x 10.5, y 192.5 mm")
    report = json.loads(runner.invoke(app, ["preflight", str(folder), "--json"]).output)
    assert [(f["path"].rsplit("/", 1)[-1], f["ok"]) for f in report["files"]] == [("bad.pdf", False), ("good.pdf", True)]
    assert report["files"][1]["pages"][0]["cards"]["rects_mm"][0] == [10.5, 16.5, 63.0, 88.0]
    assert runner.invoke(app, ["preflight", str(tmp_path / "missing.pdf")]).exit_code == 2
    assert runner.invoke(app, ["preflight", str(folder), "--card", "big"]).exit_code == 2
