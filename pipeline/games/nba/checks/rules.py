"""NBA Deck-Building's stage-5 checks: the dice of the worked examples, the cost curve, the market set-up,
reachable complexities, game lengths, rule parameters, and the worked example's team figures
(example.py). References are to shared/games/nba-deck-building.md."""

from __future__ import annotations

from collections import Counter, defaultdict
from math import ceil
from typing import Iterable

from pipeline.core.errors import Report
from pipeline.data.params import Parameters, rules
from pipeline.data.schema import Record
from pipeline.data.specs import Records
from pipeline.games.nba.checks import STARTING_SETS, positions, rows_of, sheet_ref
from pipeline.games.nba.checks.example import check_worked_example
from pipeline.games.nba.engine.rules import normal_turns
from pipeline.games.nba.schema import DEFENCE_SKILLS, POSITIONS, RULE_PARAMETERS, SKILLS, STATUS

SEED_FACES = {"3P": (0, 0, 0, 2, 6, 9), "IN": (0, 0, 2, 4, 6, 7), "PE": (0, 2, 3, 4, 6, 6),    # §2.1, DICE-01
              "IT": (0, 1, 2, 1, 2, 4), "BL": (0, 2, 2, 1, 2, 3), "ST": (0, 2, 3, 3, 1, 1)}
OBSERVED_FACES = ("IT:2B", "IT:1Y", "BL:3R", "BL:2Y", "BL:1R", "ST:3B", "ST:3Y", "ST:2Y", "ST:1R")   # DICE-02
COLOUR_LETTERS = {"B": "blue", "Y": "yellow", "R": "red"}
DIE_NAMES = {"IT": "beige", "BL": "grey", "ST": "brown"}
COST_SLACK, VALUE_SLACK = 2, 1          # §7.4: cost ≈ clamp(B − 4, 2, 10), value ≈ ceil(cost / 2)
PLAYERS_PER_GAME = 2


def check_rules(records: Records, report: Report) -> None:
    """Stage 5 (stage 6 also plays the durations table on the engine: check_durations_played)."""
    params = rules(records, RULE_PARAMETERS)
    _check_dice(records, report)
    _check_cost_curve(records, report)
    _check_market_setup(records, params, report)
    _check_complexities(records, report)
    _check_durations(records, params, report)
    _check_parameters(records, params, report)
    check_worked_example(records, report)


# --- dice -----------------------------------------------------------------------------------------------

def _check_dice(records: Records, report: Report) -> None:
    """The faces the worked examples show still exist and grey (BL) is the most likely red (DICE-02, AMB-10);
    values that leave the rulebook's table (§2.1) are reported as warnings."""
    faces: dict[str, list[Record]] = defaultdict(list)
    for rec in records["dice"]:
        faces[rec["die"]].append(rec)
        seed = SEED_FACES[rec["die"]]
        if 1 <= rec["face"] <= 6 and rec["value"] != seed[rec["face"] - 1]:
            report.warning(rec.at("value"), f"{rec['die']} face {rec['face']} is {rec['value']}; the rulebook's "
                                            f"table gives {seed[rec['face'] - 1]} (§2.1, DICE-01)", "dice")
    for observed in OBSERVED_FACES:
        die, rest = observed.split(":")
        value, colour = int(rest[:-1]), COLOUR_LETTERS[rest[-1]]
        rows = faces.get(die, [])
        if not any(r["value"] == value and r["colour"] == colour for r in rows):
            where = rows[0].at("colour") if rows else sheet_ref(records, "dice")
            report.error(where, f"{observed} (a {colour} {value} on the {DIE_NAMES[die]} {die} die, seen in the "
                                f"worked example) is on none of its faces (rows {rows_of(rows)}; DICE-02)", "dice")
    reds = {die: sum(r["colour"] == "red" for r in faces.get(die, ())) for die in DEFENCE_SKILLS}
    rivals = [d for d in DEFENCE_SKILLS if d != "BL" and reds[d] >= reds["BL"]]
    if rivals and faces.get("BL"):
        shown = ", ".join(f"{DIE_NAMES[d]} {d} {reds[d]}" for d in rivals)
        report.error(faces["BL"][0].at("colour"), f"the grey BL die has {reds['BL']} red faces (rows "
                                                   f"{rows_of(faces['BL'])}), no more than {shown}: the rulebook "
                                                   "says grey dice are the most likely to give red (DICE-02)",
                     "dice")


