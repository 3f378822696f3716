"""The rulebook's worked example (shared/games/nba-deck-building.md §5, Fred and Sophie), computed from the
workbook: the lineups come from the set-A Player rows, the tactics' figures from the tactic rows, and every
level, dice count, reroll allowance and score from engine_rules. Only the dice faces are the example's own
(§5 with the AMB-11 fix): when the data asks for more dice than the story rolled, the extra dice show the blank
face; when it asks for fewer, the story's last dice are not rolled. So the printed text stays true to the data.

The cards follow the rules, not the seed's narrative where the two differ (AMB-15/16): in her turn 2 Sophie holds
what her deck really gives her (no Titulaire, no Low Post), so she pays Ainge with four Remplaçants, prepares
Virginia Tech Offense without activating it, and defends with the Switch left on her board since turn 1.
"""

from __future__ import annotations

from typing import Any

from pipeline.data.specs import Records
from pipeline.games.nba.engine.rules import (COLOUR_OF_DIE, DICE, SKILLS, attack_points, collective, dice_to_roll,
                                             keep_best, offensive_rerolls, team_level)

POSITIONS = ("MJ", "Ar", "Ai", "AF", "P")
BLANK = (0, None)

# The story's dice (§5): offensive dice are values; defensive dice are (value, face colour).
FRED_T1_SLASHING = [4, 2, 2]
SOPHIE_T1_TRAP = {"BL": [(3, "red")], "ST": [(3, "yellow")]}
SOPHIE_T1_TRAP_REROLLS = [("ST", 0, (2, "yellow"))]
SOPHIE_T1_LOW_POST = [6, 6, 4, 2]
FRED_T2_KENTUCKY = [9, 2, 0, 0]
FRED_T2_KENTUCKY_REROLL = 2                 # one blank die rerolled shows 2
FRED_T2_TRAP = {"BL": [(2, "yellow"), (1, "red")], "ST": [(3, "blue")]}
FRED_T2_TRAP_REROLLS = [("BL", 1, (1, "red")), ("ST", 0, (1, "red"))]
SOPHIE_T2_SWITCH = {"IT": [(2, "blue"), (2, "blue"), (1, "yellow")], "ST": [(3, "yellow")]}
SOPHIE_T2_SWITCH_REROLLS = [("ST", 0, (3, "blue"))]
SCORING_OFFENCE = [9, 9]                     # the scoring example: two blue 9s against a Switch
SCORING_DEFENCE = {"IT": [(2, "blue")], "ST": [(3, "blue")]}

TACTIC_NAMES = {"three": "Base Offense 3 Pts", "slashing": "Base Offense Slashing", "low_post": "Base Offense Low Post",
                "switch": "Base Defense Switch", "trap": "Base Defense Trap", "kentucky": "Kentucky Offense",
                "vt": "Virginia Tech Offense", "virginia": "Virginia Offense", "houston": "Houston Defense",
                "michigan": "Michigan Defense"}
NBA_NAMES = {"korver": "Korver", "humphries": "Humphries", "ainge": "Ainge"}


def _norm(text: Any) -> str:
    return " ".join(str(text or "").lower().split())


def _player(rec) -> dict:
    values = dict(rec.values)
    values["positions_list"] = [p.strip() for p in str(values.get("positions") or "").split("/") if p.strip()]
    return values


def _starting_card(records: Records, kind: str, position: str, number: int) -> dict | None:
    word = {"starter": "titulaire", "substitute": "remplaçant"}[kind]
    wanted = _norm(f"{word} {position} {number}")
    for rec in records["players"]:
        if rec["set"] == "A" and rec["kind"] == kind and _norm(rec["name"]) == wanted:
            return _player(rec)
    for rec in records["players"]:       # a renamed card: its id still says what it is
        if rec["set"] == "A" and _norm(rec["id"]) == f"a_{kind}_{position.lower()}_{number}":
            return _player(rec)
    return None


def _nba_card(records: Records, surname: str) -> dict | None:
    for rec in records["players"]:
        if rec["set"] == "NBA" and surname.lower() in _norm(rec["name"]):
            return _player(rec)
    return None


