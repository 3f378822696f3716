"""What one `pnp simulate` runs and writes, step by step: one game replayed (nothing written); every pairing of
a game's sides (`--matchups`: simulation/matchups/); or the run, the rulebook's readings and the game's sweeps
replayed on its seeds, then the report files (simulation/) and how the work was split (run.json). Each step is
handed to a `Shows` as soon as it ends, so a terminal shows the run's tables while the readings still play;
nothing here prints. pipeline/simulation/run.py holds the steps themselves."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Callable, ContextManager, Protocol

from pipeline.core.progress import Progress
from pipeline.play.stats import SimulationResult
from pipeline.simulation import run as simulation
from pipeline.simulation.run import Loaded

Bars = Callable[[], ContextManager[Progress]]       # a fresh progress display for each step that plays games


class Shows(Protocol):
    """What the caller does with each finished step (the CLI prints it: pipeline/cli/simulate.py)."""

    def replayed(self, loaded: Loaded, result: SimulationResult, game_seed: int) -> None: ...

    def matchups(self, loaded: Loaded, found) -> None: ...

    def played(self, loaded: Loaded, result: SimulationResult) -> None: ...

    def readings(self, effects: list) -> None: ...

    def sweeps(self, loaded: Loaded, swept: list) -> None: ...

    def written(self, paths: list[Path]) -> None: ...

    def split(self, split) -> None: ...


def quiet() -> ContextManager[Progress]:
    """No progress display."""
    return contextlib.nullcontext(Progress())


def simulate(loaded: Loaded, replay: int | None, shows: Shows, bars: Bars = quiet) -> bool:
    """Play what the request asks: the game of seed `replay` alone, every pairing of sides, or the run with its
    readings and sweeps and the report files. True when every game played ended by the rules."""
    if replay is not None:
        result = simulation.replay(loaded, replay)
        shows.replayed(loaded, result, replay)
        return result.ok
    if loaded.request.matchups:
        return _matchups(loaded, shows, bars)
    with bars() as progress:
        result = simulation.run(loaded, progress)
    shows.played(loaded, result)
    with bars() as progress:
        effects = simulation.readings(loaded, result, progress)
    shows.readings(effects)
    with bars() as progress:
        swept = simulation.sweeps(loaded, result, progress)
    shows.sweeps(loaded, swept)
    shows.written(simulation.write_reports(loaded, result, effects, swept))
    _split(loaded, shows, "simulation/run.json")
    return result.ok


def _matchups(loaded: Loaded, shows: Shows, bars: Bars) -> bool:
    """`--matchups`: every pairing, then the reports under simulation/matchups/."""
    with bars() as progress:
        found = simulation.run_matchups(loaded, progress)
    shows.matchups(loaded, found)
    shows.written(simulation.write_matchup_reports(loaded, found))
    _split(loaded, shows, "simulation/matchups/run.json")
    return found.pooled.ok


def _split(loaded: Loaded, shows: Shows, where: str) -> None:
    """How the work was split, shown and written to output/<game>/<where> (never in a result file: it differs
    between runs); nothing when no game was played through an executor."""
    from pipeline.play import executors

    if loaded.request.executor is None:          # a Request made without one: played locally, nothing recorded
        return
    splits = loaded.request.executor.splits
    split = executors.total(splits)
    if split is None:
        return
    shows.split(split)
    shows.written([executors.write_split(loaded.request.root / "output" / loaded.request.game / where, splits)])
