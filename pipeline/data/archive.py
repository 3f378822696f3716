"""A workbook's zip container, checked before any XML parser sees it.

A zip's headers are written by whoever made the file, so none is trusted: every part is unpacked once, from
its raw bytes, in chunks, against a byte budget (MAX_UNZIPPED_BYTES in all, and MAX_RATIO times its packed
size per part), and must end where its headers say, with the CRC they say. A part that lies is refused here,
located, so that zipfile and openpyxl later read only parts whose headers are true. Memory stays one chunk
whatever a part unpacks to. Valid OOXML parts never declare a DTD: one that does is refused as well.
"""

from __future__ import annotations

import struct
import zipfile
import zlib
from pathlib import Path
from typing import BinaryIO, Iterator

from pipeline.core.errors import PipelineError, Problem

MAX_FILE_BYTES = 20 * 1024 * 1024
MAX_UNZIPPED_BYTES = 200 * 1024 * 1024
MAX_ZIP_ENTRIES = 5000
MAX_RATIO = 200          # uncompressed / compressed, per entry
RATIO_FROM_BYTES = 1_000_000   # a part smaller than this may compress better than MAX_RATIO (a blank sheet)
CHUNK = 1 << 20
PROLOG = 1 << 16         # the start of an XML part, searched for a DTD
LOCAL_HEADER = struct.Struct("<4s22xHH")      # signature, then file name and extra field lengths
LOCAL_SIGNATURE = b"PK\x03\x04"
METHODS = (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED)      # what Excel, LibreOffice and openpyxl write


class Refused(Exception):
    """A part of the archive is refused: the message says why (its name first)."""


def megabytes(size: int) -> str:
    return f"{size / 1024 / 1024:.1f} MB"


def check_container(path: Path, shown: str) -> list[str]:
    """Refuse what is not an xlsx zip, what would inflate beyond sane bounds, and any part whose headers lie
    about its size or CRC; the names of its parts."""
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise Refused(f"file is {size // 1024 // 1024} MB, above the {MAX_FILE_BYTES // 1024 // 1024} MB limit")
        with path.open("rb") as raw:
            if not zipfile.is_zipfile(raw):
                raise Refused("is not an Excel workbook (.xlsx); save it as .xlsx")
            archive = zipfile.ZipFile(raw)
            infos = archive.infolist()
            _check_directory(infos)
            budget = MAX_UNZIPPED_BYTES
            for info in infos:
                budget -= _check_part(raw, info, budget)
            return archive.namelist()
    except Refused as exc:
        raise PipelineError(Problem(shown, str(exc), "file")) from None
    except (zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, EOFError, ValueError, NotImplementedError,
            struct.error, UnicodeDecodeError) as exc:
        raise PipelineError(Problem(shown, f"workbook is damaged ({one_line(exc)})", "file")) from None
    except OSError as exc:
        raise PipelineError(Problem(shown, f"cannot be read ({one_line(exc)})", "file")) from None


def one_line(exc: BaseException, limit: int = 160) -> str:
    """An exception as one short line: its type when it says nothing, its message otherwise."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _check_directory(infos: list[zipfile.ZipInfo]) -> None:
    """What the central directory declares: the number of parts, their total and per-part sizes, no part twice."""
    if len(infos) > MAX_ZIP_ENTRIES:
        raise Refused(f"workbook has {len(infos)} parts (limit {MAX_ZIP_ENTRIES})")
    if sum(i.file_size for i in infos) > MAX_UNZIPPED_BYTES:
        raise Refused("workbook would unpack to more than 200 MB")
    seen = set()
    for info in infos:
        if info.file_size > RATIO_FROM_BYTES and info.file_size > MAX_RATIO * max(info.compress_size, 1):
            raise Refused(f"part {info.filename} is suspiciously compressed (zip bomb?)")
        if info.filename in seen:
            raise Refused(f"workbook holds the part {info.filename} twice: it is damaged; save it again from "
                          "your spreadsheet")
        seen.add(info.filename)
    if "[Content_Types].xml" not in seen:
        raise Refused("is a zip file but not an Excel workbook")


def _check_part(raw: BinaryIO, info: zipfile.ZipInfo, budget: int) -> int:
    """Unpack one part within its budget and compare it with its headers; the bytes it unpacked to."""
    name = info.filename
    if info.flag_bits & 0x1:
        raise Refused(f"part {name} is encrypted: save the workbook without a password")
    if info.compress_type not in METHODS:
        raise Refused(f"part {name} is packed with zip method {info.compress_type}, which spreadsheets never "
                      "write")
    limit = min(budget, max(RATIO_FROM_BYTES, MAX_RATIO * info.compress_size))
    crc, unpacked, prolog = 0, 0, b""
    for chunk in _unpack(raw, info):
        unpacked += len(chunk)
        if unpacked > limit:
            raise Refused(f"part {name} unpacks past {megabytes(limit)} (the zip header said "
                          f"{megabytes(info.file_size)})")
        crc = zlib.crc32(chunk, crc)
        if len(prolog) < PROLOG:
            prolog += chunk[:PROLOG - len(prolog)]
    if unpacked != info.file_size:
        raise Refused(f"part {name} unpacks to {unpacked:,} bytes, not the {info.file_size:,} its zip header "
                      "says: the workbook is damaged")
    if crc != info.CRC:
        raise Refused(f"part {name} is damaged (its checksum does not match)")
    if name.endswith((".xml", ".rels")) and (b"<!DOCTYPE" in prolog or b"<!ENTITY" in prolog):
        raise Refused(f"workbook part {name} declares a DTD or entities, which spreadsheets never do: refused")
    return unpacked


def _unpack(raw: BinaryIO, info: zipfile.ZipInfo) -> Iterator[bytes]:
    """A part's bytes, unpacked in chunks of at most CHUNK from its raw data (never trusting its sizes)."""
    raw.seek(info.header_offset)
    signature, name_length, extra_length = LOCAL_HEADER.unpack(raw.read(LOCAL_HEADER.size).ljust(30, b"\0"))
    if signature != LOCAL_SIGNATURE:
        raise Refused(f"part {info.filename} is not where the zip directory says: the workbook is damaged")
    raw.seek(info.header_offset + LOCAL_HEADER.size + name_length + extra_length)
    left = info.compress_size
    if info.compress_type == zipfile.ZIP_STORED:
        while left > 0:
            data = raw.read(min(left, CHUNK))
            if not data:
                raise Refused(f"part {info.filename} is cut short: the workbook is damaged")
            left -= len(data)
            yield data
        return
    inflater = zlib.decompressobj(-zlib.MAX_WBITS)
    while not inflater.eof:
        data = inflater.unconsumed_tail
        if not data:
            data = raw.read(min(left, CHUNK)) if left > 0 else b""
            if not data:
                raise Refused(f"part {info.filename} is cut short: the workbook is damaged")
            left -= len(data)
        yield inflater.decompress(data, CHUNK)
