"""One write step through the cache: the files of a component (or a game's pooled sheets) drawn anew, or,
when the step's key is found, the files already on disk kept — if each still holds the bytes the step made
(its sha256 is checked), else the step is drawn again. The cache holds report entries and checksums, not a
second copy of the PDFs."""

from __future__ import annotations

import hashlib
import os
import time
from pathlib import Path
from typing import Callable

from pipeline.cache import BuildCache, ComponentStats
from pipeline.core.output import capturing, failing, record, sha256_file


def write_unit(cache: BuildCache | None, key: str | None, write: Callable[[], list[dict]], root: Path,
               stats: ComponentStats, found: tuple | None, new: bool = True) -> list[dict] | None:
    """The step's report entries. Found and its files intact: nothing is written, the files are recorded as
    this build's. Otherwise drawn by `write()` and stored — unless `new` is False (a component left out by
    --only), then nothing is written and None returned. `found`: what `current` says of the step's key."""
    start = time.perf_counter()
    try:
        if found is not None:
            entries, files = found
            for rel, digest in files:
                record(Path(root) / rel, digest)
            stats.files_reused += len(files)
            return entries
        if not new:
            stats.built = False
            return None
        with capturing() as files, failing() as failed:
            entries = write()
        last = {path: data for path, data in files}      # a path written twice (two cards of one name) holds the last
        stats.files_written += len(last)
        if cache and key and not failed:        # a file the system refused: drawn again next build
            cache.put(key, (entries, [(os.path.relpath(path, root), hashlib.sha256(data).hexdigest())
                                      for path, data in last.items()]))
        return entries
    finally:
        stats.seconds += time.perf_counter() - start


def current(cache: BuildCache | None, key: str | None, root: Path) -> tuple[list, list] | None:
    """The step's (entries, files) when the cache holds them and every file is still on disk as written."""
    found = cache.get(key) if cache and key else None
    return found if found is not None and _intact(root, found[1]) else None


def _intact(root: Path, files: list[tuple[str, str]]) -> bool:
    """Every file of the step is on disk (not a link) with the checksum it was written with."""
    for rel, digest in files:
        path = Path(root) / rel
        try:
            if path.is_symlink() or sha256_file(path) != digest:
                return False
        except OSError:
            return False
    return True