# --- Player cards: cost curve, market, reachable complexities ------------------------------------------------

def budget(rec: Record) -> int:
    """B = Σ of the seven skills + 2 × GI (§7.4)."""
    return sum(rec[s] for s in SKILLS if s != "GI") + 2 * rec["GI"]


def curve_cost(rec: Record) -> int:
    """The cost §7.4's curve gives a card: clamp(B − 4, 2, 10), +1 with a clutch medal (§4.3)."""
    return min(10, max(2, budget(rec) - 4)) + (1 if rec["clutch"] else 0)


def _check_cost_curve(records: Records, report: Report) -> None:
    for rec in records["players"]:
        if rec["kind"] != "nba" or rec["cost"] is None:
            continue
        want = curve_cost(rec)
        medal = " + 1 for the clutch medal" if rec["clutch"] else ""
        if abs(rec["cost"] - want) > COST_SLACK:
            report.warning(rec.at("cost"), f"{rec['name']} costs {rec['cost']} for a budget B = {budget(rec)} "
                                           f"(Σ7 skills + 2·GI); the curve gives clamp(B − 4, 2, 10){medal} = {want}"
                                           f" (±{COST_SLACK}, §7.4)", "cost_curve")
        clutch = 1 if rec["clutch"] else 0
        value = ceil((rec["cost"] - clutch) / 2) + clutch
        if abs(rec["value"] - value) > VALUE_SLACK:
            report.warning(rec.at("value"), f"{rec['name']} is worth {rec['value']} at cost {rec['cost']}; the curve"
                                            f" gives ceil(cost / 2){medal} = {value} (±{VALUE_SLACK}, §7.4)",
                           "cost_curve")


def _pile_cards(records: Records, params: Parameters) -> Record | None:
    length = params.values.get("length")
    return next((r for r in records["durations"] if r["length"] == length), None)


def _check_market_setup(records: Records, params: Parameters, report: Report) -> None:
    """Setup can build the Player pile: enough NBA cards, enough of them in the cost window (AMB-06)."""
    v = params.values
    nba = [r for r in records["players"] if r["kind"] == "nba"]
    if {"cost_window_min", "cost_window_max", "cost_window_required"} <= set(v):
        low, high, need = v["cost_window_min"], v["cost_window_max"], v["cost_window_required"]
        if low > high:
            report.error(params.at("cost_window_min"), f"cost_window_min {low} is above cost_window_max {high}",
                         "rules")
        inside = sum(1 for r in nba if r["cost"] is not None and low <= r["cost"] <= high)
        if inside < need:
            report.error(params.at("cost_window_required"), f"setup needs {need} cards costing {low}–{high} in the "
                                                            f"Player pile, but only {inside} NBA cards do (AMB-06)",
                         "market")
        row = _pile_cards(records, params)
        if row is not None and need > row["pile_cards"]:
            report.error(params.at("cost_window_required"), f"{need} cards costing {low}–{high} cannot fit a "
                                                            f"{row['pile_cards']}-card pile ({v['length']})",
                         "market")
    row = _pile_cards(records, params)
    if row is not None and len(nba) < row["pile_cards"]:
        report.error(params.at("length"), f"a {row['length']} game draws {row['pile_cards']} NBA cards "
                                          f"(durations row {row.ref.row}), but there are only {len(nba)}", "market")