def tactic_info(rec) -> dict:
    """A tactic row as the rulebook reads it: the skills it uses (keep > 0) in dice order and its keep counts."""
    keep = {code: int(rec.get(f"keep_{code}") or 0) for code in DICE}
    return {**rec.values, "skills": [code for code in DICE if keep[code] > 0],
            "keep": {code: n for code, n in keep.items() if n > 0}}


def find_tactic(records: Records, name: str) -> dict | None:
    wanted = _norm(name)
    for rec in records["tactics"]:
        if rec["set"] not in ("A", "market"):
            continue
        aliases = [_norm(a) for a in str(rec.get("alias") or "").split(";")]
        if _norm(rec["name"]) == wanted or wanted in aliases:
            return tactic_info(rec)
    return None


def levels(lineup: list[dict]) -> dict[str, int]:
    return {skill: team_level(lineup, skill) for skill in SKILLS}


def _rolled(script: list, count: int) -> list:
    """The story's faces for `count` dice: extra dice show the blank face, missing ones are not rolled."""
    blank = 0 if not script or not isinstance(script[0], tuple) else BLANK
    return list(script[:count]) + [blank] * max(0, count - len(script))


def _dice(tactic: dict, own: dict, rules: dict) -> dict[str, int]:
    return dice_to_roll(own, tactic["skills"], rules["dice_cap"], rules["dice_cap_scope"])


def offence(tactic: dict, own: dict, opp: dict, rules: dict, collective_level: int, script: list,
            reroll_to: int | None = None) -> dict:
    """One offensive activation with the story's dice; the single skill of the story's offences."""
    skill = tactic["skills"][0]
    dice = _dice(tactic, own, rules)
    rolled = _rolled(script, dice[skill])
    allowed = offensive_rerolls(own["RB"], opp["RB"], rules["reroll_divisor"])
    after, rerolled = list(rolled), []
    if allowed and reroll_to is not None and 0 in after:
        index = after.index(0)
        after[index] = reroll_to
        rerolled.append((0, reroll_to))
    kept = keep_best(after, tactic["keep"][skill])
    return {"tactic": tactic, "skill": skill, "level": own[skill], "dice": dice[skill], "rolled": rolled,
            "rerolls_allowed": allowed, "rb_own": own["RB"], "rb_opp": opp["RB"], "rerolled": rerolled,
            "after": after, "kept": kept, "total": sum(kept), "collective": collective_level,
            "can": collective_level >= tactic["complexity"], "offence_dice": [(skill, v) for v in kept]}


def defence(tactic: dict, own: dict, rules: dict, collective_level: int, script: dict, rerolls: list,
            waiting: set[str]) -> dict:
    """One defensive activation: each reroll costs a Fatigue card; keep matching colours, best first."""
    dice = _dice(tactic, own, rules)
    rolled = {skill: _rolled(script.get(skill, []), dice[skill]) for skill in tactic["skills"]}
    after = {skill: list(faces) for skill, faces in rolled.items()}
    done = []
    for skill, index, face in rerolls:
        if skill in after and index < len(after[skill]):
            done.append({"skill": skill, "before": after[skill][index], "after": face})
            after[skill][index] = face
    kept = {}
    for skill in tactic["skills"]:
        matching = [face for face in after[skill] if face[1] in waiting]
        kept[skill] = sorted(matching, key=lambda face: -face[0])[:tactic["keep"][skill]]
    flat = [face for skill in tactic["skills"] for face in kept[skill]]
    matching = sum(1 for skill in tactic["skills"] for face in after[skill] if face[1] in waiting)
    return {"tactic": tactic, "dice": dice, "rolled": rolled, "rerolls": done, "fatigue": len(done),
            "after": after, "kept": kept, "kept_flat": flat, "total": sum(v for v, _ in flat),
            "kept_list": [{"skill": skill, "face": face} for skill in tactic["skills"] for face in kept[skill]],
            "over_limit": matching - len(flat),
            "collective": collective_level, "can": collective_level >= tactic["complexity"],
            "waiting": sorted(waiting), "levels": {skill: own[skill] for skill in tactic["skills"]}}


