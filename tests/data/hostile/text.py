"""Text that cannot print as typed: a character no font of the chain has, or a script pnp does not lay out,
is a warning on its cell (NFC first: a decomposed accent is one letter again, and prints)."""

from __future__ import annotations

from tests.data.hostile import Case
from tests.data.hostile.damage import csv_line


def _title(text: str):
    return csv_line(2, lambda line: line.replace("Wild Falcon", text, 1))


WHERE = r"^warning bench/data/cards_100\.csv › cards › B2 \(title\): character "

CASES = [
    Case("emoji", "benchdeck", _title("Faucon 🦅"), WHERE + r"'🦅'", severity="warning"),
    Case("right-to-left", "benchdeck", _title("صقر"), WHERE + r"'ص'.*right-to-left", severity="warning"),
    Case("decomposed-accent-then-an-emoji", "benchdeck", _title("Fe\u0301roce 🐉"), WHERE + r"'🐉'",
         severity="warning"),
]
