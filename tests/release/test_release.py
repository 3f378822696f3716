"""`pnp release`'s parts: reproducible zips, SHA256SUMS, what each bundle holds, versions that can name a folder,
the previous tag, publishing whole folders; then Build It released in-process from a temporary repository
after one card changed between two tags (CHANGES.md with its ids and cell, the reprint sheet, the sums)."""

from __future__ import annotations

import hashlib
import io
import os
import re
import shutil
import subprocess
import zipfile
from pathlib import Path

import openpyxl
import pdfplumber
import pytest

from pipeline import PROJECT_ROOT
from pipeline.core.errors import Report
from pipeline.diff.changes import Changes
from pipeline.release.bundle import (EpochError, SUMS, ZIP_EPOCH, bundle_entries, source_date_epoch, write_sha256sums,
                                     loose_files, write_zip, zip_time)
from pipeline.release.readme import PLACEHOLDER
from pipeline.release.changes import ReleaseChanges, changes_markdown, previous_tag
from pipeline.release.run import ReleaseRequest, default_games, publish, refused, release, version_problem
from tests.conftest import copy_project, set_cell

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
COMMIT_TIME = "2026-01-02T03:04:06Z"
COMMIT_EPOCH = 1767323046


def git(repo: Path, *args: str) -> str:
    """git with a fixed author and time, so the same tree makes the same commit."""
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.org", "GIT_AUTHOR_DATE": COMMIT_TIME, "GIT_COMMITTER_DATE": COMMIT_TIME}
    done = subprocess.run(["git", *args], cwd=repo, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def repository(folder: Path) -> Path:
    """A project copy committed in a new git repository (output/ and dist/ ignored)."""
    copy_project(folder)
    (folder / ".gitignore").write_text("/output/\n/dist/\n")
    git(folder, "init", "-q")
    git(folder, "add", ".")
    git(folder, "commit", "-q", "-m", "first")
    return folder


# --- zips and sums --------------------------------------------------------------------------------------------

def _files(folder: Path) -> list[tuple[str, Path]]:
    (folder / "b").mkdir(parents=True)
    made = {"b/sheet.pdf": b"%PDF-1.4 " * 50, "a.md": "# é\n".encode() * 20, "b/c.png": b"\x89PNG" * 10}
    for name, data in made.items():
        (folder / name).write_bytes(data)
    return [(f"top/{name}", folder / name) for name in made]


def test_a_zip_is_the_same_bytes_whatever_the_files_times_and_order(tmp_path):
    entries = _files(tmp_path / "files")
    write_zip(tmp_path / "one.zip", entries, 1_700_000_001)
    for _, path in entries:
        os.utime(path, (1_000_000_000, 1_000_000_000))
        os.chmod(path, 0o600)
    write_zip(tmp_path / "two.zip", list(reversed(entries)), 1_700_000_001)
    assert (tmp_path / "one.zip").read_bytes() == (tmp_path / "two.zip").read_bytes()
    with zipfile.ZipFile(tmp_path / "one.zip") as bundle:
        infos = bundle.infolist()
        assert [i.filename for i in infos] == ["top/a.md", "top/b/c.png", "top/b/sheet.pdf"]
        assert {i.date_time for i in infos} == {(2023, 11, 14, 22, 13, 20)}      # UTC, even seconds
        assert {i.external_attr >> 16 for i in infos} == {0o100644}
        assert [i.compress_type for i in infos] == [zipfile.ZIP_DEFLATED, zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED]
        assert {i.extra for i in infos} == {b""} and bundle.comment == b""
        assert bundle.read("top/a.md") == "# é\n".encode() * 20


def test_zip_times_are_clamped_to_what_a_zip_holds():
    assert zip_time(0) == (1980, 1, 1, 0, 0, 0)
    assert zip_time(ZIP_EPOCH + 3) == (1980, 1, 1, 0, 0, 2)
    assert zip_time(10 ** 11)[0] == 2107


@needs_git
def test_the_time_is_source_date_epoch_else_the_commit_else_1980(tmp_path):
    assert source_date_epoch(tmp_path, {"SOURCE_DATE_EPOCH": "1234567890"}) == 1234567890
    assert source_date_epoch(tmp_path, {}) == ZIP_EPOCH                       # not a git work tree
    with pytest.raises(EpochError, match="SOURCE_DATE_EPOCH must be a whole number"):
        source_date_epoch(tmp_path, {"SOURCE_DATE_EPOCH": "yesterday"})
    (tmp_path / "f").write_text("x")
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", "f")
    git(tmp_path, "commit", "-q", "-m", "x")
    assert source_date_epoch(tmp_path, {}) == COMMIT_EPOCH


def test_sha256sums_cover_every_other_file_in_the_sha256sum_format(tmp_path):
    _files(tmp_path)
    write_sha256sums(tmp_path)
    lines = (tmp_path / SUMS).read_text().splitlines()
    assert [line.split("  ")[1] for line in lines] == ["a.md", "b/c.png", "b/sheet.pdf"]
    for line in lines:
        digest, name = re.fullmatch(r"([0-9a-f]{64})  (\S+)", line).groups()
        assert hashlib.sha256((tmp_path / name).read_bytes()).hexdigest() == digest
    if shutil.which("sha256sum"):
        assert subprocess.run(["sha256sum", "-c", "--quiet", SUMS], cwd=tmp_path).returncode == 0


def test_each_bundle_holds_its_audiences_files_under_the_outputs_layout(tmp_path):
    out = tmp_path / "output"
    for name in ("g/guide-a4.md", "g/guide-letter.md", "g/ids.md", "g/pnp-a4/rulebook.pdf",
                 "g/pnp-a4/cards-ink-saver.pdf", "g/pnp-letter/rulebook.pdf", "g/print/cards.pdf",
                 "g/png/cards/c1.png", "g/tts/G.json", "g/tts/LISEZMOI.txt", "g/tgc/cards-PokerDeck/back.png",
                 "g/pcio/g.pcio", "g/report.json", "g/report.md", "calibration/pnp-a4.pdf",
                 "calibration/pnp-letter.pdf", "other/pnp-a4/x.pdf"):
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_text(name)
    found = {zip_name: [name for name, _ in entries]
             for zip_name, entries in bundle_entries(out, "g", "g-v1", ("a4", "letter")).items()}
    assert found == {
        "g-v1-home-a4.zip": ["g-v1/g/pnp-a4/cards-ink-saver.pdf", "g-v1/g/pnp-a4/rulebook.pdf", "g-v1/g/guide-a4.md",
                             "g-v1/g/ids.md", "g-v1/calibration/pnp-a4.pdf"],
        "g-v1-home-letter.zip": ["g-v1/g/pnp-letter/rulebook.pdf", "g-v1/g/guide-letter.md", "g-v1/g/ids.md",
                                 "g-v1/calibration/pnp-letter.pdf"],
        "g-v1-print-shop.zip": ["g-v1/g/print/cards.pdf"],
        "g-v1-png.zip": ["g-v1/g/png/cards/c1.png"],
        "g-v1-tts.zip": ["g-v1/g/tts/G.json", "g-v1/g/tts/LISEZMOI.txt"],
        "g-v1-tgc.zip": ["g-v1/g/tgc/cards-PokerDeck/back.png"]}
    assert loose_files(out, "g", "g-v1") == {"g-v1.pcio": out / "g" / "pcio" / "g.pcio"}


# --- versions, tags, games, publishing ------------------------------------------------------------------------

@pytest.mark.parametrize("version", ["v0.1", "0.3", "v0.1-3-g1a2b3c4-dirty", "1.0+rc_2"])
def test_versions_that_name_a_folder(version):
    assert version_problem(version) is None


@pytest.mark.parametrize("version", ["", "a/b", "../x", ".hidden", "v 1", "v1\n", "é", "x" * 65])
def test_versions_that_cannot_name_a_folder(version):
    assert "cannot name a release folder" in version_problem(version)


@needs_git
def test_the_previous_release_is_the_newest_tag_before_heads_commit(tmp_path):
    assert previous_tag(tmp_path) is None                                       # not a repository
    (tmp_path / "f").write_text("1")
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", "f")
    git(tmp_path, "commit", "-q", "-m", "1")
    git(tmp_path, "tag", "v0.1")
    assert previous_tag(tmp_path) is None                                       # v0.1 is this release
    for text in ("2", "3"):
        (tmp_path / "f").write_text(text)
        git(tmp_path, "commit", "-q", "-am", text)
        assert previous_tag(tmp_path) == "v0.1"
    git(tmp_path, "tag", "v0.2")
    assert previous_tag(tmp_path) == "v0.1"                                     # a tag on HEAD names this one


def test_a_bare_release_publishes_the_games_with_a_workbook():
    assert default_games(PROJECT_ROOT) == ("allstar", "buildit", "challengers", "fightball", "nba")


def test_publishing_replaces_a_folder_whole_and_puts_it_back_when_the_rename_fails(tmp_path, monkeypatch):
    dist, staged = tmp_path / "dist", tmp_path / "work" / "staged" / "g-v1"
    (dist / "g-v1").mkdir(parents=True)
    (dist / "g-v1" / "old.zip").write_text("old")
    staged.mkdir(parents=True)
    (staged / "new.zip").write_text("new")
    calls = []

    def failing(source, target):
        calls.append(source)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return os.rename(source, target)
    monkeypatch.setattr("pipeline.release.run.os.replace", failing)
    with pytest.raises(KeyboardInterrupt):
        publish(staged, dist, tmp_path / "work" / "replaced")
    assert sorted(p.name for p in (dist / "g-v1").iterdir()) == ["old.zip"]
    monkeypatch.undo()
    assert publish(staged, dist, tmp_path / "work" / "replaced2") == dist / "g-v1"
    assert sorted(p.name for p in (dist / "g-v1").iterdir()) == ["new.zip"]


# --- a release after one card changed between two tags ---------------------------------------------------------

@pytest.fixture(scope="module")
def two_tags(tmp_path_factory):
    """Build It tagged v0.1, then Gain de Pièces (normal_cards E5) costing 1 instead of 0, tagged v0.2, and
    released in-process."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    root = repository(tmp_path_factory.mktemp("release"))
    git(root, "tag", "v0.1")
    book = openpyxl.load_workbook(root / "sheets" / "buildit.xlsx")
    set_cell(book["normal_cards"], "id", "coin_gain_4", "cost", 1)
    book.save(root / "sheets" / "buildit.xlsx")
    git(root, "commit", "-q", "-am", "a card costs 1")
    git(root, "tag", "v0.2")
    report = Report()
    released = release(ReleaseRequest(root, ("buildit",)), report)
    assert not report.errors, [str(p) for p in report.errors]
    return root, released


@pytest.mark.slow
def test_the_release_folder_holds_the_bundles_changes_reprints_and_sums(two_tags):
    root, released = two_tags
    folder = root / "dist" / "buildit-v0.2"
    assert [item.folder for item in released] == [folder]
    assert sorted(p.name for p in (root / "dist").iterdir()) == ["buildit-v0.2"]      # no scratch left
    assert sorted(p.name for p in folder.iterdir()) == sorted([
        "CHANGES.md", "SHA256SUMS", "buildit-v0.2-home-a4.zip", "buildit-v0.2-home-letter.zip",
        "buildit-v0.2-png.zip", "buildit-v0.2-print-shop.zip", "reprint-a4.pdf", "reprint-letter.pdf",
        "buildit-v0.2-tts.zip", "buildit-v0.2.pcio", "buildit-v0.2-tgc.zip", "buildit-v0.2-mpc.zip",
        "buildit-v0.2-dtc.zip"])
    assert not (root / "output").exists()
    sums = dict(reversed(line.split("  ")) for line in (folder / SUMS).read_text().splitlines())
    assert sorted(sums) == sorted(p.name for p in folder.iterdir() if p.name != SUMS)
    assert all(hashlib.sha256((folder / n).read_bytes()).hexdigest() == d for n, d in sums.items())
    with zipfile.ZipFile(folder / "buildit-v0.2-home-a4.zip") as bundle:
        names = bundle.namelist()
    assert {"buildit-v0.2/buildit/guide-a4.md", "buildit-v0.2/buildit/ids.md",
            "buildit-v0.2/buildit/pnp-a4/rulebook.pdf", "buildit-v0.2/buildit/pnp-a4/cartes-63.5x88.9.pdf",
            "buildit-v0.2/buildit/pnp-a4/normal-ink-saver.pdf", "buildit-v0.2/calibration/pnp-a4.pdf"} <= set(names)
    assert not [n for n in names if "letter" in n or "report" in n]
    with zipfile.ZipFile(folder / "buildit-v0.2-tts.zip") as bundle:
        tts = {name.removeprefix("buildit-v0.2/buildit/tts/"): bundle.read(name) for name in bundle.namelist()}
    readme, saved = tts["LISEZMOI.txt"].decode("utf-8"), tts["Build-It.json"].decode("utf-8")
    assert "Build It v0.2 — Tabletop Simulator" in readme and "Saved Objects" in readme
    assert PLACEHOLDER + "buildit/" in readme and "file://" not in saved        # nothing of the builder's disk
    urls = set(re.findall(r'"(?:FaceURL|BackURL|ImageURL|ImageSecondaryURL)": "([^"]+)"', saved)) - {""}
    assert urls and all(url.startswith(PLACEHOLDER + "buildit/") and url.removeprefix(PLACEHOLDER + "buildit/")
                        in tts for url in urls)


@pytest.mark.slow
def test_changes_name_the_changed_card_by_its_ids_and_cell(two_tags):
    root, _ = two_tags
    text = (root / "dist" / "buildit-v0.2" / "CHANGES.md").read_text("utf-8")
    assert text.startswith("# Build It — v0.2\n") and "depuis v0.1" in text
    card = re.search(r"## Cartes modifiées \(1\)\n\n- `([0-9a-f]{4,}) → ([0-9a-f]{4,})` Gain de Pièces "
                     r"— Cartes Normales, normal_cards › ligne 5\n"
                     r"  - normal_cards › E5 \(cost\) : 0 → 1\n", text)
    assert card, text
    old, new = card.groups()
    assert old != new
    assert "## Cartes ajoutées" not in text and "## Cartes retirées" not in text
    assert "reprint-a4.pdf, reprint-letter.pdf : la carte ajoutée ou modifiée, avec son dos" in text
    assert str(root) not in text


@pytest.mark.slow
def test_the_reprint_sheet_holds_the_changed_card_with_its_new_mark(two_tags):
    root, _ = two_tags
    text = (root / "dist" / "buildit-v0.2" / "CHANGES.md").read_text("utf-8")
    new = re.search(r"`[0-9a-f]{4,} → ([0-9a-f]{4,})` Gain de Pièces", text).group(1)
    with pdfplumber.open(root / "dist" / "buildit-v0.2" / "reprint-a4.pdf") as pdf:
        assert len(pdf.pages) == 2                                          # the card and its back
        front, back = (page.extract_text() for page in pdf.pages)
    assert "Gain de Pièces" in front and f"Build It · v0.2 · {new}" in front
    assert "Build It · v0.2" in back and new not in back                  # a back is the deck's, as built
    with zipfile.ZipFile(root / "dist" / "buildit-v0.2" / "buildit-v0.2-home-a4.zip") as bundle:
        sheets = bundle.read("buildit-v0.2/buildit/pnp-a4/normal.pdf")
    with pdfplumber.open(io.BytesIO(sheets)) as pdf:
        printed = "\n".join(page.extract_text() for page in pdf.pages)
    assert printed.count(f"Build It · v0.2 · {new}") == 1                 # the release's sheets print that id


def test_a_recorded_erratum_does_not_refuse_a_release_any_other_warning_does():
    report = Report()
    report.warning("sheets/nba.xlsx › durations › E3", "erratum (AMB-01): …", "erratum")
    assert not refused(report)
    report.warning("sheets/nba.xlsx › players › H7", "…", "range")
    assert refused(report)
    errors = Report()
    errors.error("sheets/x.xlsx", "…", "erratum")
    assert refused(errors)


def test_changes_say_first_release_no_list_or_no_change():
    first = changes_markdown("Jeu", "v1", ReleaseChanges(None), [])
    assert first == ("# Jeu — v1\n\nPremière édition : aucune étiquette git ne précède ce commit, il n'y a rien "
                     "à comparer.\n")
    unknown = changes_markdown("Jeu", "v2", ReleaseChanges("v1", note="v1 ne contient pas jeu.xlsx."), [])
    assert unknown.endswith("Modifications depuis v1, l'édition précédente (étiquette git).\n\n"
                            "v1 ne contient pas jeu.xlsx.\n")
    same = changes_markdown("Jeu", "v2", ReleaseChanges("v1", Changes("v1")), [])
    assert same.endswith("Aucune modification : les cartes, les règles et le livret sont les mêmes.\n")


def test_a_release_first_removes_the_scratch_of_one_that_was_killed(tmp_path):
    abandoned = tmp_path / "dist" / ".pnp-tmp" / "999999999-abcdefgh"         # no such process
    (abandoned / "project").mkdir(parents=True)
    report = Report()
    assert release(ReleaseRequest(tmp_path, ("nosuchgame",)), report) == []
    assert "unknown game" in str(report.errors[0])
    assert not (tmp_path / "dist" / ".pnp-tmp").exists()


def test_games_start_side_by_side_the_largest_first_and_come_back_in_their_order(monkeypatch):
    """_side_by_side starts the games by the bytes of their data (the longest to build first, which balances
    the cores) and still hands each game its own results, in the games' order."""
    from pipeline.games import load_game
    from pipeline.release import run as release_run

    items = [release_run.Released(load_game(name, PROJECT_ROOT), "v1", Path(name))
             for name in ("buildit", "nba", "fightball")]
    started = {}

    def fake_run_all(tasks, workers, done=None, order=None):
        started["order"] = list(order)
        return [task() for task in tasks]
    monkeypatch.setattr(release_run, "run_all", fake_run_all)

    def step(request, item, seen, progress):
        item.seconds = float(len(item.game.id))
    release_run._side_by_side(ReleaseRequest(root=PROJECT_ROOT, games=(), jobs=2), items, Report(), None, step)
    sizes = [sum(path.stat().st_size for path in item.game.data_files) for item in items]
    assert started["order"] == sorted(range(3), key=lambda i: -sizes[i])
    assert started["order"][0] == 1                                     # NBA's workbook is the largest
    assert [item.seconds for item in items] == [7.0, 3.0, 9.0]
