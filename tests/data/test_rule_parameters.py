"""Rule parameters: declared once (the engine's table of names, types and ranges; schema.py adds the docs),
read once per build in stage 2 with the build's report, and the simulated player range read from the data."""

from __future__ import annotations

import pytest

from pipeline.core.errors import Report
from pipeline.data.params import read_rules, rule_parameters, rules
from pipeline.games import load_game
from pipeline.games.allstar import schema as allstar_schema
from pipeline.games.allstar.engine.data import PARAMETERS as ALLSTAR_PARAMETERS
from pipeline.play.contract import with_rules
from pipeline.simulation.run import Request, SimulationUsage, load
from pipeline.validate import load_records
from tests.conftest import edit_workbook

BOOK = "sheets/allstar.xlsx"


def test_columns_come_from_the_engine_table_with_the_docs_order():
    columns = rule_parameters({"b": ("enum", "x", "y"), "a": ("int", 1, 9), "c": ("bool",)},
                              {"a": "A number.", "b": "A word.", "c": "Yes or no."})
    assert [(c.name, c.type, c.min, c.max, c.choices, c.doc) for c in columns] == [
        ("a", "int", 1, 9, (), "A number."), ("b", "enum", None, None, ("x", "y"), "A word."),
        ("c", "bool", None, None, (), "Yes or no.")]


def test_a_parameter_without_a_doc_or_a_doc_without_a_parameter_is_refused():
    with pytest.raises(ValueError, match=r"without a doc: \['b'\]; docs without a parameter: \['z'\]"):
        rule_parameters({"a": ("bool",), "b": ("bool",)}, {"a": "A.", "z": "Z."})


@pytest.mark.parametrize("game", ["buildit", "allstar", "nba", "_template"])
def test_every_game_declares_its_parameters_once(game):
    """The rules sheet's columns are the engine's table, documented: no second list to keep in step."""
    from importlib import import_module

    specs = import_module(f"pipeline.games.{game}.engine.data").PARAMETERS
    columns = import_module(f"pipeline.games.{game}.schema").RULE_PARAMETERS
    assert [c.name for c in columns] == list(specs)
    assert all(c.doc for c in columns)


def test_stage_2_reads_the_rules_once_and_later_stages_get_that_reading(tmp_path):
    from tests.conftest import ROOT

    game = load_game("allstar", ROOT)
    report = Report()
    records = load_records(game, ROOT, report)
    first = rules(records, allstar_schema.RULE_PARAMETERS)
    assert rules(records, allstar_schema.RULE_PARAMETERS) is first             # no second reading
    assert first["mode"] == "heritage" and first["players_max"] == 6
    changed = with_rules(records, (("mode", "duel"),))
    assert rules(changed, allstar_schema.RULE_PARAMETERS)["mode"] == "duel"    # new rows: read for them


def test_a_bad_value_is_a_stage_2_problem_at_its_cell_and_nothing_later_runs(project):
    edit_workbook(project / BOOK, lambda wb: wb["rules"].__setitem__("B3", "seven"))
    report = Report()
    assert load_records(load_game("allstar", project), project, report) is None
    assert [str(p) for p in report.problems] == [
        f"{BOOK} › rules › B3 (value): players_max: 'seven' is not a whole number [type]"]


def test_rows_that_do_not_read_are_never_used_silently():
    from tests.conftest import ROOT

    full = load_records(load_game("allstar", ROOT), ROOT, Report())
    records = {"rules": full["rules"][:1]}                      # players_min alone
    report = Report()
    read_rules(records, allstar_schema.RULE_PARAMETERS, report)
    assert len(report.errors) == len(allstar_schema.RULE_PARAMETERS) - 1      # each missing one, told in stage 2
    assert "rule parameter 'players_max' is missing (Most managers.)" in str(report.errors[0])
    with pytest.raises(ValueError, match="the rules sheet does not read: .*players_max"):
        rules(records, allstar_schema.RULE_PARAMETERS)


def test_the_simulated_player_range_is_the_datas(project):
    """players_max 4 in the workbook: `pnp simulate allstar --players 5` is refused, 4 is played."""
    edit_workbook(project / BOOK, lambda wb: wb["rules"].__setitem__("B3", 4))
    with pytest.raises(SimulationUsage, match="this game takes 2–4 players, not 5"):
        load(Request("allstar", project, games=1, players=5), Report())
    loaded = load(Request("allstar", project, games=1, players=4), Report())
    assert loaded.players == 4 and loaded.sim.player_range(loaded.records) == (2, 4)
    assert ALLSTAR_PARAMETERS["players_max"] == ("int", 2, 6)     # the engine's bounds did not move
