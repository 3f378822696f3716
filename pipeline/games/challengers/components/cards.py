"""The cards: one deck per set (the City set with every player's starter cards, the six others, the robot's),
every copy a face of templates/challengers/card.yaml.

A card prints its strength in both top corners, its name, its set's symbol (large in the middle and small at
the foot: the symbol carries the set, the colour only repeats it), the level letter(s) bottom right, "Rare n"
or "Commune n" when the box does not hold 4 copies, and the keyword in bold before the effect text.

Backs. Players draft from shared level piles (A, B, C) and keep the starter cards (S) apart: a card returned
to the wrong pile would change what others draw, so the back shows the level letter (back.yaml), one back
per level for every set (a pile mixes the sets in play). The robot's cards have their own back
(back-robot.yaml): its base cards, its R cards (the level swaps) and its SOLO cards are three piles, the last
two marked on the back. A match has no hidden choice that the letter on the next card's back could inform."""

from __future__ import annotations

from pipeline.data.specs import CardDeck, FaceSpec, Records
from pipeline.render.colours import ink_on, shade, tint

POKER = (63.5, 88.9)
KEYWORDS = {            # schema.KEYWORDS -> the bold words printed before the effect (French)
    "none": "",
    "on_attack": "Durant l'attaque",
    "from_bench": "Depuis le banc",
    "holding_flag": "En possession du drapeau",
    "losing_flag": "Perte du drapeau",
    "when_selected": "Lorsque sélectionnée",
}
RARITY_WORDS = {"rare": "Rare", "common": "Commune"}
NORMAL_COPIES = 4
BACK_LABELS = {"S": "DÉPART", "A": "NIVEAU A", "B": "NIVEAU B", "C": "NIVEAU C"}
ROBOT_PILES = {"R": "RENFORTS", "SOLO": "DÉFI SOLO"}    # the robot's cards that wait in their own pile


def set_looks(records: Records) -> dict[str, dict]:
    """set id -> what every face of the set prints: its name, symbol, colour and the inks that read on it."""
    looks = {}
    for rec in records["sets"]:
        colour = rec["colour"]
        looks[rec["id"]] = {"id": rec["id"], "name": rec["name"], "symbol": rec["symbol"],
                            "symbol_src": f"symbols/{rec['symbol']}.svg", "colour": colour, "ink": ink_on(colour),
                            "shade": shade(colour), "tint": tint(colour), "robot": bool(rec["robot"]),
                            "always_used": bool(rec["always_used"])}
    return looks


def rarity_mark(rec) -> str:
    """"Rare 2" / "Commune 6" for a card the box does not hold 4 of; empty for a normal card."""
    word = RARITY_WORDS.get(rec["rarity"])
    return f"{word} {rec['copies']}" if word else ""


def printed_copies(rec, starter: dict[str, int], players_max: int) -> int:
    """Copies in the box: a starter card once per player's starting deck, any other card its copies
    (4 when a normal card leaves the cell empty)."""
    if rec["level"] == "S" and rec["id"] in starter:
        return starter[rec["id"]] * players_max
    return rec["copies"] if rec["copies"] is not None else NORMAL_COPIES


def card_context(rec, look: dict) -> dict:
    return {"id": rec["id"], "name": rec["name"], "strength": rec["strength"], "level": rec["level"],
            "rarity": rarity_mark(rec), "keyword": KEYWORDS[rec["keyword"]], "text": rec["text"] or "",
            "set": look}


def back_face(look: dict, level: str) -> FaceSpec:
    if look["robot"]:
        pile = ROBOT_PILES.get(level, "")
        return FaceSpec("back-robot.yaml", {"set": look, "level": level if pile else "", "pile": pile}, None,
                        f"back-robot-{level if pile else 'base'}", f"robot back{', ' + pile if pile else ''}")
    return FaceSpec("back.yaml", {"level": level, "label": BACK_LABELS[level]}, None, f"back-{level}",
                    f"back, level {level}")


def set_deck(records: Records, look: dict, players_max: int) -> CardDeck:
    starter = {r["card"]: r["copies_per_player"] for r in records["starter"]}
    fronts, backs = [], []
    for rec in (r for r in records["cards"] if r["set"] == look["id"]):
        copies = printed_copies(rec, starter, players_max)
        context = card_context(rec, look)
        for copy in range(1, copies + 1):
            card = {"index": len(fronts) + 1, "copy": copy, "copies": copies}
            fronts.append(FaceSpec("card.yaml", {**context, "card": card}, rec.ref, f"{rec['id']}-{copy}",
                                   f"{rec['name']} (cards row {rec.ref.row}, copy {copy}/{copies})"))
            backs.append(back_face(look, rec["level"]))
    return CardDeck(f"cards-{look['id']}", f"Cartes {look['name']}", tuple(fronts), tuple(backs), POKER)


def card_decks(records: Records, rules: dict, looks: dict[str, dict]) -> list[CardDeck]:
    """One deck per set, in the sets sheet's order (the robot's last if it is last there)."""
    return [set_deck(records, look, rules["players_max"]) for look in looks.values()]


def card_face(records: Records, card_id: str) -> FaceSpec:
    """The first copy's face of a card (a rulebook figure)."""
    rec = next(r for r in records["cards"] if r["id"] == card_id)
    look = set_looks(records)[rec["set"]]
    card = {"index": 1, "copy": 1, "copies": 1}
    return FaceSpec("card.yaml", {**card_context(rec, look), "card": card}, rec.ref, f"{card_id}-1", rec["name"])
