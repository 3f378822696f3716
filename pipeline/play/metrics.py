"""Balance metrics over a simulation's games, each with its 95 % interval: what `pnp sweep` tabulates per
combination and what a balance gate (`pnp validate --balance`) bounds. Names follow Ludii's metrics where one
fits: first-player advantage, completion, duration, drawishness.

Rates carry a Wilson interval; means a normal interval (mean ± 1.96 · sd / √n); a ratio of two counters'
totals (points per activation) the delta-method interval of a ratio estimator. Pure computation over a
SimulationResult (pipeline/play/stats.py); statistics cover the games that ended by the rules, except
completion, which is the share of them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping, Sequence

from pipeline.play.contract import KeyFigure
from pipeline.play.stats import SimulationResult, Z95, flag_of, wilson


@dataclass(frozen=True)
class Measure:
    """A measured value and its 95 % interval over `n` units (games, or counted units for a ratio); value
    None when nothing was measured (no finished game)."""

    value: float | None
    low: float | None
    high: float | None
    n: int
    detail: str = ""        # what the value is of when it is one of many (the least-bought card's id)

    @classmethod
    def rate(cls, successes: float, n: int, detail: str = "") -> Measure:
        if n <= 0:
            return cls(None, None, None, 0, detail)
        return cls(successes / n, *wilson(successes, n), n, detail)

    @classmethod
    def mean(cls, values: Sequence[float], detail: str = "") -> Measure:
        n = len(values)
        if not n:
            return cls(None, None, None, 0, detail)
        mean = math.fsum(values) / n
        sd = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
        half = Z95 * sd / math.sqrt(n)
        return cls(mean, mean - half, mean + half, n, detail)


def finished(result: SimulationResult) -> list[dict]:
    return [o for o in result.outcomes if flag_of(o) is None]


def completion(result: SimulationResult) -> Measure:
    """Share of the games that ended by the rules (not at a safety cap, stuck or broken)."""
    return Measure.rate(result.finished, len(result.outcomes))


def first_player_advantage(result: SimulationResult) -> Measure:
    """Win rate of whoever played first: the seat the outcome names as `first_player`, else seat 1. A win
    shared by k seats counts 1/k."""
    if result.first_player is not None:
        first = result.first_player
        n = sum(1 for o in finished(result) if o.get("first_player") is not None)
        return Measure.rate(first.wins, n)
    return seat_win_rate(result, 0)


def seat_win_rate(result: SimulationResult, seat: int) -> Measure:
    if not 0 <= seat < result.players:
        raise ValueError(f"seat {seat + 1} is not in a {result.players}-player game")
    return Measure.rate(result.seats[seat].wins, result.finished)


def drawishness(result: SimulationResult) -> Measure:
    """Share of the finished games won by more than one seat (or by none)."""
    done = finished(result)
    return Measure.rate(sum(1 for o in done if sum(1 for r in o["returns"] if r > 0) != 1), len(done))


def duration(result: SimulationResult, unit: str = "rounds") -> Measure:
    """Mean game length in `unit` ("rounds" or "turns") with its interval."""
    if unit not in ("rounds", "turns"):
        raise ValueError(f"a duration is counted in rounds or turns, not {unit!r}")
    return Measure.mean([o[unit] for o in finished(result) if o.get(unit) is not None])


def counter_value(outcome: dict, name: str) -> float:
    """A counter of one game; a table's name (no colon) is the sum of its rows."""
    counters = outcome.get("counters") or {}
    if ":" in name or name in counters:
        return counters.get(name, 0)
    prefix = name + ":"
    return math.fsum(v for k, v in counters.items() if k.startswith(prefix))


def key_figure(result: SimulationResult, figure: KeyFigure) -> Measure:
    """The figure's mean per finished game, or with `per` the ratio of the two totals (its n: games)."""
    done = finished(result)
    top = [counter_value(o, figure.counter) for o in done]
    if figure.per is None:
        return Measure.mean(top)
    bottom = [counter_value(o, figure.per) for o in done]
    n, total = len(done), math.fsum(bottom)
    if not n or total <= 0:
        return Measure(None, None, None, n)
    ratio = math.fsum(top) / total
    mean_bottom = total / n
    residuals = [x - ratio * y for x, y in zip(top, bottom)]
    variance = math.fsum(r * r for r in residuals) / (n - 1) if n > 1 else 0.0
    half = Z95 * math.sqrt(variance / n) / mean_bottom
    return Measure(ratio, ratio - half, ratio + half, n)


def presence(result: SimulationResult, table: str, keys: Sequence[str] = ()) -> dict[str, Measure]:
    """For each key of a counter table (the game's catalog `keys` too, so a card no game counted is there
    with 0): the share of finished games in which it was counted at least once."""
    n = result.finished
    counted = {row.name: row.games for row in dict(result.frequencies).get(table, ())}
    names = list(dict.fromkeys([*map(str, keys), *counted]))
    return {key: Measure.rate(counted.get(key, 0), n, key) for key in names}


def least_present(result: SimulationResult, table: str, keys: Sequence[str] = ()) -> Measure:
    """The key of `table` counted in the fewest games (its id in `detail`): the gate "no card bought in under
    2 % of games" bounds this one. Ties go to the first in catalog order."""
    found = presence(result, table, keys)
    if not found:
        return Measure(None, None, None, result.finished, "")
    return min(found.values(), key=lambda m: (m.value if m.value is not None else math.inf))


def catalog(sim, records: Mapping, table: str) -> Sequence[str]:
    return tuple((sim.catalogs(records) or {}).get(table, ()))
