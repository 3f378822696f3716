"""NBA Deck-Building's workbook (sheets/nba.xlsx) and its stage-3/5 checks: the shipped data is clean and fits
nba-deck-building.md (§1 counts, §2 dice, §7 data, the worked example); every check names the damaged cell and
its rule in one line."""

from __future__ import annotations

from collections import Counter
from itertools import permutations
from dataclasses import replace
from math import ceil
from pathlib import Path

import pytest

from pipeline.core.errors import Report
from pipeline.data.params import read_parameters
from pipeline.games import load_game
from pipeline.games.nba import checks
from pipeline.games.nba.checks import example as checks_example, rules as checks_rules
from pipeline.games.nba.engine.rules import normal_turns, offensive_rerolls, team_level
from pipeline.games.nba.schema import DICE, POSITIONS, RULE_PARAMETERS, SKILLS
from pipeline.validate import load_records
from tests.conftest import ROOT, edit_workbook

BOOK = "sheets/nba.xlsx"
ERRATUM = (f"{BOOK} › durations › E3 (source_pile_cards): erratum (AMB-01): the source rulebook prints 24 "
           "Player-pile cards for normal; the engine plays 20 (24 turns = 20 + 4) [erratum]")


def validate_nba(root: Path) -> tuple[Report, dict | None]:
    game = replace(load_game("nba", ROOT), data_files=(root / BOOK,))
    report = Report()
    return report, load_records(game, root, report)


def lines(report: Report) -> list[str]:
    return [str(p) for p in report.problems]


def shipped_records() -> dict:
    """The real workbook's records; it validates with the one expected erratum warning."""
    report, records = validate_nba(ROOT)
    assert lines(report) == [ERRATUM]
    return records


@pytest.fixture(scope="module")
def records():
    return shipped_records()


def find(records, sheet: str, name: str, set_: str | None = None):
    return next(r for r in records[sheet] if r["name"] == name and set_ in (None, r["set"]))


def cell(rec, column: str) -> str:
    """The spreadsheet cell (B7…) of a record's column."""
    ref = rec.at(column)
    return f"{ref.column}{ref.row}"


def where(rec, column: str) -> str:
    return str(rec.at(column))


def apply(project: Path, *changes) -> None:
    """Set (sheet, cell, value) changes on the scratch copy's workbook."""
    def change(wb):
        for sheet, ref, value in changes:
            wb[sheet][ref] = value
    edit_workbook(project / BOOK, change)


def damaged(project: Path, *changes) -> list[str]:
    """Apply the changes and validate the copy: its problems, one line each."""
    apply(project, *changes)
    report, _ = validate_nba(project)
    return lines(report)


def both_sets(records, name: str, column: str, value) -> list[tuple]:
    """The same change on the set-A and set-B copies of a starting card."""
    return [("players", cell(find(records, "players", name, s), column), value) for s in ("A", "B")]


# --- the shipped data ------------------------------------------------------------------------------------

def test_shipped_workbook_counts_and_manifest(records):
    assert {sheet: len(rows) for sheet, rows in records.items()} == {
        "skills": 8, "dice": 36, "players": 140, "tactics": 40, "fatigue": 1, "durations": 4,
        "rules": len(RULE_PARAMETERS), "balance": 5, "components": 10, "game": 1}
    assert {r["component"]: r["count"] for r in records["components"]} == {
        "player_cards": 140, "tactic_cards": 90, "fatigue_cards": 9, "dice_per_player": 60, "court_board": 2,
        "markets_board": 1, "dice": 120, "player_aid": 2, "score_sheet": 1, "rulebook": 1}
    assert sum(r["copies"] for r in records["tactics"]) == 90
    assert sum(r["dice_per_player"] for r in records["skills"]) == 60
    assert [r["id"] for r in records["skills"]] == list(SKILLS)
    letters = {r["id"]: r["letter"] for r in records["skills"]}
    assert (letters["3P"], letters["IN"], letters["PE"]) == ("B", "J", "R")
    assert len({r["colour"].upper() for r in records["skills"]}) == 8
    assert len({r["letter"] for r in records["skills"]}) == 8


