"""Fightball's sheets (shared/games/fightball.md §6): column specs and rule parameters, declared once.

A box holds two team decks; the workbook holds four teams (two boxes). Balls, the BUZZ and the field cards are
fixed by the rulebook: they have no rows, each team declares their counts (teams sheet) and the validator
holds them to the rulebook's numbers."""

from __future__ import annotations

from pipeline.data.balance import BALANCE_SHEET
from pipeline.data.params import RULES_SHEET, rule_parameters
from pipeline.data.schema import Column, SheetSpec
from pipeline.games.fightball.engine.data import PARAMETERS

COLOURS = ("B", "R", "G")                  # blue, red, green (V on the French cards: vert)
POSITIONS = ("meneur", "arrière", "ailier", "pivot", "défenseur", "tireur", "joker")   # printed only (FB-A13)
EMBLEMS = ("eclair", "bouclier", "etoile", "spirale", "couronne", "flamme")   # drawn by the project (vector)
OPS = ("ADD_TOTAL", "IGNORE_DEFENDERS", "USE_COLOUR", "ADD_POINTS", "MULTIPLY_POINTS", "SET_POINTS", "MOVE_PLAY",
       "STEAL", "CANCEL_EFFECTS_BELOW", "FOUL")            # the closed vocabulary of §3.3 (FB-A2, FB-A15)
PHASES = ("TOTAL", "POINTS", "BOTH")

_ID = "Identifier: lower-case letters, digits and _ (used in logs, tests, file names and `--teams`)."
_TEAM = "Team id (sheet teams)."


def _values(prefix: str, what: str, low: int = 0, high: int = 9) -> tuple[Column, ...]:
    names = {"B": "blue", "R": "red", "G": "green"}
    return tuple(Column(f"{prefix}_{c}", "int", min=low, max=high, doc=f"{what} on a {names[c]} cell ({low}–{high}).")
                 for c in COLOURS)


TEAMS = SheetSpec(
    name="teams", id_column="id",
    doc="The team decks (a box holds two; any two play together): name, emblem, colour, and the counts the "
        "rulebook fixes for every team (balls 3/3/3, one BUZZ, field cards 5 blue, 3 red, 4 green).",
    columns=(
        Column("id", doc=_ID),
        Column("name", doc="Team name printed on every face of its cards (French).", max_length=22),
        Column("emblem", "enum", choices=EMBLEMS, doc="The emblem the project draws on every face and back."),
        Column("colour", "color", doc="The team's colour, #RRGGBB: its backs and the band of its faces."),
        Column("profile", required=False, max_length=120, doc="What the team is good at (French, printed in "
                                                              "the rulebook's team list)."),
        Column("balls_B", "int", min=0, max=9, default=3, doc="Blue balls in the deck (the rulebook: 3)."),
        Column("balls_R", "int", min=0, max=9, default=3, doc="Red balls in the deck (the rulebook: 3)."),
        Column("balls_G", "int", min=0, max=9, default=3, doc="Green balls in the deck (the rulebook: 3)."),
        Column("buzz", "int", min=0, max=9, default=1, doc="BUZZ cards (the rulebook: 1, the deck's last card)."),
        Column("field_B", "int", min=0, max=12, default=5, doc="Blue field cards the team supplies (5)."),
        Column("field_R", "int", min=0, max=12, default=3, doc="Red field cards the team supplies (3)."),
        Column("field_G", "int", min=0, max=12, default=4, doc="Green field cards the team supplies (4)."),
    ),
)

PLAYERS = SheetSpec(
    name="players", id_column="id", quantity_column="copies", unique_together=("team", "name"),
    doc="Player cards: attack (circle) and defence (diamond) on each colour of cell; copies share a name, "
        "which is what makes two copies one defender.",
    columns=(
        Column("id", doc=_ID + " E.g. eclairs_lina."),
        Column("team", doc=_TEAM),
        Column("name", doc="Player name printed on the card (French); unique across every team.", max_length=18),
        Column("position", "enum", choices=POSITIONS, doc="Printed position (no rule effect, FB-A13)."),
        *_values("atk", "Attack (circle)"),
        *_values("def", "Defence (diamond)"),
        Column("copies", "int", min=1, max=4, default=2, doc="Copies in the deck (2)."),
    ),
)

