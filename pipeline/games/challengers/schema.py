"""Challengers' sheets (shared/games/challengers.md §6): column specs and rule parameters, declared once.

The source lists no card: every card, the starter deck, the draft schedule, the trophy table and the robot's
decks are the project's own, authored data (CH-A1…A4, A12)."""

from __future__ import annotations

from pipeline.data.balance import BALANCE_SHEET
from pipeline.data.params import RULES_SHEET, rule_parameters
from pipeline.data.schema import Column, SheetSpec
from pipeline.games.challengers.engine.data import PARAMETERS

LEVELS = ("S", "A", "B", "C", "R", "SOLO")          # one level per card (CH-A11)
RARITIES = ("normal", "rare", "common")
KEYWORDS = ("none", "on_attack", "from_bench", "holding_flag", "losing_flag", "when_selected")
OPS = ("STRENGTH", "OPP_STRENGTH", "FANS", "BENCH_TO_DISCARD", "MILL_OPPONENT", "SELF_TO_DECK_BOTTOM",
       "REMOVE_FROM_DECK", "EXTRA_PICK")             # the closed vocabulary of §3.4 (CH-A1)
SCOPES = ("attack", "defence", "both")
SYMBOLS = ("tour", "fusee", "ancre", "couronne", "trophee", "arbre", "chapiteau", "engrenage", "etoile", "vague")

_ID = "Identifier: lower-case letters, digits and _ (used in logs, tests, file names and `--rule sets=`)."

SETS = SheetSpec(
    name="sets", id_column="id",
    doc="The City set (always used, with the starter cards), six other sets (five used in a game) and the "
        "robot's set.",
    columns=(
        Column("id", doc=_ID),
        Column("name", doc="Set name printed in the rulebook and on the aids (French).", max_length=20),
        Column("symbol", "enum", choices=SYMBOLS, doc="The set symbol the project draws on every card of the set."),
        Column("colour", "color", doc="The set's colour, #RRGGBB (never alone: the symbol carries the set)."),
        Column("always_used", "bool", default=False, doc="yes for the City set: in every game."),
        Column("robot", "bool", default=False, doc="yes for the robot's set."),
        Column("identity", required=False, max_length=160, doc="What the set plays like (French, printed in "
                                                               "the rulebook's set descriptions)."),
    ),
)

CARDS = SheetSpec(
    name="cards", id_column="id", quantity_column="copies",
    doc="Every card of every set: level, strength, rarity and copies, keyword timing and the printed text.",
    columns=(
        Column("id", doc=_ID + " E.g. space_comet."),
        Column("name", doc="Card name printed on the card (French); same-named cards share a bench slot.",
               max_length=24),
        Column("set", doc="Set id (sheet sets)."),
        Column("level", "enum", choices=LEVELS, doc="S starter, A (strength ≤ 3), B (≤ 5), C (≤ 10), R robot, "
                                                    "SOLO robot's solo challenge; one level per card."),
        Column("strength", "int", min=0, max=10, doc="Base strength printed in both top corners."),
        Column("rarity", "enum", choices=RARITIES, default="normal",
               doc="normal (4 copies), rare or common (the copies printed on the card)."),
        Column("copies", "int", min=0, max=12, required=False,
               doc="Copies in the box: 4 for a normal card; required for rare and common; starter and robot "
                   "cards: the copies their sheets use (starter, robot_decks, solo_cards)."),
        Column("keyword", "enum", choices=KEYWORDS, default="none",
               doc="When the effect works: none (on reveal), on_attack, from_bench, holding_flag, losing_flag, "
                   "when_selected (Space set only)."),
        Column("text", required=False, max_length=150, doc="Effect text printed on the card (French; the keyword "
                                                           "is printed in bold before it)."),
    ),
)

CARD_OPS = SheetSpec(
    name="card_ops", unique_together=("card", "order"), on_faces=False,
    doc="What each card's effect does: its operations in order, from the closed vocabulary of the rules.",
    columns=(
        Column("card", doc="Card id (sheet cards)."),
        Column("order", "int", min=1, max=9, doc="1 = first operation of the card."),
        Column("op", "enum", choices=OPS, doc="Operation: " + ", ".join(OPS) + "."),
        Column("n", "int", min=-10, max=10, required=False, doc="Its number (strength, fans, cards); empty for "
                                                                "SELF_TO_DECK_BOTTOM."),
        Column("scope", "enum", choices=SCOPES, required=False,
               doc="From the bench STRENGTH: what it improves, attack, defence (the flag card) or both (CH-A10)."),
    ),
)

STARTER = SheetSpec(
    name="starter", id_column="card", on_faces=False,
    doc="Each player's starting deck: City cards of level S (CH-A4).",
    columns=(
        Column("card", doc="Card id (sheet cards, level S)."),
        Column("copies_per_player", "int", min=1, max=10, doc="Copies in each player's starting deck."),
    ),
)

