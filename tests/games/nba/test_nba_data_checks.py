"""NBA Deck-Building's stage-3/5 checks on damaged copies of sheets/nba.xlsx: every check fires with the exact
cell (sheet, row, column letter) and rule; several problems come out of one run."""

from __future__ import annotations

import pytest

from pipeline.core.errors import Report
import pipeline.games.nba as nba
from pipeline.games.nba.checks import rules as checks_rules
from tests.conftest import edit_workbook, run_cli
from tests.games.nba.test_nba_data import (BOOK, ERRATUM, apply, both_sets, cell, damaged, find, lines, shipped_records,
                                           validate_nba, where)


@pytest.fixture(scope="module")
def records():
    return shipped_records()


# --- damaged copies, stage 3: one located line per problem ----------------------------------------------

def test_position_rating_and_value(project, records):
    curry = find(records, "players", "Stephen Curry")
    gobert = find(records, "players", "Rudy Gobert")
    jordan = find(records, "players", "Michael Jordan")
    assert damaged(project, ("players", cell(curry, "positions"), "MJ/SG"),
                   ("players", cell(gobert, "BL"), 4), ("players", cell(jordan, "PE"), 5),
                   ("players", cell(gobert, "value"), 0)) == [
        f"{where(jordan, 'PE')}: PE 5 is above 4 (the most a legendary card may have; §7.4) [rating]",
        f"{where(curry, 'positions')}: 'SG' is not a position code (MJ, Ar, Ai, AF, P) (did you mean 'P'?) "
        "[position]",
        f"{where(gobert, 'BL')}: BL 4 is above 3 (ratings go 0–3; set legendary to yes for a 4; §7.4) [rating]",
        f"{where(gobert, 'value')}: value 0: a Player card is worth at least 1 [value]"]


def test_costs_by_kind(project, records):
    tyus = find(records, "players", "Tyus Jones")
    kerr = find(records, "players", "Steve Kerr")
    kentucky = find(records, "tactics", "Kentucky Offense")
    switch = find(records, "tactics", "Base Defense Switch", "A")
    changes = [("players", cell(tyus, "cost"), None), ("players", cell(kerr, "cost"), 11),
               ("tactics", cell(kentucky, "cost"), None), *both_sets(records, "Titulaire P 2", "cost", 3)]
    changes += [("tactics", cell(find(records, "tactics", "Base Defense Switch", s), "cost"), 2) for s in "AB"]
    problems = damaged(project, *changes)
    assert f"{where(tyus, 'cost')}: Tyus Jones has no cost: NBA cards cost 2–10 [cost]" in problems
    assert (f"{where(kerr, 'cost')}: cost 11 is outside 2–10 (§7.4; nothing can cost 1: Sophie could buy nothing "
            "with value 1) [cost]") in problems
    assert f"{where(kentucky, 'cost')}: Kentucky Offense is sold in the market: it needs a cost [cost]" in problems
    p2 = find(records, "players", "Titulaire P 2", "A")
    assert (f"{where(p2, 'cost')}: Titulaire P 2 is a starting card: it is never bought, leave cost empty "
            "[cost]") in problems
    assert (f"{where(switch, 'cost')}: Base Defense Switch is a base tactic: it is never bought, leave cost empty "
            "[cost]") in problems
    assert len(problems) == 7 and all(p.endswith("[cost]") for p in problems)


def test_starter_and_substitute_values(project, records):
    changes = both_sets(records, "Titulaire Ar 2", "value", 3) + both_sets(records, "Remplaçant P 2", "value", 2)
    t_a, r_b = find(records, "players", "Titulaire Ar 2", "A"), find(records, "players", "Remplaçant P 2", "B")
    problems = damaged(project, *changes)
    assert problems[0] == f"{where(t_a, 'value')}: a Starter is worth 2 (§1.2), not 3 [value]"
    assert problems[3] == f"{where(r_b, 'value')}: a Substitute is worth 1 (§1.2), not 2 [value]"
    assert len(problems) == 4


