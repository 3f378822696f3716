"""Rulebook Markdown (CommonMark + pipe tables) -> a small tree of blocks the flowable builder draws.

Text is kept as runs of (text, style), never as markup: the builder escapes it for reportlab, and tables
measure it to size their columns. Headings are numbered across the whole book here (chapters 1, 2…;
sections 1.1, 1.2…), so the table of contents and the body agree.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, replace
from typing import Collection
from urllib.parse import unquote

from markdown_it import MarkdownIt
from markdown_it.tree import SyntaxTreeNode

from pipeline.core.errors import Problem, Severity
from pipeline.render.markup import LINE_BREAK, TOGGLE_BOLD, card_text, unshield
from pipeline.render.rulebook.source import ChapterText, RULE

FIGURE_SCHEME = "figure:"
_BLOCK_TYPES = {"heading", "paragraph", "bullet_list", "ordered_list", "table", "blockquote", "hr", "fence",
                "code_block"}
_MARKDOWN = MarkdownIt("commonmark", {"html": False}).enable("table")

# A run: (text, style); style is "" | "b" | "i" | "bi" | "code", or "br" for a hard line break.
Run = tuple[str, str]
Runs = tuple[Run, ...]


@dataclass(frozen=True)
class Heading:
    level: int              # 1 chapter, 2 section, 3 subsection (#### and deeper count as 3)
    runs: Runs
    number: str = ""        # "2" or "2.3"; subsections are not numbered

    @property
    def text(self) -> str:
        """Plain text on one line, ordinary spaces (for the contents, the outline and running headers)."""
        return " ".join(plain(self.runs).split())


@dataclass(frozen=True)
class Paragraph:
    runs: Runs


@dataclass(frozen=True)
class ListBlock:
    ordered: bool
    start: int
    items: tuple[tuple, ...]        # one tuple of blocks per item


@dataclass(frozen=True)
class Table:
    header: tuple[Runs, ...]
    rows: tuple[tuple[Runs, ...], ...]
    aligns: tuple[str, ...]          # "left" | "center" | "right" per column


@dataclass(frozen=True)
class Note:
    blocks: tuple


@dataclass(frozen=True)
class Rule:
    pass


@dataclass(frozen=True)
class Code:
    text: str


@dataclass(frozen=True)
class Figure:
    names: tuple[str, ...]           # one or several faces side by side
    caption: str


Block = Heading | Paragraph | ListBlock | Table | Note | Rule | Code | Figure


def plain(runs: Runs) -> str:
    return "".join("\n" if style == "br" else text for text, style in runs)


def parse_rulebook(chapters: list[ChapterText], figures: Collection[str]) -> tuple[list[Block], list[Problem]]:
    """Every chapter's blocks in order, headings numbered across the book, with the problems found."""
    blocks: list[Block] = []
    problems: list[Problem] = []
    for chapter in chapters:
        parser = _Parser(chapter, figures, problems)
        tokens = _unshielded(_MARKDOWN.parse(chapter.text))
        blocks.extend(parser.blocks(SyntaxTreeNode(tokens).children))
    return _numbered(blocks), problems


def _unshielded(tokens: list) -> list:
    """The characters the data values were typed with, back in the tokens Markdown made of the chapter
    (pipeline/render/markup.py): text, code, and the addresses of links and figures."""
    for token in tokens:
        if token.type == "text" and "](" + FIGURE_SCHEME in token.content:
            token.meta["figure_typo"] = True        # the chapter's own text, not a value's (those are shielded)
        token.content = unshield(token.content)
        for key, value in (token.attrs or {}).items():
            if key in ("href", "src") and "%EF%" in str(value).upper():
                token.attrs[key] = unshield(unquote(str(value)))     # markdown-it percent-encodes them
            elif isinstance(value, str):
                token.attrs[key] = unshield(value)
        if token.children:
            _unshielded(token.children)
    return tokens


def _numbered(blocks: list[Block]) -> list[Block]:
    chapter = section = 0
    out = []
    for block in blocks:
        if isinstance(block, Heading) and block.level == 1:
            chapter, section = chapter + 1, 0
            block = replace(block, number=str(chapter))
        elif isinstance(block, Heading) and block.level == 2:
            section += 1
            block = replace(block, number=f"{chapter}.{section}")
        out.append(block)
    return out


