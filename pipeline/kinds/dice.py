"""Custom dice (DiceSpec): cube nets with glue tabs and sticker sheets for blank dice, planned for every
paper before anything is written; every distinct face once as a PNG."""

from __future__ import annotations

import io
from dataclasses import dataclass

from pipeline.core.config import BuildConfig
from pipeline.core.errors import Report
from pipeline.core.printing import PrintOptions
from pipeline.core.units import MM, PAPERS_MM
from pipeline.data.specs import DiceSpec
from pipeline.kinds.files import entry, paper_line, png

SPEC = DiceSpec
NAME = "dice"
INK_VARIANT = False
PRINT_BLEED = False


@dataclass
class LaidDice:
    """A DiceSpec laid out: each die's six faces (render.dice.DieFaces) and their PNG names."""

    dice: tuple
    names: tuple[tuple[str, ...], ...]


def lay_out(spec: DiceSpec, layout, progress, ink: bool, report: Report) -> LaidDice:
    from pipeline.render.sheets.dice import DieFaces

    dice, names, not_square = [], [], set()
    for die in spec.dice:
        faces = tuple(layout(face) for face in die.faces)
        for face, laid in zip(die.faces, faces):
            if abs(laid.width - laid.height) > 0.01 and face.template not in not_square:
                not_square.add(face.template)
                report.error(face.ref or face.template, f"{spec.id}: face {face.label or face.name} is drawn "
                             f"{laid.width / MM:.1f}×{laid.height / MM:.1f} mm by {face.template}: a "
                             "die face must be square", "template")
        dice.append(DieFaces(die.label, die.caption, die.count, faces))
        names.append(tuple(face.name for face in die.faces))
    return LaidDice(tuple(dice), tuple(names))


def faces_of(faces: LaidDice) -> list:
    return [face for die in faces.dice for face in die.faces]


def spec_faces(spec: DiceSpec) -> list:
    return [face for die in spec.dice for face in die.faces]


def plan(game, spec: DiceSpec, faces: LaidDice, config: BuildConfig, report: Report) -> dict:
    """The net and sticker plans of every paper (paper -> (NetPlan, StickerPlan)): a face too large for the
    paper is an error before anything is written."""
    from pipeline.render.sheets.dice import plan_problems

    plans, where = {}, spec.ref or f"{spec.id} (dice)"
    for paper in PAPERS_MM:
        nets, stickers, messages = plan_problems(paper, spec.face_mm, spec.sticker_mm, [d.count for d in faces.dice])
        for message in messages:
            report.error(where, f"{spec.id}: {message}", "imposition")
        plans[paper] = (nets, stickers)
    return plans


def write(game, laid, config: BuildConfig, progress) -> list[dict]:
    """<id>-nets.pdf and <id>-stickers.pdf per paper; with png, every distinct face once."""
    from pipeline.render.sheets.dice import write_nets, write_stickers

    spec, laid_dice = laid.component, laid.faces
    out, written = config.output / game.id, []
    dice = sum(die.count for die in spec.dice)
    if "pnp" in config.formats:
        progress.start(f"{game.id}: {spec.id}", len(config.papers))
        for paper in config.papers:
            nets, stickers = laid.plans[paper]
            options = PrintOptions(paper=paper, game_title=game.title, component_title=spec.title)
            for part, write_part, part_plan, fields in (
                    ("nets", write_nets, nets, {"dice": dice, "face_mm": spec.face_mm}),
                    ("stickers", write_stickers, stickers, {"dice": dice, "sticker_mm": spec.sticker_mm})):
                buffer = io.BytesIO()
                info = write_part(buffer, laid_dice.dice, part_plan, options)
                path = out / f"pnp-{paper}" / f"{spec.id}-{part}.pdf"
                written.append(entry(config, path, buffer.getvalue(), spec, info, kind=f"dice-{part}",
                                     format="pnp", paper=paper, **fields))
            progress.advance()
    if "png" in config.formats:
        written.append(_png(game, laid, config, progress))
    return written


def _png(game, laid, config: BuildConfig, progress) -> dict:
    """Each die's six faces once, as PNGs with bleed (png/<id>/<die>-<face>.png). Dice have no print-service
    file: the nets and stickers are what a print shop would print."""
    from pipeline.render.sheets.dice import unique_faces
    from pipeline.render.sheets.imposition import write_print

    spec = laid.component
    faces, names = unique_faces(laid.faces.dice, laid.faces.names)
    progress.start(f"{game.id}: {spec.id} png", 1)
    buffer = io.BytesIO()
    write_print(buffer, faces, f"{game.title} — {spec.title}")
    written = png(config, game, spec, buffer.getvalue(), names, [face.key for face in faces])
    progress.advance()
    return written


def describe(spec: DiceSpec) -> dict:
    return {"kind": NAME, "count": sum(die.count for die in spec.dice), "size_mm": [spec.face_mm, spec.face_mm],
            "backs": False, "dice": {die.label: die.count for die in spec.dice}, "sticker_mm": spec.sticker_mm}


def how_to_print(entry: dict) -> str:
    if entry["kind"] == "dice-nets":
        return (f"{paper_line(entry)}, single-sided, on thin card; {entry.get('nets', '')} cube nets of "
                f"{entry.get('face_mm', 0):g} mm, {entry.get('nets_per_page', '')} per page: cut the solid "
                f"outline, fold the dashed lines, glue the grey tabs inside")
    return (f"{paper_line(entry)}, single-sided, on label paper; {entry.get('stickers', '')} stickers of "
            f"{entry.get('sticker_mm', 0):g} mm for blank 16 mm dice: cut strips between the marks, then "
            f"squares; opposite faces 1–6, 2–5, 3–4")
