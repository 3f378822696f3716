"""Why a file could not be written, in plain words, one line each (issue 33).

A PDF open in a viewer on Windows cannot be replaced (the rename raises PermissionError); a read-only folder
refuses the temporary (EACCES, EPERM, EROFS); a full disk (ENOSPC, EDQUOT) fails while writing or on close.
pipeline/core/output.py `atomic_write` turns each into a `WriteFailure`: inside `failing()` (a build) it is
collected and the build goes on writing everything else; elsewhere it is raised as `CannotWrite`, a
PipelineError, which the CLI prints as its located line (exit 1, no traceback). Either way the old file is
left whole and the temporary removed.
"""

from __future__ import annotations

import errno
import os
from dataclasses import dataclass
from pathlib import Path

from pipeline.core.errors import PipelineError, Problem

RULE = "output"
LOCKED, READ_ONLY, FULL, QUOTA, OTHER = "locked", "read-only", "full", "quota", "other"
_READ_ONLY = {errno.EACCES, errno.EPERM, errno.EROFS}
_FULL = {errno.ENOSPC: FULL, getattr(errno, "EDQUOT", errno.ENOSPC): QUOTA}
# what the environment can refuse a write for (anything else is a bug, raised as it is)
ENVIRONMENT = _READ_ONLY | set(_FULL)


@dataclass(frozen=True)
class WriteFailure:
    path: str               # absolute: the file that was not written (its old bytes, if any, still there)
    cause: str              # LOCKED, READ_ONLY, FULL, QUOTA or OTHER
    folder: str = ""        # READ_ONLY: the folder that refused
    detail: str = ""        # OTHER: the system's words


def failure_of(exc: OSError, path, replacing: bool = False) -> WriteFailure:
    """What `exc` means for the file at `path`: `replacing` when it came from the rename over the old file
    (EACCES or EPERM there: the file is held open, as Windows does for a PDF in a viewer)."""
    path = os.path.abspath(path)
    code = exc.errno
    if code in _FULL:
        return WriteFailure(path, _FULL[code])
    if code in _READ_ONLY and replacing and code != errno.EROFS:
        return WriteFailure(path, LOCKED)
    if code in _READ_ONLY:
        # the refused name is the folder being made or the temporary being created: its parent is read-only
        refused = exc.filename if isinstance(exc.filename, str) and code != errno.EROFS else None
        return WriteFailure(path, READ_ONLY, os.path.dirname(os.path.abspath(refused)) if refused
                            else os.path.dirname(path))
    return WriteFailure(path, OTHER, detail=exc.strerror or str(exc))


def problems(failures: list[WriteFailure], root: Path, again: str = "build") -> list[Problem]:
    """One line per file that could not be replaced; one per read-only folder and one for a full disk (every
    file after the first fails alike), each with how many files were not written and what to do before the
    command (`again`) is run again."""
    groups: dict[tuple, list[WriteFailure]] = {}
    for failure in dict.fromkeys(failures):
        key = (failure.cause, failure.folder) if failure.cause in (READ_ONLY, FULL, QUOTA) else (failure.path,)
        groups.setdefault(key, []).append(failure)
    return [Problem(*_line(group, root, again), RULE) for group in groups.values()]


def _line(group: list[WriteFailure], root: Path, again: str) -> tuple[str, str]:
    first = group[0]
    if first.cause == LOCKED:
        program = "a PDF viewer" if first.path.lower().endswith(".pdf") else "another program"
        what = "one of its files" if os.path.isdir(first.path) else "it"        # a release folder in dist/
        return shown(first.path, root), (f"cannot be replaced (is {what} open in {program}? close it, then "
                                         f"{again} again)")
    if first.cause == READ_ONLY:
        count = f"{len(group)} files not written: " if len(group) > 1 else ""
        return shown(first.folder, root), (f"cannot be written in, the folder is read-only ({count}"
                                           f"make it writable, then {again} again)")
    if first.cause in (FULL, QUOTA):
        cause = "the disk is full" if first.cause == FULL else "the disk quota is exceeded"
        others = f"; {len(group) - 1} other file{'s' if len(group) > 2 else ''} not written either" \
            if len(group) > 1 else ""
        return shown(first.path, root), f"cannot be written, {cause} (free some space, then {again} again){others}"
    return shown(first.path, root), f"cannot be written ({first.detail})"


def shown(path: str, root: Path) -> str:
    """The path from the project's root when inside it, else as it is."""
    absolute = Path(path)
    return str(absolute.relative_to(root)) if absolute.is_relative_to(root) else str(absolute)


class CannotWrite(PipelineError):
    """Files that could not be written where no build collects the failures: the CLI prints the lines."""

    def __init__(self, failures: list[WriteFailure], root: Path | None = None):
        self.failures, self.root = list(failures), root
        super().__init__(problems(self.failures, Path(root or os.getcwd()).resolve()))

    def __reduce__(self):
        return type(self), (self.failures, self.root)


def failed_build_line(report) -> str:
    """What a failed build says last: nothing written (a problem in the inputs), or what was not."""
    refused = sum(1 for problem in report.errors if problem.rule == RULE)
    if not refused:
        return "build failed: nothing was written"
    return (f"build failed: {'that file or folder' if refused == 1 else f'those {refused} files or folders'} "
            "could not be written (everything else was)")


def in_plain_words(exc: OSError) -> str:
    """`error <file>: <cause>` for a refusal met outside atomic_write (a read or a write: the cause only)."""
    causes = {errno.ENOSPC: "the disk is full", errno.EROFS: "the file system is read-only",
              errno.EACCES: "permission denied (a read-only folder, or a file open in another program?)"}
    causes[errno.EPERM] = causes[errno.EACCES]
    if hasattr(errno, "EDQUOT"):
        causes[errno.EDQUOT] = "the disk quota is exceeded"
    where = f"{shown(os.path.abspath(exc.filename), Path.cwd())}: " if isinstance(exc.filename, str) else ""
    return f"error {where}{causes.get(exc.errno, exc.strerror or str(exc))}"
