"""Rule sweeps (pipeline/sweep/: run, report, pdf) on the toy dice race of tests/simulation/toy_game.py with
typed rule parameters and a rule check of its own, and once on Build It's workbook: the values checked like the
cells they replace, the same seeds in every combination, the baseline, the paired changes, flagged
combinations, the grid order, the CSV's columns and byte-identical reports."""

from __future__ import annotations

import math
from dataclasses import replace
from types import MappingProxyType

import pytest

from pipeline.core.errors import Report
from pipeline.data.params import rule_parameters, rules
from pipeline.play.contract import KeyFigure
from pipeline.play.driver import game_seed, simulate
from pipeline.play.stats import flag_of
from pipeline.simulation import run as simulation
from pipeline.sweep import report as sweep_report, run as sweeping
from tests.simulation import toy_game
from tests.simulation.toy_game import toy_records

SPECS = rule_parameters({"target": ("int", 1, 99), "max_rounds": ("int", 0, 100), "stuck": ("int", 0, 1),
                         "explode_round": ("int", 0, 100)},
                        {"target": "Position that ends the race.", "max_rounds": "Safety cap (0: none).",
                         "stuck": "Nobody moves.", "explode_round": "The engine raises in this round."})


def typed_race(records, players: int):
    """The toy race on its rules typed as an engine reads them (the toy itself reads its rows as they are)."""
    values = rules(records, SPECS).values
    rows = [replace(rec, values=MappingProxyType({**rec.values, "value": values[rec.get("parameter")]}))
            for rec in records["rules"]]
    return toy_game.DiceRace({**records, "rules": rows}, players)


def reachable(records, report: Report) -> None:
    """A rule check across two parameters: a capped race must be winnable within its cap (6 pips a turn)."""
    found = rules(records, SPECS)
    if found["max_rounds"] and found["target"] > 6 * found["max_rounds"]:
        report.error(found.at("target"), f"target {found['target']} cannot be reached in {found['max_rounds']} "
                                         "rounds", "rules")


FIGURES = (KeyFigure("pips", "pips per game"), KeyFigure("pips", "pips per roll", per="rolls"))
SIMULATION = replace(toy_game.SIMULATION, new_game=typed_race, key_figures=FIGURES)


def toy_module(game: str = "toy"):
    return replace(toy_game.toy_module(game), simulation=SIMULATION, rule_parameters=SPECS, rule_checks=reachable)


@pytest.fixture
def toy(monkeypatch, tmp_path):
    """pipeline.simulation.run.load sees the typed toy as game "toy" in a project at tmp_path."""
    import pipeline.games
    import pipeline.validate

    monkeypatch.setattr(pipeline.games, "load_game", lambda name, root: toy_module(name))
    monkeypatch.setattr(pipeline.validate, "load_records", lambda game, root, report, cache=None: toy_records())
    return tmp_path


def plan_of(root, *items: str, games: int = 30, seed: int = 4, report: Report | None = None):
    request = simulation.Request("toy", root, games, seed, 3, ("heuristic",))
    return sweeping.load(request, sweeping.parse_axes(list(items)), report if report is not None else Report())


def swept(root, *items: str, games: int = 30, seed: int = 4):
    return sweeping.run(plan_of(root, *items, games=games, seed=seed))


# --- the request ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("items, message", [
    ([], "give at least one --rule"),
    (["target"], "--rule takes NAME=V1,V2,…, not 'target'"),
    (["=5"], "--rule takes NAME=V1,V2,…"),
    (["target="], "--rule target= lists no value"),
    (["target=5,,7"], "an empty value between commas"),
    (["target=5,7,5"], "--rule target=5,7,5: 5 is listed twice"),
    (["target=5", "target=7"], "--rule target is given twice"),
    (["target=" + ",".join(map(str, range(1, 21))), "max_rounds=" + ",".join(map(str, range(11)))],
     "220 combinations (20 × 11): a sweep plays at most 200"),
])
def test_malformed_sweeps_are_usage_errors(items, message):
    with pytest.raises(sweeping.SweepUsage, match=".*".join(map(__import__("re").escape, message.split("…")))):
        sweeping.parse_axes(items)


