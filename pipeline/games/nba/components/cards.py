"""NBA Deck-Building's cards, boards, player aid and score sheet (shared/games/nba-deck-building.md §1, App. C):
records -> FaceSpecs with their contexts. No drawing here: templates/nba/*.yaml draw, and every number or word
they print comes from the workbook (skills, dice, players, tactics, fatigue, durations, rules)."""

from __future__ import annotations

from pipeline.data.schema import expand
from pipeline.data.specs import BoardSpec, CardDeck, Component, FaceSpec, PageSpec, Records
from pipeline.games.nba.components.boards import court_layout, markets_layout
from pipeline.games.nba.engine.rules import COLOUR_OF_DIE, offensive_rerolls
from pipeline.games.nba.schema import DEFENCE_SKILLS, DICE, OFFENCE_SKILLS, POSITIONS

POKER = (63.5, 88.9)
AID = (148.0, 210.0)            # A5, printed on A4 or Letter and cut
SCORE_SHEET = (190.0, 254.0)
BACK = FaceSpec("back.yaml", {}, None, "back", "common back")

POSITION_NAMES = {"MJ": "Meneur de jeu", "Ar": "Arrière", "Ai": "Ailier", "AF": "Ailier fort", "P": "Pivot"}
KIND_LABELS = {"starter": "Titulaire", "substitute": "Remplaçant", "nba": ""}
TYPE_WORDS = {  # tactic type: label, where its slot is on the Court board, the arrow that shows it
    "offence": ("Offensive", "au-dessus des joueurs", "arrow_up"),
    "defence": ("Défensive", "sous les joueurs", "arrow_down"),
}
SKILL_OF_FACE_COLOUR = {colour: die for die, colour in COLOUR_OF_DIE.items()}   # blue -> 3P: what a face counters


def card_components(records: Records, rules: dict) -> list[Component]:
    skills, manifest = skill_table(records), announced(records)
    return [players(records, skills), tactics(records, skills), fatigue(records),
            court(rules, manifest.get("court_board", 1)), markets(rules),
            aid(records, rules, skills, manifest.get("player_aid", 1)), score_sheet(records, rules)]


def announced(records: Records) -> dict[str, int]:
    """The components sheet's counts: how many copies of a board or an aid a game needs."""
    return {r["component"]: r["count"] for r in records.get("components", ())}


# --- colours and skills ---------------------------------------------------------------------------------------

def _rgb(hex_colour: str) -> tuple[int, int, int]:
    value = hex_colour.lstrip("#")
    return int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16)


def tint(hex_colour: str, strength: float = 0.22) -> str:
    """The colour washed out towards white (a pale background of that colour)."""
    return "#%02X%02X%02X" % tuple(round(255 - (255 - c) * strength) for c in _rgb(hex_colour))


