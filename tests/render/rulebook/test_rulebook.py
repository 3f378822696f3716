"""The rulebook engine: a small Markdown + jinja2 rulebook written to A4 and Letter, read back with pdfplumber,
pikepdf and pypdfium2 (page numbers in the TOC against the pages the headings really are on, running headers,
table cells, figure sizes and clipping, fonts, determinism), and its problems located at file and line."""

from __future__ import annotations

import re
import textwrap
from io import BytesIO
from pathlib import Path

import pdfplumber
import pikepdf
import pypdfium2
import pytest

from pipeline.core.errors import PipelineError, Severity, SourceRef
from pipeline.core.printing import PrintOptions
from pipeline.core.units import MM
from pipeline.render.faces.renderer import FaceRenderer
from pipeline.render.fonts import default_fonts
from pipeline.render.rulebook.book import GUTTER, MARGIN_BOTTOM, MARGIN_SIDE, MARGIN_TOP, check_rulebook, write_rulebook
from pipeline.render.rulebook.flowables import FACE_MAX_HEIGHT, FIGURE_GAP

TOLERANCE = 0.1     # mm
RED = (0.8, 0.1, 0.1)       # a stub face's trim area
BLUE = (0.1, 0.1, 0.8)      # a stub face's bleed: must be clipped away
GREEN = (0, 0.667, 0.333)   # the YAML face's #00AA55
STD14 = {"Courier", "Helvetica", "Times", "Symbol", "ZapfDingbats"}

CONTEXT = {
    "players": {"min": 2, "max": 4},
    "cards": [{"name": "Tom & Jerry", "cost": 3, "effect": "Gagnez 2 <or>"},
              {"name": "Statue Citédor", "cost": 12,
               "effect": "Un effet assez long pour passer sur deux lignes dans sa cellule, ce qui montre que "
                         "les colonnes courtes gardent leur largeur naturelle."}],
}

CHAPTER_1 = """\
    # Aperçu

    Pour **{{ players.min }} à {{ players.max }}** joueurs, où la carte « {{ cards[0].name }} » vaut < 5.

    ## Matériel

    - {{ cards | length }} cartes
    - un plateau
      1. face A
      2. face B

    | Carte | Coût | Effet |
    |:--|--:|:--|
    {% for card in cards %}
    | {{ card.name }} | {{ card.cost }} | {{ card.effect }} |
    {% endfor %}

    > Rangez les cartes *après* la partie.

    ## Mise en place

    ![Une carte](figure:card)

    ---

    ![Le plateau](figure:wide)

    ### Détail

    Texte du détail.
    """

CHAPTER_2 = """\
    # Tour de jeu

    {% for i in range(30) %}
    ### Point {{ i }}

    Le point {{ i }} : {{ "du texte courant qui remplit la page " * (i % 6 * 3 + 1) }}

    {% endfor %}
    ## Actions

    1. Piocher
    2. Construire

    ![Trois faces](figure:card,yaml,card)

    ![Une tour](figure:tall)
    """

FACE_TEMPLATE = """\
    size: [63.5, 88.9]
    bleed: 3
    elements:
      - rect: {x: 0, y: 0, w: 63.5, h: 88.9, fill: "#00AA55"}
    """


class StubFace:
    """A face of known size: red over its trim, blue over its bleed (which the rulebook must clip away)."""

    legible = False                     # a card-like face: a gallery may reduce it

    def __init__(self, width_mm: float, height_mm: float):
        self.width, self.height, self.bleed = width_mm * MM, height_mm * MM, 3 * MM

    def draw(self, canvas) -> None:
        canvas.saveState()
        canvas.setFillColorRGB(*BLUE)
        canvas.rect(-self.bleed, -self.bleed, self.width + 2 * self.bleed, self.height + 2 * self.bleed,
                    stroke=0, fill=1)
        canvas.setFillColorRGB(*RED)
        canvas.rect(0, 0, self.width, self.height, stroke=0, fill=1)
        canvas.restoreState()


