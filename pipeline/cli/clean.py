"""`pnp clean`: the command function (pipeline/cli/app.py registers it). Removes the build's outputs and the
build cache (pipeline/cache/clean.py), says what went and how many MB; exit 0, also when there was nothing,
1 when something could not be removed, 2 for a usage error."""

from __future__ import annotations

from typing import Optional

import typer

from pipeline.cli import shared as ui


def clean(games: Optional[list[str]] = typer.Argument(None, help="Remove only these games' output/<game>/ "
                                                       "(default: all of output/ and the build cache)."),
          cache_only: bool = typer.Option(False, "--cache-only", help="Remove only the build cache (.pnp-cache/, "
                                          "or PNP_CACHE_DIR)."),
          keep_cache: bool = typer.Option(False, "--keep-cache", help="Remove only the outputs.")) -> None:
    """Remove the outputs (output/, or output/<game>/) and the build cache; dist/ and the inputs are never
    touched. The cache is shared by every game: naming games keeps it."""
    from pipeline.cache.clean import clean as cleaning

    if cache_only and keep_cache:
        ui.usage("--cache-only and --keep-cache leave nothing to remove: give one of them")
    if cache_only and games:
        ui.usage("--cache-only removes the cache every game shares: name no game")
    for name in games or ():
        if not name or name.startswith(".") or "/" in name or "\\" in name:
            ui.usage(f"{name!r} is not a game id (output/<game>/ is what `pnp clean GAME` removes)")
    root = ui.project_root()
    done = cleaning(root, tuple(games or ()), outputs=not cache_only, cache=not keep_cache and not games)
    for path, size in done.removed:
        shown = path.relative_to(root) if path.is_relative_to(root) else path
        print(f"removed {shown.as_posix()}/ ({_size(size)})")
    for path, reason in done.refused:
        ui.err(f"error {path}: could not be removed ({reason})", markup=False)
    if not done.removed and not done.refused:
        print("nothing to remove")
    elif len(done.removed) > 1:
        print(f"{_size(sum(size for _, size in done.removed))} in all")
    raise typer.Exit(1 if done.refused else 0)


def _size(count: int) -> str:
    return f"{count / 1e6:.1f} MB" if count >= 1e5 else f"{count / 1e3:.1f} kB"
