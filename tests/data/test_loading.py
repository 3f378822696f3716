"""Every kind of bad input gets a one-line problem naming file, sheet, cell and rule."""

from __future__ import annotations

import zipfile


from tests.conftest import edit_workbook, validate_buildit

BOOK = "sheets/buildit.xlsx"


def messages(report):
    return [str(p) for p in report.problems]


def header_column(ws, name):
    return next(c.column_letter for c in ws[1] if c.value == name)


def find_row(ws, column, value):
    letter = header_column(ws, column)
    return next(c.row for c in ws[letter] if c.value == value)


def test_shipped_workbook_is_clean(project):
    report, records = validate_buildit(project)
    assert report.problems == []
    assert len(records["contracts"]) == 9 and sum(r["copies"] for r in records["contracts"]) == 20


def test_missing_sheet_and_missing_column_in_one_run(project):
    def change(wb):
        del wb["cities"]
        ws = wb["contracts"]
        ws.delete_cols(ws[1].index(next(c for c in ws[1] if c.value == "plots")) + 1)
    edit_workbook(project / BOOK, change)
    report, records = validate_buildit(project)
    assert records is None
    found = messages(report)
    assert any(m.startswith(f"{BOOK} › cities: missing sheet 'cities'") and m.endswith("[structure]") for m in found)
    assert f"{BOOK} › contracts: missing column 'plots' [structure]" in found


def test_unknown_column_is_a_warning_with_suggestion(project):
    edit_workbook(project / BOOK, lambda wb: wb["contracts"].cell(row=1, column=20, value="copie"))
    report, records = validate_buildit(project)
    assert records is not None
    assert [str(w) for w in report.warnings] == [
        f"{BOOK} › contracts › T1 (copie): unknown column 'copie' is ignored (did you mean 'copies'?) [structure]"]


def test_cell_problems_are_all_located_in_one_run(project):
    def change(wb):
        ws = wb["contracts"]
        row = find_row(ws, "id", "citedor")
        ws[f"{header_column(ws, 'plots')}{row}"] = "deux"                  # type
        ws[f"{header_column(ws, 'copies')}{row}"] = 120                    # range
        ws[f"{header_column(ws, 'reward_type')}{row}"] = "point"           # enum
        ws[f"{header_column(ws, 'name')}{row}"] = None                     # required
    edit_workbook(project / BOOK, change)
    report, _ = validate_buildit(project)
    found = messages(report)
    assert f"{BOOK} › contracts › C4 (plots): 'deux' is not a whole number [type]" in found
    assert f"{BOOK} › contracts › H4 (copies): 120 is above the maximum 99 [range]" in found
    assert any(m.startswith(f"{BOOK} › contracts › E4 (reward_type): 'point' is not one of gold, points, immunity "
                            "(did you mean 'points'?)") for m in found)
    assert f"{BOOK} › contracts › B4 (name): required value is empty [required]" in found
    assert len(report.errors) == 4


def test_duplicate_id(project):
    def change(wb):
        ws = wb["normal_cards"]
        ws[f"A{find_row(ws, 'id', 'sabotage')}"] = "strike"
    edit_workbook(project / BOOK, change)
    report, _ = validate_buildit(project)
    assert any("normal_cards › A" in m and "duplicate id 'strike' (first at row" in m and m.endswith("[unique]")
               for m in messages(report))


def test_formula_without_cached_value(project):
    def change(wb):
        ws = wb["contracts"]
        ws[f"{header_column(ws, 'copies')}{find_row(ws, 'id', 'picsou')}"] = "=2+3"
    edit_workbook(project / BOOK, change)     # openpyxl writes formulas without cached values
    report, _ = validate_buildit(project)
    assert any(m.startswith(f"{BOOK} › contracts › H2 (copies): formula has no saved value") for m in messages(report))


def test_merged_cells(project):
    edit_workbook(project / BOOK, lambda wb: wb["cities"].merge_cells("F2:G2"))
    report, _ = validate_buildit(project)
    assert f"{BOOK} › cities › F2: merged cells F2:G2: unmerge them (one value per cell) [merged]" in messages(report)


