"""The one check for a file path written by someone else (an art cell, a template's image `src`).

A path in the designers' inputs names a file inside the project, relative to the folder art is looked up in,
with `/` between folders: the same text must mean the same file on Linux, macOS and Windows. Two steps:

- `path_problem(text)`, from the text alone, wherever the path is read (a cell at stage 2, a template at
  render): absolute paths of every system (`/etc/x`, `C:/x`, `C:x`, `\\\\server\\share`, `//server/share`,
  `~/x`), URLs (`file:`, `https:`, …), `..` segments, backslashes and control characters are refused;
- `resolve_inside(root, bases, text)`, on disk: the path is resolved in each base folder, links followed,
  and refused when it lands outside the project (a link that leads out).
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]+:")        # two letters at least: `C:` is a drive
_DRIVE = re.compile(r"^[A-Za-z]:")
GAME_FOLDER = "the game's folder, with / between folders (art/castle.png)"
PROJECT_FOLDER = "the project folder, with / between folders (fonts/mine.ttf)"


def path_problem(text: str, relative_to: str = GAME_FOLDER, climb: bool = False) -> str | None:
    """Why this text is not a path inside its base folder, or None when it is one (the empty text included).
    `relative_to` ends the advice: where such a path starts. With `climb`, `..` may lead to another folder of
    the project (game.yaml naming its data), which resolve_inside() then checks."""
    _HOW = f"write it relative to {relative_to}"
    if any(unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp") for char in text):
        return f"{text!r} holds a control character: a path is printable text; {_HOW}"
    if text.startswith(("\\\\", "//")):
        return f"{text!r} is a network path (UNC): only files inside the project are read; {_HOW}"
    if _SCHEME.match(text):
        return f"{text!r} is a URL: pnp reads no address, only files inside the project; {_HOW}"
    if _DRIVE.match(text):
        return f"{text!r} is a path on a Windows drive: only files inside the project are read; {_HOW}"
    if text.startswith(("/", "\\")):
        return f"{text!r} is an absolute path: only files inside the project are read; {_HOW}"
    if text.startswith("~"):
        return f"{text!r} names a home folder: only files inside the project are read; {_HOW}"
    if "\\" in text:
        return f"{text!r} has a backslash: {_HOW}"
    if not climb and ".." in text.split("/"):
        return f"{text!r} climbs out of its folder with '..': {_HOW}"
    return None


def resolve_inside(root: Path, bases: tuple[Path, ...], text: str) -> tuple[Path | None, Path | None]:
    """(the first existing file, the first candidate) of `text` in `bases`, both inside `root`; raises
    ValueError when a candidate lands outside the project once links are followed (`root` resolved)."""
    first = None
    for base in bases:
        candidate = (base / text).resolve()     # follows links: one that leads out of the project is refused
        if not candidate.is_relative_to(root):
            how = "" if ".." in text.split("/") else f" through a link ({_shown(base / text, root)} -> outside)"
            raise ValueError(f"{text!r} leads out of the project{how}: copy the file into the project")
        if candidate.is_file():
            return candidate, candidate
        first = first or candidate
    return None, first


def _shown(path: Path, root: Path) -> str:
    try:
        return path.absolute().relative_to(root).as_posix()
    except ValueError:
        return path.as_posix()


def inside(root: Path, base: Path, text: str, relative_to: str, climb: bool = False) -> Path:
    """`text` resolved in `base`, both checks passed; ValueError says why not (a path named in a manifest)."""
    why = path_problem(text, relative_to, climb) if text else "the path is empty"
    if why:
        raise ValueError(why)
    return resolve_inside(root.resolve(), (base,), text)[1]
