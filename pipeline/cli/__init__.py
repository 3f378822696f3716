"""The command line, the top floor: the typer app `pnp` and one module per command group, the shared
consoles, problem lists and usage errors, GitHub annotations, and the watch loop. A command parses its
options, calls the rooms below, and prints; what it runs lives in those rooms.

May import: every other room."""
