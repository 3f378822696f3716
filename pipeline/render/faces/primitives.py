"""Drawable primitives and how they are written to a PDF.

A FaceLayout is a flat tuple of these: PDF points, y up, origin at the trim box's bottom-left (or the
enclosing group's origin). Drawing replays them onto a canvas and thinks about nothing else.
"""

from __future__ import annotations

import math
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

from pipeline.render.faces.art import Art, Placeholder, draw_art, draw_placeholder, pdf_numbers
from pipeline.render.faces.text import draw_text


# --- primitives: PDF points, y up, origin at the trim box's bottom-left (or the enclosing group's origin) --

class Rect(NamedTuple):
    x: float
    y: float
    width: float
    height: float
    radius: float
    fill: tuple | None
    stroke: tuple | None
    stroke_width: float
    dash: tuple | None


class Circle(NamedTuple):
    cx: float
    cy: float
    r: float
    fill: tuple | None
    stroke: tuple | None
    stroke_width: float


class Polygon(NamedTuple):
    points: tuple
    fill: tuple | None
    stroke: tuple | None
    stroke_width: float


class Line(NamedTuple):
    x1: float
    y1: float
    x2: float
    y2: float
    stroke: tuple | None
    stroke_width: float
    dash: tuple | None


class Text(NamedTuple):
    colour: tuple | None
    runs: tuple
    icons: tuple          # Art, drawn after the characters
    line_step: float


class Group(NamedTuple):
    x: float
    y: float
    angle: float          # reportlab's counter-clockwise degrees (the template's clockwise, negated)
    children: tuple


def smallest_text(primitives) -> float | None:
    """The smallest font size (pt) any text of these primitives is set in, groups included; None: no text."""
    sizes = [run.size for item in primitives if isinstance(item, Text) for run in item.runs if run.text.strip()]
    sizes += [size for item in primitives if isinstance(item, Group)
              for size in (smallest_text(item.children),) if size is not None]
    return min(sizes, default=None)


# --- drawing --------------------------------------------------------------------------------------------
# Shapes are written as PDF operators through canvas.addLiteral: reportlab's own path calls format every
# number in pure Python (fp_str), which costs more than everything else on a 2,000-card deck.

KAPPA = 0.5522847498     # a quarter circle as one cubic Bézier: control points at KAPPA x radius


def _pen(pen: dict, fill, stroke, width: float, dash) -> tuple[list[str], str | None]:
    """Operators for what changed since the last primitive (a face is one q…Q, so this is safe), and the
    painting operator: f (fill), S (stroke), B (both) or None (nothing to paint)."""
    ops = []
    if fill is not None and pen.get("fill") != fill:
        ops.append(pdf_numbers(*fill) + " rg")
        pen["fill"] = fill
    stroke = stroke if width > 0 else None
    if stroke is not None:
        if pen.get("stroke") != stroke:
            ops.append(pdf_numbers(*stroke) + " RG")
            pen["stroke"] = stroke
        if pen.get("width") != width:
            ops.append(pdf_numbers(width) + " w")
            pen["width"] = width
        if pen.get("dash", ()) != dash:
            ops.append(f"[{pdf_numbers(*dash) if dash else ''}] 0 d")
            pen["dash"] = dash
    paint = ("B" if stroke is not None else "f") if fill is not None else ("S" if stroke is not None else None)
    return ops, paint


def _paint(canvas, pen: dict, fill, stroke, width: float, dash, path: str) -> None:
    ops, paint = _pen(pen, fill, stroke, width, dash)
    if paint is not None:
        ops.append(path)
        ops.append(paint)
        canvas.addLiteral("\n".join(ops))


