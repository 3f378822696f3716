"""Cards and tokens (CardDeck): home sheets with crop marks and backs (duplex, fold-over or none), one face
per page for print services, and PNGs."""

from __future__ import annotations

import io

from pipeline.core.config import BuildConfig
from pipeline.core.errors import PipelineError, Report
from pipeline.core.printing import PrintOptions
from pipeline.data.specs import CardDeck
from pipeline.kinds.files import entry, paper_line, png, suffix, template_ref

SPEC = CardDeck
NAME = "cards"
INK_VARIANT = True          # card sheets get an ink-saver variant
PRINT_BLEED = True          # faces go to print services with 3 mm of bleed


def lay_out(spec: CardDeck, layout, progress, ink: bool, report: Report):
    """(front layouts, back layouts | None)."""
    progress.start(f"layout {spec.id}{' (ink saver)' if ink else ''}", len(spec.fronts))
    fronts = []
    for face in spec.fronts:
        fronts.append(layout(face))
        progress.advance()
    return fronts, [layout(face) for face in spec.backs] if spec.backs else None


def faces_of(faces) -> list:
    fronts, backs = faces
    return [*fronts, *(backs or ())]


def spec_faces(spec: CardDeck) -> list:
    return [*spec.fronts, *(spec.backs or ())]


def plan(game, spec: CardDeck, faces, config: BuildConfig, report: Report) -> dict:
    """The sheet plan of every paper, before anything is written: a card that fits no sheet is an error."""
    from pipeline.render.sheets.imposition import plan_pnp

    where = template_ref(game, spec_faces(spec), config.root)
    fronts, backs = faces
    plans = {}
    if "pnp" not in config.formats:
        return plans
    for paper in config.papers:
        try:
            plans[paper] = plan_pnp(fronts, backs, _options(spec, config, paper, backs), where)
        except PipelineError as exc:
            report.extend(exc.problems)
    return plans


def _options(deck: CardDeck, config: BuildConfig, paper: str, backs, game=None, ink: bool = False):
    return PrintOptions(paper=paper, backs=config.backs if backs else "none",
                        back_offset_mm=config.back_offset_mm, game_title=game.title if game else "",
                        component_title=deck.title, ink_saver=ink, keep_bleed=deck.keep_bleed)


def write(game, laid, config: BuildConfig, progress) -> list[dict]:
    from pipeline.render.sheets.imposition import write_pnp

    deck, (fronts, backs) = laid.component, laid.faces
    out, written = config.output / game.id, []
    if "pnp" in config.formats:
        for paper in config.papers:
            progress.start(f"{game.id}: {deck.id} {paper}{suffix(laid)}", 1)
            options = _options(deck, config, paper, backs, game, laid.ink)
            buffer = io.BytesIO()
            info = write_pnp(buffer, fronts, backs, options, laid.plans.get(paper))
            path = out / f"pnp-{paper}" / f"{deck.id}{suffix(laid)}.pdf"
            written.append(entry(config, path, buffer.getvalue(), deck, info, kind="cards", format="pnp", paper=paper,
                                 ink_saver=laid.ink, backs_mode=options.backs, cards=len(fronts),
                                 size_mm=list(deck.size_mm)))
            progress.advance()
    if not laid.ink and {"print", "png"} & set(config.formats):
        written.extend(_print_and_png(game, laid, config, progress))
    return written              # the game's pooled sheets: pipeline/kinds/pooled.py, after the first deck's


def _unique_backs(deck: CardDeck, backs: list | None) -> list[tuple[str, object]]:
    seen, unique = set(), []
    for spec, layout in zip(deck.backs or (), backs or ()):
        if layout.key not in seen:
            seen.add(layout.key)
            unique.append((spec.template.removesuffix(".yaml"), layout))
    return unique


def _print_and_png(game, laid, config: BuildConfig, progress) -> list[dict]:
    from pipeline.render.sheets.imposition import write_print

    deck, (fronts, backs) = laid.component, laid.faces
    backs_once = _unique_backs(deck, backs)
    faces = fronts + [layout for _, layout in backs_once]
    names = [spec.name for spec in deck.fronts] + [name for name, _ in backs_once]
    progress.start(f"{game.id}: {deck.id} print", 1)
    buffer = io.BytesIO()
    info = write_print(buffer, faces, f"{game.title} — {deck.title}")
    written = []
    if "print" in config.formats:
        path = config.output / game.id / "print" / f"{deck.id}.pdf"
        written.append(entry(config, path, buffer.getvalue(), deck, info, kind="cards", format="print",
                             fronts=len(fronts), backs=len(backs_once)))
    if "png" in config.formats:
        written.append(png(config, game, deck, buffer.getvalue(), names, [face.key for face in faces]))
    progress.advance()
    return written


def describe(spec: CardDeck) -> dict:
    return {"kind": NAME, "count": len(spec.fronts), "size_mm": list(spec.size_mm), "backs": spec.backs is not None}


def how_to_print(entry: dict) -> str:
    sided = {"duplex": "double-sided, flip on the long edge", "foldover": "single-sided, fold along the line",
             "none": "single-sided"}.get(entry.get("backs_mode", "none"), "")
    line = f"{paper_line(entry)}, {sided}; cut along the marks"
    if entry.get("fold_pairs"):
        line += "; fold each two-sided token on its dashed line and glue"
    if entry.get("pooled"):
        line += f" (all of {', '.join(entry['members'])} on shared sheets: print this rather than their own files)"
    return line
