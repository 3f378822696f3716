"""All-Star Draft's sheets (shared/games/all-star-draft.md §6): column specs and rule parameters."""

from __future__ import annotations

from pipeline.data.balance import BALANCE_SHEET
from pipeline.data.params import RULES_SHEET, rule_parameters
from pipeline.data.schema import Column, SheetSpec
from pipeline.games.allstar.engine.data import PARAMETERS

ATTRIBUTES = ("symbol", "number", "species")
SIDES = ("2-4", "5-6")                      # the two faces of a Tie-Breakers card, by number of managers
ICONS = ("unusual_count", "not_for_2", "straight_beats_5", "full_house_beats_5", "all_symbols_beats_5")
MODES = ("classic", "heritage", "duel", "open_market")
DUO_MODES = MODES[1:]                  # the `mode` parameter: the rulebook's modes for two (002_, l.337-339)
# ColorADD (Miguel Neiva's colour-identification code): the three primaries as glyphs, their combinations,
# black and white frames, and the light/dark modifiers. One code per species (ASD-A16).
COLORADD = ("yellow", "blue", "red", "green", "orange", "purple", "brown", "grey", "black", "white",
            "light_blue", "dark_blue", "light_green", "dark_green", "pink", "dark_red", "light_orange",
            "dark_orange", "light_purple", "dark_purple", "light_yellow", "dark_yellow", "light_grey",
            "dark_grey", "light_brown", "dark_brown")

_ID = "Identifier: lower-case letters, digits and _ (used in logs, tests and file names)."
_ART = "Optional art file (SVG, PNG or JPEG) relative to templates/allstar/; empty = the project's own drawing."

SPECIES = SheetSpec(
    name="species", id_column="id",
    doc="The 12 species of hockey players: name, card colour and its ColorADD code.",
    columns=(
        Column("id", doc=_ID),
        Column("name", doc="Name printed on the cards (French).", max_length=24),
        Column("colour", "color", doc="Card colour, #RRGGBB (never the only carrier: the ColorADD code and "
                                      "the name are printed too)."),
        Column("coloradd_code", "enum", choices=COLORADD, doc="ColorADD code of the colour, printed as an icon."),
        Column("art", "path", required=False, doc=_ART),
    ),
)

SYMBOLS = SheetSpec(
    name="symbols", id_column="id",
    doc="The 5 equipment symbols.",
    columns=(
        Column("id", doc=_ID),
        Column("name", doc="Name (French), printed beside the icon.", max_length=20),
        Column("icon", "path", required=False, doc="Optional icon file; empty = templates/allstar/icons/<id>.svg."),
    ),
)

HOCKEY = SheetSpec(
    name="hockey", id_column="id", unique_together=("species", "number"),
    doc="The 108 hockey cards: one per species and number 1–9, each with one equipment symbol.",
    columns=(
        Column("id", doc=_ID + " E.g. bear_4."),
        Column("species", doc="Species id (sheet species)."),
        Column("number", "int", min=1, max=9, doc="Number 1–9."),
        Column("symbol", doc="Equipment symbol id (sheet symbols)."),
    ),
)

ORDERS = SheetSpec(
    name="orders", unique_together=("side", "attribute", "position"),
    doc="For each Tie-Breakers side, the value order of each attribute, strongest (position 1) first.",
    columns=(
        Column("side", "enum", choices=SIDES, doc="2-4 or 5-6: the side of the Tie-Breakers card."),
        Column("attribute", "enum", choices=ATTRIBUTES, doc="symbol, number or species."),
        Column("position", "int", min=1, max=12, doc="1 = top of the column = strongest."),
        Column("value", doc="A symbol id, a number 1–9, or a species id."),
    ),
)

TIEBREAK_SIDES = SheetSpec(
    name="tiebreak_sides", id_column="side",
    doc="Which attribute is gold, silver and bronze on each side of the Tie-Breakers card (ASD-A1).",
    columns=(
        Column("side", "enum", choices=SIDES, doc="2-4 or 5-6."),
        Column("gold", "enum", choices=ATTRIBUTES, doc="The strongest criterion."),
        Column("silver", "enum", choices=ATTRIBUTES, doc="The second criterion."),
        Column("bronze", "enum", choices=ATTRIBUTES, doc="The third criterion."),
    ),
)

_POINTS = tuple(Column(f"p{rank}", "int", min=0, max=99, doc=f"Supporters for rank {rank} "
                       f"(with N managers, ranks 1..N use p1..pN).") for rank in range(1, 7))

ARENAS = SheetSpec(
    name="arenas", id_column="id",
    doc="The 15 arenas: supporter points per rank and special icons.",
    columns=(
        Column("id", doc=_ID),
        Column("name", doc="Arena name printed on the card (French).", max_length=30),
        *_POINTS,
        Column("icons", required=False, doc="Special icons, comma separated: " + ", ".join(ICONS) + "."),
        Column("text", required=False, max_length=120, doc="Flavour text (French)."),
    ),
)

PLAYOFF_POINTS = SheetSpec(
    name="playoff_points", unique_together=("managers", "rank"),
    doc="Supporters for the final playoff rank, per number of managers (ASD-A8: provisional values).",
    columns=(
        Column("managers", "int", min=2, max=6, doc="Number of managers, 2–6."),
        Column("rank", "int", min=1, max=6, doc="Final playoff rank, 1 = playoff winner."),
        Column("points", "int", min=0, max=99, doc="Supporters scored."),
    ),
)

RULES = RULES_SHEET
BALANCE = BALANCE_SHEET          # the designer's balance gates (pipeline/play/gates.py)


RULE_PARAMETERS = rule_parameters(PARAMETERS, {    # names, types, ranges: engine/data.py
    "players_min": "Fewest managers.",
    "players_max": "Most managers.",
    "rounds": "Regular-season rounds (arenas revealed: 1, 2, 3…).",
    "hand_size": "Hockey cards dealt to each manager per round (standard draft).",
    "team_size": "Cards in a team.",
    "species_per_manager": "Species put in the deck per manager (standard draft).",
    "tickets_2": "Playoff tickets per manager with 2 managers.",
    "tickets_3": "Playoff tickets per manager with 3 managers.",
    "tickets_4plus": "Playoff tickets per manager with 4 to 6 managers.",
    "ticket_bonus_2": "Supporters per unused ticket with 2 managers.",
    "ticket_bonus_3": "Supporters per unused ticket with 3 managers.",
    "swaps_per_round": "per_team (one swap per earlier team) or one_total.",
    "playoff_weakest_by": "power (ties go to a shootout) or full_key (the whole tie-break).",
    "min_substitution": "Fewest cards replaced after a playoff confrontation.",
    "max_substitution": "Most cards replaced after a playoff confrontation.",
    "mode": "2-manager game: heritage, duel or open_market, the rulebook's three modes for two (002_, "
        "l.337-339); 3+ managers always play the pass draft.",
    "duo_hand_size": "Hand size in the Heritage and Duel modes.",
    "duo_species": "Species in the deck for Heritage and Duel.",
    "open_market_species": "Species in the deck for Open Market.",
    "final_tiebreak_includes_ticket_bonus": "The ticket bonus counts as playoff supporters in the final tie-break.",
    "track_length": "Spaces on the Fan Zone supporter track (the second token marks laps).",
    "max_steps": "Safety cap: engine steps in one game.",
})
