"""A small NBA Deck-Building data set for the engine's tests and benchmark, independent of sheets/nba.xlsx.

It follows the workbook's conventions (ids a_starter_mj_1, a_substitute_ar_2, a_base_offense_3_pts,
kyle_korver, kentucky_offense…): the dice of nba-deck-building.md §2, the 40 starting cards and Kyle Korver of
§7.3 (the §7.2 team values hold), the base tactics of §7.3, Kris Humphries and Danny Ainge of §7.1, 57 more
invented NBA cards (seeded, costs 2–10), the anchor market tactics of §7.1/§7.4 plus invented ones, 9 Fatigue
cards, the four game lengths of §4.1 and the Appendix A parameters.
"""

from __future__ import annotations

import random

from pipeline.games.nba.engine.data import GameData

POS = ("mj", "ar", "ai", "af", "p")
SKILLS = ("3P", "IN", "PE", "IT", "BL", "ST", "RB", "GI")
DICE_FACES = {   # die: (value, colour) for faces 1..6 (§2.1, §2.2)
    "3P": [(0, None), (0, None), (0, None), (2, None), (6, None), (9, None)],
    "IN": [(0, None), (0, None), (2, None), (4, None), (6, None), (7, None)],
    "PE": [(0, None), (2, None), (3, None), (4, None), (6, None), (6, None)],
    "IT": [(0, None), (1, "yellow"), (2, "blue"), (1, "blue"), (2, "blue"), (4, "red")],
    "BL": [(0, None), (2, "red"), (2, "yellow"), (1, "red"), (2, "blue"), (3, "red")],
    "ST": [(0, None), (2, "yellow"), (3, "yellow"), (3, "blue"), (1, "red"), (1, "yellow")],
}
# §7.3: name -> (initiation, value, 3P, IN, PE, IT, BL, ST, RB, GI)
STARTING = {
    "starter_mj_1": (1, 2, 0, 0, 2, 1, 0, 0, 0, 2), "starter_ar_1": (1, 2, 1, 0, 0, 1, 1, 2, 0, 1),
    "starter_ai_1": (1, 2, 1, 1, 1, 0, 1, 0, 1, 1), "starter_af_1": (1, 2, 1, 2, 0, 1, 0, 0, 1, 1),
    "starter_p_1": (1, 2, 0, 2, 0, 0, 0, 0, 2, 1), "starter_mj_2": (0, 2, 1, 0, 1, 1, 0, 0, 0, 2),
    "starter_ar_2": (0, 2, 2, 0, 1, 1, 0, 1, 0, 1), "starter_ai_2": (0, 2, 1, 0, 2, 0, 0, 1, 1, 1),
    "starter_af_2": (0, 2, 0, 1, 0, 0, 1, 1, 2, 1), "starter_p_2": (0, 2, 0, 2, 0, 0, 2, 0, 1, 1),
    "substitute_mj_1": (1, 1, 0, 0, 1, 1, 0, 0, 0, 1), "substitute_mj_2": (0, 1, 1, 0, 1, 0, 0, 0, 0, 1),
    "substitute_ar_1": (1, 1, 1, 0, 1, 1, 0, 1, 0, 0), "substitute_ar_2": (1, 1, 1, 0, 0, 1, 0, 0, 0, 1),
    "substitute_ai_1": (1, 1, 1, 1, 1, 1, 0, 0, 0, 0), "substitute_ai_2": (0, 1, 0, 0, 1, 1, 0, 1, 1, 0),
    "substitute_af_1": (1, 1, 0, 1, 0, 0, 1, 1, 1, 0), "substitute_af_2": (1, 1, 0, 1, 0, 0, 1, 1, 1, 0),
    "substitute_p_1": (1, 1, 0, 1, 0, 0, 1, 0, 2, 0), "substitute_p_2": (0, 1, 0, 2, 0, 0, 0, 1, 1, 0),
}
NAMED_NBA = {   # id: (positions, value, cost, 3P, IN, PE, IT, BL, ST, RB, GI)
    "kyle_korver": ("Ar", 2, 3, 3, 0, 0, 1, 0, 0, 1, 1),
    "kris_humphries": ("AF/P", 2, 3, 0, 2, 0, 0, 1, 1, 3, 0),
    "danny_ainge": ("Ar", 2, 4, 2, 0, 1, 1, 0, 1, 1, 1),
}
NBA_COSTS = [2] * 9 + [3] * 8 + [4] * 8 + [5] * 9 + [6] * 7 + [7] * 6 + [8] * 5 + [9] * 3 + [10] * 2   # 57
NBA_POSITIONS = ("MJ", "Ar", "Ai", "AF", "P", "MJ/Ar", "Ai/AF", "AF/P", "Ar/Ai")
# base tactics (§7.3): name -> (initiation, offence, complexity, keep per die)
BASE = {
    "offense_3_pts": (1, True, 3, {"3P": 2}), "offense_slashing": (1, True, 3, {"PE": 2}),
    "offense_low_post": (1, True, 3, {"IN": 2}), "offense_fast_break": (0, True, 4, {"PE": 1, "3P": 1}),
    "offense_pick_and_roll": (0, True, 4, {"IN": 1, "PE": 1}),
    "defense_switch": (1, False, 1, {"IT": 1, "ST": 1}), "defense_trap": (1, False, 1, {"BL": 1, "ST": 1}),
    "defense_zone": (0, False, 2, {"IT": 1, "BL": 1}), "defense_man_to_man": (0, False, 1, {"ST": 2}),
    "defense_press": (0, False, 2, {"IT": 2}),
}
# market models: id -> (offence, value, cost, complexity, keep per die, copies)
MARKET = {
    "kentucky_offense": (True, 1, 2, 5, {"3P": 3}, 4), "virginia_tech_offense": (True, 1, 2, 5, {"IN": 3}, 4),
    "duke_offense": (True, 1, 3, 4, {"3P": 1, "PE": 2}, 4), "gonzaga_offense": (True, 2, 5, 6, {"IN": 2, "PE": 2}, 3),
    "virginia_offense": (True, 2, 6, 7, {"PE": 3, "3P": 1}, 3), "ucla_offense": (True, 3, 8, 8, {"3P": 3, "IN": 2}, 3),
    "michigan_defense": (False, 1, 3, 3, {"BL": 2, "ST": 1}, 4), "syracuse_defense": (False, 1, 3, 4,
                                                                                     {"IT": 1, "BL": 1, "ST": 1}, 4),
    "houston_defense": (False, 2, 4, 5, {"IT": 2, "BL": 1, "ST": 1}, 3),
    "kansas_defense": (False, 3, 8, 8, {"IT": 2, "BL": 2, "ST": 1}, 3),
}
LENGTHS = {"short": (8, 12), "normal": (12, 20), "long": (18, 32), "epic": (24, 44)}
PARAMS = {
    "length": "normal", "end_rule": "countdown6", "river_when_pile_empty": "shift_all", "market_sort_key": "cost",
    "cost_window_min": 3, "cost_window_max": 5, "cost_window_required": 4, "track_slots": 6, "market_slots": 6,
    "dice_cap": 10, "dice_cap_scope": "per_skill", "reroll_divisor": 3, "keep_mode": "up_to",
    "negative_score": "clamp0", "fatigue_removed_to": "box", "fatigue_per_substitution": 1,
    "allow_free_tactic_discard": False, "hand_size": 6, "offence_slots": 3, "defence_slots": 3,
    "first_player": "random", "overtime_enabled": True, "overtime_turns": 6, "overtime_max": 3,
    "variant_team_selection": False, "variant_draft": False, "variant_money_time": False, "draft_rounds": 5,
    "draft_mini_market": 1, "draft_common": 2, "draft_box": 2, "team_min_substitutes": 5, "team_min_tactics": 3,
    "team_deck_size": 12, "money_time_turns": 6, "money_time_free_def_rerolls": 2, "clutch_players": False,
    "max_steps": 200_000,
}


