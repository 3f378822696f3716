"""One write step through the cache: the files of a component (or a game's pooled sheets) drawn anew and
stored with their report entries, or taken back byte for byte when the step's key is found."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Callable

from pipeline.cache import BuildCache, ComponentStats
from pipeline.output import capturing, reuse


def write_unit(cache: BuildCache | None, key: str | None, write: Callable[[], list[dict]], root: Path,
               stats: ComponentStats, new: bool = True) -> list[dict] | None:
    """The step's report entries. Found: its files are made to hold the stored bytes (written only where
    they differ). Not found: drawn by `write()` and stored — unless `new` is False (a component left out by
    --only), then nothing is written and None returned."""
    start = time.perf_counter()
    try:
        found = cache.get(key) if cache and key else None
        if found is not None:
            entries, files = found
            for rel, data in files:
                reuse(Path(root) / rel, data)
            stats.files_reused += len(files)
            return entries
        if not new:
            stats.built = False
            return None
        with capturing() as files:
            entries = write()
        stats.files_written += len(files)
        if cache and key:
            cache.put(key, (entries, [(os.path.relpath(path, root), data) for path, data in files]))
        return entries
    finally:
        stats.seconds += time.perf_counter() - start
