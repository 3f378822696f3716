"""The workbook's optional `game` sheet (pipeline/data/meta.py): the designers typed in its `author` row replace
the "à compléter" placeholder on the rulebook's cover and as every PDF's Author; left empty, the placeholder
stays. Built as a user builds (a project copy, `pnp build`), read back from the PDFs."""

from __future__ import annotations

from pathlib import Path

import pikepdf
import pypdfium2
import pytest
from openpyxl import load_workbook

from pipeline.build import build
from pipeline.core.config import BuildConfig
from pipeline.core.errors import Report
from pipeline.data.meta import with_game_facts
from pipeline.games import load_game
from pipeline.validate import load_records
from tests.conftest import copy_project, edit_workbook

DESIGNERS = "Camille Éxemple et Léo Testeur"
PLACEHOLDER = "à compléter"


def _set_author(root: Path, game: str, value: str | None, field: str = "author") -> None:
    path = root / "sheets" / f"{game}.xlsx"
    workbook = load_workbook(path)
    sheet = workbook["game"]
    sheet["A2"], sheet["B2"] = field, value
    workbook.save(path)


def _built(root: Path, game: str) -> list[Path]:
    report, built = build(BuildConfig(root=root, games=(game,), papers=("a4",), formats=("pnp",),
                                      only=("rulebook", "tiebreak")))
    assert built == [game], [str(p) for p in report.problems]
    return sorted((root / "output" / game / "pnp-a4").glob("*.pdf"))


def _cover(path: Path) -> str:
    return " ".join(pypdfium2.PdfDocument(path)[0].get_textpage().get_text_range().split())


def _author(path: Path) -> str:
    with pikepdf.open(path) as pdf:
        return str(pdf.docinfo.get("/Author", ""))


@pytest.mark.parametrize("filled", (True, False), ids=("filled", "empty"))
def test_the_workbook_names_the_designers_on_the_cover_and_in_every_pdf(tmp_path, filled):
    root = copy_project(tmp_path)
    if filled:
        _set_author(root, "allstar", DESIGNERS)
    files = _built(root, "allstar")
    assert {p.name for p in files} >= {"rulebook.pdf", "tiebreak.pdf"}
    cover = _cover(root / "output" / "allstar" / "pnp-a4" / "rulebook.pdf")
    authors = {p.name: _author(p) for p in files}
    if filled:
        assert f"Auteurs : {DESIGNERS} · prototype" in cover and PLACEHOLDER not in cover
        assert set(authors.values()) == {DESIGNERS}, authors
    else:
        assert f"Auteurs : {PLACEHOLDER}" in cover and DESIGNERS not in cover
        placeholder = load_game("allstar", root).credited_author
        assert PLACEHOLDER in placeholder and set(authors.values()) == {placeholder}, authors


def test_a_field_the_game_sheet_does_not_know_is_a_located_error(tmp_path):
    root = copy_project(tmp_path)
    _set_author(root, "nba", DESIGNERS, field="auteur")
    report = Report()
    assert load_records(load_game("nba", root), root, report) is None
    assert any(p.where.sheet == "game" and p.where.row == 2 and "auteur" in p.message for p in report.errors), \
        [str(p) for p in report.problems]


def test_a_workbook_without_the_game_sheet_keeps_the_record_s_author(tmp_path):
    root = copy_project(tmp_path)
    edit_workbook(root / "sheets" / "buildit.xlsx", lambda workbook: workbook.remove(workbook["game"]))
    assert "game" not in load_workbook(root / "sheets" / "buildit.xlsx").sheetnames
    game = load_game("buildit", root)
    records = load_records(game, root, Report())
    assert records is not None and with_game_facts(game, records).credited_author == game.author
