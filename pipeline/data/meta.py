"""The `game` sheet a workbook may hold: facts about the game itself rather than its pieces, one per row
(`field`, `value`). Today one field, `author`: the designers' names. Filled, they replace the game record's
placeholder (pipeline/games/*/__init__.py `author=`) as every PDF's Author and are offered to the rulebook's
cover as `designers` (templates/<game>/rules/cover.yaml); empty, or without the sheet, the placeholder stays.

The sheet is optional: stage 1 checks its structure and stage 2 its cells only when the workbook has it."""

from __future__ import annotations

from dataclasses import replace

from pipeline.data.schema import Column, SheetSpec
from pipeline.data.specs import GameModule, Records

SHEET = "game"
FIELDS = {"author": "The designers' names as the game credits them (every PDF's Author, the rulebook's cover); "
                    "empty: the placeholder saying they are still to be named."}

GAME_SHEET = SheetSpec(
    name=SHEET, on_faces=False, id_column="field",
    doc="Facts about the game itself, one per row: field, then its value.",
    columns=(
        Column("field", "enum", choices=tuple(FIELDS), doc="Which fact: " + " ".join(
            f"{name}: {doc}" for name, doc in FIELDS.items())),
        Column("value", required=False, max_length=300, doc="The fact; empty: not given."),
    ),
)


def game_facts(records: Records) -> dict[str, str]:
    """field -> value of the `game` sheet, the filled ones only ({} without the sheet)."""
    return {str(rec["field"]): str(rec["value"]).strip() for rec in records.get(SHEET, ())
            if rec["value"] is not None and str(rec["value"]).strip()}


def with_game_facts(game: GameModule, records: Records | None) -> GameModule:
    """The game record completed by its workbook's `game` sheet: its designers when the sheet names them."""
    designers = game_facts(records or {}).get("author", "")
    return replace(game, designers=designers) if designers else game
