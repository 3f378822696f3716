"""The rulebook's typography: paragraph styles on the project's font roles, and runs -> reportlab markup.

Every style names one of our fonts, and every font a paragraph uses is registered as a family, so <b> and <i>
resolve to our TrueType files: reportlab never falls back to a base-14 font.
"""

from __future__ import annotations

import re
from functools import cached_property
from typing import Callable
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_LEFT, TA_RIGHT
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.fonts import ps2tt, tt2ps
from reportlab.pdfbase.pdfmetrics import registerFontFamily

from pipeline.render.fonts import FontSet, ensure_registered
from pipeline.render.glyphs import segments, string_width

INK = colors.HexColor("#1E1E1C")
ACCENT = colors.HexColor("#1F4E79")
MUTED = colors.HexColor("#6B6B6B")
NOTE_FILL = colors.HexColor("#EAF1F8")
HEAD_FILL = colors.HexColor("#DCE6F0")
ZEBRA = colors.HexColor("#F3F5F8")
RULE_GREY = colors.HexColor("#B8BEC6")
CODE_INK = "#2B4A6F"

BODY_SIZE = 9.5                 # a column of ~50 characters, as published rulebooks set them
BODY_LEADING = 12.6
_ALIGN = {"left": TA_LEFT, "center": TA_CENTER, "right": TA_RIGHT}


def register_families(fonts: FontSet) -> None:
    """<b>/<i> inside a paragraph of any of our fonts map to our fonts (Lato has no bold italic: bold)."""
    body, bold, italic, title = (fonts.name(role) for role in ("body", "bold", "italic", "title"))
    registerFontFamily(title, normal=title, bold=title, italic=title, boldItalic=title)
    registerFontFamily(bold, normal=bold, bold=bold, italic=bold, boldItalic=bold)
    registerFontFamily(italic, normal=italic, bold=bold, italic=italic, boldItalic=bold)
    registerFontFamily(body, normal=body, bold=bold, italic=italic, boldItalic=bold)


def _fallback_family(font: str) -> str:
    """A fallback font as a family of itself, on first use (Noto Sans ships one weight here)."""
    ensure_registered(font)
    registerFontFamily(font, normal=font, bold=font, italic=font, boldItalic=font)
    return font


COVER_STYLES = ("title", "subtitle", "tagline", "credits")


class Styles:
    """Paragraph styles of one rulebook, built on demand from its fonts. `density` scales the leading and the
    space around every text block of the book's body (not the cover): the rulebook engine sets it a few
    per cent either way so that the last sheet is not wasted (book.py)."""

    def __init__(self, fonts: FontSet, density: float = 1.0):
        self.fonts, self.density = fonts, density

    def font(self, role: str) -> str:
        return self.fonts.name(role)

    def _style(self, name: str, role: str = "body", **values) -> ParagraphStyle:
        base = dict(fontName=self.font(role), bulletFontName=self.font("body"), fontSize=BODY_SIZE,
                    leading=BODY_LEADING, textColor=INK, bulletColor=INK, allowWidows=0, allowOrphans=0)
        base.update(values)
        if self.density != 1.0 and name not in COVER_STYLES:
            for key in ("leading", "spaceBefore", "spaceAfter"):
                if key in base:
                    base[key] = round(base[key] * self.density, 3)
        return ParagraphStyle(name, **base)

    @cached_property
    def body(self) -> ParagraphStyle:
        return self._style("body", spaceAfter=5)

    @cached_property
    def item(self) -> ParagraphStyle:
        return self._style("item", leftIndent=13, bulletIndent=2, spaceAfter=2)

    @cached_property
    def headings(self) -> dict[int, ParagraphStyle]:
        return {
            1: self._style("h1", "title", fontSize=19, leading=23, textColor=ACCENT, spaceBefore=16,
                           spaceAfter=3, keepWithNext=1),
            2: self._style("h2", "title", fontSize=13, leading=16, textColor=ACCENT, spaceBefore=10,
                           spaceAfter=4, keepWithNext=1),
            3: self._style("h3", "title", fontSize=10.5, leading=13, spaceBefore=7, spaceAfter=2,
                           keepWithNext=1),
        }

    @cached_property
    def caption(self) -> ParagraphStyle:
        return self._style("caption", "italic", fontSize=8.5, leading=11, textColor=MUTED, alignment=TA_CENTER)

    @cached_property
    def code(self) -> ParagraphStyle:
        return self._style("code", fontSize=9, leading=12.5, backColor=NOTE_FILL, borderPadding=5,
                           spaceBefore=5, spaceAfter=11, leftIndent=5, rightIndent=5)

    def cell(self, align: str, header: bool) -> ParagraphStyle:
        return self._cells[(align, header)]

    @cached_property
    def _cells(self) -> dict:
        return {(align, header): self._style(f"cell-{align}-{header}", "bold" if header else "body",
                                             fontSize=9, leading=12, alignment=_ALIGN[align])
                for align in _ALIGN for header in (False, True)}

    @cached_property
    def toc(self) -> list[ParagraphStyle]:
        return [self._style("toc1", "bold", fontSize=9.5, leading=12.5, spaceBefore=4, leftIndent=0),
                self._style("toc2", fontSize=9, leading=11.5, leftIndent=14)]

    @cached_property
    def tagline(self) -> ParagraphStyle:
        return self._style("tagline", "body", fontSize=12, leading=16, textColor=INK, alignment=TA_CENTER,
                           spaceAfter=14)

    @cached_property
    def credits(self) -> ParagraphStyle:
        return self._style("credits", "italic", fontSize=9.5, leading=12, textColor=MUTED, alignment=TA_CENTER)

    @cached_property
    def title(self) -> ParagraphStyle:
        return self._style("title", "title", fontSize=48, leading=56, textColor=ACCENT, alignment=TA_CENTER,
                           spaceAfter=10)

    @cached_property
    def subtitle(self) -> ParagraphStyle:
        return self._style("subtitle", "italic", fontSize=16, leading=20, textColor=MUTED,
                           alignment=TA_CENTER, spaceAfter=28)


