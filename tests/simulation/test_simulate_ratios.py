"""Ratio tables (pipeline/play/ratios.py), a sweep of a ratio, and reports at 1 and 8 seats: on hand-made
outcomes (exact numbers) and on the toy league of tests/simulation/toy_league.py."""

from __future__ import annotations

import csv
import io

import pytest
from typer.testing import CliRunner

from pipeline.play.contract import Ratio, RatioTable
from pipeline.play.driver import simulate
from pipeline.play.ratios import POOLED, compute, computed, csv_text, rows
from pipeline.play.stats import summarise, wilson
from pipeline.play.variants import sweep_results
from pipeline.render.fonts import default_fonts
from pipeline.simulation.pdf import write_pdf
from pipeline.simulation.report import markdown, sweep_rows
from tests.conftest import point_cli_at
from tests.simulation import toy_league
from tests.simulation.toy_league import CARDS, MATCHES, ROBOT, SETS, SIMULATION, league_records


def _result(counters: list[dict], players: int = 2, flagged: int = 0):
    """Games with these counters (seat 1 wins each), then `flagged` games stopped by a cap."""
    outcomes = [{"index": i, "seed": i, "scores": [1] + [0] * (players - 1), "returns": [1.0] + [0.0] * (players - 1),
                 "counters": c, "end_reason": "lead"} for i, c in enumerate(counters)]
    outcomes += [{"index": len(counters) + i, "seed": 99 + i, "scores": [0] * players, "cap": "max_reveals",
                  "counters": {"set_lead:a+b|a": 50, "robot:matches": 50}} for i in range(flagged)]
    return summarise(outcomes, games=len(outcomes), seed=0, players=players, bots=("x",) * players, max_steps=10,
                     nominal={})


GAMES = [{"set_lead:a+b|a": 2, "set_lead_won:a+b|a": 1, "set_lead:a+b|b": 1, "set_lead:a+c|a": 1,
          "set_lead_won:a+c|a": 1, "robot:matches": 1, "robot:won": 1, "reveals": 30, "matches": 2},
         {"set_lead:a+c|c": 2, "set_lead_won:a+c|c": 1, "set_lead:a+c|a": 1, "robot:matches": 1,
          "reveals": 12, "matches": 2}]


# --- numbers, intervals, grouping ---------------------------------------------------------------------------

def test_grouped_ratios_by_hand_and_the_pool_of_every_group():
    found = compute(SETS, _result(GAMES, flagged=1))                # the capped game counts for nothing
    assert found.keyed and found.grouped and found.groups == [POOLED, "a+b", "a+c"]
    by = {(row.group, row.key): row.rates[0] for row in found.rows}
    assert (by[("a+b", "a")].numerator, by[("a+b", "a")].denominator) == (1, 2)
    assert (by[("a+b", "b")].numerator, by[("a+b", "b")].denominator, by[("a+b", "b")].rate) == (0, 1, 0.0)
    assert (by[("a+c", "a")].numerator, by[("a+c", "a")].denominator) == (1, 2)
    assert (by[(POOLED, "a")].numerator, by[(POOLED, "a")].denominator) == (2, 4)     # a in both selections
    assert (by[(POOLED, "c")].numerator, by[(POOLED, "c")].denominator, by[(POOLED, "c")].rate) == (1, 2, 0.5)
    assert by[(POOLED, "a")].interval == wilson(2, 4)
    assert by[("a+b", "b")].interval == (0.0, wilson(0, 1)[1])
    assert [row.key for row in found.group("a+c")] == ["a", "c"]


def test_rows_and_csv_print_each_rate_with_its_interval_and_counts():
    found = compute(SETS, _result(GAMES))
    table = rows(found)
    low, high = wilson(2, 4)
    assert table[0] == ["group", "key", "win rate", "95 % CI", "set_lead_won / set_lead"]
    assert table[1] == [POOLED, "a", "0.500", f"{low:.3f}–{high:.3f}", "2 / 4"]
    assert rows(found, "a+b", compact=True, counted_head="counted")[1:] == [
        ["a", f"0.500 ({wilson(1, 2)[0]:.3f}–{wilson(1, 2)[1]:.3f})", "1 / 2"],
        ["b", f"0.000 (0.000–{wilson(0, 1)[1]:.3f})", "0 / 1"]]
    lines = list(csv.reader(io.StringIO(csv_text(found))))
    assert lines[0] == ["group", "key", "set_lead_won", "set_lead", "win_rate", "win_rate_low", "win_rate_high"]
    assert lines[1] == [POOLED, "a", "2", "4", "0.500000", f"{low:.6f}", f"{high:.6f}"]
    assert len(lines) == 1 + 3 + 4                                   # 3 pooled sets, 4 (selection, set) keys


