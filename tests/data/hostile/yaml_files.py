"""YAML from other people: alias bombs (nested aliases, merge keys, an alias inside its own anchor), a file
too large, nesting too deep, a file that is not UTF-8, in a card template, a game.yaml and a fonts.yaml.
Each is refused at its file and line (pipeline/core/safe_yaml.py), before anything is built."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from tests.data.hostile import Case

CARD = "templates/buildit/normal.yaml"          # the face of every Build It normal card (32 lines)
BENCH_GAME = "templates/benchdeck/game.yaml"    # the data-only benchmark deck


def _lines(path: str) -> int:
    from tests.conftest import ROOT

    return len((ROOT / path).read_text(encoding="utf-8").splitlines())


def _bomb(levels: int = 9, width: int = 9, merge: bool = False) -> str:
    """The "billion laughs": each level repeats the one below `width` times (9**9 values at level 9); with
    `merge`, as mappings that also merge the level below (`<<: *lol3`)."""
    if merge:
        lines = [f"lol0: &lol0 {{{', '.join(f'k{i}: lol' for i in range(width))}}}"]
        for level in range(1, levels + 1):
            keys = ", ".join(f"k{i}: *lol{level - 1}" for i in range(width))
            lines.append(f"lol{level}: &lol{level} {{<<: *lol{level - 1}, {keys}}}")
    else:
        lines = [f"lol0: &lol0 [{', '.join(['lol'] * width)}]"]
        for level in range(1, levels + 1):
            lines.append(f"lol{level}: &lol{level} [{', '.join([f'*lol{level - 1}'] * width)}]")
    return "\n".join(lines) + "\n"


def _append(path: str, text: str) -> Callable[[Path], None]:
    def damage(root: Path) -> None:
        target = root / path
        target.write_text(target.read_text(encoding="utf-8").rstrip("\n") + "\n" + text, encoding="utf-8")
    return damage


def _append_bytes(path: str, data: bytes) -> Callable[[Path], None]:
    def damage(root: Path) -> None:
        target = root / path
        target.write_bytes(target.read_bytes().rstrip(b"\n") + b"\n" + data)
    return damage


def _write(path: str, data: bytes) -> Callable[[Path], None]:
    def damage(root: Path) -> None:
        (root / path).write_bytes(data)
    return damage


def _oversize(path: str) -> Callable[[Path], None]:
    """The file, then comment lines of 100 bytes up to 2 MB."""
    def damage(root: Path) -> None:
        target = root / path
        text = target.read_text(encoding="utf-8").rstrip("\n") + "\n"
        target.write_text(text + ("#" * 99 + "\n") * 21_000, encoding="utf-8")
    return damage


def _refused(path: str, line: int | str, message: str, rule: str) -> str:
    """The one line: file › line N, then (for a card template) the first card that uses it, then why."""
    return rf"^error {path.replace('.', r'.')} › line {line}: (card .*?: )?{message}.* \[{rule}\]$"


ALIASES = r"aliases repeat more than 10,000 values by this line \(\*lol{} alone stands for"
_AT_CARD = _lines(CARD) + 1                     # the first appended line
_AT_GAME = _lines(BENCH_GAME) + 1
FONTS_HEAD = "fallback:\n  - {family: Noto Sans, package: fontpkg_noto_sans, file: \"NotoSans[wdth,wght].ttf\"}\n"
_DEEP = "deep: " + "[" * 70 + "1" + "]" * 70 + "\n"

CASES = [
    # lol3 stands for 7,381 values: the second *lol3 passes the 10,000 budget, on the line of lol4
    Case("nested-alias-bomb-in-a-card-template", "buildit", _append(CARD, _bomb()),
         _refused(CARD, _AT_CARD + 4, ALIASES.format(3), "template")),
    Case("merge-key-bomb-in-a-card-template", "buildit", _append(CARD, _bomb(merge=True)),
         _refused(CARD, _AT_CARD + 3, ALIASES.format(2), "template")),
    Case("alias-inside-its-own-anchor", "buildit", _append(CARD, "loop: &loop [1, [2, *loop]]\n"),
         _refused(CARD, _AT_CARD, r"the alias \*loop is inside its own anchor &loop", "template")),
    Case("alias-bomb-in-a-data-game-yaml", "benchdeck", _append(BENCH_GAME, _bomb()),
         _refused(BENCH_GAME, _AT_GAME + 4, ALIASES.format(3), "game")),
    Case("oversize-card-template", "buildit", _oversize(CARD),
         _refused(CARD, r"\d+", r"the file is larger than 256 KiB", "template")),
    Case("oversize-game-yaml", "benchdeck", _oversize(BENCH_GAME),
         _refused(BENCH_GAME, r"\d+", r"the file is larger than 256 KiB", "game")),
    Case("nesting-too-deep-in-a-card-template", "buildit", _append(CARD, _DEEP),
         _refused(CARD, _AT_CARD, r"lists and mappings are nested more than 64 deep here", "template")),
    Case("nesting-too-deep-through-an-alias", "buildit",
         _append(CARD, "shallow: &d " + "[" * 40 + "1" + "]" * 40 + "\nx: " + "[" * 30 + "*d" + "]" * 30 + "\n"),
         _refused(CARD, _AT_CARD + 1, r"the alias \*d nests lists and mappings more than 64 deep", "template")),
    Case("card-template-not-utf8", "buildit", _append_bytes(CARD, b"# caf\xe9 (Windows-1252)\n"),
         _refused(CARD, _AT_CARD, "the file is not UTF-8 text", "template")),
    Case("alias-bomb-in-a-game-fonts-yaml", "buildit", _write("templates/buildit/fonts.yaml",
                                                              (FONTS_HEAD + _bomb()).encode()),
         _refused("templates/buildit/fonts.yaml", 3 + 4, ALIASES.format(3), "font")),
    Case("alias-bomb-in-the-project-fonts-yaml", "benchdeck", _append("fonts/fonts.yaml", _bomb()),
         _refused("fonts/fonts.yaml", _lines("fonts/fonts.yaml") + 1 + 4, ALIASES.format(3), "font")),
    Case("deep-game-fonts-yaml", "benchdeck", _write("templates/benchdeck/fonts.yaml",
                                                     (FONTS_HEAD + _DEEP).encode()),
         _refused("templates/benchdeck/fonts.yaml", 3, r"lists and mappings are nested more than 64", "font")),
]
