"""A value from data prints the characters it was typed with, whatever markup it enters (issue 19): each door
gets a property test over arbitrary text (hypothesis).

- a rulebook chapter (Markdown through jinja): in a table cell, in running text and in a heading; the cell's
  own card dialect (`**` bold, `\\n` line break) reads as it does on the card;
- reportlab paragraph markup (the rulebook's runs): `&`, `<`, entities print as typed;
- a card face (the card text dialect): every word prints;
- the build report (a Markdown file): one table cell, the same text.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from reportlab.platypus import Paragraph

from pipeline.render.faces.text import tokenize
from pipeline.render.fonts import default_fonts
from pipeline.render.markup import md_escape, shield
from pipeline.render.rulebook import markdown as md
from pipeline.render.rulebook.source import render_chapters
from pipeline.render.rulebook.style import Styles, markup

# printable text of any script, punctuation and symbols: what a cell holds (control characters aside)
TEXT = st.text(st.characters(categories=("L", "N", "P", "S", "Zs"), exclude_characters="\xa0\u202f"),
               min_size=1, max_size=40).filter(lambda t: t.strip())
TRICKY = ["A | B", "&amp; &nbsp; &#42;", "**gras** puis *x*", "# 3", "1. premier", "- tiret", "[lien](x)",
          "<b>x</b>", "`code`", "a\\|b", "_souligné_", "===", "> citation", "~~barré~~", "ligne\\nsuivante"]
CHAPTER = """# {{ v }}

| Carte | Effet |
|---|---|
| {{ v }} | fin |

Avant {{ v }} après.
"""


def examples(*values):
    """Several hypothesis @example cases at once: the texts that broke markup before issue 19."""
    def wrap(test):
        for value in values:
            test = example(value)(test)
        return test
    return wrap


def _card_characters(text: str) -> str:
    """What a card prints of this text, as words (the card dialect read: `**` and `\\n` are no characters)."""
    return " ".join(word if isinstance(word, str) else "".join(piece[0] if not piece[1] else f":{piece[0]}:"
                                                              for piece in word)
                    for paragraph in tokenize(text) for word in paragraph)


def _words(text: str) -> str:
    return " ".join(text.replace("\xa0", " ").split())


@pytest.fixture(scope="module")
def chapter_folder():
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp) / "rules"
        folder.mkdir()
        (folder / "01-essai.md").write_text(CHAPTER, encoding="utf-8")
        yield folder


def _blocks(folder: Path, value: str):
    chapters, problems = render_chapters(folder, {"v": value}, folder.parent)
    blocks, found = md.parse_rulebook(chapters, ())
    assert problems + found == []
    return blocks


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(TEXT)
@examples("A | B", "&amp; x", "**gras** fin", "# 3", "1. un", "- deux")
@examples("ligne\\nsuivante", "[l](figure:x)", "<b>", "`c`", "a\\|b")
def test_a_rulebook_prints_a_value_as_the_card_does_in_a_table_a_sentence_and_a_heading(chapter_folder, value):
    heading, table, paragraph = _blocks(chapter_folder, value)
    expected = _words(_card_characters(value))
    assert isinstance(table, md.Table) and len(table.header) == 2
    assert len(table.rows) == 1 and len(table.rows[0]) == 2          # a `|` splits no row
    assert _words(md.plain(table.rows[0][0])) == expected and md.plain(table.rows[0][1]) == "fin"
    assert _words(md.plain(heading.runs)) == expected
    assert _words(md.plain(paragraph.runs)) == _words(f"Avant {_card_characters(value)} après.")


def test_the_card_dialect_reads_the_same_in_a_rulebook():
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp) / "rules"
        folder.mkdir()
        (folder / "01-essai.md").write_text(CHAPTER, encoding="utf-8")
        _, table, paragraph = _blocks(folder, "Prenez **2 PO**\\npuis défaussez")
    assert table.rows[0][0] == (("Prenez ", ""), ("2 PO", "b"), ("\n", "br"), ("puis défaussez", ""))
    assert ("2 PO", "b") in paragraph.runs


def test_shielding_twice_changes_nothing_so_a_macro_may_show_a_value():
    for text in TRICKY:
        assert shield(shield(text)) == shield(text)


@pytest.fixture(scope="module")
def styles():
    return Styles(default_fonts())


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(TEXT)
@examples("&amp; &lt; &nbsp; &#42;", "<b>x</b>", "a < b & c > d", "<br/>")
def test_reportlab_paragraph_markup_prints_the_runs_as_typed(styles, text):
    paragraph = Paragraph(markup(((text, ""), (text, "b")), styles), styles.body)
    printed = "".join(frag.text for frag in paragraph.frags if hasattr(frag, "text"))
    assert _words(printed) == _words(text + text)


@settings(max_examples=300, deadline=None)
@given(TEXT)
def test_a_card_prints_every_word_of_a_value_without_dialect(text):
    if re.search(r"\*\*|\\n|:[A-Za-z][A-Za-z0-9_-]*:", text):
        return                                  # the dialect itself: tested above and in test_render_faces
    assert _card_characters(text) == " ".join(text.split())


_MARKDOWN = MarkdownIt("commonmark").enable("table")


@settings(max_examples=300, deadline=None)
@given(TEXT)
@examples("A | B", "&amp;", "**x**", "_x_", "__0__", "a__b_", "\\", "`")
def test_the_build_report_prints_a_value_in_one_table_cell(text):
    html = _MARKDOWN.render(f"| a | b |\n|---|---|\n| {md_escape(text)} | fin |\n")
    cells = re.findall(r"<td>(.*?)</td>", html, re.S)
    assert len(cells) == 2 and cells[1] == "fin"
    from html import unescape
    assert _words(unescape(cells[0])) == _words(text) and "<em>" not in cells[0] and "<strong>" not in cells[0]


@pytest.mark.slow
def test_a_tactic_name_full_of_markup_prints_the_same_on_its_card_and_in_the_rulebook_index(tmp_path):
    """The user's view: one cell of sheets/nba.xlsx, the card sheet and the rulebook's tactic index."""
    import openpyxl
    import pypdfium2

    from tests.conftest import copy_project, run_cli

    root = copy_project(tmp_path / "project")
    book = root / "sheets" / "nba.xlsx"
    workbook = openpyxl.load_workbook(book)
    sheet = workbook["tactics"]
    row = next(r for r in range(2, sheet.max_row + 1) if sheet[f"A{r}"].value == "ucla_offense")
    sheet[f"B{row}"] = "UCLA | **Zone** &amp; Cie"
    workbook.save(book)
    result = run_cli("build", "nba", "--paper", "a4", "--format", "pnp", root=root)
    assert result.returncode == 0, result.stdout + result.stderr

    def lines(name: str) -> list[str]:
        document = pypdfium2.PdfDocument(root / "output" / "nba" / "pnp-a4" / name)
        return [line for page in document for line in page.get_textpage().get_text_range().splitlines()]

    printed = "UCLA | Zone &amp; Cie"
    assert any(printed in line for line in lines("tactics.pdf"))
    index = [line for line in lines("rulebook.pdf") if printed in line]
    assert index and all("**" not in line for line in index)
    assert any(re.search(re.escape(printed) + r" (offensive|défensive) \d", line) for line in index)   # columns kept
