"""Exports through the build and the command line, as a user runs them: `make`'s build (`--format all`) writes
every export of every game with its report entry; `--base-url` rewrites the image addresses and nothing else;
`--install` copies the Saved Object where Tabletop Simulator looks; a print-shop size no product takes is a
located, acknowledged warning told before anything is written; an export after an unchanged build lays out no
face and draws no file; a data-only game exports too."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys

import pytest

from pipeline.build import build
from pipeline.cache import BuildStats
from pipeline.core.config import BuildConfig
from tests.conftest import ROOT, built_game, copy_project, run_cli
from tests.exports import pcio_check, tts_check

GAMES = ("buildit", "nba", "allstar", "fightball", "challengers")
TARGETS = ("tts", "pcio", "tgc", "mpc", "dtc")


@pytest.mark.parametrize("game", GAMES)
def test_make_writes_every_export_with_its_report_entry(tmp_path_factory, game):
    out = built_game(tmp_path_factory, game)
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    entries = {entry["format"]: entry for entry in report["outputs"] if entry["format"] in TARGETS}
    assert sorted(entries) == sorted(TARGETS)
    for target, entry in entries.items():
        assert entry["path"] == f"output/{game}/{target}" and entry["files"], target
        on_disk = sorted(str(p.relative_to(out.parent.parent)) for p in (out / target).rglob("*") if p.is_file())
        assert sorted(f["path"] for f in entry["files"]) == on_disk
        for listed in entry["files"]:
            assert hashlib.sha256((out.parent.parent / listed["path"]).read_bytes()).hexdigest() == listed["sha256"]
    (saved_path,) = (out / "tts").glob("*.json")
    saved = json.loads(saved_path.read_text(encoding="utf-8"))
    files = {p.name: p.read_bytes() for p in (out / "tts").iterdir()}
    base = (out / "tts").resolve().as_uri() + "/"
    assert tts_check.schema_errors(saved) == [] and tts_check.invariants(saved) == []
    assert tts_check.image_errors(saved, files, base) == []
    assert tts_check.thumbnail_errors(files, saved_path.stem) == []
    (archive,) = (out / "pcio").glob("*.pcio")
    assert pcio_check.problems(archive.read_bytes()) == []
    for pdf in (out / "dtc").glob("*.pdf"):
        assert pdf.read_bytes().startswith(b"%PDF")


@pytest.mark.slow
def test_base_url_rewrites_the_addresses_only_and_install_copies_the_pair(tmp_path, tmp_path_factory):
    """The same game exported with the default file:/// addresses (make's build) and with --base-url: the same
    image bytes under the same names, Saved Objects equal once the prefix is swapped; --install puts the pair in
    the Linux Saved Objects folder under $HOME."""
    made = built_game(tmp_path_factory, "nba") / "tts"
    project = copy_project(tmp_path / "project")
    home = tmp_path / "home"
    home.mkdir()
    env = {**os.environ, "PNP_ROOT": str(project), "HOME": str(home)}
    result = subprocess.run([sys.executable, "-m", "pipeline", "build", "nba", "--paper", "a4", "--format",
                             "tts", "--base-url", "https://example.org/pnp/", "--install"],
                            capture_output=True, text=True, env=env, timeout=600, check=False)
    assert result.returncode == 0, result.stderr
    hosted = project / "output" / "nba" / "tts"
    assert sorted(p.name for p in hosted.iterdir()) == sorted(p.name for p in made.iterdir())
    for image in made.glob("*.png"):
        assert (hosted / image.name).read_bytes() == image.read_bytes(), image.name
    (saved,) = made.glob("*.json")
    mine = saved.read_text(encoding="utf-8").replace(made.resolve().as_uri() + "/", "https://example.org/pnp/nba/")
    assert mine == (hosted / saved.name).read_text(encoding="utf-8")
    assert "file://" not in mine
    chest = home / ".local" / "share" / "Tabletop Simulator" / "Saves" / "Saved Objects"
    assert sorted(p.name for p in chest.iterdir()) == [saved.name, saved.with_suffix(".png").name]
    assert (chest / saved.name).read_bytes() == (hosted / saved.name).read_bytes()
    assert f"installed nba → {chest}" in result.stdout


def test_install_and_base_url_need_the_tts_export(tmp_path):
    for option in (("--install",), ("--base-url", "https://example.org/")):
        result = run_cli("build", "nba", "--format", "pnp", *option, root=tmp_path)
        assert result.returncode == 2 and "--format tts" in result.stderr
    result = run_cli("build", "nba", "--format", "tts", "--base-url", "ftp://example.org/", root=tmp_path)
    assert result.returncode == 2 and "--base-url must start with" in result.stderr
    assert not (tmp_path / "output").exists()


def test_a_size_no_shop_product_takes_is_located_told_first_and_acknowledged(tmp_path):
    """Build It's 18 mm pawns have no The Game Crafter product: a warning naming the game, the component, its size
    and the nearest products, which --strict lets through (errors.ACKNOWLEDGED); the preset leaves them out."""
    project = copy_project(tmp_path)
    result = run_cli("build", "buildit", "--paper", "a4", "--format", "tgc", "--strict", root=project)
    assert result.returncode == 0, result.stdout + result.stderr
    lines = (result.stdout + result.stderr).splitlines()
    line = next(line for line in lines if "buildit › pawns" in line)
    assert ("18×18 mm matches no The Game Crafter product (nearest: MiniDeck 44.45×63.5 mm, SmallSquareDeck "
            "63.5×63.5 mm); left out [print-shop]") in line
    folders = sorted(p.name for p in (project / "output" / "buildit" / "tgc").iterdir())
    assert folders == ["cities-PokerDeck", "contracts-PokerDeck", "normal-PokerDeck"]


@pytest.mark.slow
def test_an_export_after_an_unchanged_build_lays_out_nothing_and_draws_nothing(tmp_path):
    project = copy_project(tmp_path)
    config = BuildConfig(project, ("nba",), papers=("a4",), formats=("pnp",))
    assert build(config)[1] == ["nba"]
    added = BuildStats()
    assert build(BuildConfig(project, ("nba",), papers=("a4",), formats=("pnp", "tts", "tgc")), stats=added)[1]
    parts = added.games["nba"]
    assert sum(part.faces_laid_out for part in parts.values()) == 0          # the faces came from the cache
    assert parts["tts"].files_written > 0 and parts["tgc"].files_written > 0  # drawn: they were not there
    again = BuildStats()
    assert build(BuildConfig(project, ("nba",), papers=("a4",), formats=("pnp", "tts", "tgc")), stats=again)[1]
    assert sum(part.faces_laid_out + part.files_written for part in again.games["nba"].values()) == 0


@pytest.mark.slow
def test_a_data_only_game_exports_to_every_target(tmp_path):
    """The benchmark deck (a CSV, a game.yaml, two templates; 63 × 88 mm cards): The Game Crafter takes it as
    EuroPokerDeck at the table's 825 × 1125 px; MakePlayingCards and DriveThruCards on poker stock, centred."""
    from PIL import Image

    project = copy_project(tmp_path)
    shutil.copytree(ROOT / "bench" / "data", project / "bench" / "data",
                    ignore=shutil.ignore_patterns("cards_[0-9][0-9][0-9]*.csv"))
    shutil.copyfile(ROOT / "bench" / "data" / "cards_100.csv", project / "bench" / "data" / "cards_100.csv")
    report, built = build(BuildConfig(project, ("benchdeck",), papers=("a4",), formats=TARGETS))
    assert built == ["benchdeck"], [str(p) for p in report.problems]
    out = project / "output" / "benchdeck"
    assert sorted(p.name for p in out.iterdir() if p.is_dir()) == sorted(("tts", "pcio", "tgc", "mpc", "dtc"))
    fronts = sorted((out / "tgc" / "cards-EuroPokerDeck").glob("front-*.png"))
    assert len(fronts) == 100
    assert {Image.open(p).size for p in fronts} == {(825, 1125)}
    assert {Image.open(p).size for p in (out / "mpc" / "cards-poker").glob("*.png")} == {(822, 1122)}
    assert sorted(p.name for p in (out / "dtc").iterdir()) == ["cards.pdf"]
    assert not [p for p in report.warnings if p.rule == "print-shop"]