def write_book(root: Path, chapters: dict[str, str]) -> Path:
    folder = root / "templates" / "game" / "rules"
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in chapters.items():
        (folder / name).write_text(textwrap.dedent(text), encoding="utf-8")
    return folder


def yaml_face(root: Path):
    game = root / "templates" / "game"
    (game / "plain.yaml").write_text(textwrap.dedent(FACE_TEMPLATE), encoding="utf-8")
    face, problems = FaceRenderer(root, game, default_fonts()).layout("plain.yaml", {}, None, "plain")
    assert problems == []
    return face


@pytest.fixture(scope="module")
def book(tmp_path_factory) -> dict:
    root = tmp_path_factory.mktemp("proj")
    folder = write_book(root, {"01-apercu.md": CHAPTER_1, "02-tour.md": CHAPTER_2})
    figures = {"card": StubFace(60, 80), "wide": StubFace(200, 50), "tall": StubFace(50, 300),
               "yaml": yaml_face(root)}
    built = {"root": root, "folder": folder, "figures": figures}
    for paper in ("a4", "letter"):
        buffer = BytesIO()
        built[paper + "-result"] = write_rulebook(buffer, folder, CONTEXT, figures, options(paper), root)
        built[paper] = buffer.getvalue()
    return built


def options(paper: str) -> PrintOptions:
    return PrintOptions(paper=paper, game_title="Banc d'essai", fonts=default_fonts())


def pages_text(pdf: bytes) -> list[str]:
    """Per page: the running header, the left column, the right column and the footer, one after the other."""
    with pdfplumber.open(BytesIO(pdf)) as document:
        return [(page.extract_text() or "") if index == 0 else reading_text(page)
                for index, page in enumerate(document.pages)]


def _parts(page) -> list:
    """Header, left column, right column, footer of a page after the cover; a block floated across both
    columns at the top of the page (anything drawn over the gutter) comes first, whole."""
    top, bottom, middle = MARGIN_TOP - 1, page.height - MARGIN_BOTTOM + 1, page.width / 2
    across = [o["bottom"] for o in page.chars + page.rects + page.lines
              if o["x0"] < middle - 1 and o["x1"] > middle + 1 and top < o["top"] and o["bottom"] < bottom]
    wide = max(across, default=top)
    parts = [page.crop((0, 0, page.width, top))]
    if wide > top:
        parts.append(page.crop((0, top, page.width, wide + 0.5)))
    return parts + [page.crop((0, wide + 0.5, middle, bottom)), page.crop((middle, wide + 0.5, page.width, bottom)),
                    page.crop((0, bottom, page.width, page.height))]


def reading_text(page) -> str:
    """A page's text in reading order: header, floated block, left column, right column, footer."""
    return "\n".join(filter(None, (part.extract_text() or "" for part in _parts(page))))


def column_width(page_width_mm: float) -> float:
    """mm"""
    return (page_width_mm - 2 * MARGIN_SIDE / MM - GUTTER / MM) / 2


def toc_entries(text: str) -> dict[str, int]:
    """'1.2 Mise en place . . . . 3' -> {'1.2 Mise en place': 3}"""
    entries = {}
    for line in text.splitlines():
        found = re.match(r"^(\d+\.\d*\s.*?)[\s.]*?(\d+)$", line.strip())
        if found:
            entries[found.group(1).rstrip(" .")] = int(found.group(2))
    return entries


def red_rects(page) -> list[dict]:
    return [rect for rect in page.rects if rect.get("fill") and rect["non_stroking_color"] == pytest.approx(RED)]


def test_the_book_is_clean_and_reports_what_it_drew(book):
    assert check_rulebook(book["folder"], CONTEXT, book["figures"], book["root"]) == []
    result = book["a4-result"]
    assert result["chapters"] == ["Aperçu", "Tour de jeu"]
    assert result["figures"] == ["card", "wide", "yaml", "tall"]
    assert result["pages"] == len(pages_text(book["a4"])) >= 3       # two columns, chapters running on


