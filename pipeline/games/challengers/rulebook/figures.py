"""Challengers' drawn rulebook figures for the told match (told_match.py): each attack as a pile of the real
cards (the generic stack figure, pipeline/render/rulebook/stackfig.py), first card revealed at the top, with the
running total beside each card; the benches at the end of the match (fig-bench.yaml, one slot a name).

A pile shows the top band of each card (its name and its strength in both corners), the last card revealed
lowest, as it lies on top of the flag pile."""

from __future__ import annotations

from pipeline.data.specs import FaceSpec
from pipeline.render.rulebook.stackfig import StackCard, StackFigure

WIDTH = 86.0                # mm: a rulebook column (A4)
BAND = 17.5                 # mm of a card under the next one: its top band (name, strength in both corners)
TOP = 17.5                  # mm of the last card revealed: its band too (the told match is about strengths);
                            # the comparison is the chapter's caption: a short pile keeps its print size
LABEL = 21.0                # mm: the labels' column beside the cards
SLOT_W, SLOT_H, GAP, TITLE = 26.0, 14.0, 2.5, 7.0


def _label(reveal: dict, first: bool) -> str:
    adds = reveal["adds"]
    if first:
        return f"{reveal['card']['name']}\ntotal {reveal['attack']}"
    sign = "+" if adds >= 0 else "−"
    return f"{reveal['card']['name']}\n{sign}{abs(adds)}, total {reveal['attack']}"


def attack_stack(name: str, faces: dict, exchange: dict) -> StackFigure | None:
    """The attack of one exchange, first card revealed first; None when a card has no face (yet)."""
    reveals = exchange["reveals"]
    wanted = [faces.get(f"card-{r['card']['id']}") for r in reveals]
    if not reveals or any(face is None for face in wanted):
        return None
    cards = tuple(StackCard(face, _label(r, i == 0)) for i, (face, r) in enumerate(zip(wanted, reveals)))
    return StackFigure(name, cards, band_mm=BAND, top_mm=TOP, label_mm=LABEL)


def opening_stack(name: str, faces: dict, opening: dict) -> StackFigure | None:
    """The opening card alone, the flag on it: its defence beside it."""
    face = faces.get(f"card-{opening['card']['id']}")
    if face is None:
        return None
    label = f"{opening['card']['name']}\ndéfense {opening['defence']}"
    return StackFigure(name, (StackCard(face, label),), band_mm=BAND, top_mm=TOP, label_mm=LABEL)


def bench_plan(name: str, title: str, slots: list[dict], bench_slots: int) -> FaceSpec:
    """A bench of `bench_slots` slots, three a row, the used ones first (as they were filled)."""
    per_row = 3
    left = (WIDTH - per_row * SLOT_W - (per_row - 1) * GAP) / 2
    rows = -(-bench_slots // per_row)
    drawn = []
    for i in range(bench_slots):
        slot = slots[i] if i < len(slots) else {"name": "", "count": 0, "strength": ""}
        drawn.append({"x": round(left + (i % per_row) * (SLOT_W + GAP), 2),
                      "y": round(TITLE + (i // per_row) * (SLOT_H + GAP), 2), "w": SLOT_W, "h": SLOT_H,
                      "number": i + 1, "name": slot["name"], "count": slot["count"], "strength": slot["strength"]})
    height = round(TITLE + rows * SLOT_H + (rows - 1) * GAP + 1.0, 2)
    return FaceSpec("fig-bench.yaml", {"size": [WIDTH, height], "title": title, "slots": drawn}, None, name,
                    size_mm=(WIDTH, height), legible=True)


def match_figures(faces: dict, match: dict | None, rules: dict) -> dict:
    """match-opening and match-attack-<k> for every exchange whose cards all have faces; bench-end-alice,
    bench-end-bruno."""
    if match is None:
        return {}
    figures: dict = {}
    opening = opening_stack("match-opening", faces, match["opening"])
    if opening is not None:
        figures[opening.name] = opening
    for k, exchange in enumerate(match["exchanges"], start=1):
        stack = attack_stack(f"match-attack-{k}", faces, exchange)
        if stack is not None:
            figures[stack.name] = stack
    for side, who in enumerate((match["alice"], match["bruno"])):
        name = f"bench-end-{who.lower()}"
        figures[name] = bench_plan(name, f"Le banc {'d' + chr(39) if who[0] in 'AEIOU' else 'de '}{who} à la fin",
                                   match["benches"][side], rules["bench_slots"])
    return figures
