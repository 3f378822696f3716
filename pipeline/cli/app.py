"""`pnp`: thin typer app. Parse options into a BuildConfig, call one function, map the Report to an exit
code (0 clean, 1 problems, 2 usage). A user's mistake never prints a traceback."""

from __future__ import annotations

import signal
import sys
from typing import Optional

import typer

from pipeline import PROJECT_ROOT
from pipeline.cli.release import release
from pipeline.cli.shared import (EXECUTOR_OPTION, closing as _closing, err, executor_of as _executor, out,
                                 print_problems as _print_problems, progress as _progress, show as _show,
                                 show_split as _show_split, usage as _usage, written as _written)
from pipeline.cli.sweep import sweep
from pipeline.core.config import BACKS, BuildConfig, FORMATS, PAPERS
from pipeline.core.errors import PipelineError, Report

app = typer.Typer(add_completion=False, pretty_exceptions_enable=False, no_args_is_help=True,
                  help="Print-and-play pipeline: validate game workbooks and build print-ready PDFs.")


def _games(games: Optional[list[str]]) -> tuple[str, ...]:
    from pipeline.games import available

    known = available(PROJECT_ROOT)
    chosen = tuple(games or known)
    for name in chosen:
        if name not in known and not name.endswith((".yaml", ".yml")):
            _usage(f"unknown game {name!r} (known: {', '.join(known)})")
    return chosen


def _choices(value: str, allowed: tuple[str, ...], option: str) -> tuple[str, ...]:
    if value == "all":
        return allowed
    if value not in allowed:
        _usage(f"{option} must be one of {', '.join(allowed)} or all, not {value!r}")
    return (value,)


def _offset(text: str) -> tuple[float, float]:
    try:
        x, y = (float(part) for part in text.split(","))
    except ValueError:
        _usage(f"--back-offset takes X,Y in millimetres (e.g. 0.5,-1), not {text!r}")
    if abs(x) > 10 or abs(y) > 10:
        _usage("--back-offset is a small printer correction: at most 10 mm each way")
    return x, y


@app.command("list")
def list_games() -> None:
    """List the games, their data files and the components they print."""
    from pipeline.games import available, load_game

    for name in available(PROJECT_ROOT):
        try:
            game = load_game(name, PROJECT_ROOT)
        except PipelineError as exc:
            out(f"{name}: [red]cannot load[/red] ({exc})")
            continue
        files = ", ".join(str(p.relative_to(PROJECT_ROOT)) for p in game.data_files)
        out(f"[bold]{game.id}[/bold] — {game.title}\n  data: {files}\n  templates: "
                  f"{game.template_dir.relative_to(PROJECT_ROOT)}\n  sheets: {', '.join(s.name for s in game.sheets)}")


@app.command()
def validate(games: Optional[list[str]] = typer.Argument(None, help="Game ids (default: all)."),
             strict: bool = typer.Option(False, help="Warnings fail too."),
             balance: bool = typer.Option(False, "--balance", help="Also play each game's balance gates (its "
                                          "balance sheet) on seeded games: a gate fails only when its 95 % "
                                          "interval lies outside its band."),
             balance_games: Optional[int] = typer.Option(None, "--games", min=1, max=1_000_000,
                                                         help="With --balance: games per player count the gates "
                                                              "name (default 1000, seed 1)."),
             workers: Optional[int] = typer.Option(None, min=1, max=256, help="With --balance: processes that play "
                                                   "games side by side (default: 1 local, every core for Dask)."),
             executor: str = EXECUTOR_OPTION) -> None:
    """Run every validation stage and print every problem (exit 1 if any); --balance also plays the gates."""
    from pipeline import build as pipeline_build
    from pipeline.play import executors
    from pipeline.play.gates import BALANCE_GAMES
    from pipeline.simulation import run as simulation

    if (balance_games is not None or workers is not None or executor != "local") and not balance:
        _usage("--games, --workers and --executor say how --balance plays its games: give --balance too")
    config = BuildConfig(root=PROJECT_ROOT, games=_games(games), strict=strict)
    verdicts = {}
    pool = _executor(executor, workers)
    with _closing(pool), _progress() as progress:
        report, prepared = pipeline_build.validate(config, progress)
        for item in prepared if balance else ():
            verdicts[item.game.id] = simulation.check_balance(item.game, item.records, config.root, report,
                                                              balance_games or BALANCE_GAMES, executor=pool,
                                                              progress=progress)
    _print_problems(report)
    for item in prepared:
        cards = sum(len(d.fronts) for d in item.decks)
        others = len(item.components) - len(item.decks)
        out(f"[bold]{item.game.id}[/bold]: {cards} cards and tokens in {len(item.decks)} decks"
            + (f", {others} other components" if others else ""))
        for line in item.summary:
            out(f"  {line}")
        if verdicts.get(item.game.id):
            _show_gates(verdicts[item.game.id])
    split = executors.total(pool.splits)
    if split is not None:
        out(f"balance games: {executors.split_line(split)}")
    code = report.exit_code(strict)
    out("validation passed" if code == 0 else "validation failed")
    raise typer.Exit(code)


