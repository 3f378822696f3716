"""What the preflight knows of a file: the Options it checks against, a Problem (one line of its report) and a
FileResult (the pages read, the cards found on each, the problems, the duplex pairs checked)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pipeline.preflight.cards import Cards
from pipeline.preflight.reading import PageFacts


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
