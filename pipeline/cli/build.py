"""`pnp list`, `validate`, `build` and `watch`: the command functions of the print files (pipeline/cli/app.py
registers them). Parse the options into a BuildConfig, call pipeline/build.py (and, for --balance, the gates
of pipeline/simulation/run.py), print; exit 0 clean, 1 problems, 2 usage. The watch loop itself is
pipeline/cli/watch.py."""

from __future__ import annotations

from typing import Optional

import typer

from pipeline.cli import shared as ui
from pipeline.cli.shared import EXECUTOR_OPTION
from pipeline.core.config import BACKS, BuildConfig, FORMATS, PAPERS
from pipeline.core.errors import PipelineError
from pipeline.core.pool import cores
from pipeline.core.write_failures import failed_build_line


def list_games() -> None:
    """List the games, their data files and the components they print."""
    from pipeline.games import available, load_game

    root = ui.project_root()
    for name in available(root):
        try:
            game = load_game(name, root)
        except PipelineError as exc:
            ui.out(f"{name}: [red]cannot load[/red] ({exc})")
            continue
        files = ", ".join(str(p.relative_to(root)) for p in game.data_files)
        ui.out(f"[bold]{game.id}[/bold] — {game.title}\n  data: {files}\n  templates: "
               f"{game.template_dir.relative_to(root)}\n  sheets: {', '.join(s.name for s in game.sheets)}")


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
        ui.usage("--games, --workers and --executor say how --balance plays its games: give --balance too")
    config = BuildConfig(root=ui.project_root(), games=ui.games(games), strict=strict)
    verdicts = {}
    pool = ui.executor_of(executor, workers)
    with ui.closing(pool), ui.progress() as progress:
        report, prepared = pipeline_build.validate(config, progress)
        for item in prepared if balance else ():
            verdicts[item.game.id] = simulation.check_balance(item.game, item.records, config.root, report,
                                                              balance_games or BALANCE_GAMES, executor=pool,
                                                              progress=progress)
    ui.print_problems(report)
    for item in prepared:
        cards = sum(len(d.fronts) for d in item.decks)
        others = len(item.components) - len(item.decks)
        ui.out(f"[bold]{item.game.id}[/bold]: {cards} cards and tokens in {len(item.decks)} decks"
               + (f", {others} other components" if others else ""))
        for line in item.summary:
            ui.out(f"  {line}")
        if verdicts.get(item.game.id):
            _show_gates(verdicts[item.game.id])
    split = executors.total(pool.splits)
    if split is not None:
        ui.out(f"balance games: {executors.split_line(split)}")
    code = report.exit_code(strict)
    ui.out("validation passed" if code == 0 else "validation failed")
    raise typer.Exit(code)


def _show_gates(verdicts) -> None:
    from pipeline.play.gates import BALANCE_SEED
    from pipeline.simulation import gates as balance_report

    for players, rows in balance_report.tables(verdicts):
        ui.show(rows, f"Balance gates at {players} player{'s' if players != 1 else ''}: {verdicts[0].games} games, "
                f"seed {BALANCE_SEED} (a gate fails only when its whole 95 % interval is outside its band)")


