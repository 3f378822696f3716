"""Read designers' files (xlsx workbooks, CSV) into RawSheets, safely.

Workbooks come from other people: the zip container is checked for size bombs and lying headers before
openpyxl sees it (pipeline/data/archive.py), openpyxl parses XML through defusedxml (installed as a dependency, so no entity expansion), and sizes are
bounded. Formula cells without a cached value and merged cells are reported, located.
"""

from __future__ import annotations

import csv
import io
import re
import sys
import unicodedata
import zipfile
from pathlib import Path

from pipeline.core.errors import PipelineError, Problem, Report, SourceRef, column_letter
from pipeline.data.archive import MAX_FILE_BYTES, check_container, one_line
from pipeline.data.schema import RawSheet

MAX_ROWS = 20000
MAX_COLUMNS = 200
MACRO_SUFFIXES = (".xlsm", ".xltm", ".xlsb")
VBA_PART = "vbaproject.bin"
_DIMENSION = re.compile(rb'<(?:\w+:)?dimension\b[^>]*?\bref="([^"]{1,40})"')
_ROW = re.compile(rb"<(?:\w+:)?row[\s>/]")
_MERGE_CELL = re.compile(rb'<(?:\w+:)?mergeCell\b[^>]*?\bref="([A-Za-z]+[0-9]+(?::[A-Za-z]+[0-9]+)?)"')
_FORMULA = re.compile(rb"<(?:\w+:)?f[\s>/]")
_EXTERNAL = re.compile(r"\[\d+\]|\.xls[xmb]?\]", re.IGNORECASE)    # =[1]Prices!A1, ='C:\x\[Prix.xlsx]A'!B2


def display_path(path: Path, root: Path) -> str:
    try:
        return str(path.resolve().relative_to(root.resolve()))
    except ValueError:
        return str(path)


def read_workbook(path: Path, root: Path, report: Report) -> dict[str, RawSheet]:
    """All sheets of an xlsx file as RawSheets, streamed row by row (openpyxl's read-only mode: memory stays
    bounded whatever the sheet's size, and a sheet past the limits is refused from its declared dimension
    before any row is read). Merged cells and formulas that read another workbook are located errors; a
    workbook with macros is a warning (pnp never runs them)."""
    openpyxl = _openpyxl()

    shown = display_path(path, root)
    if not path.is_file():
        raise PipelineError(Problem(shown, "file not found", "file"))
    parts = check_container(path, shown)
    if path.suffix.lower() in MACRO_SUFFIXES or any(p.lower().endswith(VBA_PART) for p in parts):
        report.warning(shown, "workbook holds macros (VBA): pnp never runs them and reads only the cells; save "
                              "it as a plain .xlsx workbook to hand it on", "macro")
    try:
        with zipfile.ZipFile(path) as archive:
            scans = {title: _scan_sheet(archive, part, SourceRef(shown, title)) for title, part in _sheet_parts(archive)}
        with_values = openpyxl.load_workbook(path, read_only=True, data_only=True)
        # formulas are read only if a sheet has one: a workbook of plain values is parsed once
        plain = set(with_values.sheetnames) <= set(scans) and not any(formulas for _, formulas in scans.values())
        with_formulas = with_values if plain else openpyxl.load_workbook(path, read_only=True, data_only=False)
    except PipelineError:
        raise
    except Exception as exc:  # openpyxl, zipfile and the XML parsers raise many types for damaged files
        raise PipelineError(unreadable(shown, exc)) from None
    sheets = {}
    try:
        for ws in with_formulas.worksheets:
            merged, formulas = scans.get(ws.title, ([], True))
            try:
                sheets[ws.title] = _read_sheet(ws if formulas and not plain else None, with_values[ws.title],
                                               merged, shown, report)
            except PipelineError:
                raise
            except Exception as exc:  # a sheet's XML is parsed while its rows are read
                raise PipelineError(unreadable(SourceRef(shown, ws.title), exc)) from None
    finally:
        with_formulas.close()
        with_values.close()
    return sheets


def unreadable(where: SourceRef | str, exc: Exception) -> Problem:
    """The located line of a workbook (or one of its sheets) a reader could not parse."""
    return Problem(where, f"workbook cannot be read: {type(exc).__name__}: {one_line(exc)}", "file")


