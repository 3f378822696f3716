"""Stage 5, the game's invariants: strength caps per level, the sets by role and the `sets` rule, the draft
schedule, the trophy table, the robot's decks and levels, the level piles of every selection of sets (CH-A21)
and the cards the manifest announces per set.

References are to shared/games/challengers.md (§ sections, CH-A… resolutions)."""

from __future__ import annotations

from collections import defaultdict
from itertools import combinations

from pipeline.core.errors import Report
from pipeline.data.schema import Record, suggest
from pipeline.data.specs import Records
from pipeline.games.challengers.checks.common import (PILE_PER_PLAYER, city_sets, drafted_sets, param_ref, params,
                                                      robot_sets, sheet_ref)
from pipeline.games.challengers.checks.supply import check_supply
from pipeline.games.challengers.engine.data import DRAFT_LEVELS, LEVEL_CAPS, NORMAL_COPIES, PARAMETERS

FIRST_TROPHIES, LAST_TROPHIES = {2, 3}, {9, 10}       # CH-T5: the seed's round 1 and round 7 values
ROBOT_LEVEL_RANGE = range(PARAMETERS["robot_level"][1], PARAMETERS["robot_level"][2] + 1)    # 1–5


def check_rules(records: Records, report: Report) -> None:
    p = params(records)
    _caps(records, report)
    _sets(records, p, report)
    _sets_rule(records, p, report)
    _schedule(records, p, report)
    _trophies(records, p, report)
    _robot(records, p, report)
    _piles(records, p, report)
    check_supply(records, p, smallest_piles(records, p), report)
    _manifest(records, p, report)


def printed(card: Record) -> int:
    """Copies of a card in its level pile (a normal card without a count has 4)."""
    return card["copies"] if card["copies"] is not None else NORMAL_COPIES


def _caps(records: Records, report: Report) -> None:
    """CH-T2, CH-A16: A ≤ 3, B ≤ 5, C ≤ 10, S ≤ 3."""
    for card in records["cards"]:
        cap = LEVEL_CAPS.get(card["level"])
        if cap is not None and card["strength"] is not None and card["strength"] > cap:
            report.error(card.at("strength"), f"{card['id']}: strength {card['strength']} is above level "
                         f"{card['level']}'s cap {cap} (A ≤ 3, B ≤ 5, C ≤ 10, S ≤ 3; CH-T2)", "cap")


def _sets(records: Records, p: dict, report: Report) -> None:
    """One set always used, one robot set (never both), and enough others for sets_per_game."""
    for role, found, column in (("always used (the City set)", city_sets(records), "always_used"),
                                ("the robot's", robot_sets(records), "robot")):
        if not found:
            report.error(sheet_ref(records, "sets"), f"no set is {role}: mark one yes in column {column}", "sets")
        for extra in found[1:]:
            report.error(extra.at(column), f"{extra['id']}: a second set marked {column} (after {found[0]['id']}); "
                                           "the game has one", "sets")
    for s in records["sets"]:
        if s["always_used"] and s["robot"]:
            report.error(s.at("robot"), f"{s['id']} is both always used and the robot's set", "sets")
    drafted = drafted_sets(records)
    if len(drafted) < p["sets_per_game"]:
        report.error(param_ref(records, "sets_per_game"), f"sets_per_game is {p['sets_per_game']} but sheet sets "
                     f"has {len(drafted)} sets to draw from ({', '.join(s['id'] for s in drafted)})", "sets")


def _sets_rule(records: Records, p: dict, report: Report) -> None:
    """`sets`: random, or exactly sets_per_game distinct ids of the sets a game draws from."""
    value = str(p.get("sets") or "random").strip()
    if value == "random":
        return
    where, known = param_ref(records, "sets"), tuple(s["id"] for s in drafted_sets(records))
    ids = [v.strip() for v in value.split(",") if v.strip()]
    for sid in ids:
        if sid not in known:
            other = {s["id"] for s in records["sets"]}
            why = "is always used or the robot's: name only sets drawn from" if sid in other else \
                f"is not in sheet sets{suggest(sid, known)}"
            report.error(where, f"sets: {sid!r} {why}", "rules")
    if len(set(ids)) != len(ids):
        report.error(where, f"sets: {value!r} names a set twice", "rules")
    if len(ids) != p["sets_per_game"]:
        report.error(where, f"sets: {len(ids)} sets named, sets_per_game is {p['sets_per_game']} (or write "
                            "random)", "rules")


