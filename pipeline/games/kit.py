"""The game kit: helpers every coded game shares (the game record's wiring, the typed rules sheet, the rows a
pure engine takes, rulebook figures from decks, the player range a rules sheet declares, staged checks)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from pipeline.core.errors import Report
from pipeline.data.manifest import COMPONENTS_SPEC
from pipeline.data.params import rules
from pipeline.data.schema import Column, SheetSpec
from pipeline.data.specs import Component, GameModule, Records


def game_record(game_id: str, title: str, root: Path, sheets: tuple[SheetSpec, ...], *, checks: Any,
                components: Callable[[Records], list[Component]], simulation: Any,
                rule_parameters: tuple[Column, ...], author: str = "", keywords: tuple[str, ...] = ()
                ) -> GameModule:
    """A coded game's record (its game_module(root)), wired by convention: the workbook is
    sheets/<game_id>.xlsx and the templates are templates/<game_id>/ under `root`; the workbook's sheets are
    `sheets` then the `components` manifest (stage 4), which every game keeps last. `checks` is the game's
    checks room (a module, or anything with check_rows, check_rules and summary): stage 3, then stage 5 only
    when the rows are clean, and the lines `pnp validate` prints."""
    return GameModule(
        id=game_id,
        title=title,
        data_files=(root / "sheets" / f"{game_id}.xlsx",),
        sheets=(*sheets, COMPONENTS_SPEC),
        template_dir=root / "templates" / game_id,
        components=components,
        rule_checks=staged_checks(checks.check_rows, checks.check_rules),
        summary=checks.summary,
        simulation=simulation,
        rule_parameters=rule_parameters,
        author=author,
        keywords=keywords,
    )


def parameters_from_rules(specs: tuple[Column, ...]) -> Callable[[Records], dict]:
    """A game's `parameters(records)`: its `rules` sheet typed by `specs` (stage 2's reading, kept by
    pipeline/data/params.py), as a plain dict parameter -> value. Values a game derives stay in the game."""
    def parameters(records: Records) -> dict:
        """The rules sheet, typed (read once, in stage 2), as a plain dict."""
        return dict(rules(records, specs).values)
    return parameters


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
