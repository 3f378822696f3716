"""NBA Deck-Building end to end, as a user runs it: `pnp validate`, `pnp build` and `pnp simulate` on a project
copy, measured from the files they write."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pdfplumber
import pytest

from pipeline.core.units import MM
from tests.conftest import built_game, copy_project, run_cli
from tests.render.rulebook.test_rulebook import reading_text
from tests.render.sheets.printcheck import check_every_pdf, pdfcheck


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    return built_game(tmp_path_factory, "nba")


def report(built: Path) -> dict:
    return json.loads((built / "report.json").read_text())


def test_every_component_is_built_with_the_manifest_counts(built):
    data = report(built)
    counts = {c["id"]: (c["kind"], c["count"]) for c in data["components"]}
    assert counts == {
        "players": ("cards", 140), "tactics": ("cards", 90), "fatigue": ("cards", 9),      # 239 cards
        "court": ("board", 2), "markets": ("board", 1), "aid": ("pages", 2), "score-sheet": ("pages", 1),
        "dice": ("dice", 120), "dice-reference": ("pages", 1), "rulebook": ("rulebook", 1)}
    dice = next(c for c in data["components"] if c["id"] == "dice")
    assert dice["dice"] == {"3P": 20, "IN": 20, "PE": 20, "IT": 20, "BL": 20, "ST": 20}
    assert any(line.startswith("20 parties à 2 joueurs") for line in data["play"])
    written = {Path(e["path"]).name for e in data["outputs"] if e.get("paper") == "letter" and not e.get("ink_saver")}
    assert written == {"players.pdf", "tactics.pdf", "fatigue.pdf", "court.pdf", "markets.pdf", "aid.pdf",
                       "score-sheet.pdf", "dice-nets.pdf", "dice-stickers.pdf", "dice-reference.pdf", "rulebook.pdf",
                       "players-pli.pdf", "tactics-pli.pdf", "fatigue-pli.pdf"}   # fold-over twins (pli/)
    # no pooled card file: 140 + 90 + 9 cards fill 16 + 10 + 1 sheets at 9 a page on both papers, 27 pooled too


def test_the_report_says_how_many_boards_and_aids_to_print(built):
    text = (built / "report.md").read_text()
    court = next(line for line in text.splitlines() if "pnp-a4/court.pdf" in line)
    aid = next(line for line in text.splitlines() if "pnp-a4/aid.pdf" in line)
    assert "2 exemplaires" in court                                       # the print guide, in French (issue 20)
    assert "2 exemplaires" in aid or "Aide de jeu (2 par feuille)" in aid  # an A5 aid may print 2-up
    assert "2 exemplaires" not in next(line for line in text.splitlines() if "pnp-a4/markets.pdf" in line)


def _back_words(path: Path) -> set[str]:
    """Words on the cards of the first back page (the header and footer bands, within 10 mm of the top
    and bottom edges, name the deck and the page)."""
    with pdfplumber.open(path) as pdf:
        page = pdf.pages[1]
        text = page.crop((0, 10 * MM, page.width, page.height - 10 * MM)).extract_text()
    return set(text.split())


def test_player_tactic_and_fatigue_cards_share_one_back(built):
    """They shuffle together in each personal deck: a back must not tell them apart."""
    backs = [_back_words(built / "pnp-a4" / f"{deck}.pdf") for deck in ("players", "tactics", "fatigue")]
    assert backs[0] and backs[0] == backs[1] == backs[2]


def _card_texts(path: Path, index: int) -> list[str]:
    """The text of each card of a page, in reading order of the sheet (cards found by pdfcheck)."""
    import pypdfium2 as pdfium

    cards = pdfcheck(path, "--expect-card", "63.5x88.9", "--paper", "a4")["report"]["pages"][index]["cards"]
    placed = sorted((c for c in cards["cards"] if c["occupied"]), key=lambda c: (-c["y_mm"], c["x_mm"]))
    pdf = pdfium.PdfDocument(path)
    try:
        text = pdf[index].get_textpage()
        return [text.get_text_bounded(c["x_mm"] * MM, c["y_mm"] * MM, (c["x_mm"] + c["w_mm"]) * MM,
                                      (c["y_mm"] + c["h_mm"]) * MM).replace("\r\n", "\n") for c in placed]
    finally:
        pdf.close()


def test_starting_cards_print_their_workbook_ratings_and_set_markers(built):
    """The first card of the sheet is the workbook's first players row; its eight ratings in print order."""
    import openpyxl

    sheet = openpyxl.load_workbook(built.parent.parent / "sheets" / "nba.xlsx", read_only=True)["players"]
    header, row = list(sheet.iter_rows(min_row=1, max_row=2, values_only=True))
    card = dict(zip(header, row))
    block = _card_texts(built / "pnp-a4" / "players.pdf", 0)[0].split("coût")[0].split("\n")
    assert block[:2] == [str(card["value"]), card["name"]] and "A · Initiation" in block[-1]
    rows = [line.split() for line in block[2:]]          # the ratings print as rows of numbers
    printed = [int(value) for row in rows if row and all(v.isdigit() for v in row) for value in row]
    assert printed == [card[code] for code in ("3P", "IN", "PE", "IT", "BL", "ST", "RB", "GI")]
    last = "".join(_card_texts(built / "pnp-a4" / "players.pdf", 30))   # the last front page (140 = 15 × 9 + 5)
    assert last and "Initiation" not in last and "Titulaire" not in last and "Remplaçant" not in last


