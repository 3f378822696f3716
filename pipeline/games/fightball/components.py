"""Fightball's records -> what to print (shared/games/fightball.md §1.2): one 44-card deck per team (players,
balls, Shot cards, effects, the BUZZ, each deck with its own back), the 12 field cards of each team (their own
back, with the team's emblem), the field mat, the player aid (one per coach) and the score sheet; the rulebook
is added after them (rulebook.with_rulebook). No drawing here: templates/fightball/*.yaml draw, and every
number or word they print comes from the workbook or the rules sheet.

Colour never carries a meaning alone: every colour-coded value sits beside its colour's letter (B, R, V for
"vert"), and field cards add a pattern (stripes, dots, plain)."""

from __future__ import annotations

from pipeline.data.schema import expand
from pipeline.data.specs import BoardSpec, CardDeck, Component, FaceSpec, PageSpec, Records
from pipeline.games.fightball.engine.data import CENTRE, LAYOUT, NOBODY, NORTH, field
from pipeline.games.fightball.schema import COLOURS, RULE_PARAMETERS
from pipeline.games.kit import parameters_from_rules

POKER = (63.5, 88.9)
AID = (148.0, 210.0)            # A5: two per sheet, recto verso (one per coach)
SCORE_SHEET = (190.0, 254.0)
DARK = "#1E1E1E"
WHITE = "#FFFFFF"

# colour code -> printed letter, French name (masculine, feminine), ink, pattern of the field cards
ZONE_COLOURS = {
    "B": ("B", "bleu", "bleue", "#1F5FBF", "stripes"),
    "R": ("R", "rouge", "rouge", "#C0392B", "dots"),
    "G": ("V", "vert", "verte", "#2E8B4E", "plain"),
}

# the field mat: cells a card plus a margin, a band above each card for the cell's label
MAT_CELL = (69.5, 104.9)        # a poker card with 3 mm around, and a 10 mm label band above it
MAT_BAND = 10.0
MAT_GAP = 4.0
MAT_MARGIN = 8.0
MAT_SIDE_BAND = 14.0            # "NORD" above the field, "SUD" below it


parameters = parameters_from_rules(RULE_PARAMETERS)     # parameters(records): the rules sheet, typed, as a dict


def announced(records: Records) -> dict[str, int]:
    """The components sheet's counts of what has no rows (aids, score sheets)."""
    return {r["component"]: r["count"] for r in records.get("components", ())}


def components(records: Records) -> list[Component]:
    """Everything printed but the rulebook, which shows these (rulebook.with_rulebook adds it)."""
    rules = parameters(records)
    teams = [team_look(rec) for rec in records["teams"]]
    counts = announced(records)
    return ([team_deck(records, team, rules) for team in teams]
            + [field_deck(records, team, rules) for team in teams]
            + [field_mat(rules), aid(rules, counts.get("player_aid", 2)), score_sheet(rules)])


# --- colours --------------------------------------------------------------------------------------------------

def _rgb(hex_colour: str) -> tuple[int, int, int]:
    value = hex_colour.lstrip("#")
    return int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16)


def _brightness(hex_colour: str) -> float:
    r, g, b = _rgb(hex_colour)
    return 0.299 * r + 0.587 * g + 0.114 * b


def ink_on(hex_colour: str) -> str:
    """White on a dark colour, near-black on a light one."""
    return WHITE if _brightness(hex_colour) < 150 else DARK


def tint(hex_colour: str, strength: float = 0.18) -> str:
    """The colour washed out towards white (a pale background of that colour)."""
    return "#%02X%02X%02X" % tuple(round(255 - (255 - c) * strength) for c in _rgb(hex_colour))