def build(games: Optional[list[str]] = typer.Argument(None, help="Game ids (default: all)."),
          paper: str = typer.Option("all", help="a4, letter or all."),
          format: str = typer.Option("pnp", "--format", help="pnp, print, png, tts, pcio, tgc, mpc, dtc, "
                                     "several comma-separated (pnp,tts), or all."),
          backs: str = typer.Option("duplex", help="duplex, foldover or none."),
          back_offset: str = typer.Option("0,0", help="Shift of the back pages X,Y in mm for your printer."),
          ink_saver: bool = typer.Option(False, help="Also write ink-saver card sheets."),
          only: Optional[str] = typer.Option(None, help="Build only these components, comma-separated "
                                             "(players,tactics); the others keep their files if still current."),
          strict: bool = typer.Option(False, help="Warnings fail too."),
          mark: bool = typer.Option(True, "--mark/--no-mark", help="The edition mark (game, version, card id) "
                                    "on every face and page; --no-mark for final art files."),
          version: Optional[str] = typer.Option(None, "--version", help="The version the edition marks print "
                                                "(default: the game's record, else `git describe --tags`)."),
          jobs: Optional[int] = typer.Option(None, "--jobs", "-j", min=1, max=256, help="Processes that draw "
                                             "the files (default: every core); the files are the same bytes."),
          base_url: Optional[str] = typer.Option(None, "--base-url", help="tts: the address where the images "
                                                 "will be hosted (default: file:/// paths of output/<game>/tts/)."),
          install: bool = typer.Option(False, "--install", help="tts: copy each Saved Object and its thumbnail "
                                       "into Tabletop Simulator's Saved Objects folder."),
          cache: bool = typer.Option(True, "--cache/--no-cache", help="--no-cache: lay out and draw everything "
                                     "anew, neither reading nor writing the build cache (.pnp-cache/).")
          ) -> None:
    """Validate, then write the PDFs under output/<game>/ (nothing is written if validation fails).
    Unchanged faces and files come from the build cache, .pnp-cache/ (`pnp clean` removes it)."""
    from pipeline import build as pipeline_build
    from pipeline.kinds import exports

    if backs not in BACKS:
        ui.usage(f"--backs must be one of {', '.join(BACKS)}, not {backs!r}")
    root = ui.project_root()
    config = BuildConfig(root=root, games=ui.games(games), papers=ui.choices(paper, PAPERS, "--paper"),
                         formats=ui.choices(format, FORMATS, "--format"), backs=backs,
                         back_offset_mm=_offset(back_offset), ink_saver=ink_saver, strict=strict,
                         only=tuple(part.strip() for part in (only or "").split(",") if part.strip()),
                         mark=mark, version=version, jobs=jobs or cores(), base_url=_base_url(base_url), cache=cache)
    if config.only and not cache:
        ui.usage("--only keeps the other components' files through the build cache: not with --no-cache")
    if (install or base_url) and "tts" not in config.formats:
        ui.usage("--install and --base-url are for the Tabletop Simulator export: add --format tts (or all)")
    with ui.progress() as progress:
        try:
            report, built = pipeline_build.build(config, progress)
        except pipeline_build.UnknownComponent as exc:
            ui.usage(str(exc))
    ui.print_problems(report)
    code = report.exit_code(strict)
    if code:
        ui.out(failed_build_line(report))
    else:
        for game_id in built:
            print(f"built {game_id} → output/{game_id}/ (report.md lists every file)")
        for note in report.notes:
            if note.startswith(exports.NOTE):
                print(note.removeprefix(exports.NOTE))
        if install:
            for game_id in built:
                print(f"installed {game_id} → {exports.install_tts(config, game_id)}")
        sheets = [str(path.relative_to(root)) for path in pipeline_build.calibration_paths(config)]
        if built and sheets:
            print(f"duplex calibration → {', '.join(sheets)}: print one double-sided once per printer, "
                  "it gives the --back-offset X,Y to pass")
    raise typer.Exit(code)


def _base_url(text: str | None) -> str | None:
    if text is None:
        return None
    if not text.startswith(("https://", "http://", "file:///")):
        ui.usage(f"--base-url must start with https://, http:// or file:///, not {text!r}")
    return text


def _offset(text: str) -> tuple[float, float]:
    try:
        x, y = (float(part) for part in text.split(","))
    except ValueError:
        ui.usage(f"--back-offset takes X,Y in millimetres (e.g. 0.5,-1), not {text!r}")
    if abs(x) > 10 or abs(y) > 10:
        ui.usage("--back-offset is a small printer correction: at most 10 mm each way")
    return x, y


def watch(game: str = typer.Argument(..., help="Game id."),
          paper: str = typer.Option("all", help="a4, letter or all."),
          only: Optional[str] = typer.Option(None, help="Components to build, comma-separated (players,tactics)."),
          strict: bool = typer.Option(False, help="Warnings fail too."),
          mark: bool = typer.Option(True, "--mark/--no-mark", help="The edition mark on every face and page."),
          version: Optional[str] = typer.Option(None, "--version", help="The version the edition marks print.")
          ) -> None:
    """Build, then rebuild on every save of the game's workbook, templates, art or fonts (Ctrl-C stops)."""
    from pipeline.cli import watch as watching

    config = BuildConfig(root=ui.project_root(), games=ui.games([game]),
                         papers=ui.choices(paper, PAPERS, "--paper"), strict=strict, mark=mark, version=version)
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
            ui.usage(str(exc))
        watching.watch(rebuilder, emit)
    except KeyboardInterrupt:
        ui.err("stopped watching")
        raise typer.Exit(130)
