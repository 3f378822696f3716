"""What keeps PDFs small and builds fast must not change what is printed.

- fonts embed only the glyphs a document draws (UsedGlyphsTTFont), with reportlab's own encoding;
- the fast path of splitString gives exactly reportlab's codes;
- pages compressed as they end (StreamingCanvas) give the same bytes as reportlab's save();
- a template without expressions is laid out once per deck, and needs no jinja2 at all.
"""

from __future__ import annotations

import random
import struct
import subprocess
import sys
import textwrap
from io import BytesIO
from pathlib import Path

import pikepdf
import pdfplumber
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from pipeline import PROJECT_ROOT
from pipeline.render.faces.renderer import FaceRenderer
from pipeline.render.fonts import default_fonts
from pipeline.render.pdf import StreamingCanvas, new_canvas


def _glyphs_with_outlines(font_file: bytes) -> int:
    """Glyphs whose outline is not empty, read from the TrueType loca table."""
    count = struct.unpack(">H", font_file[4:6])[0]
    tables = {}
    for i in range(count):
        tag, _, offset, length = struct.unpack(">4sIII", font_file[12 + 16 * i:28 + 16 * i])
        tables[tag] = font_file[offset:offset + length]
    long_offsets = struct.unpack(">h", tables[b"head"][50:52])[0] == 1
    loca = tables[b"loca"]
    if long_offsets:
        offsets = struct.unpack(f">{len(loca) // 4}I", loca)
    else:
        offsets = [2 * v for v in struct.unpack(f">{len(loca) // 2}H", loca)]
    return sum(1 for a, b in zip(offsets, offsets[1:]) if b > a)


def _pdf_with(text: str) -> bytes:
    fonts = default_fonts()
    buffer = BytesIO()
    canvas = new_canvas(buffer, (300, 200), fonts)
    canvas.setFont(fonts.name("body"), 12)
    canvas.drawString(20, 100, text)
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def test_an_embedded_font_holds_only_the_glyphs_drawn():
    text = "Batir 42"     # no accents: an accented letter is a composite that brings its parts along
    pdf = _pdf_with(text)
    with pikepdf.open(BytesIO(pdf)) as document:
        files = [obj.FontFile2.read_bytes() for obj in document.objects
                 if isinstance(obj, pikepdf.Dictionary) and "/FontFile2" in obj]
    assert len(files) == 1
    # B a t i r 4 2 and .notdef; the space has no outline. reportlab's default embeds all 95 ASCII glyphs.
    assert _glyphs_with_outlines(files[0]) == len(set(text.replace(" ", ""))) + 1
    # and the text still reads back as written
    assert pdfplumber.open(BytesIO(pdf)).pages[0].extract_text() == text


def test_fast_split_string_gives_reportlabs_own_codes():
    fonts = default_fonts()
    ours = pdfmetrics.getFont(fonts.name("body"))
    reference = TTFont("ReferenceLatoForSplit", str(fonts.files[fonts.name("body")]))
    alphabet = [chr(c) for c in sorted(reference.face.charToGlyph) if c > 32][:600] + [" ", "\xa0"]
    rng = random.Random(7)

    class Document:  # splitString keys its encoding state by document
        pass

    mine, theirs = Document(), Document()
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        assert ours.splitString(text, mine) == reference.splitString(text, theirs)
    assert len(ours.state[mine].subsets) >= 2       # more than 256 characters: several subsets


def _draw_pages(canvas) -> bytes:
    for page in range(3):
        canvas.setFont(default_fonts().name("body"), 10)
        canvas.drawString(30, 30, f"page {page} — été")
        canvas.rect(10, 10, 50 + page, 20, fill=1)
        canvas.showPage()
    canvas.save()


def test_pages_compressed_as_they_end_give_the_same_bytes():
    default_fonts().name("body")
    streamed, plain = BytesIO(), BytesIO()
    for buffer, cls in ((streamed, StreamingCanvas), (plain, Canvas)):
        canvas = cls(buffer, pagesize=(200, 100), invariant=1, pageCompression=1,
                     initialFontName=default_fonts().name("body"))
        _draw_pages(canvas)
    assert streamed.getvalue() == plain.getvalue()
    assert len(pdfplumber.open(streamed).pages) == 3


STATIC_BACK = """\
    size: [63.5, 88.9]
    bleed: 3
    elements:
      - rect: {x: -3, y: -3, w: 69.5, h: 94.9, fill: "#1F2A44"}
      - text: {x: 0, y: 40, w: 63.5, h: 10, text: "DOS", align: center, color: white}
    """

NUMBERED_BACK = """\
    size: [63.5, 88.9]
    elements:
      - text: {x: 0, y: 40, w: 63.5, h: 10, text: "{{ card.index }}", align: center}
    """


def _renderer(tmp_path: Path) -> FaceRenderer:
    game = tmp_path / "templates" / "game"
    game.mkdir(parents=True)
    (game / "static.yaml").write_text(textwrap.dedent(STATIC_BACK), encoding="utf-8")
    (game / "numbered.yaml").write_text(textwrap.dedent(NUMBERED_BACK), encoding="utf-8")
    return FaceRenderer(tmp_path, game, default_fonts())


def test_a_template_without_expressions_is_laid_out_once(tmp_path):
    render = _renderer(tmp_path)
    first, problems = render.layout("static.yaml", {"card": {"index": 1}}, None, "a")
    again, more = render.layout("static.yaml", {"card": {"index": 2}}, None, "b")
    assert problems == [] and more == []
    assert again is first
    one, _ = render.layout("numbered.yaml", {"card": {"index": 1}}, None, "a")
    two, _ = render.layout("numbered.yaml", {"card": {"index": 2}}, None, "b")
    assert one is not two and one.key != two.key


def test_templates_that_only_name_columns_never_import_jinja(tmp_path):
    _renderer(tmp_path)   # writes the templates
    script = textwrap.dedent(f"""
        import sys
        from pathlib import Path
        from pipeline.render.faces.renderer import FaceRenderer
        from pipeline.render.fonts import default_fonts
        root = Path({str(tmp_path)!r})
        render = FaceRenderer(root, root / "templates" / "game", default_fonts())
        for name in ("static.yaml", "numbered.yaml"):
            face, problems = render.layout(name, {{"card": {{"index": 1}}}}, None, "a")
            assert not problems, problems
        print("jinja2" in sys.modules)
        """)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=PROJECT_ROOT,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    # `{{ card.index }}` is an attribute lookup: jinja2 is needed there, and only there
    assert result.stdout.strip() == "True"
    script = script.replace('("static.yaml", "numbered.yaml")', '("static.yaml",)')
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=PROJECT_ROOT,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"
