"""Where the incremental cache lives, and what may be removed of it (issue 33).

`.pnp-cache/` at the project's root, like .pytest_cache/ and .ruff_cache/: out of output/, the folder users
open, zip and send. `PNP_CACHE_DIR` moves it (an absolute path, or one from the project's root), never onto
the project itself, a folder holding it, its inputs or output/. The folder holds one sub-folder per code
fingerprint (16 hex digits) and a CACHEDIR.TAG (backup tools skip the folder); pruning and `pnp clean`
remove only those, so a PNP_CACHE_DIR pointing at a folder with other files loses none of them.

A build removes the output/.cache/ of versions before issue 33 (`remove_old_cache`).
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

from pipeline.core.errors import PipelineError, Problem

ENV = "PNP_CACHE_DIR"
DEFAULT = ".pnp-cache"
OLD = Path("output") / ".cache"                     # where pnp kept it before
TAG = "CACHEDIR.TAG"                                # https://bford.info/cachedir/
TAG_TEXT = ("Signature: 8a477f597d28d172789f06886806bc55\n"
            "# This file is a cache directory tag created by pnp (its incremental build cache).\n")
FINGERPRINT = re.compile(r"^[0-9a-f]{16}$")         # one folder per code fingerprint
_NOT_A_CACHE = ("sheets", "templates", "fonts", "output", "dist", "pipeline", "tests", "bench", "docs", ".git")


def cache_folder(root: Path) -> Path:
    """The cache folder of the project at `root`: PNP_CACHE_DIR (refused: PipelineError) else .pnp-cache/."""
    root = Path(root).resolve()
    given = os.environ.get(ENV, "").strip()
    if not given:
        return root / DEFAULT
    folder = Path(os.path.abspath(root / Path(given).expanduser()))
    why = refusal(folder, root)
    if why:
        raise PipelineError(Problem(ENV, f"{given!r} cannot hold the build cache: {why}", "usage"))
    return folder


def refusal(folder: Path, root: Path) -> str | None:
    """Why a folder cannot be the cache (its entries are removed by pruning and `pnp clean`); None: it can."""
    resolved = Path(os.path.realpath(folder))
    if resolved == Path(resolved.anchor) or resolved == Path.home().resolve():
        return "it is a system or home folder"
    if resolved in (root, *root.parents):
        return "it is the project's folder or holds it"
    if resolved.is_relative_to(root) and resolved.relative_to(root).parts[0] in _NOT_A_CACHE:
        return f"it is in the project's {resolved.relative_to(root).parts[0]}/ (use a hidden folder such as {DEFAULT})"
    return None


def mark(folder: Path) -> None:
    """The cache directory tag, written once (a cache that cannot write is only slower)."""
    tag = folder / TAG
    if not tag.exists():
        try:
            folder.mkdir(parents=True, exist_ok=True)
            tag.write_text(TAG_TEXT, encoding="ascii")
        except OSError:
            pass


def entries(folder: Path) -> list[Path]:
    """What is pnp's in the cache folder: its fingerprint folders and its tag (never a link's target)."""
    if not folder.is_dir() or folder.is_symlink():
        return []
    return sorted(path for path in folder.iterdir()
                  if (FINGERPRINT.match(path.name) and path.is_dir() and not path.is_symlink())
                  or (path.name == TAG and path.is_file()))


def remove_old_cache(root: Path) -> bool:
    """output/.cache/ of pnp before issue 33, removed once (unless PNP_CACHE_DIR puts the cache there)."""
    old = Path(root).resolve() / OLD
    try:
        current = cache_folder(root)
    except PipelineError:                           # a refused PNP_CACHE_DIR: told where the cache is used
        current = None
    if not old.is_dir() or old.is_symlink() or old == current:
        return False
    shutil.rmtree(old, ignore_errors=True)
    return True
