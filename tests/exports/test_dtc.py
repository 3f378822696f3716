"""DriveThruCards (pipeline/exports/dtc.py) and its PDF/X-1a step (pipeline/exports/pdfx.py): page boxes, page
order, the face alone on each page, embedded fonts, the refusal when Ghostscript is missing or too old, the
pikepdf post-pass, and the real conversion when a Ghostscript >= 10.05 is on PATH."""

from __future__ import annotations

import io
import os
import stat

import pikepdf
import pypdfium2 as pdfium
import pytest

from pipeline.exports import dtc, pdfx, shops
from pipeline.exports.pieces import BOARD, DECK, TOKEN, Card, Piece
from pipeline.render.fonts import default_fonts
from pipeline.render.pdf import new_canvas
from tests.exports.test_shops import BLUE, GREEN, RED, WHITE, Swatch
from tests.exports.real_games import prepared

MEDIA, TRIM = [0, 0, 198, 270], [9, 9, 189, 261]
SCALE = 4                                                  # px per point when a page is rendered


def deck(ident="cards", cards=None, size=(63.5, 88.9), kind=DECK):
    back = Swatch("back", inside=BLUE, outside=BLUE, text="Dos")
    cards = cards or [Card(Swatch("one", inside=GREEN, border_mm=1, text="Une"), back, "Une", "0001", ""),
                      Card(Swatch("two", inside=WHITE, border_mm=1, text="Deux"), back, "Deux", "0002", "")]
    return Piece(ident, f"Titre {ident}", kind, size, tuple(cards))


def fake_gs(folder, version: str, exit_code: int = 0):
    """A `gs` that prints `version` for --version and exits with `exit_code` otherwise (writing nothing)."""
    path = folder / "gs"
    path.write_text(f'#!/bin/sh\nif [ "$1" = "--version" ]; then echo {version}; exit 0; fi\n'
                    f'echo "fake gs: no PDF" >&2\nexit {exit_code}\n')
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def render(pdf: bytes, index: int):
    document = pdfium.PdfDocument(pdf)
    try:
        return document[index].render(scale=SCALE).to_pil().convert("RGB")
    finally:
        document.close()


def real_gs():
    found = pdfx.find_gs()
    return found[0] if found and pdfx.can_convert(found[1]) else None


# -- the RGB file -------------------------------------------------------------------------------------------

def test_each_page_is_the_bleed_box_of_a_poker_card_with_the_trim_box_inside():
    export = dtc.export("g", "Jeu", [deck()])
    with pikepdf.open(io.BytesIO(export.files["cards.pdf"])) as pdf:
        assert len(pdf.pages) == 4
        for page in pdf.pages:
            assert [float(v) for v in page.obj.MediaBox] == MEDIA
            assert [float(v) for v in page.obj.TrimBox] == TRIM
            assert [float(v) for v in page.obj.BleedBox] == MEDIA
            assert "/ArtBox" not in page.obj
    assert export.info["files"]["cards"]["pages"] == 4


def test_pages_go_front_back_front_back_assumed_order():
    """[U] EXPORTS.md §6.1: which side DTC wants first is uncertain; the assumption is front first."""
    pdf = dtc.export("g", "Jeu", [deck()]).files["cards.pdf"]
    centre = (99 * SCALE, 135 * SCALE + 40)           # below the text
    assert [render(pdf, i).getpixel(centre) for i in range(4)] == [GREEN, BLUE, WHITE, BLUE]


