"""The hostile-input corpus (issue 19): files someone could hand a designer, each a Case that damages a fresh
copy of the project and says the one located line pnp must answer with. tests/data/test_hostile_inputs.py runs
every case of every module here (paths, workbooks, archives, art, sizes, yaml, text, csv) through the real command
line and checks: the exit code (1 for an error; 0 for a warning), no traceback, the located line (file,
sheet and cell, or file and line), and for an error an output/ folder left byte-identical.

A module adds cases to its CASES list; nothing else is needed."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable


@dataclass(frozen=True)
class Case:
    id: str
    game: str                           # a game of the project: buildit, allstar, nba or benchdeck (CSV)
    damage: Callable[[Path], None]      # changes the project copy at this root (sheets/, templates/, bench/data/)
    line: str                           # a regex (re.search) the problem line must match
    severity: str = "error"             # "error": `pnp build` exits 1; "warning": `pnp validate` exits 0
    count: int = 1                      # problem lines of that severity expected in all


MODULES = ("paths", "workbooks", "archives", "art_files", "sizes", "yaml_files", "text", "csv_rows")
# Cell text entering markup is no error: it prints as typed. tests/render/test_markup_escaping.py holds that class
# (a property test per door, and a cell full of markup printed on its card and in the rulebook).
