"""Challengers' game data for the engine: the card records with their strengths worked out once per role
(§3.2), the level piles per set, the starter deck, the draft schedule, the trophy tokens and the robot's decks.

    GameData.from_rows(sets, cards, card_ops, starter, schedule, trophies, robot_decks, robot_levels,
                       solo_cards, params)

Rows are plain dicts keyed by the schema's column names (sheets sets … solo_cards); params the `rules` values.
A card is an engine integer (its row order); `cards[i]` its record, `index[id]` the integer of an id."""

from __future__ import annotations

from typing import NamedTuple

from pipeline.games.challengers.engine.data import DRAFT_LEVELS, OP_TIMINGS, PARAMETERS, copies_of
from pipeline.games.engine_base import check_typed_params


class Card(NamedTuple):
    index: int
    id: str
    name: str                   # same-named cards share a bench slot
    slot: int                   # the name as an integer (bench slots are keyed by it)
    set: str
    level: str
    strength: int
    keyword: str
    copies: int | None          # copies in a level pile (None: starter and robot cards)
    attack: int                 # what it adds to an attack it is revealed in (base + reveal + On attack STRENGTH)
    flag: int                   # its defence on top of a flag pile (base + kept reveal + Holding the flag)
    opening_extra: int          # On attack STRENGTH: counts for an opening card when CH-A18 reads yes
    opp_attack: int             # OPP_STRENGTH on the defence while it attacks (reveal and On attack)
    opp_opening_extra: int      # its On attack OPP_STRENGTH, for an opening card when CH-A18 reads yes
    opp_flag: int               # Holding the flag OPP_STRENGTH: on the attack against it
    bench_attack: int           # From the bench STRENGTH (scope attack or both), per copy on the bench
    bench_defence: int          # From the bench STRENGTH (scope defence or both)
    on_reveal: tuple            # (op, n) of the no-keyword FANS, BENCH_TO_DISCARD, MILL_OPPONENT
    on_losing: tuple            # (op, n) of Losing the flag
    on_select: tuple            # (op, n) of When selected
    ops: tuple                  # every (op, n, scope) in order, as authored


def _card(index: int, row: dict, ops: list, slots: dict) -> Card:
    keyword = row.get("keyword") or "none"
    total = {"attack": 0, "flag": 0, "open": 0, "opp_attack": 0, "opp_open": 0, "opp_flag": 0, "b_att": 0,
             "b_def": 0}
    reveal, losing, select = [], [], []
    for op, n, scope in ops:
        if op not in OP_TIMINGS:
            raise ValueError(f"card {row['id']}: unknown op {op!r}")
        if keyword not in OP_TIMINGS[op]:
            raise ValueError(f"card {row['id']}: op {op} cannot have the timing {keyword} (§3.4)")
        n = int(n or 0)
        if op == "STRENGTH":
            if keyword == "none":
                total["attack"] += n
                total["flag"] += n
            elif keyword == "on_attack":
                total["attack"] += n
                total["open"] += n
            elif keyword == "holding_flag":
                total["flag"] += n
            else:
                scope = scope or "both"
                total["b_att"] += n if scope in ("attack", "both") else 0
                total["b_def"] += n if scope in ("defence", "both") else 0
        elif op == "OPP_STRENGTH":
            if keyword == "holding_flag":
                total["opp_flag"] += n
            else:
                total["opp_attack"] += n
                if keyword == "on_attack":
                    total["opp_open"] += n
        elif keyword == "none":
            reveal.append((op, n))
        elif keyword == "losing_flag":
            losing.append((op, n))
        else:
            select.append((op, n))
    strength = int(row["strength"])
    return Card(index, row["id"], row["name"], slots.setdefault(row["name"], len(slots)), row["set"], row["level"],
                strength, keyword, copies_of(row), strength + total["attack"], strength + total["flag"],
                total["open"], total["opp_attack"], total["opp_open"], total["opp_flag"], total["b_att"],
                total["b_def"], tuple(reveal), tuple(losing), tuple(select), tuple(ops))