def markup(runs, styles: Styles, font: str | None = None) -> str:
    """Runs of plain text -> reportlab paragraph markup; text is escaped, so `&` and `<` print as they are.
    `font` is the paragraph style's font (default: the body's): it decides which font a run is set in,
    hence which of its characters go to the fallback chain."""
    base = font or styles.font("body")
    parts = []
    for text, style in runs:
        if style == "br":
            parts.append("<br/>")
            continue
        piece = chained(text, run_font(style, styles, base=base), styles)
        if style == "code":
            piece = f'<font name="{styles.font("bold")}" color="{CODE_INK}">{piece}</font>'
        if "b" in style and style != "code":
            piece = f"<b>{piece}</b>"
        if "i" in style:
            piece = f"<i>{piece}</i>"
        parts.append(piece)
    return "".join(parts)


def chained(text: str, font: str, styles: Styles, escaped: Callable[[str], str] = escape) -> str:
    """Escaped text for a paragraph set in `font`; the characters it lacks go in <font> runs of the
    fallback chain (soft hyphens stay: platypus breaks words at them)."""
    parts = segments(text, font, styles.fonts.behind(font), keep_invisible=True)
    if len(parts) == 1 and parts[0][0] == font:
        return escaped(parts[0][1])
    return "".join(escaped(part) if name == font else f'<font name="{_fallback_family(name)}">{escaped(part)}</font>'
                   for name, part in parts)


def run_font(style: str, styles: Styles, header: bool = False, base: str | None = None) -> str:
    """The font a run of `style` is set in inside a paragraph of `base` (default: the body, or the bold
    for a table's header row), as platypus resolves <b> and <i> through the registered families."""
    if style == "code":
        return styles.font("bold")
    base = base or styles.font("bold" if header else "body")
    try:
        family, bold, italic = ps2tt(base)
        return tt2ps(family, bold | ("b" in style), italic | ("i" in style))
    except ValueError:          # a font registered as no family: platypus sets it as it is
        return base


def measure(runs, styles: Styles, size: float, header: bool = False) -> tuple[float, float]:
    """(natural width on one line, widest word) of runs set at `size`: what a table column needs."""
    natural = widest = 0.0
    for line in _lines(runs):
        width = sum(_width(text, run_font(style, styles, header), size, styles) for text, style in line)
        natural = max(natural, width)
    for text, style in runs:
        for word in re.split(r"[ \t\n]+", text):     # a no-break space joins words
            widest = max(widest, _width(word, run_font(style, styles, header), size, styles))
    return natural, widest


def _width(text: str, font: str, size: float, styles: Styles) -> float:
    return string_width(text, font, size, styles.fonts.behind(font))


def _lines(runs) -> list[list]:
    lines: list[list] = [[]]
    for text, style in runs:
        if style == "br":
            lines.append([])
        else:
            lines[-1].append((text, style))
    return lines
