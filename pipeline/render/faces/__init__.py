"""One face, from a template and one card's values to a FaceLayout (a flat list of primitives) and onto a
canvas: the compiled template and its anchors (layout), expressions in cells and templates (expressions),
values and units (values), text fitting and wrapping (text), art lookup (art), the primitives and their
drawing (primitives), the edition mark stamped clear of a face's text (edition_mark), and the renderer
tying them together (renderer).

May import: core and render's own base (fonts, glyphs, pdf, markup, colours); knows nothing of any game."""