def _show_gates(verdicts) -> None:
    from pipeline.play.gates import BALANCE_SEED
    from pipeline.simulation import gates as balance_report

    for players, rows in balance_report.tables(verdicts):
        _show(rows, f"Balance gates at {players} player{'s' if players != 1 else ''}: {verdicts[0].games} games, "
              f"seed {BALANCE_SEED} (a gate fails only when its whole 95 % interval is outside its band)")


@app.command()
def build(games: Optional[list[str]] = typer.Argument(None, help="Game ids (default: all)."),
          paper: str = typer.Option("all", help="a4, letter or all."),
          format: str = typer.Option("pnp", "--format", help="pnp, print, png or all."),
          backs: str = typer.Option("duplex", help="duplex, foldover or none."),
          back_offset: str = typer.Option("0,0", help="Shift of the back pages X,Y in mm for your printer."),
          ink_saver: bool = typer.Option(False, help="Also write ink-saver card sheets."),
          only: Optional[str] = typer.Option(None, help="Build only these components, comma-separated "
                                             "(players,tactics); the others keep their files if still current."),
          strict: bool = typer.Option(False, help="Warnings fail too."),
          mark: bool = typer.Option(True, "--mark/--no-mark", help="The edition mark (game, version, card id) "
                                    "on every face and page; --no-mark for final art files."),
          version: Optional[str] = typer.Option(None, "--version", help="The version the edition marks print "
                                                "(default: the game's record, else `git describe --tags`).")
          ) -> None:
    """Validate, then write the PDFs under output/<game>/ (nothing is written if validation fails).
    Unchanged faces and files come from output/.cache (safe to delete)."""
    from pipeline import build as pipeline_build

    if backs not in BACKS:
        _usage(f"--backs must be one of {', '.join(BACKS)}, not {backs!r}")
    config = BuildConfig(root=PROJECT_ROOT, games=_games(games), papers=_choices(paper, PAPERS, "--paper"),
                         formats=_choices(format, FORMATS, "--format"), backs=backs,
                         back_offset_mm=_offset(back_offset), ink_saver=ink_saver, strict=strict,
                         only=tuple(part.strip() for part in (only or "").split(",") if part.strip()),
                         mark=mark, version=version)
    with _progress() as progress:
        try:
            report, built = pipeline_build.build(config, progress)
        except pipeline_build.UnknownComponent as exc:
            _usage(str(exc))
    _print_problems(report)
    code = report.exit_code(strict)
    if code:
        out("build failed: nothing was written")
    else:
        for game_id in built:
            print(f"built {game_id} → output/{game_id}/ (report.md lists every file)")
        sheets = [str(path.relative_to(PROJECT_ROOT)) for path in pipeline_build.calibration_paths(config)]
        if built and sheets:
            print(f"duplex calibration → {', '.join(sheets)}: print one double-sided once per printer, "
                  "it gives the --back-offset X,Y to pass")
    raise typer.Exit(code)


