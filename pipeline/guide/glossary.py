"""A game's glossary: one French word for each thing it prints, declared once in its guide data
(templates/<game>/guide/guide.yaml), and the check of every printed text against it.

    glossary:
      - term: action                       # the word cards, aids, boards and rulebook use for the thing
        means: "une pile posée sur une case, de l'attaquant à sa carte Tir"
        avoid: ["tir réussi", "SHOT"]      # other words for the same thing: none may be printed

Each `avoid` phrase is matched as whole words, whatever the case and the line breaks between its words (a PDF's
text comes line by line). The build reads the text of every
home-print file it wrote (report.py, once per file content) and lists what it finds in report.md's developer part;
the tests hold every game to none.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

_SPACES = re.compile(r"\s+")
CONTEXT = 30                    # characters kept each side of a misuse, to find it on the page


@dataclass(frozen=True)
class Term:
    word: str
    means: str
    avoid: tuple[str, ...]

    def pattern(self) -> re.Pattern | None:
        if not self.avoid:
            return None
        words = (r"\s+".join(map(re.escape, phrase.split())) for phrase in sorted(self.avoid, key=len, reverse=True))
        return re.compile(r"(?<!\w)(?:" + "|".join(words) + r")(?!\w)", re.IGNORECASE)


def read_terms(data, problems: list[str]) -> tuple[Term, ...]:
    """guide.yaml's `glossary` list; an item that does not read is a problem (the guide data's warning)."""
    value = data.get("glossary", []) if isinstance(data, dict) else []
    if not isinstance(value, list):
        problems.append("'glossary' must be a list")
        return ()
    terms = []
    for index, item in enumerate(value, 1):
        avoid = item.get("avoid", []) if isinstance(item, dict) else None
        if not (isinstance(item, dict) and isinstance(item.get("term"), str) and isinstance(avoid, list)
                and all(isinstance(a, str) and a.strip() for a in avoid)):
            problems.append(f"'glossary' item {index} needs a term (a text) and avoid (the other words for it)")
            continue
        terms.append(Term(item["term"].strip(), str(item.get("means") or "").strip(), tuple(a.strip() for a in avoid)))
    return tuple(terms)


def plain(text: str) -> str:
    """Text as read from a page, in one line: runs of white space (line ends too) made one space."""
    return _SPACES.sub(" ", text).strip()


def misuses(text: str, terms: tuple[Term, ...]) -> list[dict]:
    """Every avoided word found in `text`: {term, found, context}, in reading order."""
    text, found = plain(text), []
    for term in terms:
        pattern = term.pattern()
        for match in pattern.finditer(text) if pattern else ():
            start, end = max(0, match.start() - CONTEXT), match.end() + CONTEXT
            found.append({"term": term.word, "found": match.group(0), "context": text[start:end]})
    return found


def pdf_text(path: Path) -> str:
    """Every page's text of a PDF, page after page."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(path))
    try:
        return "\n".join(page.get_textpage().get_text_range() for page in document)
    finally:
        document.close()


def file_misuses(path: Path, terms: tuple[Term, ...]) -> list[dict]:
    return misuses(pdf_text(path), terms) if terms else []
