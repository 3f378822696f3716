"""NBA Deck-Building's drawn rulebook figures, at print size in a rulebook column (80 mm): the Terrain and
Marchés boards as schematics (their slots as the rules sheet counts them; the Terrain also with the set-up
cards placed) and
an attack resolving, from the worked example.

The boards themselves are 440 mm wide: shown whole in a column their 9 pt words print at 1.6 pt. These
schematics keep the boards' arrangement (tactic rows above and below the five posts; the Player track, the
piles and the Tactic market in three rows) but not their proportions, so that every word stays at 7 pt."""

from __future__ import annotations

from pipeline.data.specs import FaceSpec, Records
from pipeline.games.nba.components.cards import POSITION_NAMES
from pipeline.games.nba.components.dice import face_context
from pipeline.games.nba.engine.rules import push_track, shift_track
from pipeline.games.nba.schema import POSITIONS

WIDTH = 80.0                # mm: a rulebook column
EDGE, GAP = 2.0, 1.5        # the board's border; between slots
CARD_INSET = 0.6            # a card drawn inside its slot
NAVY, CARD, INK = "#1B2A4A", "#FFFFFF", "#1E1E1E"


def _slot(kind: str, x: float, y: float, w: float, h: float, label: str, mark: str = "") -> dict:
    return {"kind": kind, "x": round(x, 3), "y": round(y, 3), "w": round(w, 3), "h": round(h, 3), "label": label,
            "mark": mark}


def court_plan(offence_slots: int, defence_slots: int) -> dict:
    """Offensive tactics and their dice zone, the five posts, defensive tactics and theirs."""
    tactic_w, tactic_h, post_h = 16.0, 10.5, 17.0
    post_w = (WIDTH - 2 * EDGE - (len(POSITIONS) - 1) * GAP) / len(POSITIONS)
    slots, y = [], EDGE
    rows = ((offence_slots, "Attaque", "Dés offensifs"), None, (defence_slots, "Défense", "Dés défensifs"))
    for row in rows:
        if row is None:
            for k, code in enumerate(POSITIONS):
                slots.append(_slot("player", EDGE + k * (post_w + GAP), y, post_w, post_h, POSITION_NAMES[code], code))
            y += post_h + GAP
            continue
        count, word, dice = row
        width = min(tactic_w, (WIDTH - 2 * EDGE - 20 - count * GAP) / max(count, 1))
        for k in range(count):
            slots.append(_slot("tactic", EDGE + k * (width + GAP), y, width, tactic_h, f"{word} {k + 1}"))
        x = EDGE + count * (width + GAP)
        slots.append(_slot("dice", x, y, WIDTH - EDGE - x, tactic_h, dice))
        y += tactic_h + GAP
    return {"size": [WIDTH, round(y - GAP + EDGE, 3)], "slots": slots, "arrows": [], "cards": []}


def markets_plan(track_slots: int, market_slots: int) -> dict:
    """The Player track (1 -> n), the piles under it, the Tactic market: components/boards.py's arrangement."""
    columns = max(track_slots, market_slots, 6)
    cell_w = (WIDTH - 2 * EDGE - (columns - 1) * GAP) / columns
    cell_h, band = 11.5, 3.5
    x = lambda c: EDGE + c * (cell_w + GAP)   # noqa: E731
    row1 = EDGE + band
    row2 = row1 + cell_h + 2.5
    row3 = row2 + cell_h + GAP
    slots = [_slot("track", x(k), row1, cell_w, cell_h, f"Joueur {k + 1}", str(k + 1)) for k in range(track_slots)]
    discard = track_slots - 1 if track_slots >= 3 else columns - 1
    free = [c for c in range(columns) if c not in (0, discard)]
    piles = ((0, "Pioche Joueur"), (discard, "Défausse Joueur"), (free[0], "Pioche Fatigue"),
             (free[-2], "Pioche Tactique"), (free[-1], "Défausse Tactique"))
    slots += [_slot("pile", x(c), row2, cell_w, cell_h, label) for c, label in piles]
    slots += [_slot("market", x(k), row3, cell_w, cell_h, f"Marché {k + 1}", str(k + 1)) for k in range(market_slots)]
    y = EDGE + band / 2
    head = 1.2
    arrow = {"path": [[x(0) + 1, y], [x(track_slots - 1) + cell_w - 1 - 1.6 * head, y]],
             "head": [[x(track_slots - 1) + cell_w - 1, y], [x(track_slots - 1) + cell_w - 1 - 1.6 * head, y - head],
                      [x(track_slots - 1) + cell_w - 1 - 1.6 * head, y + head]]}
    return {"size": [WIDTH, round(row3 + cell_h + EDGE, 3)], "slots": slots, "arrows": [arrow], "cards": []}


def _card(slot: dict, name: str, top: str = "", bottom: str = "", back: bool = False) -> dict:
    return {"x": slot["x"] + CARD_INSET, "y": slot["y"] + CARD_INSET, "w": slot["w"] - 2 * CARD_INSET,
            "h": slot["h"] - 2 * CARD_INSET, "name": name, "top": top, "bottom": bottom,
            "fill": NAVY if back else CARD, "ink": "#FFFFFF" if back else INK}


