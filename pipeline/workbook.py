"""Write a designer-friendly workbook from sheet specs: frozen bold header, a comment on every header
cell (the column's doc and allowed values), dropdown lists on enumerated and yes/no columns."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable, Mapping

from openpyxl import Workbook
from openpyxl.comments import Comment
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.datavalidation import DataValidation

from pipeline.schema import Column, SheetSpec

HEADER_FILL = PatternFill("solid", fgColor="DDE4EE")


def _comment(col: Column) -> str:
    text = col.doc or col.name
    if col.type == "enum":
        text += f"\nValues: {', '.join(col.choices)}."
    elif col.type == "bool":
        text += "\nValues: yes, no."
    elif col.type in ("int", "float") and (col.min is not None or col.max is not None):
        text += f"\nRange: {col.min if col.min is not None else '…'} to {col.max if col.max is not None else '…'}."
    text += "\nRequired." if col.required else "\nOptional."
    return text


def add_sheet(wb: Workbook, spec: SheetSpec, rows: Iterable[Mapping[str, Any]], max_rows: int = 500) -> None:
    ws = wb.create_sheet(spec.name)
    for index, col in enumerate(spec.columns, start=1):
        cell = ws.cell(row=1, column=index, value=col.name)
        cell.font = Font(bold=True)
        cell.fill = HEADER_FILL
        cell.comment = Comment(_comment(col), "pnp")
        cell.comment.width, cell.comment.height = 320, 140
        ws.column_dimensions[get_column_letter(index)].width = max(12, min(60, len(col.name) + 4))
        choices = ("yes", "no") if col.type == "bool" else col.choices
        if choices:
            letter = get_column_letter(index)
            rule = DataValidation(type="list", formula1='"' + ",".join(choices) + '"', allow_blank=not col.required,
                                  showErrorMessage=True, errorTitle=col.name,
                                  error=f"Choose one of: {', '.join(choices)}")
            rule.add(f"{letter}2:{letter}{max_rows}")
            ws.add_data_validation(rule)
    for r, row in enumerate(rows, start=2):
        for index, col in enumerate(spec.columns, start=1):
            value = row.get(col.name)
            if col.type == "bool" and isinstance(value, bool):
                value = "yes" if value else "no"
            cell = ws.cell(row=r, column=index, value=value)
            cell.alignment = Alignment(wrap_text=col.type == "str" and (col.max_length or 0) > 60, vertical="top")
    ws.freeze_panes = "A2"


def write_workbook(path: Path, sheets: Iterable[tuple[SheetSpec, Iterable[Mapping[str, Any]]]]) -> None:
    wb = Workbook()
    wb.remove(wb.active)
    for spec, rows in sheets:
        add_sheet(wb, spec, rows)
    wb.save(path)
