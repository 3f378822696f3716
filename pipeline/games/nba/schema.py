"""NBA Deck-Building's sheets (shared/games/nba-deck-building.md §1, §2, §4.1, App. A and C): column specs and
rule parameters."""

from __future__ import annotations

from pipeline.data.balance import BALANCE_SHEET
from pipeline.data.params import RULES_SHEET, rule_parameters
from pipeline.data.schema import Column, SheetSpec
from pipeline.games.nba.engine.data import PARAMETERS

POSITIONS = ("MJ", "Ar", "Ai", "AF", "P")                 # French codes, printed on the cards
OFFENCE_SKILLS = ("3P", "IN", "PE")                       # blue, yellow, red dice
DEFENCE_SKILLS = ("IT", "BL", "ST")                       # beige, grey, brown dice
DICE = OFFENCE_SKILLS + DEFENCE_SKILLS
SKILLS = DICE + ("RB", "GI")                              # the eight ratings of a Player card
FACE_COLOURS = ("blue", "yellow", "red")                  # a defensive face is coloured like the die it cancels
STATUS = ("seed", "observed", "forced", "inferred", "proposed")
LENGTHS = ("short", "normal", "long", "epic")

_ID = "Identifier: lower-case letters, digits and _ (used in logs, tests and file names)."
_STATUS = ("Where the value comes from: seed (the rulebook says it), observed (seen in a worked example), "
           "forced (deduced), inferred, or proposed (invented to fill a gap).")

SKILL_SHEET = SheetSpec(
    name="skills", id_column="id", quantity_column="dice_per_player",
    doc="The eight ratings: six dice skills, Rebounds and Game Intelligence; names, colours and dice owned.",
    columns=(
        Column("id", "enum", choices=SKILLS, doc="Skill code: " + ", ".join(SKILLS) + "."),
        Column("name", doc="Name printed on cards and aids (French).", max_length=24),
        Column("kind", "enum", choices=("offence", "defence", "rebound", "intelligence"),
               doc="offence (3P, IN, PE), defence (IT, BL, ST), rebound (RB) or intelligence (GI)."),
        Column("colour", "color", doc="Ink of the icon and of the die body, #RRGGBB."),
        Column("colour_name", doc="Colour in French (bleu, jaune…), printed next to it: colour is never alone.",
               max_length=16),
        Column("letter", doc="One or two letters printed on faces of this colour (B, J, R…).", max_length=2),
        Column("dice_per_player", "int", min=0, max=20, doc="Dice of this skill in each player's reserve "
                                                               "(0 for RB and GI)."),
        Column("icon", "path", required=False,
               doc="Optional icon file; empty = templates/nba/icons/<id>.svg."),
    ),
)

DICE_SHEET = SheetSpec(
    name="dice", unique_together=("die", "face"),
    doc="The six dice, face by face (§2): value (blank face = 0) and, on defensive dice, the colour of the "
        "offensive die the face cancels.",
    columns=(
        Column("die", "enum", choices=DICE, doc="Die type: " + ", ".join(DICE) + "."),
        Column("face", "int", min=1, max=6, doc="Face number 1–6 (the conversion chart reads a d6)."),
        Column("value", "int", min=0, max=12, doc="Points on the face; 0 = blank face."),
        Column("colour", "enum", choices=FACE_COLOURS, required=False,
               doc="Defensive dice only: blue, yellow or red; empty on blank faces and offensive dice."),
        Column("status", "enum", choices=STATUS, doc=_STATUS),
    ),
)

PLAYERS = SheetSpec(
    name="players", id_column="id", unique_together=("set", "name"),
    doc="Every Player card: the 2 × 20 starting cards (sets A and B) and the 100 NBA cards.",
    columns=(
        Column("id", doc=_ID + " E.g. a_starter_mj_1, korver."),
        Column("name", doc="Name printed on the card.", max_length=26),
        Column("set", "enum", choices=("A", "B", "NBA"), doc="A or B (starting sets) or NBA (market cards)."),
        Column("kind", "enum", choices=("starter", "substitute", "nba"),
               doc="starter (Titulaire), substitute (Remplaçant) or nba."),
        Column("initiation", "bool", default=False, doc="yes on the 17 cards of each initiation set."),
        Column("positions", doc="Position codes separated by /, e.g. MJ/Ar: " + ", ".join(POSITIONS) + "."),
        Column("value", "int", min=0, max=9, doc="Buying power, top-left."),
        Column("cost", "int", min=1, max=15, required=False, doc="Price, bottom-right; empty on starting cards."),
        *(Column(code, "int", min=0, max=6, doc=f"Rating {code} (0–3; 4 only on legendary cards).")
          for code in SKILLS),
        Column("legendary", "bool", default=False, doc="yes allows a rating of 4."),
        Column("clutch", "bool", default=False, doc="Medal (clutch player, optional evolution): +1 cost, +1 value."),
        Column("art", "path", required=False,
               doc="Optional art file relative to templates/nba/; empty = the position's neutral drawing."),
        Column("status", "enum", choices=STATUS, doc=_STATUS),
        Column("notes", required=False, doc="Free text (sources, reasoning)."),
    ),
)

