"""`pnp release` from the command line: `git tag v0.1 && pnp release buildit allstar` in two fresh clones of
one repository, one with a process, one with two, gives the same bytes (and `sha256sum -c` passes); a problem refuses the release with its located
line and leaves dist/ as it was; Ctrl-C leaves nothing; usage mistakes exit 2."""

from __future__ import annotations

import io
import os
import shutil
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import openpyxl
import pdfplumber
import pytest

from pipeline import PROJECT_ROOT
from pipeline.release.bundle import zip_time
from tests.conftest import copy_project, run_cli, set_cell
from tests.release.test_release import COMMIT_EPOCH, git, repository

pytestmark = [pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed"), pytest.mark.slow]


@pytest.fixture(scope="module")
def origin(tmp_path_factory) -> Path:
    root = repository(tmp_path_factory.mktemp("origin"))
    git(root, "tag", "v0.1")
    return root


def clone(origin: Path, folder: Path) -> Path:
    git(folder.parent, "clone", "-q", str(origin), str(folder))
    return folder


def files_of(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


# one clone releases with one process for everything, the other with two games side by side, each drawing
# its files in two processes (pipeline/core/pool.py): the bytes must not tell them apart
JOBS = {"one": ("--jobs", "1", "--workers", "1"), "two": ("--jobs", "2", "--workers", "2")}


@pytest.fixture(scope="module")
def two_clones(origin, tmp_path_factory):
    """Both releases at once, each in its own clone (as two CI runners would)."""
    started = []
    for name in ("one", "two"):
        root = clone(origin, tmp_path_factory.mktemp(name) / "clone")
        started.append((root, subprocess.Popen(
            [sys.executable, "-m", "pipeline", "release", "buildit", "allstar", *JOBS[name]], text=True,
            env={**os.environ, "PNP_ROOT": str(root)}, stdout=subprocess.PIPE, stderr=subprocess.PIPE)))
    runs = []
    for root, process in started:
        out, err = process.communicate(timeout=600)
        assert process.returncode == 0, err
        runs.append((root, subprocess.CompletedProcess(process.args, process.returncode, out, err)))
    return runs


def test_two_fresh_clones_release_the_same_bytes(two_clones):
    (one, _), (two, _) = two_clones
    made = files_of(one / "dist")
    assert sorted(made) == sorted(f"{game}-v0.1/{name}" for game in ("allstar", "buildit") for name in (
        "CHANGES.md", "SHA256SUMS", f"{game}-v0.1-home-a4.zip", f"{game}-v0.1-home-letter.zip",
        f"{game}-v0.1-png.zip", f"{game}-v0.1-print-shop.zip", f"{game}-v0.1-tts.zip", f"{game}-v0.1.pcio",
        f"{game}-v0.1-tgc.zip", f"{game}-v0.1-mpc.zip", f"{game}-v0.1-dtc.zip"))
    assert made == files_of(two / "dist")
    assert "Première édition" in made["buildit-v0.1/CHANGES.md"].decode()
    for root in (one, two):
        assert not (root / "output").exists()
        assert subprocess.run(["git", "status", "--porcelain"], cwd=root, capture_output=True, text=True).stdout == ""


def test_the_zips_hold_the_commit_time_and_no_path_of_the_machine(two_clones):
    (one, _), (two, _) = two_clones
    for bundle in sorted((one / "dist" / "buildit-v0.1").glob("*.zip")):
        with zipfile.ZipFile(bundle) as opened:
            infos = opened.infolist()
            assert {i.date_time for i in infos} == {zip_time(COMMIT_EPOCH)}
            assert all(i.filename.startswith("buildit-v0.1/") and ".." not in i.filename for i in infos)
            guides = [opened.read(i) for i in infos if i.filename.endswith(".md")]
        for text in guides:
            assert str(one).encode() not in text and str(two).encode() not in text


def test_sha256sum_checks_the_release(two_clones):
    (one, _), _ = two_clones
    if shutil.which("sha256sum") is None:
        pytest.skip("no sha256sum")
    checked = subprocess.run(["sha256sum", "-c", "SHA256SUMS"], cwd=one / "dist" / "buildit-v0.1",
                             capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout
    assert checked.stdout.count(": OK") == 10       # 8 zips, the playingcards.io room, CHANGES.md


def test_it_prints_what_was_written_and_the_time(two_clones):
    (_, first), _ = two_clones
    lines = first.stdout.splitlines()
    assert lines[0].startswith("released buildit v0.1 → dist/buildit-v0.1/ in ")
    assert lines[0].endswith(" s; first release (no earlier tag)")
    assert [line.split()[1] for line in lines[1:12]] == [
        "buildit-v0.1-home-a4.zip", "buildit-v0.1-home-letter.zip", "buildit-v0.1-print-shop.zip",
        "buildit-v0.1-png.zip", "buildit-v0.1-tts.zip", "buildit-v0.1-tgc.zip", "buildit-v0.1-mpc.zip",
        "buildit-v0.1-dtc.zip", "buildit-v0.1.pcio", "CHANGES.md", "SHA256SUMS"]
    assert lines[12].startswith("released allstar v0.1 → dist/allstar-v0.1/ in ")
    assert lines[-1].startswith("released 2 games in ")


def test_a_problem_refuses_the_release_and_leaves_dist_as_it_was(origin, tmp_path):
    root = clone(origin, tmp_path / "clone")
    book = openpyxl.load_workbook(root / "sheets" / "buildit.xlsx")
    set_cell(book["normal_cards"], "id", "coin_gain_4", "cost", -3)
    book.save(root / "sheets" / "buildit.xlsx")
    earlier = root / "dist" / "buildit-v0.1-dirty"
    earlier.mkdir(parents=True)
    (earlier / "CHANGES.md").write_text("an earlier release")
    result = run_cli("release", "buildit", root=root)
    assert result.returncode == 1
    assert "sheets/buildit.xlsx › normal_cards › E5 (cost)" in result.stderr
    assert "release refused: nothing was written to dist/" in result.stdout
    assert files_of(root / "dist") == {"buildit-v0.1-dirty/CHANGES.md": b"an earlier release"}


def test_a_refused_first_release_leaves_no_dist_folder(origin, tmp_path):
    root = clone(origin, tmp_path / "clone")
    result = run_cli("release", "buildit", "--games", "50", root=root)     # too few games to decide the gates
    assert result.returncode == 1
    assert "undecided: play more games" in result.stderr
    assert not (root / "dist").exists()


@pytest.mark.parametrize("args, message", [
    (("release", "nosuchgame"), "unknown game 'nosuchgame'"),
    (("release", "buildit", "--version", "../v1"), "--version: version '../v1' cannot name a release folder"),
])
def test_usage_mistakes_exit_2(origin, args, message):
    result = run_cli(*args, root=origin)
    assert result.returncode == 2 and message in result.stderr


def test_a_source_date_epoch_that_is_not_a_time_is_a_usage_mistake(origin, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "yesterday")
    result = run_cli("release", "buildit", root=origin)
    assert result.returncode == 2 and "SOURCE_DATE_EPOCH must be a whole number" in result.stderr


@pytest.mark.slow
def test_ctrl_c_leaves_nothing_in_dist(origin, tmp_path):
    root = clone(origin, tmp_path / "clone")
    env = {**os.environ, "PNP_ROOT": str(root)}
    process = subprocess.Popen([sys.executable, "-m", "pipeline", "release", "buildit"], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    scratch = root / "dist" / ".pnp-tmp"
    deadline = time.monotonic() + 120
    while not list(scratch.glob("*/project/output/buildit")) and time.monotonic() < deadline:
        time.sleep(0.05)                                  # the build has begun writing
    process.send_signal(signal.SIGINT)
    process.communicate(timeout=120)
    assert process.returncode == 130
    assert not (root / "dist").exists() or not any((root / "dist").iterdir())


def test_a_named_data_only_game_without_git_or_marks(tmp_path):
    """benchdeck (a CSV game, left out of a bare release) released by name with --version and --no-mark, in a
    project that is no git repository: the zips hold the 1980 time, the sheets no mark."""
    copy_project(tmp_path)
    shutil.copytree(PROJECT_ROOT / "bench" / "data", tmp_path / "bench" / "data")
    result = run_cli("release", "benchdeck", "--version", "final", "--no-mark", root=tmp_path)
    assert result.returncode == 0, result.stderr
    folder = tmp_path / "dist" / "benchdeck-final"
    assert "Première édition" in (folder / "CHANGES.md").read_text("utf-8")
    with zipfile.ZipFile(folder / "benchdeck-final-home-a4.zip") as bundle:
        assert {i.date_time for i in bundle.infolist()} == {(1980, 1, 1, 0, 0, 0)}
        sheets = [bundle.read(n) for n in bundle.namelist() if n.endswith(".pdf") and "calibration" not in n]
    for data in sheets:
        with pdfplumber.open(io.BytesIO(data)) as pdf:
            assert not any("final" in (page.extract_text() or "") for page in pdf.pages)
