"""TEMPLATE: the rule parameters' one declaration, names, types and ranges (schema.py adds the designer's
docs and builds the `rules` sheet's columns from it; the engine refuses a bad value on its own)."""

from __future__ import annotations

PARAMETERS = {
    "players_min": ("int", 1, 8),
    "players_max": ("int", 1, 8),
    "target": ("int", 2, 100),
    "end_rule": ("enum", "after_round", "at_once"),
    "max_rounds": ("int", 1, 1000),
}
