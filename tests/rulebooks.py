"""A game's rulebook written in memory the way a build writes it: its records, its figures laid out through the
rulebook kind (legible diagrams included), the PDF bytes. Shared by the rulebook tests."""

from __future__ import annotations

from dataclasses import dataclass
from io import BytesIO
from pathlib import Path

from pipeline.errors import Report
from pipeline.games.base import GameModule, Records, RulebookSpec
from pipeline.kinds import rulebook as rulebook_kind
from pipeline.printing import PrintOptions
from pipeline.progress import Progress
from pipeline.render.faces import FaceRenderer
from pipeline.render.fonts import default_fonts
from pipeline.render.rulebook import write_rulebook
from pipeline.validate import load_records
from tests.conftest import ROOT


@dataclass
class Book:
    game: GameModule
    records: Records
    spec: RulebookSpec
    renderer: FaceRenderer
    figures: dict           # figure name -> laid-out face
    info: dict              # what write_rulebook returns
    pdf: bytes


def write_book(game: GameModule, paper: str = "a4", root: Path = ROOT, title: str | None = None) -> Book:
    report = Report()
    records = load_records(game, root, report)
    assert records is not None, [str(p) for p in report.errors]
    spec = next(c for c in game.components(records) if isinstance(c, RulebookSpec))
    renderer = FaceRenderer(ROOT, game.template_dir, default_fonts())
    figures = rulebook_kind.lay_out(
        spec, lambda face: renderer.layout(face.template, face.context, None, face.name, size_mm=face.size_mm)[0],
        Progress(), False, report)
    buffer = BytesIO()
    info = write_rulebook(buffer, game.template_dir / spec.source, spec.context, figures,
                          PrintOptions(paper=paper, game_title=title or game.title), ROOT)
    return Book(game, records, spec, renderer, figures, info, buffer.getvalue())
