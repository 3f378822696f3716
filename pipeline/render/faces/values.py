"""Template property values: converters from raw YAML (or an expression's result) to what the drawing
code uses, and the schema of every element kind (its keys, converters and defaults)."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Callable

from reportlab.lib import colors

from pipeline.core.units import to_mm, to_points


def length_mm(raw: Any) -> float:
    return to_mm(raw, "mm")


def length_pt(raw: Any) -> float:
    return to_points(raw, "pt")


def number(raw: Any) -> float:
    try:
        if isinstance(raw, bool):
            raise TypeError
        return float(raw)
    except (TypeError, ValueError):
        raise ValueError(f"{raw!r} is not a number") from None


def text(raw: Any) -> str:
    return "" if raw is None else str(raw)


def word(raw: Any) -> str:
    return text(raw).strip()


def truthy(raw: Any) -> bool:
    """README rule: true, yes, 1, or a non-empty string other than false/no/0."""
    if isinstance(raw, str):
        return raw.strip().lower() not in ("", "false", "no", "0", "none")
    return bool(raw)


def choice(*options: str) -> Callable[[Any], str]:
    def convert(raw: Any) -> str:
        value = word(raw).lower()
        if value not in options:
            raise ValueError(f"{raw!r} is not one of {', '.join(options)}")
        return value
    return convert


@lru_cache(maxsize=4096)
def _parse_colour(value: str) -> tuple[float, float, float] | None:
    value = value.strip().lower()
    if value in ("none", "transparent", ""):
        return None
    hex_digits = value[1:] if value.startswith("#") else None
    if hex_digits is not None and len(hex_digits) == 3:
        hex_digits = "".join(c * 2 for c in hex_digits)  # reportlab would misread #RGB as an integer
    if hex_digits is not None and re.fullmatch(r"[0-9a-f]{6}", hex_digits):
        return tuple(int(hex_digits[i:i + 2], 16) / 255.0 for i in (0, 2, 4))
    named = colors.getAllNamedColors().get(value)
    if named is None:
        raise ValueError(f"{value!r} is not a colour (use #RRGGBB, #RGB, a CSS name or none)")
    return (named.red, named.green, named.blue)


def colour(raw: Any) -> tuple[float, float, float] | None:
    return None if raw is None else _parse_colour(str(raw))


def points(raw: Any) -> tuple[tuple[float, float], ...]:
    if not isinstance(raw, (list, tuple)) or len(raw) < 2:
        raise ValueError("points must be a list of at least two [x, y] pairs")
    pairs = []
    for pair in raw:
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            raise ValueError(f"{pair!r} is not an [x, y] pair")
        pairs.append((length_mm(pair[0]), length_mm(pair[1])))
    return tuple(pairs)


def trim_size(raw: Any) -> tuple[float, float]:
    if not isinstance(raw, list) or len(raw) != 2:
        raise ValueError("size must be [width, height]")
    width, height = length_mm(raw[0]), length_mm(raw[1])
    if width <= 0 or height <= 0:
        raise ValueError("size must be positive")
    return width, height


MAX_REPEAT = 1000


def count(raw: Any) -> int:
    """A repetition count: a whole number 0..MAX_REPEAT (a float such as 8.0 is accepted)."""
    value = number(raw)
    if value != int(value) or not 0 <= value <= MAX_REPEAT:
        raise ValueError(f"{raw!r} is not a whole number from 0 to {MAX_REPEAT}")
    return int(value)


def name(raw: Any) -> str:
    value = word(raw)
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", value):
        raise ValueError(f"{raw!r} is not a name (letters, digits, _)")
    return value


def dash(raw: Any) -> tuple[float, ...] | None:
    if raw in (None, "", [], "none"):
        return None
    if not isinstance(raw, (list, tuple)):
        raise ValueError("dash must be a list of lengths, e.g. [1, 1]")
    return tuple(length_mm(v) for v in raw)


REQUIRED = object()
_LEN0 = (length_mm, 0.0)
_STROKE = {"stroke": (colour, None), "stroke_width": (length_pt, 0.5)}
_BOX = {"x": (length_mm, REQUIRED), "y": (length_mm, REQUIRED), "w": (length_mm, REQUIRED),
        "h": (length_mm, REQUIRED)}

# kind -> key -> (converter, default already converted, or REQUIRED). `when` is accepted everywhere.
SCHEMA: dict[str, dict[str, tuple]] = {
    "rect": {**_BOX, "r": _LEN0, "fill": (colour, None), **_STROKE, "dash": (dash, None)},
    "circle": {"cx": (length_mm, REQUIRED), "cy": (length_mm, REQUIRED), "r": (length_mm, REQUIRED),
               "fill": (colour, None), **_STROKE},
    "polygon": {"points": (points, REQUIRED), "fill": (colour, None), **_STROKE},
    "line": {"x1": (length_mm, REQUIRED), "y1": (length_mm, REQUIRED), "x2": (length_mm, REQUIRED),
             "y2": (length_mm, REQUIRED), "stroke": (colour, (0.0, 0.0, 0.0)),
             "stroke_width": (length_pt, 0.5), "dash": (dash, None)},
    "text": {**_BOX, "text": (text, REQUIRED), "font": (word, "body"), "size": (length_pt, 10.0),
             "min_size": (length_pt, 6.0), "leading": (number, 1.2),
             "align": (choice("left", "center", "right"), "left"),
             "valign": (choice("top", "middle", "bottom"), "top"), "color": (colour, (0.0, 0.0, 0.0))},
    "image": {**_BOX, "src": (word, REQUIRED), "fit": (choice("contain", "cover", "stretch"), "contain")},
    "icon": {"name": (word, REQUIRED), "x": (length_mm, REQUIRED), "y": (length_mm, REQUIRED),
             "size": (length_mm, 5.0)},
    "cells": {**_BOX, "pattern": (word, REQUIRED), "fill": (colour, (0.2, 0.2, 0.2)), "empty": (colour, None),
              "stroke": (colour, None), "stroke_width": (length_pt, 0.3)},
    "group": {"x": _LEN0, "y": _LEN0, "rotate": (number, 0.0), "repeat": (count, 1), "dx": _LEN0, "dy": _LEN0,
              "var": (name, "i")},
}
TOP_LEVEL_KEYS = ("extends", "size", "bleed", "safe", "edition_mark", "vars", "elements")
