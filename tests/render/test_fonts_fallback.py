"""Text in the designer's language: a data-only game whose cards are written in Polish, Czech, Turkish,
Vietnamese, Greek, Russian and Ukrainian prints every character, each drawn with an embedded font (the
fallback chain behind Lato); what no font can print right is a located warning, an error with --strict;
a build whose text needs no fallback is byte-identical to one without the chain."""

from __future__ import annotations

import csv
import hashlib
import os
import re
import shutil
import subprocess
import sys
import textwrap
from io import BytesIO
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pytest
import reportlab

from pipeline.core.printing import PrintOptions
from pipeline.render.fonts import default_fonts
from tests.conftest import copy_project, pdf_text, run_cli

NOTO = "NotoSans-wdth-wght"
VERA = Path(reportlab.__file__).parent / "fonts" / "Vera.ttf"     # Bitstream Vera: has ≡ and ∅, Noto Sans not

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
title: "%s"
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
  - {id: cards, title: "%s", sheet: cards, size: [63.5, 88.9], front: front.yaml, back: back.yaml}
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


def _game(root: Path, rows: list[tuple[str, str, str]], titles: tuple[str, str] = ("Полиглот — Πολύγλωσσο", "Карты")
          ) -> Path:
    folder = root / "templates" / "polyglot"
    folder.mkdir(parents=True)
    with (folder / "cards.csv").open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["id", "name", "effect", "copies"])
        writer.writerows([(i, name, effect, 1) for i, name, effect in rows])
    (folder / "game.yaml").write_text(GAME % (titles[0], len(rows), titles[1]), encoding="utf-8")
    (folder / "front.yaml").write_text(FRONT, encoding="utf-8")
    (folder / "back.yaml").write_text(BACK, encoding="utf-8")
    return folder


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
    text = pdf_text(built / "pnp-a4" / "cards.pdf")
    for code, name, effect in TEXTS:
        for string in (name, effect):
            for word in string.split():
                assert word in text, (code, word)
            assert set(string) <= set(text), (code, set(string) - set(text))
    assert "Полиглот — Πολύγλωσσο · Карты" in text        # the sheet header: the designer's titles


def test_the_characters_are_drawn_with_embedded_fonts_lato_first(built):
    fonts = _fonts(built / "pnp-a4" / "cards.pdf")
    assert fonts and all(fonts.values()), fonts
    names = " ".join(fonts)
    assert "Lato" in names and "NotoSans" in names and "FjallaOne" in names
    assert re.search(r"/[A-Z]{6}\+NotoSans-Regular\b", names)             # subset, its own name
    assert not any(base in names for base in ("Helvetica", "Times", "Courier"))
    with pikepdf.open(built / "pnp-a4" / "cards.pdf") as pdf:               # every page's fonts: FontFile2
        for page in pdf.pages:
            for font in page.Resources.Font.values():
                described = font["/DescendantFonts"][0] if "/DescendantFonts" in font else font
                assert "/FontFile2" in described.FontDescriptor, font.BaseFont


def test_validation_names_the_cell_and_character_no_font_can_print(tmp_path):
    root = copy_project(tmp_path)
    _game(root, [("a", "Hello 😀", "fine"), ("b", "ok", "مرحبا بالعالم"), ("c", "Ελλάδα", "Київ"),
                 ("d", "नमस्ते", "שלום\u00ad\u200b")])
    result = run_cli("validate", "polyglot", root=root)
    out = " ".join((result.stdout + result.stderr).split())
    assert result.returncode == 0, out
    shown = "templates/polyglot/cards.csv › cards"
    assert (f"{shown} › B2 (name): character '😀' (GRINNING FACE) is in no font of the chain "
            "(Lato, Noto Sans): it would not print [glyph]") in out
    assert (f"{shown} › C3 (effect): character 'م' (ARABIC LETTER MEEM) (and 6 more of this cell) is "
            "right-to-left script (Arabic); pnp draws no bidirectional text nor shaping, so it would print "
            "wrong [glyph]") in out
    assert (f"{shown} › B5 (name): character 'न' (DEVANAGARI LETTER NA) (and 5 more of this cell) is in a "
            "script that needs shaping (Devanagari); pnp draws") in out
    assert f"{shown} › C5 (effect): character 'ש' (HEBREW LETTER SHIN) (and 3 more of this cell) is right-to-left script (Hebrew)" in out
    assert "B4" not in out and "C4" not in out                     # Greek and Ukrainian print whole
    assert "SOFT HYPHEN" not in out and "ZERO WIDTH" not in out    # they print nothing: nothing to warn about
    assert "0 error(s), 4 warning(s)" in out
    strict = run_cli("build", "polyglot", "--strict", root=root)
    assert strict.returncode == 1 and "Traceback" not in strict.stderr
    assert "[glyph]" in strict.stdout + strict.stderr
    assert not (root / "output").exists()


