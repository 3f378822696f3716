"""Workbooks whose zip container lies or is damaged (issue 33): a part whose headers declare 600 kB and that
unpacks far past the budget, a wrong CRC, a packed size cut short, a part twice, a part missing. Each is refused
as one line at the file, naming the part, before openpyxl reads it."""

from __future__ import annotations

import warnings
import zipfile
from pathlib import Path
from typing import Callable

from tests.data.hostile import Case
from tests.data.hostile.damage import zip_parts
from tests.data.zip_headers import entries, lying_size, set_field

BOOK = Path("sheets/buildit.xlsx")
SHEET = "xl/worksheets/sheet3.xml"


def _lying_size(unpacked: int) -> Callable[[Path], None]:
    return lambda root: lying_size(root / BOOK, unpacked, part=SHEET)


def _header(field: str, value: int) -> Callable[[Path], None]:
    def damage(root: Path) -> None:
        data = (root / BOOK).read_bytes()
        (root / BOOK).write_bytes(set_field(data, next(e for e in entries(data) if e.name == SHEET), field, value))
    return damage


def _twice(root: Path) -> None:
    """The sheet's part a second time, with other rows: which one a reader takes is anyone's guess."""
    with zipfile.ZipFile(root / BOOK) as archive:
        other = archive.read(SHEET).replace(b"<v>1</v>", b"<v>9</v>")
    with warnings.catch_warnings(), zipfile.ZipFile(root / BOOK, "a", zipfile.ZIP_DEFLATED) as archive:
        warnings.simplefilter("ignore")                  # zipfile warns of the duplicate name it writes
        archive.writestr(SHEET, other)


CASES = [
    Case("part-lies-about-its-size", "buildit", _lying_size(64 << 20),
         r"^error sheets/buildit\.xlsx: part xl/worksheets/sheet3\.xml unpacks past \d+\.\d MB \(the zip header "
         r"said 0\.6 MB\) \[file\]$"),
    Case("part-with-a-wrong-crc", "buildit", _header("crc", 0x1234),
         r"^error sheets/buildit\.xlsx: part xl/worksheets/sheet3\.xml is damaged \(its checksum does not match\)"),
    Case("part-cut-short", "buildit", _header("compress_size", 100),
         r"^error sheets/buildit\.xlsx: part xl/worksheets/sheet3\.xml is cut short: the workbook is damaged"),
    Case("part-twice", "buildit", _twice,
         r"^error sheets/buildit\.xlsx: workbook holds the part xl/worksheets/sheet3\.xml twice: it is damaged"),
    Case("workbook-part-missing", "buildit", zip_parts("buildit", lambda parts: parts.pop("xl/workbook.xml")),
         r"^error sheets/buildit\.xlsx: workbook cannot be read: KeyError: .*xl/workbook\.xml"),
]