def best_collective(cards: Iterable[Record]) -> tuple[int, list[Record]]:
    """The highest collective level (Σ GI) of a legal five: one card per position slot, a card filling any one
    of its positions. Exact: dynamic programming over the set of slots already filled."""
    full = (1 << len(POSITIONS)) - 1
    best: dict[int, tuple[int, list[Record]]] = {0: (0, [])}
    for card in cards:
        slots = [POSITIONS.index(p) for p in positions(card) if p in POSITIONS]
        for mask, (gi, five) in list(best.items()):
            for slot in slots:
                if mask & (1 << slot):
                    continue
                new = mask | (1 << slot)
                if new not in best or best[new][0] < gi + card["GI"]:
                    best[new] = (gi + card["GI"], five + [card])
    return best.get(full, (0, []))


def _check_complexities(records: Records, report: Report) -> None:
    """Every tactic can be activated by some legal five of one player's cards (a starting set and the NBA
    cards): the best collective reaches its complexity."""
    players = records["players"]
    best, five = max((best_collective([r for r in players if r["set"] in (s, "NBA")]) for s in STARTING_SETS),
                     key=lambda found: found[0])
    names = ", ".join(r["name"] for r in five) or "no legal five"
    for rec in records["tactics"]:
        if rec["complexity"] > best:
            report.error(rec.at("complexity"), f"{rec['name']}: complexity {rec['complexity']} is above the best "
                                               f"collective a legal five can reach, {best} ({names})", "complexity")


# --- durations and rule parameters ----------------------------------------------------------------------

def _check_durations(records: Records, params: Parameters, report: Report) -> None:
    """2 × turns per player = the normal turns a pile plays (pile + 4 with 6 track slots, AMB-01/03); an even
    pile so that the second player plays the last normal turn; the source's misprint is a warning."""
    slots = params.values.get("track_slots", 6)
    for rec in records["durations"]:
        pile, turns = rec["pile_cards"], rec["turns_per_player"]
        if pile % 2:
            report.error(rec.at("pile_cards"), f"{rec['length']}: a pile of {pile} cards plays an odd number of "
                                               f"turns ({normal_turns(pile, slots)}); the pile must be even (AMB-03)",
                         "durations")
        elif 2 * turns != normal_turns(pile, slots):
            report.error(rec.at("turns_per_player"), f"{rec['length']}: {turns} turns per player make {2 * turns}, "
                                                     f"but a pile of {pile} cards plays {pile} − 1 + {slots} − 1 = "
                                                     f"{normal_turns(pile, slots)} normal turns (countdown rule, "
                                                     "AMB-03)", "durations")
        source = rec["source_pile_cards"]
        if source is not None and source != pile:
            report.warning(rec.at("source_pile_cards"), f"erratum (AMB-01): the source rulebook prints {source} "
                                                        f"Player-pile cards for {rec['length']}; the engine plays "
                                                        f"{pile} ({2 * turns} turns = {pile} + 4)", "erratum")
    length = params.values.get("length")
    if length is not None and _pile_cards(records, params) is None:
        report.error(params.at("length"), f"no row {length!r} in sheet durations", "rules")


def check_durations_played(records: Records, report: Report, simulation) -> None:
    """Stage 6 (Simulation.play_checks): the table against the engine itself, one seeded bot game per length
    must play 2 × turns_per_player normal turns. (Under the literal end rule the length varies with the
    purchases: nothing to compare.)"""
    from pipeline.play.driver import play, with_rules

    if rules(records, RULE_PARAMETERS).values.get("end_rule") != "countdown6":
        return
    for rec in records["durations"]:
        variant = with_rules(records, (("length", rec["length"]),))
        outcome = play(simulation, variant, PLAYERS_PER_GAME, 0, ("heuristic",) * PLAYERS_PER_GAME)
        played = (outcome.get("counters") or {}).get("normal_turns")
        if outcome.get("error") or played is None:
            continue                                     # stage 6 reports games that break
        if played != 2 * rec["turns_per_player"]:
            report.error(rec.at("turns_per_player"), f"{rec['length']}: the engine played {played} normal turns "
                                                     f"with a pile of {rec['pile_cards']} cards (bot game, seed 0), "
                                                     f"not 2 × {rec['turns_per_player']}", "durations")