def test_unknown_parameter_and_values_that_read_the_same_are_usage_errors(toy):
    with pytest.raises(sweeping.SweepUsage, match=r"toy has no rule parameter 'speed' \(known: explode_round, "):
        plan_of(toy, "speed=1,2")
    with pytest.raises(sweeping.SweepUsage, match="--rule target: 12 and 012 are the same value"):
        plan_of(toy, "target=12,012")


def test_grid_order_first_rule_slowest_and_the_file_name_keeps_the_order_given(toy):
    plan = plan_of(toy, "target=10,14", "max_rounds=0,3,5")
    assert plan.settings == tuple((("target", t), ("max_rounds", m)) for t in ("10", "14") for m in ("0", "3", "5"))
    assert plan.name == "target-x-max_rounds"
    assert plan_of(toy, "max_rounds=0,3", "target=10").name == "max_rounds-x-target"
    assert [a.current for a in plan.axes] == ["12", "0"]
    assert str(plan.axes[0].ref) == "sheets/toy.xlsx › rules › B2 (value)"


def test_bad_values_are_located_at_the_cell_they_replace_all_at_once(toy):
    report = Report()
    assert plan_of(toy, "target=12,abc,0", "max_rounds=1,yes", report=report) is None
    assert [str(p) for p in report.errors] == [
        "sheets/toy.xlsx › rules › B2 (value): --rule target=abc: 'abc' is not a whole number [type]",
        "sheets/toy.xlsx › rules › B2 (value): --rule target=0: 0 is below the minimum 1 [range]",
        "sheets/toy.xlsx › rules › B2 (value): --rule max_rounds=1: target 12 cannot be reached in 1 rounds "
        "[rules]",
        "sheets/toy.xlsx › rules › B3 (value): --rule max_rounds=yes: 'yes' is not a whole number [type]"]


def test_a_combination_the_rule_checks_refuse_is_named(toy):
    report = Report()
    assert plan_of(toy, "target=12,30", "max_rounds=0,3", report=report) is None
    assert [str(p) for p in report.errors] == [
        "sheets/toy.xlsx › rules › B2 (value): with --rule target=30 --rule max_rounds=3: target 30 cannot be "
        "reached in 3 rounds [rules]"]


def test_the_baseline_is_the_workbooks_values_wherever_they_are_else_the_first(toy):
    plan = plan_of(toy, "target=9,012,15")
    assert (plan.baseline, plan.workbook) == (1, True)          # 012 reads as the workbook's 12
    assert (plan_of(toy, "target=9,15").baseline, plan_of(toy, "target=9,15").workbook) == (0, False)


# --- the run --------------------------------------------------------------------------------------------------

def test_every_combination_plays_the_same_seeds_in_one_executor_call(toy):
    found = swept(toy, "target=8,12,20", games=60, seed=4)
    seeds = [game_seed(4, i) for i in range(60)]
    assert all([o["seed"] for o in p.result.outcomes] == seeds for p in found.points)
    [split] = found.splits
    assert (split.batches, split.games) == (3 * 3, 180)          # 60 games: 3 batches of 25 per combination
    winners = [[tuple(o["returns"]) for o in p.result.outcomes] for p in found.points]
    assert winners[0] != winners[2]                              # the target changes who wins, seed for seed


def test_the_workbooks_combination_plays_exactly_what_simulate_plays(toy):
    found = swept(toy, "target=20,12", games=40, seed=7)
    alone = simulate(SIMULATION, toy_records(), games=40, seed=7, players=3, bots=("heuristic",))
    assert found.points[1].baseline and found.points[1].result.outcomes == alone.outcomes
    assert found.points[1].result == alone


