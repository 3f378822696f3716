"""Drawing: templates, text, faces, sheets, rulebooks and charts. Knows nothing of any game's rules.

Its own base, used by its four sub-rooms: fonts and their fallbacks (fonts), glyph coverage and measured
strings (glyphs), canvases, PDF credits and compression (pdf), escaping for markup (markup) and named colours
(colours). Then faces (one face), sheets (faces onto pages), rulebook (books) and charts.

May import: core, and data for the specs a figure draws; render's base imports only core."""