def test_a_game_adds_a_fallback_family(tmp_path):
    """templates/<game>/fonts.yaml names more families: their characters then print, drawn with them."""
    root = copy_project(tmp_path)
    folder = _game(root, [("a", "A ≡ B", "∅ Вітаю")])
    before = run_cli("validate", "polyglot", root=root)
    assert "character '≡' (IDENTICAL TO) is in no font of the chain (Lato, Noto Sans)" in before.stdout + before.stderr
    (folder / "fonts").mkdir()
    shutil.copyfile(VERA, folder / "fonts" / "Vera.ttf")
    (folder / "fonts.yaml").write_text("fallback:\n  - {family: Bitstream Vera, path: templates/polyglot/fonts/"
                                       "Vera.ttf, licence: Bitstream Vera licence}\n", encoding="utf-8")
    result = run_cli("build", "polyglot", "--paper", "a4", "--format", "pnp", "--strict", root=root)
    assert result.returncode == 0, result.stdout + result.stderr
    cards = root / "output" / "polyglot" / "pnp-a4" / "cards.pdf"
    text = pdf_text(cards)
    assert "A ≡ B" in text and "∅ Вітаю" in text
    names = " ".join(_fonts(cards))
    assert "BitstreamVeraSans" in names and "NotoSans" in names       # Cyrillic still from Noto, first


@pytest.mark.parametrize("entry, message", [
    ("{family: Missing, path: templates/polyglot/none.ttf}", "font file templates/polyglot/none.ttf not found"),
    ("{family: Out, path: ../outside.ttf}", "family 'Out': font path '../outside.ttf' climbs out of its folder"),
    ("{family: Drive, path: 'C:/Windows/Fonts/arial.ttf'}", "font path 'C:/Windows/Fonts/arial.ttf' is a path on a "
                                                            "Windows drive"),
    ("{family: Up, package: font_lato, file: ../../os.py}", "family 'Up': give `package`"),
    ("{family: Dotted, package: os.path, file: x.ttf}", "family 'Dotted': give `package`"),
    ("{family: Nowhere, package: no_such_font_package, file: x.ttf}", "font package 'no_such_font_package' is not installed"),
    ("{family: Broken, path: templates/polyglot/cards.csv}", "font file cards.csv is not TrueType"),
    ("{family: Fake, path: templates/polyglot/fake.ttf}", "templates/polyglot/fake.ttf: cannot read the font"),
])
def test_a_bad_game_font_is_a_located_problem(tmp_path, entry, message):
    root = copy_project(tmp_path)
    folder = _game(root, [("a", "Вітаю", "A ≡ B")])      # ≡: Noto Sans lacks it, the game's font is read
    (folder / "fake.ttf").write_bytes(b"not a font at all")
    (folder / "fonts.yaml").write_text(f"fallback:\n  - {entry}\n", encoding="utf-8")
    result = run_cli("validate", "polyglot", root=root)
    assert result.returncode == 1, result.stdout + result.stderr
    assert message in " ".join(result.stderr.split()) and "[font]" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_build_whose_text_needs_no_fallback_is_byte_identical_without_the_chain(tmp_path):
    """The chain changes nothing where it is not used: same bytes as with `fallback: []`."""
    latin = [("a", "Zone de départ", "Piochez 2 cartes, puis défaussez-en une."), ("b", "Marché", "Coût ≤ 3")]
    digests = []
    for variant in ("chain", "none"):
        root = copy_project(tmp_path / variant)
        _game(root, latin, ("Polyglotte", "Cartes"))
        if variant == "none":
            manifest = root / "fonts" / "fonts.yaml"
            text = manifest.read_text(encoding="utf-8")
            manifest.write_text(text[:text.index("fallback:")] + "fallback: []\n", encoding="utf-8")
        result = run_cli("build", "polyglot", "--paper", "a4", "--format", "pnp", root=root)
        assert result.returncode == 0, result.stderr
        cards = (root / "output" / "polyglot" / "pnp-a4" / "cards.pdf").read_bytes()
        assert b"NotoSans" not in cards
        digests.append(hashlib.sha256(cards).hexdigest())
    assert digests[0] == digests[1]


