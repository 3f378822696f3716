"""pipeline/data/workbook.py: a workbook written from SheetSpecs carries the designer comforts (comments from the
docs, dropdowns, range checks, frozen header, widths), reads back through pipeline.data.sheets with the same values,
and is the same bytes every time."""

from __future__ import annotations

import openpyxl
import pytest

from pipeline.core.errors import Report
from pipeline.data.schema import Column, SheetSpec, check_structure, validate_sheet
from pipeline.data.sheets import read_workbook
from pipeline.data.workbook import column_note, workbook_bytes, write_workbook

CARDS = SheetSpec(name="cards", id_column="id", quantity_column="copies", columns=(
    Column("id", doc="Card id."),
    Column("kind", "enum", choices=("attack", "defence"), doc="What the card does."),
    Column("power", "int", min=0, max=9, doc="Strength."),
    Column("copies", "int", min=1, doc="Copies."),
    Column("weight", "float", max=2.5, required=False, doc="Grams."),
    Column("rare", "bool", required=False, doc="Printed with a star."),
    Column("text", required=False, doc="Printed text (French)."),
))
NOTES = SheetSpec(name="notes", columns=(Column("line", doc="A line of text."),))

ROWS = [
    {"id": "a1", "kind": "attack", "power": 7, "copies": 2, "weight": 1.5, "rare": True,
     "text": "Ajoute **2** au total du tir."},
    {"id": "d1", "kind": "defence", "power": 0, "copies": 1, "rare": False},
]


@pytest.fixture
def book(tmp_path):
    path = tmp_path / "sheets" / "test.xlsx"
    path.parent.mkdir()
    write_workbook(path, [(CARDS, ROWS), (NOTES, [{"line": "bonjour"}])])
    return path


def test_header_comments_say_doc_values_range_and_requirement(book):
    ws = openpyxl.load_workbook(book)["cards"]
    notes = {cell.value: cell.comment.text for cell in ws[1]}
    assert notes == {
        "id": "Card id.\nRequired.",
        "kind": "What the card does.\nValues: attack, defence.\nRequired.",
        "power": "Strength.\nRange: 0 to 9.\nRequired.",
        "copies": "Copies.\nRange: 1 to ….\nRequired.",
        "weight": "Grams.\nRange: … to 2.5.\nOptional.",
        "rare": "Printed with a star.\nValues: yes, no.\nOptional.",
        "text": "Printed text (French).\nOptional.",
    }
    assert all(cell.font.b and cell.fill.fgColor.rgb == "00DDE4EE" for cell in ws[1])
    assert ws.freeze_panes == "A2"


def test_dropdowns_and_ranges(book):
    ws = openpyxl.load_workbook(book)["cards"]
    found = {str(dv.sqref): (dv.type, dv.operator, dv.formula1, dv.formula2, dv.allow_blank)
             for dv in ws.data_validations.dataValidation}
    assert found == {
        "B2:B500": ("list", None, '"attack,defence"', None, False),
        "C2:C500": ("whole", "between", "0", "9", False),
        "D2:D500": ("whole", "greaterThanOrEqual", "1", None, False),
        "E2:E500": ("decimal", "lessThanOrEqual", "2.5", None, True),
        "F2:F500": ("list", None, '"yes,no"', None, True),
    }
    assert openpyxl.load_workbook(book)["notes"].data_validations.dataValidation == []


def test_widths_follow_the_header_and_the_longest_value(book):
    ws = openpyxl.load_workbook(book)["cards"]
    widths = {cell.value: ws.column_dimensions[cell.column_letter].width for cell in ws[1]}
    assert widths["id"] == 12 and widths["copies"] == 12           # the floor
    assert widths["text"] == len(ROWS[0]["text"]) + 2                # the longest value, under the cap
    long = [{"id": "x", "kind": "attack", "power": 1, "copies": 1, "text": "mot " * 40}]
    path = book.parent / "long.xlsx"
    write_workbook(path, [(CARDS, long)])
    ws = openpyxl.load_workbook(path)["cards"]
    assert ws.column_dimensions["G"].width == 50                     # capped


def test_reads_back_through_the_pipeline_with_the_same_values(book):
    report = Report()
    raw = read_workbook(book, book.parent.parent, report)
    assert list(raw) == ["cards", "notes"] and report.problems == []
    assert check_structure(CARDS, raw["cards"], report)
    records = validate_sheet(CARDS, raw["cards"], report)
    assert report.problems == []
    assert [dict(r.values) for r in records] == [
        {**ROWS[0]},
        {**ROWS[1], "weight": None, "text": None},
    ]
    assert str(records[1].at("power")) == "sheets/test.xlsx › cards › C3 (power)"


def test_same_rows_same_bytes_and_unknown_columns_refused():
    first = workbook_bytes([(CARDS, ROWS)])
    assert workbook_bytes([(CARDS, ROWS)]) == first
    assert workbook_bytes([(CARDS, ROWS[:1])]) != first
    with pytest.raises(ValueError, match="colour"):
        workbook_bytes([(CARDS, [{"id": "x", "colour": "#000000"}])])


def test_column_note_of_a_bare_column():
    assert column_note(Column("free", required=False)) == "Optional."
