"""Boards (BoardSpec): one face larger than home paper, tiled at 100 % on A4/Letter with overlap strips,
alignment targets and a page map; whole with bleed for print services; a PNG."""

from __future__ import annotations

import io
from dataclasses import replace

from pipeline.core.config import BuildConfig
from pipeline.core.errors import PipelineError, Report
from pipeline.core.printing import PrintOptions
from pipeline.data.specs import BoardSpec
from pipeline.kinds.files import entry, paper_line, png, suffix, template_ref

SPEC = BoardSpec
NAME = "board"
INK_VARIANT = True
PRINT_BLEED = True


def lay_out(spec: BoardSpec, layout, progress, ink: bool, report: Report):
    return layout(replace(spec.face, size_mm=spec.size_mm))


def faces_of(faces) -> list:
    return [faces]


def spec_faces(spec: BoardSpec) -> list:
    return [spec.face]


def _options(spec: BoardSpec, paper: str, game=None, ink: bool = False):
    return PrintOptions(paper=paper, game_title=game.title if game else "", component_title=spec.title,
                       ink_saver=ink)


def plan(game, spec: BoardSpec, face, config: BuildConfig, report: Report) -> dict:
    """The tiles of every paper, before anything is written: a board no paper can tile is an error."""
    from pipeline.render.sheets.tiling import plan_board

    where = template_ref(game, spec_faces(spec), config.root)
    plans = {}
    if "pnp" not in config.formats:
        return plans
    for paper in config.papers:
        try:
            plans[paper] = plan_board(face, _options(spec, paper), where)
        except PipelineError as exc:
            report.extend(exc.problems)
    return plans


def write(game, laid, config: BuildConfig, progress) -> list[dict]:
    from pipeline.render.sheets.tiling import write_board_pnp, write_board_print

    board, face = laid.component, laid.faces
    out, written = config.output / game.id, []
    progress.start(f"{game.id}: {board.id}{suffix(laid)}", 1)
    if "pnp" in config.formats:
        for paper in config.papers:
            buffer = io.BytesIO()
            info = write_board_pnp(buffer, face, _options(board, paper, game, laid.ink), laid.plans.get(paper))
            path = out / f"pnp-{paper}" / f"{board.id}{suffix(laid)}.pdf"
            written.append(entry(config, path, buffer.getvalue(), board, info, kind="board", format="pnp",
                                 paper=paper, ink_saver=laid.ink, size_mm=list(board.size_mm)))
    if not laid.ink and {"print", "png"} & set(config.formats):
        buffer = io.BytesIO()
        info = write_board_print(buffer, face, f"{game.title} — {board.title}")
        if "print" in config.formats:
            path = out / "print" / f"{board.id}.pdf"
            written.append(entry(config, path, buffer.getvalue(), board, info, kind="board", format="print",
                                 size_mm=list(board.size_mm)))
        if "png" in config.formats:
            written.append(png(config, game, board, buffer.getvalue(), [board.id]))
    progress.advance()
    return written


def describe(spec: BoardSpec) -> dict:
    return {"kind": NAME, "count": spec.copies, "size_mm": list(spec.size_mm), "backs": False}


def how_to_print(entry: dict) -> str:
    return (f"{paper_line(entry)}, single-sided; trim each tile at its dashed line, glue it over the shaded strip "
            f"of its neighbour, matching the targets (see the page map)")