def test_sets_differ_only_by_their_marker(project, records):
    a, b = find(records, "players", "Titulaire Ai 2", "A"), find(records, "players", "Titulaire Ai 2", "B")
    trap_a, trap_b = (find(records, "tactics", "Base Defense Trap", s) for s in "AB")
    assert cell(b, "3P") == "I29" and cell(trap_b, "keep_BL") == "M18"
    assert damaged(project, ("players", cell(b, "3P"), 2), ("tactics", cell(trap_b, "keep_BL"), 2),
                   ("tactics", cell(trap_a, "name"), "Base Defense Trapp")) == [
        f"{BOOK} › players › I29 (3P): Titulaire Ai 2: 3P is 2 in set B but 1 in set A (row {a.ref.row}); the "
        "sets differ only by their marker [sets]",
        f"{BOOK} › tactics › B18 (name): 'Base Defense Trap' is in set B but not in set A; the two starting sets "
        "are identical apart from the set [sets]",
        f"{where(trap_a, 'name')}: 'Base Defense Trapp' is in set A but not in set B; the two starting sets are "
        "identical apart from the set [sets]"]


def test_set_composition_and_initiation(project, records):
    changes = both_sets(records, "Titulaire MJ 2", "positions", "Ar") + \
        both_sets(records, "Remplaçant MJ 2", "initiation", "yes")
    for set_ in "AB":                          # Fast Break made a defence (keeping defence dice)
        fast_break = find(records, "tactics", "Base Offense Fast Break", set_)
        changes += [("tactics", cell(fast_break, column), value) for column, value in
                    (("type", "defence"), ("keep_PE", 0), ("keep_3P", 0), ("keep_IT", 1), ("keep_ST", 1))]
    problems = damaged(project, *changes)
    players, tactics = f"{BOOK} › players", f"{BOOK} › tactics"
    assert problems == [
        f"{players}: set A has 10 Starters (MJ 1, Ar 3); a set has 2 per position, 10 in all [sets]",
        f"{players}: set A: 8 initiation Substitutes (rows 12, 13, 14, 15, 16, 18, 19, 20); the initiation set "
        "has 7 [initiation]",
        f"{tactics}: set A has 4 offence base tactics; a set has 5 [sets]",
        f"{tactics}: set A has 6 defence base tactics; a set has 5 [sets]",
        f"{players}: set B has 10 Starters (MJ 1, Ar 3); a set has 2 per position, 10 in all [sets]",
        f"{players}: set B: 8 initiation Substitutes (rows 32, 33, 34, 35, 36, 38, 39, 40); the initiation set "
        "has 7 [initiation]",
        f"{tactics}: set B has 4 offence base tactics; a set has 5 [sets]",
        f"{tactics}: set B has 6 defence base tactics; a set has 5 [sets]"]


def test_initiation_starters_one_per_position(project, records):
    changes = both_sets(records, "Titulaire P 1", "initiation", "no") + \
        both_sets(records, "Titulaire P 2", "initiation", "yes") + \
        both_sets(records, "Titulaire MJ 2", "initiation", "yes") + \
        both_sets(records, "Titulaire MJ 1", "initiation", "no")
    assert damaged(project, *changes) == [ERRATUM]
    changes = both_sets(records, "Titulaire P 2", "initiation", "no") + \
        both_sets(records, "Titulaire MJ 1", "initiation", "yes")          # now MJ 1 and MJ 2, no P
    assert damaged(project, *changes) == [
        f"{BOOK} › players: set A: the initiation Starters cover AF/Ai/Ar/MJ/MJ; they start on court, one per "
        "position [initiation]",
        f"{BOOK} › players: set B: the initiation Starters cover AF/Ai/Ar/MJ/MJ; they start on court, one per "
        "position [initiation]"]


