"""TEMPLATE: the game's sheets (columns, typed and documented) and its rule parameters, declared once."""

from __future__ import annotations

from pipeline.params import RULES_SHEET, parameter

RULES = RULES_SHEET

RULE_PARAMETERS = (
    parameter("target", "int", "Squares to reach.", min=2, max=100),
    parameter("end_rule", "enum", "after_round (the round is finished) or at_once (the first to arrive wins).",
              choices=("after_round", "at_once")),
    parameter("max_rounds", "int", "Safety cap: rounds in one game.", min=1, max=1000),
)
