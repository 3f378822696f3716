"""Rulebooks (RulebookSpec): Markdown chapters with jinja2 and the game's figures, to A4 and Letter PDFs
with a table of contents, page numbers and headers."""

from __future__ import annotations

from dataclasses import replace

from pipeline.core.config import BuildConfig
from pipeline.core.errors import Report
from pipeline.core.printing import PrintOptions
from pipeline.data.specs import RulebookSpec
from pipeline.kinds.files import paper_line, per_paper

SPEC = RulebookSpec
NAME = "rulebook"
INK_VARIANT = False
PRINT_BLEED = False


def lay_out(spec: RulebookSpec, layout, progress, ink: bool, report: Report) -> dict:
    """{figure name: laid-out face}; a pile of cards (StackFigure) is laid out card by card."""
    from pipeline.render.rulebook.stackfig import StackFigure, lay_out_stack

    def one(face):
        if isinstance(face, StackFigure):
            return lay_out_stack(face, layout)
        return replace(layout(face), legible=True) if face.legible else layout(face)

    return {name: one(face) for name, face in spec.figures.items()}


def faces_of(faces: dict) -> list:
    return list(faces.values())


def spec_faces(spec: RulebookSpec) -> list:
    """The FaceSpecs drawn: a pile's cards one by one."""
    return [one for face in spec.figures.values() for one in getattr(face, "faces", (face,))]


def plan(game, spec: RulebookSpec, figures: dict, config: BuildConfig, report: Report) -> dict:
    """Every chapter rendered and parsed once, before anything is written: a missing file, a jinja2 mistake
    or an unknown figure is a located problem."""
    from pipeline.render.rulebook.book import check_rulebook

    report.extend(check_rulebook(game.template_dir / spec.source, context_of(game, spec), figures, config.root))
    return {}


def context_of(game, spec: RulebookSpec) -> dict:
    """The chapters' context: the game's own, and `designers`, the names its workbook's `game` sheet gives
    ("" when it gives none: pipeline/data/meta.py), for the cover's credits."""
    return {"designers": game.designers, **spec.context}


def write(game, laid, config: BuildConfig, progress) -> list[dict]:
    from pipeline.render.fonts import default_fonts
    from pipeline.render.rulebook.book import write_rulebook

    spec = laid.component
    return per_paper(game, spec, config, progress, NAME, lambda buffer, paper: write_rulebook(
        buffer, game.template_dir / spec.source, context_of(game, spec), laid.faces,
        PrintOptions(paper=paper, game_title=game.title, fonts=default_fonts()), config.root))


def describe(spec: RulebookSpec) -> dict:
    return {"kind": NAME, "count": 1, "size_mm": None, "backs": False}


def how_to_print(entry: dict) -> str:
    return f"{paper_line(entry)}, double-sided (or single-sided), staple or keep in a folder; nothing to cut"
