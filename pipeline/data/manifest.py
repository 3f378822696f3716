"""Stage 4: the component counts the rulebook announces, kept as data and checked against the rows.

A manifest row says: component `contract` has `count` 20, measured on sheet `contracts` as the sum of its
quantity column (`copies`), its number of rows (`rows`) or its number of distinct values of a column
(`distinct:name`). Rows without a sheet are announcements checked elsewhere (boards, pawns…).
"""

from __future__ import annotations

from typing import Any, Mapping

from pipeline.core.errors import Report, SourceRef
from pipeline.data.schema import Column, Record, SheetSpec

COMPONENTS_SPEC = SheetSpec(
    name="components",
    doc="The component counts the rulebook announces; the validator checks the data against them.",
    id_column="component",
    columns=(
        Column("component", doc="Component id (letters, digits, _), e.g. contract, normal_models."),
        Column("label", required=False, doc="What the rulebook calls it, in French."),
        Column("count", "int", min=0, doc="How many the rulebook announces."),
        Column("sheet", required=False, doc="Data sheet to count on; empty for components without rows."),
        Column("measure", required=False, default="copies",
               doc="How to count on the sheet: copies (sum of the quantity column), rows, or "
                   "distinct:<column> (number of different values)."),
        Column("notes", required=False, doc="Free text."),
    ),
)


def measure(records: list[Record], spec: SheetSpec, how: str) -> int:
    if how == "rows" or (how == "copies" and not spec.quantity_column):
        return len(records)
    if how == "copies":
        return sum(int(r.get(spec.quantity_column) or 0) for r in records)
    if how.startswith("distinct:"):
        return len({r.get(how.split(":", 1)[1]) for r in records})
    raise ValueError(how)


def check_manifest(rows: list[Mapping[str, Any]], refs: list[SourceRef], records: dict[str, list[Record]],
                   specs: dict[str, SheetSpec], report: Report) -> None:
    for row, ref in zip(rows, refs):
        sheet = row.get("sheet")
        if not sheet:
            continue
        if sheet not in specs:
            report.error(ref, f"sheet {sheet!r} is not a data sheet of this game "
                              f"({', '.join(sorted(specs))})", "manifest")
            continue
        how = row.get("measure") or "copies"
        if how not in ("copies", "rows") and not (how.startswith("distinct:")
                                                  and how.split(":", 1)[1] in {c.name for c in specs[sheet].columns}):
            report.error(ref, f"measure {how!r} is not copies, rows or distinct:<column>", "manifest")
            continue
        found = measure(records.get(sheet, []), specs[sheet], how)
        if found != row["count"]:
            what = {"copies": "cards", "rows": "rows"}.get(how, f"different {how.split(':', 1)[-1]} values")
            report.error(ref, f"{row['component']}: the rulebook announces {row['count']} but sheet "
                              f"{sheet!r} has {found} {what}", "manifest")