SHOTS = SheetSpec(
    name="shots", id_column="id", quantity_column="copies",
    doc="Shot cards: a value for each colour of cell; SHOT is printed in the colour where the card is best.",
    columns=(
        Column("id", doc=_ID + " E.g. eclairs_shot_1."),
        Column("team", doc=_TEAM),
        *_values("shot", "Shot value (circle)"),
        Column("text_colour", "enum", choices=COLOURS, doc="Colour SHOT is printed in: the best of the three "
                                                           "values (a warning otherwise, FB-A12)."),
        Column("copies", "int", min=1, max=10, default=1, doc="Copies in the deck."),
    ),
)

EFFECTS = SheetSpec(
    name="effects", id_column="id", quantity_column="copies",
    doc="Special effect cards: a name, the text printed on the card, and what they do (sheet effect_ops).",
    columns=(
        Column("id", doc=_ID + " E.g. eclairs_pyramide."),
        Column("team", doc=_TEAM),
        Column("name", doc="Card name (French).", max_length=22),
        Column("text", doc="Rules text printed on the card (French, the card dialect: **bold**).", max_length=140),
        Column("copies", "int", min=1, max=8, default=1, doc="Copies in the deck."),
    ),
)

EFFECT_OPS = SheetSpec(
    name="effect_ops", unique_together=("effect", "order"),
    doc="What each effect card does: its operations in order, from the closed vocabulary of the rules "
        "(TOTAL operations change the total before the threshold, POINTS operations the points of a valid play).",
    columns=(
        Column("effect", doc="Effect id (sheet effects)."),
        Column("order", "int", min=1, max=9, doc="1 = first operation of the card."),
        Column("op", "enum", choices=OPS, doc="Operation: " + ", ".join(OPS) + "."),
        Column("arg", required=False, doc="Argument: a number (ADD_TOTAL, ADD_POINTS, MULTIPLY_POINTS, "
                                          "SET_POINTS), a colour B/R/G (USE_COLOUR), best or a colour (MOVE_PLAY), "
                                          "`<n> attacking|defending` (FOUL); empty for the others."),
        Column("phase", "enum", choices=PHASES, doc="TOTAL, POINTS, or BOTH (CANCEL_EFFECTS_BELOW only): "
                                                    "must be the operation's own phase."),
    ),
)

RULES = RULES_SHEET
BALANCE = BALANCE_SHEET          # the designer's balance gates (pipeline/play/gates.py)

ENGINE_SHEETS = ("teams", "players", "shots", "effects", "effect_ops")   # what GameData.from_rows reads, in order

RULE_PARAMETERS = rule_parameters(PARAMETERS, {    # names, types, ranges: engine/data.py
    "quarters": "Quarters in a game (4).",
    "threshold": "Shot total a play needs to score (10, inclusive).",
    "ball_match_bonus": "Added when the ball's colour is the cell's (2).",
    "zone_points_rb": "Points of a play on a red or blue cell, and of a false start there (2).",
    "zone_points_g": "Points of a play on a green cell, and of a false start there (3).",
    "too_late_points": "Foul points for the first card placed after a complete play (1).",
    "hurried_shot_points": "Foul points for a Shot card placed before any ball (1).",
    "speed_north": "How fast the north coach plays, a weight: north acts next with north / (north + south).",
    "speed_south": "How fast the south coach plays, a weight (50 and 50: equally fast).",
    "new_attacker_same_name_compares": "current (a same-name player is compared with the attacker in place) or "
                                       "first (with the play's first attacker), FB-A8.",
    "tie_rule": "draw (a tie after the last quarter is a draw) or overtime (extra quarters), FB-A11.",
    "shot_at_buzz": "taken_back (a card a coach holds when the other's BUZZ lands goes nowhere, l.51; l.123's "
                    "'tir' is the play in progress) or placed (l.123's 'tir' is the Shot card: a Shot card held "
                    "then lands where its coach puts it before the scoring).",
    "overtime_quarters": "With tie_rule overtime: extra quarters at most, a draw if still tied.",
    "bot_error_pct": "Simulation: how often in 100 the heuristic bot places a card on a random cell (fouls).",
    "team_north": "Simulation: the north team's id (sheet teams); `pnp simulate --teams` changes it.",
    "team_south": "Simulation: the south team's id (sheet teams).",
})
