"""Atomic writes and checksums: a file under output/ is either the old one or the complete new one."""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path


def atomic_write(path: Path, data: bytes) -> str:
    """Write bytes atomically (temp file in the same folder, then rename); return their sha256."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.chmod(temp, 0o644)           # mkstemp creates 0600; outputs are ordinary shareable files
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    return hashlib.sha256(data).hexdigest()


def sha256_file(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()
