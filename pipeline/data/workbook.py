"""Write a designer's workbook from SheetSpecs: the comforts every sheet of the project has, declared once.

Each header cell is bold on a light fill and carries its Column.doc as a comment (plus the allowed values or
range, and whether the column is required); enum and bool columns get a dropdown, int and float columns a
range check, the header row is frozen and columns are wide enough to read. The same rows give the same bytes
(fixed document dates and zip timestamps), so a regenerated workbook only differs where its data does.
"""

from __future__ import annotations

import io
import re
import zipfile
from datetime import datetime
from pathlib import Path
from typing import Any, Iterable, Mapping

from openpyxl import Workbook
from openpyxl.comments import Comment
from openpyxl.styles import Font, PatternFill
from openpyxl.worksheet.datavalidation import DataValidation

from pipeline.core.errors import column_letter
from pipeline.data.schema import Column, SheetSpec

HEADER_FILL = "DDE4EE"
CHECKED_ROWS = 500              # dropdowns and range checks cover rows 2..500 (or the data, if longer)
MIN_WIDTH, MAX_WIDTH = 12, 50   # column widths, in characters
LIST_LIMIT = 255                # Excel refuses a dropdown list longer than this
FIXED_DATE = datetime(2026, 1, 1)
_ZIP_DATE = (2026, 1, 1, 0, 0, 0)
_CORE_DATES = re.compile(rb"(<dcterms:(?:created|modified)[^>]*>)[^<]*(</dcterms:)")

Row = Mapping[str, Any]


def column_note(col: Column) -> str:
    """The header comment: the column's doc, then what it accepts, then Required/Optional."""
    lines = [col.doc] if col.doc else []
    if col.type == "enum":
        lines.append(f"Values: {', '.join(col.choices)}.")
    elif col.type == "bool":
        lines.append("Values: yes, no.")
    elif col.type in ("int", "float") and (col.min is not None or col.max is not None):
        low = "…" if col.min is None else f"{col.min:g}"
        high = "…" if col.max is None else f"{col.max:g}"
        lines.append(f"Range: {low} to {high}.")
    lines.append("Required." if col.required else "Optional.")
    return "\n".join(lines)


def cell_value(col: Column | None, value: Any) -> Any:
    """What a cell holds: bools as yes/no (what the reader accepts and a designer types), the rest as is."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return value


def validation(col: Column, letter: str, last_row: int) -> DataValidation | None:
    """A dropdown for enum and bool columns, a range check for bounded numbers; None for the others."""
    area = f"{letter}2:{letter}{last_row}"
    if col.type in ("enum", "bool"):
        choices = col.choices if col.type == "enum" else ("yes", "no")
        listed = ",".join(choices)
        if len(listed) > LIST_LIMIT or any("," in c or '"' in c for c in choices):
            return None                                # the comment still lists them
        dv = DataValidation(type="list", formula1=f'"{listed}"', allow_blank=not col.required,
                            showErrorMessage=True, errorTitle=col.name,
                            error=f"Choose one of: {', '.join(choices)}")
    elif col.type in ("int", "float") and (col.min is not None or col.max is not None):
        kind = "whole" if col.type == "int" else "decimal"
        low, high = col.min, col.max
        if low is not None and high is not None:
            dv = DataValidation(type=kind, operator="between", formula1=f"{low:g}", formula2=f"{high:g}")
            said = f"from {low:g} to {high:g}"
        elif low is not None:
            dv = DataValidation(type=kind, operator="greaterThanOrEqual", formula1=f"{low:g}")
            said = f"of at least {low:g}"
        else:
            dv = DataValidation(type=kind, operator="lessThanOrEqual", formula1=f"{high:g}")
            said = f"of at most {high:g}"
        dv.allow_blank = not col.required
        dv.showErrorMessage = True
        dv.errorTitle = col.name
        dv.error = f"A {'whole number' if col.type == 'int' else 'number'} {said}"
    else:
        return None
    dv.add(area)
    return dv


def _width(col: Column, rows: Iterable[Row]) -> float:
    longest = max((len(str(cell_value(col, r.get(col.name)))) for r in rows if r.get(col.name) is not None),
                  default=0)
    return float(min(MAX_WIDTH, max(MIN_WIDTH, len(col.name) + 4, longest + 2)))


def _fill_sheet(ws, spec: SheetSpec, rows: list[Row]) -> None:
    known = {c.name for c in spec.columns}
    for row in rows:
        unknown = set(row) - known
        if unknown:
            raise ValueError(f"sheet {spec.name}: columns {sorted(unknown)} are not in its spec")
    bold, fill = Font(bold=True), PatternFill("solid", fgColor=HEADER_FILL)
    last_row = max(CHECKED_ROWS, len(rows) + 1)
    for index, col in enumerate(spec.columns, start=1):
        letter = column_letter(index)
        head = ws.cell(row=1, column=index, value=col.name)
        head.font, head.fill = bold, fill
        head.comment = Comment(column_note(col), "pnp", height=79, width=144)
        for r, row in enumerate(rows, start=2):
            value = row.get(col.name)
            if value is not None:
                ws.cell(row=r, column=index, value=cell_value(col, value))
        ws.column_dimensions[letter].width = _width(col, rows)
        dv = validation(col, letter, last_row)
        if dv is not None:
            ws.add_data_validation(dv)
    ws.freeze_panes = "A2"


def workbook_bytes(sheets: list[tuple[SheetSpec, list[Row]]]) -> bytes:
    """The xlsx file of these sheets (in this order), byte for byte the same for the same rows."""
    wb = Workbook()
    wb.remove(wb.active)
    for spec, rows in sheets:
        _fill_sheet(wb.create_sheet(spec.name), spec, list(rows))
    wb.properties.creator = "pnp"
    wb.properties.created = wb.properties.modified = FIXED_DATE
    buffer = io.BytesIO()
    wb.save(buffer)
    return _normalised(buffer.getvalue())


def _normalised(data: bytes) -> bytes:
    """Rezip with fixed timestamps and document dates (openpyxl stamps the time of saving)."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            part = source.read(info.filename)
            if info.filename == "docProps/core.xml":
                part = _CORE_DATES.sub(rb"\g<1>2026-01-01T00:00:00Z\g<2>", part)
            fixed = zipfile.ZipInfo(info.filename, date_time=_ZIP_DATE)
            fixed.compress_type = zipfile.ZIP_DEFLATED
            fixed.external_attr = 0o600 << 16
            target.writestr(fixed, part)
    return out.getvalue()


def write_workbook(path: Path | str, sheets: list[tuple[SheetSpec, list[Row]]]) -> None:
    """Write sheets (spec, rows as {column: value}) to `path`, each with the designer comforts."""
    Path(path).write_bytes(workbook_bytes(sheets))
