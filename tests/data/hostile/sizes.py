"""Sizes before reading: a sheet is refused from the dimension it declares before any row is read, and a
sheet whose rows outrun that dimension (or that declares none) is refused while it streams, at the limit."""

from __future__ import annotations

from pathlib import Path

import openpyxl

from tests.data.hostile import Case
from tests.data.hostile.damage import named_part, set_dimension, zip_parts

def _declare(ref: str | None):
    return zip_parts("buildit", lambda parts: set_dimension(parts, named_part(parts, "normal_cards"), ref))


def _rows_without_dimension(rows: int):
    def damage(root: Path) -> None:
        path = root / "sheets" / "buildit.xlsx"
        workbook = openpyxl.load_workbook(path)
        sheet = workbook["normal_cards"]
        for number in range(sheet.max_row + 1, rows + 1):
            sheet.cell(number, 1, f"x{number}")
        workbook.save(path)
        _declare(None)(root)
    return damage


CASES = [
    Case("declares-a-million-rows", "buildit", _declare("A1:K1000000"),
         r"^error sheets/buildit\.xlsx › normal_cards: sheet is 1000000×11, above 20000 rows or 200 columns"),
    Case("declares-too-many-columns", "buildit", _declare("A1:ZZ20"),
         r"^error sheets/buildit\.xlsx › normal_cards: sheet is 20×702, above 20000 rows"),
    Case("rows-past-the-limit-without-dimension", "buildit", _rows_without_dimension(20001),
         r"^error sheets/buildit\.xlsx › normal_cards: sheet has more than 20000 rows \(and declares no size\)"),
]
