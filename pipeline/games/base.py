"""What a game plugs into the pipeline: its data, its checks and the components it prints."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping

from pipeline.errors import Report, SourceRef
from pipeline.schema import Record, SheetSpec

Records = dict[str, list[Record]]


@dataclass(frozen=True)
class FaceSpec:
    """One face to draw: a template and the values it is drawn with, and where those values came from."""

    template: str                   # file name under the game's template folder
    context: Mapping[str, Any]
    ref: SourceRef | None
    name: str                       # file-safe id: PNG file name and messages
    label: str = ""                 # human name used in messages ("Statue Citédor, copy 2")
    data_dir: Path | None = None    # base folder for art paths coming from cells


@dataclass(frozen=True)
class CardDeck:
    """A component made of cards: fronts, and per-front backs (None: single-sided)."""

    id: str
    title: str                      # printed in the sheet header (French)
    fronts: tuple[FaceSpec, ...]
    backs: tuple[FaceSpec, ...] | None
    size_mm: tuple[float, float] = (63.5, 88.9)
    keep_bleed: bool = False        # home sheets keep each face's bleed (gutters) rather than most cards


@dataclass(frozen=True)
class GameModule:
    id: str
    title: str
    data_files: tuple[Path, ...]            # absolute; xlsx (all sheets) or csv (one sheet each)
    sheets: tuple[SheetSpec, ...]
    template_dir: Path
    components: Callable[[Records], list[CardDeck]]
    rule_checks: Callable[[Records, Report], None] = lambda records, report: None
    summary: Callable[[Records], list[str]] = lambda records: []
    manifest_sheet: str | None = "components"
    inline_manifest: tuple[Mapping[str, Any], ...] = ()    # data-only games declare counts in game.yaml
    csv_sheet_names: Mapping[str, str] = field(default_factory=dict)   # csv file name -> sheet name
