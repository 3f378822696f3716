"""`pnp release`: strict validation, balance gates, every game built in a scratch copy, then the
reproducible bundles (bundle), CHANGES.md and reprint sheets against the previous tag (changes), and the
run that renames them into dist/ only when every game is complete (run).

May import: every room below the command line: core, data, render, play, games, build, diff and
simulation."""
