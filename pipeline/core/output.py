"""Atomic writes and checksums: a file under output/ is either the old one or the complete new one.

A write goes through a hidden temporary in the same folder (`.cities.pdf.<pid>-xxxxxxxx.tmp`), renamed over
the target when complete; other scratch files (the PNG step's copy of a print PDF) live in the project's own
temporary area, output/.pnp-tmp/<pid>-xxxxxxxx/. A build that is killed (SIGKILL, a crash, power loss)
cannot remove them, so every build first removes the leftovers of that pattern in the folders it writes:
those of a process that no longer runs (the pid is in the name), or older than a day.

A game's folder, output/<game>/, holds what its last build wrote and nothing else: once every file of a
successful build is written (`recording` lists them), `remove_stale` removes whatever else is there — the
Letter sheets of an earlier `--paper all`, the PNG of a card since renamed — except the folders other
commands write (`NOT_BUILT`: `pnp simulate`'s simulation/…) and a running build's temporaries. It never
follows a symbolic link: a stale link is removed itself, a folder link the build wrote through is kept.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import tempfile
import time
from contextvars import ContextVar
from pathlib import Path
from typing import Iterable, Iterator

from pipeline.core.write_failures import CannotWrite, WriteFailure, failure_of

TEMP_AREA = ".pnp-tmp"                          # under output/: never an output, never left behind
STALE_SECONDS = 24 * 3600                       # older than this, a temporary is abandoned whoever made it
_TEMP_FILE = re.compile(r"^\..+\.(?:(?P<pid>\d+)-)?[a-z0-9_]{8}\.tmp$")   # no pid: pnp before issue 19
_TEMP_FOLDER = re.compile(r"^(?P<pid>\d+)-[a-z0-9_]{8}$")
# output/<game>/ belongs to `pnp build` except these folders of other commands (and a build's temporaries)
NOT_BUILT = ("simulation", "sweep", ".cache", "diff")

_RECORDING: ContextVar[dict[str, str] | None] = ContextVar("pnp_written", default=None)
_CAPTURING: ContextVar[list[tuple[str, bytes]] | None] = ContextVar("pnp_captured", default=None)
_FAILED: ContextVar[list[WriteFailure] | None] = ContextVar("pnp_failed", default=None)


def atomic_write(path: Path, data: bytes) -> str:
    """Write bytes atomically (temp file in the same folder, then rename); return their sha256. A write the
    system refuses (a file open in a viewer, a read-only folder, a full disk: pipeline/core/write_failures.py)
    leaves the old file whole and no temporary; inside `failing()` it is listed there and not recorded as
    written, elsewhere it raises CannotWrite."""
    digest = hashlib.sha256(data).hexdigest()
    try:
        _replace(Path(path), data)
    except WrittenNot as refused:
        failed = _FAILED.get()
        if failed is None:
            raise CannotWrite([refused.failure]) from None
        failed.append(refused.failure)
        return digest
    record(path, digest)
    captured = _CAPTURING.get()
    if captured is not None:
        captured.append((os.path.abspath(path), data))
    return digest


class WrittenNot(Exception):
    def __init__(self, failure: WriteFailure):
        self.failure = failure


def _replace(path: Path, data: bytes) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.{os.getpid()}-", suffix=".tmp")
    except OSError as exc:
        raise WrittenNot(failure_of(exc, path)) from None
    replacing = False
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.chmod(temp, 0o644)           # mkstemp creates 0600; outputs are ordinary shareable files
        replacing = True
        os.replace(temp, path)
    except BaseException as exc:        # Ctrl-C and SIGTERM included (pipeline/cli/app.py)
        Path(temp).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise WrittenNot(failure_of(exc, path, replacing)) from None
        raise


@contextlib.contextmanager
def failing(apart: bool = False) -> Iterator[list[WriteFailure]]:
    """The files `atomic_write` could not write inside the block (they are not raised); added to those of an
    enclosing block when done, unless `apart` (the block's caller hands them on itself)."""
    failed: list[WriteFailure] = []
    token = _FAILED.set(failed)
    try:
        yield failed
    finally:
        _FAILED.reset(token)
        outer = _FAILED.get()
        if outer is not None and not apart:
            outer.extend(failed)


def failed_so_far() -> list[WriteFailure]:
    """What the innermost `failing()` block has collected so far (none outside one)."""
    return list(_FAILED.get() or ())


def deliver(target, data: bytes) -> None:
    """A file object gets the bytes; a path is replaced atomically (never a half-written PDF)."""
    if hasattr(target, "write"):
        target.write(data)
    else:
        atomic_write(Path(target), data)


def record(path: Path, digest: str) -> None:
    """List a file as written by this build (`recording`) without writing it: its bytes are already there."""
    written = _RECORDING.get()
    if written is not None:
        written[os.path.abspath(path)] = digest


@contextlib.contextmanager
def recording() -> Iterator[dict[str, str]]:
    """Every file `atomic_write` writes inside the block: {absolute path: sha256}."""
    written: dict[str, str] = {}
    token = _RECORDING.set(written)
    try:
        yield written
    finally:
        _RECORDING.reset(token)


@contextlib.contextmanager
def capturing() -> Iterator[list[tuple[str, bytes]]]:
    """Every file `atomic_write` writes inside the block, with its bytes: [(absolute path, data)]."""
    captured: list[tuple[str, bytes]] = []
    token = _CAPTURING.set(captured)
    try:
        yield captured
    finally:
        _CAPTURING.reset(token)


def file_list(written: dict[str, str], folder: Path) -> list[dict]:
    """The files written under `folder`, as report entries {path relative to it, sha256}, sorted."""
    base = os.path.abspath(folder)
    return [{"path": os.path.relpath(path, base).replace(os.sep, "/"), "sha256": digest}
            for path, digest in sorted(written.items()) if path.startswith(base + os.sep)]


def remove_stale(folder: Path, written: Iterable[str], not_built: Iterable[str] = NOT_BUILT,
                 refused: list[tuple[Path, str]] | None = None) -> list[Path]:
    """Everything under a game's output folder that the build did not write, removed (then the folders left
    empty); returns what was. Kept: the written files and the folders holding them, the top-level folders of
    other commands (`not_built`), hidden temporaries (`remove_leftovers` decides on those). Links are never
    followed: a link the build did not write through is removed itself, never what it points to. A file
    the system will not let go (permissions) goes to `refused` with the reason."""
    keep = {os.path.abspath(path) for path in written}
    holders = {parent for path in keep for parent in _parents(path, os.path.abspath(folder))}
    if not os.path.isdir(folder):
        return []
    return _sweep(Path(folder), keep, holders, set(not_built), refused if refused is not None else [])


def _parents(path: str, top: str) -> Iterator[str]:
    parent = os.path.dirname(path)
    while parent.startswith(top + os.sep):
        yield parent
        parent = os.path.dirname(parent)


def _sweep(folder: Path, keep: set[str], holders: set[str], skip: set[str], refused: list) -> list[Path]:
    removed = []
    try:
        with os.scandir(folder) as entries:
            found = sorted(entries, key=lambda entry: entry.name)
    except OSError as exc:
        refused.append((folder, exc.strerror or str(exc)))
        return removed
    for entry in found:
        path, full = Path(entry.path), os.path.abspath(entry.path)
        if entry.name in skip or _TEMP_FILE.match(entry.name) or full in keep or \
                (full in holders and entry.is_symlink()):
            continue
        if entry.is_dir(follow_symlinks=False):
            removed += _sweep(path, keep, holders, set(), refused)
            if full not in holders:
                with contextlib.suppress(OSError):      # not empty: a running build's temporary
                    path.rmdir()
                    removed.append(path)
            continue
        try:
            path.unlink()                               # a file, or a link (never what it points to)
            removed.append(path)
        except FileNotFoundError:
            pass
        except OSError as exc:
            refused.append((path, exc.strerror or str(exc)))
    return removed


SCRATCH_ATTEMPTS = 1000    # each a few microseconds: processes leaving the area empty at that rate never stop us


@contextlib.contextmanager
def scratch_folder(output: Path) -> Iterator[Path]:
    """A folder of our own under output/.pnp-tmp/, removed (with the area, once empty) when done."""
    area = output / TEMP_AREA
    for attempt in range(SCRATCH_ATTEMPTS):
        try:
            area.mkdir(parents=True, exist_ok=True)
            folder = Path(tempfile.mkdtemp(dir=area, prefix=f"{os.getpid()}-"))
            break
        except (FileExistsError, FileNotFoundError):    # another build process removed the empty area just then
            if attempt == SCRATCH_ATTEMPTS - 1:
                raise
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
            if match and path.is_file() and not path.is_symlink() and abandoned(path, match["pid"]):
                with contextlib.suppress(OSError):          # a folder since made read-only: left as it is
                    path.unlink(missing_ok=True)
                    removed.append(path)
    area = output / TEMP_AREA
    if area.is_dir() and not area.is_symlink():
        for path in sorted(area.iterdir()):
            match = _TEMP_FOLDER.match(path.name)
            if match and path.is_dir() and not path.is_symlink() and abandoned(path, match["pid"]):
                shutil.rmtree(path, ignore_errors=True)
                removed.append(path)
        _remove_if_empty(area)
    return removed


def abandoned(path: Path, pid: str | None) -> bool:
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
    return _zombie(int(pid))


def _zombie(pid: int) -> bool:
    """A process that has ended but is not yet reaped (Linux): an orphaned build worker waits as one until the
    system's first process gets to it, and it will never finish its temporary."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[:1] == ["Z"]


def _remove_if_empty(folder: Path) -> None:
    with contextlib.suppress(OSError):
        folder.rmdir()


def sha256_file(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()