def shade(hex_colour: str) -> str:
    """The colour itself when it reads as text on white, else a darker shade of it."""
    if _brightness(hex_colour) < 140:
        return hex_colour.upper()
    return "#%02X%02X%02X" % tuple(c // 2 for c in _rgb(hex_colour))


def zone_colour(code: str, rules: dict) -> dict:
    letter, name, feminine, hex_colour, pattern = ZONE_COLOURS[code]
    points = rules["zone_points_g"] if code == "G" else rules["zone_points_rb"]
    return {"code": code, "letter": letter, "name": name, "feminine": feminine, "hex": hex_colour,
            "tint": tint(hex_colour), "pattern": pattern, "points": points}


def zone_colours(rules: dict) -> list[dict]:
    return [zone_colour(code, rules) for code in COLOURS]


def team_look(rec) -> dict:
    """What every face of a team prints: its name, emblem and colour (with the inks that read on it)."""
    colour = rec["colour"]
    return {"id": rec["id"], "name": rec["name"], "emblem": rec["emblem"], "emblem_src": f"emblems/{rec['emblem']}.svg",
            "colour": colour, "ink": ink_on(colour), "shade": shade(colour), "tint": tint(colour),
            "counts": {"balls": {c: rec[f"balls_{c}"] for c in COLOURS}, "buzz": rec["buzz"],
                       "field": {c: rec[f"field_{c}"] for c in COLOURS}},
            "ref": rec.ref, "cells": {column: rec.at(column) for column in (
                *(f"balls_{c}" for c in COLOURS), "buzz", *(f"field_{c}" for c in COLOURS))}}


def _card(index: int, copy: int, copies: int) -> dict:
    return {"index": index, "copy": copy, "copies": copies}


def printed_with(team: dict) -> dict:
    """A team's deck and field cards are printed together, never on a sheet with another team's: a box is two
    of the four teams, and a coach prints the teams that meet (pipeline/kinds/pooled.py)."""
    return {"group": team["id"], "group_title": team["name"]}


# --- a team's deck --------------------------------------------------------------------------------------------

def _public(team: dict) -> dict:
    return {k: v for k, v in team.items() if k not in ("counts", "ref", "cells")}


def team_deck(records: Records, team: dict, rules: dict) -> CardDeck:
    """The team's 44 cards in deck order: players, balls, Shot cards, effects, the BUZZ; one back for all."""
    look, tid = _public(team), team["id"]
    fronts: list[FaceSpec] = []

    def add(template: str, context: dict, ref, name: str, label: str, copy: int = 1, copies: int = 1) -> None:
        card = _card(len(fronts) + 1, copy, copies)
        fronts.append(FaceSpec(template, {**context, "team": look, "card": card}, ref, name, label))

    for rec, copy, copies in expand([r for r in records["players"] if r["team"] == tid], "copies"):
        add("player.yaml", {"name": rec["name"], "position": rec["position"],
                            "values": [{**zone_colour(c, rules), "atk": rec[f"atk_{c}"], "def": rec[f"def_{c}"]}
                                       for c in COLOURS]},
            rec.ref, f"{rec['id']}-{copy}", f"{rec['name']} (players row {rec.ref.row}, copy {copy}/{copies})",
            copy, copies)
    for code in COLOURS:
        copies = team["counts"]["balls"][code]
        for copy in range(1, copies + 1):
            add("ball.yaml", {"colour": zone_colour(code, rules), "bonus": rules["ball_match_bonus"]},
                team["cells"][f"balls_{code}"], f"{tid}_ball_{code}-{copy}", f"{team['name']} ball {code}, copy {copy}/{copies}",
                copy, copies)
    for rec, copy, copies in expand([r for r in records["shots"] if r["team"] == tid], "copies"):
        best = rec["text_colour"]
        add("shot.yaml", {"best": zone_colour(best, rules),
                          "values": [{**zone_colour(c, rules), "value": rec[f"shot_{c}"], "is_best": c == best}
                                     for c in COLOURS]},
            rec.ref, f"{rec['id']}-{copy}", f"Shot {rec['id']} (shots row {rec.ref.row}, copy {copy}/{copies})",
            copy, copies)
    for rec, copy, copies in expand([r for r in records["effects"] if r["team"] == tid], "copies"):
        add("effect.yaml", {"name": rec["name"], "text": rec["text"]},
            rec.ref, f"{rec['id']}-{copy}", f"{rec['name']} (effects row {rec.ref.row}, copy {copy}/{copies})",
            copy, copies)
    buzzes = team["counts"]["buzz"]
    for copy in range(1, buzzes + 1):
        add("buzz.yaml", {}, team["cells"]["buzz"], f"{tid}_buzz" + (f"-{copy}" if copy > 1 else ""), f"{team['name']} BUZZ",
            copy, buzzes)
    back = FaceSpec("back.yaml", {"team": look}, team["ref"], f"{tid}-back", f"{team['name']}, back")
    return CardDeck(f"deck-{tid}", f"Paquet {team['name']}", tuple(fronts), tuple(back for _ in fronts), POKER,
                    **printed_with(team))


def field_deck(records: Records, team: dict, rules: dict) -> CardDeck:
    """The team's half of the field: plain cards of one colour each (5 blue, 3 red, 4 green), own back."""
    look, tid = _public(team), team["id"]
    fronts = []
    for code in COLOURS:
        copies = team["counts"]["field"][code]
        for copy in range(1, copies + 1):
            fronts.append(FaceSpec("field.yaml", {"team": look, "colour": zone_colour(code, rules),
                                                  "card": _card(len(fronts) + 1, copy, copies)},
                                   team["cells"][f"field_{code}"], f"{tid}_field_{code}-{copy}",
                                   f"{team['name']} field card {code}, copy {copy}/{copies}"))
    back = FaceSpec("field-back.yaml", {"team": look, "rows": list(LAYOUT), "colours": zone_colours(rules)},
                    team["ref"], f"{tid}-field-back", f"{team['name']}, field back")
    return CardDeck(f"field-{tid}", f"Terrain {team['name']}", tuple(fronts), tuple(back for _ in fronts), POKER,
                    **printed_with(team))


# --- the field mat -------------------------------------------------------------------------------------------

def _place(row: int, col: int) -> dict:
    """A cell's row, column and top-left corner on the mat (mm)."""
    return {"row": row, "col": col, "x": MAT_MARGIN + col * (MAT_CELL[0] + MAT_GAP),
            "y": MAT_MARGIN + MAT_SIDE_BAND + row * (MAT_CELL[1] + MAT_GAP)}


def field_cells(rules: dict) -> list[dict]:
    """The 24 cells of §1.3 as the engine scores them (colour, owner half, points), each placed on the mat."""
    cells = []
    for cell in field(rules):
        colour = {**zone_colour(COLOURS[cell.colour], rules), "points": cell.points}
        owner = "" if cell.owner == NOBODY else "Nord" if cell.owner == NORTH else "Sud"
        cells.append({**_place(cell.row, cell.col), "owner": owner, "colour": colour})
    return cells


def centre_cell() -> dict:
    """The empty centre, where the BUZZ goes."""
    return _place(*divmod(CENTRE, len(LAYOUT[0])))


def mat_size() -> tuple[float, float]:
    cols, rows = len(LAYOUT[0]), len(LAYOUT)
    width = 2 * MAT_MARGIN + cols * MAT_CELL[0] + (cols - 1) * MAT_GAP
    height = 2 * (MAT_MARGIN + MAT_SIDE_BAND) + rows * MAT_CELL[1] + (rows - 1) * MAT_GAP
    return round(width, 2), round(height, 2)


def field_mat(rules: dict) -> BoardSpec:
    size = mat_size()
    context = {"cells": field_cells(rules), "centre": centre_cell(),
               "cell_w": MAT_CELL[0], "cell_h": MAT_CELL[1], "band": MAT_BAND,
               "margin": MAT_MARGIN, "side_band": MAT_SIDE_BAND, "card_w": POKER[0], "card_h": POKER[1],
               "width": size[0], "height": size[1]}
    face = FaceSpec("mat.yaml", context, None, "field-mat", "the field mat", size_mm=size)
    return BoardSpec("field-mat", "Tapis de terrain", face, size)


# --- player aid and score sheet --------------------------------------------------------------------------------

def aid(rules: dict, copies: int = 2) -> PageSpec:
    context = {"rules": rules, "colours": zone_colours(rules), "rows": list(LAYOUT)}
    faces = (FaceSpec("aid-front.yaml", context, None, "aid-front", "player aid, front"),
             FaceSpec("aid-back.yaml", context, None, "aid-back", "player aid, back"))
    return PageSpec("aid", "Aide de jeu", faces, AID, copies)


def score_sheet(rules: dict) -> PageSpec:
    """Two games a page: a row per quarter, the overtime quarters, the total; plays, fouls and total per coach."""
    overtime = rules["overtime_quarters"]
    context = {"rules": rules, "quarters": rules["quarters"], "overtime": overtime,
               "overtime_on": rules["tie_rule"] == "overtime"}
    face = FaceSpec("score-sheet.yaml", context, None, "score-sheet", "score sheet")
    return PageSpec("score-sheet", "Feuille de marque", (face,), SCORE_SHEET)
