"""`pnp release`: a game's published edition in dist/<game>-<version>/, all or nothing. Reads top to bottom.

1. Every requested game is validated strictly (stages 1–6, template layout included: a warning refuses the
   release, except a workbook's recorded errata, errors.ACKNOWLEDGED) and plays its balance gates. Any problem
   of any game refuses the whole release, before anything is built: every problem is in the report.
2. Each game is built, every paper and format with the ink-saver sheets and its edition marks, into a copy of
   the project's inputs under dist/.pnp-tmp/ (pipeline/core/output.py scratch_folder): output/ is never read or
   touched, and the files are those a clean `pnp build` of the same inputs makes.
3. Its bundles are made there (pipeline/release/bundle.py: reproducible zips, SHA256SUMS) with CHANGES.md and
   the reprint sheets (pipeline/release/changes.py).
4. Only when every game is complete are the folders renamed into dist/, each replacing an earlier folder of
   the same name whole. Ctrl-C or SIGTERM on the way leaves dist/ as it was (the scratch folder goes; that of
   a release killed outright goes at the start of the next one).
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import shutil
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

from pipeline.core.config import BuildConfig, FORMATS, PAPERS
from pipeline.core.edition import version_of
from pipeline.core.errors import PipelineError, Report
from pipeline.core.pool import run_all
from pipeline.core.progress import Progress
from pipeline.data.specs import GameModule
from pipeline.games import available, load_game
from pipeline.play.gates import BALANCE_GAMES
from pipeline.release.bundle import (FILE_MODE, bundle_entries, loose_files, source_date_epoch, write_sha256sums,
                                    write_zip)
from pipeline.release.readme import PLACEHOLDER, tts_readme
from pipeline.release.changes import ReleaseChanges, compare_with, previous_tag, write_changes

DIST = "dist"
INPUTS = ("sheets", "templates", "fonts")           # what a build reads, with each game's data folders
_SAFE_VERSION = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,63}")


@dataclass(frozen=True)
class ReleaseRequest:
    root: Path
    games: tuple[str, ...]                  # empty: every game with a workbook (default_games)
    version: str | None = None              # --version; else each game's record, else `git describe --tags`
    mark: bool = True                       # the edition marks (--no-mark: final art files)
    balance_games: int = BALANCE_GAMES      # per player count the balance gates name
    executor: object | None = None          # where the balance games play (pipeline/play/executors.py)
    jobs: int = 1                           # processes that draw each build's files (pipeline/core/pool.py)
    base_url: str | None = None             # where the Tabletop Simulator images will be hosted (--base-url);
                                            # None: readme.PLACEHOLDER, which LISEZMOI.txt says how to replace


@dataclass
class Released:
    """One game's published folder, what it holds and the time its validation, build and bundles took."""

    game: GameModule
    version: str
    folder: Path                            # dist/<game>-<version> (its bare name until staged)
    files: list[Path] = field(default_factory=list)
    seconds: float = 0.0
    changes: ReleaseChanges | None = None


def default_games(root: Path) -> tuple[str, ...]:
    """The games a bare `pnp release` publishes: those whose data is a workbook. A data-only game fed by a
    CSV (benchdeck, the benchmark's reference deck) is released only when named."""
    chosen = []
    for name in available(root):
        try:
            game = load_game(name, root)
        except PipelineError:
            chosen.append(name)                 # its problem is reported when the release loads it
            continue
        if any(path.suffix.lower() == ".xlsx" for path in game.data_files):
            chosen.append(name)
    return tuple(chosen)


def version_problem(version: str) -> str | None:
    """Why `version` cannot name a release folder and its files (None: it can)."""
    if _SAFE_VERSION.fullmatch(version):
        return None
    return (f"version {version!r} cannot name a release folder: use at most 64 letters, digits and . _ + - "
            "(starting with a letter or digit)")


def refused(report: Report) -> bool:
    return report.failed(strict=True)


