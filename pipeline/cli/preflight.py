"""`pnp preflight FILE.pdf…`: pnp's own print preflight (pipeline/preflight/) on PDF files and on every PDF
under a folder, pnp's or anyone's. Exit 0 with a line per file; 1 with a line per problem
(`FILE: page N: problem`); 2 on a usage error. Warnings print but fail only with --strict."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer

from pipeline.cli import shared as ui


def preflight(files: list[Path] = typer.Argument(..., help="PDF files, or folders: every PDF under them."),
              card: Optional[str] = typer.Option(None, "--card", metavar="WxH",
                                                 help="Every card this trim size, in mm (63x88) or inches "
                                                      "(2.5x3.5in), either way round, within 0.5 mm."),
              bleed: float = typer.Option(3.0, "--bleed", min=0, max=50, metavar="MM",
                                          help="Least bleed around a TrimBox, in mm."),
              paper: Optional[str] = typer.Option(None, "--paper", metavar="a4|letter|a3",
                                                  help="Every page this paper, either way round."),
              duplex: str = typer.Option("auto", "--duplex", metavar="auto|on|off",
                                         help="Pages (1, 2), (3, 4)… as fronts and backs for a long-edge flip; "
                                              "auto: when every pair holds the same number of cards."),
              min_dpi: float = typer.Option(300.0, "--min-dpi", min=1, help="A placed image under this "
                                            "resolution is a warning (under half of it, an error)."),
              strict: bool = typer.Option(False, help="Warnings fail too."),
              as_json: bool = typer.Option(False, "--json", help="The whole report as JSON on stdout.")) -> None:
    """Check PDFs for print: page boxes, bleed, fonts embedded, image resolution, card sizes, crop marks
    outside the cards, duplex backs mirrored."""
    import time

    from pipeline import preflight as checks
    from pipeline.preflight import report
    from pipeline.preflight.geometry import PAPERS_MM, parse_size

    started = time.perf_counter()
    try:
        size = parse_size(card) if card is not None else None
    except ValueError as exc:
        ui.usage(f"--card: {exc}")
    if paper is not None and paper.lower() not in PAPERS_MM:
        ui.usage(f"--paper must be one of {', '.join(PAPERS_MM)}, not {paper!r}")
    if duplex not in ("auto", "on", "off"):
        ui.usage(f"--duplex must be auto, on or off, not {duplex!r}")
    paths, missing = checks.pdf_paths(files)
    if missing or not paths:
        ui.usage("; ".join(missing) or "no PDF file under " + ", ".join(map(str, files)))
    options = checks.Options(card=size, bleed_mm=bleed, paper=paper.lower() if paper else None, duplex=duplex,
                             min_dpi=min_dpi, error_dpi=min_dpi / 2)
    results = checks.check_paths(paths, options)
    failed = any(r.errors or (strict and r.warnings) for r in results)
    if as_json:
        print(json.dumps(report.as_json(results), indent=1, ensure_ascii=False))
        raise typer.Exit(1 if failed else 0)
    for line in report.problem_lines(results):
        print(line)
    errors = sum(len(r.errors) for r in results)
    warnings = sum(len(r.warnings) for r in results)
    if not failed:
        for result in results:
            if not result.errors:
                print(report.summary_line(result))
    pages = sum(len(r.pages) for r in results)
    verdict = "preflight failed" if failed else "preflight passed"
    print(f"{verdict}: {len(results)} file{'s' if len(results) != 1 else ''}, {pages} pages, {errors} error(s), "
          f"{warnings} warning(s) in {time.perf_counter() - started:.1f} s")
    raise typer.Exit(1 if failed else 0)
