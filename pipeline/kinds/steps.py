"""A game's files as independent write steps: one per component and ink variant, plus the pooled sheets after
the first deck's, plus the game's exports beyond paper (pipeline/kinds/exports.py) after all. A step reads only the laid-out faces and plans prepare made, so steps can run in any order,
in any process (pipeline/core/pool.py); what one did comes back as a `Done` (its report entries, the files
it wrote with their sha256, what it put in the cache and its counts), and the build adds them up in step
order: the same files and the same report whatever the number of workers."""

from __future__ import annotations

import contextlib
import functools
import os
from dataclasses import dataclass, field
from typing import Callable

from pipeline.cache import BuildCache, ComponentStats
from pipeline.cache.writes import current, write_unit
from pipeline.core.config import BuildConfig
from pipeline.core.output import failed_so_far, failing, recording
from pipeline.core.write_failures import ENVIRONMENT, CannotWrite, WriteFailure, failure_of
from pipeline.core.progress import Progress
from pipeline.data.specs import CardDeck
from pipeline.kinds import exports, kind_of, pooled
from pipeline.kinds.prepare import Laid, paper_formats
from pipeline.render.faces.edition_mark import Edition


@dataclass
class Step:
    game: object                    # the GameModule
    name: str                       # the component's id, or "pooled"
    laid: Laid                      # the component (for "pooled": the first deck's) in one ink variant
    made_of: list[Laid]             # what its files are drawn from
    write: Callable                 # the kind's write(game, laid, config, progress)
    cache: BuildCache | None
    edition: Edition | None
    key: str | None = None          # its files' cache key (None: not cacheable)
    found: tuple | None = None      # its entries and files, when the cache holds them and they are intact

    @property
    def weight(self) -> int:
        """A guess at its cost, to start the longest first: the faces it draws, both ink variants alike."""
        return sum(len(kind_of(one.component).faces_of(one.faces)) + 8 for one in self.made_of)


@dataclass
class Done:
    entries: list[dict] | None                      # None: left out by --only, nothing current to keep
    files: dict[str, str]                           # absolute path -> sha256, written or kept
    puts: dict[str, bytes] = field(default_factory=dict)
    stats: ComponentStats = field(default_factory=ComponentStats)
    failed: list[WriteFailure] = field(default_factory=list)   # what the system refused to write (old files kept)


def steps_of(game, laid_list: list[Laid], decks: int, config: BuildConfig, cache: BuildCache | None,
             edition: Edition | None) -> list[Step]:
    """The game's steps in the order their entries go in the report; pooled sheets only when all its `decks`
    card decks are laid out."""
    identity = (game.id, game.title, game.credited_author, game.keywords, game.template_dir)
    options = (config.papers, paper_formats(config), config.backs, config.back_offset_mm)
    steps = []
    for laid in laid_list:
        found = [Step(game, laid.component.id, laid, [laid], kind_of(laid.component).write, cache, edition)]
        members = [one for one in laid.pool if isinstance(one.component, CardDeck)]
        if pooled.is_writer(laid) and len(members) == decks:
            found.append(Step(game, "pooled", laid, members, pooled.write, cache, edition))
        for step in found:
            if cache and all(one.digest for one in step.made_of):
                step.key = cache.key("write", step.name, identity, options, laid.ink,
                                     [one.digest for one in step.made_of])
                step.found = current(cache, step.key, config.root)
        steps += found
    paper = [one for one in laid_list if not one.ink]
    for target in exports.asked(config) if paper else ():       # one step per export, side by side
        step = Step(game, target, paper[0], paper, functools.partial(exports.write, edition=edition,
                                                                     target=target), cache, edition)
        if cache and all(one.digest for one in paper):
            step.key = cache.key("write", step.name, identity, exports.key_options(config, game.id, target),
                                 [one.digest for one in paper])
            step.found = current(cache, step.key, config.root)
        steps.append(step)
    return steps


def run_step(step: Step, config: BuildConfig, measure: Callable[[list[dict] | None], None] | None = None) -> Done:
    """The step's files, drawn or kept from the cache (pipeline/cache/writes.py), recorded apart from any
    other step's. `measure(entries)`, when given, runs after files were drawn, in the same process (the
    build's report measures, pipeline/guide/report.py measure_written)."""
    stats = ComponentStats()

    def work() -> list[dict] | None:
        entries = write_unit(step.cache, step.key, lambda: _write(step, config), config.root, stats, step.found,
                             new=any(one.chosen for one in step.made_of))
        if measure is not None and stats.files_written and not failed_so_far():
            measure(entries)            # not with a file missing: the failed build's report is not written
        return entries
    done = isolated(step.cache, work, config.output)
    done.stats = stats
    return done


def isolated(cache: BuildCache | None, work: Callable[[], list[dict] | None], folder=None) -> Done:
    """`work()`'s entries, the files it wrote, its cache puts and the files the system refused it, kept apart
    from everything else's, to be added up by the build wherever the work ran. A refusal that stops the work
    (its scratch folder under `folder`, output/, say) is one of those: the work then has no entries."""
    collecting = cache.collecting() if cache else contextlib.nullcontext({})
    with recording() as files, collecting as puts, failing(apart=True) as failed:
        try:
            entries = work()
        except CannotWrite as exc:
            failed.extend(exc.failures)
            entries = None
        except OSError as exc:
            if not _refused_under(exc, folder):
                raise
            failed.append(failure_of(exc, exc.filename or folder))
            entries = None
    return Done(entries, dict(files), dict(puts), failed=list(failed))


def _refused_under(exc: OSError, folder) -> bool:
    """A write the system refused under `folder` (a file it names elsewhere is read: not ours to explain)."""
    if folder is None or exc.errno not in ENVIRONMENT:
        return False
    return exc.filename is None or os.path.abspath(exc.filename).startswith(os.path.abspath(folder))


def _write(step: Step, config: BuildConfig) -> list[dict]:
    """One component's files (one ink variant), every PDF credited to the game (pipeline/render/pdf.py) and
    its pages carrying the edition mark."""
    from pipeline.render.pdf import credits

    game = step.game
    with credits(game.credited_author, game.keywords, ink_saver=step.laid.ink,
                 edition=step.edition.page_text if step.edition else ""):
        return step.write(game, step.laid, config, Progress())
