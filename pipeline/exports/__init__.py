"""Exports beyond paper: virtual tables (Tabletop Simulator, playingcards.io) and print-shop presets (The Game
Crafter, MakePlayingCards, DriveThruCards), all from the faces a build lays out, with their edition marks.

- pieces: a game's components as every export sees them (decks, tokens, boards, pages, dice), with each
  card's name, edition id and workbook cell;
- raster: faces drawn to images at a given resolution, trimmed or with a print shop's own bleed;
- tts, pcio, shops, dtc: one module (or subpackage) per target.

The facts behind each target, their sources and what is uncertain: ../shared/EXPORTS.md, restated in each
module's docstring. Knows nothing of any game's rules.

May import: core, data, render.
"""
