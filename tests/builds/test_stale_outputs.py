"""output/<game>/ holds what the last build made and nothing else (issue 20): after any sequence of builds
(every paper and format, then A4 only, then Letter PNG only, then a renamed card) every file there is one
report.json lists, with its sha256; what other commands write (simulation/, sweep/, .cache/) is untouched;
a failed build writes and removes nothing; links are never followed. Measured on the disk, on a small data
game built through `pipeline.build.build`, and once end to end on Build It."""

from __future__ import annotations

import csv
import hashlib
import json
import os
import shutil
from pathlib import Path

import openpyxl
import pypdfium2 as pdfium
import pytest

from pipeline import PROJECT_ROOT
from pipeline.build import build
from pipeline.core.config import BuildConfig
from pipeline.core.output import NOT_BUILT, recording, remove_stale
from tests.conftest import copy_project, run_cli

GAME = "toydeck"
CARDS = 9
NOT_LISTED_YET = {"report.json", "report.md"}   # a file cannot hold its own sha256; report.md: see below


# --- a small data game, named by its titles (a renamed card renames its PNG) --------------------------------

def _project(folder: Path) -> Path:
    game = folder / "templates" / GAME
    game.mkdir(parents=True)
    for name in ("front.yaml", "back.yaml"):
        shutil.copy(PROJECT_ROOT / "templates" / "benchdeck" / name, game / name)
    data = folder / "data"
    shutil.copytree(PROJECT_ROOT / "bench" / "data" / "icons", data / "icons")
    with open(PROJECT_ROOT / "bench" / "data" / "cards_100.csv", newline="", encoding="utf-8") as source:
        rows = list(csv.reader(source))[: CARDS + 1]
    _write_csv(data / "cards.csv", rows)
    manifest = (PROJECT_ROOT / "templates" / "benchdeck" / "game.yaml").read_text(encoding="utf-8")
    manifest = (manifest.replace("id: benchdeck", f"id: {GAME}")
                .replace("../../bench/data/cards_100.csv", "../../data/cards.csv")
                .replace("count: 100", f"count: {CARDS}")
                .replace("name: id ", "name: title "))
    (game / "game.yaml").write_text(manifest, encoding="utf-8")
    return folder


def _write_csv(path: Path, rows: list[list[str]]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as out:
        csv.writer(out).writerows(rows)


def _rename_first_card(root: Path, title: str) -> str:
    path = root / "data" / "cards.csv"
    with open(path, newline="", encoding="utf-8") as source:
        rows = list(csv.reader(source))
    old, rows[1][1] = rows[1][1], title
    _write_csv(path, rows)
    return old


def _build(root: Path, **options) -> list[str]:
    report, built = build(BuildConfig(root=root, games=(GAME,), **options))
    assert not report.errors, [str(problem) for problem in report.errors]
    return built


# --- what the folder holds, and what report.json says it holds ------------------------------------------------

def _on_disk(folder: Path) -> dict[str, str]:
    """Every file under the build's part of a game folder: {path from the project root: sha256}."""
    found = {}
    for path in sorted(folder.rglob("*")):
        if path.relative_to(folder).parts[0] in NOT_BUILT or path.is_dir():
            continue
        found[str(path.relative_to(folder.parent.parent))] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


def _listed(folder: Path) -> dict[str, str]:
    """{path: sha256} of every file report.json lists: wherever it names an output file with its sha256
    (outputs, the images of a PNG entry, the print guides…)."""
    data = json.loads((folder / "report.json").read_text(encoding="utf-8"))
    prefix, listed = f"output/{folder.name}/", {}

    def walk(value) -> None:
        if isinstance(value, dict):
            if isinstance(value.get("path"), str) and "sha256" in value and value["path"].startswith(prefix):
                listed[value["path"]] = value["sha256"]
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
    walk(data)
    return listed


def _assert_only_listed(folder: Path) -> None:
    disk, listed = _on_disk(folder), _listed(folder)
    prefix = f"output/{folder.name}/"
    unlisted = {path for path in disk if path not in listed} - {prefix + name for name in NOT_LISTED_YET}
    assert not unlisted, f"files report.json does not list: {sorted(unlisted)[:10]}"
    assert all(path in disk for path in listed), "report.json lists a file that is not there"
    assert {path: disk[path] for path in listed} == listed, "a listed sha256 does not match the file"


def _text(pdf_path: Path) -> str:
    pdf = pdfium.PdfDocument(str(pdf_path))
    try:
        return "\n".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))
    finally:
        pdf.close()