def test_unique_names(project, records):
    kerr = find(records, "players", "Steve Kerr")
    duke = find(records, "tactics", "Duke Offense")
    problems = damaged(project, ("players", cell(kerr, "name"), "Kyle Korver"),
                       ("tactics", cell(duke, "name"), "Kentucky Offense"))
    korver, kentucky = find(records, "players", "Kyle Korver"), find(records, "tactics", "Kentucky Offense")
    assert problems == [
        f"{where(kerr, 'set')}: duplicate set/name 'NBA, Kyle Korver' (first at row {korver.ref.row}) [unique]",
        f"{where(duke, 'set')}: duplicate set/name 'market, Kentucky Offense' (first at row {kentucky.ref.row}) "
        "[unique]"]


def test_keeps_match_the_tactic_type(project, records):
    ucla, texas = find(records, "tactics", "UCLA Offense"), find(records, "tactics", "Texas Defense")
    assert damaged(project, ("tactics", cell(ucla, "keep_PE"), 0), ("tactics", cell(texas, "keep_IN"), 1)) == [
        f"{where(ucla, 'keep_3P')}: UCLA Offense keeps no die: give at least one keep_ column a count [keep]",
        f"{where(texas, 'keep_IN')}: defence tactics keep only IT, BL, ST dice, not IN (Appendix B 8) [keep]"]


def test_dice_faces_and_colours(project, records):
    dice = {(r["die"], r["face"]): r for r in records["dice"]}
    assert cell(dice["PE", 6], "colour") == "D19" and cell(dice["IT", 1], "colour") == "D20"
    apply(project, ("dice", "D19", "red"),      # an offensive face with a colour
          ("dice", "D20", "blue"),                # a blank defensive face with a colour
          ("dice", "D37", None))                  # ST face 6 (1) without colour
    # IN face 2 renumbered 5: stage 3 finds face 5 twice and stops there
    assert damaged(project, ("dice", "B9", 5)) == [
        f"{BOOK} › dice › A12 (die): duplicate die/face 'IN, 5' (first at row 9) [unique]"]
    apply(project, ("dice", "B9", 2))
    edit_workbook(project / BOOK, lambda wb: wb["dice"].delete_rows(9))     # IN face 2 gone: rows move up
    report, _ = validate_nba(project)
    assert lines(report) == [
        f"{BOOK} › dice › D18 (colour): PE is an offensive die: its faces have no colour (got red) [dice]",
        f"{BOOK} › dice › D19 (colour): IT face 1 is blank (0): a blank face has no colour (got blue; AMB-09) "
        "[dice]",
        f"{BOOK} › dice › D36 (colour): ST face 6 shows 1: a defensive face needs the colour (blue, yellow, red) "
        "of the die it cancels [dice]",
        f"{BOOK} › dice › B8 (face): die IN has no face 2: every die has faces 1–6 [dice]"]


def test_skills_sheet_needs_the_eight_codes(project):
    def change(wb):
        wb["skills"].delete_rows(9)            # GI (no dice: the manifest's 60 still holds)
        wb["skills"]["C3"] = "defence"         # IN
    edit_workbook(project / BOOK, change)
    report, _ = validate_nba(project)
    assert lines(report) == [
        f"{BOOK} › skills: no row for skill GI: the sheet lists the eight ratings 3P, IN, PE, IT, BL, ST, RB, GI "
        "[skills]",
        f"{BOOK} › skills › C3 (kind): IN is of kind offence, not defence [skills]"]


# --- damaged copies, stage 5 -----------------------------------------------------------------------------

def test_dice_02_face_lost_and_grey_not_most_red(project, records):
    dice = {(r["die"], r["face"]): r for r in records["dice"]}
    assert damaged(project, ("dice", cell(dice["IT", 3], "colour"), "yellow"),
                   ("dice", cell(dice["IT", 5], "colour"), "yellow")) == [
        f"{BOOK} › dice › D20 (colour): IT:2B (a blue 2 on the beige IT die, seen in the worked example) is on "
        "none of its faces (rows 20, 21, 22, 23, 24, 25; DICE-02) [dice]", ERRATUM]


