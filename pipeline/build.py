"""discover → load → validate (stages 1–6, pipeline/validate.py) → lay out every face → write. Reads top to
bottom.

Nothing is written unless every requested game passed every stage, template layout included (a text
that overflows at the minimum size, or a rulebook chapter naming an unknown figure, is a validation problem
found before any file is touched). Once every game's files are written, whatever else its output folder
holds is removed (pipeline/core/output.py `remove_stale`): output/<game>/ is what this build made, listed in
report.json.

Incremental (pipeline/cache/): a face, a component's files, its sheet plans and the paper bill's ink measure
come from the cache (.pnp-cache/, pipeline/cache/location.py) when everything they are made from is unchanged,
so a rebuild lays out and draws only what an edit touched; the files are the bytes a clean build makes.
`--no-cache` (config.cache False) neither reads nor writes it.

`--only` (config.only): the named components are built; every other one keeps its files only if the cache
proves them current (every face and file found under the current inputs' keys), else it has no file this
build. The game's pooled sheets are written only when all its card decks are there. So output/<game>/ still
holds only files the current inputs make, and report.json lists each of them.
"""

from __future__ import annotations

import functools
import io
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

from pipeline.cache import BuildCache, BuildStats
from pipeline.cache.location import remove_old_cache
from pipeline.core.config import BuildConfig
from pipeline.core.edition import card_id, short_ids, version_of
from pipeline.core.errors import PipelineError, Report
from pipeline.core.output import failing, file_list, record, recording, remove_leftovers, remove_stale
from pipeline.core.write_failures import problems as write_problems
from pipeline.core.pool import run_all
from pipeline.core.progress import Progress
from pipeline.data.specs import CardDeck, Component, GameModule, Records
from pipeline.games import load_game
from pipeline.guide.ids import write_ids
from pipeline.kinds import exports
from pipeline.kinds.steps import Done, isolated, run_step, steps_of
from pipeline.kinds.prepare import FaceCount, Laid, NotCached, check_bleed, has_ink_variant, identified, lay_out, plan
from pipeline.render.faces.edition_mark import Edition
from pipeline.render.fonts import default_fonts
from pipeline.data.meta import with_game_facts
from pipeline.validate import validate_game

__all__ = ["BuildStats", "PreparedGame", "Progress", "UnknownComponent", "build", "prepare", "validate"]


class UnknownComponent(ValueError):
    """--only names a component no requested game has (a usage mistake: the message lists the ids)."""


@dataclass
class PreparedGame:
    game: GameModule
    records: Records
    components: list[Component]
    laid: list[Laid] = field(default_factory=list)
    summary: list[str] = field(default_factory=list)
    play: object | None = None               # stage 6 SimulationResult, when the game has an engine
    guide: object | None = None              # the print guide's own data (guide/data.py GameGuide), read before writing
    cache: BuildCache | None = None
    edition: Edition | None = None           # what its edition marks say; None: a build without marks
    edition_file: dict | None = None         # report.json's "edition": version, every card's id, ids.md

    @property
    def decks(self) -> list[CardDeck]:
        return [c for c in self.components if isinstance(c, CardDeck)]


def prepare(config: BuildConfig, report: Report, progress: Progress, ink_variants: tuple[bool, ...] = (False,),
            stats: BuildStats | None = None, cached: bool = False) -> list[PreparedGame]:
    """Validate every requested game (stages 1–6) and lay out all its faces (from the cache when `cached`);
    problems go to `report`."""
    from pipeline.guide.data import read_game_guide

    prepared = []
    for name in config.games:
        try:
            game = load_game(name, config.root)
        except PipelineError as exc:
            report.extend(exc.problems)
            continue
        cache = BuildCache(config.root, game.template_dir) if cached else None
        records, play = validate_game(game, config.root, report, progress, cache)
        if records is None:
            continue
        game = with_game_facts(game, records)                   # the designers its workbook names
        prepared.append(PreparedGame(game, records, game.components(records), summary=game.summary(records),
                                     play=play, guide=read_game_guide(game.template_dir, config.root, report),
                                     cache=cache))
        prepared[-1].edition = edition_of(game, prepared[-1].components, config)
    _check_only(config, prepared)
    for item in prepared:
        _lay_out_all(item, config, ink_variants, report, progress, stats if stats is not None else BuildStats())
    return prepared


def edition_of(game: GameModule, components: list[Component], config: BuildConfig) -> Edition | None:
    """The game's edition marks: its title, the version (--version, else pipeline/core/edition.py version_of) and
    the short data id of every marked face, shortened over the whole game; None with --no-mark."""
    if not getattr(config, "mark", True):
        return None
    version = getattr(config, "version", None) or version_of(game.version, config.root)
    full = [card_id(face.context) for component in components for face in identified(component)]
    return Edition(game.title, version, short_ids(full))


