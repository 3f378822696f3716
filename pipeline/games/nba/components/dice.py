"""NBA Deck-Building's dice (shared/games/nba-deck-building.md §2, App. C "Dice" and "Colour never alone"):
six kinds of d6 printed as cube nets and as stickers, and the dice reference page (a conversion chart for
plain d6). No drawing here: templates and the values they are drawn with.

Colour never carries a meaning alone: every face shows its die's skill icon (beige, grey and brown are told
apart by it), and a coloured defensive value also carries the letter and the icon of the offensive skill
whose dice it cancels.
"""

from __future__ import annotations

from pipeline.core.errors import SourceRef
from pipeline.data.specs import Component, DiceSpec, DieSpec, FaceSpec, PageSpec, Records
from pipeline.games.nba.engine.rules import COLOUR_OF_DIE
from pipeline.games.nba.schema import DEFENCE_SKILLS, DICE, FACE_COLOURS

FACE_MM = 16.0              # cube edge of the nets: a standard die
STICKER_MM = 13.0           # stickers for standard 16 mm blank dice
PLAYERS = 2                 # dice sets when the components sheet does not say (§1.1: 2 sets of 60)
REFERENCE_MM = (190.0, 250.0)
DARK = "#1E1E1E"
WHITE = "#FFFFFF"
SKILL_OF_COLOUR = {colour: skill for skill, colour in COLOUR_OF_DIE.items()}


def dice_components(records: Records, rules: dict) -> list[Component]:
    skills = {rec["id"]: rec for rec in records["skills"]}
    faces = {(rec["die"], rec["face"]): rec for rec in records["dice"]}
    players = dice_sets(records, skills)
    dice = tuple(_die(skills, faces, skill, players) for skill in DICE if skill in skills)
    ref = records["dice"][0].ref if records["dice"] else None
    sheet_ref = SourceRef(ref.file, ref.sheet) if ref is not None else None
    return [DiceSpec("dice", "Dés", dice, FACE_MM, STICKER_MM, sheet_ref), reference_page(skills, faces)]


def dice_sets(records: Records, skills: dict) -> int:
    """Players' sets of dice: the components sheet's "dice" count over the dice one player owns, when it
    divides evenly; otherwise the game's two players."""
    per_player = sum(int(skills[s]["dice_per_player"] or 0) for s in DICE if s in skills)
    row = next((r for r in records.get("components", ()) if r["component"] == "dice"), None)
    if row is not None and per_player and row["count"] % per_player == 0 and row["count"]:
        return row["count"] // per_player
    return PLAYERS


def _die(skills: dict, faces: dict, skill: str, players: int) -> DieSpec:
    rec = skills[skill]
    specs = []
    for number in range(1, 7):
        face = faces.get((skill, number))
        context = face_context(skills, skill, number, face["value"] if face else 0,
                               face["colour"] if face else None)
        label = f"die {skill} face {number}"
        specs.append(FaceSpec("die-face.yaml", context, face.ref if face else rec.ref, f"{skill.lower()}-{number}",
                              label))
    caption = f"{rec['name']}, dé {rec['colour_name']}"
    return DieSpec(skill.lower(), skill, tuple(specs), int(rec["dice_per_player"] or 0) * players, caption)


# --- what a face is drawn with -----------------------------------------------------------------------------

def face_context(skills: dict, skill: str, number: int, value: int, colour: str | None) -> dict:
    """The values die-face.yaml (and the reference page's small faces) are drawn with."""
    rec = skills[skill]
    body = rec["colour"]
    counter = SKILL_OF_COLOUR.get(colour) if colour in FACE_COLOURS and value else None
    context = {**_skill_look(rec), "face": number, "value": value, "blank": not value,
               "underline": value in (6, 9),            # 6 and 9 read the same upside down
               "ink": _on(body), "counter": "", "counter_hex": "", "counter_letter": "", "counter_name": "",
               "counter_icon": "", "counter_has_icon": False, "disc": "", "counter_code": ""}
    if counter is not None and counter in skills:
        other = skills[counter]
        look = _skill_look(other)
        context.update(counter=colour, counter_hex=other["colour"], counter_letter=other["letter"],
                       counter_name=other["colour_name"], counter_icon=look["icon"],
                       counter_has_icon=look["has_icon"], counter_code=counter,
                       disc=_disc_for(other["colour"]))
    return context


def _skill_look(rec) -> dict:
    """A skill's name, colour and icon (the icon column, else icons/<id>.svg; a letter code when absent)."""
    icon = rec.get("icon") or f"icons/{rec['id']}.svg"
    return {"skill": rec["id"], "skill_name": rec["name"], "body": rec["colour"], "colour_name": rec["colour_name"],
            "letter": rec["letter"], "icon": icon, "has_icon": _icon_exists(icon)}


def _icon_exists(icon: str) -> bool:
    from pipeline import PROJECT_ROOT

    folder = (PROJECT_ROOT / "templates" / "nba").resolve()
    path = (folder / icon).resolve()
    return path.is_relative_to(folder) and path.is_file()


def _luminance(hex_colour: str) -> float:
    """WCAG relative luminance of #RRGGBB."""
    def channel(c: int) -> float:
        c = c / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: str, b: str) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def _on(background: str) -> str:
    """Dark or white ink, whichever reads better on `background`."""
    return WHITE if contrast(WHITE, background) >= contrast(DARK, background) else DARK


def _disc_for(colour: str) -> str:
    """The disc behind a coloured value: white under dark colours (blue, red), dark under light ones (yellow),
    so the number keeps its colour and stays legible on any die body."""
    return WHITE if contrast(colour, WHITE) >= contrast(colour, DARK) else DARK


# --- the reference page ------------------------------------------------------------------------------------

def _decimal(value: float) -> str:
    return f"{value:.2f}".replace(".", ",")


def reference_page(skills: dict, faces: dict) -> PageSpec:
    rows = []
    for skill in DICE:
        if skill not in skills:
            continue
        die_faces = [face_context(skills, skill, n, faces[(skill, n)]["value"] if (skill, n) in faces else 0,
                                  faces[(skill, n)]["colour"] if (skill, n) in faces else None) for n in range(1, 7)]
        total = sum(f["value"] for f in die_faces)
        against = [sum(f["value"] for f in die_faces if f["counter"] == colour) for colour in FACE_COLOURS]
        rows.append({**_skill_look(skills[skill]), "kind": skills[skill]["kind"], "ink": _on(skills[skill]["colour"]),
                     "faces": die_faces, "total": total, "mean": _decimal(total / 6),
                     "against": [{"total": t, "mean": _decimal(t / 6)} for t in against]})
    colours = []
    for colour in FACE_COLOURS:
        skill = SKILL_OF_COLOUR[colour]
        if skill in skills:
            colours.append({**_skill_look(skills[skill]), "colour": colour, "disc": _disc_for(skills[skill]["colour"])})
    defence = [row for row in rows if row["skill"] in DEFENCE_SKILLS]
    context = {"dice": rows, "defence": defence, "colours": colours}
    first = next(iter(faces.values()), None)
    return PageSpec("dice-reference", "Référence des dés",
                    (FaceSpec("dice-reference.yaml", context, first.ref if first else None, "dice-reference",
                              "Référence des dés"),), REFERENCE_MM)
