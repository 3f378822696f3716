"""A file the system will not let a build write (issue 33): a PDF open in a viewer (Windows refuses the rename
over it: PermissionError), a read-only folder (EACCES on creating the temporary), a full disk (ENOSPC while
writing). The build names it in one line and exits 1, writes everything else, leaves that file's old bytes
and no temporary, and does not cache its step: once the cause is gone, the next build writes it.

The failures are made by patching os.replace, tempfile.mkstemp or os.fdopen for one target only (so they
happen as root too, where chmod would not refuse anything); the build runs its write steps in forked
processes (two steps, two jobs), which inherit the patch, and a test checks the refusal did happen there."""

from __future__ import annotations

import errno
import io
import os
import tempfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline.build import build
from pipeline.cache import ComponentStats
from pipeline.cache.writes import write_unit
from pipeline.core.config import BuildConfig
from pipeline.core.output import atomic_write, failing
from pipeline.core.write_failures import CannotWrite, failure_of
from tests.builds.test_stale_outputs import GAME, _project, _rename_first_card
from tests.conftest import point_cli_at

CARDS = f"output/{GAME}/pnp-a4/cards.pdf"
INK_SAVER = f"output/{GAME}/pnp-a4/cards-ink-saver.pdf"


def _config(root: Path) -> BuildConfig:
    # two write steps (the cards, their ink-saver sheets) over two jobs: drawn in forked processes
    return BuildConfig(root=root, games=(GAME,), papers=("a4",), formats=("pnp", "png"), ink_saver=True, jobs=2)


@pytest.fixture
def changed(tmp_path: Path) -> Path:
    """A toy game built once, then its first card renamed: the next build must replace both card sheets."""
    root = _project(tmp_path)
    report, built = build(_config(root))
    assert built == [GAME] and not report.problems
    _rename_first_card(root, "Zorglub")
    return root


def _bytes(root: Path) -> dict[str, bytes]:
    return {rel: (root / rel).read_bytes() for rel in (CARDS, INK_SAVER)}


def _temporaries(root: Path) -> list[Path]:
    return [path for path in (root / "output").rglob("*") if path.name.endswith(".tmp") or ".pnp-tmp" in path.parts]


def _refuse_replace(monkeypatch, target: Path, pids: Path) -> None:
    """os.replace over `target` raises what Windows raises for a file open in a viewer; the pid that met it
    is written in `pids` (a forked worker's patch is the parent's)."""
    real = os.replace

    def replace(source, destination, *args, **kwargs):
        if os.path.abspath(destination) == str(target):
            with open(pids, "a") as out:
                out.write(f"{os.getpid()}\n")
            raise PermissionError(errno.EACCES, "Permission denied", str(source), None, str(destination))
        return real(source, destination, *args, **kwargs)
    monkeypatch.setattr(os, "replace", replace)


def _rebuilt(root: Path, old: dict[str, bytes]) -> None:
    """The cause gone, the next build writes every file the failed one could not."""
    report, built = build(_config(root))
    assert built == [GAME] and not report.problems
    assert all((root / rel).read_bytes() != data for rel, data in old.items())
    assert not _temporaries(root)


def test_a_pdf_open_in_a_viewer_is_one_line_and_kept_whole(changed: Path, monkeypatch, tmp_path: Path):
    old, pids = _bytes(changed), tmp_path / "pids"
    report_json = (changed / "output" / GAME / "report.json").read_bytes()
    _refuse_replace(monkeypatch, (changed / CARDS).resolve(), pids)
    report, built = build(_config(changed))
    assert built == []
    assert [(str(p.where), p.message) for p in report.errors] == [
        (CARDS, "cannot be replaced (is it open in a PDF viewer? close it, then build again)")]
    assert (changed / CARDS).read_bytes() == old[CARDS]                         # the locked file as it was
    assert (changed / INK_SAVER).read_bytes() != old[INK_SAVER]                 # everything else written
    assert (changed / "output" / GAME / "png" / "cards" / "Zorglub.png").is_file()
    assert (changed / "output" / GAME / "report.json").read_bytes() == report_json   # the old report kept
    assert not _temporaries(changed)
    assert {int(pid) for pid in pids.read_text().split()} - {os.getpid()}      # met in a forked worker
    monkeypatch.undo()
    _rebuilt(changed, {CARDS: old[CARDS]})


def test_the_command_line_says_it_in_one_line_and_exits_1(changed: Path, monkeypatch, tmp_path: Path):
    from pipeline.cli.app import app

    point_cli_at(monkeypatch, changed)
    _refuse_replace(monkeypatch, (changed / CARDS).resolve(), tmp_path / "pids")
    result = CliRunner().invoke(app, ["build", GAME, "--paper", "a4", "--ink-saver", "-j", "2"])
    lines = result.output.splitlines()
    assert result.exit_code == 1 and not isinstance(result.exception, Exception)     # SystemExit(1) only
    assert [line for line in lines if "cannot" in line] == [
        f"error {CARDS}: cannot be replaced (is it open in a PDF viewer? close it, then build again) [output]"]
    assert lines[-1] == "build failed: that file or folder could not be written (everything else was)"
    assert "Traceback" not in result.output


