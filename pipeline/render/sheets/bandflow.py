"""One line of pieces laid out along a windowed band, in millimetres, with no drawing.

A windowed band (plan.Band with `stops`: a side band beside 3 × 3 poker cards on Letter, which the crop
marks of the horizontal cuts cross) shows its words as one line that the marks interrupt: the pieces
(a header's parts, a footer's calibration bar, label and notes) go in reading order into consecutive free
windows, as many to a window as fit, a piece that follows another in its window after its `joiner`
(the space before it). The run of windows used is centred on the band, and the line hugs the marks it
jumps: the first window's pieces end at its end, the last window's start at its start, any other
window's are centred (a single window's too), so the line reads on across each gap.
"""

from __future__ import annotations

from dataclasses import dataclass

EPS = 1e-6                    # floating-point slack when fitting pieces



@dataclass(frozen=True)
class Piece:
    width: float        # mm along the band
    joiner: float       # mm before it when it follows another piece in the same window


def flow(pieces: list[Piece], windows: list[tuple[float, float]]) -> list[tuple[int, float]] | None:
    """Where each piece goes: (its window's index, its start in mm along the band); None when the pieces
    do not fit the windows."""
    best = None
    for first in range(len(windows)):
        lines = _pack(pieces, windows[first:])
        if lines is None:
            continue
        centre = first + (len(lines) - 1) / 2
        score = abs(centre - (len(windows) - 1) / 2)
        if best is None or score < best[0] - EPS:
            best = (score, first, lines)
    if best is None:
        return None
    _, first, lines = best
    starts: list[tuple[int, float]] = []
    for index, line in enumerate(lines):
        u0, u1 = windows[first + index]
        used = sum(p.width for p in line) + sum(p.joiner for p in line[1:])
        if len(lines) > 1 and index == 0:
            u = u1 - used
        elif len(lines) > 1 and index == len(lines) - 1:
            u = u0
        else:
            u = u0 + (u1 - u0 - used) / 2
        for number, piece in enumerate(line):
            u += piece.joiner if number else 0.0
            starts.append((first + index, u))
            u += piece.width
    return starts


def _pack(pieces: list[Piece], windows: list[tuple[float, float]]) -> list[list[Piece]] | None:
    """The pieces greedily in the windows, one line each; None when they run out of windows."""
    lines: list[list[Piece]] = [[]]
    used = 0.0
    for piece in pieces:
        line = lines[-1]
        if line and used + piece.joiner + piece.width <= _room(windows, len(lines) - 1) + EPS:
            line.append(piece)
            used += piece.joiner + piece.width
            continue
        if line:
            lines.append([])
            if len(lines) > len(windows):
                return None
        if piece.width > _room(windows, len(lines) - 1) + EPS:
            return None
        lines[-1].append(piece)
        used = piece.width
    return lines if lines[0] else []


def _room(windows: list[tuple[float, float]], index: int) -> float:
    u0, u1 = windows[index]
    return u1 - u0