def test_dice_01_faces_and_sums(records):
    faces = {d: [r["value"] for r in sorted((r for r in records["dice"] if r["die"] == d),
                                            key=lambda r: r["face"])] for d in DICE}
    assert faces == {"3P": [0, 0, 0, 2, 6, 9], "IN": [0, 0, 2, 4, 6, 7], "PE": [0, 2, 3, 4, 6, 6],
                     "IT": [0, 1, 2, 1, 2, 4], "BL": [0, 2, 2, 1, 2, 3], "ST": [0, 2, 3, 3, 1, 1]}
    assert {d: sum(v) for d, v in faces.items()} == {"3P": 17, "IN": 19, "PE": 21, "IT": 10, "BL": 10, "ST": 10}


def test_dice_02_observed_faces_and_grey_most_red(records):
    letter = {"blue": "B", "yellow": "Y", "red": "R"}
    present = {f"{r['die']}:{r['value']}{letter[r['colour']]}" for r in records["dice"] if r["colour"]}
    assert set(checks_rules.OBSERVED_FACES) <= present
    reds = Counter(r["die"] for r in records["dice"] if r["colour"] == "red")
    assert reds["BL"] > max(reds["IT"], reds["ST"])
    # the §2.2 proposal: value against each colour (B/Y/R) per defensive die
    against = {(r["die"], r["colour"]): 0 for r in records["dice"] if r["colour"]}
    for r in records["dice"]:
        if r["colour"]:
            against[r["die"], r["colour"]] += r["value"]
    assert [against.get((d, c), 0) for d in ("IT", "BL", "ST") for c in ("blue", "yellow", "red")] == \
        [5, 1, 4, 2, 2, 6, 3, 6, 1]
    status = Counter(r["status"] for r in records["dice"])
    assert status == {"seed": 21, "observed": 6, "forced": 3, "proposed": 6}


def test_worked_example_lineups_from_the_rows(records):
    cards = {r["name"]: r for r in records["players"] if r["set"] in ("A", "NBA")}
    figures = {name: {s: team_level(checks_example.lineup(cards, name), s) for s in SKILLS}
               for name in ("S", "So", "F2")}
    assert figures["S"] == {"GI": 6, "3P": 3, "IN": 5, "PE": 3, "IT": 3, "BL": 2, "ST": 2, "RB": 4}
    assert {s: figures["So"][s] for s in ("GI", "IN", "IT", "BL", "ST", "RB")} == \
        {"GI": 4, "IN": 4, "IT": 3, "BL": 1, "ST": 1, "RB": 3}
    assert {s: figures["F2"][s] for s in ("GI", "3P", "BL", "ST", "RB")} == \
        {"GI": 5, "3P": 4, "BL": 2, "ST": 1, "RB": 5}
    assert [r["name"] for r in checks_example.lineup(cards, "F2")] == [
        "Titulaire MJ 1", "Kyle Korver", "Titulaire Ai 1", "Remplaçant AF 1", "Titulaire P 1"]
    korver = cards["Kyle Korver"]
    assert (korver["cost"], korver["value"], korver["positions"]) == (3, 2, "Ar")
    assert [korver[s] for s in SKILLS] == [3, 0, 0, 1, 0, 0, 1, 1]
    # the rerolls of the example follow: T1 4 v 4 → 0; Sophie T1 3 v 4 → 0; Fred T2 5 v 3 → 1 (REROLL-01)
    rb = {name: figures[name]["RB"] for name in figures}
    assert [offensive_rerolls(rb["S"], rb["S"]), offensive_rerolls(rb["So"], rb["S"]),
            offensive_rerolls(rb["F2"], rb["So"])] == [0, 0, 1]


