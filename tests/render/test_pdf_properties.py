"""Every PDF pnp writes says what it is (issue 20): Title, Author (the game's record), Subject ("Build It —
Cartes Ville, A4, impression maison") and Keywords; and every font subset has its own tag (reportlab wrote
AAAAAA+ for all of them, so a print shop merging files got one name for different glyph sets). Read back
from built files with pikepdf; rebuilds stay byte-identical."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pikepdf
import pytest

from pipeline import PROJECT_ROOT
from pipeline.core.units import MM
from pipeline.games import load_game
from pipeline.render.fonts import subset_tag
from pipeline.render.pdf import credits, document_properties, paper_of
from tests.conftest import copy_project, run_cli
from tests.render.sheets.printcheck import pdf_fonts

GAMES = ("buildit", "nba")      # cards, boards, pages, a rulebook; dice (NBA)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """Build It on both papers, home and print-service files, ink saver; NBA on A4. The project root."""
    root = copy_project(tmp_path_factory.mktemp("project"))
    for game, options in (("buildit", ("--paper", "all", "--format", "all", "--ink-saver")),
                          ("nba", ("--paper", "a4"))):
        result = run_cli("build", game, *options, root=root)
        assert result.returncode == 0, result.stderr
    return root


def _pdfs(root: Path, game: str) -> list[Path]:
    return sorted((root / "output" / game).rglob("*.pdf"))


def _info(path: Path) -> dict[str, str]:
    with pikepdf.open(path) as pdf:
        return {key[1:]: str(value) for key, value in pdf.docinfo.items()}


def _subsets(path: Path) -> dict[str, set[str]]:
    """{BaseFont: sha256 of each embedded font program under that name} in one file."""
    found: dict[str, set[str]] = {}
    with pikepdf.open(path) as pdf:
        seen: set = set()
        for page in pdf.pages:
            for font in pdf_fonts(page.get("/Resources"), seen):
                program = font["/FontDescriptor"]["/FontFile2"].read_bytes()
                found.setdefault(str(font["/BaseFont"])[1:], set()).add(hashlib.sha256(program).hexdigest())
    return found


def test_every_pdf_carries_title_author_subject_and_keywords(built):
    for game_id in GAMES:
        game = load_game(game_id, built)
        pdfs = _pdfs(built, game_id)
        assert len(pdfs) >= 10
        for path in pdfs:
            info = _info(path)
            where = path.relative_to(built)
            assert all(info.get(key, "").strip() for key in ("Title", "Author", "Subject", "Keywords")), where
            assert info["Author"] == game.credited_author and "anonymous" not in info["Author"], where
            assert info["Subject"].startswith(game.title), where
            folder = path.parent.parent.name if path.parent.name == "pli" else path.parent.name   # fold-over twins
            if folder.startswith("pnp-"):
                paper = {"pnp-a4": "A4", "pnp-letter": "Letter"}[folder]
                assert f", {paper}, impression maison" in info["Subject"], where
            else:
                assert folder in ("print", "dtc") and "imprimeur" in info["Subject"], where
            assert ("économie d'encre" in info["Subject"]) == path.stem.endswith("-ink-saver"), where
            keywords = [word.strip() for word in info["Keywords"].split(",")]
            assert game.title in keywords and set(game.keywords) <= set(keywords), where


def test_rulebook_and_calibration_are_credited(built):
    book = _info(built / "output" / "buildit" / "pnp-letter" / "rulebook.pdf")
    assert book["Author"] == load_game("buildit", built).credited_author
    assert book["Subject"] == "Build It — Règles du jeu, Letter, impression maison"
    sheet = _info(built / "output" / "calibration" / "pnp-a4.pdf")
    assert sheet["Author"] == "pnp" and sheet["Subject"].endswith(", A4, impression maison")
    assert sheet["Keywords"] and sheet["Title"]


def test_subset_tags_are_distinct_within_a_file_and_name_one_subset_across_a_game(built):
    for game_id in GAMES:
        programs: dict[str, set[str]] = {}
        tags_seen = 0
        for path in _pdfs(built, game_id) + sorted((built / "output" / "calibration").glob("*.pdf")):
            subsets = _subsets(path)
            assert subsets, path
            tags = [name.split("+", 1)[0] for name in subsets]
            assert all(len(tag) == 6 and tag.isalpha() and tag.isupper() for tag in tags), tags
            assert len(set(tags)) == len(tags), f"{path.name}: one tag for two fonts: {sorted(subsets)}"
            assert all(len(found) == 1 for found in subsets.values()), path.name
            for name, found in subsets.items():
                programs.setdefault(name, set()).update(found)
            tags_seen += len(tags)
        # across the game's files, a subset name always means the same glyphs (merging files is safe)
        clashing = sorted(name for name, found in programs.items() if len(found) > 1)
        assert not clashing, f"{game_id}: one name for different glyph sets: {clashing[:5]}"
        assert len(programs) > tags_seen / 4, f"{game_id}: too few distinct subsets"


def test_a_rebuild_is_byte_identical(built, tmp_path):
    root = tmp_path / "again"
    for name in ("sheets", "templates", "fonts"):                 # the very inputs of the first build
        shutil.copytree(built / name, root / name)
    result = run_cli("build", "buildit", "--paper", "all", "--format", "all", "--ink-saver", root=root)
    assert result.returncode == 0, result.stderr
    first, second = _pdfs(built, "buildit"), _pdfs(root, "buildit")
    assert [p.relative_to(built) for p in first] == [p.relative_to(root) for p in second]
    different = [p.name for p, q in zip(first, second) if p.read_bytes() != q.read_bytes()]
    assert not different


def test_subset_tags_follow_the_font_and_its_characters():
    tag = subset_tag("Lato-Regular", 0, [32, 65, 66])
    assert tag == subset_tag("Lato-Regular", 0, [32, 65, 66]) and len(tag) == 6 and tag.isupper()
    assert len({tag, subset_tag("Lato-Bold", 0, [32, 65, 66]), subset_tag("Lato-Regular", 0, [32, 65, 67]),
                subset_tag("Lato-Regular", 1, [32, 65, 66])}) == 4


def test_properties_from_the_credits_and_the_page_size():
    a4, letter_landscape, card = (210 * MM, 297 * MM), (279.4 * MM, 215.9 * MM), (69 * MM, 94.9 * MM)
    assert (paper_of(a4), paper_of(letter_landscape), paper_of(card)) == ("A4", "Letter", None)
    with credits("Alice et Bob", ("draft",), ink_saver=True):
        found = document_properties("Build It · Cartes Ville", a4)
    assert found == {"title": "Build It · Cartes Ville", "author": "Alice et Bob",
                     "subject": "Build It — Cartes Ville, A4, impression maison, économie d'encre",
                     "keywords": "Build It, Cartes Ville, draft, A4, impression maison, économie d'encre, "
                                 "print and play, pnp"}
    outside = document_properties("Build It — Cartes Ville", card)
    assert outside["author"] == "pnp" and outside["subject"].startswith("Build It — Cartes Ville, imprimeur")


def test_a_data_game_takes_author_and_keywords_from_game_yaml(tmp_path):
    root = copy_project(tmp_path)
    manifest = root / "templates" / "benchdeck" / "game.yaml"
    game = load_game("benchdeck", PROJECT_ROOT)
    assert game.author and "banc d'essai" in game.keywords
    text = manifest.read_text(encoding="utf-8")
    start = text.index("author:")
    manifest.write_text(text[:start] + text[text.index("\n", text.index("keywords:")) + 1:], encoding="utf-8")
    plain = load_game("benchdeck", root)
    assert plain.author == "" and plain.keywords == () and plain.credited_author == f"Auteurs de {plain.title}"