def release(request: ReleaseRequest, report: Report, progress: Progress | None = None,
            tell: Callable[[str], None] = lambda line: None) -> list[Released]:
    """Validate, build and bundle every requested game, then publish them in dist/ (none when `report` holds
    a problem that refuses the release: the report says which). `tell` hears each step as it ends."""
    from pipeline.core.output import remove_leftovers, scratch_folder

    progress = progress or Progress()
    epoch = source_date_epoch(request.root)
    remove_leftovers(request.root / DIST, [])           # the scratch folders of a release that was killed
    items = _load(request, report)
    if refused(report):
        return []
    dist = request.root / DIST
    made = not dist.exists()
    try:
        with scratch_folder(dist) as work:
            project = copy_inputs(request.root, [item.game for item in items], work / "project")
            _side_by_side(request, items, report, progress,
                          lambda asked, item, seen, shown: _check(asked, item, project, seen, shown, tell))
            if refused(report):
                return []
            previous = previous_tag(request.root)
            _side_by_side(request, items, report, progress, lambda asked, item, seen, shown: _make(
                asked, item, project, work, previous, epoch, seen, shown, tell), again=True)
            if refused(report):
                return []
            for index, item in enumerate(items):
                staged = item.folder
                try:
                    item.folder = publish(staged, dist, work / "replaced")
                except OSError as exc:          # Windows: a file of the earlier folder is open somewhere
                    _refused_write(exc, dist / staged.name, request.root, report, replacing=True)
                    return items[:index]        # those published before it, whole (the report has the error)
                item.files = [item.folder / path.relative_to(staged) for path in item.files]
        return items
    except OSError as exc:                      # a read-only dist/, a full disk: one line, dist/ as it was
        _refused_write(exc, exc.filename or dist, request.root, report)
        return []
    finally:
        if made:
            with contextlib.suppress(OSError):
                dist.rmdir()                            # only when empty: a refused first release leaves no dist/


def _refused_write(exc: OSError, path, root: Path, report: Report, replacing: bool = False) -> None:
    """A write the system refused (pipeline/core/write_failures.py) as its one line; any other error raised."""
    from pipeline.core.write_failures import ENVIRONMENT, failure_of, problems

    if exc.errno not in ENVIRONMENT:
        raise exc
    report.extend(problems([failure_of(exc, path, replacing)], root, again="release"))


def _side_by_side(request: ReleaseRequest, items: list[Released], report: Report, progress: Progress,
                  step: Callable[[ReleaseRequest, Released, Report, Progress], None], again: bool = False) -> None:
    """`step(request, item, problems, progress)` for every game, the games side by side over request.jobs
    processes (pipeline/core/pool.py), each building with one and playing its gates in one: a game's serial
    parts (validation, bundles, the comparison) overlap another's drawing. Each item gets back what its step
    made and the problems are added in game order (`again`: those already reported left out, as a build
    repeats its validation's warnings), so the release is the same whatever the jobs."""
    alone = request.jobs <= 1 or len(items) <= 1

    def one(item: Released) -> tuple[dict, list]:
        seen = Report()
        if alone:
            step(request, item, seen, progress)
        else:
            step(replace(request, jobs=1, executor=_one_worker(request.executor)), item, seen, Progress())
        made = {name: getattr(item, name) for name in ("files", "folder", "seconds", "changes")}
        if made["changes"] is not None:
            made["changes"] = replace(made["changes"], after=None)     # its game module stays where it ran
        return made, seen.problems

    order = sorted(range(len(items)), key=lambda i: -_weight(items[i]))     # the longest first balances the cores
    for item, (made, problems) in zip(items, run_all([functools.partial(one, item) for item in items],
                                                       1 if alone else request.jobs, order=order)):
        for name, value in made.items():
            setattr(item, name, value)
        report.extend(problem for problem in problems if not again or problem not in report.problems)


def _weight(item: Released) -> int:
    """A guess at what a game costs to check and build, known before either: the bytes of its data files (of
    the five games, NBA's workbook is the largest and the longest to build, Build It's the smallest and the
    shortest)."""
    total = 0
    for path in item.game.data_files:
        with contextlib.suppress(OSError):
            total += path.stat().st_size
    return total


def _one_worker(executor):
    """The balance games' executor inside one of several side-by-side games: this machine, one process."""
    from pipeline.play.executors import Local

    return Local(workers=1) if executor is None or isinstance(executor, Local) else executor


def _load(request: ReleaseRequest, report: Report) -> list[Released]:
    items = []
    for name in request.games or default_games(request.root):
        try:
            game = load_game(name, request.root)
        except PipelineError as exc:
            report.extend(exc.problems)
            continue
        version = version_of(getattr(game, "version", ""), request.root, request.version)
        why = version_problem(version)
        if why:
            report.error(f"{game.id} (version)", why, "release")
            continue
        items.append(Released(game, version, Path(f"{game.id}-{version}")))
    return items


