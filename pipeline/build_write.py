"""Write the laid-out components: one writer per kind. Each returns the entries of the build report: the
file, its pages, and how to print and cut it (the report's components page is made from them)."""

from __future__ import annotations

import io
import tempfile
from pathlib import Path

from pipeline.config import BuildConfig
from pipeline.games.base import BoardSpec, CardDeck, DiceSpec, PageSpec, RulebookSpec
from pipeline.output import atomic_write


def write_component(game, laid, config: BuildConfig, progress) -> list[dict]:
    component = laid.component
    writer = {CardDeck: _cards, BoardSpec: _board, PageSpec: _pages, DiceSpec: _dice,
              RulebookSpec: _rulebook}[type(component)]
    return writer(game, laid, config, progress)


def _entry(config: BuildConfig, path: Path, data: bytes, component, info: dict, **fields) -> dict:
    """Write the file; its report entry = what the writer measured (info), then our fields."""
    digest = atomic_write(path, data)
    return {**_plain(info), "component": component.id, "title": component.title,
            "path": str(path.relative_to(config.root)), "sha256": digest, "copies": getattr(component, "copies", 1),
            **fields}


def _suffix(laid) -> str:
    return "-ink-saver" if laid.ink else ""


def _cards(game, laid, config: BuildConfig, progress) -> list[dict]:
    from pipeline.render.imposition import SheetOptions, write_pnp

    deck, (fronts, backs) = laid.component, laid.faces
    out, written = config.output / game.id, []
    if "pnp" in config.formats:
        for paper in config.papers:
            progress.start(f"{game.id}: {deck.id} {paper}{_suffix(laid)}", 1)
            options = SheetOptions(paper=paper, backs_mode=config.backs if backs else "none",
                                   back_offset_mm=config.back_offset_mm, game_title=game.title,
                                   component_title=deck.title, ink_saver=laid.ink, keep_bleed=deck.keep_bleed)
            buffer = io.BytesIO()
            info = write_pnp(buffer, fronts, backs, options)
            path = out / f"pnp-{paper}" / f"{deck.id}{_suffix(laid)}.pdf"
            written.append(_entry(config, path, buffer.getvalue(), deck, info, kind="cards", format="pnp", paper=paper,
                                  ink_saver=laid.ink, backs_mode=options.backs_mode, cards=len(fronts),
                                  size_mm=list(deck.size_mm)))
            progress.advance()
    if not laid.ink and {"print", "png"} & set(config.formats):
        written.extend(_cards_print(game, laid, config, progress))
    return written


def _unique_backs(deck: CardDeck, backs: list | None) -> list[tuple[str, object]]:
    seen, unique = set(), []
    for spec, layout in zip(deck.backs or (), backs or ()):
        if layout.key not in seen:
            seen.add(layout.key)
            unique.append((spec.template.removesuffix(".yaml"), layout))
    return unique


def _cards_print(game, laid, config: BuildConfig, progress) -> list[dict]:
    from pipeline.render.imposition import write_print

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
        written.append(_entry(config, path, buffer.getvalue(), deck, info, kind="cards", format="print",
                              fronts=len(fronts), backs=len(backs_once)))
    if "png" in config.formats:
        written.append(_png(config, game, deck, buffer.getvalue(), names))
    progress.advance()
    return written


def _png(config: BuildConfig, game, component, pdf: bytes, names: list[str]) -> dict:
    from pipeline.render.imposition import write_png

    folder = config.output / game.id / "png" / component.id
    with tempfile.TemporaryDirectory() as temp:
        source = Path(temp) / "print.pdf"
        source.write_bytes(pdf)
        files = write_png(source, folder, names)
    return {"component": component.id, "title": component.title, "kind": "png", "format": "png",
            "path": str(folder.relative_to(config.root)), "images": len(files)}


def _board(game, laid, config: BuildConfig, progress) -> list[dict]:
    from pipeline.render.tiling import TileOptions, write_board_pnp, write_board_print

    board, face = laid.component, laid.faces
    out, written = config.output / game.id, []
    progress.start(f"{game.id}: {board.id}{_suffix(laid)}", 1)
    if "pnp" in config.formats:
        for paper in config.papers:
            buffer = io.BytesIO()
            info = write_board_pnp(buffer, face, TileOptions(paper=paper, game_title=game.title,
                                                             component_title=board.title, ink_saver=laid.ink))
            path = out / f"pnp-{paper}" / f"{board.id}{_suffix(laid)}.pdf"
            written.append(_entry(config, path, buffer.getvalue(), board, info, kind="board", format="pnp",
                                  paper=paper, ink_saver=laid.ink, size_mm=list(board.size_mm)))
    if not laid.ink and {"print", "png"} & set(config.formats):
        buffer = io.BytesIO()
        info = write_board_print(buffer, face, f"{game.title} — {board.title}")
        if "print" in config.formats:
            path = out / "print" / f"{board.id}.pdf"
            written.append(_entry(config, path, buffer.getvalue(), board, info, kind="board", format="print",
                                  size_mm=list(board.size_mm)))
        if "png" in config.formats:
            written.append(_png(config, game, board, buffer.getvalue(), [board.id]))
    progress.advance()
    return written


