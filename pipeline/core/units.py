"""Lengths in real units, parsed once: "63mm", "2.5in", "8pt", "1cm" -> PDF points."""

from __future__ import annotations

import re

MM = 72.0 / 25.4
UNITS = {"mm": MM, "cm": 10 * MM, "in": 72.0, "pt": 1.0}
_LENGTH = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*(mm|cm|in|pt)?\s*$")

PAPERS_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
PRINT_BLEED_MM = 3.0     # what print services ask beyond the trim of every card, token and board face


def to_points(value: float | int | str, default_unit: str = "mm") -> float:
    """Convert a length to points; bare numbers use `default_unit`. Raises ValueError on bad input."""
    if isinstance(value, bool):
        raise ValueError(f"{value!r} is not a length")
    if isinstance(value, (int, float)):
        return float(value) * UNITS[default_unit]
    match = _LENGTH.match(str(value))
    if not match:
        raise ValueError(f"{value!r} is not a length (use e.g. 63mm, 2.5in, 8pt)")
    number, unit = match.groups()
    return float(number) * UNITS[unit or default_unit]


def to_mm(value: float | int | str, default_unit: str = "mm") -> float:
    return to_points(value, default_unit) / MM


def mm(value: float) -> float:
    """Millimetres to points."""
    return value * MM
