"""Fightball's drawn rulebook figures: the field's layout (fig-field.yaml, from the engine's layout and the
rules sheet's zone values) and the worked examples as piles of the real cards (the generic stack figure,
pipeline/render/rulebook/stackfig.py), bottom card first, with what each card does beside it.

Every pile shows the header of each card (team, emblem, kind of card: who placed it and what it is), the top
card down to its first words, and its name and values in the label: the cards' headers are what a pile on
the table shows too."""

from __future__ import annotations

from pipeline.data.specs import FaceSpec
from pipeline.games.fightball.engine.data import COLOURS, NORTH, SOUTH, field
from pipeline.games.fightball.rulebook.examples import colour_words
from pipeline.render.rulebook.stackfig import StackCard, StackFigure

WIDTH = 86.0                # mm: a rulebook column (A4)
BAND = 16.5                 # mm of a card under the next one: its header (emblem, team, kind of card)
TOP = 36.0                  # mm of the top card: its header and its first words (a name, SHOT and its colour)
LABEL = 21.0                # mm: the labels' column beside the cards


def field_plan(rules: dict, examples: dict) -> FaceSpec:
    """The 5 × 5 field of the set-up: every cell's colour, letter and points, whose cell it is (red and blue
    cells belong to the coach of their half), the empty centre where the BUZZ goes."""
    cell_w, cell_h, gap, band = 13.0, 16.0, 1.6, 7.0
    grid_w = 5 * cell_w + 4 * gap
    left = (WIDTH - grid_w) / 2
    owners = {NORTH: examples["alice"], SOUTH: examples["bruno"]}
    cells = []
    for cell in field(rules):
        x, y = left + cell.col * (cell_w + gap), band + cell.row * (cell_h + gap)
        colour = colour_words(COLOURS[cell.colour])
        cells.append({"x": x, "y": y, "fill": colour["hex"], "letter": colour["letter"],
                      "points": f"{cell.points} pts", "owner": f"à {owners[cell.owner]}" if cell.owner in owners else ""})
    centre = {"x": left + 2 * (cell_w + gap), "y": band + 2 * (cell_h + gap)}
    height = 2 * band + 5 * cell_h + 4 * gap
    context = {"size": [WIDTH, round(height, 2)], "cells": cells, "centre": centre, "cell_w": cell_w,
               "cell_h": cell_h, "north": f"NORD : {examples['alice']} ({examples['north_name']})",
               "south": f"SUD : {examples['bruno']} ({examples['south_name']})"}
    return FaceSpec("fig-field.yaml", context, None, "field-plan", size_mm=(WIDTH, round(height, 2)), legible=True)


def _stack(name: str, faces: dict, cards: list[tuple], caption: str = "") -> StackFigure | None:
    """cards: (card id, label, mark); None when a card has no face (yet)."""
    wanted = [faces.get(f"card-{card_id}") for card_id, _, _ in cards]
    if any(face is None for face in wanted):
        return None
    return StackFigure(name, tuple(StackCard(face, label, mark) for face, (_, label, mark) in zip(wanted, cards)),
                       band_mm=BAND, top_mm=TOP, label_mm=LABEL, caption=caption)


def _attacker(player: dict, colour: dict) -> str:
    return f"{player['name']}\nattaque {colour['letter']} {player['atk'][colour['code']]}"


def _defender(player: dict, colour: dict) -> str:
    return f"{player['name']}\ndéfense {colour['letter']} −{player['def'][colour['code']]}"


def _shot(shot: dict, colour: dict) -> str:
    return f"tir {colour['letter']} {shot['value'][colour['code']]}"


def _ball(colour: dict, bonus: int) -> str:
    return f"balle {colour['feminine']}\n+{bonus}"


