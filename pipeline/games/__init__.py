"""The games: an explicit registry of coded games (REGISTRY), plus data-only games found as
templates/<game>/game.yaml (datagame). Every coded game has the same rooms (schema, checks, components,
rulebook, bots, engine/) and is wired by the kit (kit.py); engines extend the one pure base (engine_base.py)
and import only the standard library. A new game starts as a copy of _template/, a complete skeleton.

May import: core, data, render (markup, charts, the stack figure) and play (the Simulation record, the
driver for a game's own checks); never build, validate or the command line."""

from __future__ import annotations

from pathlib import Path

from pipeline.core.errors import PipelineError, Problem
from pipeline.data.specs import GameModule, MANIFEST_NAME


def _buildit(root: Path) -> GameModule:
    from pipeline.games.buildit import game_module

    return game_module(root)


def _allstar(root: Path) -> GameModule:
    from pipeline.games.allstar import game_module

    return game_module(root)


def _nba(root: Path) -> GameModule:
    from pipeline.games.nba import game_module

    return game_module(root)


def _challengers(root: Path) -> GameModule:
    from pipeline.games.challengers import game_module

    return game_module(root)


def _fightball(root: Path) -> GameModule:
    from pipeline.games.fightball import game_module

    return game_module(root)


REGISTRY = {
    "allstar": _allstar,
    "buildit": _buildit,
    "challengers": _challengers,
    "fightball": _fightball,
    "nba": _nba,
}


def available(root: Path) -> list[str]:
    found = set(REGISTRY)
    found.update(p.parent.name for p in (root / "templates").glob(f"*/{MANIFEST_NAME}"))
    return sorted(found)


def load_game(name: str, root: Path) -> GameModule:
    """A game by id, or a data-only game by the path of its game.yaml."""
    from pipeline.games.datagame import load_data_game     # not at import: engines must not load reportlab

    if name.endswith((".yaml", ".yml")):
        return load_data_game(Path(name) if Path(name).is_absolute() else root / name, root)
    if name in REGISTRY:
        return REGISTRY[name](root)
    manifest = root / "templates" / name / MANIFEST_NAME
    if manifest.is_file():
        return load_data_game(manifest, root)
    raise PipelineError(Problem(name, f"unknown game (known: {', '.join(available(root))})", "usage"))
