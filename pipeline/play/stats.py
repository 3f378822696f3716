"""Statistics over simulated games: which games count (flag_of), a flagged game in words, the Wilson
interval, spreads, and SimulationResult built by summarise() from the outcomes in game order.

Statistics cover the games that ended by the rules; games stopped by a safety cap, stuck or broken are left
out of them and listed with their seeds. Pure computation: pipeline/simulation/report.py turns it into text.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from dataclasses import dataclass

Z95 = 1.959963984540054          # standard normal quantile 0.975


def flag_of(outcome: dict) -> str | None:
    """"error", "stuck", "cap", or None for a game that ended by the rules."""
    if outcome.get("error"):
        return "error"
    if outcome.get("stuck"):
        return "stuck"
    return "cap" if outcome.get("cap") else None


def what_happened(outcome: dict) -> str:
    """A flagged game in words, after "game with seed S ..."."""
    where = f"round {outcome['rounds']}" if outcome.get("rounds") is not None else "its setup"
    kind = flag_of(outcome)
    if kind == "cap":
        return f"did not finish: safety cap {outcome['cap']} hit in {where}"
    if kind == "stuck":
        return f"did not finish: still running after {outcome['steps']} steps ({where}); no safety cap fired"
    if kind == "error":
        error = outcome["error"]
        seat = error.get("seat")
        who = {"bot": f"the bot of seat {seat + 1 if seat is not None else '?'}", "setup": "the game setup"}.get(
            error.get("phase"), "the engine")
        return f"stopped at step {error['step']} ({where}): {who} raised {error['type']}: {error['message']}"
    return f"ended: {outcome.get('end_reason') or 'end'}"


# --- statistics ---------------------------------------------------------------------------------------------

def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion (95 % by default); shared wins make `successes` fractional."""
    if n <= 0:
        return 0.0, 1.0
    p, z2 = successes / n, z * z
    denominator = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denominator
    low = 0.0 if successes <= 0 else max(0.0, centre - half)        # exact ends, not float noise
    return low, 1.0 if successes >= n else min(1.0, centre + half)


@dataclass(frozen=True)
class Spread:
    n: int
    mean: float
    sd: float           # sample standard deviation (0 for one value)
    low: float
    high: float

    @classmethod
    def of(cls, values: list) -> Spread | None:
        if not values:
            return None
        n, mean = len(values), math.fsum(values) / len(values)
        sd = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
        return cls(n, mean, sd, min(values), max(values))


@dataclass(frozen=True)
class SeatStats:
    seat: int
    bot: str
    wins: float          # a win shared by k seats counts 1/k
    rate: float
    low: float           # 95 % Wilson interval
    high: float
    mean_score: float | None


@dataclass(frozen=True)
class CounterStats:
    name: str
    total: float
    mean: float          # per finished game
    games: int           # finished games where it was above 0


@dataclass(frozen=True)
class NominalRow:
    name: str
    nominal: float
    simulated: float | None      # None: no counter of that name in the games


@dataclass(frozen=True)
class Flagged:
    index: int
    seed: int
    kind: str            # "cap", "stuck" or "error"
    message: str         # what_happened()


@dataclass(frozen=True)
class MatchupCell:
    """A side's results against an opponent (None: against every other side), both seatings pooled; a
    shared win counts 1/k, so a draw is half a win."""

    side: str
    opponent: str | None
    games: int               # games that ended by the rules
    wins: float
    low: float               # 95 % Wilson interval
    high: float
    score_for: float | None  # mean score of the side
    score_against: float | None

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @classmethod
    def of(cls, side: str, opponent: str | None, games: int, wins: float, score_for=None, score_against=None):
        return cls(side, opponent, games, wins, *wilson(wins, games), score_for, score_against)


@dataclass(frozen=True)
class SimulationResult:
    """Settings, every game's outcome in game order, and statistics over the games that ended by the rules
    (`finished`); flagged games (cap, stuck, error) are left out of the statistics and listed with seeds."""

    games: int
    seed: int
    players: int
    bots: tuple[str, ...]
    max_steps: int
    replay: bool
    outcomes: tuple[dict, ...]
    finished: int
    seats: tuple[SeatStats, ...]
    first_player: SeatStats | None   # games whose outcome names a `first_player` seat: that seat's results
    scores: Spread | None
    margins: Spread | None       # winner's score minus the runner-up's (0 on a tie)
    rounds: Spread | None
    turns: Spread | None
    end_reasons: tuple[tuple[str, int], ...]
    counters: tuple[CounterStats, ...]
    nominal: tuple[NominalRow, ...]
    frequencies: tuple[tuple[str, tuple[CounterStats, ...]], ...]
    flagged: tuple[Flagged, ...]

    @property
    def ok(self) -> bool:
        return not self.flagged


