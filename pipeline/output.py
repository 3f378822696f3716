"""Atomic writes and checksums: a file under output/ is either the old one or the complete new one.

A write goes through a hidden temporary in the same folder (`.cities.pdf.<pid>-xxxxxxxx.tmp`), renamed over
the target when complete; other scratch files (the PNG step's copy of a print PDF) live in the project's own
temporary area, output/.pnp-tmp/<pid>-xxxxxxxx/. A build that is killed (SIGKILL, a crash, power loss)
cannot remove them, so every build first removes the leftovers of that pattern in the folders it writes:
those of a process that no longer runs (the pid is in the name), or older than a day.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import tempfile
import time
from pathlib import Path
from typing import Iterable, Iterator

TEMP_AREA = ".pnp-tmp"                          # under output/: never an output, never left behind
STALE_SECONDS = 24 * 3600                       # older than this, a temporary is abandoned whoever made it
_TEMP_FILE = re.compile(r"^\..+\.(?:(?P<pid>\d+)-)?[a-z0-9_]{8}\.tmp$")   # no pid: pnp before issue 19
_TEMP_FOLDER = re.compile(r"^(?P<pid>\d+)-[a-z0-9_]{8}$")


def atomic_write(path: Path, data: bytes) -> str:
    """Write bytes atomically (temp file in the same folder, then rename); return their sha256."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.{os.getpid()}-", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.chmod(temp, 0o644)           # mkstemp creates 0600; outputs are ordinary shareable files
        os.replace(temp, path)
    except BaseException:               # Ctrl-C and SIGTERM included (pipeline/cli.py)
        Path(temp).unlink(missing_ok=True)
        raise
    return hashlib.sha256(data).hexdigest()


@contextlib.contextmanager
def scratch_folder(output: Path) -> Iterator[Path]:
    """A folder of our own under output/.pnp-tmp/, removed (with the area, once empty) when done."""
    area = output / TEMP_AREA
    area.mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp(dir=area, prefix=f"{os.getpid()}-"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        _remove_if_empty(area)


def remove_leftovers(output: Path, folders: Iterable[Path]) -> list[Path]:
    """The temporaries a killed build left in these folders (and below) and in output/.pnp-tmp/, removed;
    returns what was."""
    removed = []
    for folder in folders:
        if not folder.is_dir():
            continue
        for path in sorted(folder.rglob(".*.tmp")):
            match = _TEMP_FILE.match(path.name)
            if match and path.is_file() and not path.is_symlink() and _abandoned(path, match["pid"]):
                path.unlink(missing_ok=True)
                removed.append(path)
    area = output / TEMP_AREA
    if area.is_dir() and not area.is_symlink():
        for path in sorted(area.iterdir()):
            match = _TEMP_FOLDER.match(path.name)
            if match and path.is_dir() and not path.is_symlink() and _abandoned(path, match["pid"]):
                shutil.rmtree(path, ignore_errors=True)
                removed.append(path)
        _remove_if_empty(area)
    return removed


def _abandoned(path: Path, pid: str | None) -> bool:
    """No process will finish this temporary: its writer is gone (or is us, before we write), or it is old."""
    if pid is None or int(pid) == os.getpid():
        return True
    with contextlib.suppress(OSError):
        if time.time() - path.lstat().st_mtime > STALE_SECONDS:
            return True
    if os.name != "posix":                      # os.kill(pid, 0) would end the process on Windows
        return False
    try:
        os.kill(int(pid), 0)
    except (ProcessLookupError, OverflowError):  # no such process; not even a pid
        return True
    except PermissionError:                     # another user's live process
        return False
    return False


def _remove_if_empty(folder: Path) -> None:
    with contextlib.suppress(OSError):
        folder.rmdir()


def sha256_file(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()
