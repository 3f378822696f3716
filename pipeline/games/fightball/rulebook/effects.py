"""The special effects as the rulebook explains them: every effect card of the workbook, team by team, with
its printed text and what its operations (sheet effect_ops, the closed vocabulary of shared/games/
fightball.md §3.3) do, in French sentences built from the operations and the rules sheet's numbers."""

from __future__ import annotations

from pipeline.data.specs import Records
from pipeline.games.fightball.components import ZONE_COLOURS

COLOUR_NAMES = {code: names[1] for code, names in ZONE_COLOURS.items()}     # "en vert"
CELL_NAMES = {code: names[2] for code, names in ZONE_COLOURS.items()}       # "une case verte"


def _number(arg) -> int:
    return int(float(str(arg).strip()))


def _points(n: int) -> str:
    return f"{n} point{'s' if abs(n) > 1 else ''}"


def explain(op: str, arg, rules: dict) -> str:
    """One operation in French: what it changes, and when (before the threshold, or on a successful play)."""
    threshold = rules["threshold"]
    before = f"Avant la comparaison à {threshold}"
    if op == "ADD_TOTAL":
        n = _number(arg)
        if n >= 0:
            return f"{before}, le total gagne {n} : une action qui ferait {threshold - n} passe."
        return f"{before}, le total perd {-n} : une action qui ferait {threshold - n - 1} échoue."
    if op == "IGNORE_DEFENDERS":
        return f"{before}, les défenseurs posés plus bas ne retirent rien ; ceux posés au-dessus comptent."
    if op == "USE_COLOUR":
        code = str(arg).strip().upper()
        return (f"{before}, attaque, défense, balle et tir se lisent en {COLOUR_NAMES[code]}, comme sur une case "
                f"{CELL_NAMES[code]} ; l'action rapporte quand même les points de sa vraie case.")
    if op == "ADD_POINTS":
        return f"Si l'action réussit, {_points(_number(arg))} de plus."
    if op == "MULTIPLY_POINTS":
        return (f"Si l'action réussit, ses points sont multipliés par {_number(arg)}, y compris ce que les effets "
                "plus bas ont ajouté.")
    if op == "SET_POINTS":
        return (f"Si l'action réussit, elle vaut {_points(_number(arg))}, quelle que soit la case ; ce que les "
                "effets plus bas faisaient à ses points ne compte plus.")
    if op == "MOVE_PLAY":
        best = max(rules["zone_points_g"], rules["zone_points_rb"])
        if str(arg).strip().lower() == "best":
            where = f"sur la case la plus chère où l'attaquant pouvait attaquer ({_points(best)})"
        else:
            where = f"sur une case {CELL_NAMES[str(arg).strip().upper()]} où l'attaquant pouvait attaquer"
        return (f"Si l'action réussit, elle compte comme marquée {where}. Les cartes ne bougent pas et les autres "
                "piles ne changent pas.")
    if op == "STEAL":
        return ("Si l'action réussit, ses points vont à l'adversaire de l'attaquant, quel que soit le coach qui a "
                "posé l'effet. Les points de faute ne changent jamais de camp.")
    if op == "CANCEL_EFFECTS_BELOW":
        return "Les cartes effet posées plus bas dans l'action ne font plus rien ; celles posées au-dessus agissent."
    if op == "FOUL":
        n, against = str(arg).split()
        who, other = ("l'équipe qui attaque", "la défense") if against == "attacking" else ("la défense", "l'attaque")
        return f"Si l'action réussit, {who} commet une faute : {other} marque {_points(int(n))} de faute, qu'aucun effet ne vole."
    raise ValueError(f"unknown effect op {op!r}")


def effect_cards(records: Records, rules: dict) -> list[dict]:
    """Per team (sheet order): its effect cards (sheet order) with their text, copies and explanations."""
    ops: dict[str, list] = {}
    for rec in sorted(records["effect_ops"], key=lambda r: (r["effect"], r["order"])):
        ops.setdefault(rec["effect"], []).append(rec)
    teams = []
    for team in records["teams"]:
        cards = []
        for rec in records["effects"]:
            if rec["team"] != team["id"]:
                continue
            mine = ops.get(rec["id"], [])
            cards.append({"id": rec["id"], "name": rec["name"], "text": rec["text"], "copies": rec["copies"],
                          "ops": [o["op"] for o in mine],
                          "explained": " ".join(explain(o["op"], o["arg"], rules) for o in mine)})
        teams.append({"id": team["id"], "name": team["name"], "cards": cards,
                      "count": sum(card["copies"] for card in cards)})
    return teams