def text_ink(hex_colour: str) -> str:
    """The colour itself when it is dark enough for text on white, else a darker shade of it."""
    r, g, b = _rgb(hex_colour)
    if 0.299 * r + 0.587 * g + 0.114 * b < 140:
        return "#%02X%02X%02X" % (r, g, b)
    return "#%02X%02X%02X" % (r // 2, g // 2, b // 2)


def skill_table(records: Records) -> dict[str, dict]:
    """Skill id -> what the templates print for it: name, colour (and its pale and text shades), colour name,
    letter and the icon file (the sheet's `icon` cell, else icons/<id>.svg)."""
    table = {}
    for rec in records["skills"]:
        colour = rec["colour"]
        table[rec["id"]] = {"id": rec["id"], "name": rec["name"], "label": short_label(rec["name"]),
                            "kind": rec["kind"], "colour": colour,
                            "tint": tint(colour), "ink": text_ink(colour), "colour_name": rec["colour_name"],
                            "letter": rec["letter"], "icon": rec.get("icon") or f"icons/{rec['id']}.svg"}
    return table


LABEL_CHARS = 14    # what a rating tile of a Player card holds under its icon at 6 pt


def short_label(name: str) -> str:
    """A skill's name as a rating tile prints it: whole when it fits ("Jeu intérieur"), else its first word
    ("Intelligence de jeu" -> "Intelligence"), the word the aid and the rulebook lead with."""
    return name if len(name) <= LABEL_CHARS else name.split()[0]


def _card(index: int, copy: int, copies: int) -> dict:
    return {"index": index, "copy": copy, "copies": copies}


def _set_marker(set_name: str, initiation: bool) -> str:
    """Bottom-left marker of starting cards: "A", or "A · Initiation"; nothing on market cards."""
    if set_name not in ("A", "B"):
        return ""
    return f"{set_name} · Initiation" if initiation else set_name


def _cost_text(cost) -> str:
    return "–" if cost in (None, "") else str(cost)


# --- cards ------------------------------------------------------------------------------------------------------

def positions_of(text: str) -> list[str]:
    return [p.strip() for p in str(text).split("/") if p.strip()]


def player_context(rec, skills: dict[str, dict]) -> dict:
    positions = positions_of(rec["positions"])
    first = positions[0].lower() if positions else "mj"
    return {
        **rec.values,
        "position_list": positions,
        "position_words": " · ".join(POSITION_NAMES.get(p, p) for p in positions),
        "kind_label": KIND_LABELS[rec["kind"]],
        "set_marker": _set_marker(rec["set"], rec["initiation"]),
        "cost_text": _cost_text(rec["cost"]),
        "art_src": rec["art"] or f"art/position_{first}.svg",
        "offence": [{**skills[s], "value": rec[s]} for s in OFFENCE_SKILLS],
        "defence": [{**skills[s], "value": rec[s]} for s in DEFENCE_SKILLS],
        "others": [{**skills[s], "value": rec[s]} for s in ("RB", "GI")],
    }


def players(records: Records, skills: dict[str, dict]) -> CardDeck:
    rows = records["players"]
    fronts = tuple(FaceSpec("player.yaml", {**player_context(rec, skills), "card": _card(i, 1, 1)}, rec.ref,
                            rec["id"], f"{rec['name']} (players row {rec.ref.row})")
                   for i, rec in enumerate(rows, start=1))
    return CardDeck("players", "Joueurs", fronts, tuple(BACK for _ in fronts), POKER)


def tactic_context(rec, skills: dict[str, dict]) -> dict:
    label, slot_words, arrow = TYPE_WORDS[rec["type"]]
    squares = [{**skills[s], "keep": rec[f"keep_{s}"]} for s in DICE if rec[f"keep_{s}"]]
    return {**rec.values, "type_label": label, "slot_words": slot_words, "arrow": arrow, "squares": squares,
            "dice_kept": sum(sq["keep"] for sq in squares), "set_marker": _set_marker(rec["set"], rec["initiation"]),
            "cost_text": _cost_text(rec["cost"])}


def tactics(records: Records, skills: dict[str, dict]) -> CardDeck:
    fronts = []
    for index, (rec, copy, copies) in enumerate(expand(records["tactics"], "copies"), start=1):
        fronts.append(FaceSpec("tactic.yaml", {**tactic_context(rec, skills), "card": _card(index, copy, copies)},
                               rec.ref, f"{rec['id']}-{copy}",
                               f"{rec['name']} (tactics row {rec.ref.row}, copy {copy}/{copies})"))
    return CardDeck("tactics", "Tactiques", tuple(fronts), tuple(BACK for _ in fronts), POKER)


def fatigue(records: Records) -> CardDeck:
    fronts = []
    for index, (rec, copy, copies) in enumerate(expand(records["fatigue"], "copies"), start=1):
        fronts.append(FaceSpec("fatigue.yaml", {**rec.values, "card": _card(index, copy, copies)}, rec.ref,
                               f"{rec['id']}-{copy}", f"{rec['name']} (fatigue row {rec.ref.row}, copy {copy})"))
    return CardDeck("fatigue", "Fatigue", tuple(fronts), tuple(BACK for _ in fronts), POKER)


# --- boards -----------------------------------------------------------------------------------------------------

def court(rules: dict, copies: int = 1) -> BoardSpec:
    layout = court_layout(rules["offence_slots"], rules["defence_slots"],
                          [(p, POSITION_NAMES[p]) for p in POSITIONS])
    face = FaceSpec("court.yaml", layout, None, "court", "the Court board", size_mm=layout["size"])
    return BoardSpec("court", "Terrain", face, layout["size"], copies)


def markets(rules: dict) -> BoardSpec:
    layout = markets_layout(rules["track_slots"], rules["market_slots"])
    face = FaceSpec("markets.yaml", layout, None, "markets", "the Markets board", size_mm=layout["size"])
    return BoardSpec("markets", "Marchés", face, layout["size"])


# --- player aid and score sheet ------------------------------------------------------------------------------------

def duration(records: Records, rules: dict) -> dict:
    """The durations row of the game length chosen in the rules sheet."""
    return next(dict(r.values) for r in records["durations"] if r["length"] == rules["length"])


def dice_tables(records: Records, skills: dict[str, dict]) -> list[dict]:
    """One table per die: its skill (colour, letter, icon) and faces 1-6 with, on defensive dice, the offensive
    skill whose colour the face shows (the die it can cancel)."""
    faces: dict[str, list] = {die: [] for die in DICE}
    for rec in sorted(records["dice"], key=lambda r: (r["die"], r["face"])):
        counters = SKILL_OF_FACE_COLOUR.get(rec["colour"]) if rec["colour"] else None
        faces[rec["die"]].append({"face": rec["face"], "value": rec["value"],
                                  "counters": skills[counters] if counters else None})
    return [{**skills[die], "faces": faces[die], "total": sum(f["value"] for f in faces[die])} for die in DICE]


def aid_context(records: Records, rules: dict, skills: dict[str, dict]) -> dict:
    rerolls = [{"difference": d, "rerolls": offensive_rerolls(d, 0, rules["reroll_divisor"])} for d in range(1, 10)]
    return {"rules": rules, "duration": duration(records, rules), "skills": skills,
            "offence": [skills[s] for s in OFFENCE_SKILLS], "defence": [skills[s] for s in DEFENCE_SKILLS],
            "dice": dice_tables(records, skills), "rerolls": rerolls,
            "positions": [{"code": p, "name": POSITION_NAMES[p]} for p in POSITIONS]}


def aid(records: Records, rules: dict, skills: dict[str, dict], copies: int = 1) -> PageSpec:
    context = aid_context(records, rules, skills)
    faces = (FaceSpec("aid-front.yaml", context, None, "aid-front", "player aid, front"),
             FaceSpec("aid-back.yaml", context, None, "aid-back", "player aid, back"))
    return PageSpec("aid", "Aide de jeu", faces, AID, copies)


def score_sheet(records: Records, rules: dict) -> PageSpec:
    length = duration(records, rules)
    context = {"rules": rules, "turns": length["turns_per_player"], "length_label": length["label"],
               "overtimes": rules["overtime_max"] if rules["overtime_enabled"] else 0,
               "overtime_rows": max(1, rules["overtime_turns"] // 2)}
    face = FaceSpec("score-sheet.yaml", context, None, "score-sheet", "score sheet")
    return PageSpec("score-sheet", "Feuille de marque", (face,), SCORE_SHEET)
