"""All-Star Draft's records -> what to print (shared/games/all-star-draft.md §1): 108 hockey cards, 15 arenas,
6 Fan Zones, the Bus Station, 6 Tie-Breakers cards (both sides as duplex pairs), 2 Play-Off Points cards,
bus, supporter and ticket tokens, a player aid page and the rulebook. Templates and contexts only."""

from __future__ import annotations

from pipeline.data.specs import CardDeck, Component, FaceSpec, PageSpec, Records
from pipeline.games.allstar.schema import RULE_PARAMETERS
from pipeline.games.kit import parameters_from_rules

POKER = (63.5, 88.9)
LARGE = (88.0, 126.0)
TOKEN = (18.0, 18.0)
# The Fan Zone's supporter track: `track_length` spaces in rows of TRACK_COLUMNS inside TRACK_AREA_MM (w, h), down
# the card's left side. fanzone.yaml draws the spaces from fan_track(); a supporter token is cut from the same
# numbers, TOKEN_CLEARANCE_MM narrower than a space's inside, so it sits in one space with room to lift it whatever
# the track's length (issue 20: 10 mm tokens on 7.4 mm spaces; issue 29: 7 mm tokens on 7.4 mm spaces, now 9.2 mm).
TRACK_COLUMNS = 5
TRACK_AREA_MM = (49.0, 98.0)
TRACK_ROW_MAX_MM = 9.8       # a row no taller than this when few rows are needed
TRACK_GAP_MM = 0.6           # paper between two spaces
TOKEN_CLEARANCE_MM = 2.2     # a token this much narrower than a space (2 mm or more: fingers to lift it)
TICKET = (36.0, 18.0)
AID = (148.0, 210.0)            # A5: an aid per manager, two a sheet

COLOURS = (  # manager colours: id, French name, letter (colour never carries the meaning alone), ink
    ("blue", "Bleu", "B", "#2E6FD0"), ("yellow", "Jaune", "J", "#E8B823"), ("red", "Rouge", "R", "#C8372D"),
    ("green", "Vert", "V", "#2E9E5B"), ("orange", "Orange", "O", "#E07B22"), ("black", "Noir", "N", "#333333"),
)
ICONS = {  # special arena icons: French label and the rule in one line
    "unusual_count": ("Décompte inhabituel", "Cette arène ne récompense pas les rangs dans l'ordre habituel."),
    "not_for_2": ("Pas à deux", "Retirez cette arène des parties à 2 managers."),
    "straight_beats_5": ("Suite", "Cinq numéros qui se suivent battent une équipe de puissance 5."),
    "full_house_beats_5": ("Full", "Un groupe de 3 et un groupe de 2 battent une équipe de puissance 5."),
    "all_symbols_beats_5": ("Panoplie", "Les 5 symboles différents battent une équipe de puissance 5."),
}
ATTRIBUTE_LABELS = {"symbol": "Symbole", "number": "Numéro", "species": "Espèce"}
MEDALS = ("or", "argent", "bronze")


parameters = parameters_from_rules(RULE_PARAMETERS)     # parameters(records): the rules sheet, typed, as a dict


def colours() -> list[dict]:
    return [{"id": c, "name": name, "letter": letter, "hex": ink} for c, name, letter, ink in COLOURS]


def _card(index: int, copies: int) -> dict:
    return {"index": index, "copy": index, "copies": copies}


def components(records: Records) -> list[Component]:
    """Everything printed but the rulebook, which shows these (rulebook.with_rulebook adds it)."""
    rules = parameters(records)
    return [hockey(records), arenas(records), large_cards(rules), tiebreakers(records),
            playoff_cards(records, rules), buses(), supporters(rules), tickets(), aid(records, rules)]


def hockey(records: Records) -> CardDeck:
    species = {r["id"]: dict(r.values) for r in records["species"]}
    symbols = {r["id"]: dict(r.values) for r in records["symbols"]}
    rows = records["hockey"]
    fronts, backs = [], []
    for index, rec in enumerate(rows, start=1):
        context = {"id": rec["id"], "number": rec["number"], "species": species[rec["species"]],
                   "symbol": symbols[rec["symbol"]], "card": _card(index, len(rows))}
        label = f"{species[rec['species']]['name']} {rec['number']} (hockey row {rec.ref.row})"
        fronts.append(FaceSpec("hockey.yaml", context, rec.ref, rec["id"], label))
        backs.append(FaceSpec("back-hockey.yaml", {"card": context["card"]}, rec.ref, f"{rec['id']}-back", "back"))
    return CardDeck("hockey", "Hockeyeurs", tuple(fronts), tuple(backs), POKER)


