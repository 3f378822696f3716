"""Read designers' files (xlsx workbooks, CSV) into RawSheets, safely.

Workbooks come from other people: the zip container is checked for size bombs before openpyxl sees it,
openpyxl parses XML through defusedxml (installed as a dependency, so no entity expansion), and sizes are
bounded. Formula cells without a cached value and merged cells are reported, located.
"""

from __future__ import annotations

import csv
import io
import zipfile
from pathlib import Path

from pipeline.errors import PipelineError, Problem, Report, SourceRef, column_letter
from pipeline.schema import RawSheet

MAX_FILE_BYTES = 20 * 1024 * 1024
MAX_UNZIPPED_BYTES = 200 * 1024 * 1024
MAX_ZIP_ENTRIES = 5000
MAX_RATIO = 200          # uncompressed / compressed, per entry
MAX_ROWS = 20000
MAX_COLUMNS = 200


def display_path(path: Path, root: Path) -> str:
    try:
        return str(path.resolve().relative_to(root.resolve()))
    except ValueError:
        return str(path)


def _check_container(path: Path, shown: str) -> None:
    """Refuse what is not an xlsx zip, or what would inflate beyond sane bounds."""
    size = path.stat().st_size
    if size > MAX_FILE_BYTES:
        raise PipelineError(Problem(shown, f"file is {size // 1024 // 1024} MB, above the {MAX_FILE_BYTES // 1024 // 1024} MB limit", "file"))
    if not zipfile.is_zipfile(path):
        raise PipelineError(Problem(shown, "is not an Excel workbook (.xlsx); save it as .xlsx", "file"))
    try:
        with zipfile.ZipFile(path) as archive:
            infos = archive.infolist()
            if len(infos) > MAX_ZIP_ENTRIES:
                raise PipelineError(Problem(shown, f"workbook has {len(infos)} parts (limit {MAX_ZIP_ENTRIES})", "file"))
            total = sum(i.file_size for i in infos)
            if total > MAX_UNZIPPED_BYTES:
                raise PipelineError(Problem(shown, "workbook would unpack to more than 200 MB", "file"))
            for info in infos:
                if info.compress_size and info.file_size / info.compress_size > MAX_RATIO and info.file_size > 1_000_000:
                    raise PipelineError(Problem(shown, f"part {info.filename} is suspiciously compressed (zip bomb?)", "file"))
            if "[Content_Types].xml" not in archive.namelist():
                raise PipelineError(Problem(shown, "is a zip file but not an Excel workbook", "file"))
            for info in infos:
                _refuse_dtd(archive, info, shown)
    except zipfile.BadZipFile as exc:
        raise PipelineError(Problem(shown, f"workbook is damaged ({exc})", "file")) from None


def _refuse_dtd(archive: zipfile.ZipFile, info: zipfile.ZipInfo, shown: str) -> None:
    """Valid OOXML parts never declare a DTD; one that does is refused before any XML parser sees it
    (no entity expansion, no external entity fetch, whichever parser openpyxl picks)."""
    if not info.filename.endswith((".xml", ".rels")):
        return
    with archive.open(info) as part:
        prolog = part.read(65536)
    if b"<!DOCTYPE" in prolog or b"<!ENTITY" in prolog:
        raise PipelineError(Problem(shown, f"workbook part {info.filename} declares a DTD or entities, which "
                                    "spreadsheets never do: refused", "file"))


def read_workbook(path: Path, root: Path, report: Report) -> dict[str, RawSheet]:
    """All sheets of an xlsx file as RawSheets; merged cells are reported as errors."""
    import openpyxl  # imported late: costs ~0.3 s and CSV-only games never need it

    shown = display_path(path, root)
    if not path.is_file():
        raise PipelineError(Problem(shown, "file not found", "file"))
    _check_container(path, shown)
    try:
        with_formulas = openpyxl.load_workbook(path, data_only=False)
        with_values = openpyxl.load_workbook(path, data_only=True)
    except Exception as exc:  # openpyxl raises many types for damaged files
        raise PipelineError(Problem(shown, f"workbook cannot be read: {type(exc).__name__}: {exc}", "file")) from None
    sheets = {}
    for ws in with_formulas.worksheets:
        sheets[ws.title] = _read_sheet(ws, with_values[ws.title], shown, report)
    return sheets


def _read_sheet(ws_formulas, ws_values, shown: str, report: Report) -> RawSheet:
    if ws_formulas.max_row > MAX_ROWS or ws_formulas.max_column > MAX_COLUMNS:
        raise PipelineError(Problem(SourceRef(shown, ws_formulas.title),
                                    f"sheet is {ws_formulas.max_row}×{ws_formulas.max_column}, above "
                                    f"{MAX_ROWS} rows or {MAX_COLUMNS} columns", "file"))
    for merged in sorted(ws_formulas.merged_cells.ranges, key=str):
        report.error(SourceRef(shown, ws_formulas.title, merged.min_row, column_letter(merged.min_col)),
                     f"merged cells {merged.coord}: unmerge them (one value per cell)", "merged")
    formulas = list(ws_formulas.iter_rows(values_only=True))
    values = list(ws_values.iter_rows(values_only=True))
    header = []
    if formulas:
        for index, name in enumerate(formulas[0], start=1):
            if name is not None and str(name).strip():
                header.append((column_letter(index), str(name).strip()))
    raw = RawSheet(shown, ws_formulas.title, header, [])
    positions = [(_col_index(letter), name) for letter, name in header]
    for row_number, (frow, vrow) in enumerate(zip(formulas[1:], values[1:]), start=2):
        if all(v is None or (isinstance(v, str) and not v.strip()) for v in frow):
            continue
        cells = {}
        for index, name in positions:
            formula = frow[index - 1] if index - 1 < len(frow) else None
            value = vrow[index - 1] if index - 1 < len(vrow) else None
            if isinstance(formula, str) and formula.startswith("=") and value is None:
                raw.formula_without_value.add((row_number, name))
            cells[name] = value
        raw.rows.append((row_number, cells))
    return raw


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
    if path.stat().st_size > MAX_FILE_BYTES:
        raise PipelineError(Problem(shown, "CSV file is above the 20 MB limit", "file"))
    try:
        text = path.read_bytes().decode("utf-8-sig")
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
    header = [(column_letter(i), name.strip()) for i, name in enumerate(table[0], start=1) if name.strip()]
    rows = []
    for number, record in enumerate(table[1:], start=2):
        if not any(value.strip() for value in record):
            continue
        cells = {name: (record[_col_index(letter) - 1] if _col_index(letter) <= len(record) else None)
                 for letter, name in header}
        rows.append((number, cells))
    return RawSheet(shown, sheet_name, header, rows)