@pytest.fixture
def toy(tmp_path: Path) -> Path:
    return _project(tmp_path / "project")


def test_any_sequence_of_builds_leaves_only_what_report_json_lists(toy, tmp_path):
    out = toy / "output" / GAME
    _build(toy, papers=("a4", "letter"), formats=("pnp", "print", "png"), ink_saver=True)
    _assert_only_listed(out)
    assert {p.name for p in out.iterdir()} >= {"pnp-a4", "pnp-letter", "print", "png"}

    others = {out / "simulation" / "report.md": b"bots", out / "sweep" / "grid.json": b"{}",
              out / ".cache" / "faces.bin": b"x"}
    for path, data in others.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    (out / "notes.txt").write_text("a file of mine")              # the build's folder: not a place for it

    _build(toy, papers=("a4",))
    _assert_only_listed(out)
    assert sorted(p.name for p in out.iterdir() if p.is_dir()) == [".cache", "pnp-a4", "simulation", "sweep"]
    assert not (out / "notes.txt").exists()
    assert sorted(p.name for p in (out / "pnp-a4").iterdir()) == ["cards.pdf", "pli"]     # pli/: its fold-over twin
    assert sorted(p.name for p in (out / "pnp-a4" / "pli").iterdir()) == ["cards-pli.pdf"]

    _build(toy, papers=("letter",), formats=("png",))
    _assert_only_listed(out)
    assert len(list((out / "png" / "cards").iterdir())) == CARDS + 1          # fronts and the one back
    assert not (out / "pnp-a4").exists() and not (out / "pnp-letter").exists()

    old = _rename_first_card(toy, "Faucon Renommé")
    _build(toy, papers=("a4", "letter"), formats=("pnp", "png"), ink_saver=True)
    _assert_only_listed(out)
    assert not (out / "png" / "cards" / f"{old}.png").exists()
    assert (out / "png" / "cards" / "Faucon Renommé.png").exists()
    for pdf in out.rglob("*.pdf"):
        text = _text(pdf)
        assert old not in text and "Faucon Renommé" in text, pdf.name
    assert all(path.read_bytes() == data for path, data in others.items())


def test_a_failed_build_writes_and_removes_nothing(toy):
    out = toy / "output" / GAME
    _build(toy, papers=("a4", "letter"))
    before = _on_disk(out)
    path = toy / "data" / "cards.csv"
    with open(path, newline="", encoding="utf-8") as source:
        rows = list(csv.reader(source))
    rows[2][3] = "treize"                                         # column a is a whole number
    _write_csv(path, rows)
    report, built = build(BuildConfig(root=toy, games=(GAME,), papers=("a4",)))
    assert report.errors and built == []
    assert _on_disk(out) == before


def test_links_are_never_followed(toy, tmp_path):
    out = toy / "output" / GAME
    _build(toy, papers=("a4",))
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "png").mkdir(parents=True)
    precious = elsewhere / "png" / "precious.png"
    precious.write_bytes(b"mine")
    (elsewhere / "notes.txt").write_text("mine")
    os.symlink(elsewhere / "png", out / "png", target_is_directory=True)          # a stale folder link
    os.symlink(elsewhere / "notes.txt", out / "pnp-a4" / "notes.txt")           # a stale file link

    linked = tmp_path / "letter-sheets"                                            # written through: kept
    linked.mkdir()
    (linked / "old.pdf").write_bytes(b"%PDF old")
    os.symlink(linked, out / "pnp-letter", target_is_directory=True)

    _build(toy, papers=("a4", "letter"))
    assert not (out / "png").exists() and not (out / "pnp-a4" / "notes.txt").exists()
    assert precious.read_bytes() == b"mine" and (elsewhere / "notes.txt").read_text() == "mine"
    assert (out / "pnp-letter").is_symlink() and (linked / "cards.pdf").is_file()
    assert (linked / "old.pdf").exists()                     # inside a link: never swept