def test_starting_sets(records):
    for set_ in ("A", "B"):
        cards = [r for r in records["players"] if r["set"] == set_]
        assert Counter((r["kind"], r["positions"]) for r in cards) == {
            (k, p): 2 for k in ("starter", "substitute") for p in POSITIONS}
        assert sorted(r["name"] for r in cards if r["initiation"] and r["kind"] == "substitute") == sorted(
            f"Remplaçant {p}" for p in ("MJ 1", "Ar 1", "Ar 2", "Ai 1", "AF 1", "AF 2", "P 1"))
        assert all(r["value"] == (2 if r["kind"] == "starter" else 1) and r["cost"] is None for r in cards)
        base = [r for r in records["tactics"] if r["set"] == set_]
        assert Counter((r["type"], r["initiation"]) for r in base) == {
            ("offence", True): 3, ("offence", False): 2, ("defence", True): 2, ("defence", False): 3}
        assert all(r["value"] == 1 and r["cost"] is None and r["copies"] == 1 for r in base)
    assert find(records, "players", "Titulaire MJ 1", "A")["id"] == "a_starter_mj_1"
    assert find(records, "players", "Remplaçant AF 2", "B")["id"] == "b_substitute_af_2"
    assert find(records, "tactics", "Base Defense Trap", "A")["alias"] == "Base Defensive Trap"


def test_nba_cards_follow_the_authoring_guidance(records):
    nba = [r for r in records["players"] if r["set"] == "NBA"]
    assert len(nba) == len({r["name"] for r in nba}) == 100
    assert all(len(r["name"]) <= 26 for r in records["players"])
    assert Counter(r["cost"] for r in nba) == {2: 15, 3: 15, 4: 15, 5: 15, 6: 12, 7: 10, 8: 8, 9: 6, 10: 4}
    assert all(r["value"] == ceil(r["cost"] / 2) for r in nba)
    assert all(abs(r["cost"] - checks_rules.curve_cost(r)) <= 1 for r in nba)
    primary = Counter(r["positions"].split("/")[0] for r in nba)
    assert all(17 <= primary[p] <= 23 for p in POSITIONS)
    pairs = Counter(r["positions"] for r in nba if "/" in r["positions"])
    assert 25 <= sum(pairs.values()) <= 35
    neighbours = {frozenset(POSITIONS[i:i + 2]) for i in range(4)}
    assert all(frozenset(p.split("/")) in neighbours for p in pairs)
    legendary = [r for r in nba if r["legendary"]]
    assert 1 <= len(legendary) <= 5 and all(max(r[s] for s in SKILLS) == 4 for r in legendary)
    assert all(max(r[s] for s in SKILLS) <= 3 for r in nba if not r["legendary"])


