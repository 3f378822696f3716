"""A reportlab canvas set up the project's way: deterministic, free of base-14 fonts, and saying what it is.

Every PDF pnp writes carries Title, Author, Subject and Keywords (print shops' imposition software and a
reader's file properties show them). The title comes from the writer; the rest from the credits of the game
being written (`credits`, set by the build around each component) and from the page size: an A4 or Letter
page is a home-printing sheet, any other size a print service's page.
"""

from __future__ import annotations

import contextlib
import zlib
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Iterator

from reportlab import rl_config
from reportlab.pdfbase.pdfdoc import PDFStream
from reportlab.pdfgen.canvas import Canvas

# Streams are Flate-compressed; ASCII85 on top only makes them 25 % larger and costs a pure-Python pass
# over every byte. PDF readers and print shops take binary streams.
rl_config.useA85 = 0

from pipeline.core.units import MM, PAPERS_MM
from pipeline.render.fonts import FontSet

TOOL = "pnp"
HOME = "impression maison"
SERVICE = "imprimeur, une face par page avec fond perdu"
INK_SAVER = "économie d'encre"
PAPER_NAMES = {"a4": "A4", "letter": "Letter"}


@dataclass(frozen=True)
class Credits:
    """What the files of one game (one component, one ink variant) say about themselves."""

    author: str = TOOL                      # the game's designers as its record credits them
    keywords: tuple[str, ...] = ()          # the game's own, before those of each file
    ink_saver: bool = False                 # the file is the ink-saver variant
    edition: str = ""                       # the pages' edition mark, "Build It · v0.1" ("": no mark)


_CREDITS: ContextVar[Credits | None] = ContextVar("pnp_pdf_credits", default=None)


@contextlib.contextmanager
def credits(author: str, keywords: tuple[str, ...] = (), ink_saver: bool = False, edition: str = ""
            ) -> Iterator[Credits]:
    """Every PDF made inside this block carries these credits (files outside any game say "pnp"), and its
    home-printing pages the `edition` mark (pipeline/render/faces/edition_mark.py)."""
    token = _CREDITS.set(Credits(author.strip() or TOOL, tuple(keywords), ink_saver, edition))
    try:
        yield _CREDITS.get()
    finally:
        _CREDITS.reset(token)


def page_mark() -> str:
    """The edition mark of the pages being written ("" outside a game's credits or in a build without marks)."""
    given = _CREDITS.get()
    return given.edition if given else ""


def paper_of(pagesize: tuple[float, float]) -> str | None:
    """"A4" or "Letter" for a page of that size (either way up), None for any other page."""
    width, height = sorted(side / MM for side in pagesize)
    for paper, (short, long_) in PAPERS_MM.items():
        if abs(width - short) < 0.5 and abs(height - long_) < 0.5:
            return PAPER_NAMES[paper]
    return None


def document_properties(title: str, pagesize: tuple[float, float]) -> dict[str, str]:
    """Title, author, subject and keywords of a PDF: the keyword arguments of reportlab's doc templates
    (`BaseDocTemplate(..., **document_properties(title, pagesize))`) and what `apply_properties` sets.
    Subject: "Build It — Cartes Ville, A4, impression maison"."""
    given = _CREDITS.get() or Credits()
    paper = paper_of(pagesize)
    use = HOME if paper else SERVICE
    parts = [part.strip() for part in title.replace(" · ", " — ").split(" — ") if part.strip()]
    how = [p for p in (paper, use, INK_SAVER if given.ink_saver else None) if p]
    subject = ", ".join([" — ".join(parts), *how]) if parts else ", ".join(how)
    keywords = ", ".join(dict.fromkeys([*parts, *given.keywords, *how, "print and play", TOOL]))
    return {"title": title, "author": given.author, "subject": subject, "keywords": keywords}


def apply_properties(canvas: Canvas, title: str, pagesize: tuple[float, float] | None = None) -> None:
    """Set the document properties on a canvas (e.g. from a doc template's onFirstPage hook)."""
    properties = document_properties(title, pagesize or canvas._pagesize)
    canvas.setTitle(properties["title"])
    canvas.setAuthor(properties["author"])
    canvas.setSubject(properties["subject"])
    canvas.setKeywords(properties["keywords"])


class _AlreadyFlated:
    """The FlateDecode filter of a stream compressed before the document is written."""
    pdfname = "FlateDecode"

    def encode(self, data):
        return data


class StreamingCanvas(Canvas):
    """A canvas that compresses each page's content as soon as the page ends.

    reportlab keeps every page's operators as text until save(); on a 2,000-card deck that text is most of
    the memory the build holds. Compressed at showPage (the same zlib call save() would make, so the bytes
    are identical), a page costs a tenth of it.
    """

    def showPage(self):
        super().showPage()
        page = self._doc.Pages.pages[-1]
        if page.stream and not page.Contents:
            data = page.stream.encode("utf8") if isinstance(page.stream, str) else page.stream
            contents = PDFStream(content=zlib.compress(data), filters=[_AlreadyFlated()])
            contents.__Comment__ = "page stream"
            page.Contents, page.stream = contents, None

    def save(self):
        """A document made inside a game's `credits` that does not say who made it (a platypus doc template
        given no author) is credited here: its title and subject (a rulebook's "Build It", "Règles du jeu")
        make the Subject and Keywords as `document_properties` does for every other file."""
        info = self._doc.info
        if _CREDITS.get() is not None and info.author in ("", "anonymous", None):
            named = " · ".join(str(part) for part in (info.title, info.subject)
                               if part and part not in ("untitled", "unspecified"))
            properties = document_properties(named, self._pagesize)
            self.setAuthor(properties["author"])
            self.setSubject(properties["subject"])
            self.setKeywords(properties["keywords"])
        super().save()


def new_canvas(target, pagesize: tuple[float, float], fonts: FontSet, title: str = "") -> Canvas:
    """`target` is a path or a binary file object. invariant=1 removes timestamps and random ids, so the
    same inputs give byte-identical files; initialFontName keeps reportlab from referencing Helvetica."""
    canvas = StreamingCanvas(target, pagesize=pagesize, invariant=1, pageCompression=1,
                    initialFontName=fonts.name("body"), initialFontSize=10)
    apply_properties(canvas, title, pagesize)
    canvas.setCreator("pnp")
    canvas.setProducer("pnp (reportlab)")
    return canvas
