"""TEMPLATE: the game's sheets (columns, typed and documented) and its rule parameters, declared once."""

from __future__ import annotations

from pipeline.data.params import RULES_SHEET, rule_parameters
from pipeline.games._template.engine.data import PARAMETERS

RULES = RULES_SHEET

RULE_PARAMETERS = rule_parameters(PARAMETERS, {    # names, types, ranges: engine/data.py
    "target": "Squares to reach.",
    "end_rule": "after_round (the round is finished) or at_once (the first to arrive wins).",
    "max_rounds": "Safety cap: rounds in one game.",
})
