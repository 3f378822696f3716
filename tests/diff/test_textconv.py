"""`pnp textconv`: a workbook as stable text, and a changed cell as one changed line in `git diff`."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import openpyxl
import pytest

from pipeline.core.errors import PipelineError, Report
from pipeline.diff.textconv import workbook_text
from tests.conftest import ROOT, run_cli, set_cell


def _workbook(path: Path, cost: int = 6) -> Path:
    wb = openpyxl.Workbook()
    players = wb.active
    players.title = "players"
    players.append(["id", "name", "cost", "notes"])
    players.append(["a", "Alice", 3, "two\nlines"])
    players.append(["b", "Bob", cost, None])
    players.append(["c", "Chloé", 4.0, ""])
    rules = wb.create_sheet("rules")
    rules.append(["parameter", "value"])
    rules.append(["hand_size", 5])
    wb.save(path)
    return path


def test_one_line_per_row_with_cell_addresses(tmp_path):
    text = workbook_text(_workbook(tmp_path / "game.xlsx"), tmp_path, Report())
    assert text.splitlines() == [
        "[players] | A: id | B: name | C: cost | D: notes",
        "players!2 | A2 id: a | B2 name: Alice | C2 cost: 3 | D2 notes: two\\nlines",
        "players!3 | A3 id: b | B3 name: Bob | C3 cost: 6",
        "players!4 | A4 id: c | B4 name: Chloé | C4 cost: 4",
        "[rules] | A: parameter | B: value",
        "rules!2 | A2 parameter: hand_size | B2 value: 5",
    ]


def test_stable_for_the_same_cells_saved_twice(tmp_path):
    first = workbook_text(_workbook(tmp_path / "one.xlsx"), tmp_path, Report())
    second = workbook_text(_workbook(tmp_path / "two.xlsx"), tmp_path, Report())
    assert first == second
    assert first == workbook_text(tmp_path / "one.xlsx", tmp_path, Report())


def test_a_real_workbook_reads_as_the_pipeline_reads_it():
    text = workbook_text(ROOT / "sheets" / "buildit.xlsx", ROOT, Report())
    lines = text.splitlines()
    assert lines[0] == "[game] | A: field | B: value"           # the optional sheet of the designers' names
    assert any(line.startswith("[cities] | A: ") for line in lines)
    assert len([line for line in lines if line.startswith("cities!")]) == 5
    assert all("\n" not in line for line in lines)


def test_not_a_workbook_is_a_located_error(tmp_path):
    bad = tmp_path / "notes.xlsx"
    bad.write_text("hello")
    with pytest.raises(PipelineError) as raised:
        workbook_text(bad, tmp_path, Report())
    assert "not an Excel workbook" in str(raised.value.problems[0])


def test_cli_prints_the_text(tmp_path):
    path = _workbook(tmp_path / "game.xlsx")
    result = run_cli("textconv", str(path))
    assert result.returncode == 0, result.stderr
    assert result.stdout == workbook_text(path, tmp_path, Report())


def _git(repo: Path, *args: str) -> str:
    result = subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.org",
                             "-c", "core.pager=cat", *args], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_git_diff_shows_a_changed_cell_as_one_changed_line(tmp_path):
    repo = tmp_path / "repo"
    (repo / "sheets").mkdir(parents=True)
    _git(repo, "init", "-q")
    (repo / ".gitattributes").write_text((ROOT / ".gitattributes").read_text())
    _git(repo, "config", "diff.pnp.textconv", f"{sys.executable} -m pipeline textconv")
    workbook = _workbook(repo / "sheets" / "game.xlsx")
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", "first")
    wb = openpyxl.load_workbook(workbook)
    set_cell(wb["players"], "id", "b", "cost", 7)
    wb.save(workbook)
    shown = _git(repo, "diff", "--no-color", "--", "sheets/game.xlsx")
    changed = [line for line in shown.splitlines() if line[:1] in "+-" and not line.startswith(("+++", "---"))]
    assert changed == ["-players!3 | A3 id: b | B3 name: Bob | C3 cost: 6",
                       "+players!3 | A3 id: b | B3 name: Bob | C3 cost: 7"]
