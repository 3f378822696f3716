"""Balance gates (pipeline/play/gates.py): the `balance` sheet typed in stage 2 (every problem located, no game
played), the verdicts (a gate fails only when its whole 95 % interval is outside its band), and gates played
on a few seeded games of damaged copies: a failed gate is an error at its cell, an undecided one a warning
that says how many games would decide it."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from pipeline.core.errors import Report
from pipeline.data.balance import BALANCE_SHEET
from pipeline.games import load_game
from pipeline.play import gates as balance
from pipeline.play.gates import FAILS, Gate, HOLDS, Metric, UNDECIDED, games_needed, judge
from pipeline.play.metrics import Measure
from pipeline.simulation import gates as balance_report
from pipeline.simulation.run import check_balance
from tests.conftest import ROOT, edit_workbook, validate_game
from tests.data.workbook_damage import lines

GAMES = ("buildit", "nba", "allstar", "fightball", "challengers")
SHIPPED = {"buildit": 6, "nba": 5, "allstar": 6, "fightball": 6, "challengers": 6}


def book(game: str) -> str:
    return f"sheets/{game}.xlsx"


def gate_rows(project: Path, game: str, *rows: dict) -> None:
    """Replace the copy's gates by `rows` ({column: value}), from row 2."""
    def change(wb):
        ws = wb["balance"]
        header = [c.value for c in ws[1]]
        ws.delete_rows(2, ws.max_row)
        for number, row in enumerate(rows, start=2):
            for column, value in row.items():
                ws.cell(row=number, column=header.index(column) + 1, value=value)
    edit_workbook(project / book(game), change)


def module_of(game: str, root: Path):
    module = load_game(game, ROOT)
    return replace(module, data_files=tuple(root / path.relative_to(ROOT) for path in module.data_files))


# --- the shipped sheets --------------------------------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_shipped_gates_are_typed_clean(game):
    report, records = validate_game(game, ROOT)
    assert not report.errors, lines(report)
    gates = balance.read_gates(load_game(game, ROOT).simulation, records, Report())
    assert len(gates) == SHIPPED[game]
    assert {g.metric.name for g in gates} >= {"first_player_advantage", "completion", "duration"}
    assert all(g.low is not None or g.high is not None for g in gates)


def test_shipped_balance_sheets_have_the_designer_comforts():
    """Written like every sheet (pipeline/data/workbook.py): headers documented, the header frozen."""
    import openpyxl

    from pipeline.data.workbook import column_note

    for game in GAMES:
        ws = openpyxl.load_workbook(ROOT / book(game))["balance"]
        assert [c.value for c in ws[1]] == [c.name for c in BALANCE_SHEET.columns] and ws.freeze_panes == "A2"
        assert [c.comment.text for c in ws[1]] == [column_note(col) for col in BALANCE_SHEET.columns]


def test_nba_catalogs_list_what_can_be_bought():
    """The NBA Player cards and the market Tactics; starting cards and base tactics are dealt, not bought."""
    _, records = validate_game("nba", ROOT)
    catalogs = load_game("nba", ROOT).simulation.catalogs(records)
    assert {table: len(keys) for table, keys in catalogs.items()} == {"bought_player": 100, "bought_tactic": 20}
    assert not any(key.startswith(("a_", "b_")) for keys in catalogs.values() for key in keys)


# --- stage 2: the sheet typed, located, no game played --------------------------------------------------------

