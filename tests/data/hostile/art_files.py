"""Art given at a cell that is damaged (issue 33): a PNG whose header is whole and whose pixels are cut short
was read for its size at validation and crashed the build's drawing with an OSError traceback; it is now a
located error at each card that draws it, before anything is written."""

from __future__ import annotations

from pathlib import Path

from tests.data.hostile import Case

ICON = Path("bench/data/icons/icon_0.png")


def _cut_icon(root: Path) -> None:
    (root / ICON).write_bytes((root / ICON).read_bytes()[:300])


CASES = [
    Case("png-cut-short", "benchdeck", _cut_icon,
         r"^error templates/benchdeck/front\.yaml › line \d+: card 1 \(cards row 2\): image: cannot read image "
         r"icon_0\.png: image file is truncated \(data: bench/data/cards_100\.csv › cards › row 2\) \[art\]$",
         count=25),
]
