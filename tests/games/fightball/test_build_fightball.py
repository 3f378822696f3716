"""Fightball end to end, as a user runs it: `pnp build fightball` on a project copy, measured from the files;
`pnp validate fightball` and both forms of `pnp simulate` (a matchup, every matchup) through the CLI."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pdfplumber
import pytest

from tests.conftest import built_game, copy_project, run_cli
from tests.render.sheets.printcheck import check_every_pdf, pdfcheck

TEAMS = ("eclairs", "forges", "remparts", "mirages")
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    return built_game(tmp_path_factory, "fightball")


def test_every_component_is_built_with_its_count(built):
    data = json.loads((built / "report.json").read_text())
    counts = {c["id"]: (c["kind"], c["count"]) for c in data["components"]}
    assert counts == {**{f"deck-{t}": ("cards", 44) for t in TEAMS}, **{f"field-{t}": ("cards", 12) for t in TEAMS},
                      "field-mat": ("board", 1), "aid": ("pages", 2), "score-sheet": ("pages", 1),
                      "rulebook": ("rulebook", 1)}
    assert data["validation"]["errors"] == 0
    assert any(line.startswith("20 parties à 2 joueurs") and ": 20 terminées par les règles" in line
               for line in data["play"])


def test_pdfcheck_passes_on_every_pdf(built):
    kinds = check_every_pdf(built)
    assert {("cards", "pnp"), ("cards", "print"), ("board", "pnp"), ("board", "print"), ("pages", "pnp"),
            ("rulebook", "pnp")} <= kinds


@pytest.mark.parametrize("team", TEAMS)
def test_each_team_prints_on_its_own_poker_sheets_with_its_backs(built, team):
    """A team's 56 cards (its deck and its field cards: printed together, CardDeck.group) pooled at 9 an A4 page
    in a file of their own (7 duplex sheets), no other team's card on them; every back names the team, the team
    its front names (a field card's front is its colour alone): decks are sorted by their backs after a game."""
    path = built / "pnp-a4" / f"cartes-63.5x88.9-{team}.pdf"
    checked = pdfcheck(path, "--expect-card", "63.5x88.9", "--paper", "a4")
    pages = checked["report"]["pages"]
    assert len(pages) == 2 * 7
    names = {"eclairs": "ÉCLAIRS", "forges": "FORGES", "remparts": "REMPARTS", "mirages": "MIRAGES"}
    with pdfplumber.open(path) as pdf:
        total = 0
        for index in range(0, len(pages), 2):
            fronts = [c for c in pages[index]["cards"]["cards"] if c["occupied"]]
            total += len(fronts)
            for card in fronts:
                front = _words(pdf.pages[index], card["x_mm"], card)
                back = _words(pdf.pages[index + 1], 210 - card["x_mm"] - card["w_mm"], card)
                assert {t for t, word in names.items() if word in back.upper()} == {team}, back
                assert {t for t, word in names.items() if word in front.upper()} <= {team}, (front, back)
    assert total == 56


def _words(page, x_mm: float, card: dict) -> str:
    mm = 72 / 25.4
    top = (297 - card["y_mm"] - card["h_mm"]) * mm
    box = (x_mm * mm + 0.5, top + 0.5, (x_mm + card["w_mm"]) * mm - 0.5, top + card["h_mm"] * mm - 0.5)
    return " ".join(w["text"] for w in page.within_bbox(box).extract_words())


def test_the_field_mat_prints_whole_for_a_print_shop_and_tiled_at_home(built):
    data = json.loads((built / "report.json").read_text())
    mats = {(e["format"], e.get("paper")): e for e in data["outputs"] if e["component"] == "field-mat"}
    assert mats[("print", None)]["pages"] == 1
    assert mats[("pnp", "a4")]["pages"] > 1 and mats[("pnp", "letter")]["pages"] > 1
    with pdfplumber.open(built.parent.parent / mats[("print", None)]["path"]) as pdf:
        text = pdf.pages[0].extract_text()
    green = text.count("3 points") + text.count("stniop 3")      # the north half reads upside down
    assert "BUZZ" in text and green == 8


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    return copy_project(tmp_path_factory.mktemp("fightball-sim"))


def test_validate_is_clean(project):
    result = run_cli("validate", "fightball", "--strict", root=project)
    assert result.returncode == 0, result.stdout + result.stderr


def test_simulate_one_matchup(project):
    result = run_cli("simulate", "fightball", "--teams", "forges,mirages", "--games", "20", root=project)
    assert result.returncode == 0, result.stderr
    assert "20 finished by the rules" in result.stdout
    with open(project / "output" / "fightball" / "simulation" / "games.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 20
    assert {(r["team_north"], r["team_south"]) for r in rows} == {("forges", "mirages")}


def test_simulate_every_matchup_prints_the_matrix(project):
    result = run_cli("simulate", "fightball", "--matchups", "--games", "10", root=project)
    assert result.returncode == 0, result.stderr
    assert "12 pairings × 10 games" in result.stdout
    report = (project / "output" / "fightball" / "simulation" / "matchups" / "report.md").read_text()
    for team in TEAMS:
        assert re.search(rf"^\| {team} \|", report, re.M), team


def test_simulate_refuses_an_unknown_team_in_one_line(project):
    result = run_cli("simulate", "fightball", "--teams", "eclairs,lions", "--games", "5", root=project)
    assert result.returncode == 2
    lines = [line for line in (result.stdout + result.stderr).splitlines() if line.strip()]
    assert any("lions" in line and "remparts" in line for line in lines) and "Traceback" not in result.stderr