def _check_only(config: BuildConfig, prepared: list[PreparedGame]) -> None:
    known = list(dict.fromkeys(c.id for item in prepared for c in item.components))
    unknown = [name for name in getattr(config, "only", ()) if name not in known]
    if unknown and prepared:
        raise UnknownComponent(f"unknown component {', '.join(map(repr, unknown))} for --only "
                               f"(components: {', '.join(known)})")


def _lay_out_all(item: PreparedGame, config: BuildConfig, ink_variants: tuple[bool, ...], report: Report,
                 progress: Progress, stats: BuildStats) -> None:
    """Every face of every component laid out, per ink variant; the sheets planned once per component."""
    from pipeline.render.faces.renderer import FaceRenderer

    only = getattr(config, "only", ())
    plans: dict[int, dict] = {}
    for ink in ink_variants:
        fonts = default_fonts().with_game_fonts(item.game.template_dir, config.root)
        renderer = FaceRenderer(config.root, item.game.template_dir, fonts, ink_saver=ink)
        for index, component in enumerate(item.components):
            if ink and not has_ink_variant(component):
                continue
            part, count, start = stats.of(item.game.id, component.id), FaceCount(), time.perf_counter()
            chosen = not only or component.id in only
            try:
                laid = lay_out(renderer, component, ink, report, progress, item.cache, chosen, count, item.edition,
                               config.jobs)
                laid.chosen = chosen
                item.laid.append(laid)
                if index in plans:
                    laid.plans = plans[index]
                    continue
                check_bleed(renderer, component, report, item.cache)
                plan(item.game, laid, config, report, item.cache)
                plans[index] = laid.plans
            except NotCached:
                part.built = False
            finally:
                part.faces += count.faces
                part.faces_laid_out += count.laid_out
                part.seconds += time.perf_counter() - start


def validate(config: BuildConfig, progress: Progress | None = None, keep: bool = False
             ) -> tuple[Report, list[PreparedGame]]:
    """Stages 1–6 and every face laid out, as a build does, writing nothing: what the cache holds from the
    last build is used (a face, a parsed workbook, stage 6's games), nothing is added to it, unless `keep`
    (a release validating in its own scratch project, for the build that follows) and validation passed."""
    report = Report()
    prepared = prepare(config, report, progress or Progress(), cached=True)
    if keep and not report.failed(config.strict) and len(prepared) == len(config.games):
        for item in prepared:
            item.cache.flush()
    return report, prepared


def build(config: BuildConfig, progress: Progress | None = None, stats: BuildStats | None = None
          ) -> tuple[Report, list[str]]:
    """Validate then write; returns the report and the ids of the games written (none on failure).

    `stats` (a pipeline.cache.BuildStats), when given, is filled with what this build did, per game and
    component: stats.games["nba"]["players"] is a ComponentStats with `faces` (how many the component has,
    both ink variants), `faces_laid_out` (of those, laid out anew: not in the cache), `files_written`
    (drawn anew), `files_reused` (kept: already on disk as the cache says), `seconds` (layout and writing) and `built`
    (False: left out by --only with no current files). A game's pooled sheets count as component "pooled".
    A file the system refuses (open in a viewer, a read-only folder, a full disk: pipeline/core/write_failures.py)
    is one error line; everything else is written, the old file is kept with the rest of its game's folder
    and its report, its step is not cached, and the game is not among those returned.
    Raises UnknownComponent when config.only names no component of the requested games."""
    progress = progress or Progress()
    stats = stats if stats is not None else BuildStats()
    report = Report()
    variants = (False, True) if config.ink_saver else (False,)
    prepared = prepare(config, report, progress, variants, stats, cached=config.cache)
    for item in prepared:
        report.extend(exports.refusals(item.game.id, item.laid, item.edition, config))   # before anything is written
    if report.failed(config.strict) or len(prepared) != len(config.games):
        return report, []
    remove_leftovers(config.output, [config.output / item.game.id for item in prepared]
                     + [config.output / "calibration"])         # temporaries of a build that was killed
    remove_old_cache(config.root)                               # output/.cache of pnp before issue 33
    with failing() as refused_writes:                           # what the system will not let us write
        calibration = write_calibration_sheets(config)
    for item in prepared:
        if item.cache:
            item.cache.flush()                                  # what validation laid out, for next time
    done = _write_steps(prepared, config, progress, stats)
    exports.tell(done, report)
    for item in prepared:
        done[item.game.id].append(isolated(item.cache, functools.partial(_write_ids, item, config), config.output))
    done = _add_reports(prepared, done, config, report, calibration)
    written, whole = {}, []
    for item in prepared:
        with recording() as written[item.game.id]:
            for result in done[item.game.id]:
                for path, digest in result.files.items():
                    record(path, digest)
                if item.cache:
                    item.cache.absorb(result.puts)
        if item.cache:
            item.cache.flush()                                  # the write steps' and the ink measures'
        failed = [failure for result in done[item.game.id] for failure in result.failed]
        refused_writes += failed
        if not failed:
            whole.append(item.game.id)
    refused: list[tuple[Path, str]] = []
    for game_id in whole:                                       # every game written: now what is left over
        remove_stale(config.output / game_id, written[game_id], refused=refused)
    for path, reason in refused:
        report.warning(str(path.relative_to(config.root)) if path.is_relative_to(config.root) else str(path),
                       f"a file of an earlier build could not be removed ({reason}): delete it by hand", "output")
    report.extend(write_problems(refused_writes, config.root))  # one line per file or folder, exit 1
    if prepared and prepared[0].cache:
        prepared[0].cache.prune()
    return report, whole