def _stats(values) -> dict:
    return dict(zip(SKILLS, values))


def _invented_nba() -> list[dict]:
    """57 NBA cards: budget Σ skills + 2·GI = cost + 4 spread at random over ratings 0–3 (§7.4)."""
    rng, rows = random.Random(2024), []
    for i, cost in enumerate(NBA_COSTS):
        ratings = dict.fromkeys(SKILLS, 0)
        budget = cost + 4
        while budget > 0:
            skill = rng.choice(SKILLS)
            weight = 2 if skill == "GI" else 1
            if ratings[skill] < 3 and weight <= budget:
                ratings[skill] += 1
                budget -= weight
        rows.append({"id": f"nba_{i + 1:02d}", "name": f"Joueur {i + 1:02d}", "set": "NBA", "kind": "nba",
                     "initiation": False, "positions": NBA_POSITIONS[i % len(NBA_POSITIONS)],
                     "value": (cost + 1) // 2, "cost": cost, **ratings, "clutch": i % 11 == 0, "status": "proposed"})
    return rows


def fixture_rows() -> dict:
    skills = [{"id": s, "name": s, "kind": "offence" if s in ("3P", "IN", "PE") else "defence" if s in (
        "IT", "BL", "ST") else "rebound" if s == "RB" else "intelligence", "dice_per_player": 0 if s in (
        "RB", "GI") else 10} for s in SKILLS]
    dice = [{"die": d, "face": f, "value": v, "colour": c, "status": "seed"}
            for d, faces in DICE_FACES.items() for f, (v, c) in enumerate(faces, 1)]
    players = []
    for s in ("A", "B"):
        for name, (init, value, *stats) in STARTING.items():
            kind, pos, n = name.split("_")
            players.append({"id": f"{s.lower()}_{name}", "name": f"{kind} {pos} {n}", "set": s, "kind": kind,
                            "initiation": bool(init), "positions": {"mj": "MJ", "ar": "Ar", "ai": "Ai", "af": "AF",
                                                                    "p": "P"}[pos], "value": value, "cost": None,
                            **_stats(stats), "status": "proposed"})
    for card, (positions, value, cost, *stats) in NAMED_NBA.items():
        players.append({"id": card, "name": card, "set": "NBA", "kind": "nba", "initiation": False,
                        "positions": positions, "value": value, "cost": cost, **_stats(stats), "status": "proposed"})
    players += _invented_nba()
    tactics = []
    for s in ("A", "B"):
        for name, (init, offence, cx, keep) in BASE.items():
            tactics.append({"id": f"{s.lower()}_base_{name}", "name": name, "set": s, "initiation": bool(init),
                            "type": "offence" if offence else "defence", "value": 1, "cost": None, "complexity": cx,
                            **{f"keep_{d}": keep.get(d, 0) for d in DICE_FACES}, "copies": 1})
    for card, (offence, value, cost, cx, keep, copies) in MARKET.items():
        tactics.append({"id": card, "name": card, "set": "market", "initiation": False,
                        "type": "offence" if offence else "defence", "value": value, "cost": cost, "complexity": cx,
                        **{f"keep_{d}": keep.get(d, 0) for d in DICE_FACES}, "copies": copies})
    return {"skills": skills, "dice": dice, "players": players, "tactics": tactics,
            "fatigue": [{"id": "fatigue", "name": "Fatigue", "copies": 9}],
            "durations": [{"length": k, "turns_per_player": t, "pile_cards": n} for k, (t, n) in LENGTHS.items()]}


def fixture_data(**params) -> GameData:
    rows = fixture_rows()
    return GameData.from_rows(rows["skills"], rows["dice"], rows["players"], rows["tactics"], rows["fatigue"],
                              rows["durations"], {**PARAMS, **params})
