"""Stage 3, rows together: the cards' sets and levels, copies against rarity, every effect's operations
against its keyword (§3.4), and the starter, robot and solo lists against the cards they name.

References are to shared/games/challengers.md (§ sections, CH-A… resolutions)."""

from __future__ import annotations

from collections import defaultdict

from pipeline.core.errors import Report
from pipeline.data.schema import Record
from pipeline.data.specs import Records
from pipeline.games.challengers.checks.common import WHEN_SELECTED_SET, reference
from pipeline.games.challengers.engine.data import NORMAL_COPIES, OP_TIMINGS

TIMING_WORDS = {"none": "with no keyword (on reveal)", "on_attack": "On attack", "from_bench": "From the bench",
                "holding_flag": "Holding the flag", "losing_flag": "Losing the flag",
                "when_selected": "When selected"}
COUNT_OPS = ("FANS", "BENCH_TO_DISCARD", "MILL_OPPONENT", "REMOVE_FROM_DECK", "EXTRA_PICK")
ROBOT_LEVELS = ("R", "SOLO")
GUIDANCE = {"rare": (1, 2), "common": (5, 6)}        # CH-A17: printed copies


def check_rows(records: Records, report: Report) -> None:
    sets = {s["id"]: s for s in records["sets"]}
    cards = {c["id"]: c for c in records["cards"]}
    ops_of: dict[str, list[Record]] = defaultdict(list)
    for rec in records["card_ops"]:
        if reference(rec, "card", cards, "cards", report):
            ops_of[rec["card"]].append(rec)
    for card in records["cards"]:
        if reference(card, "set", sets, "sets", report):
            _placement(card, sets[card["set"]], report)
        _copies(card, sets.get(card["set"]), report)
        _effect(card, ops_of.get(card["id"], []), report)
    _names(records["cards"], report)
    _rarities(records["cards"], report)
    _starter(records, cards, report)
    _robot_lists(records, cards, report)


def _placement(card: Record, card_set: Record, report: Report) -> None:
    """S cards in the always-used set (with the starters), R and SOLO only in the robot's set; ids <set>_…."""
    level, where = card["level"], card.at("level")
    if level == "S" and not card_set["always_used"]:
        report.error(where, f"{card['id']} is a starter card (S) in set {card_set['id']}: starter cards belong to "
                            "the set used in every game", "level")
    elif level in ROBOT_LEVELS and not card_set["robot"]:
        report.error(where, f"{card['id']} is level {level} in set {card_set['id']}: {level} cards belong to the "
                            "robot's set", "level")
    if card["id"] is not None and not str(card["id"]).startswith(f"{card_set['id']}_"):
        report.warning(card.at("id"), f"card id {card['id']!r} does not start with its set {card_set['id']}_",
                       "id")


def _copies(card: Record, card_set: Record | None, report: Report) -> None:
    """CH-T3, CH-A17: 4 copies unless Rare or Common (then printed, required); starter and robot cards give
    theirs."""
    rarity, copies, cid = card["rarity"], card["copies"], card["id"]
    if card["level"] == "S" or (card_set is not None and card_set["robot"]):
        if copies is None:
            what = "starter" if card["level"] == "S" else "robot"
            report.error(card.at("copies"), f"{cid}: a {what} card needs its copies (the most its "
                                            f"{'starting deck' if what == 'starter' else 'decks'} use)", "copies")
        return
    if rarity not in GUIDANCE:
        if copies is not None and copies != NORMAL_COPIES:
            report.error(card.at("copies"), f"{cid}: a normal card has {NORMAL_COPIES} copies, not {copies}; mark "
                                            "it rare or common to print another count (CH-T3)", "copies")
        return
    if copies is None:
        report.error(card.at("copies"), f"{cid}: a {rarity} card needs its copies (printed on it, CH-A17)",
                     "copies")
        return
    low, high = GUIDANCE[rarity]
    if not low <= copies <= high:
        report.warning(card.at("copies"), f"{cid}: {copies} copies for a {rarity} card (guidance {low}–{high}, "
                                          "CH-A17)", "copies")


def _effect(card: Record, ops: list[Record], report: Report) -> None:
    """Every op allowed with the card's keyword (§3.4), its number and scope; a keyword or a text has ops, and
    ops have a text; When selected only in its own set."""
    keyword, cid = card["keyword"], card["id"]
    if keyword == "when_selected" and card["set"] != WHEN_SELECTED_SET and card["set"] is not None:
        report.error(card.at("keyword"), f"{cid}: When selected is the {WHEN_SELECTED_SET} set's keyword only, not "
                                         f"{card['set']}'s (§2.5)", "keyword")
    if not ops:
        if keyword != "none":
            report.error(card.at("keyword"), f"{cid} has keyword {keyword} but no operation in sheet card_ops: "
                                             "the effect would do nothing", "effect")
        elif card["text"]:
            report.error(card.at("text"), f"{cid} prints an effect but has no operation in sheet card_ops: it "
                                          "would do nothing", "effect")
        return
    if not card["text"]:
        report.error(card.at("text"), f"{cid} has {len(ops)} operation(s) in sheet card_ops but no printed text: "
                                      "players could not know", "effect")
    for op in ops:
        _op(op, keyword, cid, report)