def test_grey_must_be_most_likely_red(project, records):
    dice = {(r["die"], r["face"]): r for r in records["dice"]}
    assert damaged(project, ("dice", cell(dice["BL", 2], "colour"), "blue"),
                   ("dice", cell(dice["ST", 6], "colour"), "red")) == [
        f"{BOOK} › dice › D26 (colour): the grey BL die has 2 red faces (rows 26, 27, 28, 29, 30, 31), no more "
        "than brown ST 2: the rulebook says grey dice are the most likely to give red (DICE-02) [dice]", ERRATUM]


def test_dice_value_off_the_seed_table_is_a_warning(project):
    assert damaged(project, ("dice", "C7", 8)) == [
        f"{BOOK} › dice › C7 (value): 3P face 6 is 8; the rulebook's table gives 9 (§2.1, DICE-01) [dice]",
        ERRATUM]


def test_cost_curve_outliers_are_warnings(project, records):
    tyus = find(records, "players", "Tyus Jones")
    report_lines = damaged(project, ("players", cell(tyus, "cost"), 6))
    assert report_lines == [
        f"{where(tyus, 'cost')}: Tyus Jones costs 6 for a budget B = 6 (Σ7 skills + 2·GI); the curve gives "
        "clamp(B − 4, 2, 10) = 2 (±2, §7.4) [cost_curve]",
        f"{where(tyus, 'value')}: Tyus Jones is worth 1 at cost 6; the curve gives ceil(cost / 2) = 3 (±1, §7.4) "
        "[cost_curve]",
        ERRATUM]


def test_market_setup_rule(project, records):
    rows = {r["parameter"]: r for r in records["rules"]}
    assert damaged(project, ("rules", cell(rows["cost_window_min"], "value"), 9),
                   ("rules", cell(rows["cost_window_max"], "value"), 10),
                   ("rules", cell(rows["cost_window_required"], "value"), 11)) == [
        f"{where(rows['cost_window_required'], 'value')}: setup needs 11 cards costing 9–10 in the Player pile, "
        "but only 10 NBA cards do (AMB-06) [market]", ERRATUM]


def test_pile_needs_enough_nba_cards(records):
    named = ("Kyle Korver", "Kris Humphries", "Danny Ainge")
    kept = [r for r in records["players"] if r["set"] != "NBA" or r["cost"] == 2 or r["name"] in named]
    report = Report()
    checks_rules.check_rules(dict(records, players=kept), report)
    length = next(r for r in records["rules"] if r["parameter"] == "length")
    assert (f"{where(length, 'value')}: a normal game draws 20 NBA cards (durations row 3), but there are only 18 "
            "[market]") in lines(report)


def test_unreachable_complexity(project, records):
    florida = find(records, "tactics", "Florida Defense")
    problems = damaged(project, ("tactics", cell(florida, "complexity"), 16))
    assert len(problems) == 2 and problems[1] == ERRATUM
    assert problems[0].startswith(f"{where(florida, 'complexity')}: Florida Defense: complexity 16 is above the "
                                  "best collective a legal five can reach, 15 (")
    assert problems[0].endswith(") [complexity]")


def test_durations(project):
    assert damaged(project, ("durations", "D2", 13), ("durations", "C4", 17)) == [
        f"{BOOK} › durations › D2 (pile_cards): short: a pile of 13 cards plays an odd number of turns (17); the "
        "pile must be even (AMB-03) [durations]",
        f"{BOOK} › durations › E3 (source_pile_cards): erratum (AMB-01): the source rulebook prints 24 "
        "Player-pile cards for normal; the engine plays 20 (24 turns = 20 + 4) [erratum]",
        f"{BOOK} › durations › C4 (turns_per_player): long: 17 turns per player make 34, but a pile of 32 cards "
        "plays 32 − 1 + 6 − 1 = 36 normal turns (countdown rule, AMB-03) [durations]"]


