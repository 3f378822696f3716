"""The seeded driver that plays a game's engine with bots (`pnp simulate`, validation stage 6).

The driver owns the only random source of a game: `random.Random(game seed)`, made in `play()`. At a chance
node it samples `chance_outcomes()` by probability (one `rng.random()` against the cumulative list, in the
engine's stable order); at a seat it asks that seat's bot, `bot.choose(state, rng)`, with the same rng.

Seeds: game i of a run with master seed S is played with `game_seed(S, i) = S * 1_000_003 + i` (so a run
with seed 0 plays games 0, 1, 2, …). Every game's seed is in its outcome, and `--replay SEED` (`replay()`)
plays exactly that game again, with the same players and bots.

Scale: games are cut into batches of BATCH_SIZE; a Batch is plain picklable data and `run_batch(batch)` a
top-level function that rebuilds the game from its GameSource (game id + project root) in the worker, so
the same batches can go to a process pool or to Dask (pipeline/play/executors.py). Results are put back in game order:
the statistics are identical for any number of workers.

What `state.outcome()` gives (all optional but `scores`; plain data, picklable):
    scores      list[number] per seat: the ranking points (`returns()` decides the winners, ties included)
    rounds      int: rounds played (the round in progress for a game that stopped)
    turns       int: turns played
    end_reason  str: why the game ended ("calendar", "contracts", …)
    cap         str | None: the safety cap that stopped the game ("max_actions_per_turn"); None if it ended
    counters    dict[str, number]: anything counted during the game ("gold_income": 25); a name with a
                colon ("fulfilled:statue") is a row of a frequency table ("fulfilled")
The driver adds: seed, steps, stuck (max_steps reached), error (None or {type, message, step, phase, seat}),
returns (list[float], games that finished), index (position in the run).
"""

from __future__ import annotations

from dataclasses import asdict

from pipeline.core.progress import Progress
from pipeline.data.specs import Records
from pipeline.play.contract import Simulation, with_rules
from pipeline.play.executors import Local, Work
from pipeline.play.stats import SimulationResult, flag_of, summarise, what_happened, wilson
from pipeline.play.worker import Batch, DEFAULT_MAX_STEPS, GameSource, Shipped, play, play_batch, run_batch, run_shipped

GAME_SEED_STRIDE = 1_000_003     # a prime above any sensible number of games: runs never share a game seed
BATCH_SIZE = 25


def game_seed(seed: int, index: int) -> int:
    return seed * GAME_SEED_STRIDE + index


def check_settings(sim: Simulation, players: int, bots: tuple[str, ...] | None, games: int = 1,
                   records: Records | None = None) -> tuple[str, ...]:
    """The bot of every seat; ValueError with a user-facing message for impossible settings (the player
    range from `records` when the game reads it there). No bots: the game's first bot everywhere; one
    name: that bot everywhere; else one name per seat."""
    fewest, most = sim.player_range(records)
    if not fewest <= players <= most:
        raise ValueError(f"this game takes {fewest}–{most} players, not {players}")
    if not 1 <= games < GAME_SEED_STRIDE:
        raise ValueError(f"the number of games must be between 1 and {GAME_SEED_STRIDE - 1}")
    names = tuple(bots or ()) or (next(iter(sim.bots)),)
    unknown = [n for n in names if n not in sim.bots]
    if unknown:
        raise ValueError(f"unknown bot {unknown[0]!r} (bots: {', '.join(sim.bots)})")
    if len(names) == 1:
        return names * players
    if len(names) != players:
        raise ValueError(f"give one bot for every seat or one for all: {len(names)} bots for {players} players")
    return names


def simulate(sim: Simulation, records: Records, games: int, seed: int, players: int,
             bots: tuple[str, ...] | None = None, workers: int = 1, progress=None, *,
             source: GameSource | None = None, max_steps: int = DEFAULT_MAX_STEPS, executor=None) -> SimulationResult:
    """Play `games` seeded games, in game order. With workers > 1 (and more than one batch) the batches run
    in spawned processes that rebuild the game from `source`: `sim` and `records` must be what it loads."""
    return simulate_runs(sim, records, ((),), games, seed, players, bots, workers, progress, source=source,
                         max_steps=max_steps, executor=executor)[0]


def simulate_runs(sim: Simulation, records: Records, variants, games: int, seed: int, players: int,
                  bots: tuple[str, ...] | None = None, workers: int = 1, progress=None, *,
                  source: GameSource | None = None, max_steps: int = DEFAULT_MAX_STEPS,
                  executor=None) -> list[SimulationResult]:
    """The same `games` seeds played under each variant (rule overrides, () for the records as they are):
    one result per variant, each what simulate() gives for it, the batches of all of them in one call of the
    executor (pipeline/play/executors.py; None: local, `workers` processes). ValueError for an unknown rule
    parameter."""
    from dataclasses import replace

    seats = check_settings(sim, players, bots, games, records)
    seeds = [game_seed(seed, i) for i in range(games)]
    runs = [with_rules(records, tuple(v)) for v in variants]
    where = [replace(source, rules=source.rules + tuple(v)) if source is not None and v else source for v in variants]
    batches = [(n, Batch(where[n], first, tuple(seeds[first:first + BATCH_SIZE]), players, seats, max_steps))
               for n in range(len(runs)) for first in range(0, games, BATCH_SIZE)]
    progress = progress or Progress()
    progress.start(f"simulating {games * len(runs)} games", games * len(runs))
    work = Work(tuple(batches), sim, tuple(runs), records)
    if executor is None:
        own = Local(workers)
        try:
            played = own.run(work, progress)
        finally:
            own.close()
    else:
        played = executor.run(work, progress)
    outcomes: list[list[dict]] = [[] for _ in runs]
    for (n, _), part in zip(batches, played):
        outcomes[n].extend(part)
    return [summarise(outcomes[n], games=games, seed=seed, players=players, bots=seats, max_steps=max_steps,
                      nominal=dict(sim.nominal(runs[n]))) for n in range(len(runs))]


def replay(sim: Simulation, records: Records, seed: int, players: int, bots: tuple[str, ...] | None = None,
           max_steps: int = DEFAULT_MAX_STEPS) -> SimulationResult:
    """Exactly the game a run played with this game seed (same players and bots)."""
    seats = check_settings(sim, players, bots, records=records)
    outcome = {"index": 0, **play(sim, records, players, seed, seats, max_steps)}
    return summarise([outcome], games=1, seed=seed, players=players, bots=seats, max_steps=max_steps,
                     nominal=dict(sim.nominal(records)), replay=True)


def to_plain(result: SimulationResult) -> dict:
    """The result as JSON-ready data (for the build report), without the per-game outcomes."""
    data = asdict(result)
    data.pop("outcomes")
    return data


__all__ = ["Batch", "GameSource", "Shipped", "run_shipped", "SimulationResult", "check_settings", "with_rules", "flag_of", "game_seed",
           "play", "play_batch", "replay", "run_batch", "simulate", "simulate_runs", "summarise", "to_plain",
           "what_happened", "wilson"]