def _per_paper(game, spec, config: BuildConfig, progress, kind: str, write) -> list[dict]:
    """Home-printing files that are neither card sheets nor boards: one per paper, `write(buffer, paper)`."""
    written = []
    if "pnp" in config.formats:
        progress.start(f"{game.id}: {spec.id}", 1)
        for paper in config.papers:
            buffer = io.BytesIO()
            info = write(buffer, paper)
            path = config.output / game.id / f"pnp-{paper}" / f"{spec.id}.pdf"
            written.append(_entry(config, path, buffer.getvalue(), spec, info, kind=kind, format="pnp", paper=paper))
        progress.advance()
    return written


def _pages(game, laid, config: BuildConfig, progress) -> list[dict]:
    from pipeline.render.pages import PageOptions, write_pages

    spec = laid.component
    return _per_paper(game, spec, config, progress, "pages", lambda buffer, paper: write_pages(
        buffer, laid.faces, PageOptions(paper=paper, game_title=game.title, component_title=spec.title)))


def _dice(game, laid, config: BuildConfig, progress) -> list[dict]:
    """<id>-nets.pdf and <id>-stickers.pdf per paper; with print/png, every distinct face once."""
    from pipeline.render.dice import DiceOptions, write_nets, write_stickers

    spec, laid_dice = laid.component, laid.faces
    out, written = config.output / game.id, []
    dice = sum(die.count for die in spec.dice)
    if "pnp" in config.formats:
        progress.start(f"{game.id}: {spec.id}", len(config.papers))
        for paper in config.papers:
            nets, stickers = laid_dice.plans[paper]
            options = DiceOptions(paper=paper, game_title=game.title, component_title=spec.title)
            for part, write, plan, fields in (
                    ("nets", write_nets, nets, {"dice": dice, "face_mm": spec.face_mm}),
                    ("stickers", write_stickers, stickers, {"dice": dice, "sticker_mm": spec.sticker_mm})):
                buffer = io.BytesIO()
                info = write(buffer, laid_dice.dice, plan, options)
                path = out / f"pnp-{paper}" / f"{spec.id}-{part}.pdf"
                written.append(_entry(config, path, buffer.getvalue(), spec, info, kind=f"dice-{part}",
                                      format="pnp", paper=paper, **fields))
            progress.advance()
    if "png" in config.formats:
        written.append(_dice_png(game, laid, config, progress))
    return written


def _dice_png(game, laid, config: BuildConfig, progress) -> dict:
    """Each die's six faces once, as PNGs with bleed (png/<id>/<die>-<face>.png). Dice have no print-service
    file: the nets and stickers are what a print shop would print."""
    from pipeline.render.dice import unique_faces
    from pipeline.render.imposition import write_print

    spec = laid.component
    faces, names = unique_faces(laid.faces.dice, laid.faces.names)
    progress.start(f"{game.id}: {spec.id} png", 1)
    buffer = io.BytesIO()
    write_print(buffer, faces, f"{game.title} — {spec.title}")
    entry = _png(config, game, spec, buffer.getvalue(), names)
    progress.advance()
    return entry


def _rulebook(game, laid, config: BuildConfig, progress) -> list[dict]:
    from pipeline.render.fonts import default_fonts
    from pipeline.render.rulebook import RulebookOptions, write_rulebook

    spec = laid.component
    return _per_paper(game, spec, config, progress, "rulebook", lambda buffer, paper: write_rulebook(
        buffer, game.template_dir / spec.source, spec.context, laid.faces,
        RulebookOptions(paper=paper, game_title=game.title, fonts=default_fonts()), config.root))


def _plain(info: dict) -> dict:
    return {k: (list(v) if isinstance(v, tuple) else v) for k, v in (info or {}).items()
            if isinstance(v, (int, float, str, bool, tuple, list))}
