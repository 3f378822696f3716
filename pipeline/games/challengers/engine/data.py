"""Challengers' rule parameters, declared once: names, types and ranges (schema.py adds the designer's docs and
builds the `rules` sheet's columns from it; the engine refuses a bad value on its own). shared/games/
challengers.md §6 and the resolutions CH-A5 (redraw), CH-A6 (fans), CH-A9 (capture order), CH-A14 (ties),
CH-A15 (deck size), CH-A18 (the opening card)."""

from __future__ import annotations

PARAMETERS = {
    "players_min": ("int", 1, 8),
    "players_max": ("int", 1, 8),
    "rounds": ("int", 1, 10),
    "hand_size": ("int", 1, 10),
    "bench_slots": ("int", 1, 12),
    "sets_per_game": ("int", 1, 6),
    "lead_to_win": ("int", 1, 99),                  # 1–2 players: a lead this large after a Match phase wins
    "redraws_per_round": ("int", 0, 3),
    "redraw_after_first_pick": ("bool",),           # CH-A5: the redraw may come after the first card is kept
    "min_deck_size": ("int", 1, 40),                # CH-A15
    "robot_level": ("int", 1, 5),
    "solo_challenge": ("bool",),                    # the robot adds its SOLO cards
    "sets": ("str",),                               # "random", or the sets_per_game set ids, comma separated
    "fans_from_trophies": ("enum", "values", "count"),              # CH-A6: trophy values (or one per trophy)
    "capture_order": ("enum", "losing_flag_first", "bench_first"),  # CH-A9
    "opening_triggers_on_attack": ("bool",),        # CH-A18: no in this edition
    "duo_tie_rule": ("enum", "draw", "random"),     # CH-A14: 1–2 players tied after trophies and best trophy
    "max_reveals_per_match": ("int", 50, 100000),   # safety cap only: a match ends by its own rules
}
