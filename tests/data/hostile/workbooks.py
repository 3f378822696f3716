"""Workbook features pnp does not honour: macros (read without running them: a warning) and formulas that
read another workbook (their saved value came from someone else's file: an error at the cell)."""

from __future__ import annotations

from tests.data.hostile import Case
from tests.data.hostile.damage import cells, zip_parts


def _with_vba(parts: dict[str, bytes]) -> None:
    parts["xl/vbaProject.bin"] = b"\xd0\xcf\x11\xe0" + b"\0" * 508       # an OLE header: what Excel writes


CASES = [
    Case("vba-part-in-xlsx", "buildit", zip_parts("buildit", _with_vba),
         r"^warning sheets/buildit\.xlsx: workbook holds macros \(VBA\): pnp never runs them", severity="warning"),
    Case("external-formula", "buildit", cells("buildit", "rules", {"B3": "=[1]Prix!B3"}),
         r"^error sheets/buildit\.xlsx › rules › B3 \(value\): the formula =\[1\]Prix!B3 reads another workbook"),
    Case("external-formula-by-path", "buildit", cells("buildit", "rules", {"B4": "='C:\\Jeux\\[Prix.xlsx]Feuil1'!B2"}),
         r"^error sheets/buildit\.xlsx › rules › B4 \(value\): the formula .*\[Prix\.xlsx\].* reads another workbook.*"
         r"paste the value"),
]
