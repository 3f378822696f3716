"""Shared fixtures: a scratch copy of the project whose workbook a test can damage."""

from __future__ import annotations

import functools
import hashlib
import os
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import openpyxl
import pytest

from pipeline import PROJECT_ROOT
from pipeline.core.errors import Report
from pipeline.games import load_game
from pipeline.validate import load_records

ROOT = PROJECT_ROOT


def copy_project(folder: Path) -> Path:
    """sheets/, templates/ and fonts/ copied into `folder`: a project a test may damage or build."""
    for name in ("sheets", "templates", "fonts"):
        shutil.copytree(ROOT / name, folder / name)
    return folder


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A copy of sheets/, templates/ and fonts/ in a temporary project folder."""
    return copy_project(tmp_path)


EVERYTHING = ("--paper", "all", "--format", "all", "--ink-saver")    # what `make` builds
SHARED_JOBS = "2"   # the shared builds draw in two processes on any machine (tests/builds/test_parallel_build.py)


def built_game(tmp_path_factory, game: str, *options: str) -> Path:
    """`pnp build GAME OPTIONS` (default: everything `make` builds) on a project copy; its output/<game>/ folder.
    Built once per test run and shared, read-only, by every test asking for the same game and options, in
    every xdist worker (a file lock: the first worker builds, the others wait and read). A test that changes
    inputs or outputs builds its own copy (`project`)."""
    from filelock import FileLock

    options = options or EVERYTHING
    key = hashlib.sha256(repr((game, options)).encode()).hexdigest()[:12]
    folder = shared_temp(tmp_path_factory) / f"built-{game}-{key}"
    with FileLock(f"{folder}.lock"):
        if not (folder / ".complete").is_file():
            shutil.rmtree(folder, ignore_errors=True)
            copy_project(folder)
            result = run_cli("build", game, *options, "--jobs", SHARED_JOBS, root=folder)
            assert result.returncode == 0, result.stderr
            (folder / ".complete").write_text(" ".join(options))
    return folder / "output" / game


@pytest.fixture(scope="session", autouse=True)
def _pdf_index_in_the_run(tmp_path_factory):
    """tests/pdfindex.py keeps what it reads in this run's folder that every worker shares."""
    from tests import pdfindex

    pdfindex.FOLDER = shared_temp(tmp_path_factory) / "pdf-index"


def shared_temp(tmp_path_factory) -> Path:
    """The test run's temporary folder that every xdist worker shares (each worker's own is inside it)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def edit_workbook(path: Path, change) -> None:
    """Open the workbook, let `change(workbook)` alter it, save it back."""
    wb = openpyxl.load_workbook(path)
    change(wb)
    wb.save(path)


def validate_game(game_id: str, root: Path) -> tuple[Report, dict | None]:
    """Validation stages 1–5 (and 6) of a game on the workbook of the project under `root`."""
    game = load_game(game_id, ROOT)
    game = replace(game, data_files=tuple(root / path.relative_to(ROOT) for path in game.data_files))
    report = Report()
    return report, load_records(game, root, report)


def validate_buildit(root: Path) -> tuple[Report, dict | None]:
    return validate_game("buildit", root)


def set_cell(sheet, key_column: str, key, column: str, value) -> None:
    """In an openpyxl sheet, set `column` of the row whose `key_column` holds `key`."""
    header = [cell.value for cell in sheet[1]]
    for row in sheet.iter_rows(min_row=2):
        if row[header.index(key_column)].value == key:
            row[header.index(column)].value = value
            return
    raise AssertionError(f"{key} not in {sheet.title}")


def run_cli(*args: str, root: Path | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    if root is not None:
        env["PNP_ROOT"] = str(root)
    return subprocess.run([sys.executable, "-m", "pipeline", *args], capture_output=True, text=True, env=env,
                          timeout=600)


# --- fast and slow -----------------------------------------------------------------------------------------
# A test that runs the command line, a whole build (a `built` fixture), the independent preflight
# (tests/tools/pdfcheck.py, a subprocess), a whole rulebook (written, or laid out as a Book) or every face of a
# game laid out and drawn (tests/render/test_safe_zone.py laid_out_faces) is end to end: marked `slow`, so
# `make test-fast` (pytest -m "not slow") keeps the inner loop short. `make test` and CI run everything.
END_TO_END = ("run_cli(", "built_game(", "pnp(", "pdfcheck(", "write_rulebook(", "_rulebook_text(", "write_book(",
              "laid_out_faces(")


def pytest_collection_modifyitems(config, items):
    """A test is slow when it, or any fixture it uses, makes an end-to-end call (END_TO_END): a fixture that
    builds a game or releases two clones makes every test using it end to end."""
    for item in items:
        function = getattr(item, "function", None)
        if function is None:
            continue
        fixtures = getattr(getattr(item, "_fixtureinfo", None), "name2fixturedefs", {})
        sources = [function] + [definition.func for name in getattr(item, "fixturenames", ())
                                for definition in fixtures.get(name, ())]
        if "built" in getattr(item, "fixturenames", ()) or any(_end_to_end(source) for source in sources):
            item.add_marker(pytest.mark.slow)


@functools.lru_cache(maxsize=None)
def _end_to_end(function) -> bool:
    import inspect

    try:
        source = inspect.getsource(function)
    except (OSError, TypeError):                # a fixture of pytest's own, or a built-in
        return False
    return any(call in source for call in END_TO_END)


def point_cli_at(monkeypatch, root: Path) -> None:
    """The in-process CLI on the project at `root`. Every pipeline.cli module reads the project through
    pipeline.cli.shared.project_root(), so shared's PROJECT_ROOT is the one to patch; any module of pipeline/cli/
    that binds its own PROJECT_ROOT is patched as well, so a command never works on the real project."""
    import importlib
    import pkgutil

    import pipeline.cli

    for found in pkgutil.iter_modules(pipeline.cli.__path__):
        module = importlib.import_module(f"pipeline.cli.{found.name}")
        if hasattr(module, "PROJECT_ROOT"):
            monkeypatch.setattr(module, "PROJECT_ROOT", root)


def pytest_configure(config):
    """The suite runs as on a developer's machine under a CI runner too: GitHub Actions' GITHUB_ACTIONS makes
    typer colour --help and pnp print annotations, so it is removed; tests of those set it themselves. The
    tests' pdfplumber gets its content streams tokenized by qpdf (tests/fastpdf.py: the same objects, faster)."""
    os.environ.pop("GITHUB_ACTIONS", None)
    from tests import fastpdf

    if fastpdf.verified():
        fastpdf.install()               # pdfplumber, as the tests read PDFs, with qpdf tokenizing for it
    if os.environ.get("PYTEST_XDIST_WORKER"):
        # xdist's workers ignore SIGINT (the controller handles Ctrl-C) and every command a test starts would
        # inherit that: the tests that stop `pnp` with Ctrl-C need it to hear the signal, as in a terminal
        import signal

        signal.signal(signal.SIGINT, signal.default_int_handler)


def pdf_text(path: Path) -> str:
    """Every page's text of a PDF (pypdfium2), one page after another."""
    import pypdfium2

    document = pypdfium2.PdfDocument(path)
    try:
        return "\n".join(page.get_textpage().get_text_range() for page in document)
    finally:
        document.close()
