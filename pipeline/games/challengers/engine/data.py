"""Challengers' rule parameters, declared once: names, types and ranges (schema.py adds the designer's docs and
builds the `rules` sheet's columns from it; the engine refuses a bad value on its own). shared/games/
challengers.md §6 and the resolutions CH-A5 (redraw window), CH-A6 (fans), CH-A9 (capture order), CH-A14 (ties),
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
    "redraw_window": ("enum", "any_time", "after_first_pick"),  # seed l.19, CH-A5: when the redraw may come
    "min_deck_size": ("int", 1, 40),                # CH-A15
    "short_pile": ("enum", "refill", "deal_what_is_left"),    # a level pile that runs out (seed l.19: hands of 5)
    "robot_level": ("int", 1, 5),
    "solo_challenge": ("bool",),                    # the robot adds its SOLO cards
    "solo_robot_deck": ("enum", "kept", "per_round"),   # seed l.57: the solo robot gains no new cards (kept)
    "sets": ("str",),                               # "random", or the sets_per_game set ids, comma separated
    "fans_from_trophies": ("enum", "values", "count"),              # CH-A6: trophy values (or one per trophy)
    "capture_order": ("enum", "losing_flag_first", "bench_first"),  # CH-A9
    "opening_triggers_on_attack": ("bool",),        # CH-A18: no in this edition
    "duo_tie_rule": ("enum", "draw", "random"),     # CH-A14: 1–2 players tied after trophies and best trophy
    "max_reveals_per_match": ("int", 50, 100000),   # safety cap only: a match ends by its own rules
}


# --- the game's vocabulary (challengers.md §3.1, §3.4) ------------------------------------------------------

LEVEL_CAPS = {"S": 3, "A": 3, "B": 5, "C": 10}        # strength caps per level (CH-T2, CH-A16); R and SOLO open
DRAFT_LEVELS = ("A", "B", "C")
NORMAL_COPIES = 4                                      # a card that says neither Rare nor Common (CH-T3)

# op -> the keyword timings it may have (§3.4; CH-A1: anything else is an error)
OP_TIMINGS = {
    "STRENGTH": ("none", "on_attack", "from_bench", "holding_flag"),
    "OPP_STRENGTH": ("none", "on_attack", "holding_flag"),
    "FANS": ("none", "losing_flag", "when_selected"),
    "BENCH_TO_DISCARD": ("none", "losing_flag"),
    "MILL_OPPONENT": ("none",),
    "SELF_TO_DECK_BOTTOM": ("losing_flag",),
    "REMOVE_FROM_DECK": ("when_selected",),
    "EXTRA_PICK": ("when_selected",),
}


def level_cap_ok(level: str, strength: int) -> bool:
    """CH-T2: A ≤ 3, B ≤ 5, C ≤ 10 (and S ≤ 3); robot levels have no cap."""
    return strength >= 0 and strength <= LEVEL_CAPS.get(level, 99)


def copies_of(row: dict) -> int | None:
    """CH-T3: a normal card of a drafted set has 4 copies; rare and common cards the count printed on them;
    starter and robot cards the copies their own sheets use (None here: not a pile card)."""
    if row.get("level") in ("S", "R", "SOLO") and row.get("rarity", "normal") == "normal" and not row.get("copies"):
        return None
    if row.get("rarity", "normal") == "normal":
        return NORMAL_COPIES if row.get("copies") in (None, "") else int(row["copies"])
    if row.get("copies") in (None, ""):
        raise ValueError(f"card {row.get('id')}: a {row['rarity']} card needs its copies (CH-A17)")
    return int(row["copies"])
