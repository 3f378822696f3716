"""Where the card slots of NBA Deck-Building's two boards go (shared/games/nba-deck-building.md §1.5-1.6, App. C).

The slot counts come from the rules sheet, so the boards follow the data; the geometry is computed here once
and handed to templates/nba/court.yaml and markets.yaml, which only draw the list (and to the tests, which
measure what was drawn). A slot holds a real poker card (63.5 x 88.9 mm) with 1.25 mm to spare each side.
All lengths in mm, origin at the board's top-left trim corner.
"""

from __future__ import annotations

PORTRAIT = (66.0, 92.0)
LANDSCAPE = (92.0, 66.0)
MARGIN = 5.0          # trim to the first slot's band
GAP = 2.5             # between slots (cards in neighbouring slots are 5 mm apart), and before a band
BAND = 7.0            # the label above each slot
TRACK_BAND = 13.0     # the Player track's band: the 1 -> n arrow above the labels
DICE_ZONE_MIN = 56.0  # width of a dice zone beside the tactic slots
COLUMN_GAP = 8.0      # Court board: between the play area and the piles' column
ARROW_GAP = 11.0      # Markets board: between the track and the piles, room for the arrows


def _slot(kind: str, x: float, y: float, size: tuple[float, float], label: str, band: float = BAND,
          mark: str = "", note: str = "", icon: str = "") -> dict:
    """A card slot (or dice zone) at (x, y) with its label in a band of height `band` just above it; `mark`
    is printed large and pale inside (visible while the slot is empty), `note` small under it."""
    w, h = size
    return {"kind": kind, "x": round(x, 3), "y": round(y, 3), "w": w, "h": h, "label": label,
            "band_y": round(y - band, 3), "band": band, "mark": mark, "note": note, "icon": icon}


def _arrow(points: list[tuple[float, float]], head: float = 3.2) -> dict:
    """A polyline ending in a triangular head pointing along its last segment (horizontal or vertical)."""
    (x1, y1), (x2, y2) = points[-2], points[-1]
    dx, dy = (x2 > x1) - (x2 < x1), (y2 > y1) - (y2 < y1)
    tip = (x2, y2)
    base = (x2 - dx * head * 1.4, y2 - dy * head * 1.4)
    side = (-dy * head, dx * head)
    triangle = [tip, (base[0] + side[0], base[1] + side[1]), (base[0] - side[0], base[1] - side[1])]
    shaft = points[:-1] + [base]
    return {"path": [[round(x, 3), round(y, 3)] for x, y in shaft],
            "head": [[round(x, 3), round(y, 3)] for x, y in triangle]}


def _row_width(count: int, width: float) -> float:
    return count * width + (count - 1) * GAP


def court_layout(offence_slots: int, defence_slots: int, positions: list[tuple[str, str]]) -> dict:
    """Three rows (offensive tactics above the players, defensive below), each tactic row ending in its dice
    zone; the draw pile and discard in a column on the right, under the board's name."""
    players_w = _row_width(len(positions), PORTRAIT[0])
    tactic_w = max(_row_width(offence_slots, LANDSCAPE[0]), _row_width(defence_slots, LANDSCAPE[0]))
    main_w = max(players_w, tactic_w + GAP + DICE_ZONE_MIN)
    top = MARGIN + BAND
    middle = top + LANDSCAPE[1] + GAP + BAND
    bottom = middle + PORTRAIT[1] + GAP + BAND
    height = bottom + LANDSCAPE[1] + MARGIN
    slots = []
    for row_y, count, word, arrow, mark, dice_label, dice_note in (
            (top, offence_slots, "offensive", "arrow_up", "ATTAQUE", "Dés offensifs",
             "Les dés gardés attendent ici votre prochaine phase de Marque."),
            (bottom, defence_slots, "défensive", "arrow_down", "DÉFENSE", "Dés défensifs",
             "Seuls les dés de la couleur d’une attaque adverse restent ici.")):
        for k in range(count):
            slots.append(_slot("tactic", MARGIN + k * (LANDSCAPE[0] + GAP), row_y, LANDSCAPE,
                               f"Tactique {word} {k + 1}", icon=arrow, mark=mark))
        dice_x = MARGIN + _row_width(count, LANDSCAPE[0]) + GAP
        slots.append(_slot("dice", dice_x, row_y, (MARGIN + main_w - dice_x, LANDSCAPE[1]), dice_label,
                           note=dice_note))
    left = MARGIN + (main_w - players_w) / 2
    for k, (code, name) in enumerate(positions):
        slots.append(_slot("player", left + k * (PORTRAIT[0] + GAP), middle, PORTRAIT, f"{code} · {name}",
                           mark=code))
    column_x = MARGIN + main_w + COLUMN_GAP
    discard_y = height - MARGIN - PORTRAIT[1]
    draw_y = discard_y - BAND - GAP - PORTRAIT[1]
    slots.append(_slot("pile", column_x, draw_y, PORTRAIT, "Pioche", note="Face cachée. Vide ? Mélangez "
                       "votre défausse pour en faire une nouvelle pioche."))
    slots.append(_slot("pile", column_x, discard_y, PORTRAIT, "Défausse", note="Face visible."))
    width = column_x + PORTRAIT[0] + MARGIN
    title = {"x": column_x, "y": MARGIN, "w": PORTRAIT[0], "h": draw_y - BAND - GAP - MARGIN}
    return {"size": (round(width, 3), round(height, 3)), "slots": slots, "arrows": [], "notes": [],
            "title": title, "board": "Terrain"}


