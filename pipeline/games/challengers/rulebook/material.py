"""What Challengers' rulebook says about the box and the tables of the workbook: the sets and their cards, the
starter deck, the draft schedule, the trophies, the robot's decks and levels, the other components (sheet
components), all read from the records, never typed twice."""

from __future__ import annotations

import math

from pipeline.data.specs import Records

LEVELS = ("S", "A", "B", "C")                   # the players' cards; R and SOLO are the robot's
KEYWORD_WORDS = {                               # the bold keyword as the cards print it
    "none": "",
    "on_attack": "Durant l'attaque",
    "from_bench": "Depuis le banc",
    "holding_flag": "En possession du drapeau",
    "losing_flag": "Perte du drapeau",
    "when_selected": "Lorsque sélectionnée",
}
SYMBOL_WORDS = {"tour": "une tour", "fusee": "une fusée", "ancre": "une ancre", "couronne": "une couronne",
                "trophee": "un trophée", "arbre": "un arbre", "chapiteau": "un chapiteau",
                "engrenage": "un engrenage", "etoile": "une étoile", "vague": "une vague"}
RARITY_WORDS = {"rare": "Rare", "common": "Commune"}


def copies(rec) -> int:
    """A card's copies in the box: the copies cell, else 4 (a normal card)."""
    value = rec["copies"]
    return 4 if value in (None, "") else int(value)


def card_row(rec) -> dict:
    """One card as the chapters print it."""
    keyword = rec["keyword"] or "none"
    return {"id": rec["id"], "name": rec["name"], "set": rec["set"], "level": rec["level"],
            "strength": int(rec["strength"]), "copies": copies(rec), "rarity": rec["rarity"] or "normal",
            "rarity_word": RARITY_WORDS.get(rec["rarity"] or "normal", ""), "keyword": keyword,
            "keyword_word": KEYWORD_WORDS[keyword], "text": rec["text"] or ""}


def _by_level(cards: list[dict]) -> list[dict]:
    order = {level: i for i, level in enumerate(("S", "A", "B", "C", "R", "SOLO"))}
    return sorted(cards, key=lambda c: (order[c["level"]], c["strength"], c["name"]))


def box_copies(records: Records, players_max: int) -> dict[str, int]:
    """card id -> copies in the box: a starter card's copies per player times the most players, any other
    card its copies."""
    per_player = {rec["card"]: int(rec["copies_per_player"]) for rec in records["starter"]}
    return {rec["id"]: per_player[rec["id"]] * players_max if rec["id"] in per_player else copies(rec)
            for rec in records["cards"]}


def sets(records: Records, players_max: int) -> list[dict]:
    """Every set in sheet order: name, symbol, identity, its cards by level (with their copies in the box),
    the timings its cards use, and its cards counted by level (names and copies)."""
    box = box_copies(records, players_max)
    out = []
    for rec in records["sets"]:
        cards = _by_level([dict(card_row(c), copies=box[c["id"]]) for c in records["cards"] if c["set"] == rec["id"]])
        levels = {level: {"names": sum(1 for c in cards if c["level"] == level),
                          "copies": sum(c["copies"] for c in cards if c["level"] == level)}
                  for level in ("S", "A", "B", "C", "R", "SOLO")}
        timings = sorted({c["keyword"] for c in cards} - {"none"}, key=list(KEYWORD_WORDS).index)
        out.append({"id": rec["id"], "name": rec["name"], "symbol": rec["symbol"],
                    "symbol_word": SYMBOL_WORDS.get(rec["symbol"], rec["symbol"]), "colour": rec["colour"],
                    "always_used": bool(rec["always_used"]), "robot": bool(rec["robot"]),
                    "identity": rec["identity"] or "", "cards": cards, "levels": levels,
                    "timings": [KEYWORD_WORDS[t] for t in timings],
                    "reveal_effects": any(c["keyword"] == "none" and c["text"] for c in cards),
                    "names": len(cards), "copies": sum(c["copies"] for c in cards)})
    return out


def starter(records: Records) -> dict:
    """Each player's starting deck: its cards (name, strength, copies, text) and its size."""
    cards = {rec["id"]: card_row(rec) for rec in records["cards"]}
    rows = [dict(cards[rec["card"]], per_player=int(rec["copies_per_player"]))
            for rec in records["starter"] if rec["card"] in cards]
    rows.sort(key=lambda c: (c["strength"], c["name"]))
    return {"cards": rows, "size": sum(c["per_player"] for c in rows), "figures": [f"card-{c['id']}" for c in rows],
            "strength": sum(c["strength"] * c["per_player"] for c in rows)}


