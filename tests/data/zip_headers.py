"""Rewrite the headers of a zip archive's entries in place (bytes in, bytes out), as a hostile or damaged file
would carry them: sizes and CRCs that lie, in the local header, the central directory, or both. The fuzz test
(tests/data/test_fuzz_inputs.py) and the lying-size case of the hostile corpus use it."""

from __future__ import annotations

import struct
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator

LOCAL, CENTRAL, END = b"PK\x03\x04", b"PK\x01\x02", b"PK\x05\x06"
# offsets of (crc, compressed size, uncompressed size) in each header
FIELDS = {"local": {"crc": 14, "compress_size": 18, "file_size": 22},
          "central": {"crc": 16, "compress_size": 20, "file_size": 24}}


@dataclass(frozen=True)
class Entry:
    name: str
    local: int          # offset of its local header
    central: int        # offset of its central directory record


def entries(data: bytes) -> list[Entry]:
    """Every entry of the archive, from its central directory (the end record found from the end)."""
    end = data.rfind(END)
    if end < 0:
        return []
    count, _, start = struct.unpack("<HII", data[end + 10:end + 20])
    found, at = [], start
    for _ in range(count):
        if data[at:at + 4] != CENTRAL:
            break
        name_len, extra_len, comment_len = struct.unpack("<HHH", data[at + 28:at + 34])
        local = struct.unpack("<I", data[at + 42:at + 46])[0]
        found.append(Entry(data[at + 46:at + 46 + name_len].decode("utf-8", "replace"), local, at))
        at += 46 + name_len + extra_len + comment_len
    return found


def set_field(data: bytes, entry: Entry, field: str, value: int, where: Iterable[str] = ("local", "central")) -> bytes:
    """`field` (crc, compress_size, file_size) of `entry` set to `value` in the headers named by `where`."""
    out = bytearray(data)
    for header in where:
        offset = (entry.local if header == "local" else entry.central) + FIELDS[header][field]
        out[offset:offset + 4] = struct.pack("<I", value & 0xFFFFFFFF)
    return bytes(out)


def largest(path: Path) -> str:
    with zipfile.ZipFile(path) as archive:
        return max(archive.infolist(), key=lambda info: info.file_size).filename


def _repeated_sheet(original: bytes, size: int) -> Iterator[bytes]:
    """The worksheet `original`, its sheetData then followed by one row repeated until `size` bytes."""
    head = original.split(b"<sheetData", 1)[0]
    yield head + b"<sheetData>"
    row = b'<row r="2"><c r="A2" t="inlineStr"><is><t>x</t></is></c></row>'
    block = row * ((1 << 20) // len(row))
    sent = len(head) + 11
    while sent < size:
        yield block
        sent += len(block)
    yield b"</sheetData></worksheet>"


def lying_size(path: Path, unpacked: int, declared: int = 600_000, part: str | None = None) -> str:
    """Rewrite the workbook at `path` so that its largest worksheet part (or `part`) unpacks to `unpacked`
    bytes of a repeated row while both its zip headers declare `declared` bytes (its CRC is the true one).
    Memory stays one chunk; the part's name is returned."""
    with zipfile.ZipFile(path) as archive:
        part = part or max((i for i in archive.infolist() if i.filename.startswith("xl/worksheets/sheet")),
                           key=lambda info: info.file_size).filename
        parts = {name: archive.read(name) for name in archive.namelist()}
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for name, content in parts.items():
            info = zipfile.ZipInfo(name, (2024, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            if name == part:
                with archive.open(info, "w") as stream:
                    for chunk in _repeated_sheet(content, unpacked):
                        stream.write(chunk)
            else:
                archive.writestr(info, content)
    data = path.read_bytes()
    entry = next(e for e in entries(data) if e.name == part)
    path.write_bytes(set_field(data, entry, "file_size", declared))
    return part


def crc(data: bytes) -> int:
    return zlib.crc32(data) & 0xFFFFFFFF