def test_every_problem_of_the_sheet_is_located_in_one_run(project):
    gate_rows(project, "buildit",
              {"metric": "first_player_advantag", "min": 0.4, "max": 0.6},
              {"metric": "completion", "min": 0.99, "max": 0.9},
              {"metric": "drawishness", "max": 1.5},
              {"metric": "seat_win_rate:5", "min": 0.1},
              {"metric": "seat_win_rate:x", "min": 0.1},
              {"metric": "duration", "min": 8, "players": 9},
              {"metric": "gold_from_contracts"},
              {"metric": "presence:bought_player", "min": 0.02},
              {"metric": "duration", "min": 8, "max": 12, "players": 4},
              {"metric": "duration", "max": 12})
    at = "sheets/buildit.xlsx › balance ›"
    problems = lines(validate_game("buildit", project)[0])
    assert problems[0].startswith(f"{at} A2 (metric): unknown metric 'first_player_advantag' (did you mean "
                                  "'first_player_advantage'?); this game's metrics: first_player_advantage, "
                                  "completion, drawishness, duration, duration_turns, gold_from_contracts, "
                                  "fulfilled, stolen, seat_win_rate:<seat> [enum]")
    assert problems[1:] == [
        f"{at} B3 (min): min 0.99 is above max 0.9 [range]",
        f"{at} C4 (max): drawishness is a share of games: 1.5 is outside 0–1 [range]",
        f"{at} A5 (metric): seat 5 is not in a 4-player game (seats 1–4) [range]",
        f"{at} A6 (metric): seat_win_rate:<seat> takes a seat number (seat_win_rate:2), not 'x' [type]",
        f"{at} D7 (players): this game takes 2–4 players, not 9 [range]",
        f"{at} A8 (metric): a gate needs a min, a max or both [required]",
        f"{at} A9 (metric): unknown metric 'presence:bought_player': presence:<table> names a table whose every "
        "key the game lists (this game lists none) [enum]",
        f"{at} A11 (metric): duration at 4 players is already gated on row 10 [unique]",
    ]


def test_a_cell_of_the_wrong_type_is_a_stage_2_error(project):
    gate_rows(project, "nba", {"metric": "completion", "min": "most", "players": 2.5})
    assert lines(validate_game("nba", project)[0]) == [
        "sheets/nba.xlsx › balance › B2 (min): 'most' is not a number [type]",
        "sheets/nba.xlsx › balance › D2 (players): 2.5 is not a whole number [type]"]


