"""Fitted text: word wrap with real font metrics, **bold** runs, explicit line breaks, inline :icon: tokens.

Every width is linear in the font size, so words are measured once at size 1 and the shrink loop only
multiplies; widths are cached per (string, font) across cards, which is what keeps 2,000 cards fast.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, NamedTuple

from reportlab.pdfbase import pdfmetrics

from pipeline.render.glyphs import coverage, segments

SIZE_STEP = 0.25      # pt: the shrink granularity
_EPSILON = 1e-6


class Run(NamedTuple):
    """Characters drawn in one font from (x, y) on the baseline; PDF points, y up."""
    font: str
    size: float
    x: float
    y: float
    text: str


class InlineIcon(NamedTuple):
    name: str
    x: float
    y: float           # the baseline: the icon stands on it
    width: float
    height: float


@dataclass(frozen=True)
class TextStyle:
    regular: str       # registered font names
    bold: str
    size: float        # pt
    min_size: float
    leading: float     # multiple of the size
    align: str         # left | center | right
    valign: str        # top | middle | bottom
    fallbacks: tuple[str, ...] = ()    # fonts tried glyph by glyph for what regular/bold lack (FontSet.behind)


class FittedText(NamedTuple):
    runs: tuple[Run, ...]
    icons: tuple[InlineIcon, ...]
    size: float
    line_step: float                # baseline to baseline, pt
    fits: bool                      # False: still too long at min_size (drawn anyway, overflowing)
    unknown_icons: tuple[str, ...]


# A word is a plain string (regular font, no icon: the fast, common case) or a tuple of pieces;
# a piece is (icon name or text, is_icon, bold).
Piece = tuple[str, bool, bool]
Word = str | tuple[Piece, ...]
_TOKENS = re.compile(r"(\*\*|\\n|\n|[ \t\r\f\v]+|:[A-Za-z][A-Za-z0-9_-]*:)")
_ICON = re.compile(r":[A-Za-z][A-Za-z0-9_-]*:")
_MARKUP = re.compile(r"\*\*|\\n|\n|:[A-Za-z][A-Za-z0-9_-]*:")


@lru_cache(maxsize=256)
def tokenize(source: str) -> tuple[tuple[Word, ...], ...]:
    """-> paragraphs of words. `**` toggles bold (across words); `\\n` (real or typed) starts a paragraph."""
    if not _MARKUP.search(source):
        return (tuple(source.split()),)
    paragraphs, words, pieces, bold = [], [], [], False
    for token in _TOKENS.split(source):
        if not token:
            continue
        if token == "**":
            bold = not bold
        elif token in ("\n", "\\n") or token.isspace():
            if pieces:
                words.append(_word(pieces))
                pieces = []
            if token in ("\n", "\\n"):
                paragraphs.append(tuple(words))
                words = []
        elif _ICON.fullmatch(token):
            pieces.append((token[1:-1], True, bold))
        else:
            pieces.append((token, False, bold))
    if pieces:
        words.append(_word(pieces))
    paragraphs.append(tuple(words))
    return tuple(paragraphs)


def _word(pieces: list[Piece]) -> Word:
    only = pieces[0]
    return only[0] if len(pieces) == 1 and not only[1] and not only[2] else tuple(pieces)


_unit_widths: dict[tuple, dict[str, float]] = {}   # (font, fallbacks) -> text -> width at 1 pt
# (font, fallbacks) -> text -> width at 1 pt of a space after it, only for texts whose last character a
# fallback font draws: a space is drawn in the font of the character before it (glyphs.segments)
_trailing_spaces: dict[tuple, dict[str, float]] = {}


def _width_table(font: str, fallbacks: tuple[str, ...] = ()) -> dict[str, float]:
    table = _unit_widths.get((font, fallbacks))
    if table is None or len(table) > 100_000:  # a bound: a huge deck must not grow this forever
        table = _unit_widths[(font, fallbacks)] = {}
        _trailing_spaces.pop((font, fallbacks), None)
    return table


def unit_width(text: str, font: str, fallbacks: tuple[str, ...] = ()) -> float:
    """Width at 1 pt, each character in the first font of the chain that has it; cached because the
    same words come back on every card."""
    table = _width_table(font, fallbacks)
    width = table.get(text)
    if width is None:
        parts = segments(text, font, fallbacks)
        width = table[text] = sum(pdfmetrics.stringWidth(part, name, 1.0) for name, part in parts)
        if parts[-1][0] != font:
            _trailing_spaces.setdefault((font, fallbacks), {})[text] = pdfmetrics.stringWidth(" ", parts[-1][0], 1.0)
    return width


def space_after(text: str, font: str, fallbacks: tuple[str, ...] = ()) -> float:
    """Width at 1 pt of a space that follows `text` (measured by unit_width first): the font's own space,
    or the fallback font's that draws the last character of `text`."""
    trailing = _trailing_spaces.get((font, fallbacks))
    space = trailing.get(text) if trailing else None
    return unit_width(" ", font) if space is None else space


