"""Values from data entering markup: a cell prints the same characters on a card, in a table and in a sentence.

A rulebook chapter is Markdown written by a designer, with `{{ … }}` values from the workbook in it. Those
values are text, not Markdown: a `|` in a card name must not split a table row, `&amp;` must not become `&`,
`# 3` must not become a heading. So every `{{ … }}` output is *shielded* before Markdown sees it (the
rulebook's jinja finalize): each character Markdown would read as syntax is swapped for a private-use
code point that means nothing to Markdown, and the parser swaps them back in the text it produced
(`unshield`). Shielding twice changes nothing (a macro's output shown by `{{ macro() }}` is fine).

The card text dialect is the one exception, so that a cell reads the same everywhere: `**` toggles bold, a
line break (typed as `\\n` or real) breaks the line (TOGGLE_BOLD and LINE_BREAK after unshielding). `:icon:`
tokens print as typed in a rulebook (icons are drawn on faces only).

A template that means to output Markdown from a value writes `{{ value|markdown }}`.
"""

from __future__ import annotations

import re
from typing import Any

_BASE = 0xF700                                          # private use area: no font draws, no parser reads it
SYNTAX = "\\`*_[]()<>&|#+-.=~!"                         # what CommonMark + pipe tables read as markup
_SHIELD = {ord(char): chr(_BASE + ord(char)) for char in SYNTAX}
_SHIELD.update({ord("\n"): chr(_BASE + 0x0A), ord("\r"): None})
_UNSHIELD = {ord(v): k for k, v in ((chr(k), v) for k, v in _SHIELD.items() if v is not None)}
TOGGLE_BOLD = chr(_BASE + 0x100)                        # `**` of a card text
LINE_BREAK = chr(_BASE + 0x101)                         # a line break of a card text
_SHIELDED_BREAK = chr(_BASE + 0x0A)


class Markdown(str):
    """Text a template means as Markdown (`|markdown`): not shielded."""


def shield(value: Any) -> str:
    """The rulebook's jinja finalize: None prints as nothing; any other value prints as text."""
    if value is None:
        return ""
    if isinstance(value, Markdown):
        return value
    text = str(value)
    shielded = text.translate(_SHIELD)
    stars = chr(_BASE + ord("*")) * 2
    backslash_n = chr(_BASE + ord("\\")) + "n"
    return shielded.replace(stars, TOGGLE_BOLD).replace(backslash_n, LINE_BREAK).replace(_SHIELDED_BREAK,
                                                                                         LINE_BREAK)


def unshield(text: str) -> str:
    """The characters a value was typed with (TOGGLE_BOLD and LINE_BREAK stay: the parser reads them)."""
    return text.translate(_UNSHIELD)


def card_text(text: str) -> str:
    """A value's characters as the card dialect writes them (`**`, `\\n`): for places that print plain text."""
    return unshield(text).replace(TOGGLE_BOLD, "**").replace(LINE_BREAK, "\n")


_PLAIN_SYNTAX = re.compile(r"[\\`*\[\]<>&|]|_+")             # a run of `_` is kept inside a word


def md_escape(value: Any) -> str:
    """A value as literal text in a Markdown file a person reads (the build report): the
    characters that would start inline markup or split a table row are backslash-escaped; one line."""
    return _PLAIN_SYNTAX.sub(_escaped, " ".join(str(value).splitlines()))


def _escaped(match: re.Match) -> str:
    text = match.group(0)
    if text.startswith("_") and match.start() > 0 and _between_letters(match):
        return text                                     # snake_case inside a word is no emphasis
    return "".join("\\" + char for char in text)


def _between_letters(match: re.Match) -> bool:
    source, start, end = match.string, match.start(), match.end()
    return end < len(source) and source[start - 1].isalnum() and source[end].isalnum()
