"""What a `pnp simulate` run produces, above the games: from a game id and the command's options to the
validated records, the seeded run, the readings replayed, and the report files.

The steps (run) and what one `pnp simulate` runs and writes, in order (session), the Markdown report
(report) and the shorter tables a terminal shows (summary), the per-game table and matchup matrix with pandas
(table), the PDF report (pdf) and its ratio pages (ratio_pages), matchups between a game's sides
(matchups), and balance gates in words (gates). Nothing here prints: the CLI shows what it returns.

May import: core, data, render (charts and fonts), play, games and validate."""
