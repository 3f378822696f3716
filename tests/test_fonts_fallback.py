"""Text in the designer's language: a data-only game whose cards are written in Polish, Czech, Turkish,
Vietnamese, Greek, Russian and Ukrainian prints every character, each drawn with an embedded font (the
fallback chain behind Lato); what no font can print right is a located warning, an error with --strict."""

from __future__ import annotations

import csv
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pytest

from tests.conftest import copy_project, run_cli

TEXTS = [
    ("pl", "Zażółć gęślą jaźń", "Pchnąć w tę łódź jeża lub ośm skrzyń fig."),
    ("cs", "Příliš žluťoučký kůň", "úpěl ďábelské ódy"),
    ("tr", "Işık ğüşçö İstanbul", "Pijamalı hasta yağız şoföre çabucak güvendi."),
    ("vi", "Tiếng Việt có dấu", "Tôi có thể ăn thủy tinh mà không hại gì."),
    ("el", "Γαζέες καὶ μυρτιὲς", "Ξεσκεπάζω την ψυχοφθόρα βδελυγμία."),
    ("ru", "Съешь же ещё", "этих мягких французских булок, да выпей чаю."),
    ("uk", "Ґанок їжака є", "Чуєш їх, доцю, га? Кумедна ж ти, прощайся."),
    ("sr", "Nikola Jokić", "Luka Dončić, Bogdan Bogdanović"),
]
GAME = """id: polyglot
title: "Полиглот — Πολύγλωσσο"
data: [{file: cards.csv, sheet: cards}]
sheets:
  cards:
    id: id
    quantity: copies
    columns:
      id: {type: str}
      name: {type: str}
      effect: {type: str}
      copies: {type: int, min: 1, max: 9}
manifest: [{component: cards, count: %d, sheet: cards, measure: copies}]
components:
  - {id: cards, title: "Карты", sheet: cards, size: [63.5, 88.9], front: front.yaml, back: back.yaml}
"""
FRONT = """size: [63.5, 88.9]
bleed: 3
safe: 3
elements:
  - rect: {x: -3, y: -3, w: 69.5, h: 94.9, fill: "#F4F1EA"}
  - text: {x: 4, y: 4, w: 55.5, h: 14, text: "{{ name }}", font: title, size: 14, align: center, valign: middle}
  - text: {x: 4, y: 24, w: 55.5, h: 40, text: "**{{ id }}**\\\\n{{ effect }}", font: body, size: 10}
"""
BACK = """size: [63.5, 88.9]
bleed: 3
elements:
  - rect: {x: -3, y: -3, w: 69.5, h: 94.9, fill: "#203050"}
"""


def _game(root: Path, rows: list[tuple[str, str, str]]) -> Path:
    folder = root / "templates" / "polyglot"
    folder.mkdir(parents=True)
    with (folder / "cards.csv").open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["id", "name", "effect", "copies"])
        writer.writerows([(i, name, effect, 1) for i, name, effect in rows])
    (folder / "game.yaml").write_text(GAME % len(rows), encoding="utf-8")
    (folder / "front.yaml").write_text(FRONT, encoding="utf-8")
    (folder / "back.yaml").write_text(BACK, encoding="utf-8")
    return folder


def _text(path: Path) -> str:
    pdf = pdfium.PdfDocument(path)
    try:
        return "\n".join(page.get_textpage().get_text_range() for page in pdf)
    finally:
        pdf.close()