def _check_parameters(records: Records, params: Parameters, report: Report) -> None:
    """Expert 1's minimums fit its deck; Expert 2's draft deals no more cards than the NBA cards (§4.2)."""
    v = params.values
    if {"team_min_substitutes", "team_min_tactics", "team_deck_size"} <= set(v):
        if v["team_min_substitutes"] + v["team_min_tactics"] > v["team_deck_size"]:
            report.error(params.at("team_deck_size"), f"Expert 1: {v['team_min_substitutes']} Substitutes + "
                                                      f"{v['team_min_tactics']} base tactics at least do not fit a "
                                                      f"{v['team_deck_size']}-card deck", "rules")
    if {"draft_rounds", "draft_mini_market", "draft_common", "draft_box"} <= set(v):
        per_round = v["draft_mini_market"] + v["draft_common"] + v["draft_box"]
        dealt = v["draft_rounds"] * PLAYERS_PER_GAME * per_round
        nba = sum(r["kind"] == "nba" for r in records["players"])
        if dealt > nba:
            report.error(params.at("draft_rounds"), f"Expert 2: {v['draft_rounds']} rounds × {PLAYERS_PER_GAME} "
                                                    f"players × {per_round} cards = {dealt}, more than the {nba} NBA "
                                                    "cards", "rules")


# --- `pnp validate nba`: the summary ------------------------------------------------------------------------

def summary(records: Records) -> list[str]:
    players, tactics = records["players"], records["tactics"]
    nba = [r for r in players if r["set"] == "NBA"]
    per_set = ", ".join(f"set {s} {sum(r['set'] == s for r in players)}" for s in STARTING_SETS)
    market = [r for r in tactics if r["set"] == "market"]
    lines = [f"Player cards: {len(players)} ({per_set}, NBA {len(nba)}); Tactic cards: "
             f"{sum(r['copies'] for r in tactics)} ({len(tactics) - len(market)} base, {len(market)} market models "
             f"= {sum(r['copies'] for r in market)} cards); Fatigue cards: "
             f"{sum(r['copies'] for r in records['fatigue'])}"]
    costs = Counter(r["cost"] for r in nba)
    curve = ", ".join(f"{c}:{n}" for c, n in sorted(costs.items(), key=lambda kv: (kv[0] is None, kv[0] or 0)))
    in_window = sum(1 for r in nba if r["cost"] is not None and 3 <= r["cost"] <= 5)
    lines.append(f"NBA cost curve (cost:cards): {curve}; {in_window} cost 3–5; "
                 f"{sum(r['legendary'] for r in nba)} legendary, {sum(r['clutch'] for r in nba)} clutch")
    primary = Counter(positions(r)[0] for r in nba if positions(r))
    lines.append("NBA primary positions: " + ", ".join(f"{p} {primary.get(p, 0)}" for p in POSITIONS)
                 + f"; {sum(len(positions(r)) > 1 for r in nba)} with two positions")
    best, _ = best_collective([r for r in players if r["set"] in ("A", "NBA")])
    lines.append(f"best collective of a legal five: {best}; tactic complexities "
                 f"{min(r['complexity'] for r in tactics)}–{max(r['complexity'] for r in tactics)}")
    for sheet in ("dice", "players", "tactics", "durations"):
        found = Counter(r["status"] for r in records[sheet])
        lines.append(f"status of {sheet} (Appendix B 9): "
                     + ", ".join(f"{s} {found[s]}" for s in STATUS if found.get(s)))
    return lines