def test_the_contents_give_the_page_each_heading_is_really_on(book):
    texts = pages_text(book["a4"])
    assert "Sommaire" in texts[1]
    entries = toc_entries(texts[1])
    expected = ["1. Aperçu", "1.1 Matériel", "1.2 Mise en place", "2. Tour de jeu", "2.1 Actions"]
    assert list(entries) == expected                      # subsections (###) are not in the contents
    for entry, page in entries.items():
        lines = [line.strip() for line in texts[page - 1].splitlines()]
        assert entry in lines, f"{entry!r} is not on page {page}"
        assert not any(entry in text.splitlines() for text in texts[:page - 1] + texts[page:])
    assert entries["1. Aperçu"] == 2                      # chapters run on: the first starts under the contents
    chapter_two = texts[entries["2. Tour de jeu"] - 1].splitlines()
    assert chapter_two.index("2. Tour de jeu") > 1        # not at the top of a page of its own


def test_every_page_after_the_cover_has_a_running_header_and_a_page_footer(book):
    texts = pages_text(book["a4"])
    total = len(texts)
    assert "page" not in texts[0] and "Banc d'essai" in texts[0] and "Règles du jeu" in texts[0]
    starts = toc_entries(texts[1])
    for number, text in enumerate(texts[1:], start=2):
        lines = text.splitlines()
        assert lines[-1] == f"page {number} / {total}"
        begun = [title for title in ("Aperçu", "Tour de jeu") if starts[f"{'12'[title != 'Aperçu']}. {title}"] <= number]
        chapter = begun[-1] if begun else "Sommaire"      # the last chapter begun on or before the page
        assert lines[0] == f"Banc d'essai · {chapter}"


def test_the_table_prints_the_context_rows_with_a_bold_header(book):
    with pdfplumber.open(BytesIO(book["a4"])) as document:
        page = next(p for p in document.pages if "Tom & Jerry 3 Gagnez 2 <or>" in (p.extract_text() or ""))
        lines = page.extract_text().splitlines()
        assert "Carte Coût Effet" in lines
        assert any(line.startswith("Statue Citédor 12 Un effet assez long") for line in lines)
        header = [c for c in page.chars if c["text"] in "Coût"
                  and any(w["text"] == "Coût" and abs(w["top"] - c["top"]) < 1 for w in page.extract_words())]
        assert header and all("Lato-Bold" in c["fontname"] for c in header)


def test_data_with_ampersands_and_angle_brackets_prints_literally(book):
    text = "\n".join(pages_text(book["a4"]))
    assert "la carte « Tom & Jerry » vaut < 5." in text
    assert "Gagnez 2 <or>" in text and "&amp;" not in text and "&lt;" not in text


def test_a_card_is_drawn_reduced_centred_in_its_column_and_clipped_to_its_trim(book):
    reduced = FACE_MAX_HEIGHT / MM / 80                   # a gallery never shows a card at full size
    with pdfplumber.open(BytesIO(book["a4"])) as document:
        index, page = next((i, p) for i, p in enumerate(document.pages) if "Une carte" in (p.extract_text() or ""))
        [card] = [r for r in red_rects(page) if abs(r["width"] - 60 * reduced * MM) < 1]
        assert card["width"] / MM == pytest.approx(60 * reduced, abs=TOLERANCE)
        assert card["height"] / MM == pytest.approx(80 * reduced, abs=TOLERANCE)
        width = column_width(210) * MM
        centres = [MARGIN_SIDE + width / 2, MARGIN_SIDE + width + GUTTER + width / 2]
        assert min(abs((card["x0"] + card["x1"]) / 2 - c) for c in centres) < 0.5          # centred in a column
    scale = 2.0
    image = pypdfium2.PdfDocument(book["a4"])[index].render(scale=scale).to_pil().convert("RGB")
    inside = image.getpixel((int((card["x0"] + 5) * scale), int((card["top"] + 5) * scale)))
    outside = image.getpixel((int((card["x0"] - 1.5 * MM) * scale), int((card["top"] + 20) * scale)))
    assert inside[0] > 150 and inside[2] < 80          # red trim
    assert min(outside) > 240                          # the blue bleed was clipped: white paper


