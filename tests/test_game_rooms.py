"""Every coded game has the same rooms (issue 12), so a contributor finds the same thing in the same place
in every game: __init__.py (the game record `game_module` and the simulation record `SIMULATION`),
schema.py, checks, components, rulebook and bots (each a module, or a package of the same name once it
passes about 400 lines), and engine/ (the pure rules, a package)."""

from __future__ import annotations

from pathlib import Path

import pytest

import pipeline.games as registry
from pipeline.games import REGISTRY

GAMES = Path(registry.__file__).parent
ROOMS = {"__init__.py", "schema.py", "checks", "components", "rulebook", "bots", "engine"}
ROOM_LINES = 400


def _rooms(game: Path) -> dict[str, Path]:
    found = {}
    for path in game.iterdir():
        if path.name == "__pycache__":
            continue
        key = path.name if path.name in ("__init__.py", "schema.py") else path.name.removesuffix(".py")
        found[key] = path
    return found


@pytest.mark.parametrize("game", sorted(REGISTRY))
def test_each_game_has_the_same_rooms(game):
    rooms = _rooms(GAMES / game)
    assert set(rooms) == ROOMS, f"{game}: {sorted(set(rooms) ^ ROOMS)}"
    assert rooms["engine"].is_dir() and (rooms["engine"] / "__init__.py").is_file()
    for name, path in rooms.items():
        if path.is_file() and name != "__init__.py":
            lines = len(path.read_text(encoding="utf-8").splitlines())
            assert lines <= ROOM_LINES + 50, f"{game}/{path.name} has {lines} lines: make it a package"


@pytest.mark.parametrize("game", sorted(REGISTRY))
def test_the_package_holds_the_game_and_simulation_records(game):
    import importlib

    package = importlib.import_module(f"pipeline.games.{game}")
    assert callable(package.game_module) and package.SIMULATION.bots
    assert package.game_module(Path(".")).simulation is package.SIMULATION
