"""Rules-engine speed, for any registered game: K seeded complete games played by bots, driver loop included.

    .venv/bin/python bench/engine_speed.py --game buildit|allstar|nba|fightball|challengers [--games 500] [--players P]
                                           [--bots heuristic] [--seed 0] [--rule name=value …]
                                           [--min-rate 0] [--all]

Games are played by pipeline.play.driver.play, the driver of `pnp simulate`: game g gets random.Random(seed + g),
which samples every chance outcome by probability and feeds the bots. The data is the registered game's
validated workbook, with --rule overrides as `pnp simulate --rule` applies them. Prints games/s by CPU time
(the machine is shared: CPU time is the engine's own speed) and by wall clock, mean turns and steps, µs per
step, mean score and how games ended. A game that raised or got stuck stops the run with its seed (exit 1);
--min-rate R fails when CPU-time games/s is below R. --all runs the game's other settings too (ALL below).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.engine_timing import measure  # noqa: E402  (through the driver of `pnp simulate`)
from pipeline import PROJECT_ROOT  # noqa: E402
from pipeline.simulation.run import load_simulation  # noqa: E402

# --all: (players or None for the game's default, rule overrides) per game
ALL = {
    "buildit": [(2, ()), (3, ()), (4, ()), (4, (("variant_contractual", "yes"),)),
                (4, (("variant_high_density", "yes"),)), (4, (("build_cost_mode", "flat"),))],
    "allstar": [(n, ()) for n in range(3, 7)] + [(2, (("mode", m),)) for m in ("heritage", "duel", "open_market")],
    "nba": [(2, ()), (2, (("length", "short"),)), (2, (("length", "epic"),)), (2, (("variant_team_selection", "yes"),)),
            (2, (("variant_draft", "yes"),)), (2, (("variant_money_time", "yes"),)),
            (2, (("end_rule", "market_empty_literal"),))],
    "fightball": [(2, ()), (2, (("tie_rule", "overtime"),)), (2, (("speed_north", "70"),)),
                  (2, (("team_north", "forges"), ("team_south", "mirages")))],
    "challengers": [(4, ())] + [(n, ()) for n in (1, 2, 3, 5, 6, 7, 8)] + [(4, (("capture_order", "bench_first"),)),
                                                                         (1, (("robot_level", "5"),))],
}


def run(game: str, players: int | None, rules: tuple, names: list[str], games: int, seed: int) -> float:
    sim, records = load_simulation(game, str(PROJECT_ROOT), rules)
    players = players or sim.default_players
    bots = tuple(names * players if len(names) == 1 else names)
    rate, wall_rate, info = measure(sim, records, players, bots, games, seed)
    settings = ", ".join(f"{k}={v}" for k, v in rules) or "workbook rules"
    print(f"{game}: {games} games, {players} players, bots {','.join(dict.fromkeys(bots))}, {settings}")
    ends = ", ".join(f"{reason} {count}" for reason, count in sorted(info["ends"].items()))
    print(f"  games/s: {rate:.0f} (CPU time), {wall_rate:.0f} (wall clock); mean turns {info['turns']:.1f}, "
          f"mean steps {info['steps']:.0f}, {info['us']:.1f} µs per step, mean score {info['score']:.1f}; "
          f"ends: {ends}")
    return rate


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True, choices=sorted(ALL))
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--players", type=int, default=None, help="default: the game's usual number")
    parser.add_argument("--bots", default="heuristic", help="one bot name for every seat, or one per seat (a,b,…)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rule", action="append", default=[], help="NAME=VALUE, as `pnp simulate --rule`")
    parser.add_argument("--min-rate", type=float, default=0.0, help="fail below this many games/s (CPU time)")
    parser.add_argument("--all", action="store_true", help="the game's other settings too")
    args = parser.parse_args()
    rules = tuple(tuple(item.split("=", 1)) for item in args.rule)
    names = args.bots.split(",")
    if args.game in ("allstar", "challengers") and names == ["heuristic"]:
        names = ["draft" if args.game == "allstar" else "drafter"]     # their heuristic bots are drafters
    runs = ALL[args.game] if args.all else [(args.players, rules)]
    first = None
    for players, overrides in runs:
        rate = run(args.game, players, overrides, names, args.games, args.seed)
        first = rate if first is None else first
    if first is not None and first < args.min_rate:
        print(f"FAILED: {first:.0f} games/s is below --min-rate {args.min_rate:g}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
