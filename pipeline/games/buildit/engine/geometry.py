"""Plans on the board: parsing, 8-adjacency groups, canonical forms up to rotation and reflection.

Pure standard library: the rules engine uses it too.
"""

from __future__ import annotations

Cell = tuple[int, int]
N8 = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


def parse_plan(text: str) -> frozenset[Cell]:
    """`#./.#` -> {(0, 0), (1, 1)} as (row, column)."""
    return frozenset((r, c) for r, line in enumerate(text.split("/")) for c, ch in enumerate(line) if ch == "#")


def plan_text(cells) -> str:
    cells = normalise(cells)
    rows = 1 + max(r for r, _ in cells)
    cols = 1 + max(c for _, c in cells)
    return "/".join("".join("#" if (r, c) in cells else "." for c in range(cols)) for r in range(rows))


def groups(cells) -> list[frozenset[Cell]]:
    """Maximal connected sets under 8-adjacency, in a stable order."""
    left, found = set(cells), []
    for start in sorted(cells):
        if start not in left:
            continue
        group, stack = {start}, [start]
        left.discard(start)
        while stack:
            r, c = stack.pop()
            for dr, dc in N8:
                nxt = (r + dr, c + dc)
                if nxt in left:
                    left.discard(nxt)
                    group.add(nxt)
                    stack.append(nxt)
        found.append(frozenset(group))
    return found


def is_connected(cells) -> bool:
    return len(groups(cells)) == 1


def normalise(cells) -> tuple[Cell, ...]:
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    return tuple(sorted((r - top, c - left) for r, c in cells))


def variants(cells, rotation: bool = True, reflection: bool = True) -> list[tuple[Cell, ...]]:
    shapes, current = [], list(cells)
    turns = 4 if rotation else 1
    for mirror in ((False, True) if reflection else (False,)):
        base = [(r, -c) for r, c in cells] if mirror else list(cells)
        current = base
        for _ in range(turns):
            shapes.append(normalise(current))
            current = [(c, -r) for r, c in current]
    return shapes


def canonical(cells, rotation: bool = True, reflection: bool = True) -> tuple[Cell, ...]:
    return min(variants(cells, rotation, reflection))


def matches(building, plan, rotation: bool = True, reflection: bool = True) -> bool:
    return len(building) == len(plan) and canonical(building, rotation, reflection) == canonical(plan, rotation, reflection)


def extent(cells) -> tuple[int, int]:
    """(rows, columns) of the plan's bounding box."""
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    return max(rows) - min(rows) + 1, max(cols) - min(cols) + 1
