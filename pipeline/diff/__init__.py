"""What changed between two versions of a game's data, and reprinting only that (`pnp diff`).

Loading a version from a file or a git revision (versions), the cards and rules changed (changes), the
rulebook pages that changed (rulebook), the written files: changes.pdf and reprint sheets (output), the
Markdown summary for a pull request (summary), and a workbook as stable text for `git diff` (textconv).

May import: core, data, render, kinds, games and validate."""
