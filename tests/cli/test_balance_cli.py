"""`pnp validate --balance [--games N]` end to end: the shipped gates of every game hold, a failed gate exits 1
with its located line, an undecided one warns and exits 0, a bad gate fails plain validation, and plain
validation plays no balance game."""

from __future__ import annotations

import re

import pytest

from pipeline.play.gates import BALANCE_GAMES
from tests.conftest import run_cli
from tests.play.test_balance import GAMES, SHIPPED, gate_rows

pytestmark = pytest.mark.slow          # every test runs the command line

GATE_ROW = re.compile(r"^(\S+) +│ +(A\d+) │.*│ +(holds|FAILS|undecided|not measured)$", re.M)


@pytest.mark.parametrize("game", GAMES)
def test_the_shipped_gates_hold(game):
    result = run_cli("validate", game, "--balance")
    assert result.returncode == 0, result.stderr
    verdicts = GATE_ROW.findall(result.stdout)
    assert len(verdicts) == SHIPPED[game] and {v for _, _, v in verdicts} == {"holds"}, result.stdout
    assert f"{BALANCE_GAMES} games, seed 1" in result.stdout and "[balance]" not in result.stderr


def test_a_failed_gate_exits_1_with_its_cell(project):
    gate_rows(project, "buildit", {"metric": "duration", "min": 11, "note": "longer games"},
              {"metric": "first_player_advantage", "min": 0.05, "max": 0.6})
    result = run_cli("validate", "buildit", "--balance", "--games", "40", root=project)
    assert result.returncode == 1
    assert ("error sheets/buildit.xlsx › balance › A2 (metric): duration 10.00 [10.00, 10.00] is below the band "
            "≥ 11 (40 games, 4 players, seed 1) [balance]") in result.stderr
    assert "1 error(s)" in result.stderr and "validation failed" in result.stdout
    assert [v for _, _, v in GATE_ROW.findall(result.stdout)] == ["FAILS", "holds"]


def test_an_undecided_gate_warns_and_exits_0(project):
    gate_rows(project, "nba", {"metric": "first_player_advantage", "min": 0.48, "max": 0.52})
    result = run_cli("validate", "nba", "--balance", "--games", "30", root=project)
    assert result.returncode == 0, result.stderr
    [line] = [line for line in result.stderr.splitlines() if "[balance]" in line]
    assert line.startswith("warning sheets/nba.xlsx › balance › A2 (metric): first_player_advantage ")
    assert re.search(r"\(30 games, 2 players, seed 1\): undecided: play more games \(--games \d+\) \[balance\]$",
                     line)
    assert "validation passed" in result.stdout


def test_a_bad_gate_fails_plain_validation_and_no_game_is_measured(project):
    gate_rows(project, "challengers", {"metric": "seat_win_rate:6", "min": 0.1, "max": 0.4})
    result = run_cli("validate", "challengers", root=project)
    assert result.returncode == 1
    assert ("error sheets/challengers.xlsx › balance › A2 (metric): seat 6 is not in a 4-player game "
            "(seats 1–4) [range]") in result.stderr


def test_plain_validation_prints_no_gate():
    result = run_cli("validate", "fightball")
    assert result.returncode == 0 and "Balance gates" not in result.stdout and "[balance]" not in result.stderr


def test_games_without_balance_is_a_usage_error():
    result = run_cli("validate", "buildit", "--games", "50")
    assert result.returncode == 2 and "give --balance too" in result.stderr


def test_help_states_the_default_number_of_games():
    result = run_cli("validate", "--help")
    assert f"default {BALANCE_GAMES}" in re.sub(r"[\s│]+", " ", result.stdout)
