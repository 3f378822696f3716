"""NBA Deck-Building engine speed: K seeded complete games played by bots, driver loop included.

    .venv/bin/python bench/nba_speed.py [--games 500] [--bots heuristic] [--seed 0] [--rule name=value …]
                                        [--min-rate 0] [--all]

Games are played by pipeline.simulate.play, the driver of `pnp simulate`: game g gets random.Random(seed + g),
which samples every chance outcome by probability and feeds the bots. The data: the registered game's
validated records (sheets/nba.xlsx); else the test fixture of tests/nba_fixture.py (the line "data:" says
which). Prints games/s by CPU time (the machine is shared: CPU time is the engine's own speed) and by wall
clock, mean turns and steps, mean score and how games ended. A game that raised or got stuck stops the run
with its seed (exit 1); --min-rate R also fails when CPU-time games/s is below R. --all also runs the other
lengths, each expert variant, the literal end rule and random bots.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pipeline import PROJECT_ROOT  # noqa: E402
from pipeline.games.base import Simulation  # noqa: E402
from pipeline.games.nba import engine  # noqa: E402
from pipeline.games.nba.bots import BOTS  # noqa: E402
from bench.engine_timing import measure  # noqa: E402  (through the driver of `pnp simulate`)
from pipeline.simulate import with_rules  # noqa: E402

ALL = [(), (("length", "short"),), (("length", "epic"),), (("variant_team_selection", "yes"),),
       (("variant_draft", "yes"),), (("variant_money_time", "yes"),), (("end_rule", "market_empty_literal"),)]


def simulation(rules: tuple) -> tuple[Simulation, object, str]:
    """(Simulation, records, where the data comes from)."""
    try:
        from pipeline.errors import Report
        from pipeline.games import load_game
        from pipeline.validate import load_records
        report = Report()
        game = load_game("nba", PROJECT_ROOT)
        records = load_records(game, PROJECT_ROOT, report)
        if records is not None and game.simulation is not None:
            return game.simulation, with_rules(records, rules), "registered game nba (sheets/nba.xlsx)"
        where = f"test fixture (sheets/nba.xlsx does not load: {[str(e) for e in report.errors][:2]})"
    except Exception as exc:  # noqa: BLE001 - fall back to the fixture, say why
        where = f"test fixture (sheets/nba.xlsx does not load: {str(exc)[:100]})"
    from tests.nba_fixture import fixture_data
    data = fixture_data(**{k: {"yes": True, "no": False}.get(v, int(v) if v.isdigit() else v) for k, v in rules})
    sim = Simulation(new_game=lambda records, players: engine.new_game(data, players), bots=BOTS,
                     players=(2, 2), default_players=2)
    return sim, {}, where


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--bots", default="heuristic", help="one bot name for both seats, or two (a,b)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rule", action="append", default=[], help="a rules-sheet value, name=value")
    parser.add_argument("--min-rate", type=float, default=0.0, help="fail below this many games/s (CPU time)")
    parser.add_argument("--all", action="store_true", help="also other lengths, the variants and random bots")
    args = parser.parse_args()
    names = args.bots.split(",")
    bots = tuple(names * 2 if len(names) == 1 else names)
    given = tuple(tuple(r.split("=", 1)) for r in args.rule)
    runs = [(given + extra, bots) for extra in ALL] + [(given, ("random", "random"))] if args.all else [(given, bots)]
    failed = False
    for rules, seats in runs:
        sim, records, where = simulation(rules)
        try:
            rate, wall_rate, info = measure(sim, records, 2, seats, args.games, args.seed)
        except SystemExit as exc:
            print(exc, file=sys.stderr)
            return 1
        shown = ", ".join(f"{k}={v}" for k, v in rules) or "workbook rules"
        print(f"{args.games} games, bots {','.join(seats)}, {shown}; data: {where}")
        print(f"  games/s: {rate:.0f} (CPU time), {wall_rate:.0f} (wall clock); mean turns {info['turns']:.1f}, "
              f"mean steps {info['steps']:.0f}, {info['us']:.1f} µs per step, mean score {info['score']:.1f}; ends: "
              + ", ".join(f"{k} {v}" for k, v in sorted(info["ends"].items())))
        if rate < args.min_rate:
            print(f"FAILED: {rate:.0f} games/s is below --min-rate {args.min_rate:.0f}", file=sys.stderr)
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
