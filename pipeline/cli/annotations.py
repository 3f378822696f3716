"""Problems as GitHub Actions annotations. Under Actions (GITHUB_ACTIONS=true) the CLI follows every problem
line with a workflow command the code host pins on the file:

    ::error file=sheets/nba.xlsx,title=range::nba.xlsx › players › H17 (cost): 12 is above the maximum 10

A file with lines (a YAML template, a rulebook chapter, game.yaml: a SourceRef with a row and no sheet) gets
`line=`; a workbook has no lines, so its sheet and cell stay in the message. `file=` is the path from the
repository's top (GITHUB_WORKSPACE, else the project folder), given only for a file that is there: a problem of
an old revision (`HEAD:sheets/nba.xlsx`), of a game id or of several files at once is a message alone.

Escaping is the runner's: %, \\r and \\n in the message; also : and , in the properties. GitHub shows the first
10 errors and 10 warnings of a step (50 a job) as annotations; every line stays in the log."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Mapping

from pipeline.core.errors import Problem, Severity, SourceRef

_DATA = {"%": "%25", "\r": "%0D", "\n": "%0A"}
_PROPERTY = {**_DATA, ":": "%3A", ",": "%2C"}


def active(environ: Mapping[str, str] = os.environ) -> bool:
    """Whether this run is a GitHub Actions step."""
    return environ.get("GITHUB_ACTIONS") == "true"


def workspace(root: Path, environ: Mapping[str, str] = os.environ) -> Path:
    """The folder annotation paths are relative to: the checked-out repository, else the project."""
    given = environ.get("GITHUB_WORKSPACE")
    return Path(given).resolve() if given else root.resolve()


def annotation(problem: Problem, root: Path, top: Path | None = None) -> str:
    """The workflow command for one problem; `root` is the project folder its paths are relative to, `top`
    the repository's (default `root`)."""
    where = problem.where
    file = _repository_path(where.file if isinstance(where, SourceRef) else where, root, top or root)
    properties = []
    if file is not None:
        properties.append(f"file={escape_property(file)}")
        if isinstance(where, SourceRef) and where.sheet is None and where.row is not None:
            properties.append(f"line={where.row}")
    properties.append(f"title={escape_property(problem.rule)}")
    command = "error" if problem.severity is Severity.ERROR else "warning"
    return f"::{command} {','.join(properties)}::{escape_data(_message(problem, file is not None))}"


def escape_data(text: str) -> str:
    return "".join(_DATA.get(char, char) for char in text)


def escape_property(text: str) -> str:
    return "".join(_PROPERTY.get(char, char) for char in text)


def _repository_path(shown: str, root: Path, top: Path) -> str | None:
    """`shown` (a path relative to the project, or absolute) from the repository's top, when it is a file
    inside the repository."""
    path = Path(shown)
    try:
        path = (path if path.is_absolute() else root / path).resolve()
        top = top.resolve()
    except (OSError, ValueError):           # not a path at all (a NUL, a loop of links)
        return None
    if not path.is_file() or not path.is_relative_to(top):
        return None
    return path.relative_to(top).as_posix()


def _message(problem: Problem, has_file: bool) -> str:
    """The problem's line without its rule (the title) and, when `file=` holds the path, with the file's name
    only: `nba.xlsx › players › H17 (cost): …`."""
    where = problem.where
    if has_file:
        where = replace(where, file=Path(where.file).name) if isinstance(where, SourceRef) else Path(where).name
    return f"{where}: {problem.message}"
