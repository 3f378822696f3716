"""`pnp sweep`: a game played under every combination of some rule parameters' values, on the same seeds.

From the `--rule NAME=V1,V2,…` options to a checked Plan (each value typed and checked like the workbook cell
it replaces, every combination through the game's own rule checks), one seeded run of every combination's
batches (common random numbers: game i plays seed S × 1000003 + i under every combination, so a difference
is the rule's, not luck's), and per combination the balance measures of pipeline/play/metrics.py with
their 95 % intervals and the paired change from the baseline (the workbook's own values when the sweep lists
them, else the first combination). A combination whose games stop finishing is flagged, never fatal.
report.py and pdf.py write it; pipeline/cli/sweep.py shows it.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable

from pipeline.core.errors import Report, SourceRef
from pipeline.data.params import read_rules
from pipeline.play import driver
from pipeline.play.contract import KeyFigure, with_rules
from pipeline.play.metrics import (Measure, completion, counter_value, duration, first_player_advantage, key_figure,
                                   seat_win_rate)
from pipeline.play.stats import SimulationResult, Z95, flag_of
from pipeline.simulation import run as simulation

MAX_COMBINATIONS = 200
Setting = tuple[tuple[str, str], ...]          # one combination: (rule parameter, value) in the order given


class SweepUsage(simulation.SimulationUsage):
    """A sweep that cannot be asked for (a malformed --rule, an unknown parameter, too many combinations)."""


@dataclass(frozen=True)
class Axis:
    """A swept rule parameter: the values to play, the workbook's own value and the cell they replace."""

    name: str
    values: tuple[str, ...]
    current: str = ""
    ref: SourceRef | None = None


@dataclass(frozen=True)
class Plan:
    loaded: simulation.Loaded
    axes: tuple[Axis, ...]
    settings: tuple[Setting, ...]       # every combination, the first axis varying slowest
    baseline: int                       # the combination the changes are measured from
    workbook: bool                      # whether the baseline is the workbook's own values

    @property
    def name(self) -> str:
        """The reports' file name: the rule names in the order given, joined by "-x-"."""
        return "-x-".join(axis.name for axis in self.axes)

    @property
    def figures(self) -> tuple[KeyFigure, ...]:
        return tuple(self.loaded.sim.key_figures)


@dataclass(frozen=True)
class Point:
    """One combination's games and measures; `*_change`: the paired difference from the baseline's games."""

    setting: Setting
    result: SimulationResult
    baseline: bool
    completion: Measure
    first: Measure
    seats: tuple[Measure, ...]
    rounds: Measure
    turns: Measure
    figures: tuple[Measure, ...]        # the game's key figures, in order
    first_change: Measure
    figure_changes: tuple[Measure, ...]

    @property
    def finishes(self) -> bool:
        return not self.result.flagged


@dataclass(frozen=True)
class SweepResult:
    plan: Plan
    points: tuple[Point, ...]
    splits: tuple[Any, ...]             # pipeline.play.executors.Split of each executor call: how the work was split

    @property
    def ok(self) -> bool:
        """Every combination's games ended by the rules."""
        return all(p.finishes for p in self.points)


# --- the request ----------------------------------------------------------------------------------------------

def parse_axes(items: list[str]) -> tuple[Axis, ...]:
    """`--rule NAME=V1,V2,…` options as axes; SweepUsage for a malformed one, an empty or repeated value, a
    repeated parameter or more than MAX_COMBINATIONS combinations."""
    if not items:
        raise SweepUsage("give at least one --rule NAME=V1,V2,… to sweep")
    axes: list[Axis] = []
    for item in items:
        name, sep, listed = item.partition("=")
        name = name.strip()
        if not sep or not name:
            raise SweepUsage(f"--rule takes NAME=V1,V2,…, not {item!r}")
        values = tuple(v.strip() for v in listed.split(","))
        if not any(values):
            raise SweepUsage(f"--rule {name}= lists no value")
        if not all(values):
            raise SweepUsage(f"--rule {item.strip()}: an empty value between commas")
        twice = next((v for i, v in enumerate(values) if v in values[:i]), None)
        if twice is not None:
            raise SweepUsage(f"--rule {item.strip()}: {twice} is listed twice")
        if any(axis.name == name for axis in axes):
            raise SweepUsage(f"--rule {name} is given twice: list all its values in one --rule")
        axes.append(Axis(name, values))
    count = math.prod(len(axis.values) for axis in axes)
    if count > MAX_COMBINATIONS:
        sizes = " × ".join(str(len(axis.values)) for axis in axes)
        raise SweepUsage(f"{count} combinations ({sizes}): a sweep plays at most {MAX_COMBINATIONS}")
    return tuple(axes)


def combinations(axes: tuple[Axis, ...]) -> tuple[Setting, ...]:
    """Every combination of the axes' values, the first axis varying slowest."""
    return tuple(tuple(zip((a.name for a in axes), values)) for values in itertools.product(*(a.values for a in axes)))