@lru_cache(maxsize=64)
def font_metrics(font: str) -> tuple[float, float, float]:
    """(ascent, descent, cap height) as fractions of the size."""
    face = pdfmetrics.getFont(font).face
    cap = getattr(face, "capHeight", 0) or face.ascent * 0.7
    return face.ascent / 1000.0, -face.descent / 1000.0, cap / 1000.0


class _Measured(NamedTuple):
    """Per paragraph, widths at 1 pt of each word and of the space after it (in the word's last font)."""
    widths: tuple[list[float], ...]
    spaces: tuple[list[float], ...]
    widest: float


def _measure(paragraphs, style: TextStyle, icon_aspect: Callable[[str], float | None],
             cap: float, unknown: list[str]) -> _Measured:
    table = _width_table(style.regular, style.fallbacks)
    regular_space = unit_width(" ", style.regular)
    all_widths, all_spaces, widest = [], [], 0.0
    for words in paragraphs:
        widths = [table.get(word) if type(word) is str else None for word in words]
        spaces = [regular_space] * len(words)
        for index, word in enumerate(words):
            if widths[index] is None:
                if type(word) is str:
                    widths[index] = unit_width(word, style.regular, style.fallbacks)
                else:
                    widths[index], spaces[index] = _measure_rich(word, style, icon_aspect, cap, unknown)
        trailing = _trailing_spaces.get((style.regular, style.fallbacks))     # empty for Latin-only text
        if trailing:
            for index, word in enumerate(words):
                if type(word) is str and word in trailing:
                    spaces[index] = trailing[word]
        all_widths.append(widths)
        all_spaces.append(spaces)
        widest = max(widest, max(widths, default=0.0))
    return _Measured(tuple(all_widths), tuple(all_spaces), widest)


def _measure_rich(pieces: tuple[Piece, ...], style: TextStyle, icon_aspect: Callable[[str], float | None],
                  cap: float, unknown: list[str]) -> tuple[float, float]:
    total, space = 0.0, unit_width(" ", style.regular)
    for content, is_icon, bold in pieces:
        if is_icon:
            aspect = icon_aspect(content)
            if aspect is None:
                unknown.append(content)
            total += (aspect or 1.0) * cap
            space = unit_width(" ", style.regular)
        else:
            font = style.bold if bold else style.regular
            total += unit_width(content, font, style.fallbacks)
            space = space_after(content, font, style.fallbacks)
    return total, space


def _wrap(measured: _Measured, available: float) -> list[tuple[int, int, int, float]]:
    """Greedy wrap at 1 pt into `available` (box width / size) -> (paragraph, first, end, width) lines."""
    lines = []
    limit = available + _EPSILON
    for index, (widths, spaces) in enumerate(zip(measured.widths, measured.spaces)):
        start, line_width = 0, 0.0
        for position, width in enumerate(widths):
            if position == start:
                line_width = width
                continue
            wider = line_width + spaces[position - 1] + width
            if wider > limit:
                lines.append((index, start, position, line_width))
                start, line_width = position, width
            else:
                line_width = wider
        lines.append((index, start, len(widths), line_width))
    return lines


def _block_height(lines: int, size: float, style: TextStyle, ascent: float, descent: float) -> float:
    return size * (ascent + descent + (lines - 1) * style.leading)


def _lines_if_fitting(measured: _Measured, size: float, width: float, height: float, style: TextStyle,
                      ascent: float, descent: float) -> list | None:
    """The wrapped lines at `size`, or None when a word is too wide or the lines too many."""
    if measured.widest * size > width + _EPSILON:
        return None
    lines = _wrap(measured, width / size)
    fits = _block_height(len(lines), size, style, ascent, descent) <= height + _EPSILON
    return lines if fits else None


def _choose_size(measured: _Measured, width: float, height: float, style: TextStyle,
                 ascent: float, descent: float) -> tuple[float, list | None]:
    """The largest size on the 0.25 pt grid from `size` down to `min_size` that fits (binary search),
    with its lines; (min_size, None) when even that does not fit."""
    def attempt(size: float) -> list | None:
        return _lines_if_fitting(measured, size, width, height, style, ascent, descent)

    lines = attempt(style.size)
    if lines is not None:
        return style.size, lines
    smallest = min(style.min_size, style.size)
    best = attempt(smallest)
    if best is None or smallest == style.size:
        return smallest, best
    best_size = smallest
    low, high = 1, int((style.size - smallest) / SIZE_STEP + _EPSILON)   # candidate: size - k * step
    while low <= high:
        middle = (low + high) // 2
        candidate = style.size - middle * SIZE_STEP
        lines = attempt(candidate) if candidate >= smallest - _EPSILON else None
        if lines is not None:
            best_size, best, high = candidate, lines, middle - 1
        else:
            low = middle + 1
    return best_size, best