def arena_context(rec) -> dict:
    icons = [i.strip() for i in (rec["icons"] or "").split(",") if i.strip()]
    return {"id": rec["id"], "name": rec["name"], "points": [rec[f"p{r}"] for r in range(1, 7)], "icons": icons,
            "text": rec["text"]}


def arenas(records: Records) -> CardDeck:
    rows = records["arenas"]
    fronts, backs = [], []
    for index, rec in enumerate(rows, start=1):
        context = {**arena_context(rec), "card": _card(index, len(rows))}
        fronts.append(FaceSpec("arena.yaml", context, rec.ref, rec["id"], f"{rec['name']} (arenas row {rec.ref.row})"))
        backs.append(FaceSpec("back-arena.yaml", {"card": context["card"]}, rec.ref, f"{rec['id']}-back", "back"))
    return CardDeck("arenas", "Arènes", tuple(fronts), tuple(backs), LARGE)


def fan_track(track_length: int) -> dict:
    """The supporter track's spaces (mm): pitch (cell_w, cell_h) and the paper gap between two spaces."""
    rows = max(1, -(-track_length // TRACK_COLUMNS))
    width, height = TRACK_AREA_MM
    return {"cols": TRACK_COLUMNS, "rows": rows, "cell_w": width / TRACK_COLUMNS,
            "cell_h": min(TRACK_ROW_MAX_MM, height / rows), "gap": TRACK_GAP_MM}


def supporter_side(track: dict) -> float:
    """A supporter token's side: the inside of one track space, less a little clearance."""
    return round(min(track["cell_w"], track["cell_h"]) - track["gap"] - TOKEN_CLEARANCE_MM, 2)


def large_cards(rules: dict) -> CardDeck:
    """The six Fan Zones and the Bus Station share a sheet and a back."""
    track = fan_track(rules["track_length"])
    fronts = [FaceSpec("fanzone.yaml", {"colour": colour, "track_length": rules["track_length"], "track": track,
                                        "card": _card(i, 6)}, None, f"fanzone-{colour['id']}",
                       f"Fan Zone {colour['name']}") for i, colour in enumerate(colours(), start=1)]
    fronts.append(FaceSpec("busstation.yaml", {"card": _card(1, 1)}, None, "busstation", "the Bus Station"))
    backs = [FaceSpec("back-large.yaml", {"card": face.context["card"]}, None, f"{face.name}-back", "back")
             for face in fronts]
    return CardDeck("fanzones", "Fan Zones et Station de Bus", tuple(fronts), tuple(backs), LARGE)


def tiebreak_context(records: Records, side: str) -> dict:
    sides = {r["side"]: r for r in records["tiebreak_sides"]}
    species = {r["id"]: r for r in records["species"]}
    symbols = {r["id"]: r for r in records["symbols"]}
    criteria = []
    for rank, medal in enumerate(MEDALS, start=1):
        attribute = sides[side][{1: "gold", 2: "silver", 3: "bronze"}[rank]]
        rows = sorted((r for r in records["orders"] if r["side"] == side and r["attribute"] == attribute),
                      key=lambda r: r["position"])
        values = []
        for row in rows:
            value = str(row["value"])
            if attribute == "symbol":
                values.append({"value": value, "label": symbols[value]["name"], "icon": value, "coloradd": None})
            elif attribute == "species":
                values.append({"value": value, "label": species[value]["name"], "icon": None,
                               "coloradd": species[value]["coloradd_code"]})
            else:
                values.append({"value": value, "label": value, "icon": None, "coloradd": None})
        criteria.append({"medal": medal, "rank": rank, "attribute": attribute,
                         "label": ATTRIBUTE_LABELS[attribute], "values": values})
    label = "2 à 4 managers" if side == "2-4" else "5 à 6 managers"
    return {"side": side, "managers_label": label, "criteria": criteria}


def tiebreakers(records: Records) -> CardDeck:
    """Six double-sided cards: the 2–4 side as fronts, the 5–6 side as their duplex backs."""
    front, back = tiebreak_context(records, "2-4"), tiebreak_context(records, "5-6")
    fronts = tuple(FaceSpec("tiebreak.yaml", {**front, "card": _card(i, 6)}, None, f"tiebreak-{i}-2-4",
                            "Tie-Breakers, side 2–4") for i in range(1, 7))
    backs = tuple(FaceSpec("tiebreak.yaml", {**back, "card": _card(i, 6)}, None, f"tiebreak-{i}-5-6",
                           "Tie-Breakers, side 5–6") for i in range(1, 7))
    return CardDeck("tiebreak", "Départages", fronts, backs, LARGE)


def playoff_table(records: Records) -> list[dict]:
    table: dict[int, dict[int, int]] = {}
    for rec in records["playoff_points"]:
        table.setdefault(rec["managers"], {})[rec["rank"]] = rec["points"]
    return [{"managers": n, "points": [ranks[r] for r in sorted(ranks)]} for n, ranks in sorted(table.items())]


def playoff_cards(records: Records, rules: dict) -> CardDeck:
    context = {"table": playoff_table(records), "bonus": {2: rules["ticket_bonus_2"], 3: rules["ticket_bonus_3"]}}
    fronts = tuple(FaceSpec("playoff.yaml", {**context, "card": _card(i, 2)}, None, f"playoff-{i}",
                            "Play-Off Points card") for i in (1, 2))
    backs = tuple(FaceSpec("back-playoff.yaml", {"card": _card(i, 2)}, None, f"playoff-{i}-back", "back")
                  for i in (1, 2))
    return CardDeck("playoff", "Points de Play-Off", fronts, backs, POKER)


def buses() -> CardDeck:
    """Bus tokens with one plain back for all, so a bus placed face down reveals nothing."""
    fronts, backs = [], []
    for colour in colours():
        for value in (1, 2, 3):
            card = _card(value, 3)
            fronts.append(FaceSpec("bus.yaml", {"colour": colour, "value": value, "card": card}, None,
                                   f"bus-{colour['id']}-{value}", f"bus {value} {colour['name']}"))
            backs.append(FaceSpec("back-bus.yaml", {"card": card}, None, f"bus-{colour['id']}-{value}-back", "back"))
    return CardDeck("buses", "Bus", tuple(fronts), tuple(backs), TOKEN)


def supporters(rules: dict) -> CardDeck:
    """Two supporter tokens per colour, the same on both sides (they move along the Fan Zone track), each as
    large as one space of that track allows."""
    side = supporter_side(fan_track(rules["track_length"]))
    fronts = tuple(FaceSpec("supporter-small.yaml", {"colour": colour, "side": side, "card": _card(copy, 2)}, None,
                            f"supporter-{colour['id']}-{copy}", f"supporter token {colour['name']}",
                            size_mm=(side, side))
                   for colour in colours() for copy in (1, 2))
    backs = tuple(FaceSpec(face.template, face.context, None, f"{face.name}-back", "back", size_mm=face.size_mm)
                  for face in fronts)
    return CardDeck("supporters", "Jetons Supporters", fronts, backs, (side, side))


def tickets() -> CardDeck:
    fronts = tuple(FaceSpec("ticket.yaml", {"card": _card(i, 4)}, None, f"ticket-{i}", f"ticket {i}")
                   for i in range(1, 5))
    return CardDeck("tickets", "Tickets de Play-Off", fronts, None, TICKET)


def icon_list() -> list[dict]:
    return [{"id": icon, "label": label, "text": text} for icon, (label, text) in ICONS.items()]


def aid(records: Records, rules: dict) -> PageSpec:
    """An A5 aid per manager, up to the most the rules allow: front and back, printed 2-up recto verso."""
    sides = {side: [c["label"] for c in tiebreak_context(records, side)["criteria"]] for side in ("2-4", "5-6")}
    context = {"rules": rules, "tiebreak": sides, "icons": icon_list()}
    faces = (FaceSpec("aid.yaml", context, None, "aid-front", "player aid, front"),
             FaceSpec("aid-back.yaml", context, None, "aid-back", "player aid, back"))
    return PageSpec("aid", "Aide de jeu", faces, AID, rules["players_max"])