def _schedule(records: Records, p: dict, report: Report) -> None:
    """CH-A3: a row per round, rounds 1–2 level A only, C only in the last two rounds, keep ≤ draw."""
    rounds, seen = p["rounds"], set()
    for rec in records["schedule"]:
        r, level = rec["round"], rec["level"]
        if r is None:
            continue
        seen.add(r)
        if r > rounds:
            report.error(rec.at("round"), f"round {r}: the game has {rounds} rounds", "schedule")
        elif r <= 2 and level != "A":
            report.error(rec.at("level"), f"round {r} offers level {level}: rounds 1–2 offer level A only (§2.2)",
                         "schedule")
        elif level == "C" and r < rounds - 1:
            report.error(rec.at("level"), f"round {r} offers level C: only the last two rounds ({rounds - 1}, "
                                          f"{rounds}) do (§2.2)", "schedule")
        if None not in (rec["keep"], rec["draw"]) and rec["keep"] > rec["draw"]:
            report.error(rec.at("keep"), f"round {r} option {rec['option']} keeps {rec['keep']} of {rec['draw']} "
                                         "cards drawn", "schedule")
    for r in sorted(set(range(1, rounds + 1)) - seen):
        report.error(sheet_ref(records, "schedule"), f"round {r} has no draft option", "schedule")


def _trophies(records: Records, p: dict, report: Report) -> None:
    """CH-A2, CH-T5: round 1 ⊂ {2, 3}, the last ⊂ {9, 10}, values never fall, a token per match of a round."""
    rounds, matches = p["rounds"], (p["players_max"] + 1) // 2
    by_round: dict[int, list[Record]] = defaultdict(list)
    for rec in records["trophies"]:
        if None in (rec["round"], rec["value"]):
            continue
        if rec["round"] > rounds:
            report.error(rec.at("round"), f"round {rec['round']}: the game has {rounds} rounds", "trophies")
        elif rec["count"]:
            by_round[rec["round"]].append(rec)
    for r, allowed in ((1, FIRST_TROPHIES), (rounds, LAST_TROPHIES)):
        for rec in by_round.get(r, []):
            if rec["value"] not in allowed:
                report.error(rec.at("value"), f"a round {r} trophy worth {rec['value']}: round {r}'s are worth "
                                              f"{' or '.join(map(str, sorted(allowed)))} (§2.6)", "trophies")
    previous = None
    for r in range(1, rounds + 1):
        rows = by_round.get(r)
        if not rows:
            report.error(sheet_ref(records, "trophies"), f"round {r} has no trophy", "trophies")
            previous = None
            continue
        low = min(rows, key=lambda rec: rec["value"])
        high = max(rows, key=lambda rec: rec["value"])
        if previous and (low["value"] < previous[0] or high["value"] < previous[1]):
            bad = low if low["value"] < previous[0] else high
            report.error(bad.at("value"), f"round {r}'s trophies ({low['value']}–{high['value']}) are worth less "
                                          f"than round {r - 1}'s ({previous[0]}–{previous[1]}): values never fall "
                                          "(CH-A2)", "trophies")
        tokens = sum(rec["count"] or 0 for rec in rows)
        if tokens < matches:
            report.error(rows[-1].at("count"), f"round {r} has {tokens} trophies for {matches} matches at "
                                               f"{p['players_max']} players (CH-A2)", "trophies")
        previous = (low["value"], high["value"])


def _robot(records: Records, p: dict, report: Report) -> None:
    """A base deck every round (stronger as rounds pass), levels 1–5 swapping more and more R cards."""
    cards = {c["id"]: c for c in records["cards"]}
    decks: dict[int, list[Record]] = defaultdict(list)
    for rec in records["robot_decks"]:
        if rec["card"] in cards and rec["copies"] is not None:
            decks[rec["round"]].append(rec)
    before = None
    for r in range(1, p["rounds"] + 1):
        if not decks.get(r):
            report.error(sheet_ref(records, "robot_decks"), f"round {r} has no robot deck", "robot")
            before = None
            continue
        strength = sum(rec["copies"] * (cards[rec["card"]]["strength"] or 0) for rec in decks[r])
        if before is not None and strength < before:
            report.warning(decks[r][0].at("round"), f"the robot's round {r} deck (total strength {strength}) is "
                                                    f"weaker than round {r - 1}'s ({before})", "robot")
        before = strength
    r_cards = sum(printed(c) for c in records["cards"] if c["level"] == "R")
    smallest = min((sum(rec["copies"] for rec in deck) for deck in decks.values()), default=0)
    levels = {rec["level"]: rec for rec in records["robot_levels"] if None not in (rec["level"], rec["swaps"])}
    for level in ROBOT_LEVEL_RANGE:
        if level not in levels:
            report.error(sheet_ref(records, "robot_levels"), f"robot level {level} is missing", "robot")
    swaps = 0
    for level in sorted(levels):
        rec = levels[level]
        if rec["swaps"] < swaps:
            report.error(rec.at("swaps"), f"level {level} swaps {rec['swaps']} cards, fewer than a lower level "
                                          f"({swaps})", "robot")
        if rec["swaps"] > r_cards:
            report.error(rec.at("swaps"), f"level {level} swaps {rec['swaps']} cards for R cards, but the robot's "
                                          f"set prints {r_cards} R cards", "robot")
        elif rec["swaps"] > smallest:
            report.error(rec.at("swaps"), f"level {level} swaps {rec['swaps']} cards, but the smallest robot deck "
                                          f"holds {smallest}", "robot")
        swaps = max(swaps, rec["swaps"])


