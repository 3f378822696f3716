"""Images for Tabletop Simulator: card sheets on a TTS grid, single images, file names with a content hash, the
plain back and the 256 px thumbnail (EXPORTS.md §1.1, §1.5).

- A deck's sheet holds at most 10 columns × 7 rows and at most 4096 px a side; slots are filled row by row,
  left to right, top to bottom (slot i = CardID % 100). The image is exactly cols × cell_w by rows × cell_h;
  empty slots stay white.
- Every file name ends with the first 8 hex digits of the sha256 of its PNG bytes, so that TTS's image cache
  never serves an older image under the same name (§1.9).
- RGB only (TTS does not load CMYK, §1.5); the thumbnail is the one image with an alpha channel.
"""

from __future__ import annotations

import hashlib
import math
import re
import unicodedata
from dataclasses import dataclass
from typing import Hashable, Sequence

from PIL import Image

from pipeline.exports import raster

MAX_COLS, MAX_ROWS = 10, 7          # the TTS deck template and the tools (§1.2, §1.5)
MAX_SIDE = 4096                     # px: keep every image at most this on each side (§1.5)
MIN_CELL = 64                       # px: a card cell narrower than this is unreadable on the table
THUMB_SIDE, THUMB_HEIGHT = 256, 234  # tts-deckconverter's thumbnail: 234 px high on a 256 px square (§1.1)
PLAIN_BACK = (128, 128, 128)        # a deck without backs gets a solid mid-grey back (nothing printed on it)
EMPTY = (255, 255, 255)             # unused slots of a sheet


@dataclass(frozen=True)
class Sheet:
    """One sheet of a deck: its grid and the slots it holds (indices into the deck's distinct slots)."""

    index: int                      # 0-based sheet number within the deck
    cols: int
    rows: int
    first: int                      # index of its first slot among the deck's distinct slots
    count: int                      # slots used on this sheet (≤ cols × rows)

    @property
    def capacity(self) -> int:
        return self.cols * self.rows


def max_grid(cell: tuple[int, int]) -> tuple[int, int]:
    """The most columns and rows a sheet of `cell`-sized slots can have: ≤ 10 × 7 and ≤ 4096 px a side."""
    width, height = cell
    return max(1, min(MAX_COLS, MAX_SIDE // width)), max(1, min(MAX_ROWS, MAX_SIDE // height))


def plan_sheets(count: int, cell: tuple[int, int]) -> list[Sheet]:
    """`count` distinct slots spread over as few sheets as the grid allows. Every sheet of a deck has the same
    columns (fewer when the deck is smaller than one row); a sheet has only the rows it needs."""
    most_cols, most_rows = max_grid(cell)
    cols = max(1, min(most_cols, count))
    per_sheet = cols * most_rows
    sheets, first = [], 0
    while first < count:
        used = min(per_sheet, count - first)
        sheets.append(Sheet(len(sheets), cols, math.ceil(used / cols), first, used))
        first += used
    return sheets


def distinct_slots(keys: Sequence[Hashable]) -> tuple[list[int], list[Hashable]]:
    """Each card's slot index and the distinct keys in order of first use: cards with equal keys (the same
    front, and the same back when backs differ) share one slot."""
    slots: dict[Hashable, int] = {}
    of_card = [slots.setdefault(key, len(slots)) for key in keys]
    return of_card, list(slots)


def compose(images: Sequence[Image.Image | None], sheet: Sheet, cell: tuple[int, int]) -> Image.Image:
    """The sheet's image: images[i] in slot i, row by row from the top left (None: an empty, white slot).
    An image of another size than the cell is fitted to it (a face drawn a pixel off by rounding)."""
    width, height = cell
    canvas = Image.new("RGB", (sheet.cols * width, sheet.rows * height), EMPTY)
    for slot, image in enumerate(images):
        if image is None:
            continue
        if image.size != cell:
            image = image.resize(cell, Image.Resampling.LANCZOS)
        row, col = divmod(slot, sheet.cols)
        canvas.paste(image.convert("RGB"), (col * width, row * height))
    return canvas


def plain(cell: tuple[int, int]) -> Image.Image:
    """The back of a deck that has none: a solid mid-grey card (no text: nothing to translate or misread)."""
    return Image.new("RGB", cell, PLAIN_BACK)


def fit_within(image: Image.Image, most: int) -> Image.Image:
    """`image` shrunk (never grown) so that neither side exceeds `most` px, keeping its proportions."""
    if max(image.size) <= most:
        return image
    ratio = most / max(image.size)
    size = (max(1, round(image.width * ratio)), max(1, round(image.height * ratio)))
    return image.resize(size, Image.Resampling.LANCZOS)


def thumbnail(image: Image.Image | None) -> Image.Image:
    """A 256 × 256 RGBA PNG image: `image` resized to 234 px high (or 234 px wide when it is wider than high),
    centred on a transparent square; a transparent square when there is no image."""
    square = Image.new("RGBA", (THUMB_SIDE, THUMB_SIDE), (0, 0, 0, 0))
    if image is None:
        return square
    ratio = THUMB_HEIGHT / max(image.width, image.height)
    size = (max(1, round(image.width * ratio)), max(1, round(image.height * ratio)))
    small = image.convert("RGBA").resize(size, Image.Resampling.LANCZOS)
    square.paste(small, ((THUMB_SIDE - size[0]) // 2, (THUMB_SIDE - size[1]) // 2))
    return square


def png(image: Image.Image) -> bytes:
    return raster.png_bytes(image)


def hashed_name(stem: str, data: bytes) -> str:
    """`players-faces-1` + the PNG bytes -> `players-faces-1-3f2a9c1e.png` (sha256's first 8 hex digits)."""
    return f"{stem}-{hashlib.sha256(data).hexdigest()[:8]}.png"


def file_safe(text: str, fallback: str = "objet") -> str:
    """A stable file name from a title: accents dropped, words joined by "-" ("NBA Deck-Building" ->
    "NBA-Deck-Building", "Pièces d'Or" -> "Pieces-d-Or")."""
    plain_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    words = re.findall(r"[A-Za-z0-9]+", plain_text)
    return "-".join(words) or fallback