TACTICS = SheetSpec(
    name="tactics", id_column="id", quantity_column="copies", unique_together=("set", "name"),
    doc="Tactic models: the 2 × 10 base tactics (sets A and B) and the 20 market models (70 copies).",
    columns=(
        Column("id", doc=_ID),
        Column("name", doc="Name printed on the card.", max_length=30),
        Column("set", "enum", choices=("A", "B", "market"), doc="A or B (base tactics) or market."),
        Column("initiation", "bool", default=False, doc="yes on the 5 base tactics of each initiation set."),
        Column("type", "enum", choices=("offence", "defence"),
               doc="offence (slot above the players) or defence (slot below)."),
        Column("value", "int", min=0, max=9, doc="Buying power for Tactic cards, top-left."),
        Column("cost", "int", min=1, max=15, required=False, doc="Market price, bottom-right; empty on base "
                                                                   "tactics."),
        Column("complexity", "int", min=1, max=20, doc="Collective level needed to activate."),
        *(Column(f"keep_{code}", "int", min=0, max=10, default=0,
                 doc=f"Dice of {code} kept (0 = the tactic does not use {code}).") for code in DICE),
        Column("copies", "int", min=1, max=10, doc="Copies printed."),
        Column("alias", required=False, doc="Other names the rulebook uses for this card, separated by ;."),
        Column("status", "enum", choices=STATUS, doc=_STATUS),
        Column("notes", required=False, doc="Free text."),
    ),
)

FATIGUE = SheetSpec(
    name="fatigue", id_column="id", quantity_column="copies",
    doc="The Fatigue cards: dead cards taken to pay for defensive rerolls.",
    columns=(
        Column("id", doc=_ID),
        Column("name", doc="Title printed on the card.", max_length=20),
        Column("text", required=False, max_length=160, doc="Reminder printed on the card (French)."),
        Column("copies", "int", min=1, max=30, doc="Copies printed."),
    ),
)

DURATIONS = SheetSpec(
    name="durations", id_column="length",
    doc="Game lengths (§4.1): turns per player and Player-pile cards. Normal games follow the rule "
        "total turns = pile + 4; the source rulebook printed 24 cards for Normal (AMB-01 erratum).",
    columns=(
        Column("length", "enum", choices=LENGTHS, doc="short, normal, long or epic."),
        Column("label", doc="Name printed in the rulebook (French).", max_length=16),
        Column("turns_per_player", "int", min=2, max=60, doc="Normal turns each player plays."),
        Column("pile_cards", "int", min=2, max=100, doc="Cards in the Player pile at setup (what the engine "
                                                           "uses)."),
        Column("source_pile_cards", "int", min=0, max=100, required=False,
               doc="What the source rulebook printed, when it differs (reported as an erratum)."),
        Column("status", "enum", choices=STATUS, doc=_STATUS),
    ),
)

RULES = RULES_SHEET
BALANCE = BALANCE_SHEET          # the designer's balance gates (pipeline/play/gates.py)

RULE_PARAMETERS = rule_parameters(PARAMETERS, {    # names, types, ranges: engine/data.py
    "length": "Game length: a row of the durations sheet.",
    "end_rule": "countdown6 (the turn that reveals the last card starts 6 final turns) or market_empty_literal "
        "(AMB-03).",
    "river_when_pile_empty": "shift_all (every track card moves one slot) or static (AMB-02).",
    "market_sort_key": "Sort the Player pile by cost or by value, cheapest on top (AMB-05).",
    "cost_window_min": "Setup check: cheapest cost of the window.",
    "cost_window_max": "Setup check: dearest cost of the window.",
    "cost_window_required": "Setup check: cards of the pile that must cost within the window.",
    "track_slots": "Slots of the Player track.",
    "market_slots": "Face-up slots of the Tactic market.",
    "dice_cap": "Most dice rolled per skill (or per tactic).",
    "dice_cap_scope": "per_skill or per_tactic (AMB-08).",
    "reroll_divisor": "Offensive rerolls = ceil((own RB − opponent RB) / this).",
    "keep_mode": "up_to (keep at most the card's count) or exactly (AMB-18).",
    "negative_score": "clamp0 or allow_negative (AMB-12).",
    "fatigue_removed_to": 'Fatigue removed by a substitution: box (out of the game: the rulebook\'s "éliminer") or supply '
        "(back to the Fatigue pile) (AMB-14).",
    "fatigue_per_substitution": "Fatigue cards one incoming player removes.",
    "allow_free_tactic_discard": "Prepared tactics may be discarded without a replacement (AMB-24). yes/no.",
    "hand_size": "Cards in hand at the end of a turn.",
    "offence_slots": "Offensive Tactic slots on the Court board.",
    "defence_slots": "Defensive Tactic slots on the Court board.",
    "first_player": "random, or seat0 (the first seat always starts).",
    "overtime_enabled": "A tie is played off in overtime. yes/no.",
    "overtime_turns": "Normal turns of an overtime (both players together).",
    "overtime_max": "Overtimes played before a draw is recorded.",
    "variant_team_selection": "Expert 1: each player chooses a 17-card start. yes/no.",
    "variant_draft": "Expert 2: the opening draft builds the pile and the mini-markets. yes/no.",
    "variant_money_time": "Expert 3: Money-time in the last turns. yes/no.",
    "draft_rounds": "Draft rounds (Expert 2).",
    "draft_mini_market": "Cards each player keeps for the mini-market per round.",
    "draft_common": "Cards each player gives the common pile per round.",
    "draft_box": "Cards each player returns to the box per round.",
    "team_min_substitutes": "Expert 1: fewest Substitutes in the deck.",
    "team_min_tactics": "Expert 1: fewest base tactics in the deck.",
    "team_deck_size": "Expert 1: cards in the starting deck (Starters are on court).",
    "money_time_turns": "Money-time covers this many last normal turns.",
    "money_time_free_def_rerolls": "Free defensive rerolls per defence in Money-time.",
    "clutch_players": "Evolution: +1 free offensive reroll per medal player on court in Money-time. yes/no.",
    "max_steps": "Safety cap: engine steps in one game.",
})