def _colours(offence_dice: list[tuple[str, int]]) -> set[str]:
    return {COLOUR_OF_DIE[die] for die, _ in offence_dice}


def _payment(cards: list[dict], price: int | None) -> dict:
    total = sum(int(c.get("value") or 0) for c in cards)
    return {"cards": cards, "total": total, "cost": price, "ok": price is not None and total >= price}


def worked_example(records: Records, rules: dict) -> dict | None:
    """Every number of the two-turn example, or None when the workbook lacks one of its cards."""
    start = {pos: _starting_card(records, "starter", pos, 1) for pos in POSITIONS}
    subs = {key: _starting_card(records, "substitute", pos, n)
            for key, (pos, n) in {"MJ1": ("MJ", 1), "Ar1": ("Ar", 1), "Ar2": ("Ar", 2), "Ai1": ("Ai", 1),
                                  "AF1": ("AF", 1), "AF2": ("AF", 2), "P1": ("P", 1)}.items()}
    nba = {key: _nba_card(records, surname) for key, surname in NBA_NAMES.items()}
    tactics = {key: find_tactic(records, name) for key, name in TACTIC_NAMES.items()}
    if None in (*start.values(), *subs.values(), *nba.values(), *tactics.values()):
        return None
    t = tactics
    s_five = [start[pos] for pos in POSITIONS]
    so_five = [start["MJ"], subs["Ar2"], subs["Ai1"], subs["AF1"], start["P"]]
    f2_five = [start["MJ"], nba["korver"], start["Ai"], subs["AF1"], start["P"]]
    lv_s, lv_so, lv_f2 = levels(s_five), levels(so_five), levels(f2_five)
    fatigue = sum(int(r.get("copies") or 0) for r in records["fatigue"])

    # Turn 1 — Fred
    f1_off = offence(t["slashing"], lv_s, lv_s, rules, collective(s_five), FRED_T1_SLASHING)
    # Turn 1 — Sophie (three substitutions first)
    s1_def = defence(t["trap"], lv_so, rules, collective(so_five), SOPHIE_T1_TRAP, SOPHIE_T1_TRAP_REROLLS,
                     _colours(f1_off["offence_dice"]))
    s1_off = offence(t["low_post"], lv_so, lv_s, rules, collective(so_five), SOPHIE_T1_LOW_POST)
    # Turn 2 — Fred
    f2_points = attack_points(f1_off["offence_dice"], s1_def["kept_flat"], rules["negative_score"])
    f2_off = offence(t["kentucky"], lv_f2, lv_so, rules, collective(f2_five), FRED_T2_KENTUCKY,
                     FRED_T2_KENTUCKY_REROLL)
    f2_def = defence(t["trap"], lv_f2, rules, collective(f2_five), FRED_T2_TRAP, FRED_T2_TRAP_REROLLS,
                     _colours(s1_off["offence_dice"]))
    # Turn 2 — Sophie
    s2_points = attack_points(s1_off["offence_dice"], f2_def["kept_flat"], rules["negative_score"])
    s2_def = defence(t["switch"], lv_so, rules, collective(so_five), SOPHIE_T2_SWITCH, SOPHIE_T2_SWITCH_REROLLS,
                     _colours(f2_off["offence_dice"]))
    f3_points = attack_points(f2_off["offence_dice"], s2_def["kept_flat"], rules["negative_score"])

    # Sophie's turn-2 choice: the Titulaire whose return lifts her collective the most
    back = []
    for pos, slot in (("Ar", 1), ("Ai", 2), ("AF", 3)):
        lineup = list(so_five)
        lineup[slot] = start[pos]
        back.append({"card": start[pos], "collective": collective(lineup)})
    best_back = max(back, key=lambda b: b["collective"])
    # By the rules (AMB-15/16) her hand now holds the Remplaçants MJ 1 (kept), Ar 1, AF 2 and P 1, the Fatigue card
    # and Virginia Tech Offense: the Titulaires and Low Post are in her discard.
    sophie_pays = [subs["MJ1"], subs["Ar1"], subs["AF2"], subs["P1"]]
    nba_costs = [int(r["cost"]) for r in records["players"] if r["set"] == "NBA" and r.get("cost") is not None]

    return {
        "fatigue_supply": fatigue,
        "start": start, "subs": subs, "nba": nba, "tactics": tactics,
        "lineups": {"S": {"cards": s_five, "levels": lv_s, "collective": collective(s_five)},
                    "So": {"cards": so_five, "levels": lv_so, "collective": collective(so_five)},
                    "F2": {"cards": f2_five, "levels": lv_f2, "collective": collective(f2_five)}},
        "fred1": {"buy_player": _payment([subs["Ar1"], subs["Ar2"], subs["P1"]], nba["korver"].get("cost")),
                  "buy_tactic": _payment([t["three"], t["switch"]], t["kentucky"].get("cost")),
                  "offence": f1_off},
        "sophie1": {"in": [subs["Ar2"], subs["Ai1"], subs["AF1"]],
                    "out": [start["Ar"], start["Ai"], start["AF"]],
                    "cheapest_nba": min(nba_costs) if nba_costs else None,
                    "hand_player_value": int(subs["MJ1"].get("value") or 0),
                    "buy_tactic": _payment([t["three"], t["slashing"]], t["vt"].get("cost")),
                    "defence": s1_def, "offence": s1_off},
        "fred2": {"points": f2_points, "in": [nba["korver"], subs["AF1"]], "out": [start["Ar"], start["AF"]],
                  "buy_player": _payment([subs["MJ1"], subs["Ai1"], subs["AF2"]], nba["humphries"].get("cost")),
                  "offence": f2_off, "defence": f2_def},
        "sophie2": {"points": s2_points, "back": best_back, "vt": t["vt"],
                    "buy_player": _payment(sophie_pays, nba["ainge"].get("cost")),
                    "defence": s2_def},
        "fred3": {"points": f3_points},
        "score": {"fred": f2_points, "sophie": s2_points, "fred_after_t3": f2_points + f3_points},
        "fatigue_left": fatigue - s1_def["fatigue"] - f2_def["fatigue"] - s2_def["fatigue"],
    }


