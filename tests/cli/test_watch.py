"""`pnp watch` (issue 15) through real file changes in a project copy: the watcher runs in a thread (or, for
Ctrl-C, as the command line in a subprocess) and every test waits on what it prints, with a timeout, never
on a sleep."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from pipeline.cli.watch import Rebuilder, Watched, incomplete, is_temporary, watch
from pipeline.core.config import BuildConfig
from pipeline.core.output import TEMP_AREA
from tests.conftest import copy_project, edit_workbook, pdf_text, run_cli, set_cell

pytestmark = pytest.mark.slow           # every test builds Build It at least twice

TIMEOUT = 120
CONTRACTS = Path("output/buildit/pnp-a4/contracts.pdf")


class Watcher:
    """`watch()` in a thread on a project copy, recording what each rebuild was given and printed."""

    def __init__(self, root: Path, only: tuple[str, ...] = ()):
        self.root = root
        self.rebuilder = Rebuilder(BuildConfig(root=root, games=("buildit",), papers=("a4",)), only)
        self.lines: queue.Queue[str] = queue.Queue()
        self.changed: list[set[str]] = []
        rebuild = self.rebuilder.rebuild

        def recorded(changed=()):
            changed = {Path(path).relative_to(root).as_posix() for path in changed}
            self.changed.append(changed)
            return rebuild(root / path for path in changed)

        self.rebuilder.rebuild = recorded
        self.stop = threading.Event()
        self.thread = threading.Thread(target=watch, args=(self.rebuilder, self._emit, self.stop), daemon=True)

    def _emit(self, lines: list[str]) -> None:
        for line in lines:
            self.lines.put(line)

    def __enter__(self) -> "Watcher":
        self.first = first = self.rebuilder.first()
        assert first[-1].startswith("built buildit: "), first
        self.thread.start()
        self.wait_for("watching ")
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()
        self.thread.join(TIMEOUT)
        assert not self.thread.is_alive()

    def wait_for(self, *texts: str) -> list[str]:
        """Every line printed until one holding one of `texts` (that one included)."""
        seen = []
        while not seen or not any(text in seen[-1] for text in texts):
            try:
                seen.append(self.lines.get(timeout=TIMEOUT))
            except queue.Empty:
                pytest.fail(f"no line with {texts} in {TIMEOUT} s; printed: {seen}")
        return seen


def _renamed_workbook(path: Path, name: str) -> bytes:
    """The bytes of the workbook with the first contract renamed (the file itself unchanged)."""
    copy = path.with_name("copy-of-workbook.xlsx")
    copy.write_bytes(path.read_bytes())
    edit_workbook(copy, lambda wb: set_cell(wb["contracts"], "id", "picsou", "name", name))
    data = copy.read_bytes()
    copy.unlink()
    return data


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return copy_project(tmp_path / "project")


def test_a_save_rebuilds_and_the_sheet_changes(root):
    with Watcher(root) as watcher:
        before = (root / CONTRACTS).read_bytes()
        assert "Machine Picsou" in pdf_text(root / CONTRACTS)
        edit_workbook(root / "sheets/buildit.xlsx",
                      lambda wb: set_cell(wb["contracts"], "id", "picsou", "name", "Distributeur Picsou"))
        printed = watcher.wait_for("rebuilt ")
    assert printed[-1].startswith("rebuilt contracts (")
    assert (root / CONTRACTS).read_bytes() != before
    assert "Distributeur Picsou" in pdf_text(root / CONTRACTS)
    assert {"sheets/buildit.xlsx"} >= set().union(*watcher.changed)
    assert not any(line.startswith("error") for line in printed)


def test_lock_and_temporary_files_alone_rebuild_nothing(root):
    sheets = root / "sheets"
    with Watcher(root) as watcher:
        for name in ("~$buildit.xlsx", ".~lock.buildit.xlsx#", "lu28311ab2c.tmp", "A1B2C3D4", "~WRL0001.tmp"):
            (sheets / name).write_bytes(b"lock")
        (root / "templates/buildit/.contract.yaml.swp").write_bytes(b"editor")
        (sheets / "challengers.xlsx").write_bytes((sheets / "challengers.xlsx").read_bytes())  # another game's
        # the sentinel: a real input, written after them; events arrive in order, so a temporary that were
        # taken for an input would be in this rebuild or an earlier one
        (root / "templates/buildit/sentinel.txt").write_text("saved last")
        watcher.wait_for("rebuilt ", "nothing to rebuild")
    assert watcher.changed == [{"templates/buildit/sentinel.txt"}]


def test_an_excel_save_through_a_temporary_rebuilds_from_the_new_workbook(root):
    workbook = root / "sheets/buildit.xlsx"
    renamed = _renamed_workbook(workbook, "Guichet Picsou")
    with Watcher(root) as watcher:
        (root / "sheets/~$buildit.xlsx").write_bytes(b"owner")           # Excel's lock, while open
        temporary = root / "sheets/9F3A2C1B"                              # Excel writes here, then swaps
        temporary.write_bytes(renamed)
        workbook.unlink()
        temporary.rename(workbook)
        (root / "sheets/~$buildit.xlsx").unlink()
        watcher.wait_for("rebuilt ")
    assert "Guichet Picsou" in pdf_text(root / CONTRACTS)
    assert set().union(*watcher.changed) == {"sheets/buildit.xlsx"}


def test_a_half_written_workbook_is_not_built_and_the_complete_save_is(root):
    workbook = root / "sheets/buildit.xlsx"
    complete = _renamed_workbook(workbook, "Banque Picsou")
    with Watcher(root) as watcher:
        before = (root / CONTRACTS).read_bytes()
        workbook.write_bytes(complete[: len(complete) // 2])
        printed = watcher.wait_for("waiting for the next save")
        assert printed[-1] == ("sheets/buildit.xlsx is not a complete workbook yet (half written?): not built, "
                               "waiting for the next save")
        assert (root / CONTRACTS).read_bytes() == before
        workbook.write_bytes(complete)
        watcher.wait_for("rebuilt ")
    assert "Banque Picsou" in pdf_text(root / CONTRACTS)


def test_a_bad_cell_prints_its_place_the_watcher_goes_on_and_the_fix_rebuilds(root):
    workbook = root / "sheets/buildit.xlsx"
    with Watcher(root) as watcher:
        before = (root / CONTRACTS).read_bytes()
        edit_workbook(workbook, lambda wb: set_cell(wb["contracts"], "id", "picsou", "plots", "deux"))
        printed = watcher.wait_for("build failed")
        assert "error sheets/buildit.xlsx › contracts › C2 (plots): 'deux' is not a whole number [type]" in printed
        assert printed[-1] == "build failed: nothing was written; watching for the next save"
        assert (root / CONTRACTS).read_bytes() == before
        edit_workbook(workbook, lambda wb: set_cell(wb["contracts"], "id", "picsou", "plots", 1))
        printed = watcher.wait_for("rebuilt ", "nothing to rebuild")
        assert not any(line.startswith("error") for line in printed)
        assert printed[-1].startswith("nothing to rebuild: every file is current")  # the failed build wrote none
        assert watcher.thread.is_alive()
    assert (root / CONTRACTS).read_bytes() == before          # the fix rebuilt the same sheet, byte for byte


def test_art_changed_in_place_is_drawn_anew_as_a_clean_build_draws_it(root, tmp_path):
    icon = root / "templates/buildit/icons/sabotage.svg"
    normal = root / "output/buildit/pnp-a4/normal.pdf"
    with Watcher(root) as watcher:
        before = normal.read_bytes()
        icon.write_text(icon.read_text().replace('fill="#2B2B2B"', 'fill="#B22222"'))   # a red bomb
        watcher.wait_for("rebuilt ")
    assert normal.read_bytes() != before
    clean = copy_project(tmp_path / "clean")                  # the same inputs, built by a fresh process
    (clean / "templates/buildit/icons/sabotage.svg").write_bytes(icon.read_bytes())
    assert run_cli("build", "buildit", "--paper", "a4", root=clean).returncode == 0
    assert normal.read_bytes() == (clean / "output/buildit/pnp-a4/normal.pdf").read_bytes()


def test_unchanged_warnings_are_printed_once(root):
    def add_column(wb):
        sheet = wb["contracts"]
        sheet.cell(1, sheet.max_column + 1, "remarque")

    edit_workbook(root / "sheets/buildit.xlsx", add_column)
    with Watcher(root) as watcher:
        assert [line for line in watcher.first if "remarque" in line][0].startswith("warning sheets/buildit.xlsx")
        edit_workbook(root / "sheets/buildit.xlsx",
                      lambda wb: set_cell(wb["contracts"], "id", "picsou", "name", "Guichet Picsou"))
        printed = watcher.wait_for("rebuilt ")
    assert printed == [printed[-1]] and printed[-1].endswith(" (1 warning as before)"), printed


def test_only_rebuilds_the_named_components(root):
    def rename_both(wb):
        set_cell(wb["contracts"], "id", "picsou", "name", "Caisse Picsou")
        set_cell(wb["cities"], "id", "carreville", "name", "Carrécité")

    with Watcher(root, only=("contracts",)) as watcher:
        assert sorted(path.name for path in (root / "output/buildit/pnp-a4").iterdir()) == ["contracts.pdf"]
        edit_workbook(root / "sheets/buildit.xlsx", rename_both)
        printed = watcher.wait_for("rebuilt ")
    assert printed[-1].startswith("rebuilt contracts (") and "cities" not in printed[-1]
    assert "Caisse Picsou" in pdf_text(root / CONTRACTS)
    assert not (root / "output/buildit/pnp-a4/cities.pdf").exists()


def test_what_is_watched_and_what_is_a_temporary(root):
    from pipeline.games import load_game

    watched = Watched.of(load_game("buildit", root), root)
    assert [path.relative_to(root).as_posix() for path in watched.roots()] == [
        "fonts", "sheets", "templates/buildit", "templates/common"]
    inputs = ["sheets/buildit.xlsx", "sheets/art/castle.png", "templates/buildit/contract.yaml",
              "templates/common/icons/gold.svg", "fonts/fonts.yaml", "templates/buildit/rules/rules.md"]
    others = ["sheets/nba.xlsx", "sheets/~$buildit.xlsx", "sheets/.~lock.buildit.xlsx#", "sheets/lu123.tmp",
              "sheets/0A1B2C3D", "templates/buildit/contract.yaml~", "templates/buildit/.contract.yaml.swp",
              "output/buildit/report.json", "templates/buildit/__pycache__/x.pyc", "sheets/notes.txt"]
    assert [path for path in inputs if not watched.relevant(root / path)] == []
    assert [path for path in others if watched.relevant(root / path)] == []
    assert not is_temporary(Path("buildit.xlsx")) and is_temporary(Path("~$buildit.xlsx"))


def test_incomplete_workbooks(root):
    workbook = root / "sheets/buildit.xlsx"
    assert incomplete(workbook) is None
    data = workbook.read_bytes()
    for cut in (0, 100, len(data) // 2, len(data) - 10):
        workbook.write_bytes(data[:cut])
        assert incomplete(workbook) == "is not a complete workbook yet (half written?)", cut
    workbook.unlink()
    assert incomplete(workbook) == "is missing (being saved?)"


# --- the command line ------------------------------------------------------------------------------------

def _lines_of(process: subprocess.Popen) -> queue.Queue:
    lines: queue.Queue = queue.Queue()

    def read():
        for line in process.stdout:
            lines.put(line.rstrip("\n"))
        lines.put(None)

    threading.Thread(target=read, daemon=True).start()
    return lines


def _until(lines: queue.Queue, text: str, process: subprocess.Popen) -> None:
    seen = []
    while not seen or text not in (seen[-1] or ""):
        try:
            seen.append(lines.get(timeout=TIMEOUT))
        except queue.Empty:
            seen.append(None)
        if seen[-1] is None:
            process.kill()
            pytest.fail(f"the watcher never printed {text!r}: {seen} {process.stderr.read()}")


@pytest.mark.parametrize("moment", ["while building", "while watching"])
@pytest.mark.parametrize("stop, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)], ids=["Ctrl-C", "SIGTERM"])
def test_ctrl_c_stops_the_command_cleanly(moment, stop, code, tmp_path):
    root = copy_project(tmp_path / "project")
    process = subprocess.Popen([sys.executable, "-m", "pipeline", "watch", "buildit", "--paper", "a4"],
                               env={**os.environ, "PNP_ROOT": str(root)}, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    lines = _lines_of(process)
    _until(lines, "building buildit" if moment == "while building" else "watching ", process)
    process.send_signal(stop)
    process.wait(TIMEOUT)
    stderr = process.stderr.read()
    assert process.returncode == code, stderr
    assert "Traceback" not in stderr
    assert ("stopped watching" in stderr or "interrupted" in stderr) if code == 130 else "terminated" in stderr
    output = root / "output"
    assert sorted(output.rglob(".*.tmp")) + sorted(output.rglob(TEMP_AREA)) == []