def load(request: simulation.Request, axes: tuple[Axis, ...], report: Report) -> Plan | None:
    """The game loaded and validated (stages 1–5, as `pnp simulate` does), then every value checked like the
    cell it replaces and every combination through the game's rule checks: None when they found errors (in
    `report`, each naming the value and its cell). SimulationUsage for a game or settings that cannot run,
    SweepUsage for an unknown parameter or two values that read the same."""
    loaded = simulation.load(replace(request, rules=()), report)
    if loaded is None:
        return None
    rows = {rec.get("parameter"): rec for rec in loaded.records.get("rules", ())}
    unknown = [a.name for a in axes if a.name not in rows]
    if unknown:
        names = ", ".join(sorted(map(str, rows))) or "none"
        raise SweepUsage(f"{request.game} has no rule parameter {unknown[0]!r} (known: {names})")
    known = {(str(p.where), p.message, p.rule) for p in report.problems}
    typed = _typed(loaded, loaded.records)
    axes = tuple(replace(a, current=_shown(typed.get(a.name, rows[a.name].get("value"))),
                         ref=rows[a.name].at("value")) for a in axes)
    readings = {}
    for axis in axes:
        for value in axis.values:
            setting = ((axis.name, value),)
            found = _check(loaded, setting, f"--rule {axis.name}={value}", known, report)
            if found is not None:
                readings[setting[0]] = found.get(axis.name, value)
        _distinct(axis, readings)
    if report.errors:
        return None
    settings = combinations(axes)
    if len(axes) > 1:
        for setting in settings:
            _check(loaded, setting, "with " + " ".join(f"--rule {n}={v}" for n, v in setting), known, report)
        if report.errors:
            return None
    current = [all(readings[pair] == typed.get(pair[0]) for pair in setting) for setting in settings]
    baseline = current.index(True) if any(current) else 0
    return Plan(loaded, axes, settings, baseline, any(current))


def _check(loaded: simulation.Loaded, setting: Setting, what: str, known: set, report: Report) -> dict | None:
    """The records with `setting`, read and checked as a workbook with those cells would be; every new
    problem in `report` with `what` before its message. Their typed rule values, None if one failed."""
    found = Report()
    records = with_rules(loaded.records, setting)
    read_rules(records, loaded.module.rule_parameters, found)
    if not found.errors:
        loaded.module.rule_checks(records, found)
    if not found.errors:
        try:
            driver.check_settings(loaded.sim, loaded.players, loaded.request.bots, loaded.request.games, records)
        except ValueError as exc:
            found.error(_cell(loaded, setting), str(exc), "players")
    names = dict(setting)
    for problem in found.problems:
        if (str(problem.where), problem.message, problem.rule) in known:
            continue                                    # the workbook's own (loading already reported it)
        message = problem.message
        name = next((n for n in names if message.startswith(f"{n}: ")), None)
        if name is not None and len(names) == 1:
            message = message[len(name) + 2:]           # "start_gold: 'abc' is …" already named by `what`
        report.problems.append(replace(problem, message=f"{what}: {message}"))
    return None if found.errors else _typed(loaded, records)


def _cell(loaded: simulation.Loaded, setting: Setting) -> SourceRef | str:
    """The value cell of the setting's first parameter: where a problem without a cell of its own points."""
    refs = [rec.at("value") for rec in loaded.records.get("rules", ()) if rec.get("parameter") == setting[0][0]]
    return refs[0] if refs else loaded.request.game


def _typed(loaded: simulation.Loaded, records) -> dict:
    """The records' rule values as the engine reads them (typed when the game declares its parameters)."""
    from pipeline.data.params import rules

    raw = {rec.get("parameter"): rec.get("value") for rec in records.get("rules", ())}
    if not loaded.module.rule_parameters:
        return {name: str(value) for name, value in raw.items()}
    return {**raw, **rules(records, loaded.module.rule_parameters).values}


def _shown(value) -> str:
    return {True: "yes", False: "no"}.get(value, str(value)) if isinstance(value, bool) else str(value)


def _distinct(axis: Axis, readings: dict) -> None:
    """SweepUsage when two of the axis's values read as one ("12" and "012", "yes" and "oui")."""
    seen: dict = {}
    for value in axis.values:
        if (axis.name, value) not in readings:
            continue
        same = seen.setdefault(repr(readings[(axis.name, value)]), value)
        if same != value:
            raise SweepUsage(f"--rule {axis.name}: {same} and {value} are the same value")


# --- the run --------------------------------------------------------------------------------------------------

