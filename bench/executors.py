"""Simulation throughput per executor: games/s of `pnp simulate`'s driver on local with 1 and 2 workers and
on a Dask LocalCluster of 2 workers, for one game per rules engine, and a check that all three gave the same
games (they must: a game depends only on its seed and rules).

    .venv/bin/python bench/executors.py [--games 2000] [--game nba …] [--seed 1]

Each measure plays the games once the executor is up: process start-up and the Dask cluster's start are
printed apart (a designer pays them once per command), the wall-clock games/s is the steady rate. The machine
is shared, so rates vary between runs by ±15 %.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pipeline import PROJECT_ROOT
from pipeline.play import executors  # noqa: E402
from pipeline.core.errors import Report  # noqa: E402
from pipeline.simulation.run import Request, load, run  # noqa: E402

GAMES = ("buildit", "nba", "allstar", "fightball", "challengers")
SETUPS = (("local", 1), ("local", 2), ("dask", 2))


def measure(game: str, games: int, seed: int) -> list[tuple[str, float, float, tuple]]:
    rows = []
    for spec, workers in SETUPS:
        pool = executors.parse(spec, workers)
        try:
            loaded = load(Request(game, PROJECT_ROOT, games=min(games, 100), seed=seed + 1, executor=pool), Report())
            start = time.perf_counter()
            run(loaded)                 # warm-up: starts the processes or the cluster, loads the game in each
            warm = time.perf_counter() - start
            loaded = load(Request(game, PROJECT_ROOT, games=games, seed=seed, executor=pool), Report())
            result = run(loaded)
            split = pool.splits[-1]
        finally:
            pool.close()
        label = f"{spec} ×{workers}"
        rows.append((label, split.games_per_second, warm, result.outcomes))
        print(f"  {label:9} {split.games_per_second:6.0f} games/s  ({executors.split_line(split)}; "
              f"start-up and first 100 games {warm:.1f} s)", flush=True)
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--game", action="append", choices=GAMES, help="default: one game per engine, all five")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    failed = False
    for game in args.game or GAMES:
        print(f"{game}: {args.games} games", flush=True)
        rows = measure(game, args.games, args.seed)
        same = all(outcomes == rows[0][3] for *_, outcomes in rows)
        print(f"  identical games on every executor: {'yes' if same else 'NO'}")
        failed |= not same
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