def test_groups_side_by_side_with_short_names():
    from pipeline.play.ratios import group_labels, pivot_rows
    from pipeline.simulation.report import ratio_lines

    assert group_labels([POOLED, "castle+forest+space", "castle+forest+harbour", "forest+harbour+space"]) == {
        POOLED: POOLED, "castle+forest+space": "without harbour", "castle+forest+harbour": "without space",
        "forest+harbour+space": "without castle"}
    assert group_labels([POOLED, "a+b", "a+c"]) == {POOLED: POOLED, "a+b": "a+b", "a+c": "a+c"}   # not shorter
    found = compute(SETS, _result(GAMES))
    assert pivot_rows(found) == [["key", POOLED, "a+b", "a+c"],
                                 ["a", "0.500 (2 / 4)", "0.500 (1 / 2)", "0.500 (1 / 2)"],
                                 ["b", "0.000 (0 / 1)", "0.000 (0 / 1)", "—"],
                                 ["c", "0.500 (1 / 2)", "—", "0.500 (1 / 2)"]]
    text = "\n".join(ratio_lines([found]))
    assert "Every group pooled:" in text and "Each group:" in text
    assert "| a | 0.500 (2 / 4) | 0.500 (1 / 2) | 0.500 (1 / 2) |" in text


def test_single_ratios_shares_and_means():
    found = compute(MATCHES, _result(GAMES))
    assert not found.keyed and [row.key for row in found.rows] == [
        "reveals per match", "lost on a full bench", "robot's match win rate"]
    reveals, bench, robot = (row.rates[0] for row in found.rows)
    assert (reveals.rate, reveals.interval) == (42 / 4, None)        # a mean has no Wilson interval
    assert (bench.numerator, bench.denominator, bench.rate) == (0, 4, 0.0)      # never counted: a rate of 0
    assert (robot.numerator, robot.denominator, robot.interval) == (1, 2, wilson(1, 2))
    assert rows(found)[1] == ["reveals per match", "10.50", "", "42 / 4"]


def test_keys_sort_by_the_chosen_ratio_and_keyed_tables_leave_the_frequency_tables():
    games = [{"offered:x": 4, "picked:x": 2, "picked_by_winner:x": 0, "offered:y": 2, "picked:y": 2,
              "picked_by_winner:y": 1, "offered:z": 3}]
    result = _result(games)
    found = compute(CARDS, result)
    assert [row.key for row in found.rows] == ["y", "x", "z"]        # win when picked 0.5, 0, none (z never picked)
    assert [row.rates[0].rate for row in found.rows] == [1.0, 0.5, 0.0]
    assert found.rows[2].rates[1].rate is None and rows(found)[3][4:6] == ["—", ""]
    text = markdown(result, "T", ratios=(CARDS,))
    assert "## Cards" in text and "| y | 1.000 |" in text and "## How often: picked" not in text


def test_a_miscounted_share_shows_its_rate_without_an_interval():
    table = RatioTable("t", "T", (Ratio("won", "played"),))
    rate = compute(table, _result([{"won": 3, "played": 2}])).rows[0].rates[0]
    assert rate.rate == 1.5 and rate.interval is None


def test_tables_the_games_never_counted_are_left_out():
    assert [r.table.id for r in computed((SETS, CARDS, MATCHES), _result([{"reveals": 4, "matches": 1}]))] == [
        "matches"]


# --- the sweep's own y ----------------------------------------------------------------------------------------

def test_the_robot_sweep_measures_the_robots_match_win_rate():
    records = league_records()
    result = simulate(SIMULATION, records, games=300, seed=2, players=1)
    points = sweep_results(SIMULATION, records, result, ROBOT)
    assert [s for s, _ in points] == [(1,), (2,), (3,), (4,), (5,)]
    won = [sum(o["counters"].get("robot:won", 0) for o in r.outcomes) for _, r in points]
    assert won == sorted(won) and won[0] < won[-1]                       # rises with the level
    for (level,), r in points:
        lo, hi = wilson(won[level - 1], 200)
        assert lo < level / 6 < hi                                       # the toy's odds inside the interval
    table = sweep_rows(ROBOT, points, ["seat 1"])
    assert table[0] == ["robot_level", "robot level", "robot's match win rate (95 % CI)",
                        "robot:won / robot:matches", "games"]
    assert table[1][2] == f"{won[0] / 200:.3f} ({wilson(won[0], 200)[0]:.3f}–{wilson(won[0], 200)[1]:.3f})"
    assert table[1][3] == f"{won[0]} / 200"
    # the seat's own win rate is the robot's loss in solo
    assert points[2][1].seats[0].wins == 200 - won[2]


