"""Fightball's rule parameters, declared once: names, types and ranges (schema.py adds the designer's docs and
builds the `rules` sheet's columns from it; the engine refuses a bad value on its own). shared/games/fightball.md
§6 and the resolutions FB-A8 (same-name new attacker) and FB-A11 (a tie)."""

from __future__ import annotations

PARAMETERS = {
    "quarters": ("int", 1, 8),
    "threshold": ("int", 1, 40),
    "ball_match_bonus": ("int", 0, 9),
    "zone_points_rb": ("int", 0, 9),
    "zone_points_g": ("int", 0, 9),
    "too_late_points": ("int", 0, 9),
    "hurried_shot_points": ("int", 0, 9),
    "speed_north": ("int", 1, 99),          # a weight: north acts next with speed_north / (north + south)
    "speed_south": ("int", 1, 99),
    "new_attacker_same_name_compares": ("enum", "current", "first"),
    "tie_rule": ("enum", "draw", "overtime"),
    "overtime_quarters": ("int", 1, 9),     # tie_rule overtime: extra quarters at most, then a draw
    "bot_error_pct": ("int", 0, 50),        # the heuristic bot's ε, in percent (§3.5)
    "team_north": ("str",),                 # team ids (sheet teams) of the two decks a simulation matches
    "team_south": ("str",),
}
