"""Faces onto home-printing and print-shop pages: the sheet plan of a card grid (plan) and its crop marks
(marks), headers, footers and the calibration bar (decor; along a band the marks cross: bandflow), card sheets and print files (imposition), write-on
pages (pages), board tiles with overlap strips (tiling), token and fold-over sheets (tokens), dice nets and
stickers (dice, dice_plan), the duplex calibration sheet (calibration), reprint sheets (reprint) and face
comparisons for `pnp diff` (facediff).

May import: core, render's base and render.faces."""
