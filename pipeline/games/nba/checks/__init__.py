"""NBA Deck-Building's checks that need no engine: rows together (stage 3, here), the game's invariants
(stage 5) and the lines `pnp validate nba` prints are in rules.py.

References are to shared/games/nba-deck-building.md (§ sections, AMB-xx resolutions, Appendix B checklist).
"""

from __future__ import annotations

from collections import Counter, defaultdict

from pipeline.core.errors import Report, SourceRef
from pipeline.data.schema import Record, suggest
from pipeline.data.specs import Records
from pipeline.games.nba.schema import DEFENCE_SKILLS, DICE, OFFENCE_SKILLS, POSITIONS, SKILLS

STARTING_SETS = ("A", "B")
KINDS = {"3P": "offence", "IN": "offence", "PE": "offence", "IT": "defence", "BL": "defence", "ST": "defence",
         "RB": "rebound", "GI": "intelligence"}
PER_POSITION = 2                     # Starters and Substitutes per position in a starting set (§1.1)
INITIATION = {"starter": 5, "substitute": 7, "offence": 3, "defence": 2}     # per set (§1.1, AMB-07)
BASE_TACTICS = {"offence": 5, "defence": 5}                                   # per set
MARKET_MODELS, MARKET_COPIES = 20, 70                                         # §1.1
RATING_MAX, LEGENDARY_MAX, LEGENDARY_CARDS = 3, 4, 5                          # §7.4
COST_MIN, COST_MAX = 2, 10                                                    # §7.4
STARTING_VALUE = {"starter": 2, "substitute": 1}                              # §1.2 (seed)
# a starting set's cards are identical to the other set's on these columns (§1.1)
SAME_IN_BOTH_SETS = {"players": ("kind", "initiation", "positions", "value", "cost", *SKILLS, "legendary", "clutch",
                                 "art"),
                     "tactics": ("initiation", "type", "value", "cost", "complexity", *(f"keep_{d}" for d in DICE),
                                 "copies", "alias")}


def positions(rec: Record) -> list[str]:
    """A Player card's positions cell: codes separated by /."""
    return [p.strip() for p in str(rec["positions"] or "").split("/") if p.strip()]


def keeps(rec: Record) -> dict[str, int]:
    """A tactic's dice kept per skill, skills it uses only."""
    return {d: rec[f"keep_{d}"] for d in DICE if rec[f"keep_{d}"]}


def sheet_ref(records: Records, sheet: str) -> SourceRef:
    """The whole sheet (all sheets live in one workbook, so any record gives the file)."""
    for recs in records.values():
        if recs:
            return SourceRef(recs[0].ref.file, sheet)
    return SourceRef("", sheet)


def rows_of(recs: list[Record]) -> str:
    return ", ".join(str(r.ref.row) for r in recs)


# --- stage 3: rows together ------------------------------------------------------------------------------

def check_rows(records: Records, report: Report) -> None:
    _check_skills(records, report)
    _check_dice(records, report)
    for rec in records["players"]:
        _check_player(rec, report)
    for rec in records["tactics"]:
        _check_tactic(rec, report)
    legendary = [r for r in records["players"] if r["legendary"]]
    if len(legendary) > LEGENDARY_CARDS:
        report.warning(legendary[LEGENDARY_CARDS].at("legendary"), f"{len(legendary)} legendary cards (rows "
                       f"{rows_of(legendary)}); §7.4 allows a rating of 4 on at most {LEGENDARY_CARDS}", "rating")
    for sheet in ("players", "tactics"):
        _check_sets_identical(records, sheet, report)
    _check_starting_sets(records, report)
    _check_market(records, report)


def _check_skills(records: Records, report: Report) -> None:
    found = {rec["id"]: rec for rec in records["skills"]}
    missing = [code for code in SKILLS if code not in found]
    if missing:
        report.error(sheet_ref(records, "skills"), f"no row for skill {', '.join(missing)}: the sheet lists the "
                                                   f"eight ratings {', '.join(SKILLS)}", "skills")
    for code, rec in found.items():
        if rec["kind"] != KINDS[code]:
            report.error(rec.at("kind"), f"{code} is of kind {KINDS[code]}, not {rec['kind']}", "skills")


