"""Incremental builds (issue 15): the build cache (.pnp-cache/) can only make a build faster, never make it
different.

Every build here is the library's build() on a project copy (the path `pnp watch` takes), on A4 only."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest

import pipeline.cache as cache_module
from conftest import copy_project, edit_workbook, set_cell
from pipeline.build import UnknownComponent, build
from pipeline.cache import BuildStats
from pipeline.core.config import BuildConfig
from pipeline.core.progress import Progress

GAME = "nba"
CARD = "michael_jordan"


def run(root: Path, only: tuple[str, ...] = ()) -> BuildStats:
    stats = BuildStats()
    report, built = build(BuildConfig(root=root, games=(GAME,), papers=("a4",), only=only), Progress(), stats=stats)
    assert built == [GAME], [str(p) for p in report.errors]
    return stats


def files(root: Path) -> dict[str, str]:
    folder = root / "output" / GAME
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def laid_out(stats: BuildStats) -> dict[str, int]:
    return {name: part.faces_laid_out for name, part in stats.games[GAME].items() if part.faces_laid_out}


def rename_card(root: Path) -> None:
    edit_workbook(root / "sheets" / "nba.xlsx", lambda wb: set_cell(wb["players"], "id", CARD, "name", "Nouveau nom"))


def face_specs(root: Path) -> dict[str, list]:
    """Every face's template and values, read without the cache (so without filling it)."""
    from pipeline.build import prepare
    from pipeline.core.errors import Report
    from pipeline.kinds import kind_of

    prepared = prepare(BuildConfig(root=root, games=(GAME,), papers=("a4",)), Report(), Progress())
    return {c.id: [(f.template, repr(f.context)) for f in kind_of(c).spec_faces(c)] for c in prepared[0].components}


@pytest.fixture
def built(tmp_path) -> tuple[Path, BuildStats]:
    """A project copy built once (its cache filled), its own for each test: the tests change it."""
    root = copy_project(tmp_path / "project")
    first = run(root)
    assert sum(part.faces_laid_out for part in first.games[GAME].values()) > 0
    return root, first


def test_unchanged_rebuild_lays_out_nothing_and_writes_the_same_bytes(built):
    root, _ = built
    before = files(root)
    stats = run(root)
    assert laid_out(stats) == {}
    assert all(part.files_written == 0 for part in stats.games[GAME].values())
    assert sum(part.files_reused for part in stats.games[GAME].values()) >= 10
    assert files(root) == before


def test_one_changed_cell_lays_out_its_card_only_and_matches_a_clean_build(built, tmp_path):
    root, first = built
    old = face_specs(root)
    rename_card(root)
    new = face_specs(root)
    changed = {cid: sum(a != b for a, b in zip(old[cid], new[cid])) for cid in new}
    assert changed["players"] >= 1
    stats = run(root)
    assert laid_out(stats) == {cid: n for cid, n in changed.items() if n}
    written = {name for name, part in stats.games[GAME].items() if part.files_written}
    assert "players" in written and "tactics" not in written and "court" not in written
    clean = copy_project(tmp_path / "clean")
    shutil.copy(root / "sheets" / "nba.xlsx", clean / "sheets" / "nba.xlsx")    # the same edited bytes
    run(clean)
    assert files(root) == files(clean)


def test_deleting_the_cache_changes_nothing(built, tmp_path):
    root, first = built
    before = files(root)
    shutil.rmtree(root / ".pnp-cache")
    stats = run(root)
    assert laid_out(stats) == laid_out(first)
    assert files(root) == before


def test_corrupted_or_foreign_entries_are_never_trusted(built, tmp_path):
    root, first = built
    before = files(root)
    entries = sorted(p for p in (root / ".pnp-cache").glob("*/*/*") if not p.name.startswith("."))
    contents = [p.read_bytes() for p in entries]
    for index, path in enumerate(entries):
        if index % 2:                                   # another entry's (valid) file under this key
            path.write_bytes(contents[index - 1])
        else:                                           # one flipped byte in the payload
            data = bytearray(contents[index])
            data[-1] ^= 0xFF
            path.write_bytes(bytes(data))
    stats = run(root)
    assert laid_out(stats) == laid_out(first)          # every face laid out as in a clean build
    assert all(part.files_reused == 0 for part in stats.games[GAME].values())
    assert files(root) == before


def test_a_damaged_output_file_is_drawn_again(built):
    root, _ = built
    before = files(root)
    sheet = root / "output" / GAME / "pnp-a4" / "players.pdf"
    sheet.write_bytes(sheet.read_bytes()[:-10])
    stats = run(root)
    assert stats.games[GAME]["players"].files_written == 1 and laid_out(stats) == {}
    assert files(root) == before


def test_a_code_fingerprint_change_invalidates_everything(built, tmp_path, monkeypatch):
    root, first = built
    monkeypatch.setattr(cache_module, "code_fingerprint", lambda: "another version of the pipeline")
    stats = run(root)
    assert laid_out(stats) == laid_out(first)          # every face laid out as in a clean build
    assert all(part.files_reused == 0 for part in stats.games[GAME].values())


def test_only_builds_the_named_components(tmp_path):
    root = copy_project(tmp_path / "project")
    stats = run(root, only=("players",))
    pdfs = {name for name in files(root) if name.endswith(".pdf")}
    assert pdfs == {"pnp-a4/players.pdf"}
    assert not stats.games[GAME]["tactics"].built and stats.games[GAME]["tactics"].faces_laid_out == 0
    with pytest.raises(UnknownComponent, match="players, tactics"):
        run(root, only=("playerz",))


def test_only_keeps_the_other_components_while_the_cache_proves_them_current(built, tmp_path):
    root, first = built
    before = files(root)
    rename_card(root)
    stats = run(root, only=("players",))
    after = files(root)
    assert after["pnp-a4/players.pdf"] != before["pnp-a4/players.pdf"]
    kept = {name for name in before if name.endswith(".pdf") and after.get(name) == before[name]}
    assert "pnp-a4/tactics.pdf" in kept and stats.games[GAME]["tactics"].files_reused == 1
    report = (root / "output" / GAME / "report.json").read_text()
    assert all(digest in report for name, digest in after.items() if name.endswith(".pdf"))


def test_a_killed_builds_half_written_entry_is_removed(built):
    root, _ = built
    folder = next((root / ".pnp-cache").glob("*/*"))
    part = folder / f"{'0' * 64}.99999999-abcdefgh.part"           # no such process
    part.write_bytes(b"pnp-cache-1 half")
    run(root)
    assert not part.exists()
    assert not list((root / "output").rglob(".*.tmp"))



def test_a_build_that_fails_validation_writes_no_cache(tmp_path):
    root = copy_project(tmp_path / "project")
    slots = root / "templates" / GAME / "board-slots.yaml"       # the court board, laid out after the cards
    slots.write_text(slots.read_text().replace("bleed: 3", "bleed: 1"))
    stats = BuildStats()
    report, built = build(BuildConfig(root=root, games=(GAME,), papers=("a4",)), Progress(), stats=stats)
    assert built == [] and any("bleed is 1 mm" in p.message for p in report.errors)
    assert stats.games[GAME]["players"].faces_laid_out > 0          # laid out, and not kept on disk
    assert not (root / "output").exists() and not (root / ".pnp-cache").exists()