SCHEDULE = SheetSpec(
    name="schedule", unique_together=("round", "option"),
    doc="The draft: each round's options, a level to draw from and how many cards to keep (CH-A3).",
    columns=(
        Column("round", "int", min=1, max=10, doc="Round 1–7."),
        Column("option", "int", min=1, max=4, doc="Option number within the round (1, 2)."),
        Column("level", "enum", choices=("A", "B", "C"), doc="Level pile the hand is drawn from."),
        Column("draw", "int", min=1, max=10, doc="Cards in the hand (5)."),
        Column("keep", "int", min=1, max=2, doc="Cards added to the deck: 1 or 2."),
    ),
)

TROPHIES = SheetSpec(
    name="trophies", unique_together=("round", "value"), quantity_column="count",
    doc="The trophy tokens of each round: fan values (secret on their backs in 3–8 player games) and counts (CH-A2).",
    columns=(
        Column("round", "int", min=1, max=10, doc="Round 1–7 (printed on the front)."),
        Column("value", "int", min=0, max=30, doc="Fans, printed under a star on the back."),
        Column("count", "int", min=0, max=8, doc="Tokens of this round with this value."),
    ),
)

ROBOT_DECKS = SheetSpec(
    name="robot_decks", unique_together=("round", "card"), on_faces=False,
    doc="The robot's deck in each round, before its level swaps cards for R cards (CH-A12).",
    columns=(
        Column("round", "int", min=1, max=10, doc="Round 1–7."),
        Column("card", doc="Card id (sheet cards, robot set)."),
        Column("copies", "int", min=1, max=10, doc="Copies in that round's robot deck."),
    ),
)

ROBOT_LEVELS = SheetSpec(
    name="robot_levels", id_column="level",
    doc="How many of the robot's cards each level swaps for random R cards.",
    columns=(
        Column("level", "int", min=1, max=5, doc="Robot level 1–5."),
        Column("swaps", "int", min=0, max=20, doc="Cards swapped for random R cards (level − 1)."),
        Column("note", required=False, max_length=80, doc="Advice printed on the robot reference (French)."),
    ),
)

SOLO_CARDS = SheetSpec(
    name="solo_cards", unique_together=("round", "card"), on_faces=False,
    doc="The special solo challenge: SOLO cards the robot adds to its deck in each round.",
    columns=(
        Column("round", "int", min=1, max=10, doc="Round 1–7."),
        Column("card", doc="Card id (sheet cards, level SOLO)."),
        Column("copies", "int", min=1, max=10, default=1, doc="Copies added."),
    ),
)

RULES = RULES_SHEET
BALANCE = BALANCE_SHEET          # the designer's balance gates (pipeline/play/gates.py)

ENGINE_SHEETS = ("sets", "cards", "card_ops", "starter", "schedule", "trophies", "robot_decks", "robot_levels",
                 "solo_cards")   # what GameData.from_rows reads, in order

RULE_PARAMETERS = rule_parameters(PARAMETERS, {    # names, types, ranges: engine/data.py
    "players_min": "Fewest players (1: solo against the robot).",
    "players_max": "Most players (8).",
    "rounds": "Rounds: a Deck phase then a Match phase each (7).",
    "hand_size": "Cards in a Deck-phase hand (5; the schedule's draw column may say otherwise per option).",
    "bench_slots": "Slots on a bench (6): each holds cards of one name.",
    "sets_per_game": "Sets used besides the City set (5 of the 6).",
    "lead_to_win": "1–2 players: a lead of this many fans after a Match phase wins at once (11).",
    "redraws_per_round": "Redraws of the hand in a Deck phase (1).",
    "redraw_window": "When the redraw may come (seed l.19, CH-A5): any_time (before or after the first card is "
                     "kept) or after_first_pick (only once a card is kept).",
    "min_deck_size": "Removals never take a deck under this many cards (CH-A15: 1).",
    "short_pile": "A level pile that runs out in a Deck phase: refill (the cards set aside in this phase become "
                  "its pile again, then the next level's pile serves: hands stay at 5, seed l.19) or "
                  "deal_what_is_left (a short hand).",
    "robot_level": "Robot level 1–5: level L swaps L − 1 of its cards for random R cards.",
    "solo_challenge": "Solo: the robot adds its SOLO cards (the special solo challenge).",
    "solo_robot_deck": "Solo: kept (seed l.57, the robot gains no new cards: its round-1 deck, SOLO cards and "
                       "level swaps, built once) or per_round (a new, larger robot deck each round).",
    "sets": "random (5 of the 6 sets drawn per game) or the sets_per_game set ids, comma separated.",
    "fans_from_trophies": "values (a trophy counts its fans) or count (one fan per trophy), CH-A6.",
    "capture_order": "losing_flag_first (Losing the flag resolves before benching) or bench_first, CH-A9.",
    "opening_triggers_on_attack": "The opening card's On attack effect works (CH-A18: no).",
    "duo_tie_rule": "1–2 players still tied after trophies and the best trophy: draw or random (CH-A14).",
    "max_reveals_per_match": "Safety cap: reveals in one match (a match ends by its own rules long before).",
})
