"""pipeline/cli/annotations.py: problems as GitHub Actions workflow commands, for every kind of SourceRef, with the
runner's escaping; and the CLI's problem lines, followed by their annotation only under Actions."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.cli import annotations
from pipeline.cli.annotations import annotation, escape_data, escape_property
from pipeline.core.errors import Problem, Report, Severity, SourceRef


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A project with a workbook, a template, a rulebook chapter, a game.yaml and fonts.yaml (empty files:
    an annotation only needs them to exist)."""
    for name in ("sheets/nba.xlsx", "templates/nba/player.yaml", "templates/nba/rules/02-tour.md",
                 "templates/mini/game.yaml", "fonts/fonts.yaml"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(b"")
    return tmp_path


def test_a_workbook_cell_names_the_file_and_keeps_sheet_and_cell_in_the_message(root):
    problem = Problem(SourceRef("sheets/nba.xlsx", "players", 17, "H", "cost"), "12 is above the maximum 10", "range")
    assert annotation(problem, root) == \
        "::error file=sheets/nba.xlsx,title=range::nba.xlsx › players › H17 (cost): 12 is above the maximum 10"


@pytest.mark.parametrize("where, shown", [
    (SourceRef("sheets/nba.xlsx", "players"), "nba.xlsx › players"),                       # a whole sheet
    (SourceRef("sheets/nba.xlsx", "players", 17), "nba.xlsx › players › row 17"),           # a whole row
    (SourceRef("sheets/nba.xlsx", "players", field="cost"), "nba.xlsx › players › column cost"),
    (SourceRef("templates/mini/game.yaml", "manifest", 2), "game.yaml › manifest › row 2"),   # an entry, not a line
])
def test_a_sheet_has_no_lines(root, where, shown):
    line = annotation(Problem(where, "m", "structure"), root)
    assert line == f"::error file={where.file},title=structure::{shown}: m" and "line=" not in line


@pytest.mark.parametrize("file", ["templates/nba/player.yaml", "templates/nba/rules/02-tour.md",
                                  "templates/mini/game.yaml"])
def test_a_file_with_lines_gets_its_line(root, file):
    problem = Problem(SourceRef(file, None, 12), "unknown key 'colour'", "template", Severity.WARNING)
    shown = f"{Path(file).name} › {'line 12' if file.endswith('.yaml') else 'row 12'}"
    assert annotation(problem, root) == f"::warning file={file},line=12,title=template::{shown}: unknown key 'colour'"


def test_a_whole_file_and_a_path_given_as_text(root):
    assert annotation(Problem(SourceRef("fonts/fonts.yaml"), "not a mapping", "font"), root) == \
        "::error file=fonts/fonts.yaml,title=font::fonts.yaml: not a mapping"
    assert annotation(Problem("sheets/nba.xlsx", "workbook is damaged", "file"), root) == \
        "::error file=sheets/nba.xlsx,title=file::nba.xlsx: workbook is damaged"


@pytest.mark.parametrize("where", [
    "nba",                                                  # a game id
    "HEAD:sheets/nba.xlsx",                                 # the old version of `pnp diff`
    SourceRef("sheets/nba.xlsx, sheets/extra.csv", "cards"),  # a missing sheet of a game with two files
    SourceRef("sheets/gone.xlsx", "players", 3, "B"),       # a file that is not there
])
def test_no_file_outside_the_repository_files(root, where):
    line = annotation(Problem(where, "m", "usage"), root)
    assert line == f"::error title=usage::{where}: m"


def test_paths_are_from_the_repository_top(root, tmp_path_factory):
    """A project in a folder of the repository: file= is from the top, as GitHub resolves it."""
    assert annotation(Problem(SourceRef("sheets/nba.xlsx", "players", 2, "A"), "m", "type"), root, root.parent) \
        .startswith(f"::error file={root.name}/sheets/nba.xlsx,title=type::nba.xlsx › players › A2")
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    assert annotation(Problem("sheets/nba.xlsx", "m", "file"), root, elsewhere) == "::error title=file::sheets/nba.xlsx: m"


def test_escaping_follows_the_runner():
    assert escape_data("100% sure\r\nnext: a, b") == "100%25 sure%0D%0Anext: a, b"
    assert escape_property("a,b:c%\n") == "a%2Cb%3Ac%25%0A"


def test_escaped_in_an_annotation(root):
    (root / "sheets" / "a,b:c.xlsx").write_bytes(b"")
    problem = Problem(SourceRef("sheets/a,b:c.xlsx", "s", 2, "B"), "50%\nof it", "rule:one,two")
    assert annotation(problem, root) == \
        "::error file=sheets/a%2Cb%3Ac.xlsx,title=rule%3Aone%2Ctwo::a,b:c.xlsx › s › B2: 50%25%0Aof it"


def test_active_only_under_github_actions(root):
    assert annotations.active({"GITHUB_ACTIONS": "true"})
    assert not annotations.active({}) and not annotations.active({"GITHUB_ACTIONS": "false"})
    assert annotations.workspace(root, {}) == root.resolve()
    assert annotations.workspace(root, {"GITHUB_WORKSPACE": str(root.parent)}) == root.parent.resolve()


def _report() -> Report:
    report = Report()
    report.error(SourceRef("sheets/nba.xlsx", "players", 17, "H", "cost"), "12 is above the maximum 10", "range")
    report.warning(SourceRef("templates/nba/player.yaml", None, 4), "unknown key", "template")
    return report


def test_print_problems_follows_each_line_with_its_annotation_under_actions(root, monkeypatch, capsys):
    import pipeline.cli.shared

    monkeypatch.setattr(pipeline.cli.shared, "PROJECT_ROOT", root)
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.delenv("GITHUB_WORKSPACE", raising=False)
    pipeline.cli.shared.print_problems(_report())
    assert capsys.readouterr().err.splitlines() == [
        "error sheets/nba.xlsx › players › H17 (cost): 12 is above the maximum 10 [range]",
        "::error file=sheets/nba.xlsx,title=range::nba.xlsx › players › H17 (cost): 12 is above the maximum 10",
        "warning templates/nba/player.yaml › line 4: unknown key [template]",
        "::warning file=templates/nba/player.yaml,line=4,title=template::player.yaml › line 4: unknown key",
        "1 error(s), 1 warning(s)",
    ]


def test_print_problems_is_unchanged_outside_actions(root, monkeypatch, capsys):
    import pipeline.cli.shared

    monkeypatch.setattr(pipeline.cli.shared, "PROJECT_ROOT", root)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    pipeline.cli.shared.print_problems(_report())
    assert capsys.readouterr().err.splitlines() == [
        "error sheets/nba.xlsx › players › H17 (cost): 12 is above the maximum 10 [range]",
        "warning templates/nba/player.yaml › line 4: unknown key [template]",
        "1 error(s), 1 warning(s)",
    ]