@app.command()
def watch(game: str = typer.Argument(..., help="Game id."),
          paper: str = typer.Option("all", help="a4, letter or all."),
          only: Optional[str] = typer.Option(None, help="Components to build, comma-separated (players,tactics)."),
          strict: bool = typer.Option(False, help="Warnings fail too."),
          mark: bool = typer.Option(True, "--mark/--no-mark", help="The edition mark on every face and page."),
          version: Optional[str] = typer.Option(None, "--version", help="The version the edition marks print.")
          ) -> None:
    """Build, then rebuild on every save of the game's workbook, templates, art or fonts (Ctrl-C stops)."""
    from pipeline.cli import watch as watching

    config = BuildConfig(root=PROJECT_ROOT, games=_games([game]), papers=_choices(paper, PAPERS, "--paper"),
                         strict=strict, mark=mark, version=version)
    components = tuple(part.strip() for part in only.split(",") if part.strip()) if only else ()
    rebuilder = watching.Rebuilder(config, components)

    def emit(lines: list[str]) -> None:
        for line in lines:
            print(line, flush=True)

    try:
        emit([f"building {game}…"])
        try:
            emit(rebuilder.first())
        except ValueError as exc:           # pipeline.build.UnknownComponent: --only names no component
            _usage(str(exc))
        watching.watch(rebuilder, emit)
    except KeyboardInterrupt:
        err("stopped watching")
        raise typer.Exit(130)


@app.command()
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
        _usage(f"--matchups plays every pairing: it does not take {'--teams' if teams else '--replay'}")
    pool = _executor(executor, workers)
    request = simulation.Request(game, PROJECT_ROOT, games, seed, players,
                                 tuple(b.strip() for b in bots.split(",")) if bots else None, workers or 1,
                                 _rule_overrides(rule or []),
                                 tuple(t.strip() for t in teams.split(",")) if teams is not None else (), matchups,
                                 pool)
    with _closing(pool):
        _simulate(game, games, seed, replay, matchups, request)


app.command("sweep")(sweep)         # pipeline/cli/sweep.py
app.command("release")(release)     # pipeline/cli/release.py


def _simulate(game: str, games: int, seed: int, replay: Optional[int], matchups: bool, request) -> None:
    from rich.text import Text

    from pipeline.simulation import report as report_of, run as simulation

    report = Report()
    try:
        loaded = simulation.load(request, report)
    except simulation.SimulationUsage as exc:
        _usage(str(exc))
    _print_problems(report)
    if loaded is None:
        out("validation failed: nothing was simulated")
        raise typer.Exit(1)
    if replay is not None:
        result = simulation.replay(loaded, replay)
        _show_replay(loaded, result, replay)
        raise typer.Exit(0 if result.ok else 1)
    if matchups:
        _simulate_matchups(loaded)
    with _progress() as progress:
        result = simulation.run(loaded, progress)
    out(f"[bold]{loaded.title}[/bold]: {games} games, seed {seed}, {loaded.players} player"
        f"{'s' if loaded.players != 1 else ''}; {result.finished} finished by the rules")
    if result.finished:
        _show(report_of.seat_rows(result), "Win rate by seat (a shared win counts 1/k; 95 % Wilson interval)")
        _show(report_of.spread_rows(result), "Scores and game length")
    _show(report_of.reason_rows(result), "End reasons")
    if result.nominal:
        _show(report_of.nominal_rows(result), "Nominal vs simulated")
    _show_ratios(loaded, result)
    if result.flagged:
        shown = report_of.flagged_rows(result)[:11]
        _show(shown, f"Flagged games: {len(result.flagged)} (first {len(shown) - 1} shown)")
        again = report_of.replay_command(result, game, result.flagged[0].seed, loaded.request.rules)
        out(Text(f"replay one: {again}"))
    with _progress() as progress:
        effects = simulation.readings(loaded, result, progress)
    _show(report_of.reading_rows(effects), "Readings of the rulebook: how often the other one changes the winner")
    with _progress() as progress:
        swept = simulation.sweeps(loaded, result, progress)
    names = simulation.seat_names(loaded)
    for sweep, points in swept:
        measured = "win rate by seat" if sweep.y is None else report_of.sweep_y_label(sweep)
        _show(report_of.sweep_rows(sweep, points, names, "\n"), f"Sweep: {measured} (95 % Wilson interval) as a "
              f"function of {sweep.label or ', '.join(sweep.parameters)}, same seeds")
    _written(loaded, lambda: simulation.write_reports(loaded, result, effects, swept))
    _show_split(loaded, request.executor.splits, "simulation/run.json")
    raise typer.Exit(0 if result.ok else 1)


