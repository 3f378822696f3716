"""Challengers end to end, as a user runs it: `pnp build challengers` on a project copy, measured from the
files; `pnp validate challengers` and `pnp simulate challengers` at every player count through the CLI."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from tests.conftest import built_game, copy_project, run_cli
from tests.render.sheets.printcheck import check_every_pdf

SETS = ("city", "space", "harbour", "castle", "stadium", "forest", "circus", "robot")
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    return built_game(tmp_path_factory, "challengers")


def test_every_component_is_built_with_its_count(built):
    data = json.loads((built / "report.json").read_text())
    counts = {c["id"]: (c["kind"], c["count"]) for c in data["components"]}
    decks = {f"cards-{s}": counts[f"cards-{s}"] for s in SETS}
    assert decks == {"cards-city": ("cards", 96), **{f"cards-{s}": ("cards", 36) for s in SETS[1:-1]},
                     "cards-robot": decks["cards-robot"]}
    assert {k: counts[k] for k in ("trophies", "flags", "fans-1", "fans-5", "bench")} == {
        "trophies": ("cards", 28), "flags": ("cards", 4), "fans-1": ("cards", 40), "fans-5": ("cards", 10),
        "bench": ("pages", 8)}
    assert {"track", "pairing", "aid", "robotaid", "rulebook"} <= counts.keys()
    assert data["validation"]["errors"] == 0
    assert any(line.startswith("20 parties à 4 joueurs") and ": 20 terminées par les règles" in line
               for line in data["play"])


def test_pdfcheck_passes_on_every_pdf(built):
    kinds = check_every_pdf(built)
    assert {("cards", "pnp"), ("cards", "print"), ("pages", "pnp"), ("rulebook", "pnp")} <= kinds


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    return copy_project(tmp_path_factory.mktemp("challengers-sim"))


def test_validate_is_clean(project):
    result = run_cli("validate", "challengers", "--strict", root=project)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("players", range(1, 9))
def test_simulate_plays_every_player_count_to_its_own_end(project, players):
    result = run_cli("simulate", "challengers", "--players", str(players), "--games", "6", root=project)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "6 finished by the rules" in result.stdout
    with open(project / "output" / "challengers" / "simulation" / "games.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 6
    ends = {row["end_reason"] for row in rows}
    assert ends <= ({"lead", "rounds", "draw"} if players <= 2 else {"final"}), ends


def test_simulate_with_a_fixed_set_selection_and_the_solo_challenge(project):
    result = run_cli("simulate", "challengers", "--players", "1", "--games", "4", "--rule", "solo_challenge=yes",
                     "--rule", "robot_level=3", "--rule", "sets=space,harbour,castle,stadium,forest",
                     root=project)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "4 finished by the rules" in result.stdout
