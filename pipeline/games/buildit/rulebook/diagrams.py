"""Build It's drawn rulebook figures: board windows of the worked examples, with the real pawns on them, and
every Contract's plan as a small grid. The examples' positions live here once: the chapters read them from
the context (`boards`) for their text and the figures draw them, so the words and the drawing cannot part."""

from __future__ import annotations

from pipeline.data.specs import CardDeck, FaceSpec, Records

PLOT_MM = 12.0          # a window's plot: the pawn drawn 10 mm wide (a column of the rulebook is ~80 mm)
MARGIN_MM = 5.5         # the border with the coordinates
PLATEAU_MM = 46.0       # the whole board's side: a rulebook figure row this tall is drawn at print size
YELLOW_INK = "#8A6400"  # pawn.yaml's darker ink for yellow (text in the colour stays readable on white)
MOMENTS = ("avant", "apres")

# example -> window (top-left, bottom-right plot) and its moments ("avant", and "apres" when the example has
# one): plot -> "<colour>-<state>"; "marks": plots pointed at, per moment, with a word (or "" for a tint)
BOARD_EXAMPLES = {
    "voisines": {
        "window": ("b2", "e5"),
        "avant": {},
        "marks": {"avant": {"c3": "c3", **{p: "" for p in ("b2", "c2", "d2", "b3", "d3", "b4", "c4", "d4")}}},
    },
    "construire": {
        "window": ("b2", "f5"),
        "avant": {"b2": "blue-site", "c2": "blue-site", "d2": "blue-site", "e4": "blue-site",
                  "f5": "blue-construction", "c3": "red-permit"},
        "apres": {"b2": "blue-construction", "c2": "blue-construction", "d2": "blue-construction",
                  "e4": "blue-construction", "f5": "blue-construction", "c3": "red-permit"},
    },
    "tour": {
        "window": ("b2", "e4"),
        "avant": {"c3": "blue-permit"},
        "apres": {"c3": "blue-construction", "d4": "blue-construction"},
        "marks": {"avant": {"d4": "libre"}},
    },
}


def plot_xy(name: str) -> tuple[int, int]:
    """"c3" -> (column 2, row 2), 0-based."""
    return ord(name[0]) - ord("a"), int(name[1:]) - 1


def _order(name: str) -> tuple[int, int]:
    column, row = plot_xy(name)
    return row, column


def board_context() -> dict:
    """What the chapters read: boards[example][moment]["blue-site"] -> ["b2", "c2", …] in reading order."""
    out: dict = {}
    for example, spec in BOARD_EXAMPLES.items():
        out[example] = {}
        for moment in MOMENTS:
            if moment not in spec:
                continue
            by_kind: dict[str, list[str]] = {}
            for plot in sorted(spec[moment], key=_order):
                by_kind.setdefault(spec[moment][plot], []).append(plot)
            out[example][moment] = by_kind
    return out


def board_figures(pawn_deck: CardDeck, board_size: int) -> dict[str, FaceSpec]:
    """board-<example>-<moment> -> a window of the board with the pawns as the pawn deck prints them; and
    board-plateau, the whole board (rules.board_size plots a side) in PLATEAU_MM."""
    pawns = {f"{f.context['colour']}-{f.context['state']}": f.context for f in pawn_deck.fronts}
    figures = {}
    for example, spec in BOARD_EXAMPLES.items():
        (left, top), (right, bottom) = plot_xy(spec["window"][0]), plot_xy(spec["window"][1])
        if not (0 <= left <= right < board_size and 0 <= top <= bottom < board_size):
            raise ValueError(f"rulebook example {example!r}: window {spec['window']} is off the "
                             f"{board_size} × {board_size} board")
        columns = [chr(ord("a") + c) for c in range(left, right + 1)]
        rows = list(range(top + 1, bottom + 2))
        for moment in (m for m in MOMENTS if m in spec):
            placed = []
            for plot, kind in sorted(spec[moment].items(), key=lambda item: _order(item[0])):
                column, row = plot_xy(plot)
                if not (left <= column <= right and top <= row <= bottom):
                    raise ValueError(f"rulebook example {example!r}: {plot} is outside its window")
                pawn = pawns[kind]
                placed.append({"x": column - left, "y": row - top, "plot": plot, "colour": pawn["colour"],
                               "hex": pawn["hex"], "state": pawn["state"], "state_letter": pawn["state_letter"],
                               "ink": YELLOW_INK if pawn["colour"] == "yellow" else pawn["hex"]})
            marks = [{"x": plot_xy(plot)[0] - left, "y": plot_xy(plot)[1] - top, "text": word, "tint": not word}
                     for plot, word in spec.get("marks", {}).get(moment, {}).items()]
            context = {"columns": columns, "rows": rows, "origin": [left, top], "pawns": placed, "marks": marks,
                       "plot": PLOT_MM, "margin": MARGIN_MM}
            size = (2 * MARGIN_MM + len(columns) * PLOT_MM, 2 * MARGIN_MM + len(rows) * PLOT_MM)
            name = f"board-{example}-{moment}"
            figures[name] = FaceSpec("fig-board.yaml", context, None, name, size_mm=size, legible=True)
    plot = min(PLOT_MM, (PLATEAU_MM - 2 * MARGIN_MM) / board_size)   # the whole board, its coordinates at 9 pt
    letters = [chr(ord("a") + c) for c in range(board_size)]
    context = {"columns": letters, "rows": list(range(1, board_size + 1)), "origin": [0, 0], "pawns": [],
               "marks": [], "plot": plot, "margin": MARGIN_MM}
    side = 2 * MARGIN_MM + board_size * plot
    figures["board-plateau"] = FaceSpec("fig-board.yaml", context, None, "board-plateau", size_mm=(side, side),
                                        legible=True)
    return figures


def plan_figures(records: Records) -> dict[str, FaceSpec]:
    """plan-<contract id> -> the Contract's plan as a grid, its name and plot count below."""
    figures = {}
    for rec in records["contracts"]:
        plots = rec["plots"]
        context = {"plan": rec["plan"], "name": rec["name"], "note": f"{plots} parcelle{'s' if plots > 1 else ''}"}
        figures[f"plan-{rec['id']}"] = FaceSpec("fig-plan.yaml", context, rec.ref, f"plan-{rec['id']}", legible=True)
    return figures
