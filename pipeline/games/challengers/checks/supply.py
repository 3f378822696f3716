"""The level piles against the rounds and the player counts (issue 30). Drafted cards leave their pile for good,
and the hands of one Deck phase wait aside until its end, so a level offered in many rounds runs short at high
player counts. The worst case: every player takes the level in each round that offers it (the most cards the
round's options keep and draw). What a pile that runs out does is the rules' `short_pile`: refill (the phase's
cards set aside, then the next level's pile: hands stay full, seed l.19) or deal_what_is_left (short hands, a
warning: located at the schedule row of the round where the first hands would be short)."""

from __future__ import annotations

from typing import NamedTuple

from pipeline.core.errors import Report
from pipeline.data.schema import Record
from pipeline.data.specs import Records
from pipeline.games.challengers.checks.common import param_ref
from pipeline.games.challengers.engine.data import DRAFT_LEVELS


class Shortage(NamedTuple):
    level: str
    players: int
    round: int
    row: Record                 # the schedule row of that round and level
    kept: int                   # cards the players kept from the level before that round
    need: int                   # the hands of that round
    pile: int


def _rows(records: Records, level: str | None) -> dict[int, list[Record]]:
    by_round: dict[int, list[Record]] = {}
    for rec in records["schedule"]:
        if None not in (rec["round"], rec["level"], rec["draw"], rec["keep"]) and level in (None, rec["level"]):
            by_round.setdefault(rec["round"], []).append(rec)
    return by_round


def first_shortage(records: Records, p: dict, level: str | None, pile: int) -> Shortage | None:
    """The fewest players whose worst case runs `pile` short (level None: every level together)."""
    by_round = _rows(records, level)
    for players in range(max(p.get("players_min", 1), 1), p["players_max"] + 1):
        kept = 0
        for r in range(1, p["rounds"] + 1):
            rows = by_round.get(r)
            if not rows:
                continue
            row = max(rows, key=lambda rec: (rec["draw"], rec["keep"]))
            need = players * row["draw"]
            if kept + need > pile:
                return Shortage(level or "A+B+C", players, r, row, kept, need, pile)
            kept += players * max(rec["keep"] for rec in rows)
    return None


def check_supply(records: Records, p: dict, smallest: dict[str, tuple[int, str]], report: Report) -> None:
    """Hands that the declared `short_pile` leaves short in the worst case: a warning on the schedule row."""
    if not smallest:                    # no selection of sets: the sets checks say why
        return
    refill = p.get("short_pile", "refill") == "refill"
    checked = {"A+B+C": (sum(size for size, _ in smallest.values()), "")} if refill else smallest
    for level, (size, without) in checked.items():
        short = first_shortage(records, p, None if refill else level, size)
        if short is None:
            continue
        rule = "refill" if refill else "deal_what_is_left"
        report.warning(short.row.at("level"), f"level {level} pile{without}: {size} cards; with {short.players} "
                       f"players all taking it in every round that offers it, they keep {short.kept} before round "
                       f"{short.round}, whose hands need {short.need} more: hands run short from {short.players} "
                       f"players (short_pile {rule} at {param_ref(records, 'short_pile')})", "piles")


def supply_line(records: Records, p: dict, smallest: dict[str, tuple[int, str]]) -> str:
    """The summary line: from how many players each level's worst case needs short_pile."""
    parts = []
    for level in DRAFT_LEVELS:
        if level not in smallest:
            continue
        short = first_shortage(records, p, level, smallest[level][0])
        parts.append(f"{level} from {short.players} players (round {short.round})" if short else f"{level} never")
    return f"  level piles run out when every player takes the level whenever offered: {', '.join(parts)}; " \
           f"short_pile {p.get('short_pile', 'refill')}"
