"""No input crashes the reader (issue 33): real inputs (the Build It workbook, the bench deck's CSV, its card
template and game.yaml, the project's fonts.yaml), mutated by hypothesis (tests/data/fuzz_mutators.py), each
run through `pnp validate` in process, through the function the `pnp` command runs (pipeline.cli.app.main),
on a throwaway copy of the files validate needs. Whatever the mutation: exit 0 or 1, no traceback, every
problem line located at a file of the project (the mutated one, or one it names), at least one error
on exit 1, none on exit 0, and memory within the README's bounds.

`make test` draws a fixed number of examples per target, derandomized (the same every run); `make fuzz` draws
PNP_FUZZ_EXAMPLES of them (default 2000) at random, keeping what it found in .hypothesis/. A recipe that once
failed is kept under tests/data/fuzz_regressions/ and replayed by test_regression_is_a_located_problem."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import resource
import shutil
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from tests.conftest import ROOT
from tests.data.fuzz_mutators import TARGETS, Target, apply, recipes

EXAMPLES = int(os.environ.get("PNP_FUZZ_EXAMPLES", "0"))      # 0: the suite's bounded, derandomized run
SUITE_EXAMPLES = {"workbook": 40, "csv": 25, "template": 25, "game_yaml": 25, "fonts_yaml": 15}
REGRESSIONS = Path(__file__).parent / "fuzz_regressions"
MEMORY_MIB = 512        # the README's largest bound: a workbook unzips to 200 MB at most; twice that and more
FOLDERS = ("sheets", "templates", "bench", "fonts")      # where a project's files are (a problem names one)
LOCATED = re.compile(r"^(error|warning) (?P<file>[^\s:›]+)")
SUMMARY = re.compile(r"^(\d+ error\(s\), \d+ warning\(s\)|validation (passed|failed)|benchdeck: .*|buildit: .*|  .*)$")
ORIGINALS = {name: (ROOT / target.file).read_bytes() for name, target in TARGETS.items()}


def fuzz_settings(target: str):
    if EXAMPLES:
        return settings(max_examples=EXAMPLES, deadline=None, derandomize=False, print_blob=True,
                        suppress_health_check=list(HealthCheck))
    return settings(max_examples=SUITE_EXAMPLES[target], deadline=None, derandomize=True, database=None,
                    suppress_health_check=list(HealthCheck))


def make_project(folder: Path, target: Target, data: bytes) -> Path:
    for name in target.copy:
        source, destination = ROOT / name, folder / name
        destination.parent.mkdir(parents=True, exist_ok=True)
        (shutil.copytree if source.is_dir() else shutil.copyfile)(source, destination)
    (folder / target.file).write_bytes(data)
    return folder


@contextlib.contextmanager
def cli_on(root: Path):
    """pnp pointed at the project `root` as PNP_ROOT points the command (pipeline.PROJECT_ROOT, which the
    fonts read, and every command-line module's, as tests.conftest.point_cli_at does with monkeypatch, which
    a hypothesis example cannot use), restored afterwards, with the fonts it loaded forgotten."""
    import importlib
    import pkgutil

    import pipeline
    import pipeline.cli
    from pipeline.render import fonts

    patched = [(pipeline, pipeline.PROJECT_ROOT)]
    for found in pkgutil.iter_modules(pipeline.cli.__path__):
        module = importlib.import_module(f"pipeline.cli.{found.name}")
        if hasattr(module, "PROJECT_ROOT"):
            patched.append((module, module.PROJECT_ROOT))
    for module, _ in patched:
        module.PROJECT_ROOT = root
    try:
        yield
    finally:
        for module, value in patched:
            module.PROJECT_ROOT = value
        fonts.load_fonts.cache_clear()


def validate(root: Path, game: str) -> tuple[int, str]:
    """`pnp validate GAME` on `root`, in process, as the `pnp` command runs it: its exit code and all it printed.
    An exception that leaves main() is what the real command shows as a traceback: it is returned as one."""
    from pipeline.cli.app import main

    printed, argv = io.StringIO(), sys.argv
    sys.argv = ["pnp", "validate", game]
    try:
        with cli_on(root), contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
            main()
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException as exc:     # noqa: BLE001 - anything main() lets out is the defect looked for
        import traceback

        return -1, printed.getvalue() + "Traceback (main() raised)\n" + "".join(traceback.format_exception(exc))
    finally:
        sys.argv = argv
    return code, printed.getvalue()


def problems_of(target: Target, code: int, text: str, grown_mib: float = 0.0) -> list[str]:
    """What is wrong with one outcome (nothing: the property holds); `grown_mib`: how far its peak memory rose
    above the memory in use when it started (`validate_measured`)."""
    wrong = []
    if code not in (0, 1):
        wrong.append(f"exit code {code}")
    if "Traceback" in text:
        wrong.append("a traceback")
    lines = [line for line in text.splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith("error")]
    for line in lines:
        found = LOCATED.match(line)
        if found is None:
            if not SUMMARY.match(line):
                wrong.append(f"a line that is neither a located problem nor a summary: {line!r}")
            continue
        if Path(found.group("file")).parts[0] not in FOLDERS:
            wrong.append(f"a problem not located at a file of the project: {line!r}")
    if code == 1 and not errors:
        wrong.append("exit 1 without an error line")
    if code == 0 and errors:
        wrong.append("exit 0 with an error line")
    if grown_mib > MEMORY_MIB:
        wrong.append(f"peak memory {grown_mib:.0f} MiB above the run's start")
    return wrong


def validate_measured(root: Path, game: str) -> tuple[int, str, float]:
    """`validate`, with how many MiB its peak resident size rose above what the process held when it began."""
    (code, text), grown = measured(lambda: validate(root, game))
    return code, text, grown


def measured(run):
    """run()'s result, and how many MiB the process's peak resident size rose above what it held at the start.
    Linux resets a process's peak (VmHWM) on `5` written to /proc/self/clear_refs, so the peak is this run's
    even in a test worker that ran a whole build before. Elsewhere the lifetime peak stands in: a run is then
    seen only where it rises above every earlier one. Either way memory the allocator already holds, freed by
    an earlier test, is reused without raising the peak: the check can miss, never wrongly fail."""
    with contextlib.suppress(OSError):
        Path("/proc/self/clear_refs").write_text("5")
    start = _peak_mib()
    result = run()
    return result, max(0.0, _peak_mib() - start)


def _peak_mib() -> float:
    with contextlib.suppress(OSError, ValueError, IndexError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss      # KiB on Linux, bytes on macOS
    return peak / (2**20 if sys.platform == "darwin" else 1024)


def check(target: Target, recipe: list[list]) -> None:
    data = apply(recipe, ORIGINALS[target.name], zipped=target.file.endswith(".xlsx"))
    with tempfile.TemporaryDirectory(prefix="pnp-fuzz-") as folder:
        root = make_project(Path(folder), target, data)
        code, text, grown = validate_measured(root, target.game)
    wrong = problems_of(target, code, text, grown)
    assert not wrong, f"recipe {json.dumps(recipe)} on {target.file}: {'; '.join(wrong)}\n{text[-3000:]}"


def _fuzz(name: str):
    @pytest.mark.slow           # a hundred runs of the command line: make test, not the edit loop's test-fast
    @fuzz_settings(name)
    @given(recipe=recipes(TARGETS[name]))
    def test(recipe):
        check(TARGETS[name], recipe)
    test.__name__ = f"test_mutated_{name}_is_answered_with_located_lines"
    test.__doc__ = f"A mutated {TARGETS[name].file}: exit 0 or 1, located lines, no traceback."
    return test


test_mutated_workbook_is_answered_with_located_lines = _fuzz("workbook")
test_mutated_csv_is_answered_with_located_lines = _fuzz("csv")
test_mutated_template_is_answered_with_located_lines = _fuzz("template")
test_mutated_game_yaml_is_answered_with_located_lines = _fuzz("game_yaml")
test_mutated_fonts_yaml_is_answered_with_located_lines = _fuzz("fonts_yaml")


def _regressions() -> list:
    return [pytest.param(path, id=path.stem) for path in sorted(REGRESSIONS.glob("*.json"))]


@pytest.mark.parametrize("path", _regressions())
def test_regression_is_a_located_problem(path: Path):
    """Every input the fuzzing once found crashing, replayed from its recipe: now the located line it names."""
    case = json.loads(path.read_text(encoding="utf-8"))
    target = TARGETS[case["target"]]
    data = apply(case["recipe"], ORIGINALS[target.name], zipped=target.file.endswith(".xlsx"))
    with tempfile.TemporaryDirectory(prefix="pnp-fuzz-") as folder:
        code, text, grown = validate_measured(make_project(Path(folder), target, data), target.game)
    assert problems_of(target, code, text, grown) == [], text
    assert code == case["exit"], text
    assert re.search(case["line"], text, re.MULTILINE), text


def test_the_property_sees_a_traceback_and_an_unlocated_line():
    """The checks cannot pass vacuously: a traceback, a bare line and an exit 1 without an error each fail."""
    target = TARGETS["workbook"]
    assert problems_of(target, 1, "Traceback (most recent call last):\nerror sheets/buildit.xlsx: x [file]\n")
    assert problems_of(target, 1, "something went wrong\n")
    assert problems_of(target, 1, "validation failed\n") == ["exit 1 without an error line"]
    assert problems_of(target, 1, "error /tmp/x/sheets/buildit.xlsx: y [file]\nvalidation failed\n")
    assert problems_of(target, 0, "validation passed\n", grown_mib=MEMORY_MIB + 1) == [
        f"peak memory {MEMORY_MIB + 1} MiB above the run's start"]
    assert problems_of(target, 1, "error sheets/buildit.xlsx: y [file]\n1 error(s), 0 warning(s)\n"
                                  "validation failed\n") == []


@pytest.mark.skipif(not Path("/proc/self/clear_refs").exists(), reason="the peak is reset on Linux only")
def test_the_memory_measure_is_the_runs_own_after_a_larger_one():
    """A run's peak is its own, even after a larger one in the same process (a test worker after a build).
    The pages come straight from the system (mmap), each touched: memory the allocator already holds would
    not raise the resident size."""
    _, earlier = measured(lambda: _touched(300))
    _, grown = measured(lambda: _touched(64))
    assert earlier >= 290
    assert 60 <= grown <= 100


def _touched(mib: int) -> int:
    import mmap

    with mmap.mmap(-1, mib * 2**20) as pages:
        for offset in range(0, len(pages), mmap.PAGESIZE):
            pages[offset] = 1
        return len(pages)
