"""Mutations of real inputs for the fuzz test (tests/data/test_fuzz_inputs.py).

A mutation is a recipe: a short list of steps, plain data (lists of strings and numbers, JSON as it is), that
turns the original file's bytes into the damaged ones. Hypothesis draws recipes; a recipe that once failed is
kept as a small JSON file under tests/data/fuzz_regressions/ and replayed by a plain test, never the damaged
file itself. Steps on a workbook's parts (drop, duplicate, content type, XML edits, huge shared strings, deep
nesting) run first, on the unzipped parts, then the parts are zipped again (deterministically) and the steps on
bytes (headers that lie, flips, cuts, insertions) run on the archive.
"""

from __future__ import annotations

import re
import zipfile
from dataclasses import dataclass

from hypothesis import strategies as st

from tests.data.zip_headers import entries, lying_size, set_field


@dataclass(frozen=True)
class Target:
    name: str
    game: str                   # the game `pnp validate` checks
    file: str                   # the file mutated, relative to the project root
    copy: tuple[str, ...]       # what validate needs, copied from the repository into the throwaway project


BENCH = ("bench/data/cards_100.csv", "bench/data/icons", "templates/benchdeck", "fonts")
TARGETS = {target.name: target for target in (
    Target("workbook", "buildit", "sheets/buildit.xlsx", ("sheets/buildit.xlsx", "templates/buildit",
                                                          "templates/common", "fonts")),
    Target("csv", "benchdeck", "bench/data/cards_100.csv", BENCH),
    Target("template", "benchdeck", "templates/benchdeck/front.yaml", BENCH),
    Target("game_yaml", "benchdeck", "templates/benchdeck/game.yaml", BENCH),
    Target("fonts_yaml", "benchdeck", "fonts/fonts.yaml", BENCH),
)}

PART_STEPS = ("drop", "duplicate", "content_type", "part_flip", "part_cut", "part_insert", "deep",
              "shared_strings")
MAX_GROWTH = 64 << 20           # no step makes a file bigger than this (the fuzz run's own memory stays small)

# --- applying a recipe -----------------------------------------------------------------------------------------


def apply(recipe: list[list], original: bytes, zipped: bool) -> bytes:
    """The bytes `recipe` makes of `original` (a workbook when `zipped`: its part steps run on the parts)."""
    data = original
    part_steps = [step for step in recipe if step[0] in PART_STEPS]
    if zipped and part_steps:
        data = _rezip(_apply_to_parts(_unzip(data), part_steps))
    for step in recipe:
        if step[0] not in PART_STEPS:
            data = _apply_bytes(step, data)
    return data


