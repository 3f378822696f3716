"""Untrusted sheets in bounded time and memory (issue 19): a million-row sheet is refused in ≤ 2 s and
≤ 200 MiB peak, whether it declares its size or not, and a sheet at the row limit is read and checked in
≤ 10 s. The Build It workbook whose largest sheet's zip headers declare 0.6 MB and which unpacks to 1 GiB
(issue 33) is refused within the same bounds. Each measure runs in a fresh process (peak memory = its maximum
resident set).

    python bench/hostile_sheets.py [--rows 1000000]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.data.zip_headers import lying_size  # noqa: E402  (the same lying workbook as the hostile corpus)
TARGETS = {"refuse_seconds": 2.0, "refuse_mib": 200.0, "limit_seconds": 10.0}

CONTENT_TYPES = ('<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/'
                 'content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
                 'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName='
                 '"/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.'
                 'main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.'
                 'openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>')
ROOT_RELS = ('<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/'
             '2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
             'relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>')
WORKBOOK = ('<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/'
            '2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>'
            '<sheet name="cards" sheetId="1" r:id="rId1"/></sheets></workbook>')
WORKBOOK_RELS = ('<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/'
                 'package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/'
                 'officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>')


def write_sheet(path: Path, rows: int, declare: bool) -> None:
    """An xlsx of one sheet `cards`: a header and `rows` - 1 rows of an id and two numbers, written as XML
    directly (openpyxl would take minutes for a million rows)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in (("[Content_Types].xml", CONTENT_TYPES), ("_rels/.rels", ROOT_RELS),
                           ("xl/workbook.xml", WORKBOOK), ("xl/_rels/workbook.xml.rels", WORKBOOK_RELS)):
            archive.writestr(name, text)
        with archive.open("xl/worksheets/sheet1.xml", "w") as part:
            part.write(b'<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/'
                       b'spreadsheetml/2006/main">')
            if declare:
                part.write(f'<dimension ref="A1:C{rows}"/>'.encode())
            part.write(b'<sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>id</t></is></c><c r="B1" '
                       b't="inlineStr"><is><t>a</t></is></c><c r="C1" t="inlineStr"><is><t>b</t></is></c></row>')
            for r in range(2, rows + 1):
                part.write(f'<row r="{r}"><c r="A{r}" t="inlineStr"><is><t>c{r}</t></is></c><c r="B{r}"><v>{r % 9}'
                           f'</v></c><c r="C{r}"><v>{r % 7}</v></c></row>'.encode())
            part.write(b"</sheetData></worksheet>")


MEASURE = """
import json, resource, sys, time
from pathlib import Path
start = time.perf_counter()
from pipeline.core.errors import PipelineError, Report
from pipeline.data.schema import Column, SheetSpec, check_structure, validate_sheet
from pipeline.data.sheets import read_workbook
path, outcome = Path(sys.argv[1]), "read"
try:
    report = Report()
    raw = read_workbook(path, path.parent, report)["cards"]
    spec = SheetSpec("cards", (Column("id"), Column("a", "int", min=0, max=9), Column("b", "int", min=0, max=9)),
                     id_column="id")
    check_structure(spec, raw, report)
    records = validate_sheet(spec, raw, report)
    outcome = f"{len(records)} rows checked, {len(report.errors)} errors"
except PipelineError as exc:
    outcome = f"refused: {exc.problems[0]}"
seconds = time.perf_counter() - start
print(json.dumps({"seconds": seconds, "mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "outcome": outcome}))
"""


def measure(path: Path) -> dict:
    result = subprocess.run([sys.executable, "-c", MEASURE, str(path)], capture_output=True, text=True, cwd=ROOT,
                            check=True)
    return json.loads(result.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    args = parser.parse_args()
    from pipeline.data.sheets import MAX_ROWS

    failed = False
    with tempfile.TemporaryDirectory() as temp:
        for label, rows, declare, seconds_target, mib_target in (
                (f"{args.rows:,} rows, dimension declared", args.rows, True, TARGETS["refuse_seconds"], TARGETS["refuse_mib"]),
                (f"{args.rows:,} rows, no dimension", args.rows, False, TARGETS["refuse_seconds"], TARGETS["refuse_mib"]),
                (f"{MAX_ROWS:,} rows (the limit)", MAX_ROWS, True, TARGETS["limit_seconds"], TARGETS["refuse_mib"])):
            path = Path(temp) / f"sheet-{rows}-{declare}.xlsx"
            write_sheet(path, rows, declare)
            failed |= not report(label, path, seconds_target, mib_target)
        path = Path(temp) / "lying.xlsx"
        shutil.copyfile(ROOT / "sheets" / "buildit.xlsx", path)
        lying_size(path, 1 << 30)
        failed |= not report("Build It, a part declaring 0.6 MB that unpacks to 1 GiB", path,
                             TARGETS["refuse_seconds"], TARGETS["refuse_mib"])
    return 1 if failed else 0


def report(label: str, path: Path, seconds_target: float, mib_target: float) -> bool:
    """Measure one workbook and print the line; whether it met its targets."""
    got = measure(path)
    ok = got["seconds"] <= seconds_target and got["mib"] <= mib_target
    print(f"{label}: {got['seconds']:.2f} s (target ≤ {seconds_target:g}), peak {got['mib']:.0f} MiB "
          f"(target ≤ {mib_target:g}), {path.stat().st_size / 1e6:.1f} MB file: {got['outcome']} "
          f"{'met' if ok else 'NOT met'}")
    return ok


if __name__ == "__main__":
    sys.exit(main())
