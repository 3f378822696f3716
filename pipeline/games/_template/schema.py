"""TEMPLATE: the game's sheets (columns, typed and documented) and its rule parameters, declared once. The
workbook (skeleton/sheets/template.xlsx) holds these sheets and the `components` manifest, which the game
record (pipeline/games/kit.py game_record) adds last."""

from __future__ import annotations

from pipeline.data.balance import BALANCE_SHEET
from pipeline.data.params import RULES_SHEET, rule_parameters
from pipeline.data.schema import Column, SheetSpec
from pipeline.games._template.engine.data import PARAMETERS

_ID = "Identifier: lower-case letters, digits and _ (used in logs, tests and PNG file names)."

RUNNERS = SheetSpec(
    name="runners", id_column="id",
    doc="Runner cards: one per seat, the runner a player moves along the track.",
    columns=(
        Column("id", doc=_ID),
        Column("name", doc="Runner's name printed on the card (French).", max_length=30),
        Column("colour", "color", doc="The runner's colour, #RRGGBB; its symbol says it too (never colour alone)."),
        Column("symbol", doc="One or two letters printed in the runner's colour (the colour's initial).",
               max_length=2),
        Column("text", required=False, max_length=120, doc="Flavour text printed on the card (French)."),
    ),
)

RULES = RULES_SHEET
BALANCE = BALANCE_SHEET          # the designer's balance gates (pipeline/play/gates.py)

RULE_PARAMETERS = rule_parameters(PARAMETERS, {    # names, types, ranges: engine/data.py
    "players_min": "Fewest players.",
    "players_max": "Most players (one runner card each, at least).",
    "target": "Squares to reach.",
    "end_rule": "after_round (the round is finished) or at_once (the first to arrive wins).",
    "max_rounds": "Safety cap: rounds in one game.",
})
