"""pipeline/core/edition.py: versions, data ids and their short form."""

from __future__ import annotations

import subprocess
from pathlib import Path

from pipeline.core.edition import DEV, data_id, mark_text, short_ids, version_of


def test_data_id_is_the_data_only_and_canonical():
    a = data_id({"name": "Tim Duncan", "cost": 9, "art": Path("art/td.svg"), "keep": (2, 0)})
    assert a == data_id({"keep": [2, 0], "art": "art/td.svg", "cost": 9, "name": "Tim Duncan"})   # order, kinds
    assert a != data_id({"name": "Tim Duncan", "cost": 8, "art": Path("art/td.svg"), "keep": (2, 0)})
    assert data_id({"x": 1}) != data_id({"x": 1.0}) and len(a) == 64


def test_short_ids_grow_only_when_distinct_data_would_collide():
    assert short_ids(["abcd1", "abcd1", "ffff0"]) == {"abcd1": "abcd", "ffff0": "ffff"}
    assert short_ids(["abcd1", "abcd2", "ffff0"]) == {"abcd1": "abcd1", "abcd2": "abcd2", "ffff0": "ffff0"}


def test_version_asked_then_record_then_git_then_dev(tmp_path):
    assert version_of("0.3", tmp_path, "1.0") == "1.0" and version_of("0.3", tmp_path) == "0.3"
    assert version_of("", tmp_path) == DEV                                   # not a git work tree
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"]
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / "a.txt").write_text("a")
    subprocess.run(git + ["-C", str(tmp_path), "add", "a.txt"], check=True)
    subprocess.run(git + ["-C", str(tmp_path), "commit", "-qm", "a"], check=True)
    subprocess.run(git + ["-C", str(tmp_path), "tag", "v0.1"], check=True)
    assert version_of("", tmp_path) == "v0.1"
    (tmp_path / "a.txt").write_text("b")
    assert version_of("", tmp_path) == "v0.1-dirty"
    assert mark_text("NBA", "v0.1", "3f2a") == "NBA · v0.1 · 3f2a" and mark_text("NBA", "v0.1", None) == "NBA · v0.1"