def _write_steps(prepared: list[PreparedGame], config: BuildConfig, progress: Progress,
                 stats: BuildStats) -> dict[str, list[Done]]:
    """Every game's write steps (pipeline/kinds/steps.py), by game, in report order: those the cache holds
    kept here, those to draw spread over `config.jobs` processes, the longest first. Interrupted (Ctrl-C,
    SIGTERM) or failed, the workers are stopped and what they left under output/ removed before it goes on."""
    steps = [step for item in prepared for step in steps_of(item.game, item.laid, len(item.decks), config,
                                                             item.cache, item.edition)]
    drawn = [i for i, step in enumerate(steps) if step.found is None and any(one.chosen for one in step.made_of)]
    kept = set(range(len(steps))).difference(drawn)
    results = {i: run_step(steps[i], config) for i in sorted(kept)}
    progress.start(f"{', '.join(item.game.id for item in prepared)}: drawing", len(drawn))
    try:
        from pipeline.guide.report import measure_written

        order = sorted(range(len(drawn)), key=lambda n: -steps[drawn[n]].weight)
        measures = {item.game.id: functools.partial(measure_written, item.cache, root=config.root,
                                                    terms=item.guide.glossary if item.guide else ())
                    for item in prepared}
        found = run_all([functools.partial(run_step, steps[i], config, measures[steps[i].game.id]) for i in drawn],
                        config.jobs, done=lambda _: progress.advance(), order=order)
    except BaseException:
        remove_leftovers(config.output, [config.output / item.game.id for item in prepared])
        raise
    results.update(zip(drawn, found))
    by_game: dict[str, list[Done]] = {item.game.id: [] for item in prepared}
    for i, step in enumerate(steps):
        stats.of(step.game.id, step.name).add(results[i].stats)
        if step.cache:                  # handed over now: the reports drawn next read the steps' measures
            step.cache.absorb(results[i].puts)
        by_game[step.game.id].append(replace(results[i], puts={}))
    return by_game


def _write_ids(item: PreparedGame, config: BuildConfig) -> list[dict]:
    """ids.md (no report entry: report.json's "edition" lists it)."""
    item.edition_file = write_ids(item.game, item.components, item.edition, config.output, config.root)
    return []


def _add_reports(prepared: list[PreparedGame], done: dict[str, list[Done]], config: BuildConfig, report: Report,
                 calibration: list[str]) -> dict[str, list[Done]]:
    """Each game's report and print guides (pipeline/guide/report.py: the paper bill measures the ink of
    every file), the games side by side over `config.jobs` processes, each added after the game's steps."""
    from pipeline.guide.report import write_game_report

    def one(item: PreparedGame) -> Done:
        if any(result.failed for result in done[item.game.id]):
            return Done(None, {})       # a file is missing or old: the game's old report stays, the build fails
        outputs = [entry for result in done[item.game.id] for entry in result.entries or []]
        written = {path: digest for result in done[item.game.id] for path, digest in result.files.items()}
        _list_images(outputs, written, config.root)
        return isolated(item.cache, lambda: write_game_report(item, config, report, outputs, calibration,
                                                              cache=item.cache), config.output)

    reports = run_all([functools.partial(one, item) for item in prepared], config.jobs)
    return {item.game.id: [*done[item.game.id], made] for item, made in zip(prepared, reports)}


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
    from pipeline.core.output import atomic_write
    from pipeline.render.sheets.calibration import write_calibration

    written = []
    for path in calibration_paths(config):
        buffer = io.BytesIO()
        write_calibration(buffer, path.stem.removeprefix("pnp-"))
        atomic_write(path, buffer.getvalue())
        written.append(str(path.relative_to(config.root)))
    return written
