"""A pairing chart (a generic page piece): who meets whom in each round, read by each participant along their
own row. A game gives one PairingTable per setting it prints (a table per player count, say), each the
participants' printed names and, per round, the pairs that play; chart_context() lays the tables out as
blocks in columns (each block: its title, a header row of round numbers, a row per participant with the
opponent's name in each round's cell) and templates/common/pairing-chart.yaml draws them. A game's page
template extends that file and adds its own heading above `top`.

Nothing here knows any game: the pairs are data (a circle method, a Swiss draw, a hand-made schedule), and a
participant may be shaded (a robot, a bye) so that its row and the cells where it plays stand out."""

from __future__ import annotations

from dataclasses import dataclass, field

TEMPLATE = "../common/pairing-chart.yaml"   # relative to a game's template folder, as FaceSpec.template is
BYE = "—"                                    # a participant who does not play that round


@dataclass(frozen=True)
class PairingTable:
    """One block of the chart. `rounds[r]` lists the (a, b) participant pairs of round r + 1 (indices into
    `names`); `shaded` participants (a robot) have their row and their cells shaded."""

    title: str
    names: tuple[str, ...]
    rounds: tuple[tuple[tuple[int, int], ...], ...]
    shaded: frozenset[int] = field(default_factory=frozenset)

    def __post_init__(self):
        count = len(self.names)
        for number, pairs in enumerate(self.rounds, start=1):
            seen: list[int] = [i for pair in pairs for i in pair]
            bad = [i for i in seen if not 0 <= i < count]
            if bad:
                raise ValueError(f"{self.title}: round {number} pairs participant {bad[0]}, not one of 0…{count - 1}")
            twice = sorted({i for i in seen if seen.count(i) > 1})
            if twice:
                raise ValueError(f"{self.title}: round {number} pairs {self.names[twice[0]]} twice")
            if any(a == b for a, b in pairs):
                raise ValueError(f"{self.title}: round {number} pairs a participant with itself")

    def opponents(self) -> list[list[int | None]]:
        """opponents()[p][r]: the participant p meets in round r + 1 (None: p does not play)."""
        table: list[list[int | None]] = [[None] * len(self.rounds) for _ in self.names]
        for r, pairs in enumerate(self.rounds):
            for a, b in pairs:
                table[a][r], table[b][r] = b, a
        return table


@dataclass(frozen=True)
class ChartGeometry:
    """Sizes in mm: the name column, a round's column, a row, a block's title band, the gaps."""

    name_mm: float = 20.0
    cell_mm: float = 9.6
    row_mm: float = 5.4
    title_mm: float = 7.0
    gap_mm: float = 5.0             # between two blocks, across and down
    columns: int = 2

    def block_width(self, rounds: int) -> float:
        return self.name_mm + rounds * self.cell_mm

    def block_height(self, table: PairingTable) -> float:
        return self.title_mm + (len(table.names) + 1) * self.row_mm


def _rows(table: PairingTable) -> list[dict]:
    rows = []
    for p, opponents in enumerate(table.opponents()):
        cells = [{"text": BYE if o is None else table.names[o], "shade": o in table.shaded} for o in opponents]
        rows.append({"name": table.names[p], "shade": p in table.shaded, "cells": cells})
    return rows


def chart_context(tables: list[PairingTable], top_mm: float = 0.0, geometry: ChartGeometry = ChartGeometry(),
                  left_mm: float = 0.0) -> dict:
    """What templates/common/pairing-chart.yaml draws (mm from the face's top-left, y down): `blocks`, each
    with its `x`, `y`, `title`, `rounds` (the round numbers) and `rows` (`name`, `shade`, `cells`: `text`,
    `shade`); the geometry; the chart's `width` and `height` (from the top edge, `top_mm` included). Blocks
    go in the order given, each into the column that ends highest; the first column starts at `left_mm`."""
    if not tables:
        raise ValueError("a pairing chart needs at least one table")
    rounds = max(len(t.rounds) for t in tables)
    block_w = geometry.block_width(rounds)
    bottoms = [top_mm] * geometry.columns
    blocks = []
    for table in tables:
        column = min(range(geometry.columns), key=lambda c: (round(bottoms[c], 6), c))
        x, y = left_mm + column * (block_w + geometry.gap_mm), bottoms[column]
        blocks.append({"x": round(x, 3), "y": round(y, 3), "title": table.title,
                       "rounds": list(range(1, len(table.rounds) + 1)), "rows": _rows(table)})
        bottoms[column] = y + geometry.block_height(table) + geometry.gap_mm
    used = [i for i, bottom in enumerate(bottoms) if bottom > top_mm]
    width = len(used) * block_w + (len(used) - 1) * geometry.gap_mm
    return {"blocks": blocks, "name_w": geometry.name_mm, "cell_w": geometry.cell_mm, "row_h": geometry.row_mm,
            "title_h": geometry.title_mm, "top": top_mm, "width": round(width, 3),
            "height": round(max(bottoms) - geometry.gap_mm, 3)}