@lru_cache(maxsize=512)   # numbers, titles and labels repeat across a deck; long rules texts do not
def fit_text(source: str, box: tuple[float, float, float, float], style: TextStyle,
             icon_aspect: Callable[[str], float | None]) -> FittedText:
    """Lay `source` out in `box` = (left, top, width, height), PDF points with y up (top = the box's top
    edge). Measures only; nothing is drawn. `icon_aspect(name)` is width/height, None if unknown."""
    left, top, width, height = box
    paragraphs = tokenize(source)
    ascent, descent, cap = font_metrics(style.regular)
    unknown: list[str] = []
    measured = _measure(paragraphs, style, icon_aspect, cap, unknown)
    if all(not words for words in paragraphs):
        return FittedText((), (), style.size, style.leading * style.size, True, ())
    size, lines = _choose_size(measured, width, height, style, ascent, descent)
    fits = lines is not None
    if lines is None:   # overflowing: still lay it out at the smallest size, so the proof shows it
        lines = _wrap(measured, width / size)
    block = _block_height(len(lines), size, style, ascent, descent)
    slack = 0.0 if style.valign == "top" else (height - block) / (2.0 if style.valign == "middle" else 1.0)
    baseline = top - slack - ascent * size
    runs: list[Run] = []
    icons: list[InlineIcon] = []
    for paragraph, first, end, line_width in lines:
        free = width - line_width * size
        indent = 0.0 if style.align == "left" else free / 2 if style.align == "center" else free
        _place_line(paragraphs[paragraph][first:end], left + indent, baseline, size, cap, style,
                    icon_aspect, runs, icons)
        baseline -= style.leading * size
    return FittedText(tuple(runs), tuple(icons), size, style.leading * size, fits, tuple(dict.fromkeys(unknown)))


def _place_line(words: tuple[Word, ...], x: float, y: float, size: float, cap: float, style: TextStyle,
                icon_aspect: Callable[[str], float | None], runs: list[Run], icons: list[InlineIcon]) -> None:
    """Merge the line's text into as few runs as possible (one Tj per font change), icons in between."""
    if all(type(word) is str for word in words):
        add_run(runs, style.regular, size, x, y, " ".join(words), style.fallbacks)
        return
    run_font, run_x, run_text, last = None, x, [], ""

    def flush():
        if run_text:
            add_run(runs, run_font, size, run_x, y, "".join(run_text), style.fallbacks)

    for index, word in enumerate(words):
        if index:
            x += (space_after(last, run_font, style.fallbacks) if run_font else unit_width(" ", style.regular)) * size
            if run_font is not None:
                run_text.append(" ")
        for content, is_icon, bold in ((word, False, False),) if type(word) is str else word:
            if is_icon:
                flush()
                run_font, run_text = None, []
                icon_height = cap * size
                icon_width = (icon_aspect(content) or 1.0) * icon_height
                icons.append(InlineIcon(content, x, y, icon_width, icon_height))
                x += icon_width
                continue
            font = style.bold if bold else style.regular
            if font != run_font:
                flush()
                run_font, run_x, run_text = font, x, []
            run_text.append(content)
            last = content
            x += unit_width(content, font, style.fallbacks) * size
    flush()


def add_run(runs: list[Run], font: str, size: float, x: float, y: float, text: str,
            fallbacks: tuple[str, ...]) -> None:
    """One run, or one per font where characters need the fallback chain (each at its own x)."""
    if coverage(font).issuperset(text):         # nearly always: one set comparison, nothing copied
        runs.append(Run(font, size, x, y, text))
        return
    parts = segments(text, font, fallbacks)
    if len(parts) == 1:
        runs.append(Run(parts[0][0], size, x, y, parts[0][1]))
        return
    for name, part in parts:
        runs.append(Run(name, size, x, y, part))
        x += pdfmetrics.stringWidth(part, name, size)


def draw_text(canvas, colour: tuple[float, float, float] | None, runs: tuple[Run, ...], line_step: float,
              set_colour: bool = True) -> bool:
    """All runs of a box in one BT…ET; the caller draws the inline icons afterwards. Returns whether
    anything was drawn.

    Every run is written with textLine (Tj T*): T* moves to the next line by the leading, so a run that
    starts exactly there needs no positioning, and no width is computed (textOut would measure again)."""
    if not runs or colour is None:
        return False
    text_object = canvas.beginText(runs[0].x, runs[0].y)
    if set_colour:
        text_object.setFillColorRGB(*colour)
    current_font, next_x, next_y = None, runs[0].x, runs[0].y
    for font, size, x, y, characters in runs:
        if (font, size) != current_font:
            text_object.setFont(font, size, line_step)
            current_font = (font, size)
        if abs(x - next_x) > 1e-6 or abs(y - next_y) > 1e-6:
            text_object.setTextOrigin(x, y)
        text_object.textLine(characters)
        next_x, next_y = x, y - line_step
    canvas.drawText(text_object)
    return True