def illustration(records: Records, rules: dict) -> dict | None:
    """The activation examples of §3.5 on the initiation five: which tactics a collective level allows, the
    dice Kentucky and Michigan roll, and the scoring example (two blue 9s against a Switch)."""
    start = {pos: _starting_card(records, "starter", pos, 1) for pos in POSITIONS}
    names = ("virginia", "kentucky", "houston", "michigan", "three", "switch")
    tactics = {key: find_tactic(records, TACTIC_NAMES[key]) for key in names}
    if None in (*start.values(), *tactics.values()):
        return None
    five = [start[pos] for pos in POSITIONS]
    lv, level = levels(five), collective(five)
    checks = [{"tactic": tactics[key], "can": level >= tactics[key]["complexity"]}
              for key in ("virginia", "kentucky", "houston", "michigan")]
    offence_dice = [("3P", v) for v in keep_best(SCORING_OFFENCE, tactics["three"]["keep"].get("3P", 0))]
    defence_dice = [{"skill": skill, "value": face[0], "colour": face[1]} for skill in tactics["switch"]["skills"]
                    for face in SCORING_DEFENCE.get(skill, [])[:tactics["switch"]["keep"][skill]]]
    defence_kept = [(d["value"], d["colour"]) for d in defence_dice]
    return {
        "collective": level, "levels": lv, "checks": checks,
        "kentucky": {"tactic": tactics["kentucky"], "dice": _dice(tactics["kentucky"], lv, rules)},
        "michigan": {"tactic": tactics["michigan"], "dice": _dice(tactics["michigan"], lv, rules)},
        "scoring": {"offence": [v for _, v in offence_dice], "defence": defence_dice,
                    "defence_total": sum(v for v, _ in defence_kept),
                    "raw": sum(v for _, v in offence_dice),
                    "points": attack_points(offence_dice, defence_kept, rules["negative_score"]),
                    "three": tactics["three"], "switch": tactics["switch"]},
        "negative": attack_points([("PE", 2)], [(3, "red")], rules["negative_score"]),
    }
