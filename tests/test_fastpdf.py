"""tests/fastpdf.py reads what pdfminer reads: qpdf's tokens are pdfminer's own, a stream the two could read
otherwise is left to pdfminer, and pdfplumber gives the same objects, words and text with it as without it,
on faces and pages the pipeline draws and on a built game's card sheets."""

from __future__ import annotations

import json
from contextlib import contextmanager
from io import BytesIO

import pdfplumber
import pytest
from pdfminer.pdfinterp import PDFContentParser
from pdfminer.pdftypes import PDFStream
from pdfminer.psparser import PSEOF

from pipeline.core.printing import PrintOptions
from pipeline.render.sheets.pages import write_pages
from tests import fastpdf
from tests.conftest import built_game
from tests.render.test_safe_zone import laid_out_faces, measured_pages


def pdfminers_tokens(data: bytes) -> list:
    parser = PDFContentParser([PDFStream({}, data)])
    found = []
    while True:
        try:
            found.append(parser.nextobject()[1])
        except PSEOF:
            return found


@contextmanager
def reading(fast: bool):
    """pdfplumber with fastpdf (whatever the installed versions) or without it; as it was afterwards."""
    import pdfminer.pdfinterp

    before = pdfminer.pdfinterp.PDFPageInterpreter.execute
    fastpdf.install() if fast else fastpdf.uninstall()
    try:
        yield
    finally:
        fastpdf.uninstall()
        if before is fastpdf.execute:
            fastpdf.install()


def _plain(value):
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value).__name__, [_plain(item) for item in value]
    return value if isinstance(value, (int, float, str, bytes, bool, type(None))) else repr(value)


def read(pdf: bytes, fast: bool) -> list:
    """Every object of every page (every key pdfplumber gives), its words and its text."""
    with reading(fast), pdfplumber.open(BytesIO(pdf)) as opened:
        return [(_plain(page.objects), page.extract_words(), page.extract_text()) for page in opened.pages]


def test_qpdf_gives_pdfminers_tokens():
    data = (b"q 1 0 0 1 28.34646 -.5 cm 0.2 0.4 0.6 rg 0 0 10 10 re f BT /F1+x 12 Tf 3. -4 Td "
            b"[(a\\(b\\)c\\\\) -120 <41 42 43> (\\101\\n)] TJ (x) Tj 2 Tz ET /Fm1 Do [3 1] 0 d true false Q")
    assert fastpdf.tokens(data) == pdfminers_tokens(data)
    assert len(pdfminers_tokens(data)) == 40


@pytest.mark.parametrize("data", (b"1e5 Tj", b"/Span <</MCID 0>> BDC EMC", b"null Tj", b"/A#20B Do",
                                  b"BI /W 1 /H 1 /BPC 8 /CS /G ID \x00 EI Q", b"1 2 xyz"))
def test_a_stream_pdfminer_could_read_otherwise_is_left_to_pdfminer(data):
    with pytest.raises(fastpdf.Unsupported):
        fastpdf.tokens(data)


def test_every_face_and_page_of_a_game_reads_the_same():
    """Build It's faces (with the edition mark) and its write-on pages, as the safe-zone tests draw them."""
    faces = list(laid_out_faces("buildit", False, marked=True))
    with measured_pages(faces) as opened:
        assert len(opened.pages) == len(faces) > 10
        opened.stream.seek(0)
        drawn = opened.stream.read()
    pages = [face for _, face in laid_out_faces("buildit", False, pages=True, marked=True)]
    buffer = BytesIO()
    write_pages(buffer, pages, PrintOptions(paper="a4", game_title="buildit"))
    for pdf in (drawn, buffer.getvalue()):
        slow = read(pdf, fast=False)
        assert sum(len(objects["char"][1]) for objects, _, _ in slow if "char" in objects) > 100
        assert read(pdf, fast=True) == slow


def test_a_built_games_card_sheets_read_the_same(tmp_path_factory):
    """Build It's pooled home sheet: every card face a Form XObject, the backs drawn again and again."""
    output = built_game(tmp_path_factory, "buildit")
    entries = json.loads((output / "report.json").read_text())["outputs"]
    pooled = next(e for e in entries if e.get("pooled") and e["paper"] == "a4" and not e.get("ink_saver"))
    pdf = (output.parent.parent / pooled["path"]).read_bytes()
    slow = read(pdf, fast=False)
    assert len(slow) == pooled["pages"] and read(pdf, fast=True) == slow


def test_the_test_run_reads_with_fastpdf_when_its_versions_are_the_checked_ones():
    import pdfminer.pdfinterp

    installed = pdfminer.pdfinterp.PDFPageInterpreter.execute is fastpdf.execute
    assert installed == fastpdf.verified()
