"""The options of one build, parsed once by the CLI into a frozen record."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pipeline.core.printing import Backs, Format, Paper

PAPERS = tuple(paper.value for paper in Paper)
FORMATS = tuple(format_.value for format_ in Format)
BACKS = tuple(backs.value for backs in Backs)


@dataclass(frozen=True)
class BuildConfig:
    root: Path
    games: tuple[str, ...]
    papers: tuple[str, ...] = PAPERS
    formats: tuple[str, ...] = ("pnp",)
    backs: str = "duplex"
    back_offset_mm: tuple[float, float] = (0.0, 0.0)
    ink_saver: bool = False
    strict: bool = False
    only: tuple[str, ...] = ()          # --only: component ids to build (empty: all); see pipeline/build.py
    mark: bool = True                   # the edition mark on every face and page (--no-mark: final art files)
    version: str | None = None          # --version: the edition the marks print (None: pipeline/core/edition.py)
    jobs: int = 1                       # --jobs: processes that draw the files (pipeline/core/pool.py)
    base_url: str | None = None         # --base-url: where a Tabletop Simulator export's images are hosted
    cache: bool = True                  # --no-cache: the build cache (.pnp-cache/) neither read nor written

    @property
    def output(self) -> Path:
        return self.root / "output"
