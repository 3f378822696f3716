"""Build It's records -> what to print: the 90 cards, the board, the calendar, pawns and coins, the player
aids, the score sheet and the rulebook (shared/games/build-it.md §1). No drawing here: templates and
contexts only. Every number printed comes from the workbook."""

from __future__ import annotations

import math

from pipeline.data.schema import expand
from pipeline.data.specs import BoardSpec, CardDeck, Component, FaceSpec, PageSpec, Records
from pipeline.games.buildit.schema import RULE_PARAMETERS
from pipeline.games.kit import parameters_from_rules

POKER = (63.5, 88.9)
AID = (88.0, 126.0)
TOKEN = (18.0, 18.0)
CALENDAR_WIDTH = 190.0
CALENDAR_STEPS_MM = 184.0       # the calendar's width inside its frame, shared by the steps of a row
CALENDAR_STEP_MM = 22.0         # a step (and its height) holds the 18 mm marker with 2 mm to spare each way
CALENDAR_STEP_GAP = 1.4         # between two steps of a row, where the arrow to the next one sits
CALENDAR_ROW_GAP = 2.0
CALENDAR_BORDER = 11.0 + 9.0    # the title above the steps, the note below them
SCORE_SHEET = (190.0, 250.0)
PLOT_MM = 26.0              # a plot holds an 18 mm pawn with room to pick it up (issue: plots >= 25 mm)
BOARD_MARGIN_MM = 12.0      # the border with the coordinates
FIVE_COINS = 12             # optional "5" coins (BI-A21: the bank is unlimited in play)

COLOURS = (  # id, French name, letter (printed: colour never carries the meaning alone), ink
    ("blue", "Bleu", "B", "#2E6FD0"),
    ("red", "Rouge", "R", "#C8372D"),
    ("yellow", "Jaune", "J", "#E8B823"),
    ("green", "Vert", "V", "#2E9E5B"),
)
# French initials (a French player reads "S" for Site as nothing): the pawns also print the name in full
STATES = (("permit", "Permis", "P"), ("site", "Chantier", "Ch"), ("construction", "Construction", "C"))


parameters = parameters_from_rules(RULE_PARAMETERS)     # parameters(records): the rules sheet, typed, as a dict


def components(records: Records) -> list[Component]:
    """Everything printed but the rulebook, which shows these (rulebook.with_rulebook adds it)."""
    rules = parameters(records)
    return [*card_decks(records), board(rules), calendar(rules), pawns(rules), coins(records), aids(records, rules),
            score_sheet(rules)]


# --- the 90 cards -----------------------------------------------------------------------------------------

def _faces(records, quantity, front: str, back: str, context_of) -> tuple[tuple, tuple]:
    fronts, backs = [], []
    for index, (rec, copy, copies) in enumerate(expand(records, quantity), start=1):
        card = {"index": index, "copy": copy, "copies": copies}
        name = f"{rec['id']}-{copy}" if copies > 1 else rec["id"]
        label = f"{rec['name']} ({rec.ref.sheet} row {rec.ref.row}, copy {copy}/{copies})"
        fronts.append(FaceSpec(front, {**context_of(rec), "card": card}, rec.ref, name, label))
        backs.append(FaceSpec(back, {"card": card}, rec.ref, f"{name}-back", f"back of {label}"))
    return tuple(fronts), tuple(backs)


def card_decks(records: Records) -> list[CardDeck]:
    decks = []
    for deck_id, title, sheet, front, back in (
        ("cities", "Cartes Ville", "cities", "city.yaml", "back-city.yaml"),
        ("contracts", "Contrats", "contracts", "contract.yaml", "back-contract.yaml"),
        ("normal", "Cartes Normales", "normal_cards", "normal.yaml", "back-normal.yaml"),
    ):
        quantity = "copies" if sheet != "cities" else None
        fronts, backs = _faces(records[sheet], quantity, front, back, lambda rec: _card_context(records, rec))
        decks.append(CardDeck(deck_id, title, fronts, backs, POKER))
    return decks


def shapes_words(rules: dict) -> str:
    """How a building's shape may match a plan (a Contract's, a City's), in the words the cards print."""
    turned, mirrored = rules["allow_rotation"], rules["allow_reflection"]
    if turned and mirrored:
        return "rotation et miroir admis"
    if turned or mirrored:
        return f"{'rotation admise' if turned else 'miroir admis'}, pas de{' miroir' if turned else ' rotation'}"
    return "ni rotation ni miroir"


def _card_context(records: Records, rec) -> dict:
    if rec.sheet == "normal_cards":
        return dict(rec.values)
    shapes = shapes_words(parameters(records))
    if rec.sheet != "contracts":
        return {**rec.values, "shapes": shapes}
    names = {r["model"]: r["name"] for r in records["normal_cards"]}
    # the name of the card a Contract protects from, unbreakable: no lone "A38" on the reward's last line
    return {**rec.values, "shapes": shapes, "immune_name": names.get(rec["immune_to"], "").replace(" ", "\u00a0")}


# --- board, calendar, tokens ------------------------------------------------------------------------------

