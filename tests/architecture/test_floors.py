"""The house in rooms (docs/ARCHITECTURE.md): every module of pipeline/ lives in a room (a subpackage, or one
of the two front doors build.py and validate.py), the rooms stand on floors, and a room imports only rooms
on lower floors, counting imports inside functions too. Every room says in its __init__ docstring what it
is for and what it may import; no module grows past MAX_LINES (split it by what it does)."""

from __future__ import annotations

import ast

import pytest

from tests.architecture.test_import_cycles import PACKAGE, _imports, _modules

# lowest floor first; the rooms on one floor do not import one another
FLOORS = (
    ("pipeline", "core"),                       # the package root (PROJECT_ROOT) and the ground floor
    ("data", "preflight"),                      # preflight/ imports only core/
    ("render",),                                # render/ itself: fonts, glyphs, pdf, markup, colours
    ("render.faces", "render.charts"),
    ("render.sheets", "render.rulebook", "cache", "exports"),
    ("kinds", "play"),
    ("games", "guide"),
    ("validate",),
    ("build", "simulation", "diff"),
    ("sweep", "release"),
    ("cli",),
    ("__main__",),                              # python -m pipeline: the command line
)
SUBROOMS = {"render": ("faces", "sheets", "rulebook", "charts")}
MAX_LINES = 400


def room_of(module: str) -> str:
    """pipeline.render.sheets.plan -> "render.sheets"; pipeline.play.driver -> "play"; pipeline -> "pipeline"."""
    parts = module.split(".")[1:]
    if not parts:
        return "pipeline"
    if len(parts) > 1 and parts[1] in SUBROOMS.get(parts[0], ()):
        return f"{parts[0]}.{parts[1]}"
    return parts[0]


def upward(graph: dict[str, set[str]], floors=FLOORS) -> list[str]:
    """Every import from a room to a room on the same floor or above, as "a -> b (room x -> room y)"."""
    floor = {room: level for level, rooms in enumerate(floors) for room in rooms}
    found = []
    for module, targets in sorted(graph.items()):
        for target in sorted(targets):
            source, goal = room_of(module), room_of(target)
            if source != goal and floor[goal] >= floor[source]:
                found.append(f"{module} -> {target} ({source} -> {goal})")
    return found


def _graph() -> dict[str, set[str]]:
    known = _modules()
    return {name: _imports(path, name, known) for name, path in known.items()}


def test_every_module_is_in_a_room_on_a_floor():
    placed = {room for rooms in FLOORS for room in rooms}
    assert sorted({room_of(name) for name in _modules()} - placed) == []


def test_no_room_imports_a_room_on_its_floor_or_above():
    assert upward(_graph()) == []


def test_the_floor_check_finds_an_upward_import():
    graph = {"pipeline.data.schema": {"pipeline.play.driver", "pipeline.core.errors"},
             "pipeline.play.driver": {"pipeline.play.stats", "pipeline.data.schema"},
             "pipeline.render.charts.draw": {"pipeline.render.sheets.plan", "pipeline.render.glyphs"}}
    assert upward(graph) == ["pipeline.data.schema -> pipeline.play.driver (data -> play)",
                             "pipeline.render.charts.draw -> pipeline.render.sheets.plan (render.charts -> render.sheets)"]


def test_top_level_holds_only_the_front_doors_and_the_rooms():
    files = sorted(path.name for path in PACKAGE.glob("*.py"))
    assert files == ["__init__.py", "__main__.py", "build.py", "validate.py"]


@pytest.mark.parametrize("room", sorted({room for rooms in FLOORS for room in rooms} - {"pipeline", "__main__",
                                                                                        "build", "validate"}))
def test_each_room_says_what_it_is_for_and_what_it_may_import(room):
    init = PACKAGE.joinpath(*room.split("."), "__init__.py")
    doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
    assert len(doc.split()) >= 25, f"{room}: a paragraph on what the room is for"
    assert "import" in doc, f"{room}: say which rooms it may import"


def test_no_module_is_longer_than_max_lines():
    long = {str(path.relative_to(PACKAGE)): n for path in PACKAGE.rglob("*.py")
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}


def test_the_architecture_page_draws_every_room_on_its_floor():
    """docs/ARCHITECTURE.md's drawing names each room on the floor FLOORS gives it (floor 0 at the bottom)."""
    text = (PACKAGE.parent / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    drawn = {}
    for line in text.splitlines():
        words = line.split()
        if len(words) > 2 and words[0] == "floor" and words[1].isdigit():
            drawn[int(words[1])] = line
    for level, rooms in enumerate(FLOORS):
        for room in rooms:
            name = {"pipeline": "pipeline/__init__", "build": "build.py", "validate": "validate.py",
                    "__main__": "__main__"}.get(room, room.replace(".", "/") + "/")
            assert name in drawn.get(level, ""), f"{room} is not drawn on floor {level}"
