"""`pnp release` when the system will not let it write dist/ (issue 33): a release folder one of whose files
is open elsewhere (Windows refuses to move it aside) and a read-only dist/ are one located line each, the
release is refused and dist/ is left as it was, with no scratch folder. Released from a small data game
(tests/builds/test_stale_outputs.py), the failures made by patching os.replace and os.mkdir."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from pipeline.core.errors import Report
from pipeline.release.run import ReleaseRequest, release
from tests.builds.test_stale_outputs import GAME, _project


def _release(root: Path) -> tuple[list, Report]:
    report = Report()
    return release(ReleaseRequest(root, (GAME,), version="v1", jobs=2), report), report


@pytest.fixture
def released(tmp_path: Path) -> Path:
    root = _project(tmp_path)
    done, report = _release(root)
    assert [item.folder for item in done] == [root / "dist" / f"{GAME}-v1"] and not report.errors
    return root


def _files(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


def test_a_release_folder_with_a_file_open_elsewhere_is_one_line(released: Path, monkeypatch):
    folder = released / "dist" / f"{GAME}-v1"
    old, real = _files(folder), os.replace

    def replace(source, destination, *args, **kwargs):
        if os.path.abspath(source) == str(folder):          # moved aside before the new one goes in
            raise PermissionError(errno.EACCES, "Permission denied", str(source), None, str(destination))
        return real(source, destination, *args, **kwargs)
    monkeypatch.setattr(os, "replace", replace)
    (released / "data" / "cards.csv").write_text((released / "data" / "cards.csv").read_text().replace(
        "Amber Raven", "Zorglub"), encoding="utf-8")
    done, report = _release(released)
    assert done == []
    assert [str(problem) for problem in report.errors] == [
        f"dist/{GAME}-v1: cannot be replaced (is one of its files open in another program? close it, then release "
        "again) [output]"]
    assert _files(folder) == old
    assert sorted(path.name for path in (released / "dist").iterdir()) == [f"{GAME}-v1"]     # no scratch left


def test_a_read_only_dist_is_one_line(released: Path, monkeypatch):
    dist, real = released / "dist", os.mkdir
    old = _files(dist / f"{GAME}-v1")

    def mkdir(path, *args, **kwargs):
        if os.path.abspath(path).startswith(str(dist) + os.sep):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real(path, *args, **kwargs)
    monkeypatch.setattr(os, "mkdir", mkdir)
    done, report = _release(released)
    assert done == []
    assert [str(problem) for problem in report.errors] == [
        "dist: cannot be written in, the folder is read-only (make it writable, then release again) [output]"]
    assert sorted(path.name for path in dist.iterdir()) == [f"{GAME}-v1"] and _files(dist / f"{GAME}-v1") == old
