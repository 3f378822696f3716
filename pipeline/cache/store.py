"""A content-addressed store in the cache folder (pipeline/cache/location.py): safe to delete, never trusted
beyond what it proves.

A key is the sha256 of the pickled inputs of a computation (with the code fingerprint in them). An entry is
one file, .pnp-cache/<fingerprint>/<kk>/<key>, holding a header line — magic, its own key, the sha256 of the
payload — then the pickled value. `get` returns a value only when the header names the key asked for and the payload
has that checksum: a truncated, corrupted or foreign entry (another key's file copied in its place, another
version's format) is a miss, and is computed again. Inputs that cannot be pickled have no key: never cached.

Unpickling runs code named in the entry; the checksum guards against accidents, not against someone who can
write into the project (they could as well replace the PDFs themselves).
"""

from __future__ import annotations

import hashlib
import io
import os
import pickle
import tempfile
import time
import types
from pathlib import Path, PurePath
from typing import Any

from pipeline.core.output import abandoned

MAGIC = b"pnp-cache-1"
PART = ".part"                    # an entry being written: <key>.<pid>-xxxxxxxx.part
UNUSED_DAYS = 30                  # an entry no build has read for this long is removed
_MISSING = object()


def key_of(*parts: Any, root: Path | None = None) -> str | None:
    """sha256 of the pickled parts; None when they cannot be pickled (then nothing is cached). A local
    function (a rulebook context's helper) counts as its name and the values it closes over: its code is in
    the code fingerprint every key holds. A cyclic value has no key. A path inside `root` (the project) counts
    as its path from there, so a project moved or cloned elsewhere finds what it stored."""
    buffer = io.BytesIO()
    try:
        pickler = _KeyPickler(buffer, protocol=5)
        pickler.root = os.path.join(str(root), "") if root is not None else None   # with its separator
        pickler.fast = True         # no memo: equal values give equal bytes whether or not they are one object
        pickler.dump(parts)
    except Exception:               # a lock, a generator, a file in a context (or too deep): not cacheable
        return None
    return hashlib.sha256(buffer.getvalue()).hexdigest()


def _function(*identity: Any) -> None:
    """Stands for a local function in a key (never called: keys are never unpickled)."""


def _project_path(relative: str) -> None:
    """Stands for a path inside the project in a key (never called)."""


class _KeyPickler(pickle.Pickler):
    root: str | None = None

    def reducer_override(self, obj: Any) -> Any:
        if isinstance(obj, PurePath) and self.root is not None:
            text = str(obj)
            if text.startswith(self.root):
                return _project_path, (text[len(self.root):].replace(os.sep, "/"),)
        if isinstance(obj, types.FunctionType) and obj is not _function and \
                ("<locals>" in obj.__qualname__ or obj.__name__ == "<lambda>"):
            cells = tuple(_stable(cell.cell_contents) for cell in obj.__closure__ or ())
            return _function, (obj.__module__, obj.__qualname__, cells, obj.__defaults__, obj.__kwdefaults__)
        return NotImplemented


def _stable(value: Any) -> Any:
    """Sets as sorted tuples (a set's order follows the process's hash seed; pickle takes sets as they come,
    so a set elsewhere in a key only makes it miss)."""
    if isinstance(value, (set, frozenset)):
        return (type(value).__name__, tuple(sorted((_stable(item) for item in value), key=repr)))
    if isinstance(value, (list, tuple)):
        return type(value)(_stable(item) for item in value) if type(value) in (list, tuple) else value
    if type(value) is dict:
        return {key: _stable(item) for key, item in value.items()}
    return value


class Store:
    def __init__(self, folder: Path):
        self.folder = Path(folder)

    def _path(self, key: str) -> Path:
        return self.folder / key[:2] / key

    def get(self, key: str | None, default: Any = None) -> Any:
        if key is None:
            return default
        path = self._path(key)
        try:
            raw = path.read_bytes()
        except OSError:
            return default
        header, _, payload = raw.partition(b"\n")
        parts = header.split(b" ")
        if len(parts) != 3 or parts[0] != MAGIC or parts[1] != key.encode() or \
                parts[2] != hashlib.sha256(payload).hexdigest().encode():
            return default
        try:
            value = pickle.loads(payload)
        except Exception:
            return default
        try:
            os.utime(path)            # read: kept by prune()
        except OSError:
            pass
        return value

    def has(self, key: str | None) -> bool:
        return self.get(key, _MISSING) is not _MISSING

    def put(self, key: str | None, value: Any) -> None:
        """Store atomically (a temporary renamed in place); a store that cannot write is only slower."""
        if key is None:
            return
        try:
            payload = pickle.dumps(value, protocol=5)
        except Exception:
            return
        self.put_pickled(key, payload)

    def put_pickled(self, key: str, payload: bytes) -> None:
        data = b" ".join((MAGIC, key.encode(), hashlib.sha256(payload).hexdigest().encode())) + b"\n" + payload
        path = self._path(key)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            # not named like output/'s temporaries (.*.tmp): a killed build's are removed by prune()
            handle, temp = tempfile.mkstemp(dir=path.parent, prefix=f"{key}.{os.getpid()}-", suffix=PART)
        except OSError:
            return
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(data)
            os.replace(temp, path)
        except BaseException as exc:            # a full disk, Ctrl-C: no half entry left
            Path(temp).unlink(missing_ok=True)
            if not isinstance(exc, OSError):
                raise

    def prune(self, days: float = UNUSED_DAYS) -> int:
        """Remove the entries unread for `days` (and abandoned temporaries); returns how many."""
        limit, removed = time.time() - days * 86400, 0
        if not self.folder.is_dir():
            return 0
        for path in self.folder.glob("*/*"):
            try:
                if path.name.endswith(PART):
                    pid = path.name.rsplit(".", 2)[-2].split("-")[0]
                    if pid.isdigit() and abandoned(path, pid):
                        path.unlink()
                elif path.stat().st_mtime < limit:
                    path.unlink()
                    removed += 1
            except OSError:
                pass
        return removed
