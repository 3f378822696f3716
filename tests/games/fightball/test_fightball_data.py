"""Fightball's workbook (sheets/fightball.xlsx) and its stage-3/5 checks: the shipped data validates clean and
fits fightball.md (§1 counts, §3.3 ops, §6 guidance); every check, on a damaged copy, names the cell and rule
in one line."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType

import pytest

from pipeline.core.errors import Report
from pipeline.games.fightball import checks
from pipeline.games.fightball.schema import COLOURS
from tests.conftest import ROOT, validate_game
from tests.data import workbook_damage
from tests.data.workbook_damage import cell, find, lines, where

BOOK = "sheets/fightball.xlsx"
TEAMS = ("eclairs", "forges", "remparts", "mirages")


def damaged(project: Path, *changes, delete: tuple = ()) -> list[str]:
    return workbook_damage.damaged("fightball", project, BOOK, *changes, delete=delete)


def validate(root: Path) -> tuple[Report, dict | None]:
    """Stages 1–5 on the workbook under `root`."""
    return validate_game("fightball", root)


@pytest.fixture(scope="module")
def records():
    report, records = validate(ROOT)
    assert lines(report) == []
    return records


def team_rows(records, sheet: str, team: str) -> list:
    return [r for r in records[sheet] if r["team"] == team]


# --- the shipped data ------------------------------------------------------------------------------------

def test_four_teams_of_44_cards_and_the_seed_counts(records):
    assert [r["id"] for r in records["teams"]] == list(TEAMS)
    for team in records["teams"]:
        assert checks.deck(records, team) == {"players": 16, "shots": 10, "effects": 8, "balls": 9, "buzz": 1}
        assert {c: team[c] for c in checks.SEED_COUNTS} == checks.SEED_COUNTS
        assert len(team_rows(records, "players", team["id"])) == 8
        assert all(p["copies"] == 2 for p in team_rows(records, "players", team["id"]))
    emblems = {r["id"]: r["emblem"] for r in records["teams"]}
    assert emblems == {"eclairs": "eclair", "forges": "flamme", "remparts": "bouclier", "mirages": "spirale"}
    manifest = {r["component"]: r["count"] for r in records["components"]}
    assert manifest == {"team": 4, "player": 64, "shot": 40, "effect": 32, "ball": 36, "buzz": 4, "field": 48,
                        "player_aid": 2, "score_sheet": 1, "field_mat": 1}


def test_players_fit_the_guidance(records):
    names = [p["name"] for p in records["players"]]
    assert len(set(names)) == len(names) == 32
    for p in records["players"]:
        attack = [p[f"atk_{c}"] for c in COLOURS]
        assert all(2 <= v <= 7 for v in attack) and all(1 <= p[f"def_{c}"] <= 4 for c in COLOURS), p["id"]
        assert Counter(attack)[max(attack)] == 1 and Counter(attack)[min(attack)] == 1, p["id"]   # preferred, weak
        assert p["id"].startswith(p["team"] + "_")
    mean = {c: sum(p[f"atk_{c}"] for p in records["players"]) / 32 for c in COLOURS}
    assert mean["G"] < min(mean["B"], mean["R"])                              # green worth 3: slightly lower


def _mean(rows, column, weight="copies"):
    return sum(r[column] * r[weight] for r in rows) / sum(r[weight] for r in rows)


def test_team_profiles(records):
    """Typical play (mean attacker + matching ball + mean Shot card) per colour: each team's strength sits in
    10–13, its weakness below 10; the Remparts defend hardest."""
    typical = {}
    for team in TEAMS:
        players, shots = team_rows(records, "players", team), team_rows(records, "shots", team)
        typical[team] = {c: round(_mean(players, f"atk_{c}") + 2 + _mean(shots, f"shot_{c}"), 1) for c in COLOURS}
    assert typical["eclairs"]["G"] == max(typical["eclairs"].values()) and 12 <= typical["eclairs"]["G"] <= 13
    assert typical["eclairs"]["R"] < 10
    assert typical["forges"]["R"] == max(typical["forges"].values()) and 12 <= typical["forges"]["R"] <= 13
    assert typical["forges"]["G"] < 10
    assert all(9 <= v <= 11 for team in ("remparts", "mirages") for v in typical[team].values())
    defence = {t: _mean(team_rows(records, "players", t), "def_R") for t in TEAMS}
    assert defence["remparts"] >= 2.9 and all(defence[t] < 2.2 for t in TEAMS if t != "remparts")


def test_shot_cards_are_printed_in_their_best_colour(records):
    for shot in records["shots"]:
        values = {c: shot[f"shot_{c}"] for c in COLOURS}
        assert all(2 <= v <= 6 for v in values.values())
        assert checks.best_colours(values) == [shot["text_colour"]], shot["id"]


def test_effects_seed_three_and_the_vocabulary(records):
    ops = {}
    for row in records["effect_ops"]:
        ops.setdefault(row["effect"], []).append((row["op"], row["arg"], row["phase"]))
    by_name = {}
    for e in records["effects"]:
        by_name.setdefault(e["name"], set()).add(tuple(ops[e["id"]]))
        assert len(e["text"]) <= 140 and "**" in e["text"]
    assert by_name["Pyramide humaine"] == {(("ADD_POINTS", "5", "POINTS"),)}
    assert by_name["Tir double"] == {(("MULTIPLY_POINTS", "2", "POINTS"),)}
    assert by_name["Interception"] == {(("STEAL", None, "POINTS"),)}
    used = {op for rows in ops.values() for op, _, _ in rows}
    assert used == set(checks.OP_PHASES)                       # every op of §3.3 is on some card
    distinct = {t: len(team_rows(records, "effects", t)) for t in TEAMS}
    assert distinct["mirages"] == 8 == max(distinct.values())


def test_rules_and_summary(records):
    rules = {r["parameter"]: r["value"] for r in records["rules"]}
    assert rules["team_north"] == "eclairs" and rules["team_south"] == "remparts"
    assert rules["threshold"] == "10" and rules["quarters"] == "4"
    summary = checks.summary(records)
    assert len(summary) == 8
    assert summary[0] == ("Les Éclairs (eclairs): 44 cards (16 players, 10 shots, 8 effects, 9 balls, 1 BUZZ); "
                          "mean attack B 4.0 R 3.0 G 5.5; best play B 13 R 11 G 14 (threshold 10)")
    assert summary[1] == ("  effects of eclairs: Pyramide humaine ×1, Coup d'éclat ×1, Élan ×1, Lob en cloche ×3, "
                          "Feinte ×2")


# --- damaged copies, stage 3 -----------------------------------------------------------------------------

def test_unknown_teams_and_effects(project, records):
    lina = find(records, "players", "name", "Lina Vasseur")
    shot = find(records, "shots", "id", "forges_shot_1")
    effect = find(records, "effects", "id", "mirages_mirage")
    op = find(records, "effect_ops", "effect", "remparts_mur")
    assert damaged(project, ("players", cell(lina, "team"), "eclair"), ("shots", cell(shot, "team"), "forge"),
                   ("effects", cell(effect, "team"), "mirage"),
                   ("effect_ops", cell(op, "effect"), "remparts_murs")) == [
        f"{where(lina, 'team')}: no team 'eclair' in sheet teams (did you mean 'eclairs'?) [reference]",
        f"{where(shot, 'team')}: no team 'forge' in sheet teams (did you mean 'forges'?) [reference]",
        f"{where(effect, 'team')}: no team 'mirage' in sheet teams (did you mean 'mirages'?) [reference]",
        f"{where(op, 'effect')}: no effect 'remparts_murs' in sheet effects (did you mean 'remparts_mur'?) "
        "[reference]",
        f"{BOOK} › effects › A{find(records, 'effects', 'id', 'remparts_mur').ref.row} (id): effect remparts_mur "
        "has no operation in sheet effect_ops: the card would do nothing [effect]",
    ]


def test_effect_without_op(project, records):
    feinte = find(records, "effect_ops", "effect", "eclairs_feinte")
    effect = find(records, "effects", "id", "eclairs_feinte")
    assert damaged(project, ("effect_ops", cell(feinte, "effect"), "eclairs_elan"),
                   ("effect_ops", cell(feinte, "order"), 2)) == [
        f"{where(effect, 'id')}: effect eclairs_feinte has no operation in sheet effect_ops: the card would do "
        "nothing [effect]"]


def test_ops_in_the_wrong_phase(project, records):
    cancel = find(records, "effect_ops", "effect", "remparts_arbitrage")
    pyramid = find(records, "effect_ops", "effect", "eclairs_pyramide")
    elan = find(records, "effect_ops", "effect", "eclairs_elan")
    assert damaged(project, ("effect_ops", cell(cancel, "phase"), "TOTAL"),
                   ("effect_ops", cell(pyramid, "phase"), "TOTAL"), ("effect_ops", cell(elan, "phase"), "BOTH")) == [
        f"{where(pyramid, 'phase')}: ADD_POINTS acts in phase POINTS, not TOTAL (§3.3) [phase]",
        f"{where(elan, 'phase')}: ADD_TOTAL acts in phase TOTAL, not BOTH (§3.3) [phase]",
        f"{where(cancel, 'phase')}: CANCEL_EFFECTS_BELOW acts in phase BOTH, not TOTAL (§3.3) [phase]",
    ]


@pytest.mark.parametrize("effect, arg, message", [
    ("remparts_mur", "trois", "ADD_TOTAL needs a whole number, not 'trois'"),
    ("eclairs_pyramide", None, "ADD_POINTS needs a whole number"),
    ("forges_tir_double", "0", "MULTIPLY_POINTS 0: the number must be at least 1"),
    ("mirages_coup_eclat", "-1", "SET_POINTS -1: the number must be at least 0"),
    ("eclairs_lob", "V", "USE_COLOUR needs a colour B, R or G, not 'V'"),
    ("mirages_mirage", "vert", "MOVE_PLAY needs best or a colour B, R or G, not 'vert'"),
    ("forges_faute_provoquee", "1 défense", "FOUL needs '<points> attacking' or '<points> defending' "
                                            "(e.g. '1 attacking'), not '1 défense'"),
    ("remparts_contre_faute", "attacking", "FOUL needs '<points> attacking' or '<points> defending' "
                                           "(e.g. '1 attacking'), not 'attacking'"),
    ("forges_interception", "2", "STEAL takes no argument, not '2'"),
])
def test_bad_arguments(project, records, effect, arg, message):
    op = find(records, "effect_ops", "effect", effect)
    assert damaged(project, ("effect_ops", cell(op, "arg"), arg)) == [f"{where(op, 'arg')}: {message} [arg]"]


def test_arguments_the_ops_accept():
    for op, arg in (("ADD_TOTAL", "-3"), ("ADD_TOTAL", "+2"), ("MOVE_PLAY", "best"), ("MOVE_PLAY", "G"),
                    ("FOUL", "2 defending"), ("STEAL", None), ("CANCEL_EFFECTS_BELOW", " ")):
        assert checks.arg_problem(op, arg) is None, (op, arg)


def test_player_names_unique_across_teams(project, records):
    lina = find(records, "players", "name", "Lina Vasseur")
    hugo = find(records, "players", "name", "Hugo Marchal")
    assert damaged(project, ("players", cell(hugo, "name"), "Lina Vasseur")) == [
        f"{where(hugo, 'name')}: 'Lina Vasseur' also plays for eclairs (row {lina.ref.row}); player names are "
        "unique across teams [unique]"]


# --- damaged copies, stage 5 -----------------------------------------------------------------------------

def test_rulebook_counts_per_team(project, records):
    forges = find(records, "teams", "id", "forges")
    mirages = find(records, "teams", "id", "mirages")
    problems = damaged(project, ("teams", cell(forges, "balls_R"), 4), ("teams", cell(forges, "buzz"), 2),
                       ("teams", cell(mirages, "field_G"), 5), ("teams", cell(mirages, "field_B"), 4))
    assert problems == [
        f"{where(forges, 'balls_R')}: forges: balls_R is 4, the rulebook fixes 3 for every team (§1.1) [rulebook]",
        f"{where(forges, 'buzz')}: forges: buzz is 2, the rulebook fixes 1 for every team (§1.1) [rulebook]",
        f"{where(mirages, 'field_B')}: mirages: field_B is 4, the rulebook fixes 5 for every team (§1.1) [rulebook]",
        f"{where(mirages, 'field_G')}: mirages: field_G is 5, the rulebook fixes 4 for every team (§1.1) [rulebook]",
        f"{where(forges, 'id')}: team forges has a deck of 46 cards (16 players, 10 shots, 8 effects, 10 balls, "
        "2 buzz), the other teams 44 (this edition: 44, FB-A1) [deck]",
    ]


def test_deck_sizes_differ(project, records):
    noe = find(records, "players", "name", "Noé Carrel")
    hugo = find(records, "players", "name", "Hugo Marchal")
    eclairs, forges = find(records, "teams", "id", "eclairs"), find(records, "teams", "id", "forges")
    assert damaged(project, ("players", cell(noe, "copies"), 1), ("players", cell(hugo, "copies"), 3)) == [
        f"{where(eclairs, 'id')}: team eclairs has a deck of 43 cards (15 players, 10 shots, 8 effects, 9 balls, "
        "1 buzz), the other teams 44 (this edition: 44, FB-A1) [deck]",
        f"{where(forges, 'id')}: team forges has a deck of 45 cards (17 players, 10 shots, 8 effects, 9 balls, "
        "1 buzz), the other teams 44 (this edition: 44, FB-A1) [deck]",
    ]


def test_a_team_without_players(project, records):
    moved = [("players", cell(p, "team"), "mirages") for p in team_rows(records, "players", "remparts")]
    remparts = find(records, "teams", "id", "remparts")
    mirages = find(records, "teams", "id", "mirages")
    assert damaged(project, *moved) == [
        f"{where(remparts, 'id')}: team remparts has no player (sheet players): its deck cannot score [deck]",
        f"{where(remparts, 'id')}: team remparts has a deck of 28 cards (0 players, 10 shots, 8 effects, 9 balls, "
        "1 buzz), the other teams 44 (this edition: 44, FB-A1) [deck]",
        f"{where(mirages, 'id')}: team mirages has a deck of 60 cards (32 players, 10 shots, 8 effects, 9 balls, "
        "1 buzz), the other teams 44 (this edition: 44, FB-A1) [deck]",
    ]
    report, _ = validate(project)
    assert [p.severity.value for p in report.problems] == ["error", "warning", "warning"]


def test_shot_printed_in_the_wrong_colour(project, records):
    shot = find(records, "shots", "id", "eclairs_shot_1")
    assert damaged(project, ("shots", cell(shot, "text_colour"), "B")) == [
        f"{where(shot, 'text_colour')}: eclairs_shot_1 is printed B but is best on G (B 3/R 2/G 5) (FB-A12) [shot]"]
    report, records_back = validate(project)
    assert records_back is not None and not report.errors               # a warning only


def test_a_team_that_can_never_score_on_a_colour(project, records):
    forges = find(records, "teams", "id", "forges")
    changes = [("players", cell(p, "atk_G"), 2) for p in team_rows(records, "players", "forges")]
    assert damaged(project, *changes) == [
        f"{where(forges, 'id')}: team forges can never score on green: its best attack 2 + matching ball 2 + its "
        "best Shot card 5 = 9, below the threshold 10 [scoring]"]


def test_the_threshold_follows_the_rules_sheet(project, records):
    threshold = find(records, "rules", "parameter", "threshold")
    problems = damaged(project, ("rules", cell(threshold, "value"), 13))
    never = sorted(p.split(": ")[1].split(":")[0] for p in problems)
    assert never == ["team eclairs can never score on red", "team mirages can never score on green"]
    assert all(p.endswith("below the threshold 13 [scoring]") for p in problems)


def test_matchup_teams(project, records):
    north = find(records, "rules", "parameter", "team_north")
    south = find(records, "rules", "parameter", "team_south")
    assert damaged(project, ("rules", cell(north, "value"), "eclair")) == [
        f"{where(north, 'value')}: team_north: no team 'eclair' in sheet teams (did you mean 'eclairs'?) "
        "[reference]"]
    assert damaged(project, ("rules", cell(north, "value"), "remparts")) == [
        f"{where(south, 'value')}: team_south is remparts, the same team as team_north: a game matches two "
        "different decks [rules]"]


def test_checks_never_raise_on_blank_cells(records):
    """Called on rows stage 2 refused (blank cells read as None), the checks report what they can and return."""
    def blank(rec):
        return replace(rec, values=MappingProxyType({k: None if k != "id" else v for k, v in rec.values.items()}))
    hollow = {sheet: [blank(r) for r in rows[:2]] + list(rows[2:]) if sheet != "rules" else rows
              for sheet, rows in records.items()}
    report = Report()
    checks.check_rows(hollow, report)
    checks.check_rules(hollow, report)
    assert checks.summary(hollow) and report.errors              # e.g. the blanked players' teams lost their rows


def test_shipped_workbook_has_the_designer_comforts():
    """Written by pipeline/data/workbook.py: every header documented, every enum a dropdown, the header frozen."""
    import openpyxl

    from pipeline.data.workbook import column_note
    from pipeline.games.fightball import schema

    book = openpyxl.load_workbook(ROOT / BOOK)
    for spec in (schema.TEAMS, schema.PLAYERS, schema.SHOTS, schema.EFFECTS, schema.EFFECT_OPS):
        ws = book[spec.name]
        assert [c.value for c in ws[1]] == [c.name for c in spec.columns] and ws.freeze_panes == "A2"
        assert all(c.comment is not None and c.comment.text.endswith(column_note(col).splitlines()[-1])
                   for c, col in zip(ws[1], spec.columns)), spec.name
        lists = {str(dv.sqref)[0] for dv in ws.data_validations.dataValidation if dv.type == "list"}
        enums = {c.column_letter for c, col in zip(ws[1], spec.columns) if col.type == "enum"}
        assert lists == enums, spec.name
