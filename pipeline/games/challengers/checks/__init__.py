"""Challengers' checks that need no engine: rows together (stage 3, checks/cards.py), the game's invariants
(stage 5, checks/game.py), and the lines `pnp validate challengers` prints (summary). Every problem is located
on its cell; nothing here raises."""

from __future__ import annotations

from collections import Counter, defaultdict

from pipeline.data.specs import Records
from pipeline.games.challengers.checks.cards import check_rows
from pipeline.games.challengers.checks.common import PILE_PER_PLAYER, params
from pipeline.games.challengers.checks.game import (boxed, check_rules, pile_sizes, printed, printed_per_set,
                                                    selections, smallest_piles)
from pipeline.games.challengers.checks.supply import supply_line
from pipeline.games.challengers.schema import LEVELS

__all__ = ["check_rows", "check_rules", "summary", "pile_sizes", "printed", "printed_per_set", "selections"]


def summary(records: Records) -> list[str]:
    """Per set: printed cards and names by level, keywords; the strength curve per draft level; the smallest
    level piles over the selections of sets."""
    p = params(records)
    per_set = printed_per_set(records, p)
    starter = {rec["card"]: rec["copies_per_player"] for rec in records["starter"]}
    lines = []
    for s in records["sets"]:
        mine = [c for c in records["cards"] if c["set"] == s["id"]]
        levels = Counter()
        for c in mine:
            levels[c["level"]] += boxed(c, starter, p["players_max"])
        shown = ", ".join(f"{lv} {levels[lv]}" for lv in LEVELS if levels[lv])
        keywords = Counter(c["keyword"] for c in mine)
        kw = ", ".join(f"{k} {n}" for k, n in keywords.most_common())
        lines.append(f"{s['name']} ({s['id']}): {per_set[s['id']]} cards, {len(mine)} names ({shown}); "
                     f"keywords: {kw}")
    lines += _curve(records)
    smallest = smallest_piles(records, p)
    lines.append(_piles_line(records, p, smallest))
    lines.append(supply_line(records, p, smallest))
    return lines


def _curve(records: Records) -> list[str]:
    """The printed strength curve of each draft level (robot cards apart)."""
    robot = {s["id"] for s in records["sets"] if s["robot"]}
    counts: dict[str, Counter] = defaultdict(Counter)
    for c in records["cards"]:
        if c["set"] not in robot and c["level"] in ("A", "B", "C") and c["strength"] is not None:
            counts[c["level"]][c["strength"]] += printed(c)
    lines = []
    for level in ("A", "B", "C"):
        curve = counts[level]
        total = sum(curve.values())
        if total:
            mean = sum(s * n for s, n in curve.items()) / total
            steps = " ".join(f"{s}:{curve[s]}" for s in sorted(curve))
            lines.append(f"  strength, level {level} ({total} cards): {steps}; mean {mean:.1f}")
    return lines


def _piles_line(records: Records, p: dict, smallest: dict[str, tuple[int, str]]) -> str:
    need = PILE_PER_PLAYER * p["players_max"]
    parts = [f"{level} {size}{without}" for level, (size, without) in smallest.items()]
    return f"  smallest level piles over {len(selections(records, p))} selections: {', '.join(parts)}; " \
           f"need {need} ({PILE_PER_PLAYER} × {p['players_max']} players)"
