"""Executors (pipeline/play/executors.py): local with one or several processes and Dask distributed play the same
seeded batches and give the same games; records ship to workers that have only the package."""

from __future__ import annotations

import hashlib
import json
import pickle
import sys

import pytest

from pipeline import PROJECT_ROOT
from pipeline.core.errors import Report
from pipeline.play import executors
from pipeline.play.driver import BATCH_SIZE, Batch, GameSource, Shipped, run_batch, run_shipped, simulate_runs
from pipeline.simulation.run import Request, game_engine, load, load_simulation, run
from tests.conftest import run_cli


@pytest.fixture(scope="module")
def nba():
    return load(Request("nba", PROJECT_ROOT, games=60, seed=5), Report())


def test_executor_specs():
    assert isinstance(executors.parse("local"), executors.Local) and executors.parse("local").workers == 1
    assert executors.parse("local", 3).workers == 3
    dask = executors.parse("dask", 2)
    assert isinstance(dask, executors.Dask) and dask.address is None and dask.workers == 2
    assert executors.parse("dask=tcp://10.0.0.5:8786").address == "tcp://10.0.0.5:8786"
    for bad, says in (("dusk", "local, dask or dask=ADDRESS"), ("dask=", "needs an address"),
                      ("local=x", "local, dask or dask=ADDRESS")):
        with pytest.raises(ValueError, match=says):
            executors.parse(bad)


def test_records_pickle_and_a_shipped_batch_plays_the_same_games(nba):
    data = pickle.dumps(nba.records)
    back = pickle.loads(data)
    assert back == nba.records
    assert back["players"][3].at("cost") == nba.records["players"][3].at("cost")          # cells survive
    source = GameSource("nba", str(PROJECT_ROOT), load_simulation, (("length", "short"),), game_engine)
    batch = Batch(source, 0, (11, 12, 13), 2, nba.seats, 100_000)
    shipped = Shipped("nba", hashlib.sha256(data).hexdigest(), data, game_engine)
    from_files, from_shipped = run_batch(batch), run_shipped(batch, shipped)
    assert from_files == from_shipped and [g["seed"] for g in from_shipped] == [11, 12, 13]
    assert all(g["error"] is None for g in from_shipped)


def test_local_splits_count_batches_workers_and_games(nba):
    pool = executors.Local(2)
    try:
        variants = ((), (("length", "short"),))
        results = simulate_runs(nba.sim, nba.records, variants, 60, 5, 2, nba.seats, source=nba.source,
                                executor=pool)
    finally:
        pool.close()
    [split] = pool.splits
    assert (split.executor, split.batches, split.workers, split.games) == ("local", 2 * -(-60 // BATCH_SIZE), 2, 120)
    assert split.seconds > 0 and split.games_per_second == pytest.approx(120 / split.seconds)
    assert [r.games for r in results] == [60, 60]
    assert [o["seed"] for o in results[0].outcomes] == [o["seed"] for o in results[1].outcomes]   # same seeds
    line = executors.split_line(split)
    assert line.startswith("120 games in 6 batches on local with 2 workers: ")
    total = executors.total([split, split])
    assert (total.games, total.batches) == (240, 12)


def test_one_process_two_processes_and_a_dask_local_cluster_give_the_same_games(nba):
    pytest.importorskip("distributed")
    found = {}
    for spec, workers in (("local", 1), ("local", 2), ("dask", 2)):
        pool = executors.parse(spec, workers)
        try:
            request = Request("nba", PROJECT_ROOT, games=60, seed=5, executor=pool)
            found[spec, workers] = run(load(request, Report()), None)
        finally:
            pool.close()
        assert pool.splits[-1].workers == workers and pool.splits[-1].games == 60
    assert found["local", 1] == found["local", 2] == found["dask", 2]
    assert found["dask", 2].finished == 60


def test_dask_missing_or_unreachable_is_one_line(monkeypatch, nba):
    pytest.importorskip("distributed")
    pool = executors.Dask("tcp://127.0.0.1:9", timeout=1)
    with pytest.raises(executors.ExecutorError, match=r"cannot reach the Dask scheduler at tcp://127.0.0.1:9"):
        run(load(Request("nba", PROJECT_ROOT, games=30, executor=pool), Report()), None)
    monkeypatch.setitem(sys.modules, "distributed", None)              # as if `.[cluster]` was not installed
    with pytest.raises(executors.ExecutorError, match=r"pip install '\.\[cluster\]'"):
        executors.Dask()._connect()


def test_simulate_on_dask_writes_the_same_reports_as_local(tmp_path):
    pytest.importorskip("distributed")
    import shutil

    for part in ("pyproject.toml", "sheets", "templates", "fonts"):
        (shutil.copytree if (PROJECT_ROOT / part).is_dir() else shutil.copy)(PROJECT_ROOT / part, tmp_path / part)
    reports = {}
    for spec in ("local", "dask"):
        done = run_cli("simulate", "buildit", "--games", "60", "--workers", "2", "--executor", spec, root=tmp_path)
        assert done.returncode == 0, done.stderr
        assert f"on {spec}" in done.stdout and "with 2 workers" in done.stdout
        folder = tmp_path / "output" / "buildit" / "simulation"
        split = json.loads((folder / "run.json").read_text())
        assert split["total"]["executor"] == spec and split["total"]["games"] >= 60
        reports[spec] = {p.name: p.read_bytes() for p in folder.iterdir() if p.name != "run.json"}
    assert reports["local"] == reports["dask"] and {"report.md", "report.pdf", "games.csv"} <= set(reports["local"])
