"""Which font draws which character: a game's own font first, then the fallback chain, glyph by glyph.

The shipped Lato covers Latin only; the chain (fonts/fonts.yaml `fallback:`, Noto Sans first, plus any
family a game names in templates/<game>/fonts.yaml) covers Latin Extended, Greek and Cyrillic, so Polish,
Czech, Turkish, Vietnamese, Greek, Russian or Ukrainian text prints whole. A text all of whose characters
the primary font has (nearly always) costs one set comparison; fallback fonts are parsed only when a
character needs them.

reportlab draws neither bidirectional reordering nor shaping: right-to-left and shaped scripts (Arabic,
Hebrew, the Indic scripts, Thai…) would print wrong even with a font that has their glyphs, so they are
reported (`problems_in`), like characters no font of the chain has.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from reportlab.pdfbase import pdfmetrics

from pipeline.render.fonts import ensure_registered

# characters every font handles the same way or that print nothing: never a reason to switch fonts
NEUTRAL = frozenset(" \t\n\r\u00a0\u00ad\u200b\u200c\u200d\ufeff")
# scripts that need shaping (joined or reordered glyphs) even when written left to right
SHAPED_RANGES = ((0x0900, 0x0DFF, "Indic"), (0x0E00, 0x0EFF, "Thai/Lao"), (0x0F00, 0x0FFF, "Tibetan"),
                 (0x1000, 0x109F, "Myanmar"), (0x1780, 0x17FF, "Khmer"), (0x1800, 0x18AF, "Mongolian"),
                 (0xA980, 0xA9DF, "Javanese"))


@lru_cache(maxsize=None)
def coverage(font: str) -> frozenset[str]:
    """The characters a registered TrueType font has a glyph for."""
    ensure_registered(font)
    face = pdfmetrics.getFont(font).face
    return frozenset(chr(code) for code in face.charToGlyph) | NEUTRAL


def font_for(char: str, chain: tuple[str, ...]) -> str | None:
    for font in chain:
        if char in coverage(font):
            return font
    return None


def segments(text: str, font: str, fallbacks: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """`text` cut into (font, characters) runs: each character in the first font of the chain that has
    it. A character no font has stays with the primary font (validation has reported it)."""
    if not fallbacks or coverage(font).issuperset(text):
        return [(font, text)]
    chain = (font, *fallbacks)
    runs: list[tuple[str, str]] = []
    current, start = font, 0
    for index, char in enumerate(text):
        wanted = current if char in NEUTRAL else (font_for(char, chain) or font)
        if wanted != current:
            if index > start:
                runs.append((current, text[start:index]))
            current, start = wanted, index
    runs.append((current, text[start:]))
    return runs


def string_width(text: str, font: str, size: float, fallbacks: tuple[str, ...] = ()) -> float:
    return sum(pdfmetrics.stringWidth(part, name, size) for name, part in segments(text, font, fallbacks))


def draw_string(canvas, x: float, y: float, text: str, font: str, size: float,
                fallbacks: tuple[str, ...] = (), align: str = "left") -> None:
    """canvas.drawString with the fallback chain; align: left, centre or right of x."""
    parts = segments(text, font, fallbacks)
    if align != "left":
        width = sum(pdfmetrics.stringWidth(part, name, size) for name, part in parts)
        x -= width / 2 if align == "centre" else width
    for name, part in parts:
        canvas.setFont(name, size)
        canvas.drawString(x, y, part)
        x += pdfmetrics.stringWidth(part, name, size)


def char_name(char: str) -> str:
    return unicodedata.name(char, f"U+{ord(char):04X}")


def script_problem(char: str) -> str | None:
    """Why a character would print wrong even with a glyph: right-to-left or a shaped script."""
    if unicodedata.bidirectional(char) in ("R", "AL"):
        return "is in a right-to-left script"
    code = ord(char)
    for low, high, script in SHAPED_RANGES:
        if low <= code <= high:
            return f"is in a script that needs shaping ({script})"
    return None


def problems_in(text: str, chain: tuple[str, ...]) -> list[tuple[str, str]]:
    """(character, what is wrong) for each distinct character of `text` that will not print right."""
    if coverage(chain[0]).issuperset(text):
        return []
    found = []
    for char in dict.fromkeys(text):
        if char in NEUTRAL or unicodedata.category(char) in ("Cc", "Cf"):
            continue
        script = script_problem(char)
        if script:
            found.append((char, f"{script}; pnp draws no bidirectional text nor shaping, so it would print wrong"))
        elif font_for(char, chain) is None:
            found.append((char, f"is in no font of the chain ({', '.join(chain)}): it would not print"))
    return found
