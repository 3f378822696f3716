"""Build It's checks that need no engine: rows together (stage 3) and plan/rule invariants (stage 5),
plus the expected gold per card drawn, shown by `pnp validate buildit`."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from pipeline.core.errors import Report
from pipeline.data.params import rules
from pipeline.data.specs import Records
from pipeline.games.buildit.engine import geometry
from pipeline.games.buildit.schema import RULE_PARAMETERS


def check_rows(records: Records, report: Report) -> None:
    """Rewards are complete and refer to real cards; Coin Gains have a value."""
    normal_models = {r["model"] for r in records["normal_cards"]}
    for rec in records["contracts"]:
        kind = rec["reward_type"]
        if kind in ("gold", "points") and rec["reward_value"] is None:
            report.error(rec.at("reward_value"), f"a {kind} reward needs a value", "required")
        if kind == "immunity":
            if rec["immune_to"] is None:
                report.error(rec.at("immune_to"), "an immunity reward names the card it protects against",
                             "required")
            elif rec["immune_to"] not in normal_models:
                report.error(rec.at("immune_to"), f"no Normal card model {rec['immune_to']!r}", "reference")
    for rec in records["normal_cards"]:
        if rec["model"] == "coin_gain" and rec["value"] is None:
            report.error(rec.at("value"), "a Coin Gain needs the gold it gives", "required")


def check_rules(records: Records, report: Report) -> None:
    params = rules(records, RULE_PARAMETERS)
    size = params.values.get("board_size", 8)
    for rec in records["contracts"]:
        _check_plan(rec, "plan", size, report, plots=rec["plots"])
    for rec in records["cities"]:
        canon = {}
        for col in ("plan3", "plan2", "plan1"):
            if _check_plan(rec, col, size, report):
                form = geometry.canonical(geometry.parse_plan(rec[col]))
                if form in canon:
                    report.error(rec.at(col), f"{col} is the same plan as {canon[form]} (up to rotation and "
                                              "reflection); a City's three plans must differ", "plan")
                canon[form] = col
    if params.values.get("build_cost_mode") == "flat":
        report.warning(params.at("build_cost_mode"), "flat build cost makes big buildings cheaper per plot "
                                                     "than small ones (BI-A1: per_plot is the default)", "rules")
    both = params.values.get("variant_contractual") and params.values.get("variant_high_density")
    if both and params.values.get("end_when") == "refuse":
        report.error(params.at("variant_high_density"), "the Contractual and High density variants both "
                     "redefine the end of the game; set end_when to all to require both", "variants_conflict")
    low, high = params.values.get("players_min"), params.values.get("players_max")
    if low and high and low > high:
        report.error(params.at("players_min"), f"players_min {low} is above players_max {high}", "range")
    check_contractual_players(records, params, report)


def contract_plots(records: Records) -> int:
    """Plots of every Contract card (copies included): what the Contractual variant needs built."""
    return sum(rec["plots"] * rec["copies"] for rec in records["contracts"] if rec["plots"] is not None)


def check_contractual_players(records: Records, params, report: Report) -> None:
    """The Contractual variant ends only when every Contract is built, so its end is reachable without
    Demolitions only when the players' Construction pawns cover every Contract's plots. The fewest players it
    suits is declared (variant_contractual_players_min, printed in the rulebook): a declared count below that is
    an error at its cell when the variant is on (a warning when it is off: only the rulebook's advice is wrong);
    the variant switched on while the game takes fewer players is a warning at its row."""
    values = params.values
    pawns, fewest = values.get("pawns_per_state"), values.get("variant_contractual_players_min")
    if not pawns or not fewest:
        return
    needed, cards = contract_plots(records), sum(rec["copies"] for rec in records["contracts"])
    suits = -(-needed // pawns)
    why = (f"its {cards} Contracts need {needed} plots built and each player owns {pawns} Construction pawns "
           f"(pawns_per_state): the end needs {suits} players or more, else Demolitions")
    if fewest * pawns < needed:
        problem = report.error if values.get("variant_contractual") else report.warning     # off: printed advice
        problem(params.at("variant_contractual_players_min"), f"the Contractual variant cannot end by its rule "
                f"with {fewest} players ({fewest * pawns} Construction pawns): {why}", "variant_players")
    elif values.get("variant_contractual") and values.get("players_min", fewest) < fewest:
        report.warning(params.at("variant_contractual"), f"the Contractual variant is on, but it suits {fewest} "
                       f"players or more (variant_contractual_players_min) and the game takes "
                       f"{values['players_min']}: {why}; with fewer players most games stop at the safety cap "
                       f"max_rounds", "variant_players")


def _check_plan(rec, column: str, board_size: int, report: Report, plots: int | None = None) -> bool:
    text = rec[column]
    if text is None:
        return False
    cells = geometry.parse_plan(text)
    ref = rec.at(column)
    if not cells:
        report.error(ref, "plan has no plot (#)", "plan")
        return False
    ok = True
    if not geometry.is_connected(cells):
        report.error(ref, f"plan {text} is not connected (plots must touch by a side or a corner)", "plan")
        ok = False
    if plots is not None and len(cells) != plots:
        report.error(ref, f"plan {text} has {len(cells)} plots but the card announces {plots}", "plan")
        ok = False
    rows, cols = geometry.extent(cells)
    if max(rows, cols) > board_size:
        report.error(ref, f"plan {text} is {rows}×{cols} and does not fit the {board_size}×{board_size} board",
                     "plan")
        ok = False
    return ok


def gold_distribution(records: Records) -> dict[str, tuple[Counter, Fraction]]:
    """Per pile: copies by gold value, and the expected gold of one card drawn (BI-T1, BI-T2)."""
    contracts = Counter()
    for rec in records["contracts"]:
        gold = rec["reward_value"] if rec["reward_type"] == "gold" else 0
        contracts[gold] += rec["copies"]
    normal = Counter()
    for rec in records["normal_cards"]:
        gold = rec["value"] if rec["model"] == "coin_gain" else 0
        normal[gold] += rec["copies"]
    return {pile: (dist, _mean(dist)) for pile, dist in (("contracts", contracts), ("normal", normal))}


def _mean(dist: Counter) -> Fraction:
    total = sum(dist.values())
    return Fraction(sum(v * n for v, n in dist.items()), total) if total else Fraction(0)


def summary(records: Records) -> list[str]:
    lines = []
    for pile, (dist, mean) in gold_distribution(records).items():
        spread = ", ".join(f"{n}×{v}" for v, n in sorted(dist.items()))
        total = sum(dist.values())
        gold = sum(v * n for v, n in dist.items())
        lines.append(f"expected gold per {pile} card drawn: {gold}/{total} = "
                     f"{float(mean):.3f} (over {total} cards: {spread} gold)")
    return lines
