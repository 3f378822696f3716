"""`pnp watch GAME`: rebuild a game on every save of its data, templates, art or fonts.

Two parts, kept apart so that tests can drive the rebuild without timing:
- `Rebuilder.rebuild(changed)` checks that the data files are complete, rebuilds once through
  pipeline.build.build() and returns the lines to print (the problems, one line each, or what was rebuilt);
  it never raises for a user's file, so the watcher keeps running after an error;
- `watch()` waits for file events (watchfiles: native events, grouped until the files are quiet for `step`
  ms), drops the temporaries and lock files spreadsheet programs and editors write, and feeds the rest to
  the rebuilder.

How spreadsheet programs save: Excel writes a temporary (`A1B2C3D4`, `~WRL0001.tmp`) beside the workbook,
removes the workbook and renames the temporary; LibreOffice keeps a lock file (`.~lock.nba.xlsx#`) and
writes through `lu12345.tmp`; both hold `~$nba.xlsx` or the lock while the file is open. Events are grouped
until the folder has been quiet for a moment, then each workbook must be a complete zip (its central
directory, written last, is there and every member's CRC matches): a file missing or half written is never
built from, and its last write brings another event and a rebuild.
"""

from __future__ import annotations

import contextlib
import re
import signal
import threading
import time
import zipfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable, Iterable

from pipeline.core.config import BuildConfig
from pipeline.core.errors import PipelineError, Report
from pipeline.core.write_failures import failed_build_line
from pipeline.core.progress import Progress

ART_AND_FONT_SUFFIXES = (".png", ".jpg", ".jpeg", ".svg", ".webp", ".ttf", ".otf")
FONT_SUFFIXES = (".ttf", ".otf")
_EXCEL_TEMPORARY = re.compile(r"[0-9A-F]{8}")                   # Excel's temporary: 8 hex digits, no suffix
_TEMPORARY_ENDINGS = ("~", "#", ".tmp", ".temp", ".swp", ".swx", ".part", ".crdownload", ".bak")
_IGNORED_FOLDERS = {"__pycache__", ".git", "output"}


def is_temporary(path: Path) -> bool:
    """A lock file or a temporary of a spreadsheet program or an editor, never an input of the build."""
    name = path.name
    return (name.startswith((".", "~")) or name.lower().endswith(_TEMPORARY_ENDINGS)
            or bool(_EXCEL_TEMPORARY.fullmatch(name)))


@dataclass(frozen=True)
class Watched:
    """What a game's build reads: its data files, and the folders of its templates, art and fonts."""
    data_files: frozenset[Path]
    folders: tuple[Path, ...]       # every non-temporary file under them is an input

    @classmethod
    def of(cls, game, root: Path) -> "Watched":
        folders = [Path(game.template_dir), root / "templates" / "common", root / "fonts"]
        return cls(frozenset(Path(path).resolve() for path in game.data_files),
                   tuple(folder.resolve() for folder in folders))

    def roots(self) -> tuple[Path, ...]:
        """The folders to ask the system about (those that exist, none inside another)."""
        found = sorted({path.parent for path in self.data_files} | set(self.folders))
        return tuple(folder for folder in found if folder.is_dir()
                     and not any(other != folder and folder.is_relative_to(other) for other in found))

    def relevant(self, path: Path) -> bool:
        path = Path(path).absolute()
        if path in self.data_files:
            return True
        if is_temporary(path) or any(part in _IGNORED_FOLDERS for part in path.parts):
            return False
        if any(path.is_relative_to(folder) for folder in self.folders):
            return True
        # beside a data file: art the cells name (a folder like sheets/ also holds other games' workbooks)
        return (path.suffix.lower() in ART_AND_FONT_SUFFIXES
                and any(path.is_relative_to(data.parent) for data in self.data_files))


def incomplete(path: Path) -> str | None:
    """Why a data file cannot be built from now (missing, or a workbook not completely written), or None."""
    if not path.is_file():
        return "is missing (being saved?)"
    if path.suffix.lower() not in (".xlsx", ".xlsm"):
        return None
    try:
        with zipfile.ZipFile(path) as workbook:
            damaged = workbook.testzip()
    except (OSError, EOFError, zipfile.BadZipFile, ValueError):
        return "is not a complete workbook yet (half written?)"
    return f"is not a complete workbook yet ({damaged} is damaged)" if damaged else None