def _face(figure: dict, name: str) -> FaceSpec:
    return FaceSpec("fig-board.yaml", figure, None, name, size_mm=tuple(figure["size"]), legible=True)


def court_setup(records: Records, rules: dict) -> FaceSpec:
    """A Terrain board after the initiation set-up: set A's initiation Starters on their posts."""
    figure = court_plan(rules["offence_slots"], rules["defence_slots"])
    starters = [r for r in records["players"] if r["set"] == "A" and r["kind"] == "starter" and r.get("initiation")]
    by_post = {str(r["positions"]).split("/")[0].strip(): r for r in starters}
    for slot in figure["slots"]:
        rec = by_post.get(slot["mark"]) if slot["kind"] == "player" else None
        if rec is not None:
            figure["cards"].append(_card(slot, rec["name"], rec["positions"], f"valeur {rec['value']}"))
    return _face(figure, "court-setup")


def _die(skills: dict, skill: str, value: int, colour: str | None, kept: bool) -> dict:
    look = face_context(skills, skill, 0, value, colour)
    return {key: look[key] for key in ("body", "ink", "value", "blank", "counter_hex", "counter_letter", "disc")} \
        | {"kept": kept}


def _kept_flags(values: list, kept: list) -> list[bool]:
    """Which rolled dice were kept: each kept value marks one rolled die showing it."""
    left, flags = list(kept), []
    for value in values:
        flags.append(value in left)
        if value in left:
            left.remove(value)
    return flags


def attack_figure(context: dict) -> FaceSpec | None:
    """Fred's turn-1 attack, Sophie's defence against it and the points Fred scores at his next turn."""
    example = context.get("example")
    if not example:
        return None
    skills, names = context["skills"], context["colour_names"]
    offence, defence = example["fred1"]["offence"], example["sophie1"]["defence"]
    off_dice = [_die(skills, offence["skill"], value, None, kept)
                for value, kept in zip(offence["after"], _kept_flags(offence["after"], offence["kept"]))]
    def_dice = []
    for code, faces in defence["after"].items():
        faces = [tuple(face) for face in faces]
        kept = [tuple(face) for face in defence["kept"].get(code, [])]
        def_dice += [_die(skills, code, value, colour, flag)
                     for (value, colour), flag in zip(faces, _kept_flags(faces, kept))]
    waiting = " ou ".join(names[c] for c in defence["waiting"])
    points = example["fred2"]["points"]
    steps = [{"title": f"Fred active « {offence['tactic']['name']} » et garde ses meilleurs dés",
              "dice": off_dice, "total": f"= {offence['total']}"},
             {"title": f"Sophie défend : elle ne garde que du {waiting}", "dice": def_dice,
              "total": f"= {defence['total']}"}]
    result = {"title": "Au tour suivant, Fred marque",
              "sum": f"{offence['total']} − {defence['total']} = {points} point{'s' if points > 1 else ''}"}
    size = (WIDTH, 40.0)
    return FaceSpec("fig-attack.yaml", {"size": list(size), "steps": steps, "result": result}, None, "attack",
                    size_mm=size, legible=True)


def diagram_figures(parts: list, records: Records, context: dict) -> dict[str, FaceSpec]:
    """court-plan and court-setup (with the Terrain board), markets-plan and track-* (with the Marchés board),
    attack (with the dice and a worked example): each drawing shows a component the game prints."""
    rules, printed = context["rules"], {part.id for part in parts}
    figures: dict[str, FaceSpec] = {}
    if "court" in printed:
        figures["court-plan"] = _face(court_plan(rules["offence_slots"], rules["defence_slots"]), "court-plan")
        figures["court-setup"] = court_setup(records, rules)
    if "markets" in printed:
        figures["markets-plan"] = _face(markets_plan(rules["track_slots"], rules["market_slots"]), "markets-plan")
        figures.update(track_figures(rules))
    attack = attack_figure(context) if "dice" in printed else None
    if attack is not None:
        figures["attack"] = attack
    return figures


def _track_row(label: str, cards: list, out, new: int = -1) -> dict:
    return {"label": label, "cells": [card or "" for card in cards], "out": out or "", "new": new}


def track_figures(rules: dict) -> dict[str, FaceSpec]:
    """The river's moves as the rules engine makes them: a full track, a track with a hole in slot 2, and (when
    the rules shift it) a track whose pile is empty. Cards are letters; g is the card just revealed."""
    slots = rules["track_slots"]
    letters = [chr(ord("a") + i) for i in range(slots)]
    holed = [letters[0], None, *letters[2:]]
    cases = {"track-full": ("Piste pleine", letters, push_track(letters, "g")),
             "track-hole": ("Un trou en 2", holed, push_track(holed, "g"))}
    if rules.get("river_when_pile_empty") == "shift_all":
        cases["track-empty"] = ("Pioche vide", holed, shift_track(holed))
    figures = {}
    for name, (label, before, (after, out)) in cases.items():
        rows = [_track_row(label, before, None), _track_row("Après", after, out, 0 if after[0] == "g" else -1)]
        size = (WIDTH, 27.0)
        figures[name] = FaceSpec("fig-track.yaml", {"size": list(size), "slots": slots, "rows": rows}, None, name,
                                 size_mm=size, legible=True)
    return figures
