"""Write-on pages (PageSpec): score sheets and player aids, one face per page centred on the paper, turned
when it fits only that way; no crop marks."""

from __future__ import annotations

import math

from pipeline.core.config import BuildConfig
from pipeline.core.errors import PipelineError, Report
from pipeline.core.printing import PrintOptions
from pipeline.data.specs import PageSpec
from pipeline.kinds.files import paper_line, per_paper, template_ref

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
    from pipeline.render.sheets.pages import check_pages

    where = template_ref(game, spec_faces(spec), config.root)
    if "pnp" in config.formats:
        for paper in config.papers:
            try:
                check_pages(faces, paper, where)
            except PipelineError as exc:
                report.extend(exc.problems)
    return {}


def write(game, laid, config: BuildConfig, progress) -> list[dict]:
    """One page per face and copy; a page needed twice or more that fits 2-up (an A5 aid) prints two
    copies a sheet, its two faces recto verso (pipeline/render/sheets/pages.py)."""
    from pipeline.render.sheets.pages import two_up_scale, write_pages, write_two_up

    spec = laid.component

    def one(buffer, paper):
        options = PrintOptions(paper=paper, game_title=game.title, component_title=spec.title)
        scale = two_up_scale(spec.size_mm, paper) if spec.copies >= 2 and len(laid.faces) <= 2 else None
        if scale is None:
            return write_pages(buffer, laid.faces, options)
        return {**write_two_up(buffer, laid.faces, options, scale), "sheet_copies": math.ceil(spec.copies / 2)}

    written = per_paper(game, spec, config, progress, NAME, one)
    for entry in written:        # the writer's copies (sheets of two) stand for the spec's
        entry["copies"] = entry.pop("sheet_copies", entry["copies"])
    return written


def describe(spec: PageSpec) -> dict:
    return {"kind": NAME, "count": len(spec.faces), "copies": spec.copies, "size_mm": list(spec.size_mm),
            "backs": False}


def how_to_print(entry: dict) -> str:
    if entry.get("up") == 2:
        sided = "double-sided, flip on the long edge" if entry.get("backs_mode") == "duplex" else "single-sided"
        return f"{paper_line(entry)}, {sided}; two copies a sheet: cut it in half"
    return f"{paper_line(entry)}, single-sided; nothing to cut (print one per game or photocopy)"