def _fonts(path: Path) -> dict[str, bool]:
    """Every font of the file: its name -> whether its program is embedded."""
    found = {}
    with pikepdf.open(path) as pdf:
        for obj in pdf.objects:
            if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/Font" and "/BaseFont" in obj:
                font = obj["/DescendantFonts"][0] if "/DescendantFonts" in obj else obj
                descriptor = font.get("/FontDescriptor")
                found[str(obj["/BaseFont"])] = descriptor is not None and any(
                    key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3"))
    return found


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    root = copy_project(tmp_path_factory.mktemp("polyglot"))
    _game(root, TEXTS)
    result = run_cli("build", "polyglot", "--paper", "a4", "--format", "pnp", "--strict", root=root)
    assert result.returncode == 0, result.stdout + result.stderr
    return root / "output" / "polyglot"


def test_every_character_of_every_language_is_in_the_text_layer(built):
    text = _text(built / "pnp-a4" / "cards.pdf")
    for code, name, effect in TEXTS:
        for string in (name, effect):
            for word in string.split():
                assert word in text, (code, word)
    assert "Полиглот — Πολύγλωσσο · Карты" in text        # the sheet header: the designer's titles


def test_the_characters_are_drawn_with_embedded_fonts_lato_first(built):
    fonts = _fonts(built / "pnp-a4" / "cards.pdf")
    assert fonts and all(fonts.values()), fonts
    names = " ".join(fonts)
    assert "Lato" in names and "NotoSans" in names and "FjallaOne" in names
    assert not any(base in names for base in ("Helvetica", "Times", "Courier"))


def test_validation_names_the_cell_and_character_no_font_can_print(tmp_path):
    root = copy_project(tmp_path)
    _game(root, [("a", "Hello 😀", "fine"), ("b", "ok", "مرحبا بالعالم"), ("c", "Ελλάδα", "Київ")])
    result = run_cli("validate", "polyglot", root=root)
    out = " ".join((result.stdout + result.stderr).split())
    assert result.returncode == 0, out
    shown = "templates/polyglot/cards.csv › cards"
    assert (f"{shown} › B2 (name): character '😀' (GRINNING FACE) is in no font of the chain "
            "(Lato-Regular, NotoSans-wdth-wght): it would not print [glyph]") in out
    assert (f"{shown} › C3 (effect): character 'م' (ARABIC LETTER MEEM) (and 6 more of this cell) is in a "
            "right-to-left script; pnp draws no bidirectional text nor shaping, so it would print wrong [glyph]") in out
    assert "B4" not in out and "C4" not in out                     # Greek and Ukrainian print whole
    strict = run_cli("build", "polyglot", "--strict", root=root)
    assert strict.returncode == 1 and "Traceback" not in strict.stderr
    assert not (root / "output").exists()


def test_a_game_adds_a_fallback_family(tmp_path):
    """templates/<game>/fonts.yaml names more families; an unknown file is a located problem."""
    root = copy_project(tmp_path)
    folder = _game(root, [("a", "Вітаю", "ok")])
    (folder / "fonts.yaml").write_text("fallback:\n  - {family: Missing, path: templates/polyglot/none.ttf}\n")
    result = run_cli("validate", "polyglot", root=root)
    assert result.returncode == 1
    assert "templates/polyglot/fonts.yaml: font file templates/polyglot/none.ttf not found [font]" in result.stderr
    assert "Traceback" not in result.stderr


def test_rulebook_paragraphs_use_the_chain_too(tmp_path):
    from reportlab.platypus import Paragraph, SimpleDocTemplate

    from pipeline.render.fonts import default_fonts
    from pipeline.render.rulebook_style import Styles, markup, register_families

    fonts = default_fonts()
    register_families(fonts)
    styles = Styles(fonts)
    text = markup([("Правила: Jokić и ", ""), ("Γειά σου", "b")], styles)
    assert '<font name="NotoSans-wdth-wght">Правила</font>: Jokić' in text     # Latin stays in Lato
    path = tmp_path / "rules.pdf"
    SimpleDocTemplate(str(path), invariant=1).build([Paragraph(text, styles.body)])
    assert "Правила: Jokić и Γειά σου" in _text(path)
    drawn = {name: embedded for name, embedded in _fonts(path).items() if "Helvetica" not in name}
    assert len(drawn) == 2 and all(drawn.values())         # (Helvetica: this bare test document's default)
