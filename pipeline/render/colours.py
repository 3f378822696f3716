"""Colour arithmetic a game's components and templates use to dress a face in a colour from its data: the ink
that reads on it, a pale wash of it, a shade of it dark enough for text, and WCAG 2's contrast ratio that
decides what "reads" means (render/faces/contrast.py measures every face's text with it). #RRGGBB in,
#RRGGBB out; `luminance` and `contrast` also take 0–1 channel tuples, as faces hold them."""

from __future__ import annotations

DARK = "#1E1E1E"
WHITE = "#FFFFFF"
RATIO = 4.5                 # WCAG 2 AA: what printed text needs against its ground
LARGE_RATIO = 3.0           # WCAG 2 AA for large text: from LARGE_PT up
LARGE_PT = 14.0


def rgb(hex_colour: str) -> tuple[int, int, int]:
    value = hex_colour.strip().lstrip("#")
    if len(value) == 3:
        value = "".join(c * 2 for c in value)
    return int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16)


def channels(colour) -> tuple[float, float, float]:
    """A colour as three 0–1 channels, from #RRGGBB or from a tuple of them."""
    if isinstance(colour, str):
        return tuple(c / 255.0 for c in rgb(colour))
    return tuple(float(c) for c in colour[:3])


def _hex(values) -> str:
    return "#%02X%02X%02X" % tuple(min(255, max(0, round(c * 255))) for c in values)


def brightness(hex_colour: str) -> float:
    """Perceived brightness 0–255 (ITU-R BT.601 weights)."""
    r, g, b = rgb(hex_colour)
    return 0.299 * r + 0.587 * g + 0.114 * b


def _linear(channel: float) -> float:
    return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4


def luminance(colour) -> float:
    """WCAG 2 relative luminance, 0 (black) to 1 (white)."""
    r, g, b = (_linear(c) for c in channels(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b) -> float:
    """WCAG 2 contrast ratio of two colours, 1 (the same) to 21 (black on white)."""
    return luminance_ratio(luminance(a), luminance(b))


def luminance_ratio(la: float, lb: float) -> float:
    """WCAG 2 contrast ratio of two relative luminances (`contrast` of colours whose luminance is known)."""
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def needed(size_pt: float) -> float:
    """The ratio a text of this size must reach on its ground."""
    return LARGE_RATIO if size_pt >= LARGE_PT - 1e-6 else RATIO


def readable(colour, ground=WHITE, ratio: float = RATIO) -> str:
    """`colour`, or the nearest shade of it (mixed towards black on a light ground, towards white on a dark
    one, in steps of 1 %) that reaches `ratio` against `ground`: a colour kept for text or for a band under
    white text. The hue stays; #RRGGBB out."""
    base, ground = channels(colour), channels(ground)
    towards = 0.0 if contrast((0, 0, 0), ground) >= contrast((1, 1, 1), ground) else 1.0
    for step in range(101):
        mixed = _hex(c + (towards - c) * step / 100 for c in base)
        if contrast(mixed, ground) >= ratio:
            return mixed
    return _hex((towards,) * 3)


def ink_on(hex_colour: str) -> str:
    """White or near-black, whichever reads better on the colour."""
    return WHITE if contrast(WHITE, hex_colour) > contrast(DARK, hex_colour) else DARK


def tint(hex_colour: str, strength: float = 0.18) -> str:
    """The colour washed out towards white (`strength` 0: white, 1: the colour)."""
    return "#%02X%02X%02X" % tuple(round(255 - (255 - c) * strength) for c in rgb(hex_colour))


def shade(hex_colour: str) -> str:
    """The colour, or a darker shade of it, that reads as text on white and on its own tint (`tint`)."""
    return readable(hex_colour, tint(hex_colour))