class _Parser:
    """Markdown syntax tree -> blocks, for one chapter file; problems are located in that file."""

    def __init__(self, chapter: ChapterText, figures: Collection[str], problems: list[Problem]):
        self.chapter, self.figures, self.problems = chapter, figures, problems
        self.seen_chapter = False

    def problem(self, line: int, message: str, severity: Severity = Severity.ERROR) -> None:
        self.problems.append(Problem(self.chapter.where(line), message, RULE, severity))

    def blocks(self, nodes) -> tuple:
        out: list[Block] = []
        for node in nodes:
            handler = getattr(self, "_" + node.type) if node.type in _BLOCK_TYPES else self._other
            out.extend(handler(node))
        return tuple(out)

    def _heading(self, node) -> list[Block]:
        level = min(int(node.tag[1:]), 3)
        if level == 1:
            self.seen_chapter = True
        elif level == 2 and not self.seen_chapter:
            self.problem(node.map[0], "a ## section before the file's first # chapter: it is numbered in "
                                      "the previous chapter", Severity.WARNING)
        return [Heading(level, self.runs(node.children[0], node.map[0]))]

    def _paragraph(self, node) -> list[Block]:
        inline = node.children[0]
        if _only_images(inline):
            return self.figures_of(inline, node.map[0])
        return [Paragraph(self.runs(inline, node.map[0]))]

    def _bullet_list(self, node) -> list[Block]:
        return [ListBlock(False, 1, tuple(self.blocks(item.children) for item in node.children))]

    def _ordered_list(self, node) -> list[Block]:
        start = int(node.attrs.get("start", 1))
        return [ListBlock(True, start, tuple(self.blocks(item.children) for item in node.children))]

    def _table(self, node) -> list[Block]:
        sections = {child.type: child for child in node.children}
        head_row = sections["thead"].children[0]
        header = self.cells(head_row)
        aligns = tuple(_alignment(cell.attrs.get("style", "")) for cell in head_row.children)
        body = sections["tbody"].children if "tbody" in sections else []
        return [Table(header, tuple(self.cells(row) for row in body), aligns)]

    def cells(self, row) -> tuple[Runs, ...]:
        return tuple(self.runs(cell.children[0], row.map[0]) if cell.children else () for cell in row.children)

    def _blockquote(self, node) -> list[Block]:
        return [Note(self.blocks(node.children))]

    def _hr(self, node) -> list[Block]:
        return [Rule()]

    def _fence(self, node) -> list[Block]:
        return [Code(card_text(node.content).rstrip("\n"))]

    _code_block = _fence

    def _other(self, node) -> list[Block]:
        """Anything else CommonMark may produce (raw HTML is off, so little): kept as plain text."""
        text = card_text(node.content).strip()
        return [Paragraph(((text, ""),))] if text else []

    # figures ---------------------------------------------------------------------------------------------

    def figures_of(self, inline, first_line: int) -> list[Block]:
        out: list[Block] = []
        line = first_line
        for child in inline.children:
            if child.type in ("softbreak", "hardbreak"):
                line += 1
            elif child.type == "image":
                figure = self.figure(child, line)
                if figure is not None:
                    out.append(figure)
        return out

    def figure(self, image, line: int) -> Figure | None:
        source = unquote(image.attrs.get("src", ""))
        if not source.startswith(FIGURE_SCHEME):
            self.problem(line, f"image {source!r}: only figures are supported here, as ![Caption](figure:name)")
            return None
        names = tuple(name.strip() for name in source[len(FIGURE_SCHEME):].split(","))
        unknown = [name for name in names if name not in self.figures]
        for name in unknown:
            self.problem(line, f"unknown figure {name!r}{_suggestion(name, self.figures)}")
        return None if unknown else Figure(names, image.content)

    # inline text -----------------------------------------------------------------------------------------

    def runs(self, inline, first_line: int) -> Runs:
        out: list[Run] = []
        self._inline(inline.children, "", first_line, out)
        return _merged(out)

    def _inline(self, nodes, style: str, line: int, out: list[Run]) -> int:
        """Appends the runs of `nodes`; returns the line reached (for locating a misplaced image)."""
        for node in nodes:
            kind = node.type
            if kind == "text":
                if node.meta.get("figure_typo"):
                    self.problem(line, "a figure reference was not understood (no spaces inside (figure:a,b))")
                self._text(node.content, style, out)
            elif kind in ("strong", "em"):
                added = "b" if kind == "strong" else "i"
                inner = "".join(sorted(set(style + added))) if style != "code" else style
                line = self._inline(node.children, inner, line, out)
            elif kind == "code_inline":
                out.append((card_text(node.content), "code"))
            elif kind in ("softbreak", "hardbreak"):
                out.append(("\n", "br") if kind == "hardbreak" else (" ", style))
                line += 1
            elif kind == "link":
                line = self._link(node, style, line, out)
            elif kind == "image":
                self.problem(line, "a figure must be alone in its paragraph: ![Caption](figure:name)")
                out.append((node.content, style))
            else:
                out.append((node.content, style))
        return line

    def _text(self, text: str, style: str, out: list[Run]) -> None:
        if TOGGLE_BOLD not in text and LINE_BREAK not in text:
            out.append((text, style))
            return
        bold = False                # a value's card text: `**` toggles bold, as on the card (markup.py)
        for part in _CARD_TOKENS.split(text):
            if part == TOGGLE_BOLD:
                bold = not bold
            elif part == LINE_BREAK:
                out.append(("\n", "br"))
            elif part:
                out.append((part, _with_bold(style) if bold else style))

    def _link(self, node, style: str, line: int, out: list[Run]) -> int:
        """Printed matter: the link text, then its address when that is not already the text."""
        before = len(out)
        line = self._inline(node.children, style, line, out)
        href = node.attrs.get("href", "")
        shown = "".join(text for text, _ in out[before:])
        if href and href not in (shown, "mailto:" + shown):
            out.append((f" ({href})", style))
        return line


