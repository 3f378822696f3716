"""Fightball's test fixture: two teams that follow the workbook's conventions (44-card decks: 16 players as 8
names x 2, 9 balls, 10 Shot cards, 8 effects, 1 BUZZ; 12 field cards 5/3/4), holding the test cards of
fightball.md §4.2 (Rook and Zip for the south team `sud`, Wall and Hook for the north team `nord`, the Shot
card 2/4/3, the effects HP, DS and INT), so the engine's tests do not wait for sheets/fightball.xlsx;
workbook_records() reads the real one when it exists."""

from __future__ import annotations

from pipeline import PROJECT_ROOT
from pipeline.games.fightball.engine import GameData

WORKBOOK = PROJECT_ROOT / "sheets" / "fightball.xlsx"

PARAMS = {
    "quarters": 4, "threshold": 10, "ball_match_bonus": 2, "zone_points_rb": 2, "zone_points_g": 3,
    "too_late_points": 1, "hurried_shot_points": 1, "speed_north": 50, "speed_south": 50,
    "new_attacker_same_name_compares": "current", "tie_rule": "draw", "shot_at_buzz": "taken_back",
    "overtime_quarters": 3, "bot_error_pct": 5,
    "team_north": "nord", "team_south": "sud",
}

# team -> [(short id, name, attack B/R/G, defence B/R/G)]: the §4.2 cards first
PLAYERS = {
    "sud": [("rook", "Rook", (4, 6, 5), (2, 1, 2)), ("zip", "Zip", (3, 5, 7), (1, 1, 1)),
            ("ace", "Ace", (6, 4, 4), (1, 2, 1)), ("bolt", "Bolt", (5, 5, 3), (2, 2, 2)),
            ("dash", "Dash", (2, 3, 6), (3, 2, 2)), ("flint", "Flint", (4, 4, 4), (3, 3, 1)),
            ("gale", "Gale", (5, 3, 5), (1, 3, 2)), ("hale", "Hale", (3, 6, 3), (2, 2, 3))],
    "nord": [("wall", "Wall", (3, 2, 4), (3, 4, 2)), ("hook", "Hook", (5, 3, 6), (1, 2, 1)),
             ("iris", "Iris", (6, 5, 3), (2, 1, 2)), ("jade", "Jade", (4, 6, 4), (1, 2, 3)),
             ("knox", "Knox", (3, 3, 6), (4, 2, 1)), ("lux", "Lux", (5, 4, 5), (2, 2, 2)),
             ("moss", "Moss", (2, 5, 5), (3, 3, 2)), ("nash", "Nash", (6, 3, 4), (2, 3, 1))],
}
# Shot cards B/R/G, text colour, copies: the §4.2 Shot card first (2/4/3, red)
SHOTS = [("shot", (2, 4, 3), "R", 4), ("shot_b", (5, 3, 2), "B", 3), ("shot_g", (3, 2, 5), "G", 3)]
# effects: short id, name, copies, ops [(op, arg, phase)]
EFFECTS = [
    ("hp", "Pyramide humaine", 1, [("ADD_POINTS", "5", "POINTS")]),
    ("ds", "Double tir", 1, [("MULTIPLY_POINTS", "2", "POINTS")]),
    ("int", "Interception", 1, [("STEAL", None, "POINTS")]),
    ("boost", "Élan", 1, [("ADD_TOTAL", "2", "TOTAL")]),
    ("screen", "Écran", 1, [("IGNORE_DEFENDERS", None, "TOTAL")]),
    ("switch", "Changement d'aile", 1, [("USE_COLOUR", "G", "TOTAL"), ("MOVE_PLAY", "best", "POINTS")]),
    ("veto", "Contestation", 1, [("CANCEL_EFFECTS_BELOW", None, "BOTH")]),
    ("rough", "Charge", 1, [("FOUL", "1 defending", "POINTS"), ("SET_POINTS", "3", "POINTS")]),
]


def fixture_rows() -> dict:
    teams, players, shots, effects, ops = [], [], [], [], []
    for team, colour in (("nord", "#1f4e9c"), ("sud", "#b22222")):
        teams.append({"id": team, "name": team.title(), "emblem": "eclair", "colour": colour, "profile": None,
                      "balls_B": 3, "balls_R": 3, "balls_G": 3, "buzz": 1, "field_B": 5, "field_R": 3, "field_G": 4})
        for short, name, attack, defence in PLAYERS[team]:
            players.append({"id": f"{team}_{short}", "team": team, "name": name, "position": "ailier",
                            **{f"atk_{c}": v for c, v in zip("BRG", attack)},
                            **{f"def_{c}": v for c, v in zip("BRG", defence)}, "copies": 2})
        for short, values, text, copies in SHOTS:
            shots.append({"id": f"{team}_{short}", "team": team, **{f"shot_{c}": v for c, v in zip("BRG", values)},
                          "text_colour": text, "copies": copies})
        for short, name, copies, card_ops in EFFECTS:
            effects.append({"id": f"{team}_{short}", "team": team, "name": name, "text": name, "copies": copies})
            ops += [{"effect": f"{team}_{short}", "order": i, "op": op, "arg": arg, "phase": phase}
                    for i, (op, arg, phase) in enumerate(card_ops, 1)]
    return {"teams": teams, "players": players, "shots": shots, "effects": effects, "effect_ops": ops}


def fixture_data(rows: dict | None = None, **params) -> GameData:
    rows = rows or fixture_rows()
    return GameData.from_rows(rows["teams"], rows["players"], rows["shots"], rows["effects"], rows["effect_ops"],
                              {**PARAMS, **params})


def tiny_rows(cards: dict[str, int]) -> dict:
    """The fixture with each deck reduced to the cards named (id -> copies, e.g. {"sud_rook": 1}) + the BUZZ."""
    rows = fixture_rows()
    for team in rows["teams"]:
        for c in "BRG":
            team[f"balls_{c}"] = cards.get(f"{team['id']}_ball_{c}", 0)
    for sheet in ("players", "shots", "effects"):
        rows[sheet] = [{**row, "copies": cards[row["id"]]} for row in rows[sheet] if row["id"] in cards]
    kept = {row["id"] for row in rows["effects"]}
    rows["effect_ops"] = [row for row in rows["effect_ops"] if row["effect"] in kept]
    return rows


def workbook_records():
    """The real workbook's records through the pipeline's loaders, or None while it does not exist."""
    if not WORKBOOK.exists():
        return None
    from pipeline.core.errors import Report
    from pipeline.games import load_game
    from pipeline.validate import load_records
    report = Report()
    records = load_records(load_game("fightball", PROJECT_ROOT), PROJECT_ROOT, report)
    if records is None or report.errors:
        raise ValueError(f"sheets/fightball.xlsx does not load: {[str(e) for e in report.errors][:5]}")
    return records
