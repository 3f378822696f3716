"""`pnp clean`: the build's outputs (all of output/, or output/<game>/) and the build cache removed, and
nothing else: the cache folder loses only what is pnp's in it (pipeline/cache/location.py `entries`, and the
output/.cache of earlier versions), a link is removed itself, never what it points to."""

from __future__ import annotations

import contextlib
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.cache.location import OLD, cache_folder, entries


@dataclass
class Cleaned:
    removed: list[tuple[Path, int]] = field(default_factory=list)    # (what was removed, its bytes)
    refused: list[tuple[Path, str]] = field(default_factory=list)    # (what could not be, why)


def clean(root: Path, games: tuple[str, ...] = (), outputs: bool = True, cache: bool = True) -> Cleaned:
    """Remove output/<game>/ for each of `games` (all of output/ when none) when `outputs`, and the cache when
    `cache`; what was removed, with its size, and what could not be. Raises PipelineError for a refused
    PNP_CACHE_DIR."""
    root = Path(root).resolve()
    done = Cleaned()
    if outputs:
        for target in [root / "output" / game for game in games] or [root / "output"]:
            _remove(target, [target], done)
    if cache:
        folder = cache_folder(root)
        _remove(folder, entries(folder), done)
        with contextlib.suppress(OSError):
            folder.rmdir()                                  # only when nothing else is in it
        if not (outputs and not games):                     # all of output/ holds it already
            _remove(root / OLD, [root / OLD], done)
    return done


def _remove(shown: Path, paths: list[Path], done: Cleaned) -> None:
    """`paths` removed, counted as one item named `shown` (nothing when none of them is there)."""
    paths = [path for path in paths if os.path.lexists(path)]
    if not paths:
        return
    size = sum(_size(path) for path in paths)
    for path in paths:
        if path.is_symlink() or not path.is_dir():
            try:
                path.unlink()
            except OSError as exc:
                done.refused.append((path, exc.strerror or str(exc)))
        else:
            shutil.rmtree(path, onerror=lambda _, failed, info: done.refused.append(
                (Path(failed), getattr(info[1], "strerror", None) or str(info[1]))))
    done.removed.append((shown, size))


def _size(path: Path) -> int:
    if path.is_symlink() or not path.is_dir():
        return path.lstat().st_size
    total = 0
    for top, _, names in os.walk(path):                     # links to folders are not followed
        for name in names:
            with contextlib.suppress(OSError):
                total += os.lstat(os.path.join(top, name)).st_size
    return total
