"""pnp's own print preflight (`pnp preflight FILE.pdf…`): reads a PDF back with pypdfium2 and checks what a
printer or a print shop needs of it, on pnp's files and on PDFs from elsewhere alike:

- page boxes present and nested, a TrimBox wherever a BleedBox is, one trim size across a print-shop file;
- bleed: where a page has a TrimBox, at least `bleed_mm` of page around it on every side;
- every font the text uses embedded (a subset is fine; a standard-14 font left out is a problem);
- every placed raster's effective resolution: a warning under `min_dpi` (300), an error under `error_dpi`;
- the cards of each sheet (pipeline/preflight/cards.py) measured: one size per sheet, and that size within
  `tolerance_mm` of `card` when one is given; no crop mark inside a card's trim;
- duplex: each back page's cards the front page's mirrored about the page's vertical axis (a long-edge flip).

reading.py reads a page, cards.py finds its cards, rules.py and sheets.py judge, report.py prints; model.py
holds what they pass one another.

May import: core (its units and papers), pypdfium2 and the standard library: it reads any PDF, pnp's or not."""

from __future__ import annotations

from pathlib import Path

from pipeline.preflight.cards import find_cards
from pipeline.preflight.model import FileResult, Options, Problem
from pipeline.preflight.reading import read_page

__all__ = ["FileResult", "Options", "Problem", "check_file", "check_paths", "pdf_paths"]


def check_file(path: Path, options: Options = Options()) -> FileResult:
    """Every check on one PDF file; an unreadable file is one problem."""
    import pypdfium2

    from pipeline.preflight import rules, sheets

    result = FileResult(Path(path))
    try:
        document = pypdfium2.PdfDocument(str(path))
    except (pypdfium2.PdfiumError, OSError, ValueError) as exc:
        result.problems.append(Problem(None, "error", "file", f"cannot be read as a PDF ({exc})"))
        return result
    try:
        result.pages = [read_page(document, i) for i in range(len(document))]
    finally:
        document.close()
    if not result.pages:
        result.problems.append(Problem(None, "error", "file", "has no pages"))
        return result
    result.cards = [find_cards(page) for page in result.pages]
    for rule in rules.RULES:
        result.problems.extend(rule(result.pages, options))
    result.problems.extend(sheets.card_sizes(result, options))
    result.problems.extend(sheets.marks(result))
    problems, result.duplex = sheets.duplex(result, options)
    result.problems.extend(problems)
    result.problems.sort(key=lambda p: (p.page or 0, p.severity != "error"))
    return result


def pdf_paths(paths: list[Path]) -> tuple[list[Path], list[str]]:
    """The PDF files named, every PDF under a folder named (sorted); and a line for each name that is
    neither."""
    found: list[Path] = []
    missing: list[str] = []
    for path in paths:
        if path.is_dir():
            found.extend(sorted(p for p in path.rglob("*") if p.suffix.lower() == ".pdf" and p.is_file()))
        elif path.is_file():
            found.append(path)
        else:
            missing.append(f"{path}: no such file or folder")
    return list(dict.fromkeys(found)), missing


def check_paths(paths: list[Path], options: Options = Options()) -> list[FileResult]:
    return [check_file(path, options) for path in paths]
