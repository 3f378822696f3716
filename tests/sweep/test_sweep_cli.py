"""`pnp sweep` on the command line: on the typed toy race of tests/sweep/test_sweep.py in process (tables, files, exit
codes, located value problems with nothing written, usage errors), and end to end on Build It's workbook
(slow): the local pool and a Dask LocalCluster write byte-identical reports."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from tests.conftest import copy_project, point_cli_at, run_cli
from tests.simulation.toy_game import toy_records
from tests.sweep.test_sweep import toy_module


@pytest.fixture
def toy_cli(monkeypatch, tmp_path):
    """`pnp … sweep` in process on the toy, in a project at tmp_path."""
    import pipeline.cli.app
    import pipeline.games
    import pipeline.validate

    app = pipeline.cli.app.app
    point_cli_at(monkeypatch, tmp_path)
    monkeypatch.setattr(pipeline.games, "load_game", lambda name, root: toy_module(name))
    monkeypatch.setattr(pipeline.validate, "load_records", lambda game, root, report, cache=None: toy_records())

    def invoke(*args):
        return CliRunner().invoke(app, ["sweep", "toy", *args])
    return invoke, tmp_path


def test_sweep_prints_the_tables_and_writes_the_reports(toy_cli):
    invoke, root = toy_cli
    done = invoke("--rule", "target=10,12", "--games", "30", "--seed", "2", "--players", "3")
    assert done.exit_code == 0, done.output
    assert "Toy dice race: 2 combinations × 30 games, seed 2 (the same seeds in each), 3 players; 60 of 60 " \
           "finished by the rules" in done.output
    for title in ("Win rates", "Key figures", "Scores and game length", "End reasons"):
        assert title in done.output
    assert "baseline" in done.output and "Flagged" not in done.output
    assert "played 60 games in 4 batches on local with 1 worker" in done.output
    folder = root / "output/toy/sweep"
    for suffix in (".md", ".pdf", ".csv", ".run.json"):
        assert f"wrote output/toy/sweep/target{suffix}" in done.output
        assert (folder / f"target{suffix}").stat().st_size > 0
    assert "| 10 | 30 of 30 |" in (folder / "target.md").read_text()


def test_a_flagged_combination_is_reported_with_its_replay_and_exits_1(toy_cli):
    invoke, root = toy_cli
    done = invoke("--rule", "max_rounds=0,2", "--rule", "target=12", "--games", "20", "--seed", "0")
    assert done.exit_code == 1, done.output
    assert "Flagged combinations: 1 of 2" in done.output
    assert "replay: pnp simulate toy --replay " in done.output and "--rule max_rounds=2 --rule target=12" in done.output
    text = (root / "output/toy/sweep/max_rounds-x-target.md").read_text()
    assert "## Flagged combinations" in text and "`pnp simulate toy --replay " in text


def test_bad_values_print_every_located_problem_and_write_nothing(toy_cli):
    invoke, root = toy_cli
    done = invoke("--rule", "target=abc,12", "--rule", "max_rounds=1")
    assert done.exit_code == 1
    assert "sheets/toy.xlsx › rules › B2 (value): --rule target=abc: 'abc' is not a whole number [type]" \
           in done.output
    assert "sheets/toy.xlsx › rules › B2 (value): --rule max_rounds=1: target 12 cannot be reached in 1 rounds" \
           in done.output
    assert "validation failed: nothing was simulated" in done.output and "Traceback" not in done.output
    assert not (root / "output").exists()


@pytest.mark.parametrize("args, message", [
    ((), "give at least one --rule"),
    (("--rule", "speed=1,2"), "toy has no rule parameter 'speed'"),
    (("--rule", "target=5,5"), "5 is listed twice"),
    (("--rule", "target=" + ",".join(map(str, range(1, 16))), "--rule", "max_rounds=" + ",".join(map(str, range(15)))),
     "225 combinations (15 × 15): a sweep plays at most 200"),
    (("--rule", "target=10,12", "--players", "9"), "2–4 players"),
    (("--rule", "target=10,12", "--executor", "ray"), "--executor takes local, dask or dask=ADDRESS"),
])
def test_usage_errors_exit_2_and_write_nothing(toy_cli, args, message):
    invoke, root = toy_cli
    done = invoke(*args)
    assert done.exit_code == 2 and message in done.output and done.exception.__class__ is SystemExit
    assert not (root / "output").exists()


def test_build_it_sweep_end_to_end_local_and_dask_write_the_same_reports(tmp_path):
    """The issue's command on a project copy (fewer games), then the same on a Dask LocalCluster."""
    root = copy_project(tmp_path)
    folder = root / "output/buildit/sweep"
    written = {}
    for executor in ("local", "dask"):
        done = run_cli("sweep", "buildit", "--rule", "start_gold=5,7,9", "--games", "40", "--workers", "2",
                       "--executor", executor, root=root)
        assert done.returncode == 0, done.stderr
        assert f"played 120 games in 6 batches on {executor}" in done.stdout
        written[executor] = {suffix: (folder / f"start_gold{suffix}").read_bytes()
                             for suffix in (".md", ".pdf", ".csv")}
    assert written["local"] == written["dask"]
    assert b"| baseline | start_gold=5: the workbook's values |" in written["local"][".md"]
    assert b'"executor": "dask"' in (folder / "start_gold.run.json").read_bytes()
