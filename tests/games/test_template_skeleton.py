"""The skeleton a new game copies (pipeline/games/_template/, with its workbook and templates in skeleton/),
used as a newcomer uses it: copied into a project, it validates (stages 1–6, the example engine played by
bots through the driver), builds through the pipeline's own build into cards of the size it declares and a
rulebook, and points at the cell of a damaged value. It is no game of the shipped project: the build tests
register it in the registry for their run only."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pdfplumber
import pypdfium2
import pytest

import pipeline.games
from pipeline.build import build
from pipeline.core.config import BuildConfig
from pipeline.core.errors import Report
from pipeline.games._template import GAME_ID, game_module
from pipeline.validate import validate_game
from tests.conftest import ROOT, copy_project, edit_workbook, pdf_text

SKELETON = ROOT / "pipeline" / "games" / "_template" / "skeleton"
BOOK = f"sheets/{GAME_ID}.xlsx"
MM = 72 / 25.4
POKER_MM = (63.5, 88.9)
BLEED_MM = 3


def skeleton_project(folder: Path) -> Path:
    """A project copy (sheets/, templates/, fonts/) with the skeleton's workbook and templates moved in, as the
    copy steps of pipeline/games/_template/__init__.py say."""
    root = copy_project(folder)
    shutil.copy(SKELETON / "sheets" / f"{GAME_ID}.xlsx", root / "sheets" / f"{GAME_ID}.xlsx")
    shutil.copytree(SKELETON / "templates" / GAME_ID, root / "templates" / GAME_ID)
    return root


def validated(root: Path):
    report = Report()
    records, play = validate_game(game_module(root), root, report)
    return report, records, play


def built_template(root: Path) -> tuple[Report, list[str]]:
    """pipeline.build.build of the template game, registered for this build only (load_game reads REGISTRY)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(pipeline.games.REGISTRY, GAME_ID, game_module)
        return build(BuildConfig(root=root, games=(GAME_ID,), papers=("a4",), formats=("pnp",)))


@pytest.fixture
def skeleton(tmp_path: Path) -> Path:
    return skeleton_project(tmp_path)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """The skeleton built on A4 in a project copy: its output/template/ folder."""
    root = skeleton_project(tmp_path_factory.mktemp("skeleton"))
    report, games = built_template(root)
    assert report.exit_code() == 0 and not report.problems, [str(p) for p in report.problems]
    assert games == [GAME_ID]
    return root / "output" / GAME_ID


def test_the_skeleton_holds_a_workbook_and_templates_and_is_no_shipped_game():
    for path in (f"sheets/{GAME_ID}.xlsx", f"templates/{GAME_ID}/runner.yaml", f"templates/{GAME_ID}/back.yaml",
                 f"templates/{GAME_ID}/rules/cover.yaml", f"templates/{GAME_ID}/rules/01-regles.md"):
        assert (SKELETON / path).is_file(), path
    assert GAME_ID not in pipeline.games.REGISTRY and GAME_ID not in pipeline.games.available(ROOT)
    assert not (ROOT / BOOK).exists() and not (ROOT / "templates" / GAME_ID).exists()


def test_the_copied_skeleton_validates_and_its_engine_plays(skeleton):
    report, records, play = validated(skeleton)
    assert report.problems == [] and records is not None
    assert [rec["id"] for rec in records["runners"]] == ["rouge", "bleu", "vert", "noir"]
    assert play.games == play.finished > 0 and play.ok and not play.flagged       # stage 6: every game ended
    assert dict(play.end_reasons) == {"target": play.games}                          # by the rules, not a cap
    assert game_module(skeleton).summary(records) == ["4 runners race to square 20 (2 to 4 players)"]


def test_the_build_writes_the_cards_and_the_rulebook(built):
    assert sorted(p.name for p in (built / "pnp-a4").iterdir()) == ["pli", "rulebook.pdf", "runners.pdf"]
    assert sorted(p.name for p in (built / "pnp-a4" / "pli").iterdir()) == ["runners-pli.pdf"]   # fold-over twin
    for name, pages in (("runners.pdf", 2), ("rulebook.pdf", 2)):      # 4 cards: a front page, its backs
        document = pypdfium2.PdfDocument(built / "pnp-a4" / name)
        try:
            assert len(document) == pages, name
            assert all(tuple(round(v / MM) for v in page.get_size()) == (210, 297) for page in document)
        finally:
            document.close()
    listed = {entry["path"] for entry in json.loads((built / "report.json").read_text())["outputs"]}
    assert {f"output/{GAME_ID}/pnp-a4/runners.pdf", f"output/{GAME_ID}/pnp-a4/rulebook.pdf"} <= listed


def test_the_cards_measure_a_poker_card_on_the_sheet(built):
    """The crop marks, read back from the front page, cut 63.5 × 88.9 mm cards; each card's ground is drawn
    with its 3 mm bleed."""
    with pdfplumber.open(built / "pnp-a4" / "runners.pdf") as pdf:
        page = pdf.pages[0]
        marks = [line for line in page.lines if line["stroking_color"] in ((0,), (0, 0, 0), [0], [0, 0, 0])
                 and round(line["linewidth"], 1) == 0.3]
        xs = sorted({round(line["x0"] / MM, 2) for line in marks if line["x0"] == line["x1"]})
        ys = sorted({round(line["top"] / MM, 2) for line in marks if line["top"] == line["bottom"]})
        grounds = [r for r in page.rects if (round(r["width"] / MM, 1), round(r["height"] / MM, 1))
                   == (POKER_MM[0] + 2 * BLEED_MM, POKER_MM[1] + 2 * BLEED_MM)]
    assert len(xs) == 4 and len(ys) == 3                          # three columns, two rows (4 cards, 9 a page)
    assert {round(b - a, 1) for a, b in zip(xs, xs[1:])} == {POKER_MM[0]}
    assert {round(b - a, 1) for a, b in zip(ys, ys[1:])} == {POKER_MM[1]}
    assert len(grounds) == 4


def test_the_rulebook_prints_the_workbooks_values_in_french(built):
    text = " ".join(pdf_text(built / "pnp-a4" / "rulebook.pdf").split())
    assert "Rouge (R), Bleu (B), Vert (V), Noir (N)" in text
    assert "de la case 1 à la case 20" in text and "2 à 4 joueurs" in text


@pytest.mark.parametrize("sheet, cell, value, problem", [
    ("runners", "C3", "bleu ciel", "runners › C3 (colour): 'bleu ciel' is not a colour #RRGGBB [type]"),  # stage 2
    ("runners", "D4", "b", "runners › D4 (symbol): vert has the symbol b of bleu [unique]"),              # stage 3
    ("rules", "B3", 5, "rules › B3 (value): 5 players need as many runner cards; the runners sheet has 4 "
                       "[rules]"),                                                                       # stage 5
    ("rules", "B4", 40, "rules › B4 (value): target 40: the runner card's track prints 30 squares at most "
                        "[rules]"),
], ids=["stage-2-type", "stage-3-same-symbol", "stage-5-runners-for-players", "stage-5-track-length"])
def test_a_damaged_cell_is_located_and_nothing_is_written(skeleton, sheet, cell, value, problem):
    edit_workbook(skeleton / BOOK, lambda wb: wb[sheet].__setitem__(cell, value))
    report, records, _ = validated(skeleton)
    assert records is None and [str(p) for p in report.problems] == [f"{BOOK} › {problem}"]
    report, games = built_template(skeleton)
    assert games == [] and report.exit_code() == 1 and [str(p) for p in report.errors] == [f"{BOOK} › {problem}"]
    assert not (skeleton / "output" / GAME_ID).exists()
