"""The rulebook's worked example (Fred vs Sophie) as checks on the data: the team figures of §7.2 computed from
the set-A rows, and the named cards of §7.1. Every problem has the rule name `worked_example`."""

from __future__ import annotations

from pipeline.core.errors import Report
from pipeline.data.schema import Record
from pipeline.data.specs import Records
from pipeline.games.nba.checks import keeps, positions, sheet_ref
from pipeline.games.nba.engine.rules import team_level

RULE = "worked_example"
SET = "A"
S = ("Titulaire MJ 1", "Titulaire Ar 1", "Titulaire Ai 1", "Titulaire AF 1", "Titulaire P 1")
# lineup -> (what it is, position -> card replacing the Starter there)
LINEUPS = {
    "S": ("the initiation five S", {}),
    "So": ("Sophie's five So (turn 1 on)", {"Ar": "Remplaçant Ar 2", "Ai": "Remplaçant Ai 1",
                                            "AF": "Remplaçant AF 1"}),
    "F2": ("Fred's five F2 (turn 2)", {"Ar": "Kyle Korver", "AF": "Remplaçant AF 1"}),
}
TEAM_FIGURES = {                                                                  # §7.2 (AMB-33 for S)
    "S": {"GI": 6, "3P": 3, "PE": 3, "BL": 2, "ST": 2, "RB": 4},
    "So": {"GI": 4, "IN": 4, "IT": 3, "BL": 1, "ST": 1, "RB": 3},
    "F2": {"GI": 5, "3P": 4, "BL": 2, "ST": 1, "RB": 5},
}
# §7.1: what the rulebook reveals of the named tactics (value, type, cost, complexity, dice kept)
TACTICS = {
    "Base Offense 3 Pts": dict(type="offence", value=1, keep={"3P": 2}),
    "Base Offense Slashing": dict(type="offence", value=1, complexity=3, keep={"PE": 2}),
    "Base Offense Low Post": dict(type="offence", complexity=3, keep={"IN": 2}),
    "Base Defense Switch": dict(type="defence", value=1, complexity=1, keep={"IT": 1, "ST": 1}),
    "Base Defense Trap": dict(type="defence", complexity=1, keep={"BL": 1, "ST": 1}),
    "Kentucky Offense": dict(type="offence", cost=2, complexity=5, keep={"3P": 3}),
    "Virginia Tech Offense": dict(type="offence", cost=2, complexity=5),
    "Virginia Offense": dict(type="offence", complexity=7),
    "Houston Defense": dict(type="defence", complexity=5),
    "Michigan Defense": dict(type="defence", complexity=3, keep={"BL": 2, "ST": 1}),
}
DEAR_COST, DEAR_MODELS = 8, 2           # T2-FRED replaces two market tactics costing 8


def check_worked_example(records: Records, report: Report) -> None:
    cards = {r["name"]: r for r in records["players"] if r["set"] in (SET, "NBA")}
    needed = set(S) | {n for _, swaps in LINEUPS.values() for n in swaps.values()}
    missing = sorted(n for n in needed if n not in cards)
    if missing:
        report.error(sheet_ref(records, "players"), f"no card named {', '.join(missing)} in set {SET} or NBA: the "
                                                    "worked example plays them (§7.2)", RULE)
    else:
        _check_lineups(cards, report)
        _check_duels(cards, report)
    _check_named_players(records, cards, report)
    _check_named_tactics(records, report)


def lineup(cards: dict[str, Record], name: str) -> list[Record]:
    """The five of §7.2 named `name` (S, So or F2), from the set-A and NBA cards by name."""
    swaps = LINEUPS[name][1]
    return [cards[swaps.get(positions(cards[s])[0], s)] for s in S]


def _check_lineups(cards: dict[str, Record], report: Report) -> None:
    for name, figures in TEAM_FIGURES.items():
        what, swaps = LINEUPS[name]
        five = lineup(cards, name)
        anchor = cards[next(iter(swaps.values()))] if swaps else five[0]
        shown = ", ".join(f"{r['name']} (row {r.ref.row})" for r in five)
        for skill, want in figures.items():
            got = team_level(five, skill)
            if got != want:
                report.error(anchor.at(skill), f"{what} has {skill} {got}; the worked example needs {want} "
                                               f"(§7.2: {shown})", RULE)
    # T2-SOPHIE: a Titulaire back from her discard (Ar 1, Ai 1 or AF 1) raises her collective from 4 to 5
    so = lineup(cards, "So")
    wanted = TEAM_FIGURES["So"]["GI"] + 1
    for title in ("Titulaire Ar 1", "Titulaire Ai 1", "Titulaire AF 1"):
        back = cards[title]
        if team_level([back if positions(r)[0] == positions(back)[0] else r for r in so], "GI") == wanted:
            return
    report.error(cards["Titulaire Ai 1"].at("GI"), f"no Titulaire among Ar 1, Ai 1, AF 1 brought back into "
                                                   f"Sophie's five raises its collective to {wanted} (§7.2)", RULE)


