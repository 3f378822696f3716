"""A real game's components as exports see them, prepared once per test process (from the build cache) and shared,
read-only, by every export's tests."""

from __future__ import annotations

import functools


@functools.cache
def prepared(game: str):
    """(the PreparedGame, its pieces: pipeline/exports/pieces.py)."""
    from pipeline import PROJECT_ROOT
    from pipeline.build import prepare
    from pipeline.core.config import BuildConfig
    from pipeline.core.errors import Report
    from pipeline.core.progress import Progress
    from pipeline.exports.pieces import pieces_of

    item = prepare(BuildConfig(PROJECT_ROOT, (game,)), Report(), Progress(), cached=True)[0]
    return item, pieces_of(item.laid, item.edition)