_CARD_TOKENS = re.compile(f"({TOGGLE_BOLD}|{LINE_BREAK})")


def _with_bold(style: str) -> str:
    return style if style == "code" else "".join(sorted(set(style + "b")))


def _only_images(inline) -> bool:
    kinds = [child.type for child in inline.children
             if not (child.type == "text" and not child.content.strip())]
    return "image" in kinds and set(kinds) <= {"image", "softbreak", "hardbreak"}


def _alignment(style: str) -> str:
    for align in ("center", "right"):
        if f"text-align:{align}" in style:
            return align
    return "left"


def _merged(runs: list[Run]) -> Runs:
    """Adjacent runs of one style become one (fewer font switches; simpler to measure); French spacing."""
    out: list[Run] = []
    for text, style in runs:
        if not text:
            continue
        if out and out[-1][1] == style and style != "br":
            out[-1] = (out[-1][0] + text, style)
        else:
            out.append((text, style))
    return _french_spacing(out)


_SPACE_BEFORE = re.compile(r" (?=[:;!?»])")
_SPACE_AFTER = re.compile(r"(?<=«) ")


def _french_spacing(runs: list[Run]) -> Runs:
    """A space before : ; ! ? » or after « becomes non-breaking, so no line starts with a colon or a closing
    guillemet (text without such spaces, as in English, is unchanged)."""
    out = []
    for index, (text, style) in enumerate(runs):
        text = _SPACE_AFTER.sub("\xa0", _SPACE_BEFORE.sub("\xa0", text))
        following = runs[index + 1][0] if index + 1 < len(runs) else ""
        if text.endswith(" ") and following[:1] in tuple(":;!?»"):
            text = text[:-1] + "\xa0"
        if text.startswith(" ") and out and out[-1][0].endswith("«"):
            text = "\xa0" + text[1:]
        out.append((text, style))
    return tuple(out)


def _suggestion(name: str, known: Collection[str]) -> str:
    close = difflib.get_close_matches(name, list(known), n=1)
    if close:
        return f" (did you mean {close[0]!r}?)"
    return f" (known: {', '.join(sorted(known))})" if known else " (this rulebook has no figures)"
