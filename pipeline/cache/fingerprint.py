"""What a cache key must hold besides a thing's own inputs: the code that draws and the files it reads.

`code_fingerprint()` changes when any pipeline source changes, or Python, or any installed distribution
(reportlab, pillow, pypdfium2, the font packages...): an upgrade can never reuse bytes an older version made.
`tree_digest(folder)` is the content of every file under a folder (templates, art, fonts), so a key that
holds it changes when any of them does, whatever its modification time says."""

from __future__ import annotations

import hashlib
import os
import site
import sys
from functools import lru_cache
from pathlib import Path

PIPELINE = Path(__file__).resolve().parent.parent


@lru_cache(maxsize=1)
def code_fingerprint() -> str:
    digest = hashlib.sha256(f"python {sys.version}\n".encode())
    for dist in _installed():
        digest.update(dist.encode() + b"\n")
    digest.update(tree_digest(PIPELINE, suffixes=(".py", ".yaml", ".yml", ".json", ".txt")).encode())
    return digest.hexdigest()


def _installed() -> list[str]:
    """Every installed distribution's name and version, from the name of its metadata folder
    ("reportlab-4.2.5.dist-info"): what an upgrade changes, read without parsing any metadata file. Installed
    packages only: sys.path[0] (a script's folder, the working directory) must not change it."""
    found = set()
    for folder in _site_paths():
        try:
            found.update(name for name in os.listdir(folder) if name.endswith((".dist-info", ".egg-info")))
        except OSError:
            continue
    return sorted(found)


def _site_paths() -> list[str]:
    paths = [*site.getsitepackages(), site.getusersitepackages()]
    return [path for path in dict.fromkeys(paths) if os.path.isdir(path)]


def tree_digest(folder: Path, suffixes: tuple[str, ...] | None = None) -> str:
    """sha256 over the sorted relative paths and contents of the files under `folder` (links followed, like
    the readers do); "absent" for a missing folder. Caches and temporaries are skipped."""
    digest = hashlib.sha256()
    folder = Path(folder)
    if not folder.is_dir():
        return "absent:" + str(folder)
    for path in sorted(_files(folder)):
        if suffixes is not None and not path.endswith(suffixes):
            continue
        digest.update(path.encode() + b"\0")
        try:
            digest.update(hashlib.sha256((folder / path).read_bytes()).digest())
        except OSError as exc:                      # unreadable: a key that matches nothing stored
            digest.update(f"unreadable {exc}".encode())
    return digest.hexdigest()


def _files(folder: Path):
    for top, dirs, names in os.walk(folder, followlinks=True):
        dirs[:] = [d for d in dirs if d not in ("__pycache__", ".cache", ".pnp-cache", ".pnp-tmp")]
        for name in names:
            if not name.endswith((".pyc", ".tmp")):
                yield os.path.relpath(os.path.join(top, name), folder).replace(os.sep, "/")
