"""The guide and the paper (issue 29, §5), read back from real builds: the guide's headline total is the print a
table needs (the optional files apart, each with its own count) and equals the sheets the PDFs' own page counts
make; the paper bill marks the same files; assembly starts with what every print needs; only write-on sheets are
to photocopy; All-Star prints an aid per manager, two a sheet; Challengers offers prints by player count and a first
game; an odd rulebook's last page is at least half full; report.md names each component's kind."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pdfplumber
import pypdfium2
import pytest

from pipeline.core.units import MM
from tests.guide.test_print_guide import _data, _section
from tests.conftest import built_game, pdf_text

GAMES = ("buildit", "nba", "allstar", "fightball", "challengers")
PAPERS = ("a4", "letter")
BODY_TOP_MM, BODY_BOTTOM_MM = 20, 19          # the rulebook's margins: running header and footer sit in them


@pytest.fixture(scope="module", params=GAMES)
def built(request, tmp_path_factory) -> Path:
    return built_game(tmp_path_factory, request.param)




def pdf_pages(path: Path) -> int:
    document = pypdfium2.PdfDocument(path)
    try:
        return len(document)
    finally:
        document.close()


def sheets_of(path: Path, entry: dict, pages: int | None = None, copies: int | None = None) -> int:
    """Double-sided sheets of a home file, from its page count read in the PDF: fronts and backs share a sheet
    when the file prints recto verso (a duplex card file, a 2-up aid, a rulebook), else a page is a sheet."""
    count = pdf_pages(path) if pages is None else pages
    copies = entry.get("copies", 1) if copies is None else copies
    two_sided = entry["kind"] == "rulebook" or (entry.get("backs_mode") == "duplex"
                                                and entry["kind"].split("-")[0] in ("cards", "pages"))
    return (math.ceil(count / 2) if two_sided else count) * copies


def _entries(data: dict, paper: str) -> dict[str, dict]:
    return {e["path"]: e for e in data["outputs"] if e.get("format") == "pnp" and e.get("paper") == paper}


# --- the headline total and the paper bill -------------------------------------------------------------------------

@pytest.mark.parametrize("paper", PAPERS)
def test_the_headline_total_is_the_sheets_of_the_pdfs_a_table_needs(built, paper):
    data = _data(built)
    root = built.parent.parent
    bill, entries = data["paper_bill"][paper], _entries(data, paper)
    rows = [r for r in bill["rows"] if not r["ink_saver"]]
    required = [r for r in rows if not r.get("optional")]
    measured = sum(sheets_of(root / r["path"], entries[r["path"]]) for r in required)
    headline = re.search(r"\*\*En tout : (\d+) feuilles? ", (built / f"guide-{paper}.md").read_text())
    assert int(headline.group(1)) == bill["totals"]["standard"]["double_sided"] == measured
    optional = [r for r in rows if r.get("optional")]
    if optional:                                   # each option apart, with its own count read from its PDF
        assert bill["totals"]["optional"]["double_sided"] == sum(
            sheets_of(root / r["path"], entries[r["path"]]) for r in optional)


def test_the_bill_marks_what_a_print_can_leave_out(built):
    data = _data(built)
    expected = {"nba": {"dice-nets", "dice-stickers"}, "fightball": {"field-mat"}, "challengers": {"jetons"}}
    for paper, bill in data["paper_bill"].items():
        marked = {Path(r["path"]).stem.removesuffix("-ink-saver") for r in bill["rows"] if r.get("optional")}
        assert marked == expected.get(data["game"], set()), paper
    report = (built / "report.md").read_text()
    for name in expected.get(data["game"], ()):
        assert re.search(rf"\| `output/{data['game']}/pnp-a4/{name}\.pdf` \(facultatif\) \|", report), name


def test_nba_states_the_print_with_ordinary_dice_first(tmp_path_factory):
    built = built_game(tmp_path_factory, "nba")
    data = _data(built)
    root = built.parent.parent
    for paper in PAPERS:
        what = _section((built / f"guide-{paper}.md").read_text(), 1)
        entries = _entries(data, paper)
        headline = int(re.search(r"\*\*En tout : (\d+) feuilles", what).group(1))
        dice = {stem: sheets_of(root / f"output/nba/pnp-{paper}/{stem}.pdf", entries[f"output/nba/pnp-{paper}/{stem}.pdf"])
                for stem in ("dice-nets", "dice-stickers")}
        everything = sum(sheets_of(root / r["path"], entries[r["path"]]) for r in data["paper_bill"][paper]["rows"]
                         if not r["ink_saver"])
        assert headline == everything - sum(dice.values())           # 50 on A4 (issue 29), not 64
        for stem, count in dice.items():                             # each option with its own count
            assert f"{stem}.pdf), **{count} feuilles**" in what, stem
        assert what.index("**En tout") < what.index("Facultatif, en plus de ces")


# --- assembly -----------------------------------------------------------------------------------------------------

def test_assembly_starts_with_what_every_print_needs(built):
    data = _data(built)
    steps = [line for line in _section((built / "guide-a4.md").read_text(), 5).splitlines() if re.match(r"\d+\. ", line)]
    optional = [r for r in data["paper_bill"]["a4"]["rows"] if r.get("optional") and not r["ink_saver"]]
    marks = ["*Facultatif" in step for step in steps]
    assert marks == sorted(marks), steps                  # no optional step before a required one
    for row in optional:                                  # each optional file is assembled in an optional step
        name = Path(row["path"]).name
        assert any(name in step for step in steps if "*Facultatif" in step) or row["kind"] != "board", name
    if data["game"] == "fightball":
        assert "field-mat.pdf" not in steps[0] and "field-mat.pdf" in steps[-1]


def test_only_write_on_sheets_are_to_photocopy(built):
    data = _data(built)
    steps = _section((built / "guide-a4.md").read_text(), 5)
    titles = {c["id"]: c["title"] for c in data["components"]}
    for line in steps.splitlines():
        if "photocopier" in line:
            named = re.match(r"\d+\. \*\*([^*]+)\*\*", line).group(1).split(", ")
            assert named and all(title in (titles.get("score-sheet"),) for title in named), line
    if data["game"] == "nba":
        assert re.search(r"\*\*Référence des dés\*\* : rien à couper\.\n", steps)
        assert "**Feuille de marque** : rien à couper. On y écrit pendant la partie" in steps


# --- lighter prints -----------------------------------------------------------------------------------------------

def _print_rows(what: str) -> list[list[str]]:
    start = what.index("| impression | feuilles")
    rows = [line.strip("|").split(" | ") for line in what[start:].splitlines() if line.startswith("| ")]
    return [[cell.strip() for cell in row] for row in rows[1:]]          # the header left out


@pytest.mark.parametrize("paper", PAPERS)
def test_challengers_offers_prints_by_player_count_and_a_first_game(tmp_path_factory, paper):
    built = built_game(tmp_path_factory, "challengers")
    data = _data(built)
    root = built.parent.parent
    entries = _entries(data, paper)
    what = _section((built / f"guide-{paper}.md").read_text(), 1)
    rows = {row[0].split(" — ")[0]: row for row in _print_rows(what)}
    assert list(rows) == ["Première partie à 2 joueurs", "2 joueurs", "4 joueurs", "8 joueurs"]
    counted = {}
    for name, (_, stated, cards, files, left) in rows.items():
        total, pieces = 0, 0
        for link, extra in re.findall(r"\[[^\]]+\]\(([^)]+)\)((?: \([^)]*\))*)", files):
            path = f"output/challengers/{link}"
            entry = entries[path]
            pages = re.search(r"pages? (?:1 à )?(\d+)", extra)
            copies = re.search(r"(\d+) exemplaires?", extra)
            total += sheets_of(root / path, entry, int(pages.group(1)) if pages else None,
                               int(copies.group(1)) if copies else None)
            pieces += entry.get("cards", 0) * entry.get("copies", 1) if not pages else 0
        assert int(stated) == total and int(cards) == pieces, name           # the PDFs' pages make the count
        counted[name] = total
        assert "cards-robot.pdf" not in files and "`cards-robot.pdf`" in left
    headline = data["paper_bill"][paper]["totals"]["standard"]["double_sided"]
    assert counted["Première partie à 2 joueurs"] < counted["2 joueurs"] < counted["4 joueurs"] \
        < counted["8 joueurs"] < headline
    assert "cards-space.pdf" not in rows["Première partie à 2 joueurs"][3]
    text = " ".join(pdf_text(built / "pnp-a4" / "rulebook.pdf").split())     # the rulebook names the same set
    assert "laissez le set Espace dans la boîte" in text


# --- rulebooks ----------------------------------------------------------------------------------------------------

def last_page_fill(path: Path) -> tuple[int, float]:
    """(pages, how full the last page's two columns are), from where its lowest text or drawing ends."""
    with pdfplumber.open(path) as pdf:
        page = pdf.pages[-1]
        top, bottom = BODY_TOP_MM * MM, page.height - BODY_BOTTOM_MM * MM
        drawn = [o for o in page.chars + page.rects + page.images + page.curves + page.lines
                 if o["top"] >= top - 1 and o["bottom"] <= bottom + 1]
        used = []
        for left in (True, False):
            column = [o for o in drawn if ((o["x0"] + o["x1"]) / 2 < page.width / 2) == left]
            used.append(max((o["bottom"] for o in column), default=top) - top)
        return len(pdf.pages), sum(used) / (2 * (bottom - top))


@pytest.mark.parametrize("paper", PAPERS)
def test_an_odd_rulebooks_last_page_is_at_least_half_full(built, paper):
    pages, fill = last_page_fill(built / f"pnp-{paper}" / "rulebook.pdf")
    assert pages % 2 == 0 or fill >= 0.5, (pages, round(fill, 2))


# --- report.md ----------------------------------------------------------------------------------------------------

def test_the_component_table_names_each_kind_in_french(built):
    data = _data(built)
    report = (built / "report.md").read_text()
    table = report[report.index("### Composants"):report.index("### Tous les fichiers")]
    kinds = {re.search(r"\(`([^`]+)`\)", line).group(1): line.split(" | ")[1]
             for line in table.splitlines() if line.startswith("| ") and "(`" in line}
    assert set(kinds) == {c["id"] for c in data["components"]}
    for component in data["components"]:
        word = kinds[component["id"]]
        assert word not in ("cards", "board", "pages", "dice", "rulebook"), component["id"]
        size = component.get("size_mm")
        if component["kind"] == "cards" and size and min(size) < 30:
            assert word in ("jetons", "pions"), (component["id"], word)           # tokens are not cards
    expected = {"buildit": {"pawns": "pions", "coins": "jetons"}, "allstar": {"buses": "jetons"},
                "challengers": {"flags": "jetons", "fans-1": "jetons", "trophies": "jetons"}}
    for component, word in expected.get(data["game"], {}).items():
        assert kinds[component] == word, component


def test_all_star_prints_an_aid_per_manager_two_a_sheet(tmp_path_factory):
    built = built_game(tmp_path_factory, "allstar")
    data = _data(built)
    managers = 6                                           # the rules sheet's players_max
    for paper in PAPERS:
        entry = _entries(data, paper)[f"output/allstar/pnp-{paper}/aid.pdf"]
        document = pypdfium2.PdfDocument(built / f"pnp-{paper}" / "aid.pdf")
        try:
            pages = [document[i].get_textpage().get_text_range() for i in range(len(document))]
        finally:
            document.close()
        assert len(pages) == 2                              # front and back, recto verso
        assert all(page.count("ALL-STAR DRAFT") == 2 for page in pages)        # two aids a sheet
        assert "1/2" in pages[0] and "2/2" in pages[1]
        assert entry["copies"] * 2 == managers and sheets_of(built / f"pnp-{paper}" / "aid.pdf", entry) == 3
        row = next(line for line in (built / f"guide-{paper}.md").read_text().splitlines() if "aid.pdf" in line)
        assert "(2 par feuille)" in row and "**3 exemplaires**" in row and row.endswith("| 3 |")
