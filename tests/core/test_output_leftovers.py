"""pipeline/core/output.py's temporaries: named after their process, removed by the next build once that process
is gone, never anybody else's file; the scratch area cleans itself."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from pipeline.core.output import STALE_SECONDS, TEMP_AREA, atomic_write, remove_leftovers, scratch_folder


def _ended_pid() -> int:
    """The pid of a process that has ended."""
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    return process.pid


def test_a_write_names_its_temporary_after_its_process(tmp_path, monkeypatch):
    seen = []
    real = os.replace

    def replace(source, target):
        seen.append(os.path.basename(source))
        real(source, target)

    monkeypatch.setattr(os, "replace", replace)
    atomic_write(tmp_path / "cities.pdf", b"%PDF")
    assert seen[0].startswith(f".cities.pdf.{os.getpid()}-") and seen[0].endswith(".tmp")
    assert [p.name for p in tmp_path.iterdir()] == ["cities.pdf"]


def test_leftovers_of_ended_processes_are_removed_and_nothing_else(tmp_path):
    output = tmp_path / "output"
    game = output / "buildit" / "pnp-a4"
    game.mkdir(parents=True)
    ended, alive = _ended_pid(), os.getppid()
    removed = [game / f".cities.pdf.{ended}-abcd_123.tmp",       # its process is gone
               game / ".cities.pdf.k2j4h5g6.tmp",                # pnp before the pid was in the name
               game / f".normal.pdf.{os.getpid()}-zzzzzzzz.tmp"]  # ours, from before this build's writes
    kept = [game / f".aids.pdf.{alive}-abcdefgh.tmp",             # a build still running
            game / ".notes.tmp",                                  # not our pattern
            game / "cities.pdf", output / "elsewhere" / f".x.pdf.{ended}-abcdefgh.tmp"]
    stale = game / f".board.pdf.{alive}-abcdefgh.tmp"             # running, but a day old: abandoned
    kept[-1].parent.mkdir()
    for path in removed + kept + [stale]:
        path.write_bytes(b"x")
    os.utime(stale, (time.time() - STALE_SECONDS - 60,) * 2)
    scratch = output / TEMP_AREA / f"{ended}-abcdefgh"
    scratch.mkdir(parents=True)
    (scratch / "print.pdf").write_bytes(b"%PDF")

    found = remove_leftovers(output, [output / "buildit", output / "calibration"])
    assert sorted(found) == sorted(removed + [stale, scratch])
    assert all(path.exists() for path in kept) and not any(path.exists() for path in removed)
    assert not (output / TEMP_AREA).exists()


def test_a_running_build_keeps_its_scratch_folder(tmp_path):
    output = tmp_path / "output"
    running = output / TEMP_AREA / f"{os.getppid()}-abcdefgh"
    running.mkdir(parents=True)
    assert remove_leftovers(output, []) == [] and running.is_dir()


def test_the_scratch_folder_is_inside_output_and_gone_after_use(tmp_path):
    output = tmp_path / "output"
    with scratch_folder(output) as folder:
        assert folder.parent == output / TEMP_AREA and folder.name.startswith(f"{os.getpid()}-")
        (folder / "print.pdf").write_bytes(b"%PDF")
    assert not (output / TEMP_AREA).exists()
    with pytest.raises(KeyboardInterrupt), scratch_folder(output) as folder:
        raise KeyboardInterrupt
    assert not (output / TEMP_AREA).exists()
