"""Column specs: what a sheet must contain, declared as data (Python or YAML) and checked in stages.

A SheetSpec lists Columns; validate_sheet() turns raw cells into typed Records that keep a SourceRef for
each cell, collecting every problem (stage 1 structure, stage 2 cells) instead of stopping at the first.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping

from pipeline.core.errors import Report, SourceRef
from pipeline.core.paths import path_problem

TYPES = ("str", "int", "float", "bool", "enum", "color", "plan", "path")
_COLOR = re.compile(r"^#[0-9A-Fa-f]{6}$")
_PLAN = re.compile(r"^[#.]+(/[#.]+)*$")
_TRUE = {"yes", "oui", "true", "1", "y", "o", "vrai"}
_FALSE = {"no", "non", "false", "0", "n", "faux"}


@dataclass(frozen=True)
class Column:
    """One column of a sheet. `doc` becomes the header cell's comment in the workbook."""

    name: str
    type: str = "str"
    required: bool = True
    doc: str = ""
    min: float | None = None
    max: float | None = None
    choices: tuple[str, ...] = ()
    default: Any = None
    max_length: int | None = None

    def __post_init__(self):
        if self.type not in TYPES:
            raise ValueError(f"column {self.name}: unknown type {self.type!r}")
        for bound in ("min", "max"):        # a game.yaml's bound is data from other people
            value = getattr(self, bound)
            if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))):
                raise ValueError(f"column {self.name}: {bound} {value!r} is not a number")


@dataclass(frozen=True)
class SheetSpec:
    name: str
    columns: tuple[Column, ...]
    id_column: str | None = None
    quantity_column: str | None = None
    doc: str = ""
    unique_together: tuple[str, ...] = ()
    on_faces: bool = True       # its rows may reach a template: no column may shadow RESERVED_NAMES

    def column(self, name: str) -> Column:
        return next(c for c in self.columns if c.name == name)