def schedule(records: Records) -> list[dict]:
    """Per round (in order): its options, each a level, a hand size and a number of cards kept."""
    rounds: dict[int, list] = {}
    for rec in sorted(records["schedule"], key=lambda r: (r["round"], r["option"])):
        rounds.setdefault(int(rec["round"]), []).append(
            {"level": rec["level"], "draw": int(rec["draw"]), "keep": int(rec["keep"])})
    return [{"round": r, "options": options} for r, options in sorted(rounds.items())]


def trophies(records: Records) -> dict:
    """Per round: the trophies' values (lowest first), tokens per value and their number; the box's total."""
    rounds: dict[int, dict] = {}
    for rec in records["trophies"]:
        entry = rounds.setdefault(int(rec["round"]), {"round": int(rec["round"]), "values": [], "count": 0,
                                                      "tokens": {}})
        if int(rec["count"]) > 0:
            entry["values"].append(int(rec["value"]))
            entry["tokens"][int(rec["value"])] = int(rec["count"])
        entry["count"] += int(rec["count"])
    rows = [dict(entry, values=sorted(entry["values"])) for _, entry in sorted(rounds.items())]
    return {"rounds": rows, "total": sum(row["count"] for row in rows)}


def robot(records: Records) -> dict:
    """The robot's deck for each round, its levels (swaps, advice) and the solo challenge's cards."""
    cards = {rec["id"]: card_row(rec) for rec in records["cards"]}
    decks: dict[int, list] = {}
    for rec in records["robot_decks"]:
        if rec["card"] in cards:
            decks.setdefault(int(rec["round"]), []).append(dict(cards[rec["card"]], per_deck=int(rec["copies"])))
    rounds = [{"round": r, "cards": _by_level(rows), "size": sum(c["per_deck"] for c in rows),
               "strength": sum(c["per_deck"] * c["strength"] for c in rows)} for r, rows in sorted(decks.items())]
    solo: dict[int, list] = {}
    for rec in records["solo_cards"]:
        if rec["card"] in cards:
            solo.setdefault(int(rec["round"]), []).append(dict(cards[rec["card"]], per_deck=int(rec["copies"] or 1)))
    levels = [{"level": int(rec["level"]), "swaps": int(rec["swaps"]), "note": rec["note"] or ""}
              for rec in sorted(records["robot_levels"], key=lambda r: r["level"])]
    own = [c for c in cards.values() if any(s["id"] == c["set"] and s["robot"] for s in records["sets"])]
    return {"rounds": rounds, "levels": levels,
            "solo": [{"round": r, "cards": rows} for r, rows in sorted(solo.items())],
            "r_cards": _by_level([c for c in own if c["level"] == "R"]),
            "solo_cards": _by_level([c for c in own if c["level"] == "SOLO"]),
            "base_names": len({c["name"] for deck in rounds for c in deck["cards"]})}


def components(records: Records) -> list[dict]:
    """The components sheet's rows that are neither cards (the chapters count them set by set, from the cards
    sheet) nor the rulebook itself."""
    return [{"id": rec["component"], "label": rec["label"] or rec["component"], "count": int(rec["count"]),
             "notes": rec["notes"] or ""}
            for rec in records["components"]
            if not rec["component"].startswith("card") and rec["component"] != "rulebook"]


def announced(records: Records) -> dict[str, int]:
    """component id -> the count the components sheet announces (cards_<set> among them)."""
    return {rec["component"]: int(rec["count"]) for rec in records["components"]}


def counts(records: Records, rules: dict) -> dict:
    """The numbers the chapters print: cards per level and in all, sets in a game."""
    all_sets = sets(records, rules["players_max"])
    players = [s for s in all_sets if not s["robot"]]
    per_level = {level: sum(s["levels"][level]["copies"] for s in players) for level in LEVELS}
    others = [s for s in players if not s["always_used"]]
    return {"sets": len(players), "other_sets": len(others), "per_level": per_level,
            "player_cards": sum(s["copies"] for s in players),
            "robot_cards": sum(s["copies"] for s in all_sets if s["robot"]),
            "selections": math.comb(len(others), rules["sets_per_game"])}
