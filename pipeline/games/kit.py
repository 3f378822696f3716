"""Helpers every game shares, below the games and the driver alike (they import nothing of either): where a
flagged game's blame points in the workbook, the records with some rule parameters changed, and the player
range a rules sheet declares."""

from __future__ import annotations

from pipeline.errors import SourceRef
from typing import Callable

from pipeline.games.base import Records
from pipeline.params import rules
from pipeline.schema import Column


def blame_rows(records: Records, outcome: dict) -> list[SourceRef]:
    """The cells behind an outcome's "blame" pairs: ["rules", parameter] -> its value cell, [sheet, row id]
    -> that row. Games use it as their Simulation.blame."""
    refs = []
    for sheet, key in outcome.get("blame", ()):
        for rec in records.get(sheet, ()):
            if sheet == "rules" and rec.get("parameter") == key:
                refs.append(rec.at("value"))
            elif rec.get("id") == key:
                refs.append(rec.ref)
    return refs


def engine_rows(records: Records, sheets: tuple[str, ...], specs: tuple[Column, ...]) -> tuple[list, dict]:
    """What a pure engine's GameData.from_rows takes: each sheet's rows as plain dicts, in `sheets` order, and
    the `rules` sheet typed. The game record and the game's rulebook (which shows the engine's own numbers)
    both build their GameData from it, so neither imports the other."""
    return [[dict(rec.values) for rec in records[sheet]] for sheet in sheets], dict(rules(records, specs).values)


def deck_figures(parts: list, back_name: Callable[[object, object], str]) -> dict:
    """Rulebook figures from a game's card decks: card-<id> for the first copy of every card (a face named
    <id>-<copy>, or <id>), and each back under back_name(deck, back face), first one kept."""
    from pipeline.games.base import CardDeck

    figures: dict = {}
    for part in parts:
        if not isinstance(part, CardDeck):
            continue
        for index, face in enumerate(part.fronts):
            figures.setdefault(f"card-{face.name.rsplit('-', 1)[0] if '-' in face.name else face.name}", face)
            if part.backs:
                figures.setdefault(back_name(part, part.backs[index]), part.backs[index])
    return figures


def with_rules(records: Records, rules: tuple[tuple[str, str], ...]) -> Records:
    """The records with some `rules` sheet values replaced (`pnp simulate --rule mode=duel`): the same typing
    and checks apply to them as to the workbook's own cells. ValueError names an unknown parameter."""
    from dataclasses import replace
    from types import MappingProxyType

    if not rules:
        return records
    wanted = dict(rules)
    known = {rec.get("parameter") for rec in records.get("rules", ())}
    unknown = sorted(set(wanted) - known)
    if unknown:
        raise ValueError(f"unknown rule parameter {', '.join(unknown)} (known: {', '.join(sorted(map(str, known)))})")
    rows = [replace(rec, values=MappingProxyType({**rec.values, "value": wanted[rec.get("parameter")]}))
            if rec.get("parameter") in wanted else rec for rec in records["rules"]]
    return {**records, "rules": rows}


def players_from_rules(specs: tuple[Column, ...]) -> Callable[[Records], tuple[int, int]]:
    """Simulation.players of a game whose rules sheet declares players_min and players_max."""
    def player_range(records: Records) -> tuple[int, int]:
        params = rules(records, specs)
        return params["players_min"], params["players_max"]
    return player_range