@pytest.mark.slow
def test_the_fallback_fonts_are_read_only_when_a_character_needs_them(tmp_path):
    root = copy_project(tmp_path)
    _game(root, [("a", "Zone de départ", "Piochez 2 cartes.")], ("Polyglotte", "Cartes"))
    script = ("import sys\nfrom pipeline.cli import app as cli\nfrom pipeline.render import fonts\n"
              "sys.argv = ['pnp', 'build', 'polyglot', '--paper', 'a4', '--format', 'pnp']\n"
              "try:\n    cli.main()\nexcept SystemExit as exc:\n    assert not exc.code, exc.code\n"
              "print('registered:', sorted(fonts._REGISTERED))\n")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300,
                            env={**os.environ, "PNP_ROOT": str(root)})
    assert result.returncode == 0, result.stderr
    assert "registered: ['FjallaOne-Regular', 'Lato-Bold', 'Lato-Regular']" in result.stdout


# --- the rulebook ------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def fonts():
    return default_fonts()


def test_rulebook_paragraphs_use_the_chain_too(tmp_path, fonts):
    from reportlab.platypus import Paragraph, SimpleDocTemplate

    from pipeline.render.rulebook.style import Styles, markup, register_families

    register_families(fonts)
    styles = Styles(fonts)
    text = markup([("Правила: Jokić и ", ""), ("Γειά σου", "b")], styles)
    assert f'<font name="{NOTO}">Правила: </font>Jokić' in text      # Latin stays in Lato
    heading = markup([("Zażółć & <co>", "")], styles, styles.headings[1].fontName)
    assert heading == f'Za<font name="{NOTO}">ż</font>ół<font name="{NOTO}">ć </font>&amp; &lt;co&gt;'
    path = tmp_path / "rules.pdf"
    SimpleDocTemplate(str(path), invariant=1).build([Paragraph(text, styles.body),
                                                     Paragraph(heading, styles.headings[1])])
    assert "Правила: Jokić и Γειά σου" in pdf_text(path) and "Zażółć & <co>" in pdf_text(path)
    drawn = {name: embedded for name, embedded in _fonts(path).items() if "Helvetica" not in name}
    assert len(drawn) == 3 and all(drawn.values())    # Lato, Noto, Fjalla (Helvetica: the bare doc's)


def test_a_rulebook_in_russian_prints_its_title_headings_contents_and_running_header(tmp_path, fonts):
    from pipeline.render.rulebook.book import write_rulebook

    folder = tmp_path / "templates" / "game" / "rules"
    folder.mkdir(parents=True)
    (folder / "01-intro.md").write_text(textwrap.dedent("""\
        # Подготовка к игре

        ## Zażółć gęślą jaźń

        Каждый игрок берёт **пять карт**; *Γειά σου*.

        | Карта | Цена |
        |---|---|
        | Ёж | 3 |
        """), encoding="utf-8")
    buffer = BytesIO()
    write_rulebook(buffer, folder, {}, {}, PrintOptions(paper="a4", game_title="Полиглот", fonts=fonts), tmp_path)
    pages = [page.get_textpage().get_text_range() for page in pdfium.PdfDocument(buffer.getvalue())]
    assert "Полиглот" in pages[0]                                         # the title page
    body = pages[1]                         # the contents, then the chapter running on in the same columns
    assert body.count("1. Подготовка к игре") == 2 and body.count("1.1 Zażółć gęślą jaźń") == 2
    assert "Полиглот · Подготовка к игре" in body                         # the running header
    for words in ("1. Подготовка к игре", "1.1 Zażółć gęślą jaźń", "Каждый игрок берёт пять карт; Γειά σου.",
                  "Карта", "Цена", "Ёж"):
        assert words in body, words