def test_nba_stats_feel_like_the_players(records):
    nba = {r["name"]: r for r in records["players"] if r["set"] == "NBA"}

    def top(skill):
        return max(r[skill] for r in nba.values())

    assert nba["Stephen Curry"]["3P"] == top("3P") and nba["Shaquille O'Neal"]["IN"] == top("IN")
    assert nba["Shaquille O'Neal"]["BL"] >= 3 and nba["Shaquille O'Neal"]["RB"] >= 3
    assert nba["Rudy Gobert"]["BL"] == 3 and nba["Rudy Gobert"]["RB"] == 3
    assert nba["Chris Paul"]["GI"] == 3 and nba["Chris Paul"]["IT"] == 3
    assert nba["Magic Johnson"]["GI"] == top("GI") and nba["Michael Jordan"]["PE"] == top("PE")
    assert nba["Kris Humphries"]["cost"] == 3 and nba["Kris Humphries"]["positions"] == "AF/P"
    assert nba["Danny Ainge"]["cost"] == 4 and "Ar" in nba["Danny Ainge"]["positions"]
    # §7.4: typical teams rebound 3–9: the median five (middle card of each position) stays in that range
    fives = []
    for p in POSITIONS:
        cards = sorted((r for r in nba.values() if r["positions"].split("/")[0] == p), key=lambda r: r["RB"])
        fives.append(cards[len(cards) // 2])
    assert 3 <= team_level(fives, "RB") <= 9


def test_tactics_tiers_and_anchors(records):
    market = [r for r in records["tactics"] if r["set"] == "market"]
    assert len(market) == 20 and sum(r["copies"] for r in market) == 70
    tiers = Counter((r["type"], r["copies"], sum(checks.keeps(r).values()), r["value"]) for r in market)
    assert tiers == {("offence", 4, 3, 1): 5, ("defence", 4, 3, 1): 5, ("offence", 3, 4, 2): 3,
                     ("defence", 3, 4, 2): 3, ("offence", 3, 5, 3): 2, ("defence", 3, 5, 3): 2}
    assert sum(r["cost"] == 8 for r in market) >= 2
    by_name = {r["name"]: r for r in market}
    assert (by_name["Kentucky Offense"]["complexity"], by_name["Kentucky Offense"]["cost"]) == (5, 2)
    assert checks.keeps(by_name["Michigan Defense"]) == {"BL": 2, "ST": 1}
    assert by_name["Virginia Offense"]["complexity"] == 7 and by_name["Houston Defense"]["complexity"] == 5
    players = [r for r in records["players"] if r["set"] in ("A", "NBA")]
    best, five = checks_rules.best_collective(players)
    assert best >= max(r["complexity"] for r in records["tactics"])
    assert len({id(r) for r in five}) == 5 and best == sum(r["GI"] for r in five)
    assert any(all(slot in r["positions"].split("/") for slot, r in zip(order, five))
               for order in permutations(POSITIONS))            # one card per position slot
    # ACT-01: at collective 6, Virginia (cx 7) cannot be activated; Kentucky, Houston and Michigan can
    assert [by_name[n]["complexity"] <= 6 for n in ("Virginia Offense", "Kentucky Offense", "Houston Defense",
                                                      "Michigan Defense")] == [False, True, True, True]


def test_best_collective_is_a_legal_five(records):
    a = {r["name"]: r for r in records["players"] if r["set"] == "A"}
    starters = [a[f"Titulaire {p} 1"] for p in POSITIONS]
    assert checks_rules.best_collective(starters)[0] == 6
    assert checks_rules.best_collective(starters[:4])[0] == 0          # no P: no legal five
    assert checks_rules.best_collective(starters + [a["Titulaire MJ 2"]])[0] == 6   # one card per slot


def test_durations_and_rules(records):
    rows = {r["length"]: r for r in records["durations"]}
    assert {k: (r["turns_per_player"], r["pile_cards"]) for k, r in rows.items()} == {
        "short": (8, 12), "normal": (12, 20), "long": (18, 32), "epic": (24, 44)}
    assert all(2 * r["turns_per_player"] == normal_turns(r["pile_cards"]) for r in rows.values())
    assert rows["normal"]["source_pile_cards"] == 24 and rows["epic"]["label"] == "Épique"
    report = Report()
    params = read_parameters(records["rules"], RULE_PARAMETERS, report).values
    assert report.problems == []
    assert (params["length"], params["end_rule"], params["dice_cap"], params["reroll_divisor"]) == \
        ("normal", "countdown6", 10, 3)
    assert (params["cost_window_min"], params["cost_window_max"], params["cost_window_required"]) == (3, 5, 4)
    assert params["overtime_enabled"] is True and params["variant_draft"] is False
    assert all(r["description"] == p.doc for r, p in zip(records["rules"], RULE_PARAMETERS))
    fatigue = records["fatigue"][0]
    assert (fatigue["name"], fatigue["copies"]) == ("Fatigue", 9) and "élimin" in fatigue["text"]


def test_summary_lines(records):
    summary = checks_rules.summary(records)
    assert summary[0] == ("Player cards: 140 (set A 20, set B 20, NBA 100); Tactic cards: 90 (20 base, 20 "
                          "market models = 70 cards); Fatigue cards: 9")
    assert summary[1] == ("NBA cost curve (cost:cards): 2:15, 3:15, 4:15, 5:15, 6:12, 7:10, 8:8, 9:6, 10:4; "
                          "45 cost 3–5; 4 legendary, 0 clutch")
    assert summary[4] == "status of dice (Appendix B 9): seed 21, observed 6, forced 3, proposed 6"
    assert summary[5].startswith("status of players (Appendix B 9): inferred 16, proposed 124")
