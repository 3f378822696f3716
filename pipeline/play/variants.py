"""The same seeds under other rules: a run's games replayed with a rule parameter changed, to measure what the
change does with chance held fixed. The rulebook's disputed readings (how often the other reading changes
the winner) and a game's rule sweeps (the win rate by seat at each setting); `--matchups` plays its pairings
the same way (pipeline/simulation/run.py). Below the games, like the driver (pipeline/play/driver.py)."""

from __future__ import annotations

from pipeline.data.specs import Records
from pipeline.play.contract import Simulation, Sweep
from pipeline.play.driver import DEFAULT_MAX_STEPS, GameSource, simulate_runs
from pipeline.play.stats import SimulationResult, flag_of, summarise


def simulate_with(sim: Simulation, records: Records, overrides: tuple[tuple[str, str], ...], games: int, seed: int,
                  players: int, bots: tuple[str, ...] | None = None, workers: int = 1, progress=None, *,
                  source: GameSource | None = None, max_steps: int = DEFAULT_MAX_STEPS) -> SimulationResult:
    """simulate() with some rule parameters changed, in this process and in every worker. ValueError for an
    unknown parameter."""
    return simulate_runs(sim, records, (overrides,), games, seed, players, bots, workers, progress, source=source,
                         max_steps=max_steps)[0]


def reading_effects(sim: Simulation, records: Records, result: SimulationResult, rules: tuple = (),
                    workers: int = 1, progress=None, source: GameSource | None = None,
                    limit: int = 200, executor=None) -> list[tuple[str, str, str, int, int]]:
    """For each reading the game names (Simulation.readings) and the run did not already change: the same
    seeds (at most `limit`) replayed with the other value. Rows (parameter, value used, other value, games
    compared: both ended by the rules, games whose results (who won) differ, the first seat's mean result
    over them this run and with the other reading: what the reading does to a win rate; solo, the player's)."""
    changed_by_run = dict(rules)
    readings = [(name, other) for name, other in sim.readings(records) if name not in changed_by_run]
    if not readings:
        return []
    games = min(result.games, limit)
    replayed = simulate_runs(sim, records, [((name, other),) for name, other in readings], games, result.seed,
                             result.players, result.bots, workers, progress, source=source,
                             max_steps=result.max_steps, executor=executor)
    rows = []
    for (name, other), again in zip(readings, replayed):
        used = next((str(r.get("value")) for r in records.get("rules", ()) if r.get("parameter") == name), "?")
        pairs = [(a, b) for a, b in zip(result.outcomes[:games], again.outcomes) if not flag_of(a) and not flag_of(b)]
        first = tuple(sum(pair[i]["returns"][0] for pair in pairs) / len(pairs) for i in (0, 1)) if pairs \
            else (None, None)
        rows.append((name, used, other, len(pairs), sum(1 for a, b in pairs if a["returns"] != b["returns"]), *first))
    return rows


def sweep_results(sim: Simulation, records: Records, result: SimulationResult, sweep: Sweep, workers: int = 1,
                  progress=None, source: GameSource | None = None,
                  limit: int = 200, executor=None) -> list[tuple[tuple, SimulationResult]]:
    """A Simulation.sweeps entry played on the run's seeds (at most `limit` games): (setting, its result) in
    the sweep's order. A setting the records already hold reuses the run's own games."""
    games = min(result.games, limit)
    current = {r.get("parameter"): str(r.get("value")) for r in records.get("rules", ())}
    overrides = [tuple((name, str(value)) for name, value in zip(sweep.parameters, setting))
                 for setting in sweep.settings]
    held = [not result.replay and all(current.get(name) == value for name, value in o) for o in overrides]
    played = iter(simulate_runs(sim, records, [o for o, h in zip(overrides, held) if not h], games, result.seed,
                                result.players, result.bots, workers, progress, source=source,
                                max_steps=result.max_steps, executor=executor) if not all(held) else ())
    found = []
    for setting, h in zip(sweep.settings, held):
        found.append((tuple(setting), summarise(list(result.outcomes[:games]), games=games, seed=result.seed,
                                                players=result.players, bots=result.bots, max_steps=result.max_steps,
                                                nominal={r.name: r.nominal for r in result.nominal})
                      if h else next(played)))
    return found