# --- one seat and eight -------------------------------------------------------------------------------------

@pytest.fixture
def league_cli(monkeypatch, tmp_path):
    import pipeline.cli.app
    import pipeline.games
    import pipeline.validate

    point_cli_at(monkeypatch, tmp_path)
    monkeypatch.setattr(pipeline.games, "load_game", lambda name, root: toy_league.league_module(name))
    monkeypatch.setattr(pipeline.validate, "load_records", lambda game, root, report, cache=None: league_records())

    def invoke(*args):
        return CliRunner().invoke(pipeline.cli.app.app, ["simulate", "league", *args])
    return invoke, tmp_path / "output/league/simulation"


def test_solo_report_the_players_win_rate_against_the_robot_and_the_sweep(league_cli):
    invoke, folder = league_cli
    done = invoke("--players", "1", "--games", "60")
    assert done.exit_code == 0, done.output
    assert "Sweep: robot's match win rate (95 % Wilson interval) as a function of robot level" in done.output
    text = (folder / "report.md").read_text()
    robot = next(line for line in text.splitlines() if line.startswith("| robot's match win rate |"))
    won = int(robot.split("|")[4].split("/")[0])
    seat = next(line for line in text.splitlines() if line.startswith("| 1 | none |"))
    assert int(seat.split("|")[3]) == 60 - won                       # the player wins what the robot loses
    assert "## Sweep: robot's match win rate as a function of robot level" in text
    assert "| 3 | 3 | " in text and text.count("| 60 |\n") >= 5       # five levels, 60 games each
    assert {p.name for p in folder.iterdir()} == {"report.md", "report.pdf", "games.csv", "set_strength.csv",
                                                   "cards.csv", "matches.csv", "run.json"}
    games = list(csv.DictReader(io.StringIO((folder / "games.csv").read_text())))
    assert len(games) == 60 and "robot:won" in games[0] and "score_2" not in games[0]


def test_eight_seats_report_has_no_robot_sweep_and_every_seat(league_cli):
    invoke, folder = league_cli
    done = invoke("--players", "8", "--games", "40")
    assert done.exit_code == 0, done.output
    text = (folder / "report.md").read_text()
    assert "Sweep" not in text and "robot's match win rate" not in text    # no robot at 8: nothing to sweep
    assert all(f"| {k} | none |" in text for k in range(1, 9))
    found = compute(CARDS, simulate(SIMULATION, league_records(), games=40, seed=1, players=8))
    assert {row.key: round(row.rates[1].rate, 3) for row in found.rows} == {"rare": 1.0, "common": 0.125}
    games = list(csv.DictReader(io.StringIO((folder / "games.csv").read_text())))
    assert "result_8" in games[0] and int(games[0]["matches"]) == 4


@pytest.mark.parametrize("players", [1, 8])
def test_pdf_pages_at_one_and_eight_seats(players):
    import pypdfium2 as pdfium

    result = simulate(SIMULATION, league_records(), games=50, seed=3, players=players)
    swept = [(ROBOT, sweep_results(SIMULATION, league_records(), result, ROBOT))] if players % 2 else []
    buffer = io.BytesIO()
    pages = write_pdf(result, buffer, "League", default_fonts(), sweeps=swept, ratios=SIMULATION.ratios)
    pdf = pdfium.PdfDocument(buffer.getvalue())
    words = "\n".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))
    assert pages == len(pdf) == 2
    assert ("1 player ·" in words) == (players == 1) and f"seat {players}" in words
    assert "Set strength (every group pooled)" in words and "Win rate, 95 % interval" in words
    assert "Win rate when picked, 95 % interval" in words and "Set strength: win rate by group" in words
    assert "all: 0.125" in words if players == 8 else "all: " in words      # the pooled rate's dashed line
    assert ("Robot's match win rate as a function of robot level" in words) == (players == 1)
    assert "How often per game: picked" not in words                 # the ratio table shows it


# --- Challengers: what its SIMULATION declares, on its workbook and engine -------------------------------------