def test_remove_stale_keeps_written_files_other_commands_and_running_temporaries(tmp_path):
    game = tmp_path / "output" / "buildit"
    with recording() as written:
        from pipeline.core.output import atomic_write
        atomic_write(game / "pnp-a4" / "cities.pdf", b"%PDF new")
        atomic_write(game / "report.json", b"{}")
    stale = [game / "pnp-letter" / "cities.pdf", game / "png" / "cities" / "old-name.png", game / "notes.txt"]
    live = game / "pnp-letter" / f".normal.pdf.{os.getppid()}-abcdefgh.tmp"      # a build still writing
    kept = [game / "simulation" / "report.md", game / "sweep" / "a.json", game / ".cache" / "b", live]
    for path in stale + kept:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"x")

    removed = remove_stale(game, written)
    assert set(removed) >= set(stale) and not any(path.exists() for path in stale)
    assert all(path.exists() for path in kept)
    assert (game / "pnp-a4" / "cities.pdf").read_bytes() == b"%PDF new"
    assert not (game / "png").exists()                     # emptied folders go too
    assert (game / "pnp-letter").is_dir()                  # holds the running build's temporary


def test_report_json_lists_report_md(toy):
    _build(toy, papers=("a4",))
    out = toy / "output" / GAME
    listed = _listed(out)
    assert listed.get(f"output/{GAME}/report.md") == hashlib.sha256((out / "report.md").read_bytes()).hexdigest()


def test_buildit_make_then_a4_with_a_renamed_card_leaves_no_old_name(tmp_path):
    """The playtester's sequence: `make` (every paper and format), then `pnp build buildit --paper a4` with
    a City renamed. No file printing the old name is left, and every file is listed."""
    root = copy_project(tmp_path / "project")
    out = root / "output" / "buildit"
    result = run_cli("build", "buildit", "--paper", "all", "--format", "all", "--ink-saver", root=root)
    assert result.returncode == 0, result.stderr
    book = openpyxl.load_workbook(root / "sheets" / "buildit.xlsx")
    sheet = book["cities"]
    old = sheet["B2"].value
    sheet["B2"] = "Damierbourg"
    book.save(root / "sheets" / "buildit.xlsx")
    result = run_cli("build", "buildit", "--paper", "a4", root=root)
    assert result.returncode == 0, result.stderr
    _assert_only_listed(out)
    pdfs = sorted(out.rglob("*.pdf"))
    assert pdfs and all("pnp-a4" in pdf.relative_to(out).parts[:1] for pdf in pdfs)     # and its pli/ twins
    assert not [pdf.name for pdf in pdfs if old in _text(pdf)]
    assert "Damierbourg" in _text(out / "pnp-a4" / "cities.pdf")


def test_a_file_that_cannot_be_removed_is_reported_not_fatal(tmp_path, monkeypatch):
    game = tmp_path / "output" / "buildit"
    locked, stale = game / "pnp-letter" / "locked.pdf", game / "pnp-letter" / "cities.pdf"
    for path in (locked, stale):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"x")
    real = Path.unlink

    def unlink(self, missing_ok=False):
        if self.name == "locked.pdf":
            raise PermissionError(13, "Permission denied")
        return real(self, missing_ok)

    monkeypatch.setattr(Path, "unlink", unlink)
    refused: list = []
    assert remove_stale(game, [], refused=refused) == [stale]
    assert refused == [(locked, "Permission denied")] and locked.exists()
