"""pnp's own print preflight (`pnp preflight FILE.pdf…`): reads a PDF back with pypdfium2 and checks what a
printer or a print shop needs of it, on pnp's files and on PDFs from elsewhere alike:

- page boxes present and nested, a TrimBox wherever a BleedBox is, one trim size across a print-shop file;
- bleed: where a page has a TrimBox, at least `bleed_mm` of page around it on every side;
- every font the text uses embedded (a subset is fine; a standard-14 font left out is a problem);
- every placed raster's effective resolution: a warning under `min_dpi` (300), an error under `error_dpi`;
- the cards of each sheet (pipeline/preflight/cards.py) measured: one size per sheet, and that size within
  `tolerance_mm` of `card` when one is given; no crop mark inside a card's trim;
- duplex: each back page's cards the front page's mirrored about the page's vertical axis (a long-edge flip).

reading.py reads a page, cards.py finds its cards, rules.py and sheets.py judge, report.py prints."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pipeline.preflight.cards import Cards, find_cards
from pipeline.preflight.reading import PageFacts, read_page


@dataclass(frozen=True)
class Options:
    card: tuple[float, float] | None = None      # expected card trim (mm), either orientation
    bleed_mm: float = 3.0                       # least bleed around a TrimBox
    paper: str | None = None                    # every page this paper (geometry.PAPERS_MM), either way round
    duplex: str = "auto"                        # auto: pages (1, 2), (3, 4)… when every pair holds cards
    min_dpi: float = 300.0                      # a raster under this is a warning
    error_dpi: float = 150.0                    # and under this an error
    tolerance_mm: float = 0.5                   # card sizes and duplex registration


@dataclass(frozen=True)
class Problem:
    page: int | None
    severity: str                               # "error" or "warning"
    rule: str                                   # boxes, bleed, paper, fonts, images, cards, marks, duplex, file
    message: str

    def line(self, path: Path | str) -> str:
        where = f"page {self.page}: " if self.page else ""
        return f"{path}: {where}{'' if self.severity == 'error' else 'warning: '}{self.message}"


@dataclass
class FileResult:
    path: Path
    pages: list[PageFacts] = field(default_factory=list)
    cards: list[Cards] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    duplex: list[tuple[int, int, float]] = field(default_factory=list)    # front, back, worst offset (mm)

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "error"]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "warning"]


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
