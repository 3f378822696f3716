"""Where a problem comes from, what it is, and the Report that decides the exit code.

Library code never prints or exits: it adds Problems to a Report (or raises PipelineError carrying them);
only the CLI turns a Report into messages and an exit code.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


YAML_SUFFIXES = (".yaml", ".yml")


def column_letter(index: int) -> str:
    """1 -> A, 27 -> AA."""
    letters = ""
    while index > 0:
        index, rem = divmod(index - 1, 26)
        letters = chr(65 + rem) + letters
    return letters


@dataclass(frozen=True, order=True)
class SourceRef:
    """A place in the designers' inputs: file, sheet, row (1-based, as the spreadsheet shows it), column.

    `column` is the letter (A, B, …) and `field` the header name; either may be missing for a whole-row
    or whole-sheet reference. A YAML file (a template, game.yaml, fonts.yaml) has no sheet: its `row` is a
    line and reads "line 12".
    """

    file: str
    sheet: str | None = None
    row: int | None = None
    column: str | None = None
    field: str | None = None

    def cell(self, column: str, field: str | None = None) -> "SourceRef":
        return SourceRef(self.file, self.sheet, self.row, column, field)

    def __str__(self) -> str:
        parts = [self.file]
        if self.sheet:
            parts.append(self.sheet)
        if self.row is not None or self.column:
            where = f"{self.column or ''}{self.row if self.row is not None else ''}"
            if self.column is None:
                where = f"line {self.row}" if self.sheet is None and self.file.endswith(YAML_SUFFIXES) \
                    else f"row {self.row}"
            if self.field:
                where += f" ({self.field})"
            parts.append(where)
        elif self.field:
            parts.append(f"column {self.field}")
        return " › ".join(parts)


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True)
class Problem:
    """One located finding: `sheets/x.xlsx › cards › F17 (cost): 12 is above the maximum 10 [range]`."""

    where: SourceRef | str
    message: str
    rule: str
    severity: Severity = Severity.ERROR

    def __str__(self) -> str:
        return f"{self.where}: {self.message} [{self.rule}]"

    def to_dict(self) -> dict:
        return {"where": str(self.where), "message": self.message, "rule": self.rule,
                "severity": self.severity.value}


# Warnings that --strict (and a release) let through, each true of every edition of a game so it can never be
# "fixed", and still printed:
# - erratum: the workbook recording, on purpose, where it departs from a source rulebook's misprint (NBA's AMB-01);
# - print-shop: a component whose size no product of a print shop has (18 mm tokens at The Game Crafter): the
#   game is designed so, and the shop's preset leaves it out (pipeline/exports/shops.py).
ACKNOWLEDGED = ("erratum", "print-shop")


@dataclass
class Report:
    """Collects problems (and informative lines) across stages; decides the exit code."""

    problems: list[Problem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def error(self, where: SourceRef | str, message: str, rule: str) -> None:
        self.problems.append(Problem(where, message, rule, Severity.ERROR))

    def warning(self, where: SourceRef | str, message: str, rule: str) -> None:
        self.problems.append(Problem(where, message, rule, Severity.WARNING))

    def extend(self, problems) -> None:
        self.problems.extend(problems)

    def note(self, line: str) -> None:
        self.notes.append(line)

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity is Severity.ERROR]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.severity is Severity.WARNING]

    def failed(self, strict: bool = False) -> bool:
        """Any error; with `strict`, any warning too except the acknowledged ones (ACKNOWLEDGED)."""
        return bool(self.errors) or (strict and any(p.rule not in ACKNOWLEDGED for p in self.warnings))

    def exit_code(self, strict: bool = False) -> int:
        return 1 if self.failed(strict) else 0


class PipelineError(Exception):
    """A user-facing failure that carries located problems; never shown as a traceback."""

    def __init__(self, problems: list[Problem] | Problem):
        self.problems = problems if isinstance(problems, list) else [problems]
        super().__init__("; ".join(str(p) for p in self.problems))

    def __reduce__(self):
        return type(self), (self.problems,)         # pickled whole: a build worker's problems reach the report
