"""Simulation orchestration, above the games: a registered game's Simulation and records, for `pnp simulate`
and for the worker processes the driver (pipeline/simulate.py, below the games) spawns."""

from __future__ import annotations

from pathlib import Path

from pipeline.errors import PipelineError, Problem, Report
from pipeline.games.base import Records, Simulation
from pipeline.games.kit import with_rules


def load_simulation(game: str, root: str, rules: tuple[tuple[str, str], ...] = ()) -> tuple[Simulation, Records]:
    """A registered game's Simulation and validated records (stages 1–5), for a worker process."""
    from pipeline.games import load_game
    from pipeline.validate import load_records

    module = load_game(game, Path(root))
    report = Report()
    records = load_records(module, Path(root), report)
    if records is None:
        raise PipelineError(report.errors)
    records = with_rules(records, rules)
    if module.simulation is None:
        raise PipelineError(Problem(game, "this game has no rules engine to simulate", "usage"))
    return module.simulation, records