def test_measures_and_paired_changes_by_hand(toy):
    found = swept(toy, "target=12,20", games=50, seed=2)
    base, longer = found.points
    assert base.baseline and not longer.baseline
    assert base.first_change.value == 0 and base.figure_changes[0].value == 0
    diffs = [a["returns"][0] - b["returns"][0] for a, b in zip(longer.result.outcomes, base.result.outcomes)]
    assert longer.first_change.value == pytest.approx(sum(diffs) / 50)
    assert longer.first_change.n == 50
    pips = [[o["counters"]["pips"] for o in p.result.outcomes] for p in found.points]
    assert longer.figures[0].value == pytest.approx(sum(pips[1]) / 50)
    assert longer.figure_changes[0].value == pytest.approx((sum(pips[1]) - sum(pips[0])) / 50)
    rolls = [sum(o["counters"]["rolls"] for o in p.result.outcomes) for p in found.points]
    assert longer.figures[1].value == pytest.approx(sum(pips[1]) / rolls[1])
    change = longer.figure_changes[1]
    assert change.value == pytest.approx(sum(pips[1]) / rolls[1] - sum(pips[0]) / rolls[0])
    assert change.low < change.value < change.high and change.high - change.low < 1
    assert longer.rounds.value > base.rounds.value and longer.completion.value == 1


def test_a_combination_whose_games_stop_is_flagged_and_the_others_complete(toy):
    found = swept(toy, "max_rounds=0,2", games=30)
    free, capped = found.points
    assert free.finishes and free.completion.value == 1
    stopped = [o for o in capped.result.outcomes if flag_of(o)]
    assert not capped.finishes and len(capped.result.flagged) == len(stopped) > 0
    assert capped.completion.value == pytest.approx(1 - len(stopped) / 30)
    assert not found.ok
    rows = sweep_report.flag_rows(found, "toy", code=False)
    first = capped.result.flagged[0]
    assert rows == [["max_rounds", "flagged games", "what happened", "replay"],
                    ["2", str(len(stopped)), f"seed {first.seed}: {first.message}",
                     f"pnp simulate toy --replay {first.seed} --players 3 --bots heuristic --rule max_rounds=2"]]
    assert "safety cap max_rounds hit in round 2" in first.message


# --- the reports --------------------------------------------------------------------------------------------

def test_csv_one_row_per_combination_in_columns_a_notebook_can_pivot(toy):
    found = swept(toy, "target=10,14", "max_rounds=0,3")
    frame = sweep_report.frame(found)
    assert list(frame.columns[:6]) == ["combination", "target", "max_rounds", "baseline", "games", "finished"]
    for name in ("completion", "first_player_win_rate", "first_player_win_rate_change", "seat_3_win_rate",
                 "pips_per_game", "pips_per_roll_change", "rounds", "turns"):
        assert {name, f"{name}_low", f"{name}_high"} <= set(frame.columns), name
    others = {"score_mean", "score_sd", "rounds_sd", "turns_sd", "shared_wins", "end_target", "replay"}
    assert others <= set(frame.columns)
    assert list(frame["combination"]) == [1, 2, 3, 4]
    assert list(frame["baseline"]) == [True, False, False, False]        # no workbook values: the first
    pivot = frame.pivot(index="target", columns="max_rounds", values="first_player_win_rate")
    assert pivot.shape == (2, 2)
    assert pivot.loc["14", "3"] == pytest.approx(found.points[3].first.value)
    assert frame.loc[3, "seat_2_win_rate_low"] == pytest.approx(found.points[3].seats[1].low)


