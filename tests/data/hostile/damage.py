"""Small tools the corpus uses to damage a project copy: edit a CSV line, set workbook cells, rewrite or add
a part inside a workbook's zip."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path
from typing import Callable

import openpyxl

BENCH_CSV = Path("bench/data/cards_100.csv")


def csv_line(number: int, change: Callable[[str], str]) -> Callable[[Path], None]:
    """Replace line `number` (1 = header) of the benchmark deck's CSV by change(line)."""
    def damage(root: Path) -> None:
        path = root / BENCH_CSV
        lines = path.read_text(encoding="utf-8").split("\n")
        lines[number - 1] = change(lines[number - 1])
        path.write_text("\n".join(lines), encoding="utf-8")
    return damage


def cells(book: str, sheet: str, values: dict[str, object]) -> Callable[[Path], None]:
    """Set cells ("B3": value) of one sheet of sheets/<book>.xlsx."""
    def damage(root: Path) -> None:
        path = root / "sheets" / f"{book}.xlsx"
        workbook = openpyxl.load_workbook(path)
        for ref, value in values.items():
            workbook[sheet][ref] = value
        workbook.save(path)
    return damage


def zip_parts(book: str, change: Callable[[dict[str, bytes]], None]) -> Callable[[Path], None]:
    """Rewrite sheets/<book>.xlsx with change(parts) applied to its {name: bytes} (add, edit, remove parts)."""
    def damage(root: Path) -> None:
        path = root / "sheets" / f"{book}.xlsx"
        with zipfile.ZipFile(path) as archive:
            parts = {name: archive.read(name) for name in archive.namelist()}
        change(parts)
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
            for name, data in parts.items():
                archive.writestr(name, data)
    return damage


def sheet_part(parts: dict[str, bytes], book_sheet_index: int = 1) -> str:
    return f"xl/worksheets/sheet{book_sheet_index}.xml"


def named_part(parts: dict[str, bytes], sheet: str) -> str:
    """The worksheet part of the sheet called `sheet`, as workbook.xml and its relationships name it (a sheet
    added before it, such as the optional `game` sheet, moves the numbers)."""
    book = parts["xl/workbook.xml"].decode("utf-8")
    rels = parts["xl/_rels/workbook.xml.rels"].decode("utf-8")
    found = re.search(rf'<sheet [^>]*name="{re.escape(sheet)}"[^>]*r:id="([^"]+)"', book)
    if found is None:
        raise KeyError(sheet)
    target = re.search(rf'<Relationship [^>]*Id="{found.group(1)}"[^>]*Target="([^"]+)"', rels) or \
        re.search(rf'<Relationship [^>]*Target="([^"]+)"[^>]*Id="{found.group(1)}"', rels)
    return "xl/" + target.group(1).removeprefix("/xl/").removeprefix("xl/")


def set_dimension(parts: dict[str, bytes], part: str, ref: str | None) -> None:
    """Declare another dimension for a sheet part (None: remove the element, as some writers do)."""
    xml = parts[part]
    new = b"" if ref is None else f'<dimension ref="{ref}"/>'.encode()
    parts[part] = re.sub(rb"<dimension [^>]*/>", new, xml, count=1)