def test_length_must_name_a_durations_row(project):
    def change(wb):
        wb["durations"].delete_rows(5)         # epic
        wb["rules"]["B2"] = "epic"
    edit_workbook(project / BOOK, change)
    report, _ = validate_nba(project)
    assert lines(report) == [ERRATUM, f"{BOOK} › rules › B2 (value): no row 'epic' in sheet durations [rules]"]


def test_variant_parameters(project, records):
    rows = {r["parameter"]: r for r in records["rules"]}
    value = {name: cell(rows[name], "value") for name in rows}
    assert damaged(project, ("rules", value["team_min_substitutes"], 10),
                   *(("rules", value[name], 5) for name in ("draft_mini_market", "draft_common", "draft_box"))) == [
        ERRATUM,
        f"{where(rows['team_deck_size'], 'value')}: Expert 1: 10 Substitutes + 3 base tactics at least do not fit a "
        "12-card deck [rules]",
        f"{where(rows['draft_rounds'], 'value')}: Expert 2: 5 rounds × 2 players × 15 cards = 150, more than the "
        "100 NBA cards [rules]"]


def test_worked_example_collective(project, records):
    changes = both_sets(records, "Titulaire MJ 1", "GI", 1)
    mj1 = find(records, "players", "Titulaire MJ 1", "A")
    ar2 = find(records, "players", "Remplaçant Ar 2", "A")
    korver, ai1 = find(records, "players", "Kyle Korver"), find(records, "players", "Titulaire Ai 1", "A")
    assert cell(mj1, "GI") == "P2"
    problems = damaged(project, *changes)
    assert [p.split(": ")[0] for p in problems] == [f"{BOOK} › durations › E3 (source_pile_cards)",
                                                   where(mj1, "GI"), where(ar2, "GI"), where(korver, "GI"),
                                                   where(ai1, "GI")]
    assert problems[1] == (f"{BOOK} › players › P2 (GI): the initiation five S has GI 5; the worked example needs 6 "
                           "(§7.2: Titulaire MJ 1 (row 2), Titulaire Ar 1 (row 3), Titulaire Ai 1 (row 4), "
                           "Titulaire AF 1 (row 5), Titulaire P 1 (row 6)) [worked_example]")
    assert problems[4] == (f"{where(ai1, 'GI')}: no Titulaire among Ar 1, Ai 1, AF 1 brought back into Sophie's "
                           "five raises its collective to 5 (§7.2) [worked_example]")


def test_worked_example_duels_and_named_cards(project, records):
    af1 = find(records, "players", "Remplaçant AF 1", "A")
    korver = find(records, "players", "Kyle Korver")
    ainge = find(records, "players", "Danny Ainge")
    changes = both_sets(records, "Remplaçant AF 1", "ST", 0) + [
        ("players", cell(korver, "3P"), 1), ("players", cell(ainge, "cost"), 5)]
    problems = [p for p in damaged(project, *changes) if p != ERRATUM]
    assert problems == [
        f"{BOOK} › players › N15 (ST): Sophie's five So (turn 1 on) has ST 0; the worked example needs 1 (§7.2: "
        "Titulaire MJ 1 (row 2), Remplaçant Ar 2 (row 15), Remplaçant Ai 1 (row 16), Remplaçant AF 1 (row 18), "
        "Titulaire P 1 (row 6)) [worked_example]",
        f"{where(korver, '3P')}: Fred's five F2 (turn 2) has 3P 2; the worked example needs 4 (§7.2: Titulaire MJ 1 "
        f"(row 2), Kyle Korver (row {korver.ref.row}), Titulaire Ai 1 (row 4), Remplaçant AF 1 (row 18), "
        "Titulaire P 1 (row 6)) [worked_example]",
        f"{where(korver, 'ST')}: Fred's five F2 (turn 2) has ST 0; the worked example needs 1 (§7.2: Titulaire MJ "
        f"1 (row 2), Kyle Korver (row {korver.ref.row}), Titulaire Ai 1 (row 4), Remplaçant AF 1 (row 18), "
        "Titulaire P 1 (row 6)) [worked_example]",
        f"{where(af1, 'ST')}: Remplaçant AF 1 has ST 0, not above Titulaire AF 1's 0 (row 5): Fred brings him on "
        "for his Block and Stop (§7.1) [worked_example]",
        f"{where(korver, '3P')}: Kyle Korver has 3P 1, not above Titulaire Ar 1's 1 (row 3): Fred brings him on "
        "for his 3-Points (§7.1) [worked_example]",
        f"{where(ainge, 'cost')}: Danny Ainge costs 5; the worked example needs 3–4 (§7.1, AMB-05) "
        "[worked_example]"]


