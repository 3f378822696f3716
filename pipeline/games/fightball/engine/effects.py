"""The special-effect vocabulary of §3.3 (FB-A2, FB-A4, FB-A5, FB-A18): the two passes over a complete play's
effect cards, bottom first. The TOTAL pass runs on every complete play before the threshold test; the POINTS
pass only on valid plays. CANCEL_EFFECTS_BELOW restarts the pass (the values before any effect, lower cards
dropped, the same card's earlier operations included); it belongs to both passes."""

from __future__ import annotations

from pipeline.games.fightball.engine.data import NOBODY

EFFECT_FOUL = "effect_foul"


def total_pass(effects: tuple, cell_colour: int, cards: tuple) -> tuple[int, int, int]:
    """(colour the values are read in, total added, position below which defenders are ignored)."""
    colour, added, ignore_below = cell_colour, 0, NOBODY
    for pos, card, _ in effects:
        for op in cards[card].ops:
            if not op.total:
                continue
            name = op.op
            if name == "CANCEL_EFFECTS_BELOW":
                colour, added, ignore_below = cell_colour, 0, NOBODY
            elif name == "ADD_TOTAL":
                added += op.arg
            elif name == "IGNORE_DEFENDERS":
                ignore_below = pos
            elif name == "USE_COLOUR":
                colour = op.arg
    return colour, added, ignore_below


def points_pass(effects: tuple, team: int, zone_points: int, cards: tuple, move_points: dict) -> tuple:
    """(points, beneficiary, effect fouls) of a valid play of `team` on a cell worth zone_points.
    move_points: MOVE_PLAY's zone value per argument for this team (GameData.move_points[team]).
    FOUL n attacking: the defending team scores n; FOUL n defending: the attacking team does. A foul's
    points go to their team whatever STEAL does (never stolen)."""
    points, beneficiary, fouls = zone_points, team, []
    for _, card, _ in effects:
        for op in cards[card].ops:
            if not op.points:
                continue
            name = op.op
            if name == "CANCEL_EFFECTS_BELOW":
                points, beneficiary, fouls = zone_points, team, []
            elif name == "ADD_POINTS":
                points += op.arg
            elif name == "MULTIPLY_POINTS":
                points *= op.arg
            elif name == "SET_POINTS":
                points = op.arg
            elif name == "MOVE_PLAY":
                moved = move_points[op.arg]
                if moved is not None:           # no cell of that colour is legal for the attacker: no move
                    points = moved
            elif name == "STEAL":
                beneficiary = 1 - team
            elif name == "FOUL":
                n, against = op.arg
                fouls.append((1 - team if against == "attacking" else team, n, EFFECT_FOUL))
    return max(points, 0), beneficiary, fouls
