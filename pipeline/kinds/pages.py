"""Write-on pages (PageSpec): score sheets and player aids, one face per page centred on the paper, turned
when it fits only that way; no crop marks."""

from __future__ import annotations

from pipeline.config import BuildConfig
from pipeline.errors import PipelineError, Report
from pipeline.games.base import PageSpec
from pipeline.kinds.files import paper_line, per_paper, template_ref
from pipeline.printing import PrintOptions

SPEC = PageSpec
NAME = "pages"
INK_VARIANT = False         # write-on pages are ink-light already
PRINT_BLEED = False


def lay_out(spec: PageSpec, layout, progress, ink: bool, report: Report):
    return [layout(face) for face in spec.faces]


def faces_of(faces) -> list:
    return list(faces)


def spec_faces(spec: PageSpec) -> list:
    return list(spec.faces)


def plan(game, spec: PageSpec, faces, config: BuildConfig, report: Report) -> dict:
    """Every page must fit every paper asked for, before anything is written."""
    from pipeline.render.pages import check_pages

    where = template_ref(game, spec_faces(spec), config.root)
    if "pnp" in config.formats:
        for paper in config.papers:
            try:
                check_pages(faces, paper, where)
            except PipelineError as exc:
                report.extend(exc.problems)
    return {}


def write(game, laid, config: BuildConfig, progress) -> list[dict]:
    from pipeline.render.pages import write_pages

    spec = laid.component
    return per_paper(game, spec, config, progress, NAME, lambda buffer, paper: write_pages(
        buffer, laid.faces, PrintOptions(paper=paper, game_title=game.title, component_title=spec.title)))


def describe(spec: PageSpec) -> dict:
    return {"kind": NAME, "count": len(spec.faces), "copies": spec.copies, "size_mm": list(spec.size_mm),
            "backs": False}


def how_to_print(entry: dict) -> str:
    return f"{paper_line(entry)}, single-sided; nothing to cut (print one per game or photocopy)"
