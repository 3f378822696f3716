"""Engines are pure (STYLE.md habits 2 and 3): every pipeline/games/*/engine*.py and bots.py imports only the
standard library and its own game's pure modules, never prints, opens files or touches the global random state."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from pipeline import PROJECT_ROOT

GAMES = PROJECT_ROOT / "pipeline" / "games"
STDLIB = set(sys.stdlib_module_names) | {"__future__"}
FORBIDDEN_CALLS = {"print", "open", "input", "exec", "eval", "__import__"}


def engine_files() -> list[Path]:
    """Every file of a game's engine and bots: engine/ and bots/ packages, or the flat engine*.py and bots.py
    with the helpers they import (geometry.py, endgame.py)."""
    files = []
    for game in sorted(p for p in GAMES.iterdir() if p.is_dir() and not p.name.startswith("__")):   # _template too
        found = sorted(game.glob("engine*.py")) + sorted(game.glob("engine/*.py")) + sorted(game.glob("bots.py")) \
            + sorted(game.glob("bots/*.py"))
        for helper in ("geometry.py", "endgame.py"):        # engines and bots may import them: pure too
            if found and (game / helper).exists():
                found.append(game / helper)
        files += found
    return files + [GAMES / "engine_base.py"]           # what engines share: pure too


def allowed(module: str, game: str) -> bool:
    """Standard library, the engines' shared engine_base, or this game's schema, engine and bots modules (an
    engine may be split in files, flat or as a package) and its geometry and endgame helpers."""
    if module.split(".")[0] in STDLIB or module == "pipeline.games.engine_base":
        return True
    prefix = f"pipeline.games.{game}."
    if not module.startswith(prefix):
        return False
    name = module[len(prefix):]
    return name in ("geometry", "schema", "engine", "endgame", "bots") or name.startswith(("engine_", "engine.", "bots."))


def imported_modules(tree: ast.AST, package: str) -> list[tuple[int, str]]:
    """(line, module) of every import; `from package import name` counts as importing package.name."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            module = ".".join(filter(None, (base, node.module)))
            if module in (package, "pipeline.games", "pipeline"):   # names imported from a package are modules
                found += [(node.lineno, f"{module}.{alias.name}") for alias in node.names]
            else:
                found.append((node.lineno, module))
    return found


def impurities(path: Path) -> list[str]:
    inside = path.relative_to(GAMES).parts if path.is_relative_to(GAMES) else (path.parent.name, path.name)
    game = inside[0]
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    problems = [f"{path.name}:{line}: imports {module}"
                for line, module in imported_modules(tree, f"pipeline.games.{game}") if not allowed(module, game)]
    is_engine = path.name.startswith("engine") or path.name == "geometry.py" or "engine" in inside[1:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in FORBIDDEN_CALLS:
            problems.append(f"{path.name}:{node.lineno}: calls {node.func.id}()")
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "random":
            if is_engine or node.attr != "Random":         # a bot may make a seeded Random, never use the global one
                problems.append(f"{path.name}:{node.lineno}: uses random.{node.attr}")
        if is_engine and isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [a.name for a in node.names] + ([node.module] if isinstance(node, ast.ImportFrom) else [])
            if "random" in names:
                problems.append(f"{path.name}:{node.lineno}: an engine imports random (chance is data)")
    return problems


def test_there_are_engines_to_check():
    names = {p.relative_to(GAMES).as_posix() for p in engine_files()}
    assert {"buildit/engine/__init__.py", "buildit/bots/__init__.py", "buildit/engine/geometry.py"} <= names


@pytest.mark.parametrize("path", engine_files(), ids=lambda p: p.relative_to(GAMES).as_posix())
def test_engine_is_pure(path: Path):
    assert impurities(path) == []


def test_the_check_finds_impurities(tmp_path: Path):
    game = tmp_path / "somegame"
    game.mkdir()
    bad = game / "engine.py"
    bad.write_text("import random\nimport reportlab\nfrom pipeline.data.schema import Column\nfrom pipeline import errors\n"
                   "from pipeline.games.othergame.geometry import x\nprint(random.random())\n")
    found = impurities(bad)
    assert any("imports reportlab" in p for p in found)
    assert any("imports pipeline.data.schema" in p for p in found)
    assert any("imports pipeline.errors" in p for p in found)
    assert any("imports pipeline.games.othergame.geometry" in p for p in found)
    assert any("calls print()" in p for p in found)
    assert any("uses random.random" in p for p in found)
    assert any("an engine imports random" in p for p in found)
    good = game / "bots.py"
    good.write_text("import random\nfrom pipeline.games.somegame.engine import State\n"
                    "from pipeline.games.somegame import geometry\nfrom . import engine_data\nrng = random.Random(3)\n")
    assert impurities(good) == []
