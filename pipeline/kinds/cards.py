"""Cards and tokens (CardDeck): home sheets with crop marks and backs (duplex, fold-over or none), one face
per page for print services, and PNGs.

Every duplex card file of a full home print (a pooled file, or the file of a deck no pool takes) in the
standard ink also has its fold-over twin, `pnp-<paper>/pli/<name>-pli.pdf`: fronts and backs side by side
around a fold line, printed single-sided, so a playtester whose printer puts the backs off, and who has
only the PDFs (no `--back-offset` rebuild), still gets aligned backs. The pooled sheets' step writes them
(pipeline/kinds/pooled.py), the one step that knows which decks a pool takes. Twins are listed in
report.json with `foldover_of`, and the paper bill leaves them out of the full print."""

from __future__ import annotations

import io
from dataclasses import replace

from pipeline.core.config import BuildConfig
from pipeline.core.errors import PipelineError, Report
from pipeline.core.printing import PrintOptions
from pipeline.data.specs import CardDeck
from pipeline.kinds.files import entry, paper_line, png, suffix, template_ref

FOLDOVER_FOLDER = "pli"     # pnp-<paper>/pli/<name>-pli.pdf: the fold-over twins of duplex card files

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


def deck_foldover(game, laid, config: BuildConfig, paper: str) -> list[dict]:
    """The fold-over twin of a deck's own duplex file on `paper` (pnp-<paper>/<deck>.pdf)."""
    deck, (fronts, backs) = laid.component, laid.faces
    options = _options(deck, config, paper, backs, game, laid.ink)
    path = config.output / game.id / f"pnp-{paper}" / f"{deck.id}{suffix(laid)}.pdf"
    return write_foldover(config, path, fronts, backs, options, deck, cards=len(fronts), size_mm=list(deck.size_mm))


def write_foldover(config: BuildConfig, duplex_path, fronts, backs, options: PrintOptions, component,
                   **fields) -> list[dict]:
    """The fold-over twin of the duplex card file at `duplex_path` (standard ink only), with its report entry;
    nothing when the file is not duplex or no fold-over sheet of its paper takes its cards."""
    from pipeline.render.sheets.imposition import plan_pnp, write_pnp

    if backs is None or options.backs != "duplex" or options.ink_saver:
        return []
    folded = replace(options, backs="foldover", back_offset_mm=(0.0, 0.0))
    path = duplex_path.parent / FOLDOVER_FOLDER / f"{duplex_path.stem}-pli.pdf"
    try:
        plan = plan_pnp(fronts, backs, folded, str(path.relative_to(config.root)))
    except PipelineError:
        return []
    buffer = io.BytesIO()
    info = write_pnp(buffer, fronts, backs, folded, plan)
    fields = {"kind": "cards", **fields}
    return [entry(config, path, buffer.getvalue(), component, info, format="pnp", paper=str(options.paper),
                  ink_saver=False, backs_mode="foldover", foldover_of=str(duplex_path.relative_to(config.root)),
                  **fields)]


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
    group = {"group": spec.group, "group_title": spec.group_title or spec.group} if spec.group else {}
    return {"kind": NAME, "count": len(spec.fronts), "size_mm": list(spec.size_mm), "backs": spec.backs is not None,
            **group}


def how_to_print(entry: dict) -> str:
    sided = {"duplex": "double-sided, flip on the long edge", "foldover": "single-sided, fold along the line",
             "none": "single-sided"}.get(entry.get("backs_mode", "none"), "")
    line = f"{paper_line(entry)}, {sided}; cut along the marks"
    if entry.get("fold_pairs"):
        line += "; fold each two-sided token on its dashed line and glue"
    if entry.get("foldover_of"):
        line += f" (the fold-over twin of {entry['foldover_of']}: print it instead when the backs land off)"
    if entry.get("pooled"):
        line += f" (all of {', '.join(entry['members'])} on shared sheets: print this rather than their own files)"
    return line