def _openpyxl():
    """openpyxl, imported late (CSV-only games never need it), and without numpy when nothing else has
    imported it: openpyxl looks for numpy only to write numpy numbers into cells, and we only read; numpy would
    double the import's cost on every rebuild of an edited workbook."""
    if "openpyxl" not in sys.modules and "numpy" not in sys.modules:
        sys.modules["numpy"] = None                    # an import of numpy now fails: openpyxl goes without
        try:
            import openpyxl
        finally:
            del sys.modules["numpy"]
    import openpyxl

    return openpyxl


def _sheet_parts(archive: zipfile.ZipFile) -> list[tuple[str, str]]:
    """(sheet title, its part in the zip), from the workbook part and its relationships."""
    from defusedxml import ElementTree

    main = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
    rel = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"
    try:
        book = ElementTree.fromstring(archive.read("xl/workbook.xml"))
        rels = ElementTree.fromstring(archive.read("xl/_rels/workbook.xml.rels"))
    except Exception:   # a missing or damaged part: openpyxl then says what is wrong with it
        return []
    targets = {r.get("Id"): r.get("Target", "") for r in rels}
    parts = []
    for sheet in book.iter(f"{main}sheet"):
        target = targets.get(sheet.get(rel), "")
        part = target.lstrip("/") if target.startswith("/") else f"xl/{target}"
        if part in archive.namelist():
            parts.append((sheet.get("name", ""), part))
    return parts


def _scan_sheet(archive: zipfile.ZipFile, part: str, where: SourceRef) -> tuple[list[str], bool]:
    """Before openpyxl reads a sheet: its size from the dimension it declares (the start of its XML), or,
    when it declares none, its rows counted while streaming, refused past the limits; the merged ranges it
    declares (read-only worksheets do not load them), and whether any cell holds a formula. Memory stays one
    chunk whatever the part's size."""
    declared, formulas = None, False
    found, tail, counted = [], b"", 0
    with archive.open(part) as stream:
        head = stream.read(1 << 16)
        match = _DIMENSION.search(head.split(b"<sheetData", 1)[0])
        if match:
            declared = _dimension(match.group(1).decode("ascii", "replace"))
            if declared[0] > MAX_ROWS or declared[1] > MAX_COLUMNS:
                raise PipelineError(Problem(where, f"sheet is {declared[0]}×{declared[1]}, above {MAX_ROWS} rows or "
                                                   f"{MAX_COLUMNS} columns", "file"))
        chunk = head
        while chunk:
            text = tail + chunk
            if declared is None:
                counted += len(_ROW.findall(chunk))
                if counted > MAX_ROWS:
                    raise PipelineError(Problem(where, f"sheet has more than {MAX_ROWS} rows (and declares no "
                                                       "size)", "file"))
            formulas = formulas or _FORMULA.search(text) is not None
            last = 0
            for merge in _MERGE_CELL.finditer(text):
                found.append(merge.group(1).decode("ascii", "replace"))
                last = merge.end()
            tail = text[max(last, len(text) - 256):]
            chunk = stream.read(1 << 20)
    return sorted(set(found)), formulas


def _dimension(ref: str) -> tuple[int, int]:
    """Rows and columns a dimension reference ("A1:K250") spans."""
    from openpyxl.utils import range_boundaries

    try:
        min_col, min_row, max_col, max_row = range_boundaries(ref.upper() if ":" in ref else f"{ref}:{ref}")
    except (ValueError, TypeError):
        return 0, 0
    return max_row or 0, max_col or 0


