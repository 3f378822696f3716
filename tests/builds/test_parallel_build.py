"""A build spread over several processes (`--jobs`, pipeline/core/pool.py) writes the same bytes as one
process: every file of a game with card decks, pooled sheets, dice, boards, a rulebook and PNGs. The shared
build every other test reads (tests/conftest.py built_game) is drawn in two processes; this one in one."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from pipeline.core.pool import can_fork
from tests.conftest import EVERYTHING, SHARED_JOBS, built_game, copy_project, run_cli

pytestmark = pytest.mark.slow


def _files(output: Path) -> dict[str, str]:
    """Every file's sha256, except that the Tabletop Simulator Saved Object's image addresses are the project's
    own folder (file:///…/output/nba/tts/): it is hashed with that folder as "TTS/", and report.json with the
    Saved Object's hash so read."""
    digests = {str(path.relative_to(output)): hashlib.sha256(path.read_bytes()).hexdigest()
               for path in sorted(output.rglob("*")) if path.is_file()}
    report = (output / "report.json").read_text(encoding="utf-8")
    for saved in (output / "tts").glob("*.json"):
        text = saved.read_text(encoding="utf-8").replace((output / "tts").resolve().as_uri() + "/", "TTS/")
        name = str(saved.relative_to(output))
        normal = hashlib.sha256(text.encode("utf-8")).hexdigest()
        report = report.replace(digests[name], normal)
        digests[name] = normal
    digests["report.json"] = hashlib.sha256(report.encode("utf-8")).hexdigest()
    return digests


@pytest.mark.skipif(not can_fork(), reason="one process only where the system cannot fork")
def test_two_workers_write_the_bytes_one_writes(tmp_path_factory, tmp_path):
    assert int(SHARED_JOBS) > 1
    shared = _files(built_game(tmp_path_factory, "nba"))
    root = copy_project(tmp_path / "one")
    result = run_cli("build", "nba", *EVERYTHING, "--jobs", "1", root=root)
    assert result.returncode == 0, result.stderr
    alone = _files(root / "output" / "nba")
    assert len(alone) > 300                         # PDFs of both papers and formats, PNGs, report, guide
    assert any(name.endswith(".png") for name in alone)
    assert alone == shared
