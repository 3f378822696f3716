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


def test_the_template_a_new_game_copies_has_the_rooms_and_plays():
    """games/_template/ is the skeleton a new game starts from: the same rooms (and skeleton/, the workbook
    and templates a new game moves to sheets/ and templates/), and its example engine (a dice race, with the
    phase-table idiom) plays through the driver to its own end, refuses an illegal action without changing,
    and replays a seed. tests/games/test_template_skeleton.py validates and builds it."""
    from dataclasses import replace

    from pipeline.games._template import SIMULATION, engine as template
    from pipeline.play.driver import flag_of, play

    rooms = _rooms(GAMES / "_template")
    assert set(rooms) == ROOMS | {"skeleton"} and (rooms["engine"] / "__init__.py").is_file()
    assert "template" not in REGISTRY and "_template" not in REGISTRY
    params = {"players_min": 2, "players_max": 4, "target": 20, "end_rule": "after_round", "max_rounds": 50}
    sim = replace(SIMULATION, new_game=lambda records, players: template.new_game(params, players))
    for players in (2, 3, 4):
        outcome = play(sim, {}, players, 7, ("heuristic",) * players)
        assert flag_of(outcome) is None and outcome["end_reason"] == "target"
        assert play(sim, {}, players, 7, ("heuristic",) * players) == outcome
    state = template.new_game(params, 2)
    before = str(state)
    with pytest.raises(ValueError):
        state.apply_action("jump")
    assert str(state) == before
    at_once = template.new_game({**params, "end_rule": "at_once"}, 2)
    while not at_once.is_terminal():
        at_once.apply_action(6 if at_once.current_player() == template.CHANCE else ("roll",))
    assert at_once.positions == [24, 18] and at_once.returns() == [1.0, 0.0]     # the first to arrive
