"""Fightball's rule parameters, declared once: names, types and ranges (schema.py adds the designer's docs and
builds the `rules` sheet's columns from it; the engine refuses a bad value on its own). shared/games/fightball.md
§6 and the resolutions FB-A8 (same-name new attacker) and FB-A11 (a tie).

Then the pure data helpers the engine shares: colours, card kinds and seats as integers, the frozen card
record, the field layout of §1.3 with its owners, and the parsing of an effect's operations (§3.3)."""

from __future__ import annotations

from typing import NamedTuple

PARAMETERS = {
    "quarters": ("int", 1, 8),
    "threshold": ("int", 1, 40),
    "ball_match_bonus": ("int", 0, 9),
    "zone_points_rb": ("int", 0, 9),
    "zone_points_g": ("int", 0, 9),
    "too_late_points": ("int", 0, 9),
    "hurried_shot_points": ("int", 0, 9),
    "speed_north": ("int", 1, 99),          # a weight: north acts next with speed_north / (north + south)
    "speed_south": ("int", 1, 99),
    "new_attacker_same_name_compares": ("enum", "current", "first"),
    "tie_rule": ("enum", "draw", "overtime"),
    "shot_at_buzz": ("enum", "taken_back", "placed"),   # a Shot card held when the other BUZZes (l.51 v l.123)
    "overtime_quarters": ("int", 1, 9),     # tie_rule overtime: extra quarters at most, then a draw
    "bot_error_pct": ("int", 0, 50),        # the heuristic bot's ε, in percent (§3.5)
    "team_north": ("str",),                 # team ids (sheet teams) of the two decks a simulation matches
    "team_south": ("str",),
}


# --- the game's vocabulary, as engine integers -------------------------------------------------------------

COLOURS = ("B", "R", "G")                   # an engine colour is its index here
B, R, G = 0, 1, 2
PLAYER, BALL, SHOT, EFFECT, BUZZ = range(5)
KINDS = ("player", "ball", "shot", "effect", "buzz")
NORTH, SOUTH = 0, 1                         # seats: north sits at rows 0-1, south at rows 3-4
SEATS = ("north", "south")
NOBODY = -1
LAYOUT = ("BRRRB", "GBBBG", "GG_GG", "GBBBG", "BRRRB")      # §1.3, rows from north to south; _ = the BUZZ space
CENTRE = 12                                                  # row 2, column 2: the cell index of the BUZZ space

# op -> its phase (§3.3); the sheet's phase column must agree (BOTH: CANCEL_EFFECTS_BELOW only)
OP_PHASES = {"ADD_TOTAL": "TOTAL", "IGNORE_DEFENDERS": "TOTAL", "USE_COLOUR": "TOTAL", "ADD_POINTS": "POINTS",
             "MULTIPLY_POINTS": "POINTS", "SET_POINTS": "POINTS", "MOVE_PLAY": "POINTS", "STEAL": "POINTS",
             "CANCEL_EFFECTS_BELOW": "BOTH", "FOUL": "POINTS"}
NUMBER_OPS = ("ADD_TOTAL", "ADD_POINTS", "MULTIPLY_POINTS", "SET_POINTS")
BEST = -1                                   # MOVE_PLAY's `best`: the best cell legal for the attacker


class Op(NamedTuple):
    """One operation of an effect card: op name, parsed argument, and whether it runs before the threshold
    test (TOTAL), on valid plays (POINTS), or both (CANCEL_EFFECTS_BELOW)."""
    op: str
    arg: object                 # int (numbers), colour int (USE_COLOUR, MOVE_PLAY; BEST), (n, against) (FOUL)
    total: bool                 # runs in the TOTAL pass
    points: bool                # runs in the POINTS pass


class Card(NamedTuple):
    """One kind of card (copies share it): values per colour are tuples indexed B, R, G."""
    index: int                  # the engine's integer for this card: its rank among all ids
    id: str
    team: str
    kind: int                   # PLAYER | BALL | SHOT | EFFECT | BUZZ
    name: str
    attack: tuple = (0, 0, 0)
    defence: tuple = (0, 0, 0)
    shot: tuple = (0, 0, 0)
    ball: int = NOBODY          # a ball's colour
    ops: tuple = ()             # an effect's operations, in order


class Cell(NamedTuple):
    index: int                  # row * 5 + col: actions name cells by it
    row: int
    col: int
    colour: int
    points: int                 # zone value: zone_points_rb or zone_points_g
    owner: int                  # NORTH, SOUTH or NOBODY (green)


def legal_attack_cell(cell: Cell, seat: int) -> bool:
    """§3.1: a green cell, or a red/blue cell of the opponent's half."""
    return cell.colour == G or (cell.owner != NOBODY and cell.owner != seat)


def field(params: dict) -> tuple[Cell, ...]:
    """The 24 cells of §1.3 in row-major order, with owners (FB-A6) and zone values from the rules."""
    cells = []
    for row, letters in enumerate(LAYOUT):
        for col, letter in enumerate(letters):
            if letter == "_":
                continue
            colour = COLOURS.index(letter)
            owner = NOBODY if colour == G else NORTH if row < 2 else SOUTH
            points = params["zone_points_g"] if colour == G else params["zone_points_rb"]
            cells.append(Cell(row * 5 + col, row, col, colour, points, owner))
    return tuple(cells)


def parse_op(op: str, arg, phase: str) -> Op:
    """An effect_ops row -> Op; ValueError naming what is wrong (unknown op, bad argument, wrong phase)."""
    if op not in OP_PHASES:
        raise ValueError(f"unknown effect op {op!r}")
    if phase != OP_PHASES[op]:
        raise ValueError(f"effect op {op} belongs to phase {OP_PHASES[op]}, not {phase!r}")
    text = "" if arg is None else str(arg).strip()
    if op in NUMBER_OPS:
        try:
            value = int(float(text))
        except ValueError:
            raise ValueError(f"effect op {op} needs a number, not {text!r}") from None
    elif op == "USE_COLOUR" or op == "MOVE_PLAY":
        if op == "MOVE_PLAY" and text.lower() == "best":
            value = BEST
        elif text.upper() in COLOURS:
            value = COLOURS.index(text.upper())
        else:
            raise ValueError(f"effect op {op} needs a colour B/R/G{' or best' if op == 'MOVE_PLAY' else ''}, "
                             f"not {text!r}")
    elif op == "FOUL":
        parts = text.split()
        if len(parts) != 2 or not parts[0].isdigit() or parts[1] not in ("attacking", "defending"):
            raise ValueError(f"effect op FOUL needs `<n> attacking|defending`, not {text!r}")
        value = (int(parts[0]), parts[1])
    else:
        value = None
    return Op(op, value, phase != "POINTS", phase != "TOTAL")


def colour_values(row: dict, prefix: str) -> tuple:
    return tuple(int(row[f"{prefix}_{c}"]) for c in COLOURS)
