"""pipeline/diff/summary.py: `pnp diff --summary`'s Markdown, read back with markdown-it (GitHub-flavoured
tables): the counts, one table row per card with its cells, the rules as a list, workbook text kept as text."""

from __future__ import annotations

from markdown_it import MarkdownIt

from pipeline.diff.changes import ADDED, CHANGED, CardChange, Changes, DATA_ONLY, FieldChange, REMOVED
from pipeline.diff.summary import append, escape, failure, section


def _changes() -> Changes:
    changes = Changes("origin/main", rules_pages=[5, 10], rulebook_pages=[4, 5, 10])
    changes.cards = [
        CardChange(CHANGED, ("players", "olajuwon"), "Hakeem *The Dream* | Olajuwon", "players › row 52",
                   [FieldChange("players › H52 (cost)", 8, 9), FieldChange("players › C52 (name)", "Hakeem", "<b>")]),
        CardChange(ADDED, ("players", "rookie"), "Rookie", "players › row 60"),
        CardChange(REMOVED, ("tactics", "zone"), "Zone", "tactics › row 3"),
        CardChange(DATA_ONLY, ("players", "duncan"), "Tim Duncan", "players › row 7",
                   [FieldChange("players › M7 (notes)", "", "relu")]),
    ]
    changes.rules = [FieldChange("rules › B7 (cost_window_max)", 5, 6)]
    return changes


def _html(text: str) -> str:
    return MarkdownIt("commonmark").enable("table").render(text)


def _cells(text: str) -> list[list[str]]:
    """The table's body rows, each cell's text as a reader sees it."""
    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    rows, row, inside = [], None, False
    for token in tokens:
        if token.type == "tbody_open":
            inside = True
        elif inside and token.type == "tr_open":
            row = []
        elif inside and token.type == "inline":
            row.append("".join(child.content for child in token.children))
        elif inside and token.type == "tr_close":
            rows.append(row)
    return rows


def test_a_section_lists_counts_cards_rules_and_files():
    text = section("nba", _changes(), ["output/nba/diff/changes.pdf", "output/nba/diff/reprint-a4.pdf"])
    assert text.startswith("### nba: changes since origin/main\n\n"
                           "Cards: 1 changed, 1 added, 1 removed, 1 changed in data only; 2 to reprint. "
                           "Rules: 1 changed.\n\n| change | card | cells |\n")
    rows = _cells(text)
    assert [row[:2] for row in rows] == [
        ["changed", "players › Hakeem *The Dream* | Olajuwon (players › row 52)"],   # escaped: text, one cell
        ["added", "players › Rookie (players › row 60)"],
        ["removed", "tactics › Zone (tactics › row 3)"],
        ["data only", "players › Tim Duncan (players › row 7)"],
    ]
    assert "players › H52 (cost): 8 → 9<br>players › C52 (name): Hakeem → &lt;b&gt;" in _html(text)
    assert "- rules:\n  - rules › B7 (cost_window_max): 5 → 6\n  - rulebook pages they change (A4): 5, 10\n" \
           "- rulebook pages the cards' changes make (A4): 4\n" in text
    assert text.endswith("\nFiles: output/nba/diff/changes.pdf, output/nba/diff/reprint-a4.pdf\n\n")


def test_no_change_and_failure():
    assert section("buildit", Changes("HEAD~2"), []) == "**buildit**: no change since HEAD\\~2.\n\n"
    assert failure("buildit", "origin/main", ["sheets/buildit.xlsx › contracts › C4 (plots): 'deux' is not a "
                                              "whole number [type]"]) == \
        "### buildit: changes since origin/main\n\nThe diff failed:\n\n" \
        "- sheets/buildit.xlsx › contracts › C4 (plots): 'deux' is not a whole number \\[type\\]\n\n"


def test_escape_keeps_text_as_text_on_one_line():
    text = "a|b *c* _d_ snake_case [e](f) <g> & `h` ~i~ \\k\nnext"
    assert escape(text) == "a\\|b \\*c\\* \\_d\\_ snake_case \\[e\\](f) \\<g\\> \\& \\`h\\` \\~i\\~ \\\\k next"
    assert _html(escape(text)) == "<p>a|b *c* _d_ snake_case [e](f) &lt;g&gt; &amp; `h` ~i~ \\k next</p>\n"


def test_sections_are_appended(tmp_path):
    target = tmp_path / "summary.md"
    append(target, section("a", Changes("v1"), []))
    append(target, section("b", Changes("v1"), []))
    assert target.read_text(encoding="utf-8").count("no change since v1.") == 2
