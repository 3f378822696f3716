"""Build It's stage 6 and rulebook as a designer meets them: change a cell, see the games and the book follow."""

from __future__ import annotations

from dataclasses import replace
from io import BytesIO

import pdfplumber

from pipeline.games import load_game
from tests.conftest import ROOT, edit_workbook, run_cli
from tests.render.rulebook.rulebooks import write_book
from tests.render.rulebook.test_rulebook import reading_text


def _set_rules(path, **values) -> None:
    def change(workbook):
        for row in workbook["rules"].iter_rows(min_row=2):
            if row[0].value in values:
                row[1].value = values[row[0].value]
    edit_workbook(path, change)


def test_games_that_cannot_finish_fail_validation_at_the_rule_rows(project):
    # the Contractual variant takes the calendar away; bots do not fulfil every Contract within 12 rounds
    _set_rules(project / "sheets" / "buildit.xlsx", variant_contractual="yes", max_rounds=12)
    result = run_cli("validate", "buildit", root=project)
    assert result.returncode == 1, result.stdout + result.stderr
    lines = [line for line in result.stderr.splitlines() if "[play]" in line]
    # the default game, then the variants stage 6 also plays: with a 12-round cap the Contractuelle never
    # ends; the Haute densité still fills the board in time
    assert len(lines) == 2
    assert lines[1] == ("error sheets/buildit.xlsx › rules › B25 (value): with variant_contractual=yes, 10 of 10 "
                        "games by bots stopped at a safety cap instead of the variant's own end [play]")
    assert lines[0].startswith("error sheets/buildit.xlsx › rules › B29 (value): 20 of 20 games (seeds ")
    assert "did not finish: safety cap max_rounds hit in round 12" in lines[0]
    assert "also sheets/buildit.xlsx › rules › B25 (value)" in lines[0]     # variant_contractual
    assert "Traceback" not in result.stderr


def test_the_default_data_plays_to_the_end(project):
    result = run_cli("validate", "buildit", root=project)
    assert result.returncode == 0, result.stderr
    assert "validation passed" in result.stdout


def _rulebook_text(root) -> str:
    game = replace(load_game("buildit", ROOT), data_files=(root / "sheets" / "buildit.xlsx",))
    book = write_book(game, root=root, title="Build It")
    with pdfplumber.open(BytesIO(book.pdf)) as pdf:
        return "\n".join(reading_text(page) for page in pdf.pages)       # two columns: one after the other


def test_the_rulebook_numbers_come_from_the_workbook(project):
    before = _rulebook_text(project)
    assert "Chaque joueur y prend 5 PO" in before and "Prenez 2 PO à la banque" in before
    _set_rules(project / "sheets" / "buildit.xlsx", start_gold=7, income=3)
    after = _rulebook_text(project)
    assert "Chaque joueur y prend 7 PO" in after and "Prenez 3 PO à la banque" in after
    # the example turn recomputes its gold from the new income: 4 + 3 = 7
    assert "il a 7 PO" in after.replace("\n", " ")


def test_simulate_with_a_changed_rule_checks_it_like_a_cell(project):
    bad = run_cli("simulate", "buildit", "--games", "5", "--rule", "income=lots", root=project)
    assert bad.returncode == 1
    assert "error sheets/buildit.xlsx › rules › B7 (value): income: 'lots' is not a whole number [type]" in bad.stderr
    unknown = run_cli("simulate", "buildit", "--games", "5", "--rule", "incom=3", root=project)
    assert unknown.returncode == 2 and "unknown rule parameter incom" in unknown.stderr
    assert "Traceback" not in bad.stderr + unknown.stderr


def test_simulate_a_rule_change_changes_the_games(project):
    def mean_built(*rule: str) -> float:
        result = run_cli("simulate", "buildit", "--games", "30", "--seed", "4", *rule, root=project)
        assert result.returncode == 0, result.stderr
        report = (project / "output" / "buildit" / "simulation" / "report.md").read_text(encoding="utf-8")
        line = next(line for line in report.splitlines() if line.startswith("| built_plots |"))
        return float(line.split("|")[2])

    # more income, more buildings: the override reaches the engine
    assert mean_built("--rule", "income=6") > mean_built() + 3


def _choices(text: str) -> list[str]:
    """The lines of the rulebook's last chapter, "Choix de cette édition" (a table row's first line holds the
    first line of each of its cells, left to right)."""
    return text[text.rindex(". Choix de cette édition"):].splitlines()     # the heading, not a running header


def _row(lines: list[str], point: str) -> str:
    return next(line for line in lines if line.startswith(point))


def test_the_choices_chapter_states_each_reading_from_the_rules_sheet(project):
    before = _choices(_rulebook_text(project))
    assert _row(before, "Points de la Ville").startswith("Points de la Ville gagnés au moment de construire")
    assert "comptés en fin de partie" in _row(before, "Points de la Ville")             # the other way to play
    assert _row(before, "Coût d'une construction").startswith("Coût d'une construction 2 PO par parcelle construite 3 PO")
    assert not any("city_points_timing" in line or "pnp simulate" in line for line in before)   # the players' book
    assert any(line.startswith("• Pions limités.") for line in before)
    assert any(line.startswith("• Annulation à tout moment.") for line in before)
    _set_rules(project / "sheets" / "buildit.xlsx", city_points_timing="end", build_cost_mode="flat")
    after = _choices(_rulebook_text(project))
    assert _row(after, "Points de la Ville").startswith("Points de la Ville comptés en fin de partie")
    assert "gagnés au moment de" in _row(after, "Points de la Ville")
    assert _row(after, "Coût d'une construction").startswith("Coût d'une construction 3 PO par construction")
