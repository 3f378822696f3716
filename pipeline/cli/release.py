"""`pnp release`: the command function (pipeline/cli/app.py registers it). Parse the options, release the games
(pipeline/release/run.py), print what was written in dist/ and the time each game took; exit 0 when released,
1 when a problem refused the release (its located lines printed, nothing written in dist/), 2 for a usage
error."""

from __future__ import annotations

import time
from typing import Optional

import typer

from pipeline.cli import shared as ui
from pipeline.core.pool import cores


def release(games: Optional[list[str]] = typer.Argument(None, help="Game ids (default: every game with a "
                                                                    "workbook)."),
            version: Optional[str] = typer.Option(None, "--version", help="The release's version (default: the "
                                                  "game's record, else `git describe --tags`)."),
            mark: bool = typer.Option(True, "--mark/--no-mark", help="The edition mark on every face and page "
                                      "(--no-mark: final art files)."),
            balance_games: Optional[int] = typer.Option(None, "--games", min=1, max=1_000_000,
                                                        help="Games per player count the balance gates play "
                                                             "(default 1000, seed 1)."),
            workers: Optional[int] = typer.Option(None, min=1, max=256, help="Processes that play the balance "
                                                  "games side by side (default: every core)."),
            jobs: Optional[int] = typer.Option(None, "--jobs", "-j", min=1, max=256, help="Processes that draw "
                                               "each game's files (default: every core); the same bytes."),
            base_url: Optional[str] = typer.Option(None, "--base-url", help="Where the Tabletop Simulator "
                                                   "images will be hosted (<url>/<game>/); default: an address "
                                                   "LISEZMOI.txt says how to replace.")) -> None:
    """Validate strictly, play the balance gates, build everything and write dist/<game>-<version>/: the
    bundles (home A4 and Letter, print shop, PNG, Tabletop Simulator, The Game Crafter, MakePlayingCards,
    DriveThruCards), the playingcards.io room, CHANGES.md, the reprint sheets and SHA256SUMS."""
    from pipeline.core.errors import Report
    from pipeline.games import available
    from pipeline.play.gates import BALANCE_GAMES
    from pipeline.release.bundle import EpochError
    from pipeline.release.run import ReleaseRequest, release as releasing, version_problem

    root = ui.project_root()
    known = available(root)
    for name in games or ():
        if name not in known:
            ui.usage(f"unknown game {name!r} (known: {', '.join(known)})")
    if version is not None and version_problem(version.strip()):
        ui.usage(f"--version: {version_problem(version.strip())}")
    if base_url is not None and not base_url.startswith(("https://", "http://", "file:///")):
        ui.usage(f"--base-url must start with https://, http:// or file:///, not {base_url!r}")
    pool = ui.executor_of("local", workers or cores())
    request = ReleaseRequest(root, tuple(dict.fromkeys(games or ())), version, mark,
                             balance_games or BALANCE_GAMES, pool, jobs or cores(), base_url)
    report, start = Report(), time.perf_counter()
    with ui.closing(pool), ui.progress() as progress:
        try:
            released = releasing(request, report, progress, tell=lambda line: ui.err(line, markup=False))
        except EpochError as exc:
            ui.usage(str(exc))
    ui.print_problems(report)
    if not released:
        ui.out("release refused: nothing was written to dist/")
        raise typer.Exit(1)
    for item in released:
        _show(item)
    print(f"released {len(released)} game{'s' if len(released) != 1 else ''} in {time.perf_counter() - start:.1f} s")
    raise typer.Exit(1 if report.errors else 0)    # an error here: a later game's folder could not be replaced


def _show(item) -> None:
    """The game's folder, the time it took, what changed, then each file with its size."""
    root = ui.project_root()
    folder = item.folder.relative_to(root) if item.folder.is_relative_to(root) else item.folder
    print(f"released {item.game.id} {item.version} → {folder}/ in {item.seconds:.1f} s; {_changed(item.changes)}")
    for path in item.files:
        print(f"  wrote {path.name} ({_size(path.stat().st_size)})")


def _size(count: int) -> str:
    return f"{count / 1e6:.1f} MB" if count >= 1e6 else f"{count / 1e3:.1f} kB"


def _changed(found) -> str:
    from pipeline.diff.changes import ADDED, CHANGED, DATA_ONLY, REMOVED

    if found is None or found.previous is None:
        return "first release (no earlier tag)"
    if found.changes is None:
        return f"since {found.previous}: cards not compared (CHANGES.md says why)"
    if found.changes.none:
        return f"no change since {found.previous}"
    said = {ADDED: "added", REMOVED: "removed", CHANGED: "changed", DATA_ONLY: "changed in data only"}
    counts = [f"{n} card{'s' if n != 1 else ''} {said[status]}" for status in said
              if (n := len(found.changes.of(status)))]
    rules = len(found.changes.rules)
    if rules:
        counts.append(f"{rules} rule{'s' if rules != 1 else ''} changed")
    return f"since {found.previous}: {', '.join(counts) or 'rulebook pages changed'} (CHANGES.md)"
