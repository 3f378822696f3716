"""All-Star Draft's workbook (sheets/allstar.xlsx) and its stage-3/5 checks: the shipped data is clean and
fits all-star-draft.md; every check names the damaged cell in one line."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType

import pytest

from pipeline.core.errors import Report
from pipeline.games.allstar import checks
from pipeline.games.allstar.schema import (ARENAS, HOCKEY, ICONS, ORDERS, PLAYOFF_POINTS, RULES, RULE_PARAMETERS,
                                           SPECIES, SYMBOLS, TIEBREAK_SIDES)
from pipeline.validate import load_records
from tests.conftest import ROOT, edit_workbook

BOOK = "sheets/allstar.xlsx"


def _rule_checks(records, report):
    checks.check_rows(records, report)
    if not report.errors:
        checks.check_rules(records, report)


def allstar_game(root: Path):
    """The registered game with its data file under `root`; built from the schema while it is not registered."""
    from pipeline.data.manifest import COMPONENTS_SPEC
    from pipeline.data.specs import GameModule

    return GameModule(
        id="allstar", title="All-Star Draft", data_files=(root / "sheets" / "allstar.xlsx",),
        sheets=(SPECIES, SYMBOLS, HOCKEY, ORDERS, TIEBREAK_SIDES, ARENAS, PLAYOFF_POINTS, RULES, COMPONENTS_SPEC),
        template_dir=root / "templates" / "allstar", components=lambda records: [], rule_checks=_rule_checks,
        summary=checks.summary)


def validate_allstar(root: Path) -> tuple[Report, dict | None]:
    report = Report()
    return report, load_records(allstar_game(root), root, report)


def lines(report) -> list[str]:
    return [str(p) for p in report.problems]


@pytest.fixture(scope="module")
def records():
    report, records = validate_allstar(ROOT)
    assert lines(report) == []
    return records


def card(records, species, number):
    return next(r for r in records["hockey"] if r["species"] == species and r["number"] == number)


# --- the shipped data ------------------------------------------------------------------------------------

def test_shipped_workbook_is_clean_with_the_announced_counts(records):
    counts = {sheet: len(rows) for sheet, rows in records.items()}
    assert counts == {"species": 12, "symbols": 5, "hockey": 108, "orders": 2 * (5 + 9 + 12), "tiebreak_sides": 2,
                      "arenas": 15, "playoff_points": 2 + 3 + 4 + 5 + 6, "rules": len(RULE_PARAMETERS),
                      "components": 11, "game": 1}
    manifest = {r["component"]: r["count"] for r in records["components"]}
    assert manifest == {"hockey": 108, "species": 12, "symbols": 5, "arena": 15, "fanzone": 6, "busstation": 1,
                        "tiebreak": 6, "playoffpts": 2, "bus": 18, "supporter": 12, "ticket": 4}


def test_registered_game_reads_the_same_workbook():
    from pipeline.games import REGISTRY, load_game

    assert "allstar" in REGISTRY
    game = load_game("allstar", ROOT)
    report = Report()
    assert load_records(game, ROOT, report) is not None and lines(report) == []


def test_species_colours_and_coloradd_codes(records):
    species = {r["id"]: r for r in records["species"]}
    assert {"bear", "duck", "horse", "panda", "caribou", "owl", "fox", "wolf"} <= set(species)
    assert species["bear"]["name"] == "Ours" and species["duck"]["name"] == "Canard"
    assert species["horse"]["name"] == "Cheval" and species["caribou"]["name"] == "Caribou"
    assert len({r["colour"].upper() for r in species.values()}) == 12
    assert len({r["coloradd_code"] for r in species.values()}) == 12
    for rec in species.values():        # light enough for black text: relative luminance well above the middle
        r, g, b = (int(rec["colour"][i:i + 2], 16) / 255 for i in (1, 3, 5))
        assert 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.45, rec["id"]


def test_asd_a3_symbol_distribution(records):
    symbols = [r["id"] for r in records["symbols"]]
    assert symbols == ["stick", "puck", "skate", "helmet", "glove"]
    totals = Counter(r["symbol"] for r in records["hockey"])
    assert [totals[s] for s in symbols] == [22, 22, 22, 21, 21]
    singles = []
    for sp in records["species"]:
        per = Counter(r["symbol"] for r in records["hockey"] if r["species"] == sp["id"])
        assert sorted(per.values()) == [1, 2, 2, 2, 2], sp["id"]
        singles.append(next(s for s, n in per.items() if n == 1))
    # the single symbol rotates over the species in sheet order (glove, helmet, skate, puck, stick, glove…)
    assert singles == ["glove", "helmet", "skate", "puck", "stick"] * 2 + ["glove", "helmet"]
    for number in range(1, 10):         # spread across numbers: every number carries each symbol 2 or 3 times
        per_number = Counter(r["symbol"] for r in records["hockey"] if r["number"] == number)
        assert sorted(per_number.values()) == [2, 2, 2, 3, 3], number


# (species, number, symbol) named by the worked examples of all-star-draft.md §4
EXAMPLE_CARDS = {
    "ASD-T1": [("bear", 4, "stick"), ("duck", 4, "puck"), ("horse", 4, "skate"), ("panda", 7, "helmet"),
               ("duck", 9, "glove")],        # Caribou 2 Stick conflicts with ASD-T10's Caribou 2 Puck
    "ASD-T2": [("duck", 1, "stick"), ("duck", 3, "puck"), ("duck", 5, "skate"), ("duck", 6, "helmet"),
               ("duck", 8, "glove"), ("bear", 1, "puck"), ("horse", 2, "puck"), ("owl", 5, "puck"),
               ("fox", 7, "stick"), ("wolf", 9, "glove"), ("bear", 2, "stick"), ("bear", 3, "skate"),
               ("bear", 6, "glove"), ("panda", 8, "helmet"), ("duck", 4, "puck")],
    "ASD-T10": [("horse", 9, "puck"), ("caribou", 2, "puck")],
}


@pytest.mark.parametrize("vector", sorted(EXAMPLE_CARDS))
def test_worked_examples_use_real_cards(records, vector):
    for species, number, symbol in EXAMPLE_CARDS[vector]:
        rec = card(records, species, number)
        assert (rec["id"], rec["symbol"]) == (f"{species}_{number}", symbol)


def test_asd_t1_still_holds_with_caribou_2_puck(records):
    """ASD-T1 names Caribou 2 Stick, ASD-T10 Caribou 2 Puck: one card, so the data follows T10. Aline's
    hand still has the three 4s as its only group of 3 (power 3 by Number)."""
    hand = [card(records, *c) for c in (("bear", 4), ("duck", 4), ("horse", 4), ("panda", 7), ("caribou", 2),
                                        ("duck", 9))]
    assert card(records, "caribou", 2)["symbol"] == "puck"
    groups = Counter((attr, r[attr]) for r in hand for attr in ("symbol", "number", "species"))
    assert max(groups.values()) == 3 and [k for k, n in groups.items() if n == 3] == [("number", 4)]


def test_orders_and_tiebreak_sides(records):
    orders = {}
    for rec in records["orders"]:
        orders.setdefault((rec["side"], rec["attribute"]), []).append((rec["position"], rec["value"]))
    for key in orders:
        orders[key] = [v for _, v in sorted(orders[key])]
    for side in ("2-4", "5-6"):
        assert orders[side, "symbol"] == ["stick", "puck", "skate", "helmet", "glove"]
        assert orders[side, "number"] == [str(n) for n in range(9, 0, -1)]
        assert orders[side, "species"].index("caribou") < orders[side, "species"].index("horse")
        assert orders[side, "species"] == orders["2-4", "species"]
    sides = {r["side"]: (r["gold"], r["silver"], r["bronze"]) for r in records["tiebreak_sides"]}
    assert sides == {"2-4": ("symbol", "number", "species"), "5-6": ("symbol", "species", "number")}


def test_arenas(records):
    arenas = {r["id"]: r for r in records["arenas"]}
    icons = {aid: checks.parse_icons(r["icons"]) for aid, r in arenas.items()}
    points = {aid: [r[f"p{i}"] for i in range(1, 7)] for aid, r in arenas.items()}
    assert any(p[0] == 13 and p[1] == 10 and 10 > p[2] > 5 and p[3] == 5 for p in points.values())   # ASD-T5
    assert sum("not_for_2" not in i for i in icons.values()) >= 6
    unusual = [aid for aid, i in icons.items() if "unusual_count" in i]
    assert 2 <= len(unusual) <= 3 and all("not_for_2" in icons[aid] for aid in unusual)
    assert sorted(unusual) == sorted(aid for aid, p in points.items() if checks.first_increase(p))
    for icon in ("straight_beats_5", "full_house_beats_5", "all_symbols_beats_5"):
        assert 1 <= sum(icon in i for i in icons.values()) <= 2, icon
    assert all(set(i) <= set(ICONS) for i in icons.values())
    assert all(r["text"] for r in arenas.values()) and len({r["name"] for r in arenas.values()}) == 15


def test_asd_d10_playoff_points_and_rule_defaults(records):
    table = {(r["managers"], r["rank"]): r["points"] for r in records["playoff_points"]}
    assert [table[4, r] for r in range(1, 5)] == [23, 19, 15, 11] and [table[2, 1], table[2, 2]] == [15, 11]
    from pipeline.data.params import read_parameters

    report = Report()
    params = read_parameters(records["rules"], RULE_PARAMETERS, report).values
    assert report.problems == []
    assert params["rounds"] == 3 and params["hand_size"] == 6 and params["species_per_manager"] == 2
    assert (params["tickets_2"], params["tickets_3"], params["tickets_4plus"]) == (2, 1, 0)
    assert (params["min_substitution"], params["max_substitution"]) == (2, 4)
    assert params["final_tiebreak_includes_ticket_bonus"] is True and params["mode"] == "heritage"
    assert all(r["description"] for r in records["rules"])


def test_summary_lines(records):
    assert checks.summary(records) == [
        "standard draft deck: N=2: 4 species, 36 cards; N=3: 6 species, 54 cards; N=4: 8 species, 72 cards; "
        "N=5: 10 species, 90 cards; N=6: 12 species, 108 cards (6 cards per manager per round, 18 each at the "
        "playoffs)",
        "2 managers (heritage in the rules): Heritage/Duel 5 species = 45 cards, 42 dealt; Open Market 6 species "
        "= 54 cards, 54 revealed",
        "symbols over 108 hockey cards: Crosse 22, Palet 22, Patin 22, Casque 21, Gant 21",
        "arenas: 15, 11 playable with 2 managers (6 revealed per game), 3 with unusual points",
        "arena icons: unusual_count 3, not_for_2 4, straight_beats_5 2, full_house_beats_5 1, "
        "all_symbols_beats_5 1",
    ]


# --- damaged copies: one located line per problem ------------------------------------------------------

def damaged(project: Path, **cells) -> list[str]:
    """Set cells given as sheet=[(cell, value), …] on the scratch copy and validate it."""
    def change(wb):
        for sheet, values in cells.items():
            for ref, value in values:
                wb[sheet][ref] = value
    edit_workbook(project / BOOK, change)
    report, _ = validate_allstar(project)
    return lines(report)


def test_duplicate_number_in_a_species(project, records):
    # stage 3 catches it first (species and number are unique together) …
    assert damaged(project, hockey=[("C6", 4)]) == [
        f"{BOOK} › hockey › B6 (species): duplicate species/number 'bear, 4' (first at row 5) [unique]"]
    # … and the stage-5 check names both numbers when it sees such rows
    bear_5 = card(records, "bear", 5)
    changed = dict(records, hockey=[replace(r, values=MappingProxyType({**r.values, "number": 4})) if r is bear_5
                                    else r for r in records["hockey"]])
    report = Report()
    checks.check_rules(changed, report)
    assert lines(report) == [f"{BOOK} › species › A2 (id): species bear: 2 cards numbered 4 (rows 5, 6); no card "
                             "numbered 5 (one card per number 1–9) [hockey]"]


def test_missing_number(project):
    def change(wb):
        wb["hockey"].delete_rows(10)                 # bear_9
        wb["components"]["C2"] = 107                 # keep the manifest in step so stage 5 runs
    edit_workbook(project / BOOK, change)
    report, _ = validate_allstar(project)
    assert lines(report) == [
        f"{BOOK} › species › A2 (id): species bear: no card numbered 9 (one card per number 1–9) [hockey]",
        f"{BOOK} › symbols › A5 (id): symbol helmet is on 20 hockey cards; spread evenly the 5 symbols would be "
        "on 21 or 22 each of the 107 (ASD-A3) [distribution]"]
    assert [p.severity.value for p in report.problems] == ["error", "warning"]


def test_unknown_species_and_symbol_references(project):
    assert damaged(project, hockey=[("B2", "bare"), ("D3", "palet")]) == [
        f"{BOOK} › hockey › B2 (species): no species 'bare' in sheet species (did you mean 'bear'?) [reference]",
        f"{BOOK} › hockey › D3 (symbol): no symbol 'palet' in sheet symbols (did you mean 'helmet'?) [reference]"]


def test_order_value_must_exist(project):
    assert damaged(project, orders=[("D7", 10), ("D16", "caribu")]) == [
        f"{BOOK} › orders › D7 (value): '10' is not a number 1–9 [reference]",
        f"{BOOK} › orders › D16 (value): no species 'caribu' in sheet species (did you mean 'caribou'?) "
        "[reference]"]


def test_order_with_a_value_twice(project):
    assert damaged(project, orders=[("D6", "stick")]) == [
        f"{BOOK} › orders › D6 (value): 'stick' appears twice in the symbol order of side 2-4 (first at row 2) "
        "[order]",
        f"{BOOK} › orders › B2 (attribute): the symbol order of side 2-4 does not name 'glove' [order]"]


def test_order_position_beyond_its_values(project):
    assert damaged(project, orders=[("C6", 7)]) == [
        f"{BOOK} › orders › C6 (position): position 7, but the symbol order has 5 values (positions 1–5) [order]"]


def test_horse_above_caribou(project):
    assert damaged(project, orders=[("D16", "horse"), ("D22", "caribou")]) == [
        f"{BOOK} › orders › D16 (value): horse (row 16, position 1) is above caribou (row 22, position 7) in the "
        "species order of side 2-4; the rulebook ranks Caribou above Horse (ASD-A2, ASD-T10) [order]"]


def test_skate_above_puck_is_a_warning(project):
    report_lines = damaged(project, orders=[("D29", "skate"), ("D30", "puck")])
    assert report_lines == [
        f"{BOOK} › orders › D29 (value): skate (row 29, position 2) is above puck (row 30, position 3) in the "
        "symbol order of side 5-6; the example ASD-T4 (Isa's three Pucks beat Nathan's three Skates) needs puck "
        "above skate [order]"]


def test_tiebreak_side_repeating_an_attribute(project):
    assert damaged(project, tiebreak_sides=[("D3", "species")]) == [
        f"{BOOK} › tiebreak_sides › D3 (bronze): bronze repeats 'species' (already silver) and number is missing; "
        "gold, silver and bronze are symbol, number, species in some order [tiebreak]"]


def test_tiebreak_side_missing(project):
    edit_workbook(project / BOOK, lambda wb: wb["tiebreak_sides"].delete_rows(3))
    report, _ = validate_allstar(project)
    assert lines(report) == [f"{BOOK} › tiebreak_sides: no row for side 5-6: the Tie-Breakers cards are printed "
                             "on both sides [tiebreak]"]


def test_unknown_icon_with_suggestion(project):
    assert damaged(project, arenas=[("I9", "straight_beat_5")]) == [
        f"{BOOK} › arenas › I9 (icons): 'straight_beat_5' is not one of unusual_count, not_for_2, "
        "straight_beats_5, full_house_beats_5, all_symbols_beats_5 (did you mean 'straight_beats_5'?) [enum]"]


def test_unusual_table_without_the_icon(project):
    assert damaged(project, arenas=[("I15", "not_for_2")]) == [
        f"{BOOK} › arenas › I15 (icons): with 4 managers rank 4 scores 9, more than rank 3 (3): list unusual_count "
        "in icons [arena]"]


def test_unusual_icon_on_a_decreasing_table(project):
    assert damaged(project, arenas=[("I2", "unusual_count")]) == [
        f"{BOOK} › arenas › I2 (icons): unusual_count, but the points 13/10/7/5/3/1 never increase with rank for "
        "2–6 managers: remove the icon [arena]"]


def test_loser_paid_more_at_2_managers_wants_not_for_2(project):
    assert damaged(project, arenas=[("I16", "unusual_count")]) == [
        f"{BOOK} › arenas › I16 (icons): with 2 managers the loser scores more (p2 12 > p1 7): add not_for_2 "
        "[arena]"]


def test_too_few_arenas_for_2_managers(project):
    assert damaged(project, arenas=[(f"I{row}", "not_for_2") for row in range(2, 8)]) == [
        f"{BOOK} › arenas: only 5 arenas lack not_for_2, but a 2-manager game reveals 1 + 2 + 3 = 6 (ASD-A6) "
        "[arena]"]


def test_increasing_playoff_points(project):
    assert damaged(project, playoff_points=[("C8", 30)]) == [
        f"{BOOK} › playoff_points › C8 (points): 30 supporters for rank 2 with 4 managers is more than 23 for "
        "rank 1: playoff points never increase with rank [playoff]"]


def test_playoff_rank_beyond_managers_and_missing_rank(project):
    assert damaged(project, playoff_points=[("B10", 5)]) == [
        f"{BOOK} › playoff_points › B10 (rank): rank 5 with 4 managers: ranks go from 1 to 4 [playoff]",
        f"{BOOK} › playoff_points: no points for rank 4 with 4 managers [playoff]"]


def test_seed_playoff_value_is_a_warning(project):
    assert damaged(project, playoff_points=[("C10", 10)]) == [
        f"{BOOK} › playoff_points › C10 (points): 10 supporters for the 4th of 4 managers; the rulebook's example "
        "gives 11 (ASD-T9) [playoff]"]


def test_duplicate_coloradd_code(project):
    assert damaged(project, species=[("D3", "brown")]) == [
        f"{BOOK} › species › D3 (coloradd_code): ColorADD code 'brown' is already bear's (row 2); each species "
        "needs its own (ASD-A16) [unique]"]


def test_parameter_consistency(project):
    # rules rows: players_min 2, players_max 3, species_per_manager 7, tickets_4plus 10,
    # min_substitution 15, duo_species 19
    assert damaged(project, rules=[("B2", 5), ("B3", 4), ("B7", 3), ("B10", 1), ("B15", 5),
                                   ("B19", 4)]) == [
        f"{BOOK} › rules › B2 (value): players_min 5 is above players_max 4 [range]",
        f"{BOOK} › rules › B15 (value): min_substitution 5 is above max_substitution 4 [range]",
        f"{BOOK} › rules › B7 (value): 3 species per manager give 27 cards per manager, but 3 rounds deal only "
        "18: 9 per manager are never dealt [rules]",
        f"{BOOK} › rules › B10 (value): tickets_4plus = 1 per manager needs 5 tickets with 5 managers, but the "
        "box has 4 (components › ticket) [rules]",
        f"{BOOK} › rules › B19 (value): 4 species give 36 cards, but Heritage and Duel deal 42 (3 rounds × 2 "
        "hands of 7) [rules]"]


def test_tickets_and_species_beyond_the_box(project):
    assert damaged(project, rules=[("B7", 3), ("B8", 3)]) == [
        f"{BOOK} › rules › B7 (value): 3 species per manager give 27 cards per manager, but 3 rounds deal only "
        "18: 9 per manager are never dealt [rules]",
        f"{BOOK} › rules › B7 (value): 6 managers × 3 species need 18 species, but the box has 12 [rules]",
        f"{BOOK} › rules › B8 (value): tickets_2 = 3 per manager needs 6 tickets with 2 managers, but the box "
        "has 4 (components › ticket) [rules]"]