def _show_ratios(loaded, result, most: int = 12) -> None:
    """The game's ratio tables: single rates whole, a grouped table's pooled group, a long table's first
    and last rows (report.md and the table's CSV hold every row)."""
    from pipeline.play import ratios

    for found in ratios.computed(loaded.sim.ratios, result):
        title = found.table.title
        counted = not found.keyed or len(found.table.ratios) == 1           # a narrow terminal: rate (CI) per cell
        if found.grouped and (ratios.POOLED in found.groups or len(found.groups) == 1):
            pooled = ratios.POOLED in found.groups
            rows = ratios.rows(found, ratios.POOLED if pooled else found.groups[0], counted, compact=True,
                               counted_head="counted")
            title += " (every group pooled; report.md has each)" if pooled else f" ({found.groups[0]})"
        else:
            rows = ratios.rows(found, counted=counted, compact=found.keyed, counted_head="counted")
        unmeasured = 0
        if found.table.sort is not None and not found.grouped:      # rows with no rate to sort by sit at the end
            unmeasured = sum(row.rates[found.table.sort].rate is None for row in found.rows)
            rows = rows[:len(rows) - unmeasured]
        if len(rows) > most + 1:
            half = most // 2
            title = f"{title}: the first and last {half} of {len(rows) - 1} (every row in {found.table.id}.csv)"
            rows = rows[:half + 1] + [["…"] + [""] * (len(rows[0]) - 1)] + rows[-half:]
        if unmeasured:
            label = found.table.ratios[found.table.sort].label or "its rate"
            title += f"; {unmeasured} more without a {label}"
        _show(rows, title)


def _simulate_matchups(loaded) -> None:
    """`--matchups`: every pairing, the matrix on stdout, the reports under simulation/matchups/."""
    from pipeline.simulation import matchups as simulate_matchups, run as simulation

    with _progress() as progress:
        found = simulation.run_matchups(loaded, progress)
    pooled = found.pooled
    out(f"[bold]{loaded.title}[/bold]: {len(found.runs)} pairings × {loaded.request.games} games, seed "
        f"{loaded.request.seed}; {pooled.finished} of {pooled.games} finished by the rules")
    _show(simulate_matchups.matrix_rows(found, "\n"), "Matchup matrix: win rate of the row against the column "
          "(seatings pooled, a draw counts half; 95 % Wilson interval)")
    _show(simulate_matchups.side_rows(found), "Each side against all")
    if pooled.flagged:
        shown = simulate_matchups.flagged_rows(found, loaded.request.game, loaded.request.rules)[:11]
        _show(shown, f"Flagged games: {len(pooled.flagged)} (first {len(shown) - 1} shown)")
    _written(loaded, lambda: simulation.write_matchup_reports(loaded, found))
    _show_split(loaded, loaded.request.executor.splits, "simulation/matchups/run.json")
    raise typer.Exit(0 if pooled.ok else 1)


def _show_replay(loaded, result, game_seed: int) -> None:
    from rich.text import Text

    from pipeline.play.stats import what_happened
    from pipeline.simulation import report as report_of

    outcome, seats, players = result.outcomes[0], loaded.seats, loaded.players
    scores = outcome.get("scores") or [None] * players
    returns = outcome.get("returns") if result.ok else None
    _show([["seat", "bot", "score", "result"]] + [
        [str(i + 1), seats[i], report_of.num(scores[i]), "not finished" if returns is None else
         {1.0: "win", 0.0: "—"}.get(returns[i], f"shared win ({returns[i]:.2f})")] for i in range(players)],
        f"{loaded.title}: game seed {game_seed}")
    out(Text(f"{what_happened(outcome)}; rounds {outcome.get('rounds')}, turns "
             f"{outcome.get('turns')}, {outcome['steps']} steps"))
    counters = outcome.get("counters") or {}
    if counters:
        out(Text("counters: " + ", ".join(f"{k} {report_of.num(v)}" for k, v in sorted(counters.items()))))