def _op(rec: Record, keyword: str, cid: str, report: Report) -> None:
    op, n, scope = rec["op"], rec["n"], rec["scope"]
    if op not in OP_TIMINGS:                  # empty: refused at stage 2
        return
    allowed = OP_TIMINGS[op]
    if keyword in TIMING_WORDS and keyword not in allowed:
        report.error(rec.at("op"), f"{op} cannot work {TIMING_WORDS[keyword]} (card {cid}); it works "
                                   f"{', '.join(TIMING_WORDS[t] for t in allowed)} (§3.4)", "timing")
    if op == "SELF_TO_DECK_BOTTOM":
        if n is not None:
            report.warning(rec.at("n"), f"SELF_TO_DECK_BOTTOM takes no number; {n} is ignored", "n")
    elif n is None:
        report.error(rec.at("n"), f"{op} needs a number", "n")
    elif op in COUNT_OPS and n < 1:
        report.error(rec.at("n"), f"{op} {n}: the number of {'fans' if op == 'FANS' else 'cards'} must be at "
                                  "least 1", "n")
    elif n == 0:
        report.error(rec.at("n"), f"{op} 0 changes nothing", "n")
    bench_strength = op == "STRENGTH" and keyword == "from_bench"
    if bench_strength and scope is None:
        report.error(rec.at("scope"), f"{cid}: From the bench STRENGTH needs a scope: attack, defence or both "
                                      "(CH-A10)", "scope")
    elif scope is not None and not bench_strength:
        report.warning(rec.at("scope"), f"{cid}: a scope only applies to From the bench STRENGTH; {scope} is "
                                        "ignored", "scope")


def _names(cards: list[Record], report: Report) -> None:
    """Same-named cards share a bench slot: two different cards may not share a name."""
    first: dict[str, Record] = {}
    for card in cards:
        name = card["name"]
        if name is None:
            continue
        if name in first:
            report.error(card.at("name"), f"{card['id']} is named {name!r} like {first[name]['id']} (row "
                                          f"{first[name].ref.row}): they would share a bench slot", "unique")
        first.setdefault(name, card)


def _rarities(cards: list[Record], report: Report) -> None:
    """At most one Rare and one Common per set (§6)."""
    seen: dict[tuple, Record] = {}
    for card in cards:
        if card["rarity"] == "normal":
            continue
        key = (card["set"], card["rarity"])
        if key in seen:
            report.warning(card.at("rarity"), f"{card['id']} is a second {card['rarity']} card in set {card['set']} "
                                              f"(after {seen[key]['id']}); §6 allows one", "rarity")
        seen.setdefault(key, card)


def _starter(records: Records, cards: dict[str, Record], report: Report) -> None:
    """The starting deck holds S cards of the always-used set; their copies are the starter's."""
    used = set()
    for rec in records["starter"]:
        if not reference(rec, "card", cards, "cards", report):
            continue
        card = cards[rec["card"]]
        used.add(card["id"])
        if card["level"] != "S":
            report.error(rec.at("card"), f"{card['id']} is level {card['level']}: a starting deck holds S cards "
                                         "(CH-A4)", "level")
        elif card["copies"] is not None and card["copies"] != rec["copies_per_player"]:
            report.error(card.at("copies"), f"{card['id']}: {card['copies']} copies, but each starting deck holds "
                                            f"{rec['copies_per_player']} (sheet starter)", "copies")
    for card in cards.values():
        if card["level"] == "S" and card["id"] not in used:
            report.warning(card.at("id"), f"starter card {card['id']} is in no starting deck (sheet starter)",
                           "starter")


def _robot_lists(records: Records, cards: dict[str, Record], report: Report) -> None:
    """robot_decks name the robot's A/B/C cards, solo_cards its SOLO cards, never more copies than printed."""
    robot = {s["id"] for s in records["sets"] if s["robot"]}
    for sheet, levels, what in (("robot_decks", ("A", "B", "C"), "a base card (A, B or C)"),
                                ("solo_cards", ("SOLO",), "a SOLO card")):
        for rec in records[sheet]:
            if not reference(rec, "card", cards, "cards", report):
                continue
            card = cards[rec["card"]]
            if card["set"] not in robot or card["level"] not in levels:
                report.error(rec.at("card"), f"{card['id']} (set {card['set']}, level {card['level']}) is not "
                                             f"{what} of the robot's set", "robot")
            elif None not in (card["copies"], rec["copies"]) and rec["copies"] > card["copies"]:
                report.error(rec.at("copies"), f"round {rec['round']} uses {rec['copies']} {card['id']} but "
                                               f"sheet cards prints {card['copies']}", "copies")
