"""Every call to git the pipeline makes, in one place: a project need not be a git work tree, and git need
not be installed, so each call says "no answer" (None, False) rather than raising."""

from __future__ import annotations

import subprocess
from pathlib import Path

TIMEOUT = 10        # seconds: git answers these at once in any repository


def _run(root: Path, *args: str, timeout: float | None = TIMEOUT) -> subprocess.CompletedProcess | None:
    try:
        return subprocess.run(["git", "-C", str(root), *args], capture_output=True, timeout=timeout)
    except (OSError, subprocess.TimeoutExpired):
        return None


def line(root: Path, *args: str) -> str | None:
    """The first line git prints for `args` in `root`, or None when git fails, is missing or prints nothing."""
    done = _run(root, *args)
    text = done.stdout.decode("utf-8", "replace").strip() if done is not None else ""
    return text.splitlines()[0] if done is not None and done.returncode == 0 and text else None


def toplevel(root: Path) -> Path | None:
    """The top folder of the repository holding `root` (which may be above the project), None outside one."""
    top = line(root, "rev-parse", "--show-toplevel")
    return Path(top).resolve() if top else None


def show(root: Path, revision: str, relative: str) -> tuple[bytes | None, str]:
    """A file's bytes at a revision (`git show REV:PATH`), or None and the last line git said about why."""
    done = _run(root, "show", f"{revision}:{relative}", timeout=None)
    if done is not None and done.returncode == 0:
        return done.stdout, ""
    why = done.stderr.decode("utf-8", "replace").strip().splitlines() if done is not None else ["git not found"]
    return None, why[-1] if why else ""


def holds(root: Path, revision: str, relative: str) -> bool:
    """Whether the revision holds that file (`git cat-file -e`)."""
    done = _run(root, "cat-file", "-e", f"{revision}:{relative}")
    return done is not None and done.returncode == 0