def _check_dice(records: Records, report: Report) -> None:
    """Six faces per die (§2.1); a defensive face has a colour iff its value is above 0, an offensive face
    never has one (AMB-09)."""
    faces = defaultdict(list)
    for rec in records["dice"]:
        faces[rec["die"]].append(rec)
        value, colour = rec["value"], rec["colour"]
        if rec["die"] in OFFENCE_SKILLS and colour:
            report.error(rec.at("colour"), f"{rec['die']} is an offensive die: its faces have no colour "
                                           f"(got {colour})", "dice")
        elif rec["die"] in DEFENCE_SKILLS and value > 0 and not colour:
            report.error(rec.at("colour"), f"{rec['die']} face {rec['face']} shows {value}: a defensive face "
                                           "needs the colour (blue, yellow, red) of the die it cancels", "dice")
        elif rec["die"] in DEFENCE_SKILLS and value == 0 and colour:
            report.error(rec.at("colour"), f"{rec['die']} face {rec['face']} is blank (0): a blank face has no "
                                           f"colour (got {colour}; AMB-09)", "dice")
    for die in DICE:
        have = sorted(r["face"] for r in faces.get(die, ()))
        lacking = [str(f) for f in range(1, 7) if f not in have]
        if lacking:
            where = faces[die][0].at("face") if faces.get(die) else sheet_ref(records, "dice")
            report.error(where, f"die {die} has no face {', '.join(lacking)}: every die has faces 1–6", "dice")


def _check_player(rec: Record, report: Report) -> None:
    codes = positions(rec)
    if not codes:
        report.error(rec.at("positions"), "no position: list one or more of " + ", ".join(POSITIONS), "position")
    for code in codes:
        if code not in POSITIONS:
            report.error(rec.at("positions"), f"{code!r} is not a position code ({', '.join(POSITIONS)})"
                                              f"{suggest(code, POSITIONS)}", "position")
    if len(set(codes)) < len(codes):
        report.error(rec.at("positions"), f"{rec['positions']!r} lists a position twice", "position")
    cap = LEGENDARY_MAX if rec["legendary"] else RATING_MAX
    for code in SKILLS:
        if rec[code] > cap:
            why = "the most a legendary card may have" if rec["legendary"] else \
                "ratings go 0–3; set legendary to yes for a 4"
            report.error(rec.at(code), f"{code} {rec[code]} is above {cap} ({why}; §7.4)", "rating")
    kind, set_ = rec["kind"], rec["set"]
    if (set_ == "NBA") != (kind == "nba"):
        report.error(rec.at("kind"), f"kind {kind} in set {set_}: NBA cards are set NBA, starting cards "
                                     "(starter, substitute) set A or B", "kind")
        return
    if rec["value"] < 1:
        report.error(rec.at("value"), f"value {rec['value']}: a Player card is worth at least 1", "value")
    if kind == "nba":
        if rec["cost"] is None:
            report.error(rec.at("cost"), f"{rec['name']} has no cost: NBA cards cost {COST_MIN}–{COST_MAX}", "cost")
        elif not COST_MIN <= rec["cost"] <= COST_MAX:
            report.error(rec.at("cost"), f"cost {rec['cost']} is outside {COST_MIN}–{COST_MAX} (§7.4; nothing "
                                         "can cost 1: Sophie could buy nothing with value 1)", "cost")
        return
    if rec["cost"] is not None:
        report.error(rec.at("cost"), f"{rec['name']} is a starting card: it is never bought, leave cost empty",
                     "cost")
    if rec["value"] != STARTING_VALUE[kind] and rec["value"] >= 1:
        report.error(rec.at("value"), f"a {'Starter' if kind == 'starter' else 'Substitute'} is worth "
                                      f"{STARTING_VALUE[kind]} (§1.2), not {rec['value']}", "value")
    if len(codes) > 1:
        report.error(rec.at("positions"), f"{rec['positions']!r}: a starting card plays one position", "position")


def _check_tactic(rec: Record, report: Report) -> None:
    used = keeps(rec)
    if not used:
        report.error(rec.at("keep_3P"), f"{rec['name']} keeps no die: give at least one keep_ column a count",
                     "keep")
    allowed = OFFENCE_SKILLS if rec["type"] == "offence" else DEFENCE_SKILLS
    for skill in used:
        if skill not in allowed:
            report.error(rec.at(f"keep_{skill}"), f"{rec['type']} tactics keep only {', '.join(allowed)} dice, "
                                                  f"not {skill} (Appendix B 8)", "keep")
    if rec["set"] == "market":
        if rec["cost"] is None:
            report.error(rec.at("cost"), f"{rec['name']} is sold in the market: it needs a cost", "cost")
        if rec["initiation"]:
            report.error(rec.at("initiation"), "only base tactics belong to an initiation set", "initiation")
    else:
        if rec["cost"] is not None:
            report.error(rec.at("cost"), f"{rec['name']} is a base tactic: it is never bought, leave cost empty",
                         "cost")
        if rec["copies"] != 1:
            report.error(rec.at("copies"), f"{rec['copies']} copies: a starting set holds one of each base "
                                           "tactic", "sets")


