"""`pnp sweep`: the command function (pipeline/cli/app.py registers it). Parse the options, check the values,
play every combination, print the tables, write output/<game>/sweep/; exit 0 when every combination's games
ended by the rules, 1 when some did not (after writing the reports) or a value is wrong, 2 for a usage error."""

from __future__ import annotations

from typing import Optional

import typer

from pipeline.cli import shared as ui
from pipeline.cli.shared import EXECUTOR_OPTION


def sweep(game: str = typer.Argument(..., help="Game id."),
          rule: Optional[list[str]] = typer.Option(None, help="A rule parameter and the values to play, "
                                                         "NAME=V1,V2,… (repeatable: every combination)."),
          games: int = typer.Option(200, min=1, max=1_000_000, help="Games per combination."),
          seed: int = typer.Option(1, min=0, help="Master seed: game i plays seed S × 1000003 + i in every "
                                                   "combination."),
          players: Optional[int] = typer.Option(None, help="Players (default: the game's usual number)."),
          bots: Optional[str] = typer.Option(None, help="One bot for every seat, or one per seat: a,b,c."),
          workers: Optional[int] = typer.Option(None, min=1, max=256, help="Processes that play games side by "
                                                "side (default: 1 local, every core for a Dask LocalCluster)."),
          executor: str = EXECUTOR_OPTION
          ) -> None:
    """Play every combination of some rule parameters' values on the same seeds; writes output/<game>/sweep/."""
    from pipeline.sweep import run as sweeping

    try:
        axes = sweeping.parse_axes(rule or [])
    except sweeping.SweepUsage as exc:
        ui.usage(str(exc))
    pool = ui.executor_of(executor, workers)
    with ui.closing(pool):
        _sweep(game, axes, games, seed, players, bots, workers or 1, pool)


def _sweep(game: str, axes, games: int, seed: int, players: Optional[int], bots: Optional[str], workers: int,
           pool) -> None:
    from rich.text import Text

    from pipeline.core.errors import Report
    from pipeline.play import executors
    from pipeline.simulation import run as simulation
    from pipeline.sweep import report as rows_of, run as sweeping

    request = simulation.Request(game, ui.project_root(), games, seed, players,
                                 tuple(b.strip() for b in bots.split(",")) if bots else None, workers, executor=pool)
    report = Report()
    try:
        plan = sweeping.load(request, axes, report)
    except simulation.SimulationUsage as exc:
        ui.usage(str(exc))
    ui.print_problems(report)
    if plan is None:
        ui.out("validation failed: nothing was simulated")
        raise typer.Exit(1)
    with ui.progress() as progress:
        found = sweeping.run(plan, progress)
    done = sum(p.result.finished for p in found.points)
    ui.out(f"[bold]{plan.loaded.module.title}[/bold]: {len(plan.settings)} combinations × {games} games, seed "
            f"{seed} (the same seeds in each), {plan.loaded.players} player{'s' if plan.loaded.players != 1 else ''};"
            f" {done} of {games * len(plan.settings)} finished by the rules")
    ui.show(rows_of.win_rows(found, narrow=True), "Win rates (95 % interval; change: paired difference from the "
              "baseline on the same seeds)")
    ui.show(rows_of.figure_rows(found, narrow=True), "Key figures (95 % interval)")
    ui.show(rows_of.length_rows(found, narrow=True), "Scores and game length")
    ui.show(rows_of.reason_rows(found), "End reasons (games)")
    flagged = rows_of.flag_rows(found, game, code=False)
    if len(flagged) > 1:
        ui.show([row[:-1] for row in flagged], f"Flagged combinations: {len(flagged) - 1} of {len(found.points)}")
        for point in found.points:
            if point.result.flagged:
                ui.out(Text(f"replay: {rows_of.replay(point, game)}"))
    split = executors.total(found.splits)
    if split is not None:
        ui.out(Text(f"played {executors.split_line(split)}"))
    ui.wrote(sweeping.write_reports(found))
    raise typer.Exit(0 if found.ok else 1)
