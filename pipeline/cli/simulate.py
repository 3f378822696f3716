"""`pnp simulate`: the command function (pipeline/cli/app.py registers it). Parse the options into a
simulation Request and load it; pipeline/simulation/session.py plays and writes, and Terminal prints each step
as it ends. Exit 0 when every game ended by the rules, 1 when some did not (after writing the reports) or the
records have errors, 2 for a usage error."""

from __future__ import annotations

from typing import Optional

import typer

from pipeline.cli import shared as ui
from pipeline.cli.shared import EXECUTOR_OPTION


def simulate(game: str = typer.Argument(..., help="Game id."),
             games: int = typer.Option(200, min=1, max=1_000_000, help="How many games to play."),
             seed: int = typer.Option(1, min=0, help="Master seed: game i plays with seed S × 1000003 + i."),
             players: Optional[int] = typer.Option(None, help="Players (default: the game's usual number)."),
             bots: Optional[str] = typer.Option(None, help="One bot for every seat, or one per seat: a,b,c."),
             workers: Optional[int] = typer.Option(None, min=1, max=256, help="Processes that play games side by "
                                                   "side (default: 1 local, every core for a Dask LocalCluster)."),
             executor: str = EXECUTOR_OPTION,
             replay: Optional[int] = typer.Option(None, min=0, help="Play exactly the game with this game seed."),
             rule: Optional[list[str]] = typer.Option(None, help="Change a rule parameter for this run, "
                                                               "NAME=VALUE (repeatable), e.g. mode=duel."),
             teams: Optional[str] = typer.Option(None, help="The side of each seat, A,B (a game with sides: "
                                                             "the same as --rule team_north=A --rule team_south=B)."),
             matchups: bool = typer.Option(False, "--matchups", help="Play every ordered pair of sides on the "
                                                                     "same seeds and print the matchup matrix.")
             ) -> None:
    """Play complete games with bots: win rate by seat, scores, length; writes output/<game>/simulation/."""
    from pipeline.simulation import run as simulation

    if matchups and (teams or replay is not None):
        ui.usage(f"--matchups plays every pairing: it does not take {'--teams' if teams else '--replay'}")
    pool = ui.executor_of(executor, workers)
    request = simulation.Request(game, ui.project_root(), games, seed, players,
                                 tuple(b.strip() for b in bots.split(",")) if bots else None, workers or 1,
                                 _rule_overrides(rule or []),
                                 tuple(t.strip() for t in teams.split(",")) if teams is not None else (), matchups,
                                 pool)
    with ui.closing(pool):
        _simulate(request, replay)


def _simulate(request, replay: Optional[int]) -> None:
    from pipeline.core.errors import Report
    from pipeline.simulation import run as simulation, session

    report = Report()
    try:
        loaded = simulation.load(request, report)
    except simulation.SimulationUsage as exc:
        ui.usage(str(exc))
    ui.print_problems(report)
    if loaded is None:
        ui.out("validation failed: nothing was simulated")
        raise typer.Exit(1)
    ok = session.simulate(loaded, replay, Terminal(), ui.progress)
    raise typer.Exit(0 if ok else 1)


def _rule_overrides(items: list[str]) -> tuple[tuple[str, str], ...]:
    pairs = []
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            ui.usage(f"--rule takes NAME=VALUE, not {item!r}")
        pairs.append((name.strip(), value.strip()))
    return tuple(pairs)


class Terminal:
    """Each step of a run on stdout as it ends (pipeline/simulation/session.py's Shows): rich tables of the
    rows pipeline/simulation/report.py, summary.py and matchups.py make."""

    def replayed(self, loaded, result, game_seed: int) -> None:
        from rich.text import Text

        from pipeline.simulation import summary

        ui.show(summary.replay_rows(result, loaded.seats, loaded.players), f"{loaded.title}: game seed {game_seed}")
        for line in summary.replay_lines(result):
            ui.out(Text(line))

    def played(self, loaded, result) -> None:
        from rich.text import Text

        from pipeline.simulation import report as report_of, summary

        request = loaded.request
        ui.out(f"[bold]{loaded.title}[/bold]: {request.games} games, seed {request.seed}, {loaded.players} player"
               f"{'s' if loaded.players != 1 else ''}; {result.finished} finished by the rules")
        if result.finished:
            ui.show(report_of.seat_rows(result), "Win rate by seat (a shared win counts 1/k; 95 % Wilson interval)")
            ui.show(report_of.spread_rows(result), "Scores and game length")
        ui.show(report_of.reason_rows(result), "End reasons")
        if result.nominal:
            ui.show(report_of.nominal_rows(result), "Nominal vs simulated")
        for rows, title in summary.ratio_tables(loaded.sim.ratios, result):
            ui.show(rows, title)
        if result.flagged:
            shown = report_of.flagged_rows(result)[:11]
            ui.show(shown, f"Flagged games: {len(result.flagged)} (first {len(shown) - 1} shown)")
            again = report_of.replay_command(result, request.game, result.flagged[0].seed, request.rules)
            ui.out(Text(f"replay one: {again}"))

    def readings(self, effects: list) -> None:
        from pipeline.simulation import report as report_of

        ui.show(report_of.reading_rows(effects), "Readings of the rulebook: how often the other one changes the "
                "winner")

    def sweeps(self, loaded, swept: list) -> None:
        from pipeline.simulation import report as report_of, run as simulation

        names = simulation.seat_names(loaded)
        for sweep, points in swept:
            measured = "win rate by seat" if sweep.y is None else report_of.sweep_y_label(sweep)
            ui.show(report_of.sweep_rows(sweep, points, names, "\n"), f"Sweep: {measured} (95 % Wilson interval) "
                    f"as a function of {sweep.label or ', '.join(sweep.parameters)}, same seeds")

    def matchups(self, loaded, found) -> None:
        from pipeline.simulation import matchups as simulate_matchups

        pooled, request = found.pooled, loaded.request
        ui.out(f"[bold]{loaded.title}[/bold]: {len(found.runs)} pairings × {request.games} games, seed "
               f"{request.seed}; {pooled.finished} of {pooled.games} finished by the rules")
        ui.show(simulate_matchups.matrix_rows(found, "\n"), "Matchup matrix: win rate of the row against the "
                "column (seatings pooled, a draw counts half; 95 % Wilson interval)")
        ui.show(simulate_matchups.side_rows(found), "Each side against all")
        if pooled.flagged:
            shown = simulate_matchups.flagged_rows(found, request.game, request.rules)[:11]
            ui.show(shown, f"Flagged games: {len(pooled.flagged)} (first {len(shown) - 1} shown)")

    def written(self, paths: list) -> None:
        ui.wrote(paths)

    def split(self, split) -> None:
        from pipeline.play import executors

        ui.out(f"played {executors.split_line(split)}")
