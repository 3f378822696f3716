"""What the `pnp` commands share: the project they work on (project_root), the rich consoles, progress bars,
usage errors, the game and choice arguments, problem lists, tables, the `--executor` option and the lines of
written files. pipeline/cli/app.py holds the app; build.py, simulate.py, sweep.py, release.py and diff.py the
commands. Nothing here imports rich until something is printed."""

from __future__ import annotations

import contextlib
import sys
from functools import lru_cache
from pathlib import Path
from typing import Optional

import typer

from pipeline import PROJECT_ROOT
from pipeline.core.errors import Report, Severity


def project_root() -> Path:
    """The project the commands work on (sheets/, templates/, output/): every CLI module reads it here, so a
    test points the whole CLI at a scratch project by patching this module's PROJECT_ROOT alone."""
    return PROJECT_ROOT


@lru_cache(maxsize=None)
def console(stderr: bool):
    """rich consoles, made on first use: a quiet successful build never imports rich (~45 ms)."""
    from rich.console import Console

    return Console(stderr=stderr, highlight=False, soft_wrap=True)


def err(*args, **kwargs) -> None:
    console(True).print(*args, **kwargs)


def out(*args, **kwargs) -> None:
    console(False).print(*args, **kwargs)


class RichProgress:
    def __init__(self, bar):
        self.bar, self.task = bar, None

    def start(self, description: str, total: int) -> None:
        if self.task is not None:
            self.bar.update(self.task, completed=self.bar.tasks[self.task].total, visible=False)
        self.task = self.bar.add_task(description, total=total)

    def advance(self, steps: int = 1) -> None:
        self.bar.advance(self.task, steps)


@contextlib.contextmanager
def progress():
    """Progress bars on a terminal; nothing (and no rich import) when stderr is a file or a pipe."""
    from pipeline.core.progress import Progress

    if not sys.stderr.isatty():
        yield Progress()
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress as Bars, TextColumn, TimeElapsedColumn

    with Bars(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
              console=console(True), transient=True) as bar:
        yield RichProgress(bar)         # this module's wrapper: rich's own Progress is imported as Bars


def usage(message: str) -> None:
    err(f"[red]error:[/red] {message}")
    raise typer.Exit(2)


def games(names: Optional[list[str]]) -> tuple[str, ...]:
    """The game ids given (default: every game); an unknown one is a usage error (a .yaml path passes)."""
    from pipeline.games import available

    known = available(project_root())
    chosen = tuple(names or known)
    for name in chosen:
        if name not in known and not name.endswith((".yaml", ".yml")):
            usage(f"unknown game {name!r} (known: {', '.join(known)})")
    return chosen


def choices(value: str, allowed: tuple[str, ...], option: str) -> tuple[str, ...]:
    """One of `allowed`, several comma-separated (in `allowed`'s order), or all of them for "all"; anything else
    is a usage error."""
    if value == "all":
        return allowed
    asked = [part.strip() for part in value.split(",") if part.strip()]
    wrong = [part for part in asked if part not in allowed]
    if wrong or not asked:
        usage(f"{option} must be one of {', '.join(allowed)} (several comma-separated) or all, not {value!r}")
    return tuple(choice for choice in allowed if choice in asked)


def print_problems(report: Report) -> None:
    """One line per problem, then the counts; under GitHub Actions each line is followed by its annotation
    (pipeline/cli/annotations.py), so the code host pins it on the file."""
    if not report.problems:
        return
    from rich.text import Text

    from pipeline.cli import annotations

    top = annotations.workspace(project_root()) if annotations.active() else None
    for problem in report.problems:
        colour = "red" if problem.severity is Severity.ERROR else "yellow"
        line = Text(problem.severity.value, style=colour)
        line.append(f" {problem}")          # plain text: a "[range]" tag must not be read as markup
        err(line, highlight=False)
        if top is not None:
            err(Text(annotations.annotation(problem, project_root(), top)), highlight=False)
    err(f"{len(report.errors)} error(s), {len(report.warnings)} warning(s)")


EXECUTOR_OPTION = typer.Option("local", "--executor", metavar="local|dask[=ADDRESS]",
                               help="Where games are played: local processes, or Dask distributed (a LocalCluster "
                                    "of --workers processes, or the scheduler at ADDRESS, e.g. "
                                    "dask=tcp://127.0.0.1:8786); the results are the same.")


def executor_of(spec: str, workers: Optional[int]):
    """--executor as an executor (pipeline/play/executors.py); a wrong spec is a usage error."""
    from pipeline.play import executors

    try:
        return executors.parse(spec, workers)
    except ValueError as exc:
        usage(str(exc))


@contextlib.contextmanager
def closing(pool):
    """Stop a Dask cluster however the command ends; an executor that cannot start is one line, exit 1."""
    from pipeline.play.executors import ExecutorError

    try:
        yield pool
    except ExecutorError as exc:
        err(f"error: {exc}")
        raise typer.Exit(1) from None
    finally:
        pool.close()


def wrote(paths: list[Path]) -> None:
    """A line per file written, relative to the project."""
    for path in paths:
        print(f"wrote {path.relative_to(project_root())}")


def show(rows: list[list[str]], title: str) -> None:
    """A table of text rows (header first) on stdout; nothing for a header alone."""
    from rich.table import Table
    from rich.text import Text

    if len(rows) < 2:
        return
    table = Table(title=title, title_justify="left", title_style="bold", show_edge=False, pad_edge=False)
    for i, head in enumerate(rows[0]):
        table.add_column(head, justify="left" if i == 0 or head in ("bot", "what happened") else "right")
    for row in rows[1:]:
        table.add_row(*(Text(str(cell)) for cell in row))      # Text: a "[" from an engine is not markup
    out(table)
