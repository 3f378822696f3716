"""`pnp textconv FILE.xlsx`: a workbook as stable text, for `git diff` (`.gitattributes`: `*.xlsx diff=pnp`,
git config: `diff.pnp.textconv "pnp textconv"`).

Read by the pipeline's own reader (pipeline/data/sheets.py: the same checks, the cached values of formulas), one
line per sheet's header, then one line per row: the sheet and row, then each non-empty cell's address,
column name and value. A changed cell changes exactly one line:

    players!17 | A17 id: b_star_3 | B17 name: Étoile 3 | H17 cost: 7 | …
"""

from __future__ import annotations

from datetime import date, datetime, time
from pathlib import Path
from typing import Any, Iterator

from pipeline.core.errors import Report
from pipeline.data.schema import RawSheet

SEPARATOR = " | "


def workbook_text(path: Path, root: Path, report: Report) -> str:
    """Every sheet of the workbook, in the workbook's order, as text lines (PipelineError if unreadable)."""
    from pipeline.data.sheets import read_workbook

    sheets = read_workbook(path, root, report)
    return "".join(f"{line}\n" for sheet in sheets.values() for line in sheet_lines(sheet))


def sheet_lines(sheet: RawSheet) -> Iterator[str]:
    letters = dict((name, letter) for letter, name in sheet.header)
    yield f"[{sheet.name}]" + "".join(f"{SEPARATOR}{letter}: {text(name)}" for letter, name in sheet.header)
    for row, cells in sheet.rows:
        shown = [f"{letters.get(name, '?')}{row} {text(name)}: {text(value)}"
                 for name, value in cells.items() if value is not None and value != ""]
        if shown:
            yield f"{sheet.name}!{row}" + "".join(SEPARATOR + cell for cell in shown)


def text(value: Any) -> str:
    """One line whatever the value: whole floats as integers, dates in ISO form, line breaks escaped."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    elif isinstance(value, (datetime, date, time)):
        value = value.isoformat()
    return str(value).replace("\\", "\\\\").replace("\r", "\\r").replace("\n", "\\n").replace("\t", "\\t")
