"""Colour arithmetic a game's components use to dress a face in a colour from its data: the ink that reads on
it, a pale wash of it, a shade of it dark enough for text on white. #RRGGBB in, #RRGGBB out."""

from __future__ import annotations

DARK = "#1E1E1E"
WHITE = "#FFFFFF"


def rgb(hex_colour: str) -> tuple[int, int, int]:
    value = hex_colour.lstrip("#")
    return int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16)


def brightness(hex_colour: str) -> float:
    """Perceived brightness 0–255 (ITU-R BT.601 weights)."""
    r, g, b = rgb(hex_colour)
    return 0.299 * r + 0.587 * g + 0.114 * b


def ink_on(hex_colour: str) -> str:
    """White on a dark colour, near-black on a light one."""
    return WHITE if brightness(hex_colour) < 150 else DARK


def tint(hex_colour: str, strength: float = 0.18) -> str:
    """The colour washed out towards white (`strength` 0: white, 1: the colour)."""
    return "#%02X%02X%02X" % tuple(round(255 - (255 - c) * strength) for c in rgb(hex_colour))


def shade(hex_colour: str) -> str:
    """The colour itself when it reads as text on white, else a darker shade of it."""
    if brightness(hex_colour) < 140:
        return "#%02X%02X%02X" % rgb(hex_colour)
    return "#%02X%02X%02X" % tuple(c // 2 for c in rgb(hex_colour))