def test_a_full_disk_while_writing(changed: Path, monkeypatch):
    old = _bytes(changed)
    real_mkstemp, real_fdopen, full = tempfile.mkstemp, os.fdopen, set()

    def mkstemp(*args, **kwargs):
        handle, temp = real_mkstemp(*args, **kwargs)
        if os.path.basename(temp).startswith(".cards-ink-saver.pdf."):
            full.add(handle)
        return handle, temp

    class Full(io.FileIO):
        def write(self, data):
            raise OSError(errno.ENOSPC, "No space left on device")

    def fdopen(handle, *args, **kwargs):
        return Full(handle, "wb") if handle in full else real_fdopen(handle, *args, **kwargs)
    monkeypatch.setattr(tempfile, "mkstemp", mkstemp)
    monkeypatch.setattr(os, "fdopen", fdopen)
    report, built = build(_config(changed))
    assert built == []
    assert [(str(p.where), p.message) for p in report.errors] == [
        (INK_SAVER, "cannot be written, the disk is full (free some space, then build again)")]
    assert (changed / INK_SAVER).read_bytes() == old[INK_SAVER]
    assert (changed / CARDS).read_bytes() != old[CARDS]
    assert not _temporaries(changed)
    monkeypatch.undo()
    _rebuilt(changed, {INK_SAVER: old[INK_SAVER]})


def test_a_read_only_folder(changed: Path, monkeypatch):
    """EACCES on creating the temporary in output/toydeck/pnp-a4/ (what chmod 555 does to a user other than
    root): one line naming the folder, its two files kept, the folders beside it written."""
    old, folder = _bytes(changed), str((changed / CARDS).resolve().parent)
    pli = (changed / f"output/{GAME}/pnp-a4/pli/cards-pli.pdf").read_bytes()
    real = tempfile.mkstemp

    def mkstemp(suffix=None, prefix=None, dir=None, text=False):
        if dir is not None and os.path.abspath(dir) == folder:
            raise PermissionError(errno.EACCES, "Permission denied", os.path.join(dir, f"{prefix}xxxxxxxx{suffix}"))
        return real(suffix, prefix, dir, text)
    monkeypatch.setattr(tempfile, "mkstemp", mkstemp)
    report, built = build(_config(changed))
    assert built == []
    assert [(str(p.where), p.message) for p in report.errors] == [
        (f"output/{GAME}/pnp-a4", "cannot be written in, the folder is read-only (2 files not written: make it "
                                  "writable, then build again)")]
    assert _bytes(changed) == old
    assert (changed / f"output/{GAME}/pnp-a4/pli/cards-pli.pdf").read_bytes() != pli
    assert not _temporaries(changed)
    monkeypatch.undo()
    _rebuilt(changed, old)


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root writes in a read-only folder anyway")
def test_a_folder_really_made_read_only(changed: Path):
    folder = changed / "output" / GAME / "pnp-a4"
    old = _bytes(changed)
    folder.chmod(0o555)
    try:
        report, built = build(_config(changed))
    finally:
        folder.chmod(0o755)
    assert built == [] and [str(p.where) for p in report.errors] == [f"output/{GAME}/pnp-a4"]
    assert _bytes(changed) == old and not _temporaries(changed)


def test_outside_a_build_the_refusal_is_raised_as_a_located_problem(tmp_path: Path, monkeypatch):
    """simulate, sweep, diff: atomic_write raises CannotWrite, which the CLI prints as its one line."""
    target = tmp_path / "report.md"
    target.write_bytes(b"old")
    _refuse_replace(monkeypatch, target, tmp_path / "pids")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(CannotWrite) as raised:
        atomic_write(target, b"new")
    assert [str(problem) for problem in raised.value.problems] == [
        "report.md: cannot be replaced (is it open in another program? close it, then build again) [output]"]
    assert target.read_bytes() == b"old" and sorted(p.name for p in tmp_path.iterdir()) == ["pids", "report.md"]


def test_a_step_with_a_refused_file_is_not_cached(tmp_path: Path, monkeypatch):
    """write_unit keeps no checksum of a step one of whose files was refused (the next build draws it again),
    and keeps those of a step written whole."""
    class Cache:
        def __init__(self):
            self.puts = []

        def put(self, key, value):
            self.puts.append(key)

    cache, locked = Cache(), tmp_path / "a.pdf"
    _refuse_replace(monkeypatch, locked, tmp_path / "pids")

    def write(name):
        atomic_write(tmp_path / name, b"x")
        atomic_write(tmp_path / "b.pdf", b"y")
        return [{"path": name}]
    with failing() as failed:
        write_unit(cache, "refused", lambda: write("a.pdf"), tmp_path, ComponentStats(), None)
        write_unit(cache, "whole", lambda: write("c.pdf"), tmp_path, ComponentStats(), None)
    assert cache.puts == ["whole"]
    assert [Path(failure.path).name for failure in failed] == ["a.pdf"]


@pytest.mark.parametrize("raised, line", [
    (CannotWrite, "error sim/report.md: cannot be replaced (is it open in another program? close it, then build "
                  "again) [output]"),
    (OSError(errno.ENOSPC, "No space left on device", "sim/table.csv"), "error sim/table.csv: the disk is full"),
])
def test_the_command_line_prints_a_refusal_met_anywhere_as_one_line(raised, line, tmp_path, monkeypatch, capsys):
    """`pnp simulate`, `sweep`, `diff`: what atomic_write raises there, or an OSError of the system from any
    other write, reaches main() and is one line, exit 1."""
    import pipeline.cli.app as cli

    monkeypatch.chdir(tmp_path)
    if raised is CannotWrite:
        raised = CannotWrite([failure_of(PermissionError(errno.EACCES, "Permission denied"), "sim/report.md",
                                         replacing=True)])

    def command():
        raise raised
    monkeypatch.setattr(cli, "app", command)
    with pytest.raises(SystemExit) as exited:
        cli.main()
    assert exited.value.code == 1
    assert capsys.readouterr().err.splitlines() == [line]
