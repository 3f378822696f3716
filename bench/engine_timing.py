"""Timing complete bot games through the driver of `pnp simulate` (pipeline.play.driver.play): what the engine
benchmark (engine_speed.py --game G) uses for every game."""

from __future__ import annotations

import time
from collections import Counter

from pipeline.play.driver import play


def measure(sim, records, players: int, bots: tuple, games: int, seed: int) -> tuple[float, float, dict]:
    """(games/s CPU, games/s wall, summary) or SystemExit on a failed game. Game g plays seed + g; one warm-up
    game first (seed − 1) builds the data tables. The summary: mean turns, steps, µs per step, score per seat,
    and how games ended."""
    play(sim, records, players, seed - 1, tuple(bots))
    turns = steps = score = 0
    ends = Counter()
    wall, cpu = time.perf_counter(), time.process_time()
    for game in range(games):
        outcome = play(sim, records, players, seed + game, tuple(bots))
        if outcome["error"] or outcome["stuck"]:
            raise SystemExit(f"FAILED: game seed {seed + game}, bots {bots}: {outcome['error'] or 'stuck'}")
        turns, steps = turns + outcome["turns"], steps + outcome["steps"]
        score += sum(outcome.get("scores") or ())
        ends[outcome["end_reason"] + (f" (cap {outcome['cap']})" if outcome["cap"] else "")] += 1
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return games / cpu, games / wall, {"turns": turns / games, "steps": steps / games, "us": 1e6 * cpu / steps,
                                       "score": score / games / players, "ends": dict(ends)}
