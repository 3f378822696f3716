"""Build It engine speed: K seeded complete games played by bots, driver loop included.

    .venv/bin/python bench/engine_speed.py [--games 500] [--players 4] [--bots heuristic] [--seed 0] [--min-rate 0]

Games are played by pipeline.simulate.play, the driver of `pnp simulate`: game g gets random.Random(seed + g),
which samples every chance outcome by probability and feeds the bots. Prints games/s by wall clock and by CPU time (the machine is shared: CPU time is the engine's own
speed), mean turns and engine steps per game, and how games ended. A game that raised or got stuck stops the
run with its seed (exit 1); --min-rate R also fails when CPU-time games/s is below R.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pipeline import PROJECT_ROOT  # noqa: E402
from pipeline.errors import Report  # noqa: E402
from pipeline.games import load_game  # noqa: E402
from pipeline.simulate import play  # noqa: E402  (the driver of `pnp simulate`: the loop we ship)
from pipeline.validate import load_records  # noqa: E402


def workbook():
    """Build It's Simulation record and validated records."""
    report = Report()
    game = load_game("buildit", PROJECT_ROOT)
    records = load_records(game, PROJECT_ROOT, report)
    if report.errors:
        raise SystemExit(f"the workbook has errors: {report.errors}")
    return game.simulation, records


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bots", default="heuristic", help="one bot name for every seat, or one per seat (a,b,…)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--min-rate", type=float, default=0.0, help="fail below this many games/s (CPU time)")
    args = parser.parse_args()
    names = args.bots.split(",")
    bots = names * args.players if len(names) == 1 else names
    sim, records = workbook()
    play(sim, records, len(bots), args.seed - 1, tuple(bots))      # warm-up: caches of shapes and placements

    turns = steps = 0
    ends = Counter()
    wall, cpu = time.perf_counter(), time.process_time()
    for game in range(args.games):
        seed = args.seed + game
        outcome = play(sim, records, len(bots), seed, tuple(bots))
        if outcome["error"] or outcome["stuck"]:
            print(f"FAILED: game seed {seed}, bots {bots}: {outcome['error'] or 'stuck'}", file=sys.stderr)
            return 1
        turns, steps = turns + outcome["turns"], steps + outcome["steps"]
        ends[outcome["end_reason"] + (f" (cap {outcome['cap']})" if outcome["cap"] else "")] += 1
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu

    rate = args.games / cpu
    print(f"{args.games} games, {len(bots)} players, bots {','.join(bots)}")
    print(f"games/s: {rate:.0f} (CPU time), {args.games / wall:.0f} (wall clock)")
    print(f"mean turns {turns / args.games:.1f}, mean steps {steps / args.games:.0f}, "
          f"{1e6 * cpu / steps:.1f} µs per step")
    print("ends: " + ", ".join(f"{k} {v}" for k, v in sorted(ends.items())))
    if rate < args.min_rate:
        print(f"FAILED: {rate:.0f} games/s is below --min-rate {args.min_rate:.0f}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