def play_stacks(faces: dict, examples: dict, rules: dict) -> dict[str, StackFigure | None]:
    """The green play alone, then with Bruno's two defenders."""
    green = examples["green"]
    if green is None:
        return {}
    colour, bonus = green["colour"], green["bonus"]
    attacker = (green["attacker"]["id"], _attacker(green["attacker"], colour), "")
    ball = (green["ball"], _ball(colour, bonus), "")
    shot = (green["shot"]["id"], _shot(green["shot"], colour), "")
    defenders = [(d["id"], _defender(d, colour), "") for d in green["defenders"]]
    verdict = f"{green['points']} points" if green["scores"] else "raté"
    play = _stack("stack-play", faces, [attacker, ball, shot],
                  f"{green['attacker']['atk']['G']} + {bonus} + {green['shot']['value']['G']} = {green['total']} : "
                  f"{verdict}")
    after = f"{green['after_two']} : " + ("l'action marque encore" if green["scores_two"] else "raté")
    defence = _stack("stack-defence", faces, [attacker, *defenders, ball, shot],
                     f"{green['total']} − {green['defenders'][0]['def']['G']} − "
                     f"{green['defenders'][1]['def']['G']} = {after}")
    out = {"stack-play": play, "stack-defence": defence}
    if green["first"] is not None:
        first, blocker = green["first"], green["defenders"][0]
        out["stack-new-attacker"] = _stack("stack-new-attacker", faces, [
            (first["id"], _attacker(first, colour), ""),
            (blocker["id"], f"{blocker['name']}\nne compte plus", "cross"),
            (attacker[0], f"{green['attacker']['name']}\nnouvel attaquant {colour['letter']} "
                          f"{green['attacker']['atk']['G']}", ""),
            ball, shot], f"{green['attacker']['atk']['G']} + {bonus} + {green['shot']['value']['G']} = "
                         f"{green['total']} : {verdict}")
    return out


def nine_stacks(faces: dict, examples: dict, rules: dict) -> dict[str, StackFigure | None]:
    nine = examples["nine"]
    if nine is None:
        return {}
    colour, zone = nine["colour"], nine["zone"]
    add, times = nine["add"], nine["times"]
    base = [(nine["attacker"]["id"], _attacker(nine["attacker"], colour), ""),
            (nine["ball"], _ball(colour, rules["ball_match_bonus"]), "")]
    shot = (nine["shot"]["id"], _shot(nine["shot"], colour) + f"\ntotal {nine['total']}", "")
    add_card = (add["id"], f"{add['name']}\n+{add['n']} points", "")
    times_card = (times["id"], f"{times['name']}\n×{times['k']}", "")
    return {
        "stack-nine-a": _stack("stack-nine-a", faces, [*base, times_card, add_card, shot],
                               f"{zone} × {times['k']} + {add['n']} = {nine['times_first']} points"),
        "stack-nine-b": _stack("stack-nine-b", faces, [*base, add_card, times_card, shot],
                               f"({zone} + {add['n']}) × {times['k']} = {nine['add_first']} points"),
    }


def foul_stacks(faces: dict, examples: dict, rules: dict) -> dict[str, StackFigure | None]:
    fouls, green, alice = examples["fouls"], examples["green"], examples["alice"]
    out: dict[str, StackFigure | None] = {}
    start = fouls["false_start"]
    if start["attacker"] is not None:
        out["stack-false-start"] = _stack("stack-false-start", faces, [
            (start["ball"], f"faux départ\n+{start['points']} pour {alice}", "foul"),
            (start["attacker"]["id"], f"{start['attacker']['name']}\nignoré", "cross")],
            f"Case verte : {alice} marque {start['points']} points")
    if green is None:
        return out
    colour = green["colour"]
    attacker = (green["attacker"]["id"], _attacker(green["attacker"], colour), "")
    ball = (green["ball"], _ball(colour, green["bonus"]), "")
    shot = (green["shot"]["id"], _shot(green["shot"], colour), "")
    if "too_late" in fouls:
        late = fouls["too_late"]
        out["stack-too-late"] = _stack("stack-too-late", faces, [
            attacker, ball, shot,
            (late["late"]["id"], f"{late['late']['name']}\ntrop tard\n+{late['points']} pour {alice}", "foul"),
            (late["other"], "ignorée", "cross")],
            f"{alice} : {green['points']} + {late['points']} points" if green["scores"] else "")
    if "hurried" in fouls:
        hurried = fouls["hurried"]
        out["stack-hurried"] = _stack("stack-hurried", faces, [
            attacker, (hurried["shot"]["id"], f"tir précipité\n+{hurried['points']} pour {alice}", "foul"),
            ball, (shot[0], shot[1] + f"\ntotal {green['total']}", "")],
            f"{alice} : {hurried['points']} + {green['points']} points" if green["scores"] else "")
    return out


def diagram_figures(faces: dict, examples: dict, rules: dict) -> dict:
    """field-plan and the piles whose cards all have faces."""
    figures: dict = {"field-plan": field_plan(rules, examples)}
    for made in (play_stacks(faces, examples, rules), nine_stacks(faces, examples, rules),
                 foul_stacks(faces, examples, rules)):
        figures.update({name: stack for name, stack in made.items() if stack is not None})
    return figures