def test_worked_example_named_tactics(project, records):
    kentucky, michigan = find(records, "tactics", "Kentucky Offense"), find(records, "tactics", "Michigan Defense")
    vt, uconn = find(records, "tactics", "Virginia Tech Offense"), find(records, "tactics", "UConn Defense")
    problems = [p for p in damaged(project, ("tactics", cell(kentucky, "complexity"), 6),
                                   ("tactics", cell(michigan, "keep_BL"), 1), ("tactics", cell(vt, "keep_IN"), 2),
                                   ("tactics", cell(uconn, "cost"), 7)) if p != ERRATUM]
    assert problems == [
        f"{where(kentucky, 'complexity')}: Kentucky Offense: complexity 6; the rulebook's example gives 5 (§7.1) "
        "[worked_example]",
        f"{where(michigan, 'keep_BL')}: Michigan Defense keeps 1 × BL + 1 × ST; the rulebook's example needs "
        "2 × BL + 1 × ST (§7.1, AMB-18) [worked_example]",
        f"{where(vt, 'keep_IN')}: Virginia Tech Offense keeps 2 × IN, no more than Base Offense Low Post's 2 × IN; "
        "Sophie buys it as a stronger Low Post (§7.1) [worked_example]",
        f"{BOOK} › tactics: 1 market models cost 8; Fred's turn 2 replaces 2 market tactics costing 8 (§5) "
        "[worked_example]"]


def test_missing_named_card(project, records):
    korver = find(records, "players", "Kyle Korver")
    problems = damaged(project, ("players", cell(korver, "name"), "Kyle Korverr"))
    assert problems == [
        ERRATUM, f"{BOOK} › players: no card named Kyle Korver in set A or NBA: the worked example plays them "
                 "(§7.2) [worked_example]"]


# --- the command line ------------------------------------------------------------------------------------

def test_several_problems_one_run_exit_1_nothing_written(project, records):
    curry, switch_b = find(records, "players", "Stephen Curry"), find(records, "tactics", "Base Defense Switch", "B")
    changes = [("players", cell(curry, "positions"), "PG"), ("tactics", cell(switch_b, "complexity"), 2),
               ("dice", "D2", "blue")]
    apply(project, *changes)
    result = run_cli("build", "nba", root=project)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    for line in (f"{where(curry, 'positions')}: 'PG' is not a position code (MJ, Ar, Ai, AF, P) (did you mean "
                 "'P'?) [position]",
                 f"{where(switch_b, 'complexity')}: Base Defense Switch: complexity is 2 in set B but 1 in set A "
                 f"(row {find(records, 'tactics', 'Base Defense Switch', 'A').ref.row}); the sets differ only by "
                 "their marker [sets]",
                 f"{BOOK} › dice › D2 (colour): 3P is an offensive die: its faces have no colour (got blue) [dice]"):
        assert line in result.stderr
    assert "3 error(s)" in result.stderr
    assert not (project / "output").exists()


