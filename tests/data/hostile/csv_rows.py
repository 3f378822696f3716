"""CSV rows of the wrong width: an unquoted delimiter inside a text, or missing fields, is a located error
naming the file and row with the fields counted, never a text cut at the comma and shifted into the next
column."""

from __future__ import annotations

from tests.data.hostile import Case
from tests.data.hostile.damage import csv_line

WHERE = r"^error bench/data/cards_100\.csv › cards › row {row}: row {row} has {n} fields, the header 8"

CASES = [
    Case("unquoted-comma-in-text", "benchdeck", csv_line(5, lambda line: line + ", and then more"),
         WHERE.format(row=5, n=9) + r": a text that holds a comma must be in double quotes"),
    Case("two-unquoted-commas", "benchdeck", csv_line(12, lambda line: line.replace("Then", "Then, again, ", 1)
                                                      if "Then" in line else line + ", x, y"),
         WHERE.format(row=12, n=r"1\d")),
    Case("missing-fields", "benchdeck", csv_line(7, lambda line: ",".join(line.split(",")[:5])),
         WHERE.format(row=7, n=5) + r": fields are missing"),
    Case("three-bad-rows-all-told", "benchdeck",
         lambda root: [csv_line(n, lambda line: line + ",extra")(root) for n in (3, 8, 40)],
         WHERE.format(row=40, n=9), count=3),
]
