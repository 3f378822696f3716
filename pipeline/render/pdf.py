"""A reportlab canvas set up the project's way: deterministic and free of base-14 fonts."""

from __future__ import annotations

import zlib

from reportlab import rl_config
from reportlab.pdfbase.pdfdoc import PDFStream
from reportlab.pdfgen.canvas import Canvas

# Streams are Flate-compressed; ASCII85 on top only makes them 25 % larger and costs a pure-Python pass
# over every byte. PDF readers and print shops take binary streams.
rl_config.useA85 = 0

from pipeline.render.fonts import FontSet


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


def new_canvas(target, pagesize: tuple[float, float], fonts: FontSet, title: str = "") -> Canvas:
    """`target` is a path or a binary file object. invariant=1 removes timestamps and random ids, so the
    same inputs give byte-identical files; initialFontName keeps reportlab from referencing Helvetica."""
    canvas = StreamingCanvas(target, pagesize=pagesize, invariant=1, pageCompression=1,
                    initialFontName=fonts.name("body"), initialFontSize=10)
    canvas.setTitle(title)
    canvas.setCreator("pnp")
    canvas.setProducer("pnp (reportlab)")
    return canvas
