"""A reportlab canvas set up the project's way: deterministic and free of base-14 fonts."""

from __future__ import annotations

from reportlab import rl_config
from reportlab.pdfgen.canvas import Canvas

# Streams are Flate-compressed; ASCII85 on top only makes them 25 % larger and costs a pure-Python pass
# over every byte. PDF readers and print shops take binary streams.
rl_config.useA85 = 0

from pipeline.render.fonts import FontSet


def new_canvas(target, pagesize: tuple[float, float], fonts: FontSet, title: str = "") -> Canvas:
    """`target` is a path or a binary file object. invariant=1 removes timestamps and random ids, so the
    same inputs give byte-identical files; initialFontName keeps reportlab from referencing Helvetica."""
    canvas = Canvas(target, pagesize=pagesize, invariant=1, pageCompression=1,
                    initialFontName=fonts.name("body"), initialFontSize=10)
    canvas.setTitle(title)
    canvas.setCreator("pnp")
    canvas.setProducer("pnp (reportlab)")
    return canvas