@lru_cache(maxsize=256)   # the same frames and panels recur on every card of a deck
def _rounded_path(x: float, y: float, w: float, h: float, r: float) -> str:
    r = min(r, w / 2, h / 2)
    k = r * (1 - KAPPA)
    right, top = x + w, y + h
    return (f"{pdf_numbers(x + r, y)} m {pdf_numbers(right - r, y)} l "
            f"{pdf_numbers(right - k, y, right, y + k, right, y + r)} c {pdf_numbers(right, top - r)} l "
            f"{pdf_numbers(right, top - k, right - k, top, right - r, top)} c {pdf_numbers(x + r, top)} l "
            f"{pdf_numbers(x + k, top, x, top - k, x, top - r)} c {pdf_numbers(x, y + r)} l "
            f"{pdf_numbers(x, y + k, x + k, y, x + r, y)} c h")


def _draw_rect(canvas, p: Rect, root: Path, pen: dict) -> None:
    path = (_rounded_path(p.x, p.y, p.width, p.height, p.radius) if p.radius > 0
            else pdf_numbers(p.x, p.y, p.width, p.height) + " re")
    _paint(canvas, pen, p.fill, p.stroke, p.stroke_width, p.dash, path)


@lru_cache(maxsize=256)
def _circle_path(x: float, y: float, r: float) -> str:
    k = r * KAPPA
    return (f"{pdf_numbers(x + r, y)} m {pdf_numbers(x + r, y + k, x + k, y + r, x, y + r)} c "
            f"{pdf_numbers(x - k, y + r, x - r, y + k, x - r, y)} c "
            f"{pdf_numbers(x - r, y - k, x - k, y - r, x, y - r)} c "
            f"{pdf_numbers(x + k, y - r, x + r, y - k, x + r, y)} c h")


def _draw_circle(canvas, p: Circle, root: Path, pen: dict) -> None:
    _paint(canvas, pen, p.fill, p.stroke, p.stroke_width, None, _circle_path(p.cx, p.cy, p.r))


def _draw_polygon(canvas, p: Polygon, root: Path, pen: dict) -> None:
    path = " ".join([pdf_numbers(*p.points[0]) + " m", *(pdf_numbers(*point) + " l" for point in p.points[1:]),
                     "h"])
    _paint(canvas, pen, p.fill, p.stroke, p.stroke_width, None, path)


def _draw_line(canvas, p: Line, root: Path, pen: dict) -> None:
    path = f"{pdf_numbers(p.x1, p.y1)} m {pdf_numbers(p.x2, p.y2)} l"
    _paint(canvas, pen, None, p.stroke, p.stroke_width, p.dash, path)


def _draw_text(canvas, p: Text, root: Path, pen: dict) -> None:
    if draw_text(canvas, p.colour, p.runs, p.line_step, pen.get("fill") != p.colour):
        pen["fill"] = p.colour          # the colour set inside BT…ET stays after ET
    for icon in p.icons:
        draw_art(canvas, root, icon)


def _draw_group(canvas, p: Group, root: Path, pen: dict) -> None:
    cos, sin = math.cos(math.radians(p.angle)), math.sin(math.radians(p.angle))
    canvas.saveState()
    canvas.addLiteral(pdf_numbers(cos, sin, -sin, cos, p.x, p.y) + " cm")
    draw_all(canvas, p.children, root, dict(pen))
    canvas.restoreState()


def _draw_art(canvas, p: Art, root: Path, pen: dict) -> None:
    draw_art(canvas, root, p)


def _draw_placeholder(canvas, p: Placeholder, root: Path, pen: dict) -> None:
    draw_placeholder(canvas, p)       # inside its own q…Q: the pen is unchanged afterwards


_DRAW = {Rect: _draw_rect, Circle: _draw_circle, Polygon: _draw_polygon, Line: _draw_line, Text: _draw_text,
         Group: _draw_group, Art: _draw_art, Placeholder: _draw_placeholder}


def draw_all(canvas, primitives: tuple, root: Path, pen: dict) -> None:
    for primitive in primitives:
        _DRAW[type(primitive)](canvas, primitive, root, pen)