@dataclass(frozen=True)
class Record:
    """A typed row: values by column name, and where each cell is (its row's ref + the sheet's letters)."""

    sheet: str
    ref: SourceRef
    values: Mapping[str, Any]
    letters: Mapping[str, str | None]       # column name -> letter; one mapping shared by the sheet's rows

    def __getitem__(self, key: str) -> Any:
        return self.values[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.values.get(key, default)

    def __reduce__(self):
        """Pickled as plain dicts (a mappingproxy does not pickle): `--executor dask` ships a game's records to
        workers that have the package but not the workbook."""
        return _record, (self.sheet, self.ref, dict(self.values), dict(self.letters))

    def at(self, key: str) -> SourceRef:
        """The cell of column `key` (the row when the sheet has no such column). Made on demand: a SourceRef
        per cell would be the biggest thing a 2,000-card deck keeps in memory."""
        if key not in self.letters:
            return self.ref
        return SourceRef(self.ref.file, self.ref.sheet, self.ref.row, self.letters[key], key)


def _record(sheet: str, ref: SourceRef, values: dict, letters: dict) -> Record:
    return Record(sheet, ref, MappingProxyType(values), MappingProxyType(letters))


@dataclass
class RawSheet:
    """Cells as read from a file: header names with their column letters, then rows of raw values."""

    file: str
    name: str
    header: list[tuple[str, str]]                # (column letter, header text)
    rows: list[tuple[int, dict[str, Any]]]       # (row number, {header: raw value})
    formula_without_value: set[tuple[int, str]] = field(default_factory=set)   # (row, header)


def suggest(value: str, choices: tuple[str, ...]) -> str:
    close = difflib.get_close_matches(value, choices, n=1, cutoff=0.0)
    return f" (did you mean {close[0]!r}?)" if close else ""


def coerce(col: Column, raw: Any) -> tuple[Any, str | None, str]:
    """Return (value, error message or None, rule)."""
    if col.type in ("str", "path"):
        text = str(raw).strip() if not isinstance(raw, float) or not raw.is_integer() else str(int(raw))
        if col.max_length and len(text) > col.max_length:
            return None, f"text of {len(text)} characters is longer than {col.max_length}", "range"
        if col.type == "path" and text and (why := path_problem(text)):
            return None, why, "path"
        return text, None, ""
    if col.type == "int":
        if isinstance(raw, bool):
            return None, f"{raw!r} is not a whole number", "type"
        if isinstance(raw, float) and raw.is_integer():
            raw = int(raw)
        if isinstance(raw, int):
            return _ranged(col, raw)
        try:
            return _ranged(col, int(str(raw).strip()))
        except ValueError:
            return None, f"{raw!r} is not a whole number", "type"
    if col.type == "float":
        if isinstance(raw, bool):
            return None, f"{raw!r} is not a number", "type"
        try:
            return _ranged(col, float(str(raw).strip().replace(",", ".")))
        except ValueError:
            return None, f"{raw!r} is not a number", "type"
    if col.type == "bool":
        if isinstance(raw, bool):
            return raw, None, ""
        text = str(raw).strip().lower()
        if text in _TRUE:
            return True, None, ""
        if text in _FALSE:
            return False, None, ""
        return None, f"{raw!r} is not yes/no", "type"
    if col.type == "enum":
        text = str(raw).strip()
        if text in col.choices:
            return text, None, ""
        return None, f"{text!r} is not one of {', '.join(col.choices)}{suggest(text, col.choices)}", "enum"
    if col.type == "color":
        text = str(raw).strip()
        return (text, None, "") if _COLOR.match(text) else (None, f"{text!r} is not a colour #RRGGBB", "type")
    if col.type == "plan":
        text = str(raw).strip().replace(" ", "")
        if not _PLAN.match(text):
            return None, f"{text!r} is not a plan (rows of # and . separated by /)", "plan"
        return text, None, ""
    raise AssertionError(col.type)


def _ranged(col: Column, value: float) -> tuple[Any, str | None, str]:
    if col.min is not None and value < col.min:
        return None, f"{_number(value)} is below the minimum {col.min:g}", "range"
    if col.max is not None and value > col.max:
        return None, f"{_number(value)} is above the maximum {col.max:g}", "range"
    return value, None, ""


def _number(value: float) -> str:
    """A number as a message shows it; a whole number past what a float holds (309 digits and more) by its
    first digits and its length."""
    try:
        return f"{value:g}"
    except OverflowError:
        text = str(value)
        return f"{text[:6]}… ({len(text.lstrip('-'))} digits)"


def is_blank(raw: Any) -> bool:
    return raw is None or (isinstance(raw, str) and not raw.strip())


RESERVED_NAMES = ("card", "ink_saver")   # template variables the pipeline provides itself


def check_structure(spec: SheetSpec, raw: RawSheet, report: Report) -> bool:
    """Stage 1: required columns present (error), unknown columns (warning), duplicate headers."""
    ok = True
    for letter, name in raw.header:
        if spec.on_faces and name in RESERVED_NAMES:
            report.error(SourceRef(raw.file, raw.name, 1, letter, name), f"column name {name!r} is reserved for "
                         "the templates (card.index, card.copy…); rename the column", "structure")
            ok = False
    sheet_ref = SourceRef(raw.file, raw.name)
    names = [h for _, h in raw.header]
    known = {c.name for c in spec.columns}
    for col in spec.columns:
        if col.name not in names and col.required:
            report.error(sheet_ref, f"missing column {col.name!r}", "structure")
            ok = False
    seen = set()
    for letter, name in raw.header:
        if name in seen:
            report.error(SourceRef(raw.file, raw.name, 1, letter, name),
                         f"column {name!r} appears twice", "structure")
            ok = False
        seen.add(name)
        if name not in known:
            hint = suggest(name, tuple(sorted(known)))
            report.warning(SourceRef(raw.file, raw.name, 1, letter, name),
                           f"unknown column {name!r} is ignored{hint}", "structure")
    return ok


def validate_sheet(spec: SheetSpec, raw: RawSheet, report: Report) -> list[Record]:
    """Stage 2: type, range, enumeration and required checks on every cell; returns typed records."""
    found = {name: letter for letter, name in raw.header}
    letters = MappingProxyType({col.name: found.get(col.name) for col in spec.columns})
    records = []
    for row_number, cells in raw.rows:
        values = {}
        row_ref = SourceRef(raw.file, raw.name, row_number)
        record = Record(raw.name, row_ref, MappingProxyType(values), letters)
        for col in spec.columns:
            if (row_number, col.name) in raw.formula_without_value:
                ref = record.at(col.name)
                report.error(ref, "formula has no saved value (open and save the file in a spreadsheet "
                                  "program, or type the value)", "formula")
                continue
            raw_value = cells.get(col.name)
            if is_blank(raw_value):
                if col.required:
                    report.error(record.at(col.name), "required value is empty", "required")
                values[col.name] = col.default
                continue
            value, message, rule = coerce(col, raw_value)
            if message:
                report.error(record.at(col.name), message, rule)
            values[col.name] = value
        records.append(record)
    return records


def check_rows(spec: SheetSpec, records: list[Record], report: Report) -> None:
    """Stage 3 (per sheet): unique ids and unique column combinations."""
    for key in [c for c in (spec.id_column,) if c] + ([",".join(spec.unique_together)]
                                                       if spec.unique_together else []):
        columns = key.split(",")
        first: dict[tuple, Record] = {}
        for rec in records:
            value = tuple(rec.get(c) for c in columns)
            if any(v is None for v in value):
                continue
            if value in first:
                shown = ", ".join(str(v) for v in value)
                report.error(rec.at(columns[0]), f"duplicate {'/'.join(columns)} {shown!r} "
                             f"(first at row {first[value].ref.row})", "unique")
            else:
                first[value] = rec


def expand(records: list[Record], quantity_column: str | None) -> list[tuple[Record, int, int]]:
    """Quantity expansion that keeps provenance: (record, copy number 1..n, n) per physical card."""
    out = []
    for rec in records:
        n = int(rec.get(quantity_column) or 0) if quantity_column else 1
        out.extend((rec, i, n) for i in range(1, n + 1))
    return out


def spec_from_mapping(name: str, data: Mapping[str, Any]) -> SheetSpec:
    """Build a SheetSpec from a game manifest's YAML (data-only games)."""
    columns = []
    for col_name, col in (data.get("columns") or {}).items():
        col = col or {}
        columns.append(Column(
            name=str(col_name), type=col.get("type", "str"), required=col.get("required", True),
            doc=col.get("doc", ""), min=col.get("min"), max=col.get("max"),
            choices=tuple(str(c) for c in col.get("choices", ())), default=col.get("default"),
            max_length=col.get("max_length")))
    return SheetSpec(name=name, columns=tuple(columns), id_column=data.get("id"),
                     quantity_column=data.get("quantity"), doc=data.get("doc", ""))
