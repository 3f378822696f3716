"""Reading designers' files within bounds: one Unicode form for every text (NFC), a sheet refused from the
dimension it declares before any row is read, merged ranges found by streaming the sheet's XML, and CSV rows
of the wrong width located. (The whole hostile corpus runs through the CLI in test_hostile_inputs.py; the
time and memory bounds are in bench/hostile_sheets.py.)"""

from __future__ import annotations

import io
import zipfile

import openpyxl
import pytest

from pipeline.core.errors import PipelineError, Report, SourceRef
from pipeline.data.sheets import _scan_sheet, nfc, read_csv, read_workbook


def test_nfc_makes_one_letter_of_a_decomposed_accent():
    assert nfc("Fe\u0301roce") == "Féroce" and len(nfc("e\u0301")) == 1 and nfc("plain") == "plain"


def test_workbook_and_csv_text_is_read_as_nfc(tmp_path):
    book = openpyxl.Workbook()
    book.active.title = "cards"
    book.active.append(["id", "Ti\u0302tre"])
    book.active.append(["a", "Fe\u0301roce"])
    book.save(tmp_path / "b.xlsx")
    sheet = read_workbook(tmp_path / "b.xlsx", tmp_path, Report())["cards"]
    assert sheet.header == [("A", "id"), ("B", "Tître")] and sheet.rows[0][1]["Tître"] == "Féroce"
    (tmp_path / "c.csv").write_text("id,titre\na,Fe\u0301roce\n", encoding="utf-8")
    assert read_csv(tmp_path / "c.csv", tmp_path, "cards").rows[0][1]["titre"] == "Féroce"


def test_a_declared_size_past_the_limit_is_refused_before_any_row_is_read(tmp_path, monkeypatch):
    from openpyxl.worksheet._read_only import ReadOnlyWorksheet

    book = openpyxl.Workbook()
    book.active.title = "cards"
    book.active["A1"], book.active["K30000"] = "id", "far"
    book.save(tmp_path / "b.xlsx")
    monkeypatch.setattr(ReadOnlyWorksheet, "__init__", lambda *a, **k: pytest.fail("openpyxl opened the sheet"))
    with pytest.raises(PipelineError) as caught:
        read_workbook(tmp_path / "b.xlsx", tmp_path, Report())
    assert str(caught.value.problems[0]) == "b.xlsx › cards: sheet is 30000×11, above 20000 rows or 200 columns [file]"


def test_merged_ranges_are_found_across_chunks():
    filler = b"<row>" + b"<c/>" * 400_000 + b"</row>"          # pushes the ranges past the first 1 MiB chunk
    xml = b"<worksheet><sheetData>" + filler + b"</sheetData><mergeCells count='2'><mergeCell ref=\"B2:C3\"/>" \
          b"<x:mergeCell ref=\"F7:F9\"/></mergeCells></worksheet>"
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("xl/worksheets/sheet1.xml", xml)
    with zipfile.ZipFile(buffer) as archive:
        assert _scan_sheet(archive, "xl/worksheets/sheet1.xml", SourceRef("b.xlsx", "cards")) == (["B2:C3", "F7:F9"],
                                                                                                  False)


def test_a_sheet_with_a_formula_is_read_for_its_formulas_and_values_and_one_without_for_its_values(tmp_path):
    import openpyxl

    book = openpyxl.Workbook()
    plain, computed = book.active, book.create_sheet("computed")
    plain.title = "plain"
    for sheet in (plain, computed):
        sheet.append(["id", "cost"])
        sheet.append(["a", 2])
    computed["B3"], computed["A3"] = "=B2*2", "b"             # saved by openpyxl: a formula with no value
    book.save(tmp_path / "f.xlsx")
    with zipfile.ZipFile(tmp_path / "f.xlsx") as archive:
        assert _scan_sheet(archive, "xl/worksheets/sheet1.xml", SourceRef("f.xlsx", "plain"))[1] is False
        assert _scan_sheet(archive, "xl/worksheets/sheet2.xml", SourceRef("f.xlsx", "computed"))[1] is True
    sheets = read_workbook(tmp_path / "f.xlsx", tmp_path, Report())
    assert sheets["computed"].formula_without_value == {(3, "cost")}
    assert sheets["plain"].formula_without_value == set()
    assert [cells for _, cells in sheets["plain"].rows] == [{"id": "a", "cost": 2}]


def test_csv_rows_of_the_wrong_width_are_all_located(tmp_path):
    (tmp_path / "c.csv").write_text('id;text\na;"quoted; fine"\nb;cut; here\nc\n', encoding="utf-8")
    with pytest.raises(PipelineError) as caught:
        read_csv(tmp_path / "c.csv", tmp_path, "cards")
    assert [str(p) for p in caught.value.problems] == [
        'c.csv › cards › row 3: row 3 has 3 fields, the header 2: a text that holds a semicolon must be in double '
        'quotes ("like; this"), as spreadsheets export it [csv]',
        "c.csv › cards › row 4: row 4 has 1 fields, the header 2: fields are missing: every row needs one per "
        "header column, a semicolon between them [csv]"]


def test_trailing_empty_fields_are_harmless(tmp_path):
    (tmp_path / "c.csv").write_text("id,text,\na,b,\nc,d,,\n", encoding="utf-8")
    assert [cells for _, cells in read_csv(tmp_path / "c.csv", tmp_path, "cards").rows] == [
        {"id": "a", "text": "b"}, {"id": "c", "text": "d"}]


@pytest.mark.parametrize("suffix", [".csv", ".xlsx"])
def test_a_file_that_cannot_be_read_is_one_located_line(tmp_path, monkeypatch, suffix):
    """A designer's file that is there but cannot be read (permissions, a disk error): the file and the reason,
    not an OSError traceback."""
    from pathlib import Path

    path = tmp_path / f"locked{suffix}"
    path.write_bytes(b"id\n1\n")

    def refuse(self, *args, **kwargs):
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "read_bytes", refuse)
    monkeypatch.setattr(Path, "open", refuse)
    with pytest.raises(PipelineError) as caught:
        read_csv(path, tmp_path, "cards") if suffix == ".csv" else read_workbook(path, tmp_path, Report())
    assert [str(p) for p in caught.value.problems] == [f"locked{suffix}: cannot be read ([Errno 13] Permission "
                                                       f"denied: '{path}') [file]"]
