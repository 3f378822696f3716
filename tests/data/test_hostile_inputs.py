"""Every case of the hostile-input corpus (tests/data/hostile/) through the real command line, on a fresh project
copy: the exit code, no traceback, the located problem line, and for an error an untouched output/."""

from __future__ import annotations

import hashlib
import re
import shutil
from importlib import import_module
from pathlib import Path

import pytest

from tests.conftest import ROOT, copy_project, run_cli
from tests.data.hostile import Case, MODULES


def _cases() -> list:
    found = []
    for name in MODULES:
        module = import_module(f"tests.data.hostile.{name}")
        found += [pytest.param(case, id=f"{name}/{case.id}") for case in module.CASES]
    return found


def _tree(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("case", _cases())
def test_hostile_input_is_answered_at_its_place(case: Case, tmp_path):
    root = copy_project(tmp_path / "project")
    shutil.copytree(ROOT / "bench" / "data", root / "bench" / "data")
    output = root / "output" / case.game
    output.mkdir(parents=True)
    (output / "report.json").write_text('{"earlier": "build"}\n', encoding="utf-8")   # a previous build's file
    case.damage(root)
    before = _tree(root / "output")
    command = ("build", case.game, "--paper", "a4") if case.severity == "error" else ("validate", case.game)
    result = run_cli(*command, root=root)
    text = result.stdout + result.stderr
    assert "Traceback" not in text, text
    lines = [line for line in text.splitlines() if line.startswith(f"{case.severity} ")]
    assert len(lines) == case.count and any(re.search(case.line, line) for line in lines), "\n" + text
    if case.severity == "error":
        assert result.returncode == 1, text
        assert _tree(root / "output") == before
    else:
        assert result.returncode == 0, text