def test_count_contradicts_manifest(project):
    def change(wb):
        ws = wb["normal_cards"]
        ws[f"{header_column(ws, 'copies')}{find_row(ws, 'id', 'cancel')}"] = 7
    edit_workbook(project / BOOK, change)
    report, _ = validate_buildit(project)
    assert any(m.endswith("normal: the rulebook announces 65 but sheet 'normal_cards' has 64 cards [manifest]")
               and "components › C" in m for m in messages(report))


def test_broken_plans(project):
    def change(wb):
        ws = wb["contracts"]
        plan = header_column(ws, "plan")
        ws[f"{plan}{find_row(ws, 'id', 'citedor')}"] = "#../..#"            # not connected
        ws[f"{plan}{find_row(ws, 'id', 'poqueboule')}"] = "####"             # 4 plots for a 3-plot card
        ws[f"{plan}{find_row(ws, 'id', 'picsou')}"] = "#"
        cities = wb["cities"]
        cities[f"{header_column(cities, 'plan2')}{find_row(cities, 'id', 'longueville')}"] = "#/#/#"  # = plan1 rotated
    edit_workbook(project / BOOK, change)
    report, _ = validate_buildit(project)
    found = messages(report)
    assert any("contracts › D4 (plan): plan #../..# is not connected" in m for m in found)
    assert any("contracts › D5 (plan): plan #### has 4 plots but the card announces 3 [plan]" in m for m in found)
    assert any(m.startswith(f"{BOOK} › cities › E4 (plan1): plan1 is the same plan as plan2 (up to rotation and "
                            "reflection)") and m.endswith("[plan]") for m in found)


def test_plan_too_big_for_board(project):
    def change(wb):
        ws = wb["contracts"]
        row = find_row(ws, "id", "kidditch")
        ws[f"{header_column(ws, 'plan')}{row}"] = "#########"
        ws[f"{header_column(ws, 'plots')}{row}"] = 9
    edit_workbook(project / BOOK, change)
    report, _ = validate_buildit(project)
    assert any("plan ######### is 1×9 and does not fit the 8×8 board [plan]" in m for m in messages(report))


def test_art_path_outside_project_is_refused(project):
    def change(wb):
        ws = wb["cities"]
        ws[f"{header_column(ws, 'art')}2"] = "../../etc/passwd"
    edit_workbook(project / BOOK, change)
    report, _ = validate_buildit(project)
    assert f"{BOOK} › cities › G2 (art): '../../etc/passwd' climbs out of its folder with '..': write it relative to the game's folder, with / between folders (art/castle.png) [path]" in messages(report)


def test_not_a_workbook(project):
    (project / BOOK).write_text("id,name\n1,x\n")
    report, records = validate_buildit(project)
    assert records is None
    assert messages(report) == [f"{BOOK}: is not an Excel workbook (.xlsx); save it as .xlsx [file]"]


def test_damaged_workbook(project):
    data = (project / BOOK).read_bytes()
    (project / BOOK).write_bytes(data[: len(data) // 2])
    report, _ = validate_buildit(project)
    assert len(report.errors) == 1 and str(report.errors[0]).endswith("[file]")
    assert str(report.errors[0]).startswith(BOOK)


def test_xml_entity_expansion_is_refused(project):
    """A 'billion laughs' workbook part must not be expanded (defusedxml)."""
    path = project / BOOK
    with zipfile.ZipFile(path) as source:
        parts = {name: source.read(name) for name in source.namelist()}
    doctype = b'<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>'
    name = "xl/workbook.xml"
    parts[name] = doctype + parts[name].split(b"?>", 1)[-1]
    with zipfile.ZipFile(path, "w") as target:
        for part, data in parts.items():
            target.writestr(part, data)
    report, records = validate_buildit(project)
    assert records is None
    assert messages(report) == [f"{BOOK}: workbook part xl/workbook.xml declares a DTD or entities, which "
                                "spreadsheets never do: refused [file]"]
