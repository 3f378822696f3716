"""Simulation orchestration, above the games: from a game id and the `pnp simulate` options to validated
records, the seeded run, the readings replayed, and the report files. The driver (pipeline/simulate.py, below
the games) plays; pipeline/simulate_stats.py counts; pipeline/simulate_report.py writes; the CLI only shows."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pipeline import simulate as driver
from pipeline.errors import PipelineError, Problem, Report
from pipeline.games.base import GameModule, Records, Simulation
from pipeline.games.kit import with_rules
from pipeline.params import read_rules
from pipeline.simulate_stats import SimulationResult


class SimulationUsage(ValueError):
    """A request the game cannot run (unknown game, no engine, bad --rule, players or bots): a usage error."""


@dataclass(frozen=True)
class Request:
    game: str
    root: Path
    games: int = 200
    seed: int = 1
    players: int | None = None          # None: the game's usual number
    bots: tuple[str, ...] | None = None  # one for all seats or one per seat; None: the game's default
    workers: int = 1
    rules: tuple[tuple[str, str], ...] = ()    # `--rule NAME=VALUE` overrides


@dataclass(frozen=True)
class Loaded:
    request: Request
    module: GameModule
    records: Records
    players: int
    seats: tuple[str, ...]

    @property
    def sim(self) -> Simulation:
        return self.module.simulation

    @property
    def title(self) -> str:
        changed = ", ".join(f"{name}={value}" for name, value in self.request.rules)
        return self.module.title + (f" ({changed})" if changed else "")

    @property
    def source(self) -> driver.GameSource:
        return driver.GameSource(self.request.game, str(self.request.root), load_simulation, self.request.rules)


def load(request: Request, report: Report) -> Loaded | None:
    """Stages 1–5 with the --rule overrides checked like workbook cells; None when they found errors (in
    `report`). SimulationUsage for a request the game cannot run."""
    from pipeline.games import load_game
    from pipeline.validate import load_records

    try:
        module = load_game(request.game, request.root)
    except PipelineError as exc:
        usage = [p for p in exc.problems if p.rule == "usage"]
        if usage:
            raise SimulationUsage(f"{request.game}: {usage[0].message}") from None
        raise
    if module.simulation is None:
        raise SimulationUsage(f"{request.game!r} has no rules engine, so there is nothing to simulate")
    records = load_records(module, request.root, report)
    if records is not None and request.rules:
        try:
            records = with_rules(records, request.rules)
        except ValueError as exc:
            raise SimulationUsage(f"--rule: {exc}") from None
        read_rules(records, module.rule_parameters, report)     # the changed values typed like workbook cells
        if not report.errors:
            module.rule_checks(records, report)
        records = None if report.errors else records
    if records is None:
        return None
    players = request.players or module.simulation.default_players
    try:
        seats = driver.check_settings(module.simulation, players, request.bots, request.games, records)
    except ValueError as exc:
        raise SimulationUsage(f"{exc} ({request.game})") from None
    return Loaded(request, module, records, players, seats)


def run(loaded: Loaded, progress=None) -> SimulationResult:
    request = loaded.request
    return driver.simulate(loaded.sim, loaded.records, request.games, request.seed, loaded.players, loaded.seats,
                           request.workers, progress, source=loaded.source)


def replay(loaded: Loaded, game_seed: int) -> SimulationResult:
    return driver.replay(loaded.sim, loaded.records, game_seed, loaded.players, loaded.seats)


def readings(loaded: Loaded, result: SimulationResult, progress=None) -> list:
    """The rulebook's disputed readings the game names, each replayed on the same seeds ([] when none)."""
    if not loaded.sim.readings(loaded.records):
        return []
    return driver.reading_effects(loaded.sim, loaded.records, result, loaded.request.rules, loaded.request.workers,
                                  progress, loaded.source)


def write_reports(loaded: Loaded, result: SimulationResult, effects=()) -> list[Path]:
    """output/<game>/simulation/report.md and report.pdf; returns their paths."""
    from pipeline import simulate_report
    from pipeline.render.fonts import default_fonts

    folder = loaded.request.root / "output" / loaded.module.id / "simulation"
    simulate_report.write_markdown(result, folder / "report.md", loaded.title, game=loaded.request.game,
                                   readings=effects)
    simulate_report.write_pdf(result, folder / "report.pdf", loaded.title, default_fonts())
    return [folder / "report.md", folder / "report.pdf"]


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