def test_the_page_holds_the_face_only_no_marks_and_the_trim_9_pt_in():
    pdf = dtc.export("g", "Jeu", [deck()]).files["cards.pdf"]
    image = render(pdf, 0)
    width, height = image.size
    assert (width, height) == (198 * SCALE, 270 * SCALE)
    for corner in ((0, 0), (width - 1, 0), (0, height - 1), (width - 1, height - 1), (2, height // 2)):
        assert image.getpixel(corner) == pytest.approx(RED, abs=8), corner      # bleed colour, no mark
    row = [sum(image.getpixel((x, height // 2 + 40))) < 120 for x in range(width)]
    left, right = row.index(True), width - 1 - row[::-1].index(True)
    assert abs(left - 9 * SCALE) <= 1 and abs(width - 1 - right - 9 * SCALE) <= 1
    assert image.getpixel((width // 2, height // 2 + 40)) == GREEN


def test_fonts_are_embedded_and_no_page_uses_transparency():
    pdf = dtc.export("g", "Jeu", [deck()]).files["cards.pdf"]
    with pikepdf.open(io.BytesIO(pdf)) as document:
        fonts = [o for o in document.objects
                 if isinstance(o, pikepdf.Dictionary) and o.get("/Type") == pikepdf.Name("/FontDescriptor")]
        assert fonts and all("/FontFile2" in font for font in fonts)
    assert pdfx.transparent_pages(pdf) == []


def test_a_face_repeated_in_the_deck_is_one_form_placed_on_each_page():
    pdf = dtc.export("g", "Jeu", [deck()]).files["cards.pdf"]
    with pikepdf.open(io.BytesIO(pdf)) as document:
        forms = {form.objgen for page in document.pages[1::2] for form in page.Resources.XObject.values()}
        assert len(forms) == 1                          # the back, on pages 2 and 4


def test_transparency_is_found_and_reported():
    class Veiled(Swatch):
        def draw(self, canvas):
            canvas.setFillAlpha(0.5)
            super().draw(canvas)
    export = dtc.export("g", "Jeu", [deck(cards=[Card(Veiled("veil"), Swatch("b"), "Voile", "", "")])])
    assert pdfx.transparent_pages(export.files["cards.pdf"]) == [1]
    assert export.info["files"]["cards"]["transparent_pages"] == [1]
    assert any("transparency" in note and "cards.pdf (1 of 2 pages)" in note for note in export.notes)


def test_other_sizes_are_refused_and_boards_left_out_with_a_note():
    pieces = [deck("arenas", size=(88, 126), cards=[Card(Swatch("x", 88, 126), None, "Arène", "", "")]),
              deck("pawns", kind=TOKEN, size=(18, 18), cards=[Card(Swatch("t", 18, 18), None, "Pion", "", "")]),
              deck("court", kind=BOARD, size=(400, 300))]
    export = dtc.export("g", "Jeu", pieces)
    assert export.files == {}
    assert [(str(p.where), p.message) for p in export.problems] == [
        ("arenas", "88×126 mm matches no DriveThruCards product (nearest: poker 63.5×88.9 mm); left out"),
        ("pawns", "18×18 mm matches no DriveThruCards product (nearest: poker 63.5×88.9 mm); left out")]
    assert export.notes == ["DriveThruCards: not card products, left out: court (board)"]


def test_a_single_sided_deck_is_fronts_only():
    cards = [Card(Swatch("one", inside=GREEN), None, "Une", "", ""), Card(Swatch("two"), None, "Deux", "", "")]
    pdf = dtc.export("g", "Jeu", [deck(cards=cards)]).files["cards.pdf"]
    assert [render(pdf, i).getpixel((99 * SCALE, 135 * SCALE)) for i in range(2)] == [GREEN, WHITE]


def test_the_same_deck_gives_the_same_bytes():
    assert dtc.export("g", "Jeu", [deck()]).files == dtc.export("g", "Jeu", [deck()]).files


# -- Ghostscript: refusal, failure, version ------------------------------------------------------------------

def test_without_ghostscript_only_the_rgb_pdf_and_one_note():
    export = dtc.export("g", "Jeu", [deck(), deck("more")])
    assert sorted(export.files) == ["cards.pdf", "more.pdf"]
    assert export.notes == ["PDF/X-1a for DriveThruCards needs Ghostscript ≥ 10.05.0 on PATH (found: none); "
                            "the RGB PDF was written"]
    assert export.problems == [] and export.info["ghostscript"] == "none"


def test_debian_12_ghostscript_10_0_is_refused_cleanly(tmp_path):
    gs = fake_gs(tmp_path, "10.0.0")
    assert pdfx.gs_version(gs) == (10, 0, 0) and not pdfx.can_convert((10, 0, 0))
    export = dtc.export("g", "Jeu", [deck(), deck("more")], gs=gs)
    assert sorted(export.files) == ["cards.pdf", "more.pdf"]
    assert [note for note in export.notes if "Ghostscript" in note] == [
        "PDF/X-1a for DriveThruCards needs Ghostscript ≥ 10.05.0 on PATH (found: 10.0.0); the RGB PDF was written"]
    assert export.problems == []


def test_a_ghostscript_that_fails_leaves_the_rgb_pdf_and_a_warning(tmp_path):
    gs = fake_gs(tmp_path, "10.07.0", exit_code=1)
    export = dtc.export("g", "Jeu", [deck()], gs=gs)
    assert sorted(export.files) == ["cards.pdf"]
    (problem,) = export.problems
    assert str(problem.where) == "cards" and problem.message.startswith("no PDF/X-1a: Ghostscript exited with 1")
    assert not any("needs Ghostscript" in note for note in export.notes)


def test_find_gs_reads_the_version_of_the_gs_on_path(tmp_path, monkeypatch):
    gs = fake_gs(tmp_path, "10.07.0")
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ.get('PATH', '')}")
    assert pdfx.find_gs() == (gs, (10, 7, 0))
    monkeypatch.setenv("PATH", str(tmp_path / "nowhere"))
    assert pdfx.find_gs() is None
    assert pdfx.version_text((10, 7, 0)) == "10.07.0" and pdfx.version_text((10, 0, 0)) == "10.0.0"


# -- the pikepdf post-pass and the preflight, without Ghostscript ---------------------------------------------

def _as_ghostscript_writes_it(source: bytes, stamp: str) -> bytes:
    """What gs -dPDFX=1 does to the boxes (EXPORTS.md §6.2): TrimBox and BleedBox gone, an ArtBox; a date and
    an /ID of its own."""
    with pikepdf.open(io.BytesIO(source)) as pdf:
        for page in pdf.pages:
            del page.obj["/TrimBox"], page.obj["/BleedBox"]
            page.obj.ArtBox = page.obj.MediaBox
        pdf.docinfo["/CreationDate"] = pikepdf.String(stamp)
        pdf.docinfo["/GTS_PDFXVersion"] = pikepdf.String("PDF/X-1a:2001")
        out = io.BytesIO()
        pdf.save(out, static_id=False)
        return out.getvalue()


def test_the_post_pass_restores_the_boxes_labels_x1a_2003_and_pins_dates_and_id():
    source = dtc.export("g", "Jeu", [deck()]).files["cards.pdf"]
    one = pdfx.post_pass(_as_ghostscript_writes_it(source, "D:20260101120000Z"), source)
    two = pdfx.post_pass(_as_ghostscript_writes_it(source, "D:20270505050505Z"), source)
    assert one == two
    with pikepdf.open(io.BytesIO(one)) as pdf:
        for page in pdf.pages:
            assert [float(v) for v in page.obj.TrimBox] == TRIM and [float(v) for v in page.obj.BleedBox] == MEDIA
            assert "/ArtBox" not in page.obj
        assert str(pdf.docinfo.GTS_PDFXVersion) == "PDF/X-1a:2003"
        assert str(pdf.docinfo.CreationDate) == str(pdf.docinfo.ModDate) == pdfx.FIXED_DATE
        assert "/ID" in pdf.trailer


def test_the_preflight_fails_an_rgb_file_and_ghostscripts_boxes():
    source = dtc.export("g", "Jeu", [deck()]).files["cards.pdf"]
    found = pdfx.preflight(source, MEDIA, TRIM)
    assert "no GTS_PDFXVersion PDF/X-1a" in found and "page 1: RGB colour operators (rg/RG)" in found
    raw = pdfx.preflight(_as_ghostscript_writes_it(source, "D:20260101120000Z"), MEDIA, TRIM)
    assert "page 1: TrimBox None" in raw


def test_transparent_pages_sees_a_soft_masked_image():
    from PIL import Image
    from reportlab.lib.utils import ImageReader

    buffer = io.BytesIO()
    canvas = new_canvas(buffer, (100, 100), default_fonts())
    canvas.drawImage(ImageReader(Image.new("RGB", (4, 4), (255, 0, 0))), 0, 0, 10, 10)
    canvas.showPage()
    canvas.drawImage(ImageReader(Image.new("RGBA", (4, 4), (0, 0, 255, 128))), 0, 0, 10, 10, mask="auto")
    canvas.showPage()
    canvas.save()
    assert pdfx.transparent_pages(buffer.getvalue()) == [2]


# -- the real conversion (only with Ghostscript >= 10.05 on PATH) --------------------------------------------

@pytest.mark.skipif(real_gs() is None, reason="needs Ghostscript >= 10.05 on PATH (EXPORTS.md §6.2)")
def test_ghostscript_makes_a_cmyk_pdf_x1a_that_passes_the_preflight_twice_the_same():
    gs = real_gs()
    export = dtc.export("g", "Jeu", [deck()], gs=gs)
    x1a = export.files["cards-x1a.pdf"]
    assert export.problems == [] and export.info["files"]["cards"]["pdfx"] == "PDF/X-1a:2003"
    assert pdfx.preflight(x1a, MEDIA, TRIM) == []
    assert pdfx.convert(export.files["cards.pdf"], gs) == x1a
    with pikepdf.open(io.BytesIO(x1a)) as pdf:
        (intent,) = pdf.Root.OutputIntents
        assert str(intent.OutputConditionIdentifier) == "CGATS TR 001" and "/DestOutputProfile" not in intent
        assert str(pdf.docinfo.Producer).startswith(("GPL Ghostscript", "Artifex Ghostscript"))
    image = render(x1a, 0)                               # still the face: green inside, bleed to the corner
    assert image.getpixel((99 * SCALE, 135 * SCALE + 40)) == pytest.approx(GREEN, abs=40)
    assert image.getpixel((0, 0)) == pytest.approx(RED, abs=40)


# -- a real game ---------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def nba():
    return prepared("nba")


def test_nba_decks_one_pdf_each_face_and_back_per_card_fonts_embedded(nba):
    item, pieces = nba
    export = dtc.export(item.game.id, item.game.title, pieces)
    decks = {p.id: p for p in pieces if p.kind == DECK}
    assert sorted(export.files) == sorted(f"{ident}.pdf" for ident in decks)
    for ident, piece in decks.items():
        with pikepdf.open(io.BytesIO(export.files[f"{ident}.pdf"])) as pdf:
            assert len(pdf.pages) == 2 * len(piece.cards)
            assert all([float(v) for v in page.obj.TrimBox] == TRIM for page in pdf.pages)
            assert all([float(v) for v in page.obj.MediaBox] == MEDIA for page in pdf.pages)
            fonts = [o for o in pdf.objects
                     if isinstance(o, pikepdf.Dictionary) and o.get("/Type") == pikepdf.Name("/FontDescriptor")]
            assert fonts and all("/FontFile2" in font for font in fonts)
        assert pdfx.transparent_pages(export.files[f"{ident}.pdf"]) == []
    first = render(export.files["fatigue.pdf"], 0)
    assert first.getpixel((0, 0)) != WHITE and first.getpixel((first.width - 1, first.height - 1)) != WHITE


def test_the_dtc_product_is_the_one_the_decks_match():
    assert shops.match(shops.DTC, (63.5, 88.9)).file_pt == pytest.approx((198, 270))
    assert shops.match(shops.DTC, (63, 88)).identity == "poker"    # within TOLERANCE_MM: centred, never scaled
    assert shops.match(shops.DTC, (62.4, 88.9)) is None            # 1.1 mm off
