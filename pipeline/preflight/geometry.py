"""The preflight's geometry, in PDF points (1/72 in) with y growing upwards: rectangles as (x0, y0, x1, y1)
tuples, PDF matrices as (a, b, c, d, e, f) tuples, and the millimetres every message speaks in."""

from __future__ import annotations

import math
import re

from pipeline.core.units import MM as PT_PER_MM, PAPERS_MM as PNP_PAPERS_MM

Rect = tuple[float, float, float, float]
Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)

PAPERS_MM = {**PNP_PAPERS_MM, "a3": (297.0, 420.0)}     # pnp's papers, and A3 that print shops use


def mm(points: float) -> float:
    return points / PT_PER_MM


def pt(millimetres: float) -> float:
    return millimetres * PT_PER_MM


def then(first: Matrix, second: Matrix) -> Matrix:
    """`first`, then `second` (PDF's row-vector order: a point goes through first, then second)."""
    a, b, c, d, e, f = first
    A, B, C, D, E, F = second
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


def apply(m: Matrix, x: float, y: float) -> tuple[float, float]:
    return (x * m[0] + y * m[2] + m[4], x * m[1] + y * m[3] + m[5])


def scales(m: Matrix) -> tuple[float, float]:
    """How long the unit x and unit y vectors are once through `m` (an image's placed width and height)."""
    return (math.hypot(m[0], m[1]), math.hypot(m[2], m[3]))


def width(r: Rect) -> float:
    return r[2] - r[0]


def height(r: Rect) -> float:
    return r[3] - r[1]


def centre(r: Rect) -> tuple[float, float]:
    return ((r[0] + r[2]) / 2, (r[1] + r[3]) / 2)


def contains(outer: Rect, inner: Rect, tolerance: float = 0.0) -> bool:
    return (inner[0] >= outer[0] - tolerance and inner[1] >= outer[1] - tolerance
            and inner[2] <= outer[2] + tolerance and inner[3] <= outer[3] + tolerance)


def overlap(a: Rect, b: Rect) -> Rect | None:
    """The common part of two rectangles with some area, or None."""
    x0, y0, x1, y1 = max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])
    return (x0, y0, x1, y1) if x0 < x1 and y0 < y1 else None


def size_mm(r: Rect) -> tuple[float, float]:
    return (mm(width(r)), mm(height(r)))


def at_mm(r: Rect, page: Rect) -> str:
    """Where a rectangle is on its page, in mm from the page's lower-left corner: "at x 9.8, y 15.2 mm"."""
    return f"at x {mm(r[0] - page[0]):.1f}, y {mm(r[1] - page[1]):.1f} mm"


def size_text(w: float, h: float) -> str:
    return f"{w:.2f} × {h:.2f} mm"


def parse_size(text: str) -> tuple[float, float]:
    """'63x88', '63.5x88.9', '2.5x3.5in' as (width, height) in mm; ValueError otherwise."""
    found = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]+)?)\s*[x×X]\s*([0-9]+(?:\.[0-9]+)?)\s*(mm|in)?\s*", text or "")
    if not found or float(found.group(1)) <= 0 or float(found.group(2)) <= 0:
        raise ValueError(f"{text!r} is not a size: give it as WIDTHxHEIGHT in mm (63x88) or inches (2.5x3.5in)")
    factor = 25.4 if found.group(3) == "in" else 1.0
    return (float(found.group(1)) * factor, float(found.group(2)) * factor)
