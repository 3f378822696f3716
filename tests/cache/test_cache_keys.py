"""What the cache keys on (issue 32): what a thing is made of, never a file's bytes or the project's place. A
project copied elsewhere, or a workbook a spreadsheet program saved again with the same values, rebuilds
nothing; an unchanged workbook is not parsed again, and stage 6's bot games are not played again while the
records they play are the same."""

from __future__ import annotations

import shutil
from pathlib import Path

import openpyxl
import pytest

import pipeline.validate as validate_module
from conftest import copy_project
from pipeline.build import build, validate
from pipeline.cache import BuildStats
from pipeline.core.config import BuildConfig
from pipeline.core.progress import Progress
from tests.cache.test_incremental import GAME, files, laid_out, rename_card


def run(root: Path) -> BuildStats:
    stats = BuildStats()
    report, built = build(BuildConfig(root=root, games=(GAME,), papers=("a4",)), Progress(), stats=stats)
    assert built == [GAME], [str(p) for p in report.errors]
    return stats


def written(stats: BuildStats) -> int:
    return sum(part.files_written for part in stats.games[GAME].values())


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """One project built once; each test works on its own copy of it, cache and output included."""
    root = copy_project(tmp_path_factory.mktemp("keys") / "project")
    run(root)
    return root


def test_a_project_copied_elsewhere_reuses_its_cache_and_writes_the_same_bytes(built, tmp_path):
    moved = tmp_path / "somewhere" / "else"
    shutil.copytree(built, moved)
    stats = run(moved)
    assert laid_out(stats) == {} and written(stats) == 0
    assert files(moved) == files(built)
    drawn = (moved / "output" / GAME / "report.json").read_text(encoding="utf-8")
    assert str(built) not in drawn                    # nothing of the first place leaked into the report


def test_a_workbook_saved_again_with_the_same_values_rebuilds_nothing_nor_plays_again(built, tmp_path, monkeypatch):
    root = tmp_path / "project"
    shutil.copytree(built, root)
    workbook = root / "sheets" / f"{GAME}.xlsx"
    before = workbook.read_bytes()
    openpyxl.load_workbook(workbook).save(workbook)    # what a spreadsheet program does on every save
    assert workbook.read_bytes() != before
    monkeypatch.setattr(validate_module, "check_play", lambda *a, **k: pytest.fail("stage 6 played again"))
    stats = run(root)
    assert laid_out(stats) == {} and written(stats) == 0


def test_an_unchanged_workbook_is_not_parsed_again(built, tmp_path, monkeypatch):
    root = tmp_path / "project"
    shutil.copytree(built, root)
    monkeypatch.setattr(validate_module, "read_workbook", lambda *a, **k: pytest.fail("parsed again"))
    monkeypatch.setattr(validate_module, "check_play", lambda *a, **k: pytest.fail("stage 6 played again"))
    assert written(run(root)) == 0


def test_a_changed_card_plays_stage_6_again(built, tmp_path, monkeypatch):
    root = tmp_path / "project"
    shutil.copytree(built, root)
    rename_card(root)
    played = []
    real = validate_module.check_play
    monkeypatch.setattr(validate_module, "check_play", lambda *a, **k: played.append(1) or real(*a, **k))
    stats = run(root)
    assert played == [1] and laid_out(stats) == {"players": 1}


def test_validate_reads_the_cache_a_build_left_and_writes_nothing(built, tmp_path, monkeypatch):
    root = tmp_path / "project"
    shutil.copytree(built, root)
    cache = sorted(str(p) for p in (root / "output").rglob("*"))
    monkeypatch.setattr(validate_module, "check_play", lambda *a, **k: pytest.fail("stage 6 played again"))
    report, prepared = validate(BuildConfig(root=root, games=(GAME,), papers=("a4",)))
    assert not report.errors and prepared[0].laid
    assert sorted(str(p) for p in (root / "output").rglob("*")) == cache

    fresh = copy_project(tmp_path / "fresh")
    monkeypatch.undo()
    report, _ = validate(BuildConfig(root=fresh, games=(GAME,), papers=("a4",)))
    assert not report.errors and not (fresh / "output").exists()


def test_a_changed_card_s_files_are_measured_once_where_they_are_drawn(built, tmp_path, monkeypatch):
    """The report's ink measure and glossary read of a home file are taken by the write step that drew it
    (guide/report.py measure_written) and found in the cache by the report: each changed file is measured
    once, and the report's numbers are those a clean build gives."""
    import json

    import pipeline.guide.glossary as glossary_module
    import pipeline.guide.paperbill as paperbill_module

    root = tmp_path / "project"
    shutil.copytree(built, root)
    rename_card(root)
    inked, read = [], []
    ink, text = paperbill_module.ink_coverage, glossary_module.pdf_text
    monkeypatch.setattr(paperbill_module, "ink_coverage", lambda path: inked.append(path.name) or ink(path))
    monkeypatch.setattr(glossary_module, "pdf_text", lambda path: read.append(path.name) or text(path))
    import pipeline.build as build_module

    by_reports, add_reports = [], build_module._add_reports

    def reports(*args, **kwargs):
        before = len(inked) + len(read)
        made = add_reports(*args, **kwargs)
        by_reports.append(len(inked) + len(read) - before)
        return made
    monkeypatch.setattr(build_module, "_add_reports", reports)
    stats = BuildStats()
    report, done = build(BuildConfig(root=root, games=(GAME,), papers=("a4",), jobs=1), Progress(), stats=stats)
    assert done == [GAME], [str(p) for p in report.errors]
    assert inked and sorted(inked) == sorted(set(inked)), inked           # the changed files, each once
    assert sorted(read) == sorted(set(read)) and set(read) <= set(inked), read
    assert by_reports == [0]                            # measured by the steps that drew them, not by the report
    clean = tmp_path / "clean"
    shutil.copytree(root, clean, ignore=shutil.ignore_patterns("output"))
    run(clean)
    bill = json.loads((root / "output" / GAME / "report.json").read_text())["paper_bill"]
    assert bill == json.loads((clean / "output" / GAME / "report.json").read_text())["paper_bill"]


def test_a_put_outside_a_collecting_block_is_found_inside_it(tmp_path):
    from pipeline.cache import BuildCache

    cache = BuildCache(tmp_path, tmp_path / "templates" / "game")
    cache.put("outer", 1)
    with cache.collecting() as inner:
        assert cache.get("outer") == 1                  # held, still read
        cache.put("inner", 2)
        assert cache.get("inner") == 2
    assert inner == {"inner": inner["inner"]} and cache.get("inner") is None   # handed back, not kept here
    assert cache.get("outer") == 1