def test_pdfcheck_passes_on_every_pdf(built):
    kinds = check_every_pdf(built)
    assert {("cards", "pnp"), ("board", "pnp"), ("pages", "pnp"), ("dice-nets", "pnp"), ("dice-stickers", "pnp"),
            ("rulebook", "pnp")} <= kinds


def test_the_239_cards_measure_poker_and_their_backs_mirror(built):
    total = 0
    for deck in ("players", "tactics", "fatigue"):
        pages = pdfcheck(built / "pnp-letter" / f"{deck}.pdf", "--expect-card", "63.5x88.9",
                         "--paper", "letter")["report"]["pages"]
        for front, back in zip(pages[0::2], pages[1::2]):
            fronts = [c for c in front["cards"]["cards"] if c["occupied"]]
            backs = [c for c in back["cards"]["cards"] if c["occupied"]]
            total += len(fronts)
            mirrored = sorted((215.9 - c["x_mm"] - c["w_mm"], c["y_mm"]) for c in fronts)     # Letter: 215.9 mm
            placed = sorted((c["x_mm"], c["y_mm"]) for c in backs)
            assert len(mirrored) == len(placed)
            assert all(abs(a - c) < 0.1 and abs(b - d) < 0.1 for (a, b), (c, d) in zip(mirrored, placed))
    assert total == 239


def test_validate_reports_the_durations_erratum_and_passes(tmp_path):
    root = copy_project(tmp_path)
    result = run_cli("validate", "nba", root=root)
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout + result.stderr
    assert re.search(r"durations › E\d+ \(source_pile_cards\): erratum \(AMB-01\)", out)
    assert not (root / "output").exists()


def test_simulate_writes_the_balance_report(tmp_path):
    root = copy_project(tmp_path)
    result = run_cli("simulate", "nba", "--games", "24", "--seed", "5", root=root)
    assert result.returncode == 0, result.stderr
    text = (root / "output" / "nba" / "simulation" / "report.md").read_text()
    first = next(line for line in text.splitlines() if line.startswith("| 1st | first to play |"))
    rate = float(first.split("|")[4])
    assert 0.0 <= rate <= 1.0
    for section in ("## How often: activated", "## How often: bought_player", "## How often: bought_tactic",
                    "## Nominal vs simulated"):
        assert section in text
    assert "| points:kentucky_offense/activated:kentucky_offense |" in text
    normal = next(line for line in text.splitlines() if line.startswith("| normal_turns |"))
    assert normal.split("|")[2].strip() == "24"          # 20 pile cards + 4, every game (AMB-01/03)
    assert (root / "output" / "nba" / "simulation" / "report.pdf").read_bytes().startswith(b"%PDF")



def test_the_rulebook_ends_with_this_editions_readings(built):
    with pdfplumber.open(built / "pnp-a4" / "rulebook.pdf") as pdf:
        text = " ".join(" ".join(reading_text(page) for page in pdf.pages[1:]).split())   # column by column
    heading = list(re.finditer(r"\d+\. Choix de cette édition", text))[-1]           # not the contents' line
    chapter = text[heading.start():]
    for phrase in ("éliminée : elle retourne dans la boîte", "L'autre façon de jouer", "ne sont limités que par les postes"):
        assert phrase in chapter, phrase
    # the workbook's names are the developer's: report.md lists them, the players' rulebook does not (issue 29)
    developer = (built / "report.md").read_text().split("## Données de développement")[1]
    for name in ("fatigue_removed_to", "dice_cap_scope", "negative_score", "end_rule", "durations"):
        assert name not in chapter and f"`{name}`" in developer, name
    assert "pnp simulate" not in chapter and "`pnp simulate nba`" in developer