def copy_inputs(root: Path, games: list[GameModule], target: Path) -> Path:
    """The project's inputs (sheets/, templates/, fonts/ and each game's data folders) copied into `target`, a
    project the release builds in, so that every path a build writes reads as it would in `root`."""
    folders = {root / name for name in INPUTS if (root / name).is_dir()}
    folders |= {path.parent for game in games for path in game.data_files if path.parent.is_relative_to(root)}
    for folder in sorted(folders):
        if any(folder.is_relative_to(other) and folder != other for other in folders):
            continue                                    # inside another copied folder
        shutil.copytree(folder, target / folder.relative_to(root), symlinks=True,
                        ignore=shutil.ignore_patterns("__pycache__", ".pnp-tmp"))
    return target


def _config(request: ReleaseRequest, item: Released, project: Path, **options) -> BuildConfig:
    return BuildConfig(root=project, games=(item.game.id,), mark=request.mark, version=item.version,
                       jobs=request.jobs, base_url=request.base_url or PLACEHOLDER, **options)


def _check(request: ReleaseRequest, item: Released, project: Path, report: Report, progress: Progress,
           tell: Callable[[str], None]) -> None:
    """Stages 1–6 with the template layout, then the balance gates; every problem goes to `report`."""
    from pipeline import build
    from pipeline.simulation import run as simulation

    start = time.perf_counter()
    found, prepared = build.validate(_config(request, item, project, strict=True), progress, keep=True)
    gates = [verdict for game in prepared for verdict in simulation.check_balance(
        game.game, game.records, project, found, request.balance_games, executor=request.executor,
        progress=progress)]
    report.extend(found.problems)
    item.seconds += time.perf_counter() - start
    tell(f"{item.game.id}: {'refused' if refused(found) else 'validated'}, {len(gates)} balance gate"
         f"{'s' if len(gates) != 1 else ''} played ({time.perf_counter() - start:.1f} s)")


def _make(request: ReleaseRequest, item: Released, project: Path, work: Path, previous: str | None, epoch: int,
          report: Report, progress: Progress, tell: Callable[[str], None]) -> None:
    """The game built in the release's project, its bundles, CHANGES.md, reprints and SHA256SUMS staged in
    work/staged/<game>-<version>/."""
    from pipeline import build

    start = time.perf_counter()
    config = _config(request, item, project, papers=PAPERS, formats=FORMATS, ink_saver=True)
    found, built = build.build(config, progress)    # strictness was judged above, with the errata acknowledged
    report.extend(problem for problem in found.problems if problem not in report.problems)
    if not built:
        return
    staged = work / "staged" / item.folder.name
    staged.mkdir(parents=True)
    _tts_readme(request, item, config)
    for name, entries in bundle_entries(config.output, item.game.id, item.folder.name, PAPERS).items():
        write_zip(staged / name, entries, epoch)
        item.files.append(staged / name)
    for name, path in loose_files(config.output, item.game.id, item.folder.name).items():
        shutil.copyfile(path, staged / name)
        os.chmod(staged / name, FILE_MODE)
        item.files.append(staged / name)
    game, seen = load_game(item.game.id, project), Report()
    (work / "old" / game.id).mkdir(parents=True)
    item.changes = compare_with(item.game, request.root, game, project, previous, PAPERS, item.version,
                                work / "old" / game.id, seen)
    report.extend(problem for problem in seen.problems if problem not in report.problems)
    item.files += write_changes(staged, game, item.version, item.changes, PAPERS, config.backs, request.mark)
    item.files.append(write_sha256sums(staged))
    item.folder = staged
    item.seconds += time.perf_counter() - start
    tell(f"{item.game.id}: built and bundled ({time.perf_counter() - start:.1f} s)")


def _tts_readme(request: ReleaseRequest, item: Released, config: BuildConfig) -> None:
    """LISEZMOI.txt beside the game's Saved Object, for its zip (pipeline/release/readme.py)."""
    from pipeline.kinds.exports import tts_base_url

    folder = config.output / item.game.id / "tts"
    saved = sorted(folder.glob("*.json"))
    if saved:
        text = tts_readme(item.game.title, item.version, saved[0].stem, tts_base_url(config, item.game.id),
                          hosted=request.base_url is not None)
        (folder / "LISEZMOI.txt").write_text(text, encoding="utf-8")


def publish(staged: Path, dist: Path, aside: Path) -> Path:
    """`staged` renamed to dist/<its name>; an earlier folder of that name is moved `aside` first and put back
    if the rename does not happen (even on Ctrl-C), so dist/ holds the old folder or the new one, whole."""
    target = dist / staged.name
    moved = None
    if target.exists() or target.is_symlink():
        aside.mkdir(parents=True, exist_ok=True)
        moved = aside / staged.name
        os.replace(target, moved)
    try:
        os.replace(staged, target)
    except BaseException:
        if moved is not None and not target.exists():
            os.replace(moved, target)
        raise
    return target
