"""Which font draws which character: a game's own font first, then the fallback chain, glyph by glyph.

The shipped Lato covers Latin only; the chain (fonts/fonts.yaml `fallback:`, Noto Sans first, plus any
family a game names in templates/<game>/fonts.yaml) covers Latin Extended, Greek and Cyrillic, so Polish,
Czech, Turkish, Vietnamese, Greek, Russian or Ukrainian text prints whole. A text all of whose characters
the primary font has (nearly always) costs one set comparison and returns without copying; fallback fonts
are parsed only when a character needs them.

Spaces (and the no-break space, which reportlab draws as a space) never switch fonts: a space is drawn in
the font of the character before it, so a line of Cyrillic is one run, not one per word (faces/text.py measures
the space after a word in that same font). Punctuation, digits and signs that every font of the chain has
join the letters of their word: "булок, да" is one run of Noto Sans, "(Петар)" too, while "3" alone keeps
the primary font. Decisions never look past a word, so a word measured alone is cut as on its line. Invisible format characters (soft hyphen, zero-width space and
joiners, word joiner, BOM) are dropped from what a canvas draws: fonts either lack them (reportlab would
draw the .notdef box) or draw a soft hyphen as a visible hyphen in the middle of a word. Paragraphs keep
them (`keep_invisible`): platypus breaks words at soft hyphens.

reportlab draws neither bidirectional reordering nor shaping: right-to-left and shaped scripts (Arabic,
Hebrew, the Indic scripts, Thai…) would print wrong even with a font that has their glyphs, so they are
reported (`problems_in`), like characters no font of the chain has (`missing`).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import NamedTuple

from reportlab.pdfbase import pdfmetrics

from pipeline.render.fonts import ensure_registered

# never a reason to switch fonts: they stay in the run they are in
SPACES = frozenset(" \t\n\r\u00a0")
# print nothing: dropped from canvas text, kept in the run they are in for a paragraph
INVISIBLE = frozenset("\u00ad\u200b\u200c\u200d\u2060\ufeff")
# scripts that need shaping (joined or reordered glyphs) even when written left to right
SHAPED_RANGES = ((0x0900, 0x0DFF, "Indic"), (0x0E00, 0x0EFF, "Thai/Lao"), (0x0F00, 0x0FFF, "Tibetan"),
                 (0x1000, 0x109F, "Myanmar"), (0x1780, 0x17FF, "Khmer"), (0x1800, 0x18AF, "Mongolian"),
                 (0x1A20, 0x1AAF, "Tai Tham"), (0x1B00, 0x1B7F, "Balinese"), (0xA980, 0xA9DF, "Javanese"))

# segments() marks each character: the index of its font in the chain, " " (stays in its run) or a sign
_FIRST_MARK = 0xE000                                # private use: chain index i is chr(0xE000 + i)
_MARK = chr(_FIRST_MARK)
_SIGN = "n"                                         # a sign every font of the chain has
_SIGNS = re.compile(_SIGN + "+")
_RUN = re.compile(r"(.)(?:\1| )*", re.S)            # one font's characters and the spaces after them
_DROP = dict.fromkeys(map(ord, INVISIBLE))


@lru_cache(maxsize=None)
def coverage(font: str) -> frozenset[str]:
    """The characters a registered TrueType font prints: those it has a glyph for, and the spaces."""
    ensure_registered(font)
    face = pdfmetrics.getFont(font).face
    return (frozenset(chr(code) for code in face.charToGlyph) - INVISIBLE) | SPACES


def font_for(char: str, chain: tuple[str, ...]) -> str | None:
    for font in chain:
        if char in coverage(font):
            return font
    return None


def segments(text: str, font: str, fallbacks: tuple[str, ...] = (),
             keep_invisible: bool = False) -> list[tuple[str, str]]:
    """`text` cut into (font, characters) runs: each character in the first font of (font, *fallbacks)
    that has it; a space in the run it is in, a sign every font has with the letters of its word. A
    character no font has stays with the primary font (validation has reported it)."""
    if coverage(font).issuperset(text):
        return [(font, text)]
    if not keep_invisible and not INVISIBLE.isdisjoint(text):
        text = text.translate(_DROP)
        if coverage(font).issuperset(text):
            return [(font, text)]
    chain = (font, *fallbacks)
    # one mark per character, at C speed: the index of its font in the chain, or " " (stays in its run)
    marks = text.translate(_marker(chain))
    if _SIGN in marks:
        marks = _SIGNS.sub(lambda signs: _join_word(marks, signs), marks)
    leading = len(marks) - len(marks.lstrip(" "))
    if leading:                                     # spaces before any letter are the primary font's
        marks = _MARK * leading + marks[leading:]
    return [(chain[ord(run.group(1)) - _FIRST_MARK], text[run.start():run.end()]) for run in _RUN.finditer(marks)]




def _join_word(marks: str, signs: re.Match) -> str:
    """Signs take the font of the letters next to them in their word: before them (unless the letters
    after them are in another font), else after them; between two fonts or alone, the primary font."""
    start, end = signs.span()
    before = marks[start - 1] if start else " "
    after = marks[end] if end < len(marks) else " "
    if before != " " and after in (" ", before):
        mark = before
    elif before == " " and after != " ":
        mark = after
    else:
        mark = _MARK
    return mark * (end - start)


class _Marker(dict):
    """str.translate table of a chain: code point -> its mark, computed on first sight."""

    def __init__(self, chain: tuple[str, ...]):
        super().__init__()
        self.chain = chain

    def __missing__(self, code: int) -> str:
        char = chr(code)
        if char in SPACES or char in INVISIBLE:
            mark = " "
        elif self._shared(char):
            mark = _SIGN
        else:
            found = font_for(char, self.chain)
            mark = chr(_FIRST_MARK + (self.chain.index(found) if found else 0))
        self[code] = mark
        return mark

    def _shared(self, char: str) -> bool:
        """Not a letter, and in every font of the chain: it may join the letters of its word."""
        return unicodedata.category(char)[0] in "PNSZ" and all(char in coverage(font) for font in self.chain)


@lru_cache(maxsize=None)
def _marker(chain: tuple[str, ...]) -> _Marker:
    return _Marker(chain)


def string_width(text: str, font: str, size: float, fallbacks: tuple[str, ...] = ()) -> float:
    if coverage(font).issuperset(text):
        return pdfmetrics.stringWidth(text, font, size)
    return sum(pdfmetrics.stringWidth(part, name, size) for name, part in segments(text, font, fallbacks))


def draw_string(canvas, x: float, y: float, text: str, font: str, size: float,
                fallbacks: tuple[str, ...] = (), align: str = "left") -> None:
    """canvas.drawString with the fallback chain; align: left, centre or right of x."""
    parts = ((font, text),) if coverage(font).issuperset(text) else segments(text, font, fallbacks)
    if align != "left":
        width = sum(pdfmetrics.stringWidth(part, name, size) for name, part in parts)
        x -= width / 2 if align == "centre" else width
    for name, part in parts:
        canvas.setFont(name, size)
        canvas.drawString(x, y, part)
        x += pdfmetrics.stringWidth(part, name, size)


def fitted(text: str, font: str, size: float, room: float, min_size: float,
           fallbacks: tuple[str, ...] = ()) -> tuple[str, float]:
    """Shrink to `min_size`, then cut with an ellipsis: a single-line label never leaves its `room` (pt)."""
    while string_width(text, font, size, fallbacks) > room and size > min_size:
        size = max(min_size, size - 0.25)
    while string_width(text, font, size, fallbacks) > room and len(text) > 1:
        text = text[:-2] + "…"
    return text, size


def missing(text: str, font: str, fallbacks: tuple[str, ...] = ()) -> list[str]:
    """The distinct characters of `text` that no font of (font, *fallbacks) has (spaces, invisible and
    control characters aside: they print nothing anyway)."""
    if coverage(font).issuperset(text):
        return []
    chain = (font, *fallbacks)
    return [char for char in dict.fromkeys(text)
            if char not in SPACES and not _prints_nothing(char) and font_for(char, chain) is None]


def _prints_nothing(char: str) -> bool:
    return char in INVISIBLE or unicodedata.category(char) in ("Cc", "Cf")


def char_name(char: str) -> str:
    return unicodedata.name(char, f"U+{ord(char):04X}")


def script_of(char: str, default: str) -> str:
    """The script as Unicode names it ("ARABIC LETTER MEEM" -> Arabic), else `default`."""
    name = unicodedata.name(char, "")
    return name.split(" ", 1)[0].capitalize() if name else default


def script_problem(char: str) -> str | None:
    """Why a character would print wrong even with a glyph: right-to-left or a shaped script."""
    if unicodedata.bidirectional(char) in ("R", "AL"):
        return f"is right-to-left script ({script_of(char, 'right-to-left')})"
    code = ord(char)
    for low, high, script in SHAPED_RANGES:
        if low <= code <= high:
            return f"is in a script that needs shaping ({script_of(char, script)})"
    return None


NO_LAYOUT = "pnp draws no bidirectional text nor shaping, so it would print wrong"


@lru_cache(maxsize=None)
def _laid_out(chain: tuple[str, ...]) -> frozenset[str]:
    """The characters that print right with a chain: those of its fonts, less right-to-left and shaped
    scripts, plus the invisible ones (they print nothing)."""
    covered = frozenset().union(*(coverage(font) for font in chain))
    return frozenset(char for char in covered if script_problem(char) is None) | INVISIBLE


class GlyphProblem(NamedTuple):
    char: str
    why: str            # "is in no font of the chain (…): it would not print", "is right-to-left script (…); …"
    layout: bool        # True: a font has it, but reportlab cannot lay its script out


def problems_in(text: str, chain: tuple[str, ...], families: tuple[str, ...] | None = None) -> list[GlyphProblem]:
    """What will not print right, for each distinct character of `text`: in no font of `chain`, or of a
    right-to-left or shaped script. `families` names the chain's fonts in the message (default: their names)."""
    chain = tuple(chain)
    if _laid_out(chain[:1]).issuperset(text) or _laid_out(chain).issuperset(text):   # the fallback fonts
        return []                                                                   # are read only if needed
    absent = set(missing(text, chain[0], chain[1:]))
    found = []
    for char in dict.fromkeys(text):
        if char in SPACES or _prints_nothing(char):
            continue
        script = script_problem(char)
        if script:
            found.append(GlyphProblem(char, f"{script}; {NO_LAYOUT}", True))
        elif char in absent:
            found.append(GlyphProblem(char, f"is in no font of the chain ({', '.join(families or chain)}): "
                                            "it would not print", False))
    return found