def test_more_than_five_legendary_cards_is_a_warning(project, records):
    extra = [find(records, "players", n) for n in ("LeBron James", "Kareem Abdul-Jabbar")]
    legendary = sorted([r for r in records["players"] if r["legendary"]] + extra, key=lambda r: r.ref.row)
    assert damaged(project, *(("players", cell(r, "legendary"), "yes") for r in extra)) == [
        f"{where(legendary[5], 'legendary')}: 6 legendary cards (rows "
        f"{', '.join(str(r.ref.row) for r in legendary)}); §7.4 allows a rating of 4 on at most 5 [rating]", ERRATUM]


def test_kinds_positions_copies_and_market_size(project, records):
    duke, press_a = find(records, "tactics", "Duke Offense"), find(records, "tactics", "Base Defense Press", "A")
    press_b = find(records, "tactics", "Base Defense Press", "B")
    korver, hield = find(records, "players", "Kyle Korver"), find(records, "players", "Buddy Hield")
    tactic_cards = next(r for r in records["components"] if r["component"] == "tactic_cards")
    problems = damaged(project, ("tactics", cell(duke, "copies"), 6), ("tactics", cell(duke, "initiation"), "yes"),
                       *(("tactics", cell(r, "copies"), 2) for r in (press_a, press_b)),
                       ("components", cell(tactic_cards, "count"), 94),
                       ("players", cell(hield, "kind"), "substitute"), ("players", cell(korver, "positions"), "Ar/Ar"),
                       *both_sets(records, "Titulaire P 2", "positions", "AF/P"))
    p2 = find(records, "players", "Titulaire P 2", "A")
    assert problems == [
        f"{where(p2, 'positions')}: 'AF/P': a starting card plays one position [position]",
        f"{where(find(records, 'players', 'Titulaire P 2', 'B'), 'positions')}: 'AF/P': a starting card plays one "
        "position [position]",
        f"{where(korver, 'positions')}: 'Ar/Ar' lists a position twice [position]",
        f"{where(hield, 'kind')}: kind substitute in set NBA: NBA cards are set NBA, starting cards (starter, "
        "substitute) set A or B [kind]",
        f"{where(press_a, 'copies')}: 2 copies: a starting set holds one of each base tactic [sets]",
        f"{where(press_b, 'copies')}: 2 copies: a starting set holds one of each base tactic [sets]",
        f"{where(duke, 'initiation')}: only base tactics belong to an initiation set [initiation]",
        f"{BOOK} › players: set A has 10 Starters (AF 3); a set has 2 per position, 10 in all [sets]",
        f"{BOOK} › players: set B has 10 Starters (AF 3); a set has 2 per position, 10 in all [sets]",
        f"{BOOK} › tactics: the market has 20 models and 72 cards; the box holds 20 models, 70 cards [market]"]


def test_durations_are_compared_with_the_turns_the_engine_plays(records, monkeypatch):
    """If the table and the formula agreed but the engine played another length, the row is wrong: here the
    formula is made to say pile + 6 and the table 13 turns per player, so only the game played disagrees (the
    normal row alone, to play one game)."""
    normal = next(r for r in records["durations"] if r["length"] == "normal")
    monkeypatch.setattr(checks_rules, "normal_turns", lambda pile, slots: pile + 6)
    row = type(normal)(normal.sheet, normal.ref, {**normal.values, "turns_per_player": 13}, normal.letters)
    report = Report()
    checks_rules.check_durations_played(dict(records, durations=[row]), report, nba.SIMULATION)
    assert [str(p) for p in report.errors] == [
        f"{where(normal, 'turns_per_player')}: normal: the engine played 24 normal turns with a pile of 20 cards "
        "(bot game, seed 0), not 2 × 13 [durations]"]
