"""Helpers of the data tests that damage a copy of a game's workbook and read the located lines back."""

from __future__ import annotations

from pathlib import Path

from pipeline.core.errors import Report
from tests.conftest import edit_workbook, validate_game


def lines(report: Report) -> list[str]:
    return [str(p) for p in report.problems]


def find(records, sheet: str, key: str, wanted, **more) -> object:
    """The first record of `sheet` whose `key` is `wanted` (and whose other columns match `more`)."""
    return next(r for r in records[sheet] if r[key] == wanted and all(r[k] == v for k, v in more.items()))


def cell(rec, column: str) -> str:
    ref = rec.at(column)
    return f"{ref.column}{ref.row}"


def where(rec, column: str) -> str:
    return str(rec.at(column))


def damaged(game: str, project: Path, book: str, *changes, delete: tuple = ()) -> list[str]:
    """Set (sheet, cell, value) on the copy's workbook, delete (sheet, row) rows, validate it: its problems,
    one line each."""
    def change(wb):
        for name, ref, value in changes:
            wb[name][ref] = value
        for name, row in sorted(delete, key=lambda d: -d[1]):
            wb[name].delete_rows(row)
    edit_workbook(project / book, change)
    return lines(validate_game(game, project)[0])
