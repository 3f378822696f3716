"""Build It's engine-free rule checks against the rulebook's worked examples (build-it.md §4)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from pipeline.games.buildit.checks import gold_distribution, summary
from pipeline.games.buildit.engine import geometry
from tests.conftest import ROOT, validate_buildit


def cells(*names: str) -> set[tuple[int, int]]:
    """Board coordinates a–h / 1–8 → (row, column)."""
    return {(int(n[1]) - 1, ord(n[0]) - ord("a")) for n in names}


@pytest.fixture(scope="module")
def records():
    report, records = validate_buildit(ROOT)
    assert not report.problems
    return records


def test_bi_t1_t2_expected_gold(records):
    piles = gold_distribution(records)
    contracts, mean_c = piles["contracts"]
    normal, mean_n = piles["normal"]
    assert dict(contracts) == {0: 11, 1: 5, 2: 3, 4: 1} and mean_c == Fraction(15, 20)
    assert dict(normal) == {0: 53, 1: 6, 2: 3, 3: 2, 4: 1} and mean_n == Fraction(22, 65)
    lines = summary(records)
    assert lines[0].startswith("expected gold per contracts card drawn: 15/20 = 0.750")
    assert lines[1].startswith("expected gold per normal card drawn: 22/65 = 0.338")


def test_bi_t3_card_totals(records):
    copies = {sheet: sum(r["copies"] for r in records[sheet]) for sheet in ("contracts", "normal_cards")}
    assert len(records["cities"]) + copies["contracts"] + copies["normal_cards"] == 90
    by_model = {}
    for rec in records["normal_cards"]:
        by_model[rec["model"]] = by_model.get(rec["model"], 0) + rec["copies"]
    assert by_model["coin_gain"] == 12 and by_model["cancel"] == 8
    assert sorted(v for k, v in by_model.items() if k not in ("coin_gain", "cancel")) == [5] * 9
    assert [r["copies"] for r in records["contracts"]] == [5, 3, 3, 2, 2, 2, 1, 1, 1]


def test_bi_t7_adjacency():
    assert len(geometry.groups(cells("b2", "c3"))) == 1
    assert len(geometry.groups(cells("b2", "d2"))) == 2


def test_bi_d7_plan_matching():
    assert geometry.matches(cells("c3", "d4"), geometry.parse_plan("#./.#"))
    assert not geometry.matches(cells("c3", "d4"), geometry.parse_plan("##"))
    assert geometry.matches(cells("f1", "f2", "f3"), geometry.parse_plan("###"))
    l_shape = geometry.parse_plan("##/#.")
    for variant in geometry.variants(l_shape):
        assert geometry.matches(set(variant), l_shape)
    assert not geometry.matches(cells("a1", "b1", "c1"), l_shape)


def test_bi_d8_merging_makes_a_diagonal_line():
    building = cells("c3", "d4") | cells("e5")
    assert geometry.groups(building) == [frozenset(building)]
    assert geometry.matches(building, geometry.parse_plan("#../.#./..#"))


def test_reflection_can_be_switched_off():
    s_shape, z_shape = geometry.parse_plan(".##/##."), geometry.parse_plan("##./.##")
    assert geometry.matches(s_shape, z_shape)
    assert not geometry.matches(s_shape, z_shape, reflection=False)


def test_polyplet_counts_up_to_symmetry():
    """1, 2, 5, 22, 94 king-connected shapes of 1–5 plots (build-it.md §3.1)."""
    shapes = {geometry.canonical({(0, 0)})}
    counts = [1]
    for _ in range(4):
        grown = set()
        for shape in shapes:
            for r, c in shape:
                for dr, dc in geometry.N8:
                    cell = (r + dr, c + dc)
                    if cell not in shape:
                        grown.add(geometry.canonical(set(shape) | {cell}))
        shapes = grown
        counts.append(len(shapes))
    assert counts == [1, 2, 5, 22, 94]


# --- the Contractual variant's player counts (issue 30) ---------------------------------------------------------

def test_contractual_variant_needs_four_players_by_counting(records):
    """20 Contracts need 48 plots built; a player owns 12 Construction pawns: 4 players or Demolitions."""
    from pipeline.games.buildit.checks import contract_plots
    from pipeline.games.buildit.components import parameters

    assert contract_plots(records) == 48
    values = parameters(records)
    assert values["variant_contractual_players_min"] == 4 and values["pawns_per_state"] == 12


def _rules_values(project, **values):
    from tests.conftest import edit_workbook, set_cell

    def change(wb):
        for name, value in values.items():
            set_cell(wb["rules"], "parameter", name, "value", value)
    edit_workbook(project / "sheets" / "buildit.xlsx", change)
    report, _ = validate_buildit(project)
    return report


def test_a_declared_count_the_contractual_variant_cannot_end_at_is_an_error_at_its_cell(project):
    report = _rules_values(project, variant_contractual_players_min=2, variant_contractual="yes")
    found = [str(p) for p in report.errors if p.rule == "variant_players"]
    assert not [p for p in report.warnings if p.rule == "variant_players"]
    assert found == ["sheets/buildit.xlsx › rules › B30 (value): the Contractual variant cannot end by its rule "
                     "with 2 players (24 Construction pawns): its 20 Contracts need 48 plots built and each player "
                     "owns 12 Construction pawns (pawns_per_state): the end needs 4 players or more, else "
                     "Demolitions [variant_players]"]
    advice = _rules_values(project, variant_contractual="no")      # the variant off: the rulebook's advice only
    assert not [p for p in advice.errors if p.rule == "variant_players"]
    assert [str(p).split(":")[0] for p in advice.warnings if p.rule == "variant_players"] == [
        "sheets/buildit.xlsx › rules › B30 (value)"]


def test_the_contractual_variant_on_below_its_player_count_is_a_warning_at_its_row(project):
    report = _rules_values(project, variant_contractual="yes")
    assert not report.errors
    [warning] = [p for p in report.warnings if p.rule == "variant_players"]
    assert str(warning).startswith("sheets/buildit.xlsx › rules › B25 (value): the Contractual variant is on, but "
                                   "it suits 4 players or more (variant_contractual_players_min) and the game "
                                   "takes 2: its 20 Contracts need 48 plots")
    more_pawns = _rules_values(project, pawns_per_state=24, variant_contractual_players_min=2)
    assert not [p for p in more_pawns.problems if p.rule == "variant_players"]