def _markets_columns(track: int, market: int) -> tuple[int, dict[str, int], list[int]]:
    """Columns of the grid and where the five piles of the middle row go: the Player pile under Joueur 1,
    the Player discard under the last track slot, then the Fatigue pile and the two Tactic piles; the columns
    left over (at least one: six columns or more) hold the board's name."""
    columns = max(track, market, 6)
    player_discard = track - 1 if track >= 3 else columns - 1
    free = [c for c in range(columns) if c not in (0, player_discard)]
    places = {"player_pile": 0, "player_discard": player_discard, "fatigue": free[0],
              "tactic_pile": free[-2], "tactic_discard": free[-1]}
    return columns, places, free[1:-2]


def markets_layout(track_slots: int, market_slots: int) -> dict:
    """A grid of portrait slots in three rows: the Player track (1 -> n, then down to the discard), the
    piles, and the Tactic market."""
    columns, places, spare = _markets_columns(track_slots, market_slots)

    def col_x(c: int) -> float:
        return MARGIN + c * (PORTRAIT[0] + GAP)

    row1 = MARGIN + TRACK_BAND
    row2 = row1 + PORTRAIT[1] + ARROW_GAP + BAND
    row3 = row2 + PORTRAIT[1] + GAP + BAND
    width = col_x(columns) - GAP + MARGIN
    height = row3 + PORTRAIT[1] + MARGIN
    slots = [_slot("track", col_x(k), row1, PORTRAIT, f"Joueur {k + 1}", mark=str(k + 1))
             for k in range(track_slots)]
    piles = {
        "player_pile": ("Pioche Joueur", "Face cachée, la moins chère dessus."),
        "player_discard": ("Défausse Joueur", "Les cartes poussées hors de la piste."),
        "fatigue": ("Pioche Fatigue", "Les cartes Fatigue, face visible."),
        "tactic_pile": ("Pioche Tactique", "Face cachée. Vide ? Mélangez la défausse Tactique."),
        "tactic_discard": ("Défausse Tactique", "Face visible."),
    }
    for key, (label, note) in piles.items():
        slots.append(_slot("pile", col_x(places[key]), row2, PORTRAIT, label, note=note))
    slots += [_slot("market", col_x(k), row3, PORTRAIT, f"Marché Tactique {k + 1}", mark=str(k + 1))
              for k in range(market_slots)]
    arrow_y = MARGIN + 2.8
    first_x, last_x = col_x(0) + 2, col_x(track_slots - 1) + PORTRAIT[0] - 2
    gap_top, gap_bottom = row1 + PORTRAIT[1] + 0.8, row2 - BAND - 0.8
    pile_x = col_x(0) + PORTRAIT[0] / 2
    exit_x = col_x(track_slots - 1) + PORTRAIT[0] / 2
    arrows = [_arrow([(first_x, arrow_y), (last_x, arrow_y)]),
              _arrow([(pile_x, gap_bottom), (pile_x, gap_top)]),
              _arrow([(exit_x, gap_top), (exit_x, gap_bottom)])]
    notes = [
        {"x": (first_x + last_x) / 2 - 80, "y": arrow_y - 2.4, "w": 160, "h": 4.8, "align": "center",
         "text": f"Chaque tour, la carte révélée entre en Joueur 1 et pousse les autres vers Joueur "
                 f"{track_slots}"},
        {"x": pile_x + 3, "y": gap_top, "w": PORTRAIT[0] - 6, "h": gap_bottom - gap_top, "align": "left",
         "text": "révélée en Joueur 1"},
        {"x": exit_x + 3, "y": gap_top, "w": PORTRAIT[0] / 2 - 3, "h": gap_bottom - gap_top, "align": "left",
         "text": "vers la défausse" if places["player_discard"] == track_slots - 1 else "vers la Défausse Joueur"},
    ]
    run = [c for k, c in enumerate(spare) if c - k == spare[0]]       # the first run of neighbouring columns
    title = {"x": col_x(run[0]), "y": row2 - BAND, "w": col_x(run[-1]) + PORTRAIT[0] - col_x(run[0]),
             "h": PORTRAIT[1] + BAND}
    return {"size": (round(width, 3), round(height, 3)), "slots": slots, "arrows": arrows, "notes": notes,
            "title": title, "board": "Marchés"}
