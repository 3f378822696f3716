"""The build cache lives with caches (issue 33): .pnp-cache/ at the project's root, tagged CACHEDIR.TAG, never
in output/ (an output/.cache of earlier versions is removed by the next build); PNP_CACHE_DIR moves it and is
refused on the project, its inputs, output/ or /; `pnp build --no-cache` neither reads nor writes it; `pnp
clean` removes outputs and cache and nothing else. Built from a small data game
(tests/builds/test_stale_outputs.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline.build import build
from pipeline.cache import BuildStats
from pipeline.cache.location import TAG, cache_folder
from pipeline.core.config import BuildConfig
from pipeline.core.errors import PipelineError
from tests.builds.test_stale_outputs import GAME, _project
from tests.conftest import point_cli_at


def _build(root: Path, **options) -> BuildStats:
    stats = BuildStats()
    report, built = build(BuildConfig(root=root, games=(GAME,), papers=("a4",), **options), stats=stats)
    assert built == [GAME] and not report.errors
    return stats


def _fingerprints(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.iterdir() if path.is_dir())


@pytest.fixture
def root(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.delenv("PNP_CACHE_DIR", raising=False)
    return _project(tmp_path / "project")


def test_the_cache_is_a_tagged_hidden_folder_at_the_root_and_the_old_one_goes(root: Path):
    old = root / "output" / ".cache" / "0123456789abcdef" / "ab"
    old.mkdir(parents=True)
    (old / "entry").write_bytes(b"pnp-cache-1 old")
    _build(root)
    cache = root / ".pnp-cache"
    assert (cache / TAG).read_text().startswith("Signature: 8a477f597d28d172789f06886806bc55\n")
    assert len(_fingerprints(cache)) == 1 and list((cache / _fingerprints(cache)[0]).glob("*/*"))
    assert sorted(path.name for path in (root / "output").iterdir()) == ["calibration", GAME]    # no .cache


def test_pnp_cache_dir_moves_it_absolute_or_from_the_root(root: Path, tmp_path: Path, monkeypatch):
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "elsewhere"))
    _build(root)
    assert (tmp_path / "elsewhere" / TAG).is_file() and not (root / ".pnp-cache").exists()
    monkeypatch.setenv("PNP_CACHE_DIR", ".caches/pnp")
    assert cache_folder(root) == root.resolve() / ".caches" / "pnp"


@pytest.mark.parametrize("given", [".", "..", "sheets", "templates/toydeck", "output", "output/.cache", "/"])
def test_a_cache_dir_that_would_lose_the_project_s_files_is_refused(given: str, root: Path, monkeypatch):
    monkeypatch.setenv("PNP_CACHE_DIR", given)
    with pytest.raises(PipelineError) as refused:
        cache_folder(root)
    [problem] = refused.value.problems
    assert str(problem.where) == "PNP_CACHE_DIR" and problem.message.startswith(f"{given!r} cannot hold the build")
    with pytest.raises(PipelineError):
        build(BuildConfig(root=root, games=(GAME,), papers=("a4",)))
    assert not (root / "output").exists()


def test_no_cache_neither_reads_nor_writes_it(root: Path):
    first = _build(root)
    assert _build(root).total().faces_laid_out == 0                         # the cache at work
    entries = sorted((root / ".pnp-cache").rglob("*"))
    again = _build(root, cache=False)
    assert again.total().faces_laid_out == first.total().faces_laid_out > 0  # every face laid out anew
    assert sorted((root / ".pnp-cache").rglob("*")) == entries
    (root / "output").rename(root / "before")
    (root / ".pnp-cache").rename(root / "cache-before")
    _build(root, cache=False)
    assert not (root / ".pnp-cache").exists()


def _clean(root: Path, monkeypatch, *args: str):
    from pipeline.cli.app import app

    point_cli_at(monkeypatch, root)
    result = CliRunner().invoke(app, ["clean", *args])
    return result.exit_code, result.output.splitlines()


def test_clean_removes_a_game_s_outputs_then_all_outputs_and_the_cache(root: Path, monkeypatch):
    _build(root)
    (root / "dist").mkdir()
    (root / "dist" / "kept.zip").write_bytes(b"a release")
    code, lines = _clean(root, monkeypatch, GAME)
    assert code == 0 and len(lines) == 1 and lines[0].startswith(f"removed output/{GAME}/ (")
    assert sorted(path.name for path in (root / "output").iterdir()) == ["calibration"]
    assert (root / ".pnp-cache").is_dir()                                   # shared by every game: kept
    code, lines = _clean(root, monkeypatch, "--keep-cache")
    assert code == 0 and [line.split(" (")[0] for line in lines] == ["removed output/"]
    code, lines = _clean(root, monkeypatch)
    assert code == 0 and [line.split(" (")[0] for line in lines] == ["removed .pnp-cache/"]
    assert float(lines[0].split("(")[1].split()[0]) > 0
    assert _clean(root, monkeypatch) == (0, ["nothing to remove"])
    assert sorted(path.name for path in root.iterdir()) == ["data", "dist", "templates"]
    assert (root / "dist" / "kept.zip").read_bytes() == b"a release"


def test_clean_leaves_what_is_not_pnp_s_in_a_shared_cache_dir(root: Path, tmp_path: Path, monkeypatch):
    shared = tmp_path / "caches"
    (shared / "photos").mkdir(parents=True)
    (shared / "notes.txt").write_text("mine")
    (shared / "0123456789abcdef").mkdir()                                   # another version's entries
    monkeypatch.setenv("PNP_CACHE_DIR", str(shared))
    _build(root)                                                            # prunes only pnp's folders
    assert sorted(path.name for path in shared.iterdir()) == sorted(
        [TAG, "notes.txt", "photos", *[name for name in _fingerprints(shared) if name != "photos"]])
    assert "0123456789abcdef" not in _fingerprints(shared)
    code, lines = _clean(root, monkeypatch, "--cache-only")
    assert code == 0 and lines[0].startswith(f"removed {shared.as_posix()}/ (")
    assert sorted(path.name for path in shared.iterdir()) == ["notes.txt", "photos"]
    assert (root / "output" / GAME).is_dir()


@pytest.mark.parametrize("args", [("--cache-only", "--keep-cache"), ("--cache-only", GAME), ("../sheets",)])
def test_clean_usage_mistakes_exit_2(args, root: Path, monkeypatch):
    assert _clean(root, monkeypatch, *args)[0] == 2
