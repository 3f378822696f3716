"""What Fightball's rulebook chapters (templates/fightball/rules/*.md) see: the counts of a team's deck and of
the field, the teams' profiles and players, every effect card explained (effects.py), the worked examples
chosen from the workbook's cards (examples.py), and the figures they may show by name: the real faces
(card-<id>, back-<team>) and the drawn diagrams (diagrams.py: the field, the piles of the examples)."""

from __future__ import annotations

from pipeline.data.specs import FaceSpec, Records, RulebookSpec
from pipeline.games.fightball.components import parameters
from pipeline.games.fightball.engine.data import COLOURS, LAYOUT
from pipeline.games.fightball.rulebook.diagrams import diagram_figures
from pipeline.games.fightball.rulebook.effects import effect_cards
from pipeline.games.fightball.rulebook.examples import colour_words, examples
from pipeline.games.kit import deck_figures
from pipeline.render.markup import Markdown, shield


def _copies(rows) -> int:
    return sum(int(rec["copies"] or 0) for rec in rows)


def counts(records: Records) -> dict:
    """One team's deck (the first team: the checks hold every team to the same counts) and the box's."""
    teams = records["teams"]
    first = teams[0] if teams else None
    tid = first["id"] if first else ""
    mine = lambda sheet: [rec for rec in records[sheet] if rec["team"] == tid]  # noqa: E731
    deck = {"players": _copies(mine("players")), "names": len(mine("players")), "shots": _copies(mine("shots")),
            "effects": _copies(mine("effects")),
            "balls": sum(first[f"balls_{c}"] for c in COLOURS) if first else 0,
            "balls_each": first["balls_B"] if first else 0, "buzz": first["buzz"] if first else 0}
    deck["cards"] = deck["players"] + deck["shots"] + deck["effects"] + deck["balls"] + deck["buzz"]
    field = {c: first[f"field_{c}"] if first else 0 for c in COLOURS}
    cells = {c: sum(row.count(c) for row in LAYOUT) for c in COLOURS}
    manifest = {rec["component"]: rec["count"] for rec in records["components"]}
    models = [sum(1 for rec in records["effects"] if rec["team"] == team["id"]) for team in teams] or [0]
    return {"teams": len(teams), "deck": deck, "field": field, "field_cards": sum(field.values()),
            "cells": cells, "cells_total": sum(cells.values()), "players_box": manifest.get("player", 0),
            "cards_box": deck["cards"] * len(teams), "field_box": sum(field.values()) * len(teams),
            "aids": manifest.get("player_aid", 2), "models_min": min(models), "models_max": max(models)}


def _mean(values: list) -> str:
    return f"{sum(values) / len(values):.1f}".replace(".", ",") if values else "0"


def team_profiles(records: Records) -> list[dict]:
    """Per team: name, emblem, profile, its players' values and mean values by colour, its best colour."""
    out = []
    for team in records["teams"]:
        players = [rec for rec in records["players"] if rec["team"] == team["id"]]
        shots = [rec for rec in records["shots"] if rec["team"] == team["id"]]
        attack = {c: [rec[f"atk_{c}"] for rec in players] for c in COLOURS}
        defence = {c: [rec[f"def_{c}"] for rec in players] for c in COLOURS}
        shot = {c: [rec[f"shot_{c}"] for rec in shots for _ in range(rec["copies"])] for c in COLOURS}
        best = max(COLOURS, key=lambda c: sum(attack[c]))
        out.append({"id": team["id"], "name": team["name"], "emblem": team["emblem"], "profile": team["profile"],
                    "players": [dict(rec.values) for rec in players],
                    "attack": {c: _mean(attack[c]) for c in COLOURS}, "defence": {c: _mean(defence[c]) for c in COLOURS},
                    "shot": {c: _mean(shot[c]) for c in COLOURS}, "best": colour_words(best)})
    return out


def samples(records: Records) -> dict:
    """Ids of the cards the chapters show: the north team's first player, Shot card and effect."""
    north = parameters(records)["team_north"]
    first = lambda sheet: next((rec["id"] for rec in records[sheet] if rec["team"] == north), "")  # noqa: E731
    return {"team": north, "player": first("players"), "shot": first("shots"), "effect": first("effects"),
            "ball": f"{north}_ball_R", "buzz": f"{north}_buzz", "field": f"{north}_field_G"}


def rulebook_context(records: Records, rules: dict, figure_names: set[str] | frozenset[str] = frozenset()) -> dict:
    names = frozenset(figure_names)

    def figure(caption: str, *wanted: str) -> Markdown | str:
        """The Markdown of a figure row, or nothing when one of its faces does not exist (yet)."""
        if not wanted or any(name not in names for name in wanted):
            return ""
        return Markdown(f"![{shield(caption)}](figure:{shield(','.join(wanted))})")

    return {"game": {"title": "Fightball"}, "rules": rules, "counts": counts(records),
            "colours": [colour_words(c) | {"points": rules["zone_points_g" if c == "G" else "zone_points_rb"]}
                        for c in COLOURS],
            "teams": team_profiles(records), "effects": effect_cards(records, rules),
            "ex": examples(records, rules), "samples": samples(records), "figures": sorted(names),
            "figure": figure}


def rulebook_figures(parts: list) -> dict[str, FaceSpec]:
    """card-<id> (the first copy of every card: player, ball, Shot card, effect, BUZZ, field card) and
    back-<team>, field-back-<team>."""
    return deck_figures(parts, lambda deck, back: f"{'field-back' if deck.id.startswith('field-') else 'back'}-"
                                                  f"{deck.id.split('-', 1)[-1]}")


def rulebook(records: Records, parts: list) -> RulebookSpec:
    rules = parameters(records)
    figures: dict = rulebook_figures(parts)
    context = rulebook_context(records, rules, set(figures))
    figures.update(diagram_figures(figures, context["ex"], rules))
    context = rulebook_context(records, rules, set(figures))
    return RulebookSpec("rulebook", "Règles du jeu", "rules", context, figures)


def with_rulebook(records: Records, parts: list) -> list:
    """The printed components and, last, the rulebook showing them."""
    return [*parts, rulebook(records, parts)]
