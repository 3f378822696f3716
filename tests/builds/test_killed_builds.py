"""A build killed mid-write leaves nothing behind (issue 19): real build processes are killed (SIGKILL) or
stopped (SIGTERM, Ctrl-C) at the moment a temporary exists under output/; the next build removes what a
killed one could not, and a stopped one removes its own and exits 143 (SIGTERM) or 130 (Ctrl-C).

Two moments: a card sheet's temporary held before its rename (the same CLI, with the rename delayed: a real
write lasts a millisecond, too short to catch by polling), and the PNG step's scratch copy of a print PDF in
output/.pnp-tmp/ (an ordinary build: it lives while the pages are rasterised)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pipeline.core.output import TEMP_AREA
from tests.conftest import copy_project, run_cli

pytestmark = pytest.mark.slow

# `pnp` itself, with each temporary held 60 s between its last byte and its rename
HELD_RENAME = """
import os, sys, time, types
import pipeline.core.output
held = types.ModuleType("os")
held.__dict__.update(os.__dict__)
def chmod(path, mode):
    time.sleep(60)
    os.chmod(path, mode)
held.chmod = chmod
pipeline.core.output.os = held
from pipeline.cli.app import main
main()
"""
BUILD = ("build", "buildit", "--paper", "a4")
MOMENTS = {
    "held-rename": ([sys.executable, "-c", HELD_RENAME, *BUILD], lambda output: list(output.rglob(".*.tmp"))),
    "png-scratch": ([sys.executable, "-m", "pipeline", *BUILD, "--format", "png"],
                    lambda output: list((output / TEMP_AREA).glob("*/print.pdf"))),
}


def _leftovers(output: Path) -> list[Path]:
    """What no build may leave: a hidden temporary anywhere under output/, or the scratch area."""
    return sorted(output.rglob(".*.tmp")) + sorted(output.rglob(TEMP_AREA))


def _start(root: Path, moment: str) -> tuple[subprocess.Popen, list[Path]]:
    """The build, once a temporary of that moment exists (polled); the temporaries seen."""
    command, temporaries = MOMENTS[moment]
    process = subprocess.Popen(command, env={**os.environ, "PNP_ROOT": str(root)}, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and process.poll() is None:
        found = temporaries(root / "output")
        if found:
            return process, found
        time.sleep(0.005)
    process.kill()
    out, err = process.communicate()
    pytest.fail(f"no temporary appeared under output/ (exit {process.returncode}):\n{out}\n{err}")


@pytest.mark.parametrize("moment", sorted(MOMENTS))
def test_the_build_after_a_killed_one_leaves_no_temporary(moment, tmp_path):
    root = copy_project(tmp_path / "project")
    process, found = _start(root, moment)
    process.send_signal(signal.SIGKILL)
    process.communicate()
    assert process.returncode == -signal.SIGKILL
    assert all(path.exists() for path in found)     # what SIGKILL leaves: nothing can clean up

    result = run_cli(*BUILD, root=root)
    assert result.returncode == 0, result.stderr
    assert _leftovers(root / "output") == []
    assert (root / "output" / "buildit" / "pnp-a4" / "normal.pdf").is_file()


@pytest.mark.parametrize("moment", sorted(MOMENTS))
@pytest.mark.parametrize("stop, code", [(signal.SIGTERM, 143), (signal.SIGINT, 130)], ids=["SIGTERM", "Ctrl-C"])
def test_a_stopped_build_removes_its_temporaries_and_exits_cleanly(moment, stop, code, tmp_path):
    root = copy_project(tmp_path / "project")
    process, _ = _start(root, moment)
    process.send_signal(stop)
    out, err = process.communicate(timeout=120)
    assert process.returncode == code, out + err
    assert "Traceback" not in out + err
    assert _leftovers(root / "output") == []
