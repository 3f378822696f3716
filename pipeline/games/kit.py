"""The game kit: helpers every coded game shares (the rows a pure engine takes, rulebook figures from decks,
the player range a rules sheet declares, staged checks)."""

from __future__ import annotations

from typing import Callable

from pipeline.core.errors import Report
from pipeline.data.params import rules
from pipeline.data.schema import Column
from pipeline.data.specs import Records


def engine_rows(records: Records, sheets: tuple[str, ...], specs: tuple[Column, ...]) -> tuple[list, dict]:
    """What a pure engine's GameData.from_rows takes: each sheet's rows as plain dicts, in `sheets` order, and
    the `rules` sheet typed. The game record and the game's rulebook (which shows the engine's own numbers)
    both build their GameData from it, so neither imports the other."""
    return [[dict(rec.values) for rec in records[sheet]] for sheet in sheets], dict(rules(records, specs).values)


def deck_figures(parts: list, back_name: Callable[[object, object], str]) -> dict:
    """Rulebook figures from a game's card decks: card-<id> for the first copy of every card (a face named
    <id>-<copy>, or <id>), and each back under back_name(deck, back face), first one kept."""
    from pipeline.data.specs import CardDeck

    figures: dict = {}
    for part in parts:
        if not isinstance(part, CardDeck):
            continue
        for index, face in enumerate(part.fronts):
            figures.setdefault(f"card-{face.name.rsplit('-', 1)[0] if '-' in face.name else face.name}", face)
            if part.backs:
                figures.setdefault(back_name(part, part.backs[index]), part.backs[index])
    return figures


def players_from_rules(specs: tuple[Column, ...]) -> Callable[[Records], tuple[int, int]]:
    """Simulation.players of a game whose rules sheet declares players_min and players_max."""
    def player_range(records: Records) -> tuple[int, int]:
        params = rules(records, specs)
        return params["players_min"], params["players_max"]
    return player_range


def staged_checks(check_rows: Callable[[Records, Report], None], check_rules: Callable[[Records, Report], None]
                  ) -> Callable[[Records, Report], None]:
    """Stage 3 (rows together), then stage 5 (rules) only when the rows are clean."""
    def run(records: Records, report: Report) -> None:
        check_rows(records, report)
        if not report.errors:
            check_rules(records, report)
    return run
