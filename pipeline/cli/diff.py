"""`pnp diff` and `pnp textconv`: the command functions of what changed between two versions of a game
(pipeline/cli/app.py registers them). Parse the options, call pipeline/diff/, print the changes; exit 0 when
compared, 1 when a version has errors, 2 for a usage error (OLD neither a file nor a revision)."""

from __future__ import annotations

import sys
from typing import Optional

import typer

from pipeline.cli import shared as ui
from pipeline.core.config import BACKS, PAPERS
from pipeline.core.errors import PipelineError, Report


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
            ui.usage(f"--summary: cannot write {summary} ({exc.strerror or exc})")

    if backs not in BACKS:
        ui.usage(f"--backs must be one of {', '.join(BACKS)}, not {backs!r}")
    papers = ui.choices(paper, PAPERS, "--paper")
    game = ui.games([game])[0]
    root = ui.project_root()
    report = Report()
    try:
        result = diff_game(root, game, old, papers, report, backs)
    except PipelineError as exc:
        summarise(diff_summary.failure(game, old, [f"{p.where}: {p.message}" for p in exc.problems]))
        if any(problem.rule != "usage" for problem in exc.problems):
            raise
        ui.usage("; ".join(f"{p.where}: {p.message}" for p in exc.problems))     # OLD: no file, no revision
    ui.print_problems(report)
    if result.changes is None:
        summarise(diff_summary.failure(game, old, [str(problem) for problem in report.errors]))
        ui.out("diff failed: a version has errors")
        raise typer.Exit(1)
    written = [str(path.relative_to(root) if path.is_relative_to(root) else path) for path in result.written]
    summarise(diff_summary.section(game, result.changes, written))
    if result.changes.none:
        ui.out(f"no change since {old}")
        raise typer.Exit(0)
    for line in result.changes.lines():
        ui.out(Text(line))
    for path in written:
        print(f"wrote {path}")
    raise typer.Exit(0)


def textconv(file: str = typer.Argument(..., help="A workbook (.xlsx).")) -> None:
    """Print a workbook as stable text, one line per row (git's diff.pnp.textconv)."""
    from pathlib import Path

    from pipeline.diff.textconv import workbook_text

    report = Report()
    text = workbook_text(Path(file), Path.cwd(), report)     # PipelineError: main() prints it, exit 1
    sys.stdout.write(text)
    for problem in report.problems:
        ui.err(f"{problem.severity.value} {problem}", highlight=False, markup=False)
