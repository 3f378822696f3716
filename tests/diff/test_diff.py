"""`pnp diff`: two versions of Build It's workbook with known changes (a cost, a name, a contract removed and
one added, a rules value), the old one as a git revision of a temporary repository or as a file."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import openpyxl
import pdfplumber
import pytest

from pipeline.core.errors import PipelineError, Report
from pipeline.diff.changes import ADDED, CHANGED, REMOVED
from pipeline.diff.output import diff_game
from pipeline.render.sheets.facediff import OUTLINE
from tests.conftest import copy_project, run_cli, set_cell

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

WORKBOOK = Path("sheets") / "buildit.xlsx"
EXPECTED_CARDS = [
    (CHANGED, ("contracts", "hyperthune"), ["contracts › B7 (name): Magasin HyperThune → Magasin HyperFortune"]),
    (ADDED, ("contracts", "tour-1"), []),
    (ADDED, ("contracts", "tour-2"), []),
    (REMOVED, ("contracts", "qcaf-1"), []),
    (REMOVED, ("contracts", "qcaf-2"), []),
    (CHANGED, ("normal", "coin_gain_4"), ["normal_cards › E5 (cost): 0 → 1"]),
]
REPRINTED = ["Magasin HyperFortune", "Tour Panorama", "Tour Panorama", "Gain de Pièces"]


def _git(repo: Path, *args: str) -> str:
    result = subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.org", *args],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return result.stdout


def edit(path: Path) -> None:
    """A cost, a name, a contract removed (Agence QCAF, 2 copies) and one added (2 copies: the component
    counts still hold), a rules value."""
    wb = openpyxl.load_workbook(path)
    set_cell(wb["normal_cards"], "id", "coin_gain_4", "cost", 1)
    set_cell(wb["contracts"], "id", "hyperthune", "name", "Magasin HyperFortune")
    contracts = wb["contracts"]
    header = [cell.value for cell in contracts[1]]
    assert contracts.cell(7, header.index("id") + 1).value == "qcaf"
    contracts.delete_rows(7)
    row = {"id": "tour", "name": "Tour Panorama", "plots": 4, "plan": "####", "reward_type": "points",
           "reward_value": 4, "copies": 2, "text": "Quatre parcelles en ligne, vue sur toute la ville."}
    contracts.append([row.get(name) for name in header])
    set_cell(wb["rules"], "parameter", "income", "value", 3)
    wb.save(path)


@pytest.fixture(scope="module")
def repo(tmp_path_factory) -> Path:
    """A project copy in a git repository: the workbook committed, then edited."""
    root = copy_project(tmp_path_factory.mktemp("diff"))
    _git(root, "init", "-q")
    _git(root, "add", "sheets", "templates", "fonts")
    _git(root, "commit", "-q", "-m", "before")
    edit(root / WORKBOOK)
    return root


@pytest.fixture(scope="module")
def diffed(repo):
    report = Report()
    result = diff_game(repo, "buildit", "HEAD", ("a4", "letter"), report)
    assert not report.errors, [str(p) for p in report.errors]
    return result


def test_lists_the_cards_with_their_changed_cells(diffed):
    found = [(c.status, c.key, [str(f) for f in c.fields]) for c in diffed.changes.cards]
    assert found == EXPECTED_CARDS


def test_lists_the_rules_and_the_rulebook_pages_they_change(diffed):
    changes = diffed.changes
    assert [str(item) for item in changes.rules] == ["rules › B7 (income): 2 → 3"]
    assert changes.rulebook_pages and 1 not in changes.rulebook_pages          # the cover names no income
    assert "rules:" in changes.lines() and "  rules › B7 (income): 2 → 3" in changes.lines()


def test_reprint_holds_exactly_the_changed_and_added_cards_with_mirrored_backs(diffed, repo):
    folder = repo / "output" / "buildit" / "diff"
    assert sorted(path.name for path in folder.iterdir()) == ["changes.pdf", "reprint-a4.pdf", "reprint-letter.pdf"]
    with pdfplumber.open(folder / "reprint-letter.pdf") as pdf:
        assert len(pdf.pages) == 2                                      # Letter too: 3 × 3, one sheet
    with pdfplumber.open(folder / "reprint-a4.pdf") as pdf:
        assert len(pdf.pages) == 2                                      # one sheet, printed duplex
        front, back = pdf.pages
        text = front.extract_text()
        names = [name for name in ("Magasin HyperFortune", "Tour Panorama", "Gain de Pièces")
                 for _ in range(text.count(name))]
        assert sorted(names) == sorted(REPRINTED)
        assert "QCAF" not in text and "Picsou" not in text and "HyperThune" not in text
        third = front.width / 3
        gain = next(w for w in front.extract_words() if w["text"] == "Gain")
        normal = [w for w in back.extract_words() if w["text"] == "NORMALE"]
        contract = [w for w in back.extract_words() if w["text"] == "CONTRAT"]
        assert len(normal) == 1 and len(contract) == 3                  # each card keeps its own back
        # the fourth card sits in the first column; its back, for a long-edge flip, in the last one
        assert int(gain["x0"] // third) == 0 and int(normal[0]["x0"] // third) == 2
        assert normal[0]["top"] > max(w["top"] for w in contract)       # the same (second) row as its front


def test_changes_pdf_shows_one_pair_per_changed_card_with_outlines(diffed, repo):
    with pdfplumber.open(repo / "output" / "buildit" / "diff" / "changes.pdf") as pdf:
        pages = [(page.extract_text().splitlines()[0], page.extract_text(), _outlines(page)) for page in pdf.pages]
    assert len(pages) == len(EXPECTED_CARDS)
    changed = [page for page in pages if page[0].startswith("Carte modifiée")]
    assert len(changed) == 2
    name_page = next(page for page in changed if "HyperFortune" in page[0])
    assert "HyperThune" in name_page[1] and "HyperFortune" in name_page[1]     # the old face and the new one
    for _, _, outlines in changed:
        assert outlines and len(outlines) % 2 == 0                         # each box on both faces
    assert all(not outlines for title, _, outlines in pages if not title.startswith("Carte modifiée"))


def _outlines(page) -> list[dict]:
    return [rect for rect in page.rects if isinstance(rect.get("stroking_color"), (tuple, list))
            and tuple(round(c, 2) for c in rect["stroking_color"]) == OUTLINE]


def test_old_as_a_file_on_the_command_line(repo, tmp_path):
    old = tmp_path / "old.xlsx"
    old.write_bytes(_git_bytes(repo, f"HEAD:{WORKBOOK.as_posix()}"))
    result = run_cli("diff", "buildit", str(old), "--paper", "a4", root=repo)
    assert result.returncode == 0, result.stderr
    assert "changed: normal › Gain de Pièces (normal_cards row 5, copy 1/1)" in result.stdout
    assert "  normal_cards › E5 (cost): 0 → 1" in result.stdout
    assert "wrote output/buildit/diff/reprint-a4.pdf" in result.stdout


def test_no_change_exits_0_and_leaves_no_diff_files(tmp_path):
    root = copy_project(tmp_path)
    _git(root, "init", "-q")
    _git(root, "add", "sheets")
    _git(root, "commit", "-q", "-m", "only")
    stale = root / "output" / "buildit" / "diff" / "reprint-a4.pdf"
    stale.parent.mkdir(parents=True)
    stale.write_bytes(b"%PDF- an earlier diff")
    result = run_cli("diff", "buildit", root=root)
    assert result.returncode == 0, result.stderr
    assert "no change since HEAD" in result.stdout
    assert not stale.exists()


def test_an_unknown_revision_is_a_usage_problem(repo):
    report = Report()
    with pytest.raises(PipelineError) as raised:
        diff_game(repo, "buildit", "no-such-revision", ("a4",), report)
    assert "no-such-revision:sheets/buildit.xlsx" in str(raised.value)


def _git_bytes(repo: Path, what: str) -> bytes:
    return subprocess.run(["git", "-C", str(repo), "show", what], capture_output=True, check=True).stdout


def test_cards_of_two_sizes_make_one_reprint_file_the_same_bytes_each_time():
    import io

    import pypdfium2 as pdfium

    from pipeline.diff.versions import load_version
    from pipeline.games import load_game
    from pipeline.render.sheets.reprint import ReprintCard, write_reprint
    from tests.conftest import ROOT

    version = load_version(load_game("challengers", ROOT), ROOT, "now", Report())
    card = version.cards[("cards-city", "city_recrue-1")]
    trophy = next(c for key, c in version.cards.items() if key[0] == "trophies")
    cards = [ReprintCard(c.front_face, c.back_face, c.deck.title) for c in (card, trophy)]
    first, second = io.BytesIO(), io.BytesIO()
    info = write_reprint(first, cards, "a4", "Challengers")
    write_reprint(second, cards, "a4", "Challengers")
    assert first.getvalue() == second.getvalue()
    assert info == {"pages": 4, "sheets": 2, "cards": 2}               # each size its own duplex sheet
    document = pdfium.PdfDocument(first.getvalue())
    try:
        assert len(document) == 4
    finally:
        document.close()


def test_the_rulebook_pages_listed_hold_the_changed_rule(diffed, repo):
    from pipeline.diff.rulebook import _Book
    from pipeline.diff.versions import load_version
    from pipeline.games import load_game

    pages = _Book(load_version(load_game("buildit", repo), repo, "now", Report()), repo).texts("a4", Report())
    income = [number for number, text in enumerate(pages, 1) if "prenez +3 PO" in text]
    rules_pages = diffed.changes.rules_pages
    assert income and set(income) <= set(rules_pages) < set(diffed.changes.rulebook_pages)
    assert len(diffed.changes.rulebook_pages) < len(pages)
    # the material list's contracts are the cards' doing, not the income's
    material = [number for number, text in enumerate(pages, 1) if "Tour Panorama" in text]
    assert material and not set(material) & set(rules_pages)
    assert f"  rulebook pages they change (A4): {', '.join(map(str, rules_pages))}" in diffed.changes.lines()


def test_a_row_changed_in_a_column_the_card_does_not_print_is_data_only():
    from types import SimpleNamespace

    from pipeline.core.errors import SourceRef
    from pipeline.data.schema import Record
    from pipeline.data.specs import CardDeck, FaceSpec
    from pipeline.diff.changes import DATA_ONLY, compare
    from pipeline.diff.versions import Card, Version

    def version(notes: str, key: str) -> Version:
        ref = SourceRef("game.xlsx", "cards", 2)
        record = Record("cards", ref, {"id": "a", "notes": notes}, {"id": "A", "notes": "B"})
        front = FaceSpec("card.yaml", {}, ref, "a", "Carte A")
        deck = CardDeck("cards", "Cartes", (front,), None)
        card = Card(deck, front, None, SimpleNamespace(key=key), None)
        return Version("v", None, {"cards": [record]}, [deck], {card.key: card})

    same_face = compare(version("old note", "k1"), version("new note", "k1"))
    assert [(c.status, [str(f) for f in c.fields]) for c in same_face.cards] == \
        [(DATA_ONLY, ["cards › B2 (notes): old note → new note"])]
    assert not same_face.cards[0].reprint
    assert compare(version("same", "k1"), version("same", "k1")).none


def test_cli_an_unknown_revision_is_a_usage_error(repo):
    result = run_cli("diff", "buildit", "no-such-revision", root=repo)
    assert result.returncode == 2
    assert "no-such-revision:sheets/buildit.xlsx: neither a file nor a git revision" in result.stderr
    assert "Traceback" not in result.stderr