def run(plan: Plan, progress=None) -> SweepResult:
    """Every combination on the same seeds, all their batches in one call of the request's executor (a local
    pool of `workers` processes when it names none)."""
    from pipeline.play.executors import Local

    loaded, request = plan.loaded, plan.loaded.request
    executor = request.executor or Local(request.workers)
    before = len(executor.splits)
    try:
        results = driver.simulate_runs(loaded.sim, loaded.records, list(plan.settings), request.games, request.seed,
                                       loaded.players, loaded.seats, request.workers, progress, source=loaded.source,
                                       executor=executor)
    finally:
        if executor is not request.executor:
            executor.close()
    base = results[plan.baseline]
    points = tuple(measure(setting, result, base, plan.figures, n == plan.baseline)
                   for n, (setting, result) in enumerate(zip(plan.settings, results)))
    return SweepResult(plan, points, tuple(executor.splits[before:]))


def measure(setting: Setting, result: SimulationResult, base: SimulationResult, figures: tuple[KeyFigure, ...],
            baseline: bool = False) -> Point:
    """One combination's measures, and their changes from `base` (the baseline's games) seed for seed."""
    return Point(setting, result, baseline, completion(result), first_player_advantage(result),
                 tuple(seat_win_rate(result, k) for k in range(result.players)), duration(result, "rounds"),
                 duration(result, "turns"), tuple(key_figure(result, f) for f in figures),
                 paired_change(result, base, _first_result(result)),
                 tuple(figure_change(result, base, f) for f in figures))


def _first_result(result: SimulationResult) -> Callable[[dict], float | None]:
    """A game's result for whoever played first (seat 1 when the games do not say who started)."""
    if result.first_player is None:
        return lambda o: o["returns"][0]
    return lambda o: o["returns"][o["first_player"]] if o.get("first_player") is not None else None


def _pairs(result: SimulationResult, base: SimulationResult) -> list[tuple[dict, dict]]:
    """The same seeds' games in both runs, when both ended by the rules."""
    return [(a, b) for a, b in zip(result.outcomes, base.outcomes) if not flag_of(a) and not flag_of(b)]


def paired_change(result: SimulationResult, base: SimulationResult, value: Callable[[dict], float | None]) -> Measure:
    """The mean over the paired games of value(game) minus value(the baseline's game with the same seed),
    with its 95 % interval: chance is held fixed, so the interval is the rule's, much narrower than two
    separate runs' intervals would allow."""
    values = [(value(a), value(b)) for a, b in _pairs(result, base)]
    return Measure.mean([x - y for x, y in values if x is not None and y is not None])


def figure_change(result: SimulationResult, base: SimulationResult, figure: KeyFigure) -> Measure:
    """A key figure's change from the baseline on the paired games; a ratio figure (`per`) by the delta method
    on each game's linearised contribution to both ratios."""
    if figure.per is None:
        return paired_change(result, base, lambda o: counter_value(o, figure.counter))
    pairs = _pairs(result, base)
    n = len(pairs)
    sides = []
    for k in (0, 1):
        top = [counter_value(pair[k], figure.counter) for pair in pairs]
        bottom = [counter_value(pair[k], figure.per) for pair in pairs]
        total = math.fsum(bottom)
        if not n or total <= 0:
            return Measure(None, None, None, n)
        ratio = math.fsum(top) / total
        sides.append((ratio, [(x - ratio * y) / (total / n) for x, y in zip(top, bottom)]))
    (mine, a), (theirs, b) = sides
    change = mine - theirs
    d = [x - y for x, y in zip(a, b)]
    half = Z95 * math.sqrt(math.fsum(v * v for v in d) / (n - 1) / n) if n > 1 else 0.0
    return Measure(change, change - half, change + half, n)


# --- the files ------------------------------------------------------------------------------------------------

def folder(plan: Plan) -> Path:
    """output/<game>/sweep/: the build keeps it (pipeline/core/output.py NOT_BUILT)."""
    return plan.loaded.request.root / "output" / plan.loaded.module.id / "sweep"


def write_reports(result: SweepResult) -> list[Path]:
    """output/<game>/sweep/<name>.md, .pdf, .csv (identical for identical arguments, whatever ran them) and
    <name>.run.json (how the work was split: it varies). The PDF credits the game (its Author and Keywords)."""
    from pipeline.core.output import atomic_write
    from pipeline.play.executors import write_split
    from pipeline.render.fonts import default_fonts
    from pipeline.render.pdf import credits
    from pipeline.sweep import pdf as sweep_pdf, report as sweep_report

    base = folder(result.plan) / result.plan.name
    paths = [base.with_name(base.name + suffix) for suffix in (".md", ".pdf", ".csv", ".run.json")]
    atomic_write(paths[0], sweep_report.markdown(result).encode())
    with credits(result.plan.loaded.module.credited_author, result.plan.loaded.module.keywords):
        sweep_pdf.write_pdf(result, paths[1], default_fonts())
    sweep_report.write_csv(sweep_report.frame(result), paths[2])
    write_split(paths[3], result.splits)
    return paths