def pile_sizes(records: Records, selection: tuple[str, ...]) -> dict[str, int]:
    """Cards in each draft level pile when these sets join the always-used set."""
    used = {s["id"] for s in city_sets(records)} | set(selection)
    sizes = dict.fromkeys(DRAFT_LEVELS, 0)
    for card in records["cards"]:
        if card["set"] in used and card["level"] in sizes:
            sizes[card["level"]] += printed(card)
    return sizes


def selections(records: Records, p: dict) -> list[tuple[str, ...]]:
    return list(combinations([s["id"] for s in drafted_sets(records)], p["sets_per_game"]))


def smallest_piles(records: Records, p: dict) -> dict[str, tuple[int, str]]:
    """Each level's smallest pile over the selections of sets: level -> (cards, " (without <sets>)")."""
    smallest: dict[str, tuple[int, tuple]] = {}
    chosen = selections(records, p)
    for selection in chosen:
        for level, size in pile_sizes(records, selection).items():
            if level not in smallest or size < smallest[level][0]:
                smallest[level] = (size, selection)
    drafted = {s for sel in chosen for s in sel}
    out = {}
    for level, (size, selection) in smallest.items():
        left = sorted(drafted - set(selection))
        out[level] = (size, f" (without {', '.join(left)})" if left else "")
    return out


def _piles(records: Records, p: dict, report: Report) -> None:
    """CH-A21: with any selection of sets, every level pile holds 9 × players_max cards (a warning)."""
    need, drafted = PILE_PER_PLAYER * p["players_max"], drafted_sets(records)
    for selection in selections(records, p):
        left_out = [s for s in drafted if s["id"] not in selection]
        where = left_out[0].at("id") if len(left_out) == 1 else sheet_ref(records, "sets")
        without = f"without {', '.join(s['id'] for s in left_out)}" if left_out else "with every set"
        for level, size in pile_sizes(records, selection).items():
            if size < need:
                report.warning(where, f"{without}: the level {level} pile holds {size} cards, fewer than "
                                      f"{PILE_PER_PLAYER} × {p['players_max']} players = {need} (CH-A21)", "piles")


def boxed(card: Record, starter: dict[str, int], players_max: int) -> int:
    """Copies of a card in the box: a starter card for players_max starting decks, the others their copies."""
    return (starter.get(card["id"]) or 0) * players_max if card["level"] == "S" else printed(card)


def printed_per_set(records: Records, p: dict) -> dict[str, int]:
    """The cards a box holds per set."""
    starter = {rec["card"]: rec["copies_per_player"] for rec in records["starter"]}
    out: dict[str, int] = defaultdict(int)
    for card in records["cards"]:
        out[card["set"]] += boxed(card, starter, p["players_max"])
    return out


def _manifest(records: Records, p: dict, report: Report) -> None:
    """components rows cards_<set> announce each set's printed cards (the manifest counts the rest)."""
    found = printed_per_set(records, p)
    sets = {s["id"] for s in records["sets"]}
    for rec in records["components"]:
        name = str(rec["component"])
        if not name.startswith("cards_"):
            continue
        sid = name[len("cards_"):]
        if sid not in sets:
            report.error(rec.at("component"), f"{name}: no set {sid!r} in sheet sets{suggest(sid, tuple(sets))}",
                         "manifest")
        elif rec["count"] != found[sid]:
            report.error(rec.at("count"), f"{name}: the rulebook announces {rec['count']} but sheet cards prints "
                                          f"{found[sid]} cards of set {sid}", "manifest")
