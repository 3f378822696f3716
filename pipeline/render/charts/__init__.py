"""Charts and tables drawn on a canvas: bars, lines, heat maps and tables in a box (draw), flowed onto report
pages (pages), and the generic pairing chart of who meets whom (pairing). Generic: no game and no
simulation here.

May import: core and render's base."""
