"""The game kit's two wiring helpers (pipeline/games/kit.py): game_record, a coded game's record with its
workbook and templates found by convention, and parameters_from_rules, a game's typed `rules` sheet as a
plain dict. Every registered game and the template are wired through them."""

from __future__ import annotations

import importlib
from pathlib import Path
from types import SimpleNamespace

import pytest

from pipeline.core.errors import Report, SourceRef
from pipeline.data.manifest import COMPONENTS_SPEC
from pipeline.data.params import RULES_SHEET, rule_parameters
from pipeline.data.schema import Record
from pipeline.games import REGISTRY, load_game
from pipeline.games.kit import game_record, parameters_from_rules

SPECS = rule_parameters({"hand": ("int", 1, 9), "mode": ("enum", "fast", "slow"), "bonus": ("bool",)},
                        {"hand": "Cards in hand.", "mode": "fast or slow.", "bonus": "Bonus round."})


def rules_rows(values: dict) -> dict:
    """Records with a `rules` sheet of these raw cells, as a workbook gives them (text, numbers as read)."""
    letters = {"parameter": "A", "value": "B"}
    rows = [Record("rules", SourceRef("sheets/kit.xlsx", "rules", row), {"parameter": name, "value": raw}, letters)
            for row, (name, raw) in enumerate(values.items(), start=2)]
    return {"rules": rows}


def test_parameters_are_the_rules_sheet_typed_as_a_plain_dict():
    parameters = parameters_from_rules(SPECS)
    records = rules_rows({"hand": "7", "mode": "slow", "bonus": "oui"})
    values = parameters(records)
    assert values == {"hand": 7, "mode": "slow", "bonus": True} and type(values) is dict
    values["hand"] = 1                                            # a copy: the reading stays the data's
    assert parameters(records)["hand"] == 7


def test_parameters_refuse_a_rules_sheet_that_does_not_read():
    with pytest.raises(ValueError, match="hand: 'sept' is not a whole number"):
        parameters_from_rules(SPECS)(rules_rows({"hand": "sept", "mode": "slow", "bonus": "no"}))


def test_game_record_finds_the_workbook_and_templates_by_convention(tmp_path: Path):
    calls = []
    def check_rows(records, report):
        if records.get("bad"):
            report.error("sheets/relais.xlsx", "a bad row", "unique")

    checks = SimpleNamespace(check_rows=check_rows,
                             check_rules=lambda records, report: calls.append("rules"),
                             summary=lambda records: ["one line"])
    game = game_record("relais", "Le Relais", tmp_path, (RULES_SHEET,), checks=checks, components=lambda r: [],
                       simulation=None, rule_parameters=SPECS, keywords=("jeu de dés",))
    assert game.id == "relais" and game.title == "Le Relais"
    assert game.data_files == (tmp_path / "sheets" / "relais.xlsx",)
    assert game.template_dir == tmp_path / "templates" / "relais"
    assert game.sheets == (RULES_SHEET, COMPONENTS_SPEC) and game.manifest_sheet == "components"
    assert game.rule_parameters is SPECS and game.keywords == ("jeu de dés",)
    assert game.credited_author == "Auteurs de Le Relais"                 # no author given: the title's
    report = Report()
    game.rule_checks({"bad": True}, report)
    assert len(report.errors) == 1 and calls == []                # stage 5 waits for clean rows
    game.rule_checks({}, Report())
    assert calls == ["rules"] and game.summary({}) == ["one line"]


@pytest.mark.parametrize("game_id", [*sorted(REGISTRY), "_template"])
def test_every_coded_game_is_wired_by_the_kit(game_id, tmp_path: Path):
    package = importlib.import_module(f"pipeline.games.{game_id}")
    game = load_game(game_id, tmp_path) if game_id in REGISTRY else package.game_module(tmp_path)
    assert game.data_files == (tmp_path / "sheets" / f"{game.id}.xlsx",)
    assert game.template_dir == tmp_path / "templates" / game.id
    assert game.sheets[-1] is COMPONENTS_SPEC and game.simulation is package.SIMULATION
    assert game.rule_parameters is importlib.import_module(f"pipeline.games.{game_id}.schema").RULE_PARAMETERS


@pytest.mark.parametrize("game_id", ["challengers", "fightball"])
def test_a_rulebook_reads_the_rules_as_its_components_do(game_id):
    """One parameters() per game: the rulebook shows the values the components print."""
    components = importlib.import_module(f"pipeline.games.{game_id}.components")
    rulebook = importlib.import_module(f"pipeline.games.{game_id}.rulebook")
    assert rulebook.parameters is components.parameters
