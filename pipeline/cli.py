"""`pnp`: thin typer app. Parse options into a BuildConfig, call one function, map the Report to an exit
code (0 clean, 1 problems, 2 usage). A user's mistake never prints a traceback."""

from __future__ import annotations

import contextlib
import sys
from functools import lru_cache
from typing import Optional

import typer

from pipeline import PROJECT_ROOT
from pipeline.config import BACKS, FORMATS, PAPERS, BuildConfig
from pipeline.errors import PipelineError, Report, Severity

app = typer.Typer(add_completion=False, pretty_exceptions_enable=False, no_args_is_help=True,
                  help="Print-and-play pipeline: validate game workbooks and build print-ready PDFs.")


@lru_cache(maxsize=None)
def _console(stderr: bool):
    """rich consoles, made on first use: a quiet successful build never imports rich (~45 ms)."""
    from rich.console import Console

    return Console(stderr=stderr, highlight=False, soft_wrap=True)


def err(*args, **kwargs) -> None:
    _console(True).print(*args, **kwargs)


def out(*args, **kwargs) -> None:
    _console(False).print(*args, **kwargs)


class _RichProgress:
    def __init__(self, bar):
        self.bar, self.task = bar, None

    def start(self, description: str, total: int) -> None:
        if self.task is not None:
            self.bar.update(self.task, completed=self.bar.tasks[self.task].total, visible=False)
        self.task = self.bar.add_task(description, total=total)

    def advance(self, steps: int = 1) -> None:
        self.bar.advance(self.task, steps)


@contextlib.contextmanager
def _progress():
    """Progress bars on a terminal; nothing (and no rich import) when stderr is a file or a pipe."""
    from pipeline.build import Progress

    if not sys.stderr.isatty():
        yield Progress()
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress as RichProgress, TextColumn, TimeElapsedColumn

    with RichProgress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      console=_console(True), transient=True) as bar:
        yield _RichProgress(bar)


def _usage(message: str) -> None:
    err(f"[red]error:[/red] {message}")
    raise typer.Exit(2)


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


def _print_problems(report: Report) -> None:
    if not report.problems:
        return
    from rich.text import Text

    for problem in report.problems:
        colour = "red" if problem.severity is Severity.ERROR else "yellow"
        line = Text(problem.severity.value, style=colour)
        line.append(f" {problem}")          # plain text: a "[range]" tag must not be read as markup
        err(line, highlight=False)
    err(f"{len(report.errors)} error(s), {len(report.warnings)} warning(s)")


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
             strict: bool = typer.Option(False, help="Warnings fail too.")) -> None:
    """Run every validation stage and print every problem (exit 1 if any)."""
    from pipeline import build as pipeline_build

    config = BuildConfig(root=PROJECT_ROOT, games=_games(games), strict=strict)
    with _progress() as progress:
        report, prepared = pipeline_build.validate(config, progress)
    _print_problems(report)
    for item in prepared:
        cards = sum(len(d.fronts) for d in item.decks)
        others = len(item.components) - len(item.decks)
        out(f"[bold]{item.game.id}[/bold]: {cards} cards in {len(item.decks)} decks"
            + (f", {others} other components" if others else ""))
        for line in item.summary:
            out(f"  {line}")
    code = report.exit_code(strict)
    out("validation passed" if code == 0 else "validation failed")
    raise typer.Exit(code)


@app.command()
def build(games: Optional[list[str]] = typer.Argument(None, help="Game ids (default: all)."),
          paper: str = typer.Option("all", help="a4, letter or all."),
          format: str = typer.Option("pnp", "--format", help="pnp, print, png or all."),
          backs: str = typer.Option("duplex", help="duplex, foldover or none."),
          back_offset: str = typer.Option("0,0", help="Shift of the back pages X,Y in mm for your printer."),
          ink_saver: bool = typer.Option(False, help="Also write ink-saver card sheets."),
          strict: bool = typer.Option(False, help="Warnings fail too.")) -> None:
    """Validate, then write the PDFs under output/<game>/ (nothing is written if validation fails)."""
    from pipeline import build as pipeline_build

    if backs not in BACKS:
        _usage(f"--backs must be one of {', '.join(BACKS)}, not {backs!r}")
    config = BuildConfig(root=PROJECT_ROOT, games=_games(games), papers=_choices(paper, PAPERS, "--paper"),
                         formats=_choices(format, FORMATS, "--format"), backs=backs,
                         back_offset_mm=_offset(back_offset), ink_saver=ink_saver, strict=strict)
    with _progress() as progress:
        report, built = pipeline_build.build(config, progress)
    _print_problems(report)
    code = report.exit_code(strict)
    if code:
        out("build failed: nothing was written")
    else:
        for game_id in built:
            print(f"built {game_id} → output/{game_id}/ (report.md lists every file)")
    raise typer.Exit(code)


def main() -> None:
    try:
        app()
    except PipelineError as exc:
        from rich.text import Text

        for problem in exc.problems:
            err(Text(f"error {problem}"))
        sys.exit(1)
    except KeyboardInterrupt:
        err("interrupted")
        sys.exit(130)