def summarise(outcomes: list[dict], *, games: int, seed: int, players: int, bots: tuple[str, ...],
              max_steps: int, nominal: dict, replay: bool = False) -> SimulationResult:
    done = [o for o in outcomes if flag_of(o) is None]
    n = len(done)
    seats = []
    for seat in range(players):
        wins = math.fsum(o["returns"][seat] for o in done)
        scores = [o["scores"][seat] for o in done if o.get("scores")]
        seats.append(SeatStats(seat, bots[seat], wins, wins / n if n else 0.0, *wilson(wins, n),
                               math.fsum(scores) / len(scores) if scores else None))
    starts = [o for o in done if o.get("first_player") is not None]
    first = None
    if starts:
        wins = math.fsum(o["returns"][o["first_player"]] for o in starts)
        scores = [o["scores"][o["first_player"]] for o in starts if o.get("scores")]
        first = SeatStats(-1, "first to play", wins, wins / len(starts), *wilson(wins, len(starts)),
                          math.fsum(scores) / len(scores) if scores else None)
    ranked = [sorted(o["scores"], reverse=True) for o in done if len(o.get("scores") or ()) > 1]
    reasons = Counter(end_label(o) for o in outcomes)
    counters = _counters(done)
    plain = tuple(c for c in counters.values() if ":" not in c.name)
    tables: dict[str, list[CounterStats]] = defaultdict(list)
    for c in counters.values():
        if ":" in c.name:
            table, row = c.name.split(":", 1)
            tables[table].append(CounterStats(row, c.total, c.mean, c.games))
    return SimulationResult(
        games=games, seed=seed, players=players, bots=tuple(bots), max_steps=max_steps, replay=replay,
        outcomes=tuple(outcomes), finished=n, seats=tuple(seats), first_player=first,
        scores=Spread.of([s for o in done for s in o.get("scores") or ()]),
        margins=Spread.of([r[0] - r[1] for r in ranked]),
        rounds=Spread.of([o["rounds"] for o in done if o.get("rounds") is not None]),
        turns=Spread.of([o["turns"] for o in done if o.get("turns") is not None]),
        end_reasons=tuple(sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0]))),
        counters=plain, nominal=tuple(_pair(name, value, counters) for name, value in nominal.items()),
        frequencies=tuple((name, tuple(rows)) for name, rows in sorted(tables.items())),
        flagged=tuple(Flagged(o["index"], o["seed"], flag_of(o), what_happened(o)) for o in outcomes
                      if flag_of(o)))


def end_label(outcome: dict) -> str:
    kind = flag_of(outcome)
    return f"cap: {outcome['cap']}" if kind == "cap" else kind or str(outcome.get("end_reason") or "end")


def _counters(done: list[dict]) -> dict[str, CounterStats]:
    totals: dict[str, float] = {}
    present: Counter = Counter()
    for outcome in done:
        for name, value in (outcome.get("counters") or {}).items():
            totals[name] = totals.get(name, 0) + value
            present[name] += value > 0
    return {name: CounterStats(name, totals[name], totals[name] / len(done), present[name])
            for name in sorted(totals, key=natural_key)}


def natural_key(name: str) -> list:
    """"face:2" before "face:10"."""
    return [(0, int(part), "") if part.isdigit() else (1, 0, part) for part in re.split(r"(\d+)", name)]


def _pair(name: str, nominal: float, counters: dict[str, CounterStats]) -> NominalRow:
    """A nominal "a/b" pairs with counters a / b over all games; any other name with counter `name` per game."""
    if "/" in name:
        top, bottom = (counters.get(part.strip()) for part in name.split("/", 1))
        simulated = top.total / bottom.total if top and bottom and bottom.total else None
        return NominalRow(name, nominal, simulated)
    return NominalRow(name, nominal, counters[name].mean if name in counters else None)