def test_markdown_tables_mark_the_baseline_and_show_changes_with_their_interval(toy):
    text = sweep_report.markdown(swept(toy, "target=12,20", games=40))
    assert text.startswith("# Toy dice race — rule sweep: target\n")
    assert "| rule target | 12, 20 (workbook: 12, sheets/toy.xlsx › rules › B2 (value)) |" in text
    assert "| baseline | target=12: the workbook's values |" in text
    assert "| 12 | 40 of 40 | " in text and "| baseline |" in text
    rows = [line for line in text.splitlines() if line.startswith("| 20 | 40 of 40 |")]
    assert rows and " ± " in rows[0]
    assert "None: every game of every combination ended by the rules." in text


def test_reports_are_byte_identical_run_after_run_and_the_split_stays_apart(toy):
    outputs = []
    for _ in range(2):
        found = swept(toy, "target=10,12", "max_rounds=0,2", games=30)
        paths = sweeping.write_reports(found)
        outputs.append({p.name: p.read_bytes() for p in paths})
    names = ["target-x-max_rounds.md", "target-x-max_rounds.pdf", "target-x-max_rounds.csv",
             "target-x-max_rounds.run.json"]
    assert sorted(outputs[0]) == sorted(names)
    assert all(outputs[0][n] == outputs[1][n] for n in names[:3])
    assert (toy / "output/toy/sweep").is_dir() and outputs[0][names[1]].startswith(b"%PDF")
    assert b"games_per_second" in outputs[0][names[3]]
    assert not any(b"games/s" in outputs[0][n] or b"seconds" in outputs[0][n] for n in names[:3])


def test_pdf_pages_one_rule_a_line_chart_two_rules_heat_maps(toy):
    import io

    from pipeline.render.fonts import default_fonts
    from pipeline.sweep import pdf as sweep_pdf

    one, two = swept(toy, "target=10,14,18"), swept(toy, "target=10,12", "max_rounds=0,2")
    assert [p.height for p in sweep_pdf.chart_panels(one, default_fonts())] == [200, 200]
    assert [p.full for p in sweep_pdf.chart_panels(two, default_fonts())] == [True, True]
    assert sweep_pdf.chart_panels(swept(toy, "target=10", "max_rounds=0", "stuck=0"), default_fonts()) == []
    assert [name for name, _, _ in sweep_pdf.win_series(one.points, ["seat 1", "seat 2", "seat 3"])] == [
        "seat 1 (first player)", "seat 2", "seat 3"]
    buffer = io.BytesIO()
    assert sweep_pdf.write_pdf(two, buffer, default_fonts()) == 2         # heat maps, then the tables


def test_the_build_keeps_the_sweep_folder(tmp_path):
    from pipeline.core.output import remove_stale

    game = tmp_path / "output" / "toy"
    (game / "sweep").mkdir(parents=True)
    (game / "sweep" / "target.md").write_text("kept")
    (game / "old.pdf").write_text("stale")
    assert remove_stale(game, []) == [game / "old.pdf"]
    assert (game / "sweep" / "target.md").read_text() == "kept"


# --- a real workbook ----------------------------------------------------------------------------------------

def test_build_it_start_gold_checked_at_its_cell_and_its_workbook_value_plays_as_simulate():
    from pipeline import PROJECT_ROOT

    request = simulation.Request("buildit", PROJECT_ROOT, games=8, seed=3)
    report = Report()
    assert sweeping.load(request, sweeping.parse_axes(["start_gold=5,abc,-1"]), report) is None
    assert [str(p) for p in report.errors] == [
        "sheets/buildit.xlsx › rules › B6 (value): --rule start_gold=abc: 'abc' is not a whole number [type]",
        "sheets/buildit.xlsx › rules › B6 (value): --rule start_gold=-1: -1 is below the minimum 0 [range]"]
    plan = sweeping.load(request, sweeping.parse_axes(["start_gold=9,5"]), Report())
    found = sweeping.run(plan)
    loaded = simulation.load(request, Report())
    alone = simulation.run(loaded)
    assert plan.baseline == 1 and found.points[1].result.outcomes == alone.outcomes
    gold = [p.figures[0].value for p in found.points]
    assert all(isinstance(g, float) and math.isfinite(g) for g in gold)
