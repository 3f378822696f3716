"""discover → load → validate → lay out every face → write. Reads top to bottom.

Nothing is written unless every requested game passed every stage, template layout included (a text
that overflows at the minimum size is a validation problem, found before any file is touched).
"""

from __future__ import annotations

import io
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.config import BuildConfig
from pipeline.errors import PipelineError, Report
from pipeline.games import load_game
from pipeline.games.base import CardDeck, GameModule, Records
from pipeline.output import atomic_write
from pipeline.render.fonts import default_fonts
from pipeline.validate import load_records


class Progress:
    """What long work reports; the CLI shows it with rich, tests ignore it."""

    def start(self, description: str, total: int) -> None: ...
    def advance(self, steps: int = 1) -> None: ...


@dataclass
class PreparedGame:
    game: GameModule
    records: Records
    decks: list[CardDeck]
    faces: dict[tuple[str, bool], tuple[list, list | None]] = field(default_factory=dict)  # (deck, ink) -> layouts
    summary: list[str] = field(default_factory=list)


def prepare(config: BuildConfig, report: Report, progress: Progress, ink_variants: tuple[bool, ...] = (False,)
            ) -> list[PreparedGame]:
    """Validate every requested game and lay out all its faces; problems go to `report`."""
    prepared = []
    for name in config.games:
        try:
            game = load_game(name, config.root)
        except PipelineError as exc:
            report.extend(exc.problems)
            continue
        records = load_records(game, config.root, report)
        if records is None:
            continue
        item = PreparedGame(game, records, game.components(records), summary=game.summary(records))
        for ink in ink_variants:
            _lay_out(item, config, ink, report, progress)
        prepared.append(item)
    return prepared


def _lay_out(item: PreparedGame, config: BuildConfig, ink: bool, report: Report, progress: Progress) -> None:
    from pipeline.render.faces import FaceRenderer

    renderer = FaceRenderer(config.root, item.game.template_dir, default_fonts(), ink_saver=ink)
    for deck in item.decks:
        progress.start(f"{item.game.id}: layout {deck.id}{' (ink saver)' if ink else ''}", len(deck.fronts))
        repeats: dict[tuple, list] = {}
        fronts = []
        for face in deck.fronts:
            fronts.append(_layout_one(renderer, face, repeats))
            progress.advance()
        backs = [_layout_one(renderer, face, repeats) for face in deck.backs] if deck.backs else None
        item.faces[(deck.id, ink)] = (fronts, backs)
        report.extend(_collapse(repeats))


def _layout_one(renderer, face, repeats: dict[tuple, list]):
    layout, problems = renderer.layout(face.template, face.context, face.ref, face.label or face.name, face.data_dir)
    for problem in problems:
        # A template mistake shows on every card drawn with it: one line, with a count, is the problem.
        # Data-dependent problems (a text that overflows on one card) stay one line per card.
        what = problem.message.split("): ", 1)[-1].split(" (data: ")[0] if problem.rule == "template" else problem
        repeats.setdefault((str(problem.where), problem.rule, what), []).append(problem)
    return layout


def _collapse(repeats: dict[tuple, list]) -> list:
    from dataclasses import replace

    collapsed = []
    for same in repeats.values():
        first = same[0]
        if len(same) > 1:
            first = replace(first, message=f"{first.message} (and {len(same) - 1} more card(s))")
        collapsed.append(first)
    return collapsed


def validate(config: BuildConfig, progress: Progress | None = None) -> tuple[Report, list[PreparedGame]]:
    report = Report()
    prepared = prepare(config, report, progress or Progress())
    return report, prepared


def build(config: BuildConfig, progress: Progress | None = None) -> tuple[Report, list[str]]:
    """Validate then write; returns the report and the ids of the games written (none on failure)."""
    progress = progress or Progress()
    report = Report()
    variants = (False, True) if config.ink_saver else (False,)
    prepared = prepare(config, report, progress, variants)
    if report.failed(config.strict) or len(prepared) != len(config.games):
        return report, []
    from pipeline.report import write_game_report

    for item in prepared:
        outputs = _write_game(item, config, progress)
        write_game_report(item, config, report, outputs)
    return report, [item.game.id for item in prepared]


def _write_game(item: PreparedGame, config: BuildConfig, progress: Progress) -> list[dict]:
    from pipeline.render.imposition import SheetOptions, write_pnp

    out = config.output / item.game.id
    written = []
    for deck in item.decks:
        for ink in sorted({ink for (_, ink) in item.faces}):
            fronts, backs = item.faces[(deck.id, ink)]
            suffix = "-ink-saver" if ink else ""
            if "pnp" in config.formats:
                for paper in config.papers:
                    progress.start(f"{item.game.id}: {deck.id} {paper}{suffix}", 1)
                    options = SheetOptions(paper=paper, backs_mode=config.backs if backs else "none",
                                           back_offset_mm=config.back_offset_mm, game_title=item.game.title,
                                           component_title=deck.title, ink_saver=ink, keep_bleed=deck.keep_bleed)
                    buffer = io.BytesIO()
                    info = write_pnp(buffer, fronts, backs, options)
                    path = out / f"pnp-{paper}" / f"{deck.id}{suffix}.pdf"
                    digest = atomic_write(path, buffer.getvalue())
                    written.append({"component": deck.id, "title": deck.title, "format": "pnp", "paper": paper,
                                    "ink_saver": ink, "backs_mode": options.backs_mode,
                                    "path": str(path.relative_to(config.root)), "sha256": digest,
                                    **_plain(info)})
                    progress.advance()
            if not ink and ({"print", "png"} & set(config.formats)):
                written.extend(_write_print(item, deck, fronts, backs, config, progress))
    return written


def _unique_backs(deck: CardDeck, backs: list | None) -> list[tuple[str, object]]:
    seen, unique = set(), []
    for spec, layout in zip(deck.backs or (), backs or ()):
        if layout.key not in seen:
            seen.add(layout.key)
            unique.append((spec.template.removesuffix(".yaml"), layout))
    return unique


def _write_print(item: PreparedGame, deck: CardDeck, fronts: list, backs: list | None, config: BuildConfig,
                 progress: Progress) -> list[dict]:
    from pipeline.render.imposition import write_png, write_print

    out = config.output / item.game.id
    backs_once = _unique_backs(deck, backs)
    faces = fronts + [layout for _, layout in backs_once]
    names = [spec.name for spec in deck.fronts] + [name for name, _ in backs_once]
    progress.start(f"{item.game.id}: {deck.id} print", 1)
    buffer = io.BytesIO()
    info = write_print(buffer, faces, f"{item.game.title} — {deck.title}")
    written = []
    if "print" in config.formats:
        path = out / "print" / f"{deck.id}.pdf"
        digest = atomic_write(path, buffer.getvalue())
        written.append({"component": deck.id, "title": deck.title, "format": "print",
                        "path": str(path.relative_to(config.root)), "sha256": digest,
                        "fronts": len(fronts), "backs": len(backs_once), **_plain(info)})
    if "png" in config.formats:
        with tempfile.TemporaryDirectory() as temp:
            source = Path(temp) / "print.pdf"
            source.write_bytes(buffer.getvalue())
            files = write_png(source, out / "png" / deck.id, names)
        written.append({"component": deck.id, "title": deck.title, "format": "png",
                        "path": str((out / "png" / deck.id).relative_to(config.root)), "images": len(files)})
    progress.advance()
    return written


def _plain(info: dict) -> dict:
    return {k: (list(v) if isinstance(v, tuple) else v) for k, v in (info or {}).items()
            if isinstance(v, (int, float, str, bool, tuple, list))}
