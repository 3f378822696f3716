"""Paths written by someone else, in every form a path takes on some system: each refused at its cell (one
line per bad cell, stage 2), never later at render once per card drawn; a link on disk that leads out of the
project too; and a template's literal image `src` at its file and line, once."""

from __future__ import annotations

import os
from pathlib import Path

from tests.data.hostile import Case
from tests.data.hostile.damage import cells, csv_line

CELL = r"^error sheets/buildit\.xlsx › cities › G2 \(art\): .*"
CSV_CELL = r"^error bench/data/cards_100\.csv › cards › G2 \(icon\): .*"


def _art(text: str):
    return cells("buildit", "cities", {"G2": text})


def _icon(text: str):
    return csv_line(2, lambda line: line.replace("icons/icon_0.png", text, 1))


def _link_out(root: Path) -> None:
    """templates/buildit/art/outside -> /etc (a folder outside the project), and a cell that uses it."""
    folder = root / "templates" / "buildit" / "art"
    folder.mkdir(parents=True, exist_ok=True)
    os.symlink("/etc", folder / "outside")
    _art("art/outside/hostname")(root)


def _literal_src(root: Path) -> None:
    """A template drawing a fixed image from a drive-letter path."""
    path = root / "templates" / "buildit" / "city.yaml"
    text = path.read_text(encoding="utf-8").rstrip("\n")
    path.write_text(text + "\n  - image: {x: 1, y: 1, w: 5, h: 5, src: 'C:/Windows/win.ini'}\n", encoding="utf-8")


def _data_file(text: str):
    """game.yaml naming its data file (`..` may lead to another folder of the project, never out of it)."""
    def damage(root: Path) -> None:
        path = root / "templates" / "benchdeck" / "game.yaml"
        path.write_text(path.read_text(encoding="utf-8").replace("../../bench/data/cards_100.csv", text, 1),
                        encoding="utf-8")
    return damage


CASES = [
    Case("drive-letter", "buildit", _art("C:/Windows/win.ini"), CELL + r"'C:/Windows/win\.ini' is a path on a Windows drive"),
    Case("drive-relative", "buildit", _art("C:art.png"), CELL + r"Windows drive"),
    Case("drive-backslash", "buildit", _art("D:\\art\\castle.png"), CELL + r"Windows drive"),
    Case("unc", "buildit", _art("\\\\server\\share\\castle.png"), CELL + r"network path \(UNC\)"),
    Case("unc-slashes", "buildit", _art("//server/share/castle.png"), CELL + r"network path \(UNC\)"),
    Case("file-url", "buildit", _art("file:///etc/passwd"), CELL + r"is a URL"),
    Case("https-url", "buildit", _art("https://example.com/castle.png"), CELL + r"is a URL"),
    Case("posix-absolute", "buildit", _art("/etc/passwd"), CELL + r"is an absolute path"),
    Case("home", "buildit", _art("~/art/castle.png"), CELL + r"names a home folder"),
    Case("dot-dot", "buildit", _art("art/../../../etc/passwd"), CELL + r"climbs out of its folder with '\.\.'"),
    Case("backslash", "buildit", _art("art\\castle.png"), CELL + r"has a backslash"),
    Case("control-character", "buildit", _art("art/cas\ttle.png"), CELL + r"control character"),
    Case("link-out", "buildit", _link_out, CELL + r"leads out of the project through a link"),
    Case("csv-drive-letter", "benchdeck", _icon("C:/icons/icon_0.png"), CSV_CELL + r"Windows drive"),
    Case("csv-url", "benchdeck", _icon("http://example.com/i.png"), CSV_CELL + r"is a URL"),
    Case("template-literal-src", "buildit", _literal_src,
         r"^error templates/buildit/city\.yaml › line \d+: .*image: 'C:/Windows/win\.ini' is a path on a Windows drive"),
    Case("game-yaml-url", "benchdeck", _data_file("https://example.com/cards.csv"),
         r"^error templates/benchdeck/game\.yaml: data file 'https://example\.com/cards\.csv' is a URL"),
    Case("game-yaml-out", "benchdeck", _data_file("../../../cards.csv"),
         r"^error templates/benchdeck/game\.yaml: data file '\.\./\.\./\.\./cards\.csv' leads out of the project"),
]