def board(rules: dict) -> BoardSpec:
    side = 2 * BOARD_MARGIN_MM + rules["board_size"] * PLOT_MM
    context = {"rules": rules, "plot": PLOT_MM, "margin": BOARD_MARGIN_MM, "title": "Build It"}
    return BoardSpec("board", "Plateau", FaceSpec("board.yaml", context, None, "board", "the board"), (side, side))


def calendar(rules: dict) -> CardDeck:
    """One step per round in as few rows as hold them (the rows as even as they go), each step at least
    CALENDAR_STEP_MM each way: ten rounds make two rows of five."""
    most_per_row = int(CALENDAR_STEPS_MM // (CALENDAR_STEP_MM + CALENDAR_STEP_GAP))
    rows = math.ceil(rules["rounds"] / most_per_row)
    per_row = math.ceil(rules["rounds"] / rows)
    steps = {"rows": rows, "per_row": per_row, "width": CALENDAR_STEPS_MM / per_row, "height": CALENDAR_STEP_MM,
             "gap": CALENDAR_STEP_GAP, "row_gap": CALENDAR_ROW_GAP}
    height = CALENDAR_BORDER + rows * CALENDAR_STEP_MM + (rows - 1) * CALENDAR_ROW_GAP
    face = FaceSpec("calendar.yaml", {"rules": rules, "steps": steps, "card": _card(1, 1)}, None, "calendar",
                    "the calendar")
    return CardDeck("calendar", "Calendrier", (face,), None, (CALENDAR_WIDTH, height))


def _card(index: int, copies: int) -> dict:
    return {"index": index, "copy": index, "copies": copies}


def pawns(rules: dict) -> CardDeck:
    per_state = rules["pawns_per_state"]
    fronts = []
    for colour, colour_name, letter, ink in COLOURS:
        for state, state_name, state_letter in STATES:
            for copy in range(1, per_state + 1):
                context = {"colour": colour, "colour_name": colour_name, "colour_letter": letter, "hex": ink,
                           "state": state, "state_name": state_name, "state_letter": state_letter,
                           "card": _card(copy, per_state)}
                fronts.append(FaceSpec("pawn.yaml", context, None, f"pawn-{colour}-{state}-{copy}",
                                       f"{state_name} {colour_name} {copy}/{per_state}"))
    return CardDeck("pawns", "Pions", tuple(fronts), None, TOKEN)


def coins(records: Records) -> CardDeck:
    count = next((r["count"] for r in records["components"] if r["component"] == "coin"), 60)
    fronts = [FaceSpec("coin.yaml", {"value": 1, "card": _card(i, count)}, None, f"coin-1-{i}", f"coin {i}")
              for i in range(1, count + 1)]
    fronts += [FaceSpec("coin.yaml", {"value": 5, "card": _card(i, FIVE_COINS)}, None, f"coin-5-{i}",
                        f"5-coin {i}") for i in range(1, FIVE_COINS + 1)]
    fronts.append(FaceSpec("marker.yaml", {"card": _card(1, 1)}, None, "marker", "the calendar marker"))
    return CardDeck("coins", "Pièces d'Or et marqueur", tuple(fronts), None, TOKEN)


# --- aids, score sheet ------------------------------------------------------------------------------------

def normal_models(records: Records) -> list[dict]:
    """One entry per Normal card model, copies summed (Coin Gain has one row per value)."""
    models: dict[str, dict] = {}
    for rec in records["normal_cards"]:
        entry = models.setdefault(rec["model"], {
            "model": rec["model"], "id": rec["id"], "name": rec["name"], "copies": 0, "cost": rec["cost"],
            "cost_rule": rec["cost_rule"], "timing": rec["timing"], "target": rec["target"],
            "persistent": rec["persistent"], "effect": rec["effect"], "values": []})
        entry["copies"] += rec["copies"]
        if rec["model"] == "coin_gain":
            entry["values"].append({"value": rec["value"], "copies": rec["copies"]})
    return list(models.values())


def build_cost_words(rules: dict) -> str:
    if rules["build_cost_mode"] == "flat":
        return f"{rules['build_cost_flat']} PO"
    return f"{rules['build_cost_per_plot']} PO par parcelle"


def aids(records: Records, rules: dict) -> CardDeck:
    normal = normal_models(records)
    fronts, backs = [], []
    for index, (colour, colour_name, _, ink) in enumerate(COLOURS, start=1):
        context = {"rules": rules, "colour_name": colour_name, "hex": ink, "normal": normal,
                   "build_cost": build_cost_words(rules), "card": _card(index, len(COLOURS))}
        fronts.append(FaceSpec("aid-front.yaml", context, None, f"aid-{colour}", f"player aid ({colour_name})"))
        backs.append(FaceSpec("aid-back.yaml", context, None, f"aid-{colour}-back",
                              f"back of the player aid ({colour_name})"))
    return CardDeck("aids", "Aides de jeu", tuple(fronts), tuple(backs), AID)


def score_sheet(rules: dict) -> PageSpec:
    face = FaceSpec("score-sheet.yaml", {"rules": rules, "title": "Build It"}, None, "score-sheet", "score sheet")
    return PageSpec("score-sheet", "Feuille de score", (face,), SCORE_SHEET)
