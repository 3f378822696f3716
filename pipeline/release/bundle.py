"""A release's files, byte for byte reproducible: the same commit gives the same zips on any machine and any day.

- `source_date_epoch`: the one time written in a bundle: SOURCE_DATE_EPOCH when set (reproducible-builds.org),
  else the commit time of HEAD, else 1980-01-01 (the earliest time a zip can hold). Never the clock.
- `write_zip`: entries sorted by name, each with that time, mode 0o644, made on "Unix", compressed the same way
  (PNG stored: it is compressed already; PDF and text deflated at a fixed level by the zlib that compressed
  the PDFs' streams), no folder entries, no extra fields, no comment; the names are relative
  (`buildit-v0.1/buildit/pnp-a4/board.pdf`).
- `write_sha256sums`: the `sha256sum -c` format (`<hex>  <name>`, sorted by name) over every other file of
  a folder.
"""

from __future__ import annotations

import calendar
import hashlib
import os
import time
import zipfile
from pathlib import Path
from typing import Iterable

from pipeline.core import git

ZIP_EPOCH = calendar.timegm((1980, 1, 1, 0, 0, 0))     # 315532800: the earliest date of a zip entry
ZIP_LATEST = calendar.timegm((2107, 12, 31, 23, 59, 58))
FILE_MODE = 0o644
UNIX = 3                                               # ZipInfo.create_system: the mode bits mean Unix modes
STORED_SUFFIXES = (".png",)                            # compressed already (PDFs still lose 13 %: deflated)
DEFLATE_LEVEL = 9
SUMS = "SHA256SUMS"
EXPORT_BUNDLES = ("tts", "tgc", "mpc", "dtc")           # one zip each (pipeline/kinds/exports.py)


class EpochError(ValueError):
    """SOURCE_DATE_EPOCH is set to something that is not a time (a usage mistake)."""


def source_date_epoch(root: Path, environ: dict | None = None) -> int:
    """The time of every zip entry (seconds since 1970, UTC)."""
    environ = os.environ if environ is None else environ
    given = environ.get("SOURCE_DATE_EPOCH", "").strip()
    if given:
        if not given.isdigit():
            raise EpochError(f"SOURCE_DATE_EPOCH must be a whole number of seconds since 1970, not {given!r}")
        return int(given)
    return commit_time(root) or ZIP_EPOCH


def commit_time(root: Path) -> int | None:
    """The committer time of HEAD (None outside a git work tree or before the first commit)."""
    text = git.line(root, "log", "-1", "--format=%ct", "HEAD")
    return int(text) if text and text.isdigit() else None


def zip_time(epoch: int) -> tuple[int, int, int, int, int, int]:
    """A zip entry's date and time (UTC, so every time zone writes the same bytes), clamped to what a zip holds;
    a zip counts seconds by twos."""
    moment = time.gmtime(min(max(epoch, ZIP_EPOCH), ZIP_LATEST))
    return (moment.tm_year, moment.tm_mon, moment.tm_mday, moment.tm_hour, moment.tm_min, moment.tm_sec // 2 * 2)


def write_zip(target: Path, entries: Iterable[tuple[str, Path]], epoch: int) -> int:
    """A zip of (name in the zip, file on disk), written in name order; returns how many entries it holds."""
    chosen = sorted(entries)
    names = [name for name, _ in chosen]
    if len(set(names)) != len(names):
        raise ValueError(f"{target.name}: two files under one name")
    stamp = zip_time(epoch)
    with zipfile.ZipFile(target, "w") as bundle:
        for name, path in chosen:
            info = zipfile.ZipInfo(name, date_time=stamp)
            info.create_system = UNIX
            info.external_attr = (0o100000 | FILE_MODE) << 16          # a regular file, rw-r--r--
            stored = name.lower().endswith(STORED_SUFFIXES)
            info.compress_type = zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED
            bundle.writestr(info, path.read_bytes(), compresslevel=None if stored else DEFLATE_LEVEL)
    return len(chosen)


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def write_sha256sums(folder: Path) -> Path:
    """folder/SHA256SUMS over every other file of the folder (its subfolders' files by their / path)."""
    files = sorted(path.relative_to(folder).as_posix() for path in folder.rglob("*")
                   if path.is_file() and path.name != SUMS)
    text = "".join(f"{sha256_of(folder / name)}  {name}\n" for name in files)
    target = folder / SUMS
    target.write_bytes(text.encode("utf-8"))
    os.chmod(target, FILE_MODE)
    return target



def bundle_entries(output: Path, game_id: str, stem: str, papers: tuple[str, ...]
                   ) -> dict[str, list[tuple[str, Path]]]:
    """What each zip of a game holds, from a build's output folder, as (name in the zip, file): the names keep
    the output's layout under one folder `stem` (buildit-v0.1/buildit/pnp-a4/…, buildit-v0.1/calibration/…),
    so the print guide's links work once unzipped: a home zip holds that paper's sheets and rulebook (with the
    fold-over twins of its duplex card files, pnp-<paper>/pli/, for a playtester who cannot rebuild), its print
    guide, ids.md (every card's edition id, which the guide links to) and its calibration sheet.
    report.{json,md} (developer data) go in none. Each export beyond paper is a zip of its own
    (<stem>-tts.zip, <stem>-tgc.zip…)."""
    game = output / game_id

    def files(folder: Path) -> list[tuple[str, Path]]:
        found = sorted(p for p in folder.rglob("*") if p.is_file()) if folder.is_dir() else []
        return [(f"{stem}/{p.relative_to(output).as_posix()}", p) for p in found]

    bundles = {}
    for paper in papers:
        loose = [game / f"guide-{paper}.md", game / "ids.md", output / "calibration" / f"pnp-{paper}.pdf"]
        bundles[f"{stem}-home-{paper}.zip"] = files(game / f"pnp-{paper}") + [
            (f"{stem}/{p.relative_to(output).as_posix()}", p) for p in loose if p.is_file()]
    bundles[f"{stem}-print-shop.zip"] = files(game / "print")
    bundles[f"{stem}-png.zip"] = files(game / "png")
    for target in EXPORT_BUNDLES:               # Tabletop Simulator (with its LISEZMOI.txt), print-shop presets
        bundles[f"{stem}-{target}.zip"] = files(game / target)
    return {name: entries for name, entries in bundles.items() if entries}


def loose_files(output: Path, game_id: str, stem: str) -> dict[str, Path]:
    """Files a release carries as they are, beside its zips: the playingcards.io room (a zip already)."""
    folder = output / game_id / "pcio"
    found = sorted(folder.glob("*.pcio")) if folder.is_dir() else []
    return {f"{stem}{path.suffix}" if path.stem == game_id else f"{stem}-{path.name}": path for path in found}