def _apply_bytes(step: list, data: bytes) -> bytes:
    kind, *args = step
    if kind == "flip":
        if not data:
            return data
        at = args[0] % len(data)
        return data[:at] + bytes([data[at] ^ (args[1] or 1)]) + data[at + 1:]
    if kind == "cut":
        return data[:args[0] % (len(data) + 1)]
    if kind == "insert":
        at = args[0] % (len(data) + 1)
        return data[:at] + bytes.fromhex(args[1]) + data[at:]
    if kind == "repeat":                    # a slice copied `times` times where it stands
        at = args[0] % (len(data) + 1)
        piece = data[at:at + args[1]]
        return data[:at] + piece * min(args[2], MAX_GROWTH // max(len(piece), 1)) + data[at:]
    if kind == "lying_size":                # a worksheet part that unpacks to args[0] bytes, declaring args[1]
        return _lying(data, args[0], args[1])
    if kind == "header":
        found = entries(data)
        if not found:
            return data
        entry, field, where, value = found[args[0] % len(found)], args[1], args[2], args[3]
        return set_field(data, entry, field, value, ("local", "central") if where == "both" else (where,))
    raise ValueError(f"unknown step {kind!r}")


def _lying(data: bytes, unpacked: int, declared: int) -> bytes:
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "book.xlsx"
        path.write_bytes(data)
        try:
            lying_size(path, unpacked, declared)
        except (zipfile.BadZipFile, ValueError, KeyError, EOFError):    # an archive already past repair
            return data
        return path.read_bytes()


def _unzip(data: bytes) -> list[list]:
    import io

    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return [[info.filename, archive.read(info)] for info in archive.infolist()]


def _rezip(parts: list[list]) -> bytes:
    import io
    import warnings

    buffer = io.BytesIO()
    with warnings.catch_warnings(), zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        warnings.simplefilter("ignore")                     # a duplicated part's name is the point
        for name, content in parts:
            info = zipfile.ZipInfo(name, (2024, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, content)
    return buffer.getvalue()


def _pick(parts: list[list], index: int) -> list:
    return parts[index % len(parts)]


def _apply_to_parts(parts: list[list], steps: list[list]) -> list[list]:
    for kind, *args in steps:
        if not parts:
            break
        if kind == "drop":
            parts = [p for p in parts if p is not _named(parts, args[0])]
        elif kind == "duplicate":
            parts.append(list(_named(parts, args[0])))
        elif kind == "content_type":
            _set_content_type(parts, _named(parts, args[0])[0], args[1])
        elif kind in ("part_flip", "part_cut", "part_insert"):
            part = _named(parts, args[0])
            part[1] = _apply_bytes([kind.removeprefix("part_"), *args[1:]], part[1])
        elif kind == "deep":
            part = _named(parts, args[0])
            part[1] = _nest(part[1], args[1])
        elif kind == "shared_strings":
            _shared_strings(parts, args[0], args[1])
    return parts


def _named(parts: list[list], which) -> list:
    """A part by name (a name the workbook lacks: its first part), or by index."""
    if isinstance(which, int):
        return _pick(parts, which)
    return next((p for p in parts if p[0] == which), parts[0])


def _nest(xml: bytes, depth: int) -> bytes:
    """`depth` elements inside each other, put just inside the part's root element."""
    root = re.search(rb"<[A-Za-z][^>]*>", xml[xml.find(b"?>") + 2 if xml.startswith(b"<?xml") else 0:])
    at = (xml.find(b"?>") + 2 if xml.startswith(b"<?xml") else 0) + (root.end() if root else 0)
    return xml[:at] + b"<x>" * depth + b"</x>" * depth + xml[at:]


def _set_content_type(parts: list[list], name: str, kind: str) -> None:
    types = next((p for p in parts if p[0] == "[Content_Types].xml"), None)
    if types is None:
        return
    override = f'<Override PartName="/{name}" ContentType="{kind}"/>'.encode()
    text = re.sub(rb'<Override PartName="/' + re.escape(name.encode()) + rb'"[^>]*/>', b"", types[1])
    types[1] = text.replace(b"</Types>", override + b"</Types>")


SST = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings"


def _shared_strings(parts: list[list], count: int, length: int) -> None:
    """A shared-strings part of `count` strings of `length` characters, the last of which the first text cell
    of the first worksheet now points at (at most MAX_GROWTH characters in all)."""
    count = max(1, min(count, MAX_GROWTH // (length + 20)))
    body = "".join(f"<si><t>{chr(65 + i % 26) * length}</t></si>" for i in range(count))
    xml = (f'<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/'
           f'2006/main" count="{count}" uniqueCount="{count}">{body}</sst>').encode()
    parts[:] = [p for p in parts if p[0] != "xl/sharedStrings.xml"] + [["xl/sharedStrings.xml", xml]]
    _set_content_type(parts, "xl/sharedStrings.xml",
                      "application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml")
    for part in parts:
        if part[0] == "xl/_rels/workbook.xml.rels" and b"sharedStrings" not in part[1]:
            part[1] = part[1].replace(b"</Relationships>", f'<Relationship Id="rIdFuzz" Type="{SST}" '
                                      f'Target="sharedStrings.xml"/></Relationships>'.encode())
        if part[0].startswith("xl/worksheets/sheet"):
            part[1] = re.sub(rb'<c ([^>]*?)t="inlineStr"([^>]*)><is><t[^>]*>[^<]*</t></is>',
                             rb'<c \1t="s"\2><v>' + str(count - 1).encode() + rb"</v>", part[1], count=1)
            break


# --- drawing recipes ----------------------------------------------------------------------------------------

PARTS = ("[Content_Types].xml", "_rels/.rels", "xl/workbook.xml", "xl/_rels/workbook.xml.rels",
         "xl/worksheets/sheet1.xml", "xl/worksheets/sheet3.xml", "xl/worksheets/sheet4.xml", "xl/styles.xml",
         "xl/sharedStrings.xml", "xl/comments/comment3.xml", "docProps/core.xml")
CONTENT_TYPES = ("application/xml", "text/plain", "application/vnd.ms-excel.sheet.macroEnabled.main+xml",
                 "application/vnd.openxmlformats-officedocument.spreadsheetml.chartsheet+xml",
                 "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml", "")
TOKENS = {
    "xml": (b"<", b">", b"</x>", b"<x>", b"&amp;", b"&x;", b"&#0;", b'"', b"<!DOCTYPE x>", b"<![CDATA[", b"\x00",
            b"\xff", b'r="ZZZZ99999999"', b' t="s"', b' t="d"', b' t="b"', b"<v>1e999</v>", b"<v>-1</v>", b"<f>1+1</f>",
            b'<mergeCell ref="A1:B2"/>', b'<dimension ref="A1:ZZ999999"/>', b"<row/>", b'<c r="A1"/>'),
    "csv": (b",", b";", b"\t", b'"', b'""', b"\r\n", b"\n", b"\r", b"\x00", b"\xff", b"\xef\xbb\xbf", b"=1+1",
            b"-1", b"1e999", b"nan", b"#GGGGGG", b"../../x.png", b"C:/x.png", b"\\\\srv\\x", b"e\xcc\x81",
            b"\xe2\x80\xae", b"x" * 200_000, b"99999999999999999999999"),
    "yaml": (b"&a ", b"*a", b"*b", b"<<: *a\n", b"!!python/object/apply:os.system ['x']", b"{", b"}", b"[", b"]",
             b": ", b"- ", b"\t", b"\n", b"'", b'"', b"~", b"null", b"[[[[[[[[", b"!!binary ", b"? ", b"%YAML 1.1\n",
             b"---\n", b"...\n", b"\xef\xbb\xbf", b"\x00", b"\xff", b"1e999", b"-1", b".nan", b".inf", b"0x7fffffff",
             b"99999999999999999999", b"2024-01-01", b"yes", b"e\xcc\x81", b"../../../etc/passwd", b"C:/x",
             b"{{ x }}", b"{% for %}", b"**", b":icon:", b"|\n", b">\n", b"!!set {a}", b"0o777", b"[] ", b"{} "),
}


def _byte_step(kind: str) -> st.SearchStrategy:
    position = st.integers(0, 1 << 20)
    tokens = st.sampled_from(TOKENS[kind]).map(bytes.hex) | st.binary(min_size=1, max_size=8).map(bytes.hex)
    return st.one_of(
        st.tuples(st.just("flip"), position, st.integers(1, 255)),
        st.tuples(st.just("cut"), position),
        st.tuples(st.just("insert"), position, tokens),
        st.tuples(st.just("repeat"), position, st.integers(1, 400), st.integers(2, 2000)),
    ).map(list)


def _header_step() -> st.SearchStrategy:
    lie = st.sampled_from((0, 1, 100, 600_000, 0x7FFFFFFF, 0xFFFFFFFF)) | st.integers(0, 0xFFFFFFFF)
    return st.tuples(st.just("header"), st.integers(0, 60), st.sampled_from(("crc", "compress_size", "file_size")),
                     st.sampled_from(("local", "central", "both")), lie).map(list) | \
        st.tuples(st.just("lying_size"), st.sampled_from((2 << 20, 16 << 20, 64 << 20)),
                  st.sampled_from((0, 1000, 600_000, 1 << 20))).map(list)


def _part_step() -> st.SearchStrategy:
    part = st.sampled_from(PARTS)
    position = st.integers(0, 1 << 16)
    token = st.sampled_from(TOKENS["xml"]).map(bytes.hex)
    return st.one_of(
        st.tuples(st.just("drop"), part),
        st.tuples(st.just("duplicate"), part),
        st.tuples(st.just("content_type"), part, st.sampled_from(CONTENT_TYPES)),
        st.tuples(st.just("part_flip"), part, position, st.integers(1, 255)),
        st.tuples(st.just("part_cut"), part, position),
        st.tuples(st.just("part_insert"), part, position, token),
        st.tuples(st.just("deep"), part, st.sampled_from((100, 300, 1000, 10_000, 100_000))),
        st.tuples(st.just("shared_strings"), st.integers(1, 3000), st.sampled_from((1, 100, 32_767, 1_000_000))),
    ).map(list)


def recipes(target: Target) -> st.SearchStrategy:
    """Recipes of one to three steps for `target`'s file."""
    if target.name == "workbook":
        step = _part_step() | _header_step() | _byte_step("xml")
    else:
        step = _byte_step("csv" if target.file.endswith(".csv") else "yaml")
    return st.lists(step, min_size=1, max_size=3)