def _check_duels(cards: dict[str, Record], report: Report) -> None:
    sub, starter = cards["Remplaçant AF 1"], cards["Titulaire AF 1"]
    for skill in ("BL", "ST"):
        if sub[skill] <= starter[skill]:
            report.error(sub.at(skill), f"Remplaçant AF 1 has {skill} {sub[skill]}, not above Titulaire AF 1's "
                                        f"{starter[skill]} (row {starter.ref.row}): Fred brings him on for his "
                                        "Block and Stop (§7.1)", RULE)
    korver, ar1 = cards["Kyle Korver"], cards["Titulaire Ar 1"]
    if korver["3P"] <= ar1["3P"]:
        report.error(korver.at("3P"), f"Kyle Korver has 3P {korver['3P']}, not above Titulaire Ar 1's {ar1['3P']} "
                                      f"(row {ar1.ref.row}): Fred brings him on for his 3-Points (§7.1)", RULE)


def _check_named_players(records: Records, cards: dict[str, Record], report: Report) -> None:
    """Korver costs 3 and plays Ar; Humphries (the setup card, sorted first) costs 2 or 3 and no more than
    Korver; Ainge (bought with 4, sorted after Korver) costs 3 or 4 (§7.1, AMB-05)."""
    korver = cards.get("Kyle Korver")
    if korver is not None:
        if korver["cost"] != 3:
            report.error(korver.at("cost"), f"Kyle Korver costs {korver['cost']}; the rulebook says 3 (§7.1)", RULE)
        if "Ar" not in positions(korver):
            report.error(korver.at("positions"), f"Kyle Korver plays {korver['positions']}; he comes on at Ar in the "
                                                 "worked example (§7.1)", RULE)
    top = korver["cost"] if korver is not None and korver["cost"] is not None else 3
    for name, low, high in (("Kris Humphries", 2, top), ("Danny Ainge", max(3, top), 4)):
        rec = cards.get(name)
        if rec is None:
            report.error(sheet_ref(records, "players"), f"no NBA card named {name}: the worked example buys "
                                                        "him (§7.1)", RULE)
        elif rec["cost"] is None or not low <= rec["cost"] <= high:
            report.error(rec.at("cost"), f"{name} costs {rec['cost']}; the worked example needs {low}–{high} "
                                         "(§7.1, AMB-05)", RULE)


def _check_named_tactics(records: Records, report: Report) -> None:
    models = {r["name"]: r for r in records["tactics"] if r["set"] in (SET, "market")}
    for name, facts in TACTICS.items():
        rec = models.get(name)
        if rec is None:
            report.error(sheet_ref(records, "tactics"), f"no tactic named {name!r} in set {SET} or the market: the "
                                                        "rulebook names it (§7.1)", RULE)
            continue
        for column, want in facts.items():
            if column == "keep":
                got = keeps(rec)
                if got != want:
                    skill = next(s for s in sorted(set(got) | set(want), key=str) if got.get(s) != want.get(s))
                    report.error(rec.at(f"keep_{skill}"), f"{name} keeps {_dice(got)}; the rulebook's example "
                                                          f"needs {_dice(want)} (§7.1, AMB-18)", RULE)
            elif rec[column] != want:
                report.error(rec.at(column), f"{name}: {column} {rec[column]}; the rulebook's example gives {want} "
                                             "(§7.1)", RULE)
    vt, low_post = models.get("Virginia Tech Offense"), models.get("Base Offense Low Post")
    if vt and low_post and sum(keeps(vt).values()) <= sum(keeps(low_post).values()):
        skill = next(iter(keeps(vt)), "3P")
        report.error(vt.at(f"keep_{skill}"), f"Virginia Tech Offense keeps {_dice(keeps(vt))}, no more than Base "
                                             f"Offense Low Post's {_dice(keeps(low_post))}; Sophie buys it as a "
                                             "stronger Low Post (§7.1)", RULE)
    dear = [r for r in records["tactics"] if r["set"] == "market" and r["cost"] == DEAR_COST]
    if len(dear) < DEAR_MODELS:
        report.error(sheet_ref(records, "tactics"), f"{len(dear)} market models cost {DEAR_COST}; Fred's turn 2 "
                                                    f"replaces {DEAR_MODELS} market tactics costing {DEAR_COST} "
                                                    "(§5)", RULE)


def _dice(keep: dict[str, int]) -> str:
    return " + ".join(f"{n} × {s}" for s, n in keep.items()) or "no die"