class GameData:
    """Read-only for a whole game (and a whole batch of games): states share it."""

    def __init__(self):
        self.cards: tuple[Card, ...] = ()
        self.index: dict[str, int] = {}

    @classmethod
    def from_rows(cls, sets, cards, card_ops, starter, schedule, trophies, robot_decks, robot_levels, solo_cards,
                  params) -> "GameData":
        check_typed_params(PARAMETERS, params)
        data = cls()
        data.params = dict(params)
        ops: dict[str, list] = {}
        for row in sorted(card_ops, key=lambda r: (r["card"], int(r["order"]))):
            ops.setdefault(row["card"], []).append((row["op"], row.get("n"), row.get("scope")))
        slots: dict[str, int] = {}
        data.cards = tuple(_card(i, row, ops.get(row["id"], []), slots) for i, row in enumerate(cards))
        data.index = {c.id: c.index for c in data.cards}
        data.card_ids = tuple(c.id for c in data.cards)
        data.offered = tuple(f"offered:{c.id}" for c in data.cards)       # counter names, made once
        data.picked = tuple(f"picked:{c.id}" for c in data.cards)
        data.picked_by_winner = tuple(f"picked_by_winner:{c.id}" for c in data.cards)
        unknown = set(ops) - set(data.index)
        if unknown:
            raise ValueError(f"card_ops name unknown cards: {sorted(unknown)}")
        data.set_ids = tuple(r["id"] for r in sets)
        data.city = tuple(r["id"] for r in sets if r.get("always_used"))
        data.robot_set = next((r["id"] for r in sets if r.get("robot")), None)
        data.optional_sets = tuple(s for s in data.set_ids if s not in data.city and s != data.robot_set)
        data.starter = tuple((data.index[_known(data, r["card"])], int(r["copies_per_player"])) for r in starter)
        data.schedule = _schedule(schedule, params)
        data.trophies = {}
        for row in trophies:
            data.trophies.setdefault(int(row["round"]), []).append((int(row["value"]), int(row["count"])))
        data.robot_base = {}
        for row in robot_decks:
            data.robot_base.setdefault(int(row["round"]), []).append((data.index[_known(data, row["card"])],
                                                                      int(row["copies"])))
        data.solo = {}
        for row in solo_cards:
            data.solo.setdefault(int(row["round"]), []).append((data.index[_known(data, row["card"])],
                                                                int(row.get("copies") or 1)))
        data.swaps = {int(r["level"]): int(r["swaps"]) for r in robot_levels}
        data.r_cards = tuple((c.index, c.copies or 1) for c in data.cards if c.level == "R")
        data.level_mean = {}
        for level in DRAFT_LEVELS:
            pool = [(c.strength, c.copies or 0) for c in data.cards if c.level == level and c.set != data.robot_set]
            weight = sum(n for _, n in pool)
            data.level_mean[level] = sum(s * n for s, n in pool) / weight if weight else 0.0
        return data

    def piles(self, chosen: tuple[str, ...]) -> dict[str, dict[int, int]]:
        """The level piles of a game whose sets are the City set(s) + `chosen`: level -> {card: copies}."""
        used = set(self.city) | set(chosen)
        piles: dict[str, dict[int, int]] = {level: {} for level in DRAFT_LEVELS}
        for c in self.cards:
            if c.level in piles and c.set in used and c.copies:
                piles[c.level][c.index] = c.copies
        return piles

    def ids(self, cards) -> list[str]:
        return [self.cards[c].id for c in cards]


def _known(data: GameData, card: str) -> str:
    if card not in data.index:
        raise ValueError(f"unknown card id {card!r}")
    return card


def _schedule(rows, params) -> dict[int, tuple]:
    """round -> ((level, draw, keep), …) by option number."""
    by_round: dict[int, list] = {}
    for row in sorted(rows, key=lambda r: (int(r["round"]), int(r["option"]))):
        draw = int(row.get("draw") or params["hand_size"])
        by_round.setdefault(int(row["round"]), []).append((row["level"], draw, int(row["keep"])))
    for r in range(1, params["rounds"] + 1):
        if r not in by_round:
            raise ValueError(f"the schedule has no option for round {r}")
    return {r: tuple(options) for r, options in by_round.items()}