def _rule_overrides(items: list[str]) -> tuple[tuple[str, str], ...]:
    pairs = []
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            _usage(f"--rule takes NAME=VALUE, not {item!r}")
        pairs.append((name.strip(), value.strip()))
    return tuple(pairs)


@app.command()
def diff(game: str = typer.Argument(..., help="Game id."),
         old: str = typer.Argument("HEAD", help="The old version: a git revision (default HEAD) or a workbook file."),
         paper: str = typer.Option("all", help="Papers of the reprint sheet: a4, letter or all."),
         backs: str = typer.Option("duplex", help="duplex, foldover or none."),
         summary: Optional[str] = typer.Option(None, "--summary", metavar="FILE",
                                               help="Also append the changes as Markdown to FILE (a CI job "
                                                    "summary: --summary \"$GITHUB_STEP_SUMMARY\").")) -> None:
    """List the cards and rules changed since OLD; write output/<game>/diff/changes.pdf and reprint-<paper>.pdf."""
    from pathlib import Path

    from rich.text import Text

    from pipeline.diff import summary as diff_summary
    from pipeline.diff.output import diff_game

    def summarise(text: str) -> None:
        if summary is None:
            return
        try:
            diff_summary.append(Path(summary), text)
        except OSError as exc:
            _usage(f"--summary: cannot write {summary} ({exc.strerror or exc})")

    if backs not in BACKS:
        _usage(f"--backs must be one of {', '.join(BACKS)}, not {backs!r}")
    papers = _choices(paper, PAPERS, "--paper")
    game = _games([game])[0]
    report = Report()
    try:
        result = diff_game(PROJECT_ROOT, game, old, papers, report, backs)
    except PipelineError as exc:
        summarise(diff_summary.failure(game, old, [f"{p.where}: {p.message}" for p in exc.problems]))
        if any(problem.rule != "usage" for problem in exc.problems):
            raise
        _usage("; ".join(f"{p.where}: {p.message}" for p in exc.problems))     # OLD: no file, no revision
    _print_problems(report)
    if result.changes is None:
        summarise(diff_summary.failure(game, old, [str(problem) for problem in report.errors]))
        out("diff failed: a version has errors")
        raise typer.Exit(1)
    written = [str(path.relative_to(PROJECT_ROOT) if path.is_relative_to(PROJECT_ROOT) else path)
               for path in result.written]
    summarise(diff_summary.section(game, result.changes, written))
    if result.changes.none:
        out(f"no change since {old}")
        raise typer.Exit(0)
    for line in result.changes.lines():
        out(Text(line))
    for path in written:
        print(f"wrote {path}")
    raise typer.Exit(0)


@app.command()
def textconv(file: str = typer.Argument(..., help="A workbook (.xlsx).")) -> None:
    """Print a workbook as stable text, one line per row (git's diff.pnp.textconv)."""
    from pathlib import Path

    from pipeline.diff.textconv import workbook_text

    report = Report()
    text = workbook_text(Path(file), Path.cwd(), report)     # PipelineError: main() prints it, exit 1
    sys.stdout.write(text)
    for problem in report.problems:
        err(f"{problem.severity.value} {problem}", highlight=False, markup=False)


class Terminated(BaseException):
    """SIGTERM, raised wherever the program is (like KeyboardInterrupt for Ctrl-C), so every write on the
    way out removes its temporaries (pipeline/core/output.py)."""


def _terminate(signum, frame) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)      # a second SIGTERM must not cut the clean-up short
    raise Terminated()


def main() -> None:
    signal.signal(signal.SIGTERM, _terminate)
    try:
        app()                       # typer turns Ctrl-C (KeyboardInterrupt) into exit 130 itself
    except PipelineError as exc:
        from rich.text import Text

        for problem in exc.problems:
            err(Text(f"error {problem}"))
        sys.exit(1)
    except KeyboardInterrupt:
        err("interrupted")
        sys.exit(130)
    except Terminated:
        err("terminated (no half-written file was left)")
        sys.exit(143)
