"""Simulation orchestration, above the games: from a game id and the `pnp simulate` options to validated
records, the seeded run, the readings replayed, and the report files. The driver (pipeline/play/driver.py, below
the games) plays; pipeline/play/stats.py counts; report.py and pdf.py write; session.py runs these steps in the
order `pnp simulate` asks for them; the CLI shows."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from pipeline.core.errors import PipelineError, Problem, Report
from pipeline.core.progress import Progress
from pipeline.data.params import read_rules
from pipeline.data.specs import GameModule, Records
from pipeline.play import driver, gates as balance, variants
from pipeline.play.contract import Simulation, with_rules
from pipeline.play.stats import SimulationResult
from pipeline.simulation import gates as balance_report


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
    teams: tuple[str, ...] = ()         # `--teams A,B`: the side of each seat (Simulation.sides)
    matchups: bool = False              # `--matchups`: every ordered pair of sides
    executor: object = None             # pipeline.play.executors Local or Dask; None: local with `workers`


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
        return driver.GameSource(self.request.game, str(self.request.root), load_simulation,
                                 self.request.rules, game_engine)


def load(request: Request, report: Report) -> Loaded | None:
    """Stages 1–5 with the --rule overrides checked like workbook cells; None when they found errors (in
    `report`). SimulationUsage for a request the game cannot run."""
    from pipeline.games import load_game
    from pipeline.data.meta import with_game_facts
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
    if (request.teams or request.matchups) and module.simulation.sides is None:
        option = "--teams" if request.teams else "--matchups"
        raise SimulationUsage(f"{request.game}: {option} needs a game that declares its sides; this one has none")
    records = load_records(module, request.root, report)
    if records is not None and request.matchups:
        check_matchups(module.simulation, records, request)
    if records is not None and request.teams:
        request = replace(request, rules=request.rules + side_rules(module.simulation, records, request), teams=())
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
    return Loaded(request, with_game_facts(module, records), records, players, seats)


def side_rules(sim: Simulation, records: Records, request: Request) -> tuple[tuple[str, str], ...]:
    """`--teams A,B` as the rule overrides it stands for (team_north=A, team_south=B); SimulationUsage, one
    line, for a wrong count, an unknown id or a side also set by --rule."""
    parameters, choices = sim.sides
    known = [str(c) for c in choices(records)]
    if len(request.teams) != len(parameters):
        raise SimulationUsage(f"--teams takes {len(parameters)} ids separated by commas (one per seat: "
                              f"{', '.join(parameters)}), not {len(request.teams)}")
    unknown = [t for t in request.teams if t not in known]
    if unknown:
        raise SimulationUsage(f"--teams: unknown id {unknown[0]!r} (known: {', '.join(known)})")
    both = [name for name, _ in request.rules if name in parameters]
    if both:
        raise SimulationUsage(f"--teams and --rule {both[0]}=… both set {both[0]}: give one of them")
    return tuple(zip(parameters, request.teams))


def check_matchups(sim: Simulation, records: Records, request: Request) -> None:
    parameters, choices = sim.sides
    both = [name for name, _ in request.rules if name in parameters]
    if both:
        raise SimulationUsage(f"--matchups sets {both[0]} in every pairing: leave out --rule {both[0]}=…")
    if len(set(map(str, choices(records)))) < len(parameters):
        raise SimulationUsage(f"--matchups needs at least {len(parameters)} sides; the data has "
                              f"{', '.join(map(str, choices(records))) or 'none'}")


def sides_of(loaded: Loaded) -> dict[str, str]:
    """The side of each seat in this run's records ({} for a game without sides)."""
    if loaded.sim.sides is None:
        return {}
    values = {r.get("parameter"): str(r.get("value")) for r in loaded.records.get("rules", ())}
    return {name: values.get(name, "?") for name in loaded.sim.sides.parameters}


def seat_names(loaded: Loaded) -> list[str]:
    sides = list(sides_of(loaded).values())
    return [f"seat {i + 1}" + (f" ({sides[i]})" if i < len(sides) else "") for i in range(loaded.players)]


def run(loaded: Loaded, progress=None) -> SimulationResult:
    request = loaded.request
    return driver.simulate(loaded.sim, loaded.records, request.games, request.seed, loaded.players, loaded.seats,
                           request.workers, progress, source=loaded.source, executor=request.executor)


def replay(loaded: Loaded, game_seed: int) -> SimulationResult:
    return driver.replay(loaded.sim, loaded.records, game_seed, loaded.players, loaded.seats)


def readings(loaded: Loaded, result: SimulationResult, progress=None) -> list:
    """The rulebook's disputed readings the game names, each replayed on the same seeds ([] when none)."""
    if not loaded.sim.readings(loaded.records):
        return []
    return variants.reading_effects(loaded.sim, loaded.records, result, loaded.request.rules, loaded.request.workers,
                                  progress, loaded.source, executor=loaded.request.executor)


def sweeps(loaded: Loaded, result: SimulationResult, progress=None) -> list:
    """Every rule sweep the game declares, played on the run's seeds: [(Sweep, [(setting, result)])]; a sweep
    of a ratio whose denominator the run never counted (the robot's matches with no robot) is left out."""
    from pipeline.play.ratios import single_rate

    request = loaded.request
    return [(sweep, variants.sweep_results(loaded.sim, loaded.records, result, sweep, request.workers, progress,
                                         loaded.source, executor=request.executor)) for sweep in loaded.sim.sweeps
            if sweep.y is None or single_rate(result, sweep.y).denominator]