def test_plain_validation_plays_no_balance_game(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("a balance game was played")

    monkeypatch.setattr(balance, "measure_gates", refuse)
    from pipeline.validate import validate_game as stages

    report = Report()
    records, result = stages(load_game("buildit", ROOT), ROOT, report)
    assert records is not None and result.games == 20 and not report.errors


# --- verdicts ------------------------------------------------------------------------------------------------

def gate(low, high, rate=True) -> Gate:
    return Gate(None, Metric("first_player_advantage", rate, lambda result: None), low, high, 2)


@pytest.mark.parametrize("low, high, measure, state", [
    (0.45, 0.55, Measure(0.61, 0.58, 0.64, 1000), FAILS),         # the whole interval above the band
    (0.45, 0.55, Measure(0.40, 0.37, 0.43, 1000), FAILS),
    (0.45, 0.55, Measure(0.50, 0.47, 0.53, 1000), HOLDS),
    (0.45, 0.55, Measure(0.50, 0.45, 0.55, 1000), HOLDS),         # an interval that touches a bound is inside
    (0.45, 0.55, Measure(0.53, 0.50, 0.56, 1000), UNDECIDED),     # straddles 0.55: noise could carry it out
    (0.45, 0.55, Measure(0.57, 0.54, 0.60, 1000), UNDECIDED),     # the value outside, not the whole interval
    (0.99, None, Measure(1.0, 0.996, 1.0, 1000), HOLDS),
    (None, 0.02, Measure(0.0, 0.0, 0.004, 1000), HOLDS),
])
def test_a_gate_fails_only_when_its_whole_interval_is_outside(low, high, measure, state):
    assert judge(gate(low, high), measure, 1000).state == state


def test_an_undecided_gate_says_how_many_games_would_decide_it():
    verdict = judge(gate(45, 55, rate=False), Measure(53, 50, 56, 1000), 1000)
    assert verdict.bound == 55
    assert verdict.needed == 2700           # 1000 × 1.2 × (3 / 2)²: a mean's interval narrows as 1/√games
    # a rate's Wilson interval at 60 of 60 games: its low end n / (n + 1.96²) reaches 0.99 at n = 381; × 1.2
    assert judge(gate(0.99, None), Measure.rate(60, 60), 60).needed == 460
    assert games_needed(Measure(0.55, 0.52, 0.58, 400), 0.55, 400) is None        # on the bound: never decided
    both = judge(gate(0.49, 0.52), Measure(0.50, 0.45, 0.55, 400), 400)          # the closer bound decides
    assert both.state == UNDECIDED and both.bound == 0.49


def test_a_gate_no_game_could_measure_is_an_error():
    """A key figure whose denominator no finished game counted: no value, so the promise is not kept."""
    _, records = validate_game("nba", ROOT)
    [first] = balance.read_gates(load_game("nba", ROOT).simulation, records, Report())[:1]
    verdict = judge(first, Measure(None, None, None, 0), 1000)
    report = Report()
    balance_report.report_verdicts([verdict], report)
    assert verdict.state == balance.UNMEASURED and lines(report) == [
        "sheets/nba.xlsx › balance › A2 (metric): first_player_advantage could not be measured: no game that "
        "ended by the rules gave it a value (1000 games, 2 players, seed 1) [balance]"]


# --- gates played on damaged copies (a few games each) ------------------------------------------------------

def play(game: str, project: Path, games: int) -> tuple[Report, list]:
    report, records = validate_game(game, project)
    assert not report.errors, lines(report)
    verdicts = check_balance(module_of(game, project), records, project, report, games)
    return report, verdicts


def test_a_failed_gate_is_an_error_at_its_cell(project):
    gate_rows(project, "buildit", {"metric": "completion", "min": 0.99},
              {"metric": "duration", "min": 8, "max": 9, "note": "shorter games"})
    report, verdicts = play("buildit", project, 40)
    assert [v.state for v in verdicts] == [UNDECIDED, FAILS]
    assert lines(Report(report.errors)) == [
        "sheets/buildit.xlsx › balance › A3 (metric): duration 10.00 [10.00, 10.00] is above the band 8–9 "
        "(40 games, 4 players, seed 1) [balance]"]


def test_an_undecided_gate_is_a_warning_with_the_games_to_play(project):
    gate_rows(project, "fightball", {"metric": "first_player_advantage", "min": 0.45, "max": 0.55})
    report, [verdict] = play("fightball", project, 50)
    assert not report.errors and verdict.state == UNDECIDED
    [warning] = [line for line in lines(report) if "balance ›" in line]
    assert warning.startswith("sheets/fightball.xlsx › balance › A2 (metric): first_player_advantage ")
    assert warning.endswith(f"(50 games, 2 players, seed 1): undecided: play more games "
                            f"(--games {verdict.needed}) [balance]")
    assert verdict.needed > 50


def test_a_presence_gate_counts_a_card_never_bought_with_zero(project):
    """NBA's least bought market Tactic over its whole catalog: far under 2 % of games today (the shipped
    sheet has no presence gate for that reason)."""
    gate_rows(project, "nba", {"metric": "presence:bought_tactic", "min": 0.02})
    report, [verdict] = play("nba", project, 200)
    catalog = load_game("nba", ROOT).simulation.catalogs(validate_game("nba", ROOT)[1])["bought_tactic"]
    assert verdict.state == FAILS and verdict.measure.detail in catalog and verdict.measure.high < 0.02
    [error] = lines(Report(report.errors))
    assert error.startswith("sheets/nba.xlsx › balance › A2 (metric): presence:bought_tactic 0.0")
    assert f"is below the band ≥ 0.02 (least: {verdict.measure.detail}; 200 games, 2 players, seed 1)" in error


def test_gates_at_two_player_counts_share_their_seeds(project):
    """Each player count is one seeded run: two gates at one count are measured on the same games."""
    gate_rows(project, "allstar", {"metric": "first_player_advantage", "min": 0.1, "max": 0.9, "players": 2},
              {"metric": "seat_win_rate:1", "min": 0.1, "max": 0.9, "players": 2},
              {"metric": "first_player_advantage", "min": 0.05, "max": 0.6, "players": 3})
    _, verdicts = play("allstar", project, 30)
    assert verdicts[0].measure == verdicts[1].measure
    assert [v.gate.players for v in verdicts] == [2, 2, 3] and {v.state for v in verdicts} == {HOLDS}