def _read_sheet(ws_formulas, ws_values, merged: list[str], shown: str, report: Report) -> RawSheet:
    """`ws_formulas` None: the sheet has no formula, its values are all there is to read."""
    from openpyxl.utils import range_boundaries

    title = ws_values.title
    where = SourceRef(shown, title)                     # its declared size was checked by _scan_sheet
    for ref in merged:
        min_col, min_row, _, _ = range_boundaries(ref)
        report.error(SourceRef(shown, title, min_row, column_letter(min_col)),
                     f"merged cells {ref}: unmerge them (one value per cell)", "merged")
    values = ws_values.iter_rows(values_only=True)
    formulas = ws_formulas.iter_rows(values_only=True) if ws_formulas is not None else None
    header: list[tuple[str, str]] = []
    raw = RawSheet(shown, title, header, [])
    positions: list[tuple[int, str]] = []
    for row_number, (frow, vrow) in enumerate(zip(formulas, values) if formulas else ((v, v) for v in values), start=1):
        if row_number > MAX_ROWS or (len(frow) > MAX_COLUMNS and any(v is not None for v in frow[MAX_COLUMNS:])):
            raise PipelineError(Problem(where, f"sheet is larger than its dimension says: above {MAX_ROWS} rows "
                                               f"or {MAX_COLUMNS} columns", "file"))
        if row_number == 1:
            for index, name in enumerate(frow, start=1):
                if name is not None and str(name).strip():
                    header.append((column_letter(index), nfc(str(name)).strip()))
            positions = [(_col_index(letter), name) for letter, name in header]
            continue
        if all(v is None or (isinstance(v, str) and not v.strip()) for v in frow):
            continue
        cells = {}
        for index, name in positions:
            formula = frow[index - 1] if index - 1 < len(frow) else None
            value = vrow[index - 1] if index - 1 < len(vrow) else None
            if isinstance(formula, str) and formula.startswith("="):
                if value is None:
                    raw.formula_without_value.add((row_number, name))
                if _EXTERNAL.search(formula):
                    report.error(SourceRef(shown, title, row_number, column_letter(index), name),
                                 f"the formula {formula} reads another workbook: its saved value came from someone "
                                 "else's file; paste the value instead", "external")
            cells[name] = nfc(value) if isinstance(value, str) else value
        raw.rows.append((row_number, cells))
    return raw


def nfc(text: str) -> str:
    """Text as one form of Unicode (NFC): an accent typed as a letter plus a combining mark (macOS, web
    forms) becomes the one precomposed letter the fonts draw."""
    return text if text.isascii() else unicodedata.normalize("NFC", text)


def _col_index(letter: str) -> int:
    index = 0
    for ch in letter:
        index = index * 26 + ord(ch) - 64
    return index


def read_csv(path: Path, root: Path, sheet_name: str) -> RawSheet:
    """One CSV file as one sheet (UTF-8, comma, semicolon or tab separated, as spreadsheets export).
    Every value stays text until its column spec types it, so nothing is guessed."""
    shown = display_path(path, root)
    if not path.is_file():
        raise PipelineError(Problem(shown, "file not found", "file"))
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise PipelineError(Problem(shown, "CSV file is above the 20 MB limit", "file"))
        data = path.read_bytes()
    except OSError as exc:                              # unreadable (permissions, a disk error)
        raise PipelineError(Problem(shown, f"cannot be read ({one_line(exc)})", "file")) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise PipelineError(Problem(shown, f"CSV is not UTF-8 text (byte {exc.start}); export it as UTF-8",
                                    "file")) from None
    first_line = text.split("\n", 1)[0]
    delimiter = max(",;\t", key=first_line.count)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        table = list(reader)
    except csv.Error as exc:
        raise PipelineError(Problem(shown, f"CSV cannot be read: {exc}", "file")) from None
    if not table:
        raise PipelineError(Problem(shown, "CSV file is empty", "file"))
    if len(table) > MAX_ROWS:
        raise PipelineError(Problem(shown, f"CSV has more than {MAX_ROWS} rows", "file"))
    header = [(column_letter(i), nfc(name).strip()) for i, name in enumerate(table[0], start=1) if name.strip()]
    width, rows, problems = len(table[0]), [], []
    for number, record in enumerate(table[1:], start=2):
        if not any(value.strip() for value in record):
            continue
        extra = len(record) > width and any(value.strip() for value in record[width:])
        if extra or len(record) < width:
            problems.append(Problem(SourceRef(shown, sheet_name, number), f"row {number} has {len(record)} fields, "
                                    f"the header {width}: {_width_hint(delimiter, extra)}", "csv"))
            continue
        cells = {name: nfc(record[_col_index(letter) - 1]) for letter, name in header}
        rows.append((number, cells))
    if problems:
        raise PipelineError(problems)
    return RawSheet(shown, sheet_name, header, rows)


def _width_hint(delimiter: str, extra: bool) -> str:
    shown = {"\t": "a tab", ",": "a comma", ";": "a semicolon"}[delimiter]
    if extra:
        return f"a text that holds {shown} must be in double quotes (\"like{delimiter} this\"), as spreadsheets export it"
    return f"fields are missing: every row needs one per header column, {shown} between them"