@pytest.mark.parametrize("players", [1, 8])
def test_challengers_reports_its_ratio_tables_and_the_robot_sweep_at_one_player(players):
    from pipeline import PROJECT_ROOT
    from pipeline.core.errors import Report
    from pipeline.simulation.run import Request, load, run, sweeps

    loaded = load(Request("challengers", PROJECT_ROOT, games=12, players=players), Report())
    result = run(loaded)
    assert result.finished >= 10
    found = {r.table.id: r for r in computed(loaded.sim.ratios, result)}
    assert set(found) == {"set_strength", "cards", "matches"}
    sets = found["set_strength"]
    assert sets.grouped and all(len(g.split("+")) == 5 for g in sets.groups if g != POOLED)
    led = sum(row.rates[0].denominator for row in sets.rows if row.group != POOLED)
    assert 0 < led <= players * result.finished                    # at most one most-drafted set per player
    cards = found["cards"]
    assert all(0 <= (row.rates[0].rate or 0) <= 1 for row in cards.rows) and len(cards.rows) > 30
    matches = {row.key: row.rates[0] for row in found["matches"].rows}
    assert matches["reveals per match"].rate > 1
    ends = matches["lost on an empty deck"].numerator + matches["lost on a full bench"].numerator
    assert ends <= matches["lost on a full bench"].denominator     # a match ends one way (or at the cap)
    assert ("robot's match win rate" in matches) == (players == 1)
    swept = sweeps(loaded, result)
    assert [s.label for s, _ in swept] == (["robot level"] if players == 1 else [])
    if swept:
        (_, points), = swept
        assert [setting for setting, _ in points] == [(1,), (2,), (3,), (4,), (5,)]


# --- the bars beside a ratio table ----------------------------------------------------------------------------

def test_bars_share_a_scale_draw_the_reference_and_print_a_dash_for_nothing_measured():
    from pipeline.render.charts import draw as charts
    from tests.simulation.test_simulate import _drawn, _words_at

    fonts = default_fonts()

    def draw(canvas):
        for y, values in ((600, [0.5, 0.25]), (400, [0.5, 0.0])):        # two chunks of one table, top 1.0
            charts.bar_chart(canvas, (40, y, 250, 60), ["a", "b"], values, [(v, v) for v in values], "", fonts,
                             "{:.3f}", horizontal=True, top=1.0, reference=("all", 0.4),
                             value_labels=[f"{values[0]:.3f}", "—" if y == 400 else "0.250"])
    page = _drawn(draw)
    bars = sorted((r for r in page.rects if r["height"] > 3 and r["width"] > 1), key=lambda r: (r["top"], r["x0"]))
    assert len(bars) == 3                                                # the 0.0 bar draws nothing
    assert bars[0]["width"] == pytest.approx(bars[2]["width"]) == pytest.approx(2 * bars[1]["width"])
    assert len(_words_at(page, "—")) == 1 and len(_words_at(page, "0.500")) == 2
    refs = [w for w in page.extract_words() if w["text"] == "0.400"]
    assert len(refs) == 2 and refs[0]["x0"] == pytest.approx(refs[1]["x0"])
    zero, scale = bars[0]["x0"], bars[0]["width"] / 0.5                # the dashed line at 0.4 on both
    dashed = sorted(round(line["x0"], 2) for line in page.lines
                    if line["x0"] == pytest.approx(line["x1"]) and line["x0"] > zero + 1 and line["height"] > 20)
    assert dashed == [pytest.approx(zero + 0.4 * scale, abs=0.01)] * 2


def test_a_table_a_run_counted_nothing_for_leaves_no_earlier_csv(league_cli, monkeypatch):
    """The CSV of a ratio table comes from this run or is not there: an earlier run's file does not stay
    beside reports it no longer matches."""
    from dataclasses import replace

    invoke, folder = league_cli
    assert invoke("--players", "2", "--games", "10").exit_code == 0
    assert (folder / "set_strength.csv").is_file()
    ghost = RatioTable("set_strength", "Set strength", (Ratio("never_won", "never", "win rate"),))
    quiet = replace(toy_league.SIMULATION, ratios=(ghost, CARDS))
    monkeypatch.setattr(toy_league, "SIMULATION", quiet)
    done = invoke("--players", "2", "--games", "10")
    assert done.exit_code == 0, done.output
    assert not (folder / "set_strength.csv").exists() and (folder / "cards.csv").is_file()
