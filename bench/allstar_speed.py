"""All-Star Draft engine speed: K seeded complete seasons played by bots, driver loop included.

    .venv/bin/python bench/allstar_speed.py [--games 500] [--players 4] [--bots draft] [--mode classic]
                                            [--seed 0] [--min-rate 0] [--all]

Games are played by pipeline.simulate.play, the driver of `pnp simulate`: game g gets random.Random(seed + g),
which samples every chance outcome by probability and feeds the bots. The data: the registered game's
validated records when `allstar` is in the registry; else sheets/allstar.xlsx read with the pipeline's
loaders; else the test fixture of tests/test_allstar_engine.py (the line "data:" says which). Prints games/s by
CPU time (the machine is shared: CPU time is the engine's own speed) and by wall clock, mean turns and steps,
and how games ended. A game that raised or got stuck stops the run with its seed (exit 1); --min-rate R also
fails when CPU-time games/s is below R. --all runs every player count 2..6 and the three 2-manager modes.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pipeline import PROJECT_ROOT  # noqa: E402
from pipeline.games import REGISTRY  # noqa: E402
from pipeline.games.allstar import engine  # noqa: E402
from pipeline.games.allstar.bots import BOTS  # noqa: E402
from pipeline.games.base import Simulation  # noqa: E402
from bench.engine_timing import measure  # noqa: E402  (through the driver of `pnp simulate`)


def simulation(mode: str) -> tuple[Simulation, object, str]:
    """(Simulation, records, where the data comes from)."""
    if "allstar" in REGISTRY and mode == "classic":
        from pipeline.errors import Report
        from pipeline.games import load_game
        from pipeline.validate import load_records
        report = Report()
        game = load_game("allstar", PROJECT_ROOT)
        records = load_records(game, PROJECT_ROOT, report)
        if records is not None and game.simulation is not None:
            return game.simulation, records, "registered game allstar (sheets/allstar.xlsx)"
    from tests.test_allstar_engine import fixture_data, workbook_data
    try:
        data = workbook_data()
        where = "sheets/allstar.xlsx" if data else "test fixture (no sheets/allstar.xlsx yet)"
    except ValueError as exc:
        data, where = None, f"test fixture (sheets/allstar.xlsx does not load: {str(exc)[:100]})"
    data = data or fixture_data()
    sim = Simulation(new_game=lambda records, players: engine.new_game(data, players, mode), bots=BOTS,
                     players=(data.params["players_min"], data.params["players_max"]), default_players=4)
    return sim, {}, where


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bots", default="draft", help="one bot name for every seat, or one per seat (a,b,…)")
    parser.add_argument("--mode", default="classic", choices=("classic", "heritage", "duel", "open_market"))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--min-rate", type=float, default=0.0, help="fail below this many games/s (CPU time)")
    parser.add_argument("--all", action="store_true", help="3..6 managers (the pass draft) and every 2-manager mode")
    args = parser.parse_args()
    runs = [(n, "classic") for n in range(3, 7)] + [(2, m) for m in ("heritage", "duel", "open_market")] \
        if args.all else [(args.players, args.mode)]
    failed = False
    for players, mode in runs:
        names = args.bots.split(",")
        bots = names * players if len(names) == 1 else names
        sim, records, where = simulation(mode)
        try:
            rate, wall_rate, info = measure(sim, records, players, bots, args.games, args.seed)
        except SystemExit as exc:
            print(exc, file=sys.stderr)
            return 1
        print(f"{args.games} games, {players} players, mode {mode}, bots {','.join(bots)}; data: {where}")
        print(f"  games/s: {rate:.0f} (CPU time), {wall_rate:.0f} (wall clock); mean turns {info['turns']:.1f}, "
              f"mean steps {info['steps']:.0f}, {info['us']:.1f} µs per step; ends: "
              + ", ".join(f"{k} {v}" for k, v in sorted(info["ends"].items())))
        if rate < args.min_rate:
            print(f"FAILED: {rate:.0f} games/s is below --min-rate {args.min_rate:.0f}", file=sys.stderr)
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