def _check_sets_identical(records: Records, sheet: str, report: Report) -> None:
    """Sets A and B are identical apart from the set marker (§1.1): pair the cards by name; report at B."""
    by_set = {s: {r["name"]: r for r in records[sheet] if r["set"] == s} for s in STARTING_SETS}
    first, second = (by_set[s] for s in STARTING_SETS)
    for name, b in second.items():
        a = first.get(name)
        if a is None:
            report.error(b.at("name"), f"{name!r} is in set B but not in set A; the two starting sets are "
                                       "identical apart from the set", "sets")
            continue
        for column in SAME_IN_BOTH_SETS[sheet]:
            if a[column] != b[column]:
                report.error(b.at(column), f"{name}: {column} is {_show(b[column])} in set B but {_show(a[column])} "
                                           f"in set A (row {a.ref.row}); the sets differ only by their marker",
                             "sets")
    for name, a in first.items():
        if name not in second:
            report.error(a.at("name"), f"{name!r} is in set A but not in set B; the two starting sets are "
                                       "identical apart from the set", "sets")


def _show(value) -> str:
    if value is None:
        return "empty"
    return ("yes" if value else "no") if isinstance(value, bool) else str(value)


def _check_starting_sets(records: Records, report: Report) -> None:
    """Per set: 10 Starters and 10 Substitutes, 2 per position; 5 + 5 base tactics; the initiation subset is
    5 Starters (one per position), 7 Substitutes, 3 offensive and 2 defensive base tactics (AMB-07)."""
    where = sheet_ref(records, "players")
    for set_ in STARTING_SETS:
        cards = [r for r in records["players"] if r["set"] == set_]
        for kind, title in (("starter", "Starters"), ("substitute", "Substitutes")):
            mine = [r for r in cards if r["kind"] == kind]
            count = Counter(p for r in mine for p in positions(r))
            wrong = [f"{p} {count.get(p, 0)}" for p in POSITIONS if count.get(p, 0) != PER_POSITION]
            if wrong or len(mine) != PER_POSITION * len(POSITIONS):
                report.error(where, f"set {set_} has {len(mine)} {title} ({', '.join(wrong) or 'per position ok'});"
                                    f" a set has {PER_POSITION} per position, {PER_POSITION * len(POSITIONS)} in all",
                             "sets")
            init = [r for r in mine if r["initiation"]]
            if len(init) != INITIATION[kind]:
                report.error(where, f"set {set_}: {len(init)} initiation {title} (rows {rows_of(init)}); the "
                                    f"initiation set has {INITIATION[kind]}", "initiation")
            if kind == "starter":
                on_court = Counter(p for r in init for p in positions(r))
                if sorted(on_court) != sorted(POSITIONS) or any(n != 1 for n in on_court.values()):
                    report.error(where, f"set {set_}: the initiation Starters cover "
                                        f"{'/'.join(sorted(on_court.elements())) or 'nothing'}; they start on court, "
                                        "one per position", "initiation")
        tactics = [r for r in records["tactics"] if r["set"] == set_]
        for type_, count in BASE_TACTICS.items():
            mine = [r for r in tactics if r["type"] == type_]
            if len(mine) != count:
                report.error(sheet_ref(records, "tactics"), f"set {set_} has {len(mine)} {type_} base tactics; "
                                                            f"a set has {count}", "sets")
            init = [r for r in mine if r["initiation"]]
            if len(init) != INITIATION[type_]:
                report.error(sheet_ref(records, "tactics"), f"set {set_}: {len(init)} initiation {type_} base "
                                                            f"tactics (rows {rows_of(init)}); the initiation set "
                                                            f"has {INITIATION[type_]}", "initiation")


def _check_market(records: Records, report: Report) -> None:
    """The market: 20 Tactic models, 70 cards (§1.1, Appendix B 3)."""
    market = [r for r in records["tactics"] if r["set"] == "market"]
    copies = sum(r["copies"] for r in market)
    if len(market) != MARKET_MODELS or copies != MARKET_COPIES:
        report.error(sheet_ref(records, "tactics"), f"the market has {len(market)} models and {copies} cards; the "
                                                    f"box holds {MARKET_MODELS} models, {MARKET_COPIES} cards",
                     "market")