def run_matchups(loaded: Loaded, progress=None):
    """Every ordered pair of sides (both seatings), each on the same seeds; the matrix read with pandas."""
    from itertools import permutations

    from pipeline.play.stats import summarise
    from pipeline.simulation import table as simulate_table
    from pipeline.simulation.matchups import Matchups

    request, (parameters, choices) = loaded.request, loaded.sim.sides
    sides = tuple(dict.fromkeys(str(c) for c in choices(loaded.records)))
    pairings = list(permutations(sides, len(parameters)))
    results = driver.simulate_runs(loaded.sim, loaded.records, [tuple(zip(parameters, ids)) for ids in pairings],
                                   request.games, request.seed, loaded.players, loaded.seats, request.workers,
                                   progress, source=loaded.source,         # every pairing's batches in one call
                                   executor=request.executor)
    runs = tuple(zip(pairings, results))
    outcomes = [{**o, "index": n * request.games + o["index"]} for n, (_, r) in enumerate(runs) for o in r.outcomes]
    pooled = summarise(outcomes, games=len(outcomes), seed=request.seed, players=loaded.players, bots=loaded.seats,
                       max_steps=driver.DEFAULT_MAX_STEPS, nominal={})
    frame = simulate_table.games_frame([(dict(zip(parameters, ids)), result) for ids, result in runs])
    cells, overall = simulate_table.matchup_matrix(frame, parameters, sides)
    return Matchups(tuple(parameters), sides, runs, pooled, cells, overall, frame)


def write_reports(loaded: Loaded, result: SimulationResult, effects=(), swept=()) -> list[Path]:
    """output/<game>/simulation/report.md, report.pdf, games.csv (every counter of every game) and a CSV per
    ratio table the games counted (cards.csv: per card); returns their paths. The PDF credits the game."""
    from pipeline.play import ratios as simulate_ratios
    from pipeline.render.fonts import default_fonts
    from pipeline.render.pdf import credits
    from pipeline.simulation import pdf as simulate_pdf, report as simulate_report, table as simulate_table

    folder = loaded.request.root / "output" / loaded.module.id / "simulation"
    sections = dict(sweeps=swept, paired=tuple(loaded.sim.paired), names=seat_names(loaded),
                    ratios=tuple(loaded.sim.ratios))
    simulate_report.write_markdown(result, folder / "report.md", loaded.title, game=loaded.request.game,
                                   readings=effects, rules=loaded.request.rules, **sections)
    with credits(loaded.module.credited_author, loaded.module.keywords):
        simulate_pdf.write_pdf(result, folder / "report.pdf", loaded.title, default_fonts(), **sections)
    simulate_table.write_csv(simulate_table.games_frame([(sides_of(loaded), result)]), folder / "games.csv")
    tables = simulate_ratios.write_csvs(simulate_ratios.computed(sections["ratios"], result), folder)
    for table in sections["ratios"]:          # a table this run counted nothing for: no earlier run's CSV stays
        stale = folder / f"{table.id}.csv"
        if stale not in tables and stale.is_file() and not stale.is_symlink():
            stale.unlink()
    return [folder / "report.md", folder / "report.pdf", folder / "games.csv", *tables]


def write_matchup_reports(loaded: Loaded, matchups) -> list[Path]:
    """output/<game>/simulation/matchups/report.md, report.pdf (crediting the game) and games.csv."""
    from pipeline.render.fonts import default_fonts
    from pipeline.render.pdf import credits
    from pipeline.simulation import matchups as simulate_matchups

    folder = loaded.request.root / "output" / loaded.module.id / "simulation" / "matchups"
    with credits(loaded.module.credited_author, loaded.module.keywords):
        return simulate_matchups.write(matchups, folder, loaded.title, loaded.request.game, default_fonts(),
                                       tuple(loaded.sim.paired), loaded.request.rules)


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


def game_engine(game: str) -> Simulation:
    """A registered game's Simulation from its id alone (a Dask worker has the package, not the project)."""
    from pipeline.games import load_game

    simulation = load_game(game, Path(".")).simulation
    if simulation is None:
        raise PipelineError(Problem(game, "this game has no rules engine to simulate", "usage"))
    return simulation


# --- balance gates, only when asked ---------------------------------------------------------------------------

def check_balance(game: GameModule, records: Records, root: Path, report: Report,
                  games: int = balance.BALANCE_GAMES, *, workers: int = 1, executor=None,
                  progress: Progress | None = None) -> list[balance.Verdict]:
    """The `balance` sheet's gates on `games` seeded games per player count (records: stages 1–6 passed): a
    failed gate is an error at its cell, an undecided one a warning; every verdict is returned, to print."""
    if game.simulation is None or balance.SHEET not in records:
        return []
    gates = balance.read_gates(game.simulation, records, Report())      # typed clean in stage 2
    source = driver.GameSource(game.id, str(root), load_simulation, (), game_engine)
    verdicts = balance.measure_gates(game.simulation, records, gates, games, workers=workers, source=source,
                                     executor=executor, progress=progress)
    balance_report.report_verdicts(verdicts, report)
    return verdicts
