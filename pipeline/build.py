"""discover → load → validate (stages 1–6, pipeline/validate.py) → lay out every face → write. Reads top to
bottom.

Nothing is written unless every requested game passed every stage, template layout included (a text
that overflows at the minimum size, or a rulebook chapter naming an unknown figure, is a validation problem
found before any file is touched). Once every game's files are written, whatever else its output folder
holds is removed (pipeline/output.py `remove_stale`): output/<game>/ is what this build made, listed in
report.json.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.build_layout import Laid, check_bleed, has_ink_variant, lay_out, plan
from pipeline.config import BuildConfig
from pipeline.errors import PipelineError, Report
from pipeline.games import load_game
from pipeline.games.base import CardDeck, Component, GameModule, Records
from pipeline.output import file_list, recording, remove_leftovers, remove_stale
from pipeline.progress import Progress
from pipeline.render.fonts import default_fonts
from pipeline.validate import validate_game

__all__ = ["PreparedGame", "Progress", "build", "prepare", "validate"]


@dataclass
class PreparedGame:
    game: GameModule
    records: Records
    components: list[Component]
    laid: list[Laid] = field(default_factory=list)
    summary: list[str] = field(default_factory=list)
    play: object | None = None               # stage 6 SimulationResult, when the game has an engine
    guide: object | None = None              # the print guide's own data (guide_data.GameGuide), read before writing

    @property
    def decks(self) -> list[CardDeck]:
        return [c for c in self.components if isinstance(c, CardDeck)]


def prepare(config: BuildConfig, report: Report, progress: Progress, ink_variants: tuple[bool, ...] = (False,)
            ) -> list[PreparedGame]:
    """Validate every requested game (stages 1–6) and lay out all its faces; problems go to `report`."""
    prepared = []
    for name in config.games:
        try:
            game = load_game(name, config.root)
        except PipelineError as exc:
            report.extend(exc.problems)
            continue
        records, play = validate_game(game, config.root, report, progress)
        if records is None:
            continue
        from pipeline.guide_data import read_game_guide

        item = PreparedGame(game, records, game.components(records), summary=game.summary(records), play=play,
                            guide=read_game_guide(game.template_dir, config.root, report))   # --strict: before writing
        _lay_out_all(item, config, ink_variants, report, progress)
        prepared.append(item)
    return prepared


def _lay_out_all(item: PreparedGame, config: BuildConfig, ink_variants: tuple[bool, ...], report: Report,
                 progress: Progress) -> None:
    """Every face of every component laid out, per ink variant; the sheets planned once per component."""
    from pipeline.render.faces import FaceRenderer

    plans: dict[int, dict] = {}
    for ink in ink_variants:
        fonts = default_fonts().with_game_fonts(item.game.template_dir, config.root)
        renderer = FaceRenderer(config.root, item.game.template_dir, fonts, ink_saver=ink)
        for index, component in enumerate(item.components):
            if ink and not has_ink_variant(component):
                continue
            laid = lay_out(renderer, component, ink, report, progress)
            item.laid.append(laid)
            if index in plans:
                laid.plans = plans[index]
                continue
            check_bleed(renderer, component, report)
            plan(item.game, laid, config, report)
            plans[index] = laid.plans


def validate(config: BuildConfig, progress: Progress | None = None) -> tuple[Report, list[PreparedGame]]:
    report = Report()
    prepared = prepare(config, report, progress or Progress())
    return report, prepared


def build(config: BuildConfig, progress: Progress | None = None) -> tuple[Report, list[str]]:
    """Validate then write; returns the report and the ids of the games written (none on failure)."""
    from pipeline.report import write_game_report

    progress = progress or Progress()
    report = Report()
    variants = (False, True) if config.ink_saver else (False,)
    prepared = prepare(config, report, progress, variants)
    if report.failed(config.strict) or len(prepared) != len(config.games):
        return report, []
    remove_leftovers(config.output, [config.output / item.game.id for item in prepared]
                     + [config.output / "calibration"])         # temporaries of a build that was killed
    calibration = write_calibration_sheets(config)
    written = {}
    for item in prepared:
        with recording() as written[item.game.id]:
            outputs = [entry for laid in item.laid for entry in _write(item.game, laid, config, progress)]
            _list_images(outputs, written[item.game.id], config.root)
            write_game_report(item, config, report, outputs, calibration)
    refused: list[tuple[Path, str]] = []
    for game_id, files in written.items():                      # every game written: now what is left over
        remove_stale(config.output / game_id, files, refused=refused)
    for path, reason in refused:
        report.warning(str(path.relative_to(config.root)) if path.is_relative_to(config.root) else str(path),
                       f"a file of an earlier build could not be removed ({reason}): delete it by hand", "output")
    return report, [item.game.id for item in prepared]


def _write(game: GameModule, laid: Laid, config: BuildConfig, progress: Progress) -> list[dict]:
    """One component's files (one ink variant), every PDF credited to the game (pipeline/render/pdf.py)."""
    from pipeline.kinds import kind_of
    from pipeline.render.pdf import credits

    with credits(game.credited_author, game.keywords, ink_saver=laid.ink):
        return kind_of(laid.component).write(game, laid, config, progress)


def _list_images(outputs: list[dict], written: dict[str, str], root: Path) -> None:
    """A PNG entry names a folder: it also lists the images written there, each with its sha256."""
    for entry in outputs:
        if entry.get("format") == "png" and "sha256" not in entry:
            entry["files"] = [{"path": f"{entry['path']}/{item['path']}", "sha256": item["sha256"]}
                              for item in file_list(written, root / entry["path"])]


def calibration_paths(config: BuildConfig) -> list[Path]:
    """output/calibration/pnp-<paper>.pdf for each paper of a duplex home-printing build."""
    if "pnp" not in config.formats or config.backs != "duplex":
        return []
    return [config.output / "calibration" / f"pnp-{paper}.pdf" for paper in config.papers]


def write_calibration_sheets(config: BuildConfig) -> list[str]:
    """The sheet that measures a printer's --back-offset, once per paper (shared by every game)."""
    from pipeline.output import atomic_write
    from pipeline.render.calibration import write_calibration

    written = []
    for path in calibration_paths(config):
        buffer = io.BytesIO()
        write_calibration(buffer, path.stem.removeprefix("pnp-"))
        atomic_write(path, buffer.getvalue())
        written.append(str(path.relative_to(config.root)))
    return written
