"""What the tests read back from a built PDF, read once: each page's characters, lines, rects and curves as
pdfplumber gives them, and the independent preflight's report for given arguments. Both are keyed by the
file's content (and the reader's version), kept in memory and in a folder of the test run that every xdist
worker shares (tests/conftest.py sets FOLDER), so every test and every worker that reads the same file
parses it once in a run. A key never names a path: a changed file is a new key."""

from __future__ import annotations

import hashlib
import os
import pickle
import tempfile
import time
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Callable

FOLDER = Path(tempfile.gettempdir()) / "pnp-test-index"     # outside a test run (conftest sets the run's)
VERSION = "2"                       # of what is stored: change it when a stored shape changes

CHAR_KEYS = ("text", "x0", "x1", "top", "bottom", "doctop", "y0", "y1", "width", "height", "size", "fontname", "upright", "non_stroking_color",
             "stroking_color", "adv", "matrix")
GRAPHIC_KEYS = ("object_type", "x0", "x1", "top", "bottom", "width", "height", "linewidth", "stroke", "fill",
                "stroking_color", "non_stroking_color", "pts")


@dataclass
class Page:
    """A page as the tests read it: pdfplumber's objects, as plain dicts (pdfplumber's own keys)."""

    number: int                     # from 0
    width: float
    height: float
    chars: list = field(default_factory=list)
    lines: list = field(default_factory=list)
    rects: list = field(default_factory=list)
    curves: list = field(default_factory=list)

    def within(self, bbox: tuple[float, float, float, float]) -> list:
        """The characters wholly inside (x0, top, x1, bottom), as pdfplumber's page.within_bbox keeps them."""
        x0, top, x1, bottom = bbox
        return [c for c in self.chars if x0 <= c["x0"] and c["x1"] <= x1 and top <= c["top"] and c["bottom"] <= bottom]

    def words(self, bbox: tuple[float, float, float, float] | None = None) -> list[str]:
        """The words of the page (or of the characters wholly inside bbox), as pdfplumber extracts them."""
        from pdfplumber.utils import extract_words

        return [w["text"] for w in extract_words(self.chars if bbox is None else self.within(bbox))]


def digest(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def stored(kind: str, key: str, compute: Callable[[], object]):
    """compute()'s value under (kind, key): from the folder when a test run made it already, else made and
    written. A worker that needs a key another worker is making waits for it (a file lock per key) rather
    than making it too; each value made is logged in FOLDER/made.log (kind, seconds, the test that asked)."""
    from filelock import FileLock

    path = _place(kind, key)
    value = _load(path)
    if value is not None:
        return value[0]
    path.parent.mkdir(parents=True, exist_ok=True)
    with FileLock(f"{path}.lock"):
        value = _load(path)
        if value is not None:
            return value[0]
        started = time.perf_counter()
        value = compute()
        scratch = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        scratch.write_bytes(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
        os.replace(scratch, path)
    with open(FOLDER / "made.log", "a", encoding="utf-8") as log:
        log.write(f"{kind}\t{time.perf_counter() - started:.2f}\t{os.environ.get('PYTEST_CURRENT_TEST', '')}\n")
    return value


def is_stored(kind: str, key: str) -> bool:
    return _place(kind, key).is_file()


def _place(kind: str, key: str) -> Path:
    name = hashlib.sha256(f"{kind}\0{VERSION}\0{key}".encode()).hexdigest()
    return FOLDER / kind / name[:2] / name


def _load(path: Path) -> tuple | None:
    """(the value stored at path,), or None when nothing (whole) is there yet."""
    try:
        return (pickle.loads(path.read_bytes()),)
    except (OSError, pickle.UnpicklingError, EOFError):
        return None


def pages(path: Path) -> list[Page]:
    """Every page of a PDF, read by pdfplumber once for its content (see the module's docstring)."""
    return _pages(digest(path), str(path))


@lru_cache(maxsize=16)
def _pages(content: str, path: str) -> list[Page]:
    import pdfplumber

    def read() -> list[Page]:
        found = []
        with pdfplumber.open(path) as pdf:
            for number, page in enumerate(pdf.pages):
                found.append(Page(number, float(page.width), float(page.height),
                                  [_plain(c, CHAR_KEYS) for c in page.chars],
                                  [_plain(o, GRAPHIC_KEYS) for o in page.lines],
                                  [_plain(o, GRAPHIC_KEYS) for o in page.rects],
                                  [_plain(o, GRAPHIC_KEYS) for o in page.curves]))
        return found

    return stored("pages", f"{content}\0pdfplumber {pdfplumber.__version__}", read)


def _plain(obj: dict, keys: tuple[str, ...]) -> dict:
    return {key: value if value.__class__ in _PLAIN else _value(value)
            for key in keys if key in obj for value in (obj[key],)}


_PLAIN = frozenset((int, float, str, bool, type(None)))


def _value(value):
    kind = value.__class__
    if kind in _PLAIN:                  # most values: at once, without the isinstance tests
        return value
    if kind is tuple or kind is list or isinstance(value, (list, tuple)):
        return tuple([_value(v) for v in value])
    return value if isinstance(value, (int, float, str, bool)) else str(value)