class Rebuilder:
    """One game's builds, one after another, in this process (the build's caches stay warm)."""

    def __init__(self, config: BuildConfig, only: tuple[str, ...] = (), progress: Progress | None = None):
        from pipeline.games import load_game

        self.config = replace(config, only=only) if only else config
        self.only = only
        self.progress = progress or Progress()
        self.game = load_game(config.games[0], config.root)
        self.watched = Watched.of(self.game, config.root)
        self._warned: list[str] = []        # the warning lines last printed: unchanged, they are not repeated

    def shown(self, path: Path) -> str:
        """A path as the user reads it: relative to the project."""
        path = Path(path)
        return path.relative_to(self.config.root).as_posix() if path.is_relative_to(self.config.root) else str(path)

    def first(self) -> list[str]:
        """The build before watching: --only naming no component is a usage mistake here (UnknownComponent)."""
        return self._build(set(), first=True)

    def rebuild(self, changed: Iterable[Path] = ()) -> list[str]:
        """Build once after `changed`; the lines to print. Never raises for a user's file: a problem becomes
        a line, and the next save rebuilds."""
        return self._build({Path(path).absolute() for path in changed})

    def _build(self, changed: set[Path], first: bool = False) -> list[str]:
        from pipeline.build import BuildStats, UnknownComponent, build

        waiting = [f"{self.shown(path)} {why}: not built, waiting for the next save"
                   for path in sorted(self.watched.data_files) if (why := incomplete(path))]
        if waiting:
            return waiting
        _forget_cached_inputs(changed - self.watched.data_files)
        started, stats = time.perf_counter(), BuildStats()
        try:
            report, built = build(self.config, self.progress, stats=stats)
        except PipelineError as exc:
            report, built = Report(), []
            report.extend(exc.problems)
        except UnknownComponent as exc:      # a component renamed in the workbook since `pnp watch` started
            if first:
                raise
            return [f"error {exc}; watching for the next save"]
        except Exception as exc:            # a bug must not end the designer's session: say it, keep watching
            return [f"error: the build stopped on {type(exc).__name__}: {exc} (a bug in pnp: please report it)"]
        seconds = time.perf_counter() - started
        lines = [f"{problem.severity.value} {problem}" for problem in report.problems]
        failed = report.failed(self.config.strict) or not built
        repeated = not failed and lines == self._warned           # the same warnings as the last build printed
        self._warned = [] if failed else list(lines)
        if report.problems and not repeated:
            lines.append(f"{len(report.errors)} error(s), {len(report.warnings)} warning(s)")
        if failed:
            lines.append(f"{failed_build_line(report)}; watching for the next save")
            return lines
        parts = stats.games.get(self.game.id, {})
        done = _built_line(self.game.id, parts, seconds) if first else _rebuilt_line(parts, seconds)
        if repeated and lines:
            return [f"{done} ({len(lines)} warning{'s' if len(lines) != 1 else ''} as before)"]
        return lines + [done]


def _built_line(game_id: str, parts: dict, seconds: float) -> str:
    """The first build: what the game has and what the cache spared."""
    faces = sum(part.faces for part in parts.values())
    laid = sum(part.faces_laid_out for part in parts.values())
    written = sum(part.files_written for part in parts.values())
    reused = sum(part.files_reused for part in parts.values())
    return (f"built {game_id}: {faces} faces ({laid} laid out anew), {written} files written, {reused} kept, "
            f"in {seconds:.1f} s")


def _rebuilt_line(parts: dict, seconds: float) -> str:
    """'rebuilt players (6 faces changed), pooled in 0.4 s': the components whose files were drawn anew."""
    rebuilt = [f"{name} ({part.faces_laid_out} face{'s' if part.faces_laid_out != 1 else ''} changed)"
               if part.faces_laid_out else name
               for name, part in parts.items() if part.files_written]
    if not rebuilt:
        return f"nothing to rebuild: every file is current ({seconds:.1f} s)"
    return f"rebuilt {', '.join(rebuilt)} in {seconds:.1f} s"


def _forget_cached_inputs(changed: set[Path]) -> None:
    """This process remembers images and the font manifest by path: a changed one must be read again."""
    if not changed:
        return
    from pipeline.render import fonts
    from pipeline.render.faces import art

    for cached in (art._raster, art._vector, art.natural_size):
        cached.cache_clear()
    if any(path.suffix.lower() in FONT_SUFFIXES or path.name == "fonts.yaml" for path in changed):
        fonts.load_fonts.cache_clear()


def watch(rebuilder: Rebuilder, emit: Callable[[list[str]], None], stop_event=None, step_ms: int = 100,
          ready_ms: int = 300) -> None:
    """Rebuild on every change until `stop_event` is set (or Ctrl-C: KeyboardInterrupt; SIGTERM: the
    process's own SIGTERM handler, once the watcher has let go). `emit` gets "watching …" once the system
    watches every folder (after `ready_ms` of quiet), then each rebuild's lines."""
    import watchfiles

    watched, stop = rebuilder.watched, _Stop(stop_event)
    events = watchfiles.watch(*watched.roots(), watch_filter=lambda _, path: watched.relevant(Path(path)),
                              step=step_ms, rust_timeout=ready_ms, yield_on_timeout=True, stop_event=stop,
                              raise_interrupt=True)
    ready = False
    while True:
        with _sigterm_stops(stop):          # the watcher would swallow SIGTERM's exception while it waits
            changes = next(events, None)
        if changes is None:
            break
        if not ready:
            ready = True
            emit([f"watching {', '.join(rebuilder.shown(folder) + '/' for folder in watched.roots())} "
                  "(Ctrl-C stops)"])
        if changes:
            emit(rebuilder.rebuild(Path(path) for _, path in changes))
    if stop.signalled:
        signal.raise_signal(stop.signalled)     # now the usual handler: exit 143 with no temporary left


class _Stop:
    """watchfiles' stop event: the caller's, or a SIGTERM received while waiting."""

    def __init__(self, outer=None):
        self.outer, self.signalled = outer, None

    def is_set(self) -> bool:
        return self.signalled is not None or (self.outer is not None and self.outer.is_set())


@contextlib.contextmanager
def _sigterm_stops(stop: _Stop):
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stopping(signum, frame):
        stop.signalled = signum

    previous = signal.signal(signal.SIGTERM, stopping)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