def test_figures_scale_down_to_the_column_width_and_45_percent_of_the_frame(book):
    with pdfplumber.open(BytesIO(book["a4"])) as document:
        rects = [r for page in document.pages for r in red_rects(page)]
        frame_width, frame_height = column_width(210), 297 - (MARGIN_TOP + MARGIN_BOTTOM) / MM
        wide = next(r for r in rects if r["width"] > r["height"] * 3)
        assert wide["width"] / MM == pytest.approx(frame_width, abs=TOLERANCE)
        assert wide["height"] / MM == pytest.approx(50 * frame_width / 200, abs=TOLERANCE)
        tall = next(r for r in rects if r["height"] > r["width"] * 4)
        assert tall["height"] / MM == pytest.approx(0.45 * frame_height, abs=TOLERANCE)


def test_a_figure_row_scales_every_face_by_one_factor_to_fit_the_width(book):
    width, gap = column_width(210), FIGURE_GAP / MM
    scale = (width - 2 * gap) / (60 + 63.5 + 60)      # column width less two gaps, over the faces
    with pdfplumber.open(BytesIO(book["a4"])) as document:
        page = next(p for p in document.pages if "Trois faces" in (p.extract_text() or ""))
        green = [r for r in page.rects
                 if r.get("fill") and r["non_stroking_color"] == pytest.approx(GREEN, abs=0.01)]
        cards = sorted((r for r in red_rects(page) if green and abs(r["bottom"] - green[0]["bottom"]) < 30),
                       key=lambda r: r["x0"])
    assert len(cards) == 2 and len(green) == 1
    for rect in cards:
        assert rect["width"] / MM == pytest.approx(60 * scale, abs=TOLERANCE)
        assert rect["height"] / MM == pytest.approx(80 * scale, abs=TOLERANCE)
    assert green[0]["width"] / MM == pytest.approx(63.5 * scale, abs=TOLERANCE)
    assert cards[0]["x1"] < green[0]["x0"] < green[0]["x1"] < cards[1]["x0"]
    assert (cards[1]["x1"] - cards[0]["x0"]) / MM == pytest.approx(width, abs=TOLERANCE)


def test_no_heading_is_left_alone_at_the_bottom_of_a_column(book):
    with pdfplumber.open(BytesIO(book["a4"])) as document:
        for page in document.pages[1:]:
            for column in _parts(page)[-3:-1]:
                body = [c for c in column.chars if c["text"].strip()]
                if not body:
                    continue
                lowest = max(c["top"] for c in body)
                assert not any("FjallaOne" in c["fontname"] for c in body if abs(c["top"] - lowest) < 2), \
                    f"a heading ends a column of page {page.page_number}"


def test_every_font_is_embedded_and_subset_and_none_is_base14(book):
    for paper in ("a4", "letter"):
        with pikepdf.open(BytesIO(book[paper])) as document:
            fonts = [obj for obj in document.objects
                     if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/Font"]
            assert fonts
            for font in fonts:
                name = str(font.BaseFont).lstrip("/")
                assert re.match(r"^[A-Z]{6}\+", name), name
                assert not any(name[7:].startswith(base) for base in STD14), name
                assert "/FontFile2" in font.FontDescriptor


def test_a4_and_letter_page_sizes(book):
    for paper, size in (("a4", (595.28, 841.89)), ("letter", (612.0, 792.0))):
        with pikepdf.open(BytesIO(book[paper])) as document:
            for page in document.pages:
                box = [float(v) for v in page.MediaBox]
                assert (box[2] - box[0], box[3] - box[1]) == pytest.approx(size, abs=0.01)
    assert book["letter-result"]["chapters"] == book["a4-result"]["chapters"]


def test_the_same_inputs_give_byte_identical_files(book, tmp_path):
    target = tmp_path / "rulebook.pdf"
    write_rulebook(target, book["folder"], CONTEXT, book["figures"], options("a4"), book["root"])
    assert target.read_bytes() == book["a4"]


def test_the_contents_are_seeded_so_two_passes_settle_the_book(book, tmp_path, monkeypatch):
    """The first pass lays the contents out at their real height (book.py _seed_contents): the second pass,
    with the real page numbers, is the last; without the seed reportlab's one-line placeholder takes a third.
    The same bytes either way."""
    from reportlab.platypus.doctemplate import BaseDocTemplate

    from pipeline.render.rulebook import book as book_module

    passes, original = [], BaseDocTemplate.multiBuild

    def counted(self, story, maxPasses=10, **kwargs):
        passes.append(original(self, story, maxPasses, **kwargs))
        return passes[-1]
    monkeypatch.setattr(BaseDocTemplate, "multiBuild", counted)
    chapters = {f"{n:02d}-partie.md": f"# Partie {n}\n\n## Mise en place {n}\n\nTexte.\n\n## Tour {n}\n\nTexte.\n"
                for n in range(1, 13)}                        # 36 lines of contents: far from one
    folder = write_book(tmp_path, chapters)
    seeded, plain = tmp_path / "seeded.pdf", tmp_path / "plain.pdf"
    write_rulebook(seeded, folder, CONTEXT, book["figures"], options("a4"), tmp_path)
    assert passes and set(passes) == {2}, passes
    monkeypatch.setattr(book_module, "_seed_contents", lambda story: None)
    passes.clear()
    write_rulebook(plain, folder, CONTEXT, book["figures"], options("a4"), tmp_path)
    assert set(passes) == {3}, passes
    assert seeded.read_bytes() == plain.read_bytes()


BROKEN = {
    "01-undefined.md": "# Un\n\nTexte.\nIl y a {{ joueurs }} joueurs.\n",
    "02-syntax.md": "# Deux\n\n{% for card in cards %}\n{% for x in %}\n{% endfor %}\n",
    "03-figure.md": ("# Trois\n{% for card in cards %}\n- {{ card.name }}\n{% endfor %}\n\n"
                     "![Plan](figure:card,plann)\n"),
    "04-encoding.md": b"# Quatre\n\nCaf\xe9\n",
    "notes.md": "ignored",
}


def test_problems_are_located_at_the_chapter_file_and_line(tmp_path):
    folder = tmp_path / "templates" / "game" / "rules"
    folder.mkdir(parents=True)
    for name, text in BROKEN.items():
        path = folder / name
        path.write_bytes(text) if isinstance(text, bytes) else path.write_text(text, encoding="utf-8")
    figures = {"card": StubFace(60, 80), "plan": StubFace(40, 40)}
    problems = check_rulebook(folder, CONTEXT, figures, tmp_path)
    rel = "templates/game/rules/"
    found = {(p.where, p.severity): p.message for p in problems}
    assert list(found) == [
        (rel + "notes.md", Severity.WARNING),
        (SourceRef(rel + "01-undefined.md", None, 4), Severity.ERROR),
        (SourceRef(rel + "02-syntax.md", None, 4), Severity.ERROR),
        (SourceRef(rel + "04-encoding.md", None, 3), Severity.ERROR),
        (SourceRef(rel + "03-figure.md", None, 6), Severity.ERROR),
    ]
    messages = list(found.values())
    assert "'joueurs' is undefined" in messages[1] and "syntax" in messages[2]
    assert "not UTF-8" in messages[3] and messages[4] == "unknown figure 'plann' (did you mean 'plan'?)"
    assert str(problems[1]) == f"{rel}01-undefined.md › row 4: jinja2: 'joueurs' is undefined [rulebook]"
    with pytest.raises(PipelineError) as raised:
        write_rulebook(BytesIO(), folder, CONTEXT, figures, options("a4"), tmp_path)
    assert [p.where for p in raised.value.problems] == [where for where, severity in found
                                                          if severity is Severity.ERROR]


def test_images_that_are_not_figures_are_problems(tmp_path):
    folder = write_book(tmp_path, {"01-a.md": "# A\n\n![x](photo.png)\n\nTexte ![Plan](figure:card) ici.\n"})
    problems = check_rulebook(folder, {}, {"card": StubFace(10, 10)}, tmp_path)
    assert [(p.where.row, p.severity) for p in problems] == [(3, Severity.ERROR), (5, Severity.ERROR)]
    assert "only figures" in problems[0].message and "alone in its paragraph" in problems[1].message


def test_markdown_runs_keep_styles_and_french_spacing():
    from pipeline.render.rulebook.markdown import Heading, ListBlock, Paragraph, parse_rulebook
    from pipeline.render.rulebook.source import ChapterText

    text = "# Un\n\n**Conseil :** lisez « `la pioche` » !\n\n## Deux\n\n1. a\n   - b\n"
    blocks, problems = parse_rulebook([ChapterText("x.md", text, tuple(range(1, 10)))], {})
    assert problems == []
    assert [type(b) for b in blocks] == [Heading, Paragraph, Heading, ListBlock]
    assert blocks[1].runs == (("Conseil\xa0:", "b"), (" lisez «\xa0", ""), ("la pioche", "code"),
                              ("\xa0»\xa0!", ""))
    assert (blocks[0].number, blocks[2].number) == ("1", "1.1")
    assert blocks[3].ordered and isinstance(blocks[3].items[0][1], ListBlock)


def test_the_cover_reads_its_facts_and_faces_and_locates_its_problems(tmp_path):
    from pipeline.render.rulebook.cover import read_cover

    folder = write_book(tmp_path, {"01-a.md": "# A\n\nTexte.\n"})
    figures = {"card": StubFace(60, 80), "yaml": StubFace(63.5, 88.9)}
    (folder / "cover.yaml").write_text(
        'art: [card, "{{ \'ya\' ~ \'ml\' }}", missing]\nplayers: "{{ players.min }} à {{ players.max }} joueurs"\n'
        'duration: 30 min\nage: dès 8 ans\ncolour: red\n', encoding="utf-8")
    cover, problems = read_cover(folder, CONTEXT, figures, tmp_path)
    assert cover.art == ("card", "yaml")                  # a face this build lacks is left out, as chapters do
    assert cover.facts == ("2 à 4 joueurs", "30 min", "dès 8 ans")
    assert [(p.severity, "colour" in p.message) for p in problems] == [(Severity.WARNING, True)]
    buffer = BytesIO()
    write_rulebook(buffer, folder, CONTEXT, figures, options("a4"), tmp_path)
    cover_text = pages_text(buffer.getvalue())[0]
    assert all(fact in cover_text for fact in cover.facts)
    (folder / "cover.yaml").write_text("art: [card\nplayers: 2\n", encoding="utf-8")
    _, problems = read_cover(folder, CONTEXT, figures, tmp_path)
    assert len(problems) == 1 and problems[0].where.file.endswith("rules/cover.yaml") and problems[0].where.row
    assert check_rulebook(folder, CONTEXT, figures, tmp_path) == problems


def test_a_diagram_is_never_reduced_below_6_pt_words_while_a_card_gallery_is():
    """FaceSpec.legible (a rulebook diagram): the gallery's 46 mm cap and the end-of-column shrink stop where
    its smallest words would print under 6 pt; a card's face is reduced as a gallery wants."""
    from types import SimpleNamespace

    from pipeline.render.faces.primitives import Text
    from pipeline.render.faces.text import Run
    from pipeline.render.rulebook.flowables import FaceRow

    words = (Text(None, (Run("Lato", 8.0, 0, 0, "c3"),), (), 10.0),)
    diagram = SimpleNamespace(width=80 * MM, height=80 * MM, primitives=words, legible=True)
    card = SimpleNamespace(width=63.5 * MM, height=88.9 * MM, primitives=words, legible=False)
    row = FaceRow([diagram], 500 * MM)
    row.wrap(170 * MM, 500 * MM)
    assert row.scale == pytest.approx(6 / 8)                       # 46 mm would be 0.575: 4.6 pt words
    assert row.split(170 * MM, 50 * MM) == []                      # moves on rather than shrink to 50 mm
    gallery = FaceRow([card], 500 * MM)
    gallery.wrap(170 * MM, 500 * MM)
    assert gallery.scale == pytest.approx(46 / 88.9)
