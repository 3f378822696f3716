"""The simulation driver, its statistics and report, stage 6 and `pnp simulate`, on the toy dice race of
tests/simulation/toy_game.py (no real game needed)."""

from __future__ import annotations

import io
import json
import math
import random
from dataclasses import replace

import pikepdf
import pytest
from typer.testing import CliRunner

from pipeline import PROJECT_ROOT
from pipeline.core.errors import PipelineError, Report, Severity, SourceRef
from pipeline.play.driver import (GAME_SEED_STRIDE, GameSource, check_settings, game_seed, play, replay, simulate,
                                  summarise, to_plain, wilson)
from pipeline.render.fonts import default_fonts
from pipeline.simulation.pdf import write_pdf
from pipeline.simulation.report import markdown, seat_rows
from pipeline.simulation.run import load_simulation
from pipeline.validate import check_play
from tests.conftest import point_cli_at, run_cli
from tests.simulation import toy_game
from tests.simulation.toy_game import FILE, SIMULATION, toy_records

BOTS = ("heuristic", "random", "cautious")


@pytest.fixture(scope="module")
def result():
    return simulate(SIMULATION, toy_records(), games=200, seed=1, players=3, bots=BOTS)


@pytest.fixture(scope="module")
def capped():
    """Target 12 in at most 3 rounds: about half the races hit the cap."""
    return simulate(SIMULATION, toy_records(target=12, max_rounds=3), games=60, seed=5, players=3, bots=BOTS)


# --- the driver -------------------------------------------------------------------------------------------

def test_same_seed_same_games_other_seed_other_games(result):
    again = simulate(SIMULATION, toy_records(), games=200, seed=1, players=3, bots=BOTS)
    assert again == result
    other = simulate(SIMULATION, toy_records(), games=200, seed=2, players=3, bots=BOTS)
    assert [o["scores"] for o in other.outcomes] != [o["scores"] for o in result.outcomes]
    assert other.seats != result.seats


def test_global_random_is_never_used(result):
    random.seed(12345)
    first = simulate(SIMULATION, toy_records(), games=30, seed=1, players=3, bots=BOTS)
    random.seed(999)
    random.random()
    assert simulate(SIMULATION, toy_records(), games=30, seed=1, players=3, bots=BOTS) == first
    assert first.outcomes == result.outcomes[:30]


def test_game_seeds_follow_the_documented_formula(result):
    assert [o["seed"] for o in result.outcomes[:3]] == [GAME_SEED_STRIDE, GAME_SEED_STRIDE + 1, GAME_SEED_STRIDE + 2]
    assert game_seed(0, 7) == 7 and [o["index"] for o in result.outcomes] == list(range(200))


def test_one_or_two_workers_give_identical_results(monkeypatch):
    from pipeline.play.executors import Local

    pools = []
    real = Local._in_processes
    monkeypatch.setattr(Local, "_in_processes", lambda self, *a: pools.append(self.workers) or real(self, *a))
    source = GameSource("toy", "", loader=toy_game.load)
    records = toy_records()
    one = simulate(SIMULATION, records, games=60, seed=3, players=4, workers=1, source=source)
    two = simulate(SIMULATION, records, games=60, seed=3, players=4, workers=2, source=source)
    assert pools == [2]                                   # 60 games = 3 batches, played by 2 spawned processes
    assert one == two and one.finished == 60


def test_workers_rebuild_registered_games_from_id_and_root():
    with pytest.raises(PipelineError, match="no rules engine"):
        load_simulation("benchdeck", str(PROJECT_ROOT))
    with pytest.raises(ValueError, match="needs a GameSource"):
        simulate(SIMULATION, toy_records(), games=60, seed=0, players=2, workers=2)


def test_chance_is_sampled_by_probability():
    faces = ((1, 1), (2, 3))                              # P(2) = 0.75
    result = simulate(SIMULATION, toy_records(faces=faces), games=300, seed=4, players=2, bots=("heuristic",))
    table = dict(result.frequencies)["face"]
    twos = next(c.total for c in table if c.name == "2")
    rolls = sum(c.total for c in table)
    assert rolls > 1000 and abs(twos / rolls - 0.75) < 0.03


def test_a_game_that_never_ends_is_stopped_by_the_step_guard():
    outcome = play(SIMULATION, toy_records(stuck=1), 2, seed=8, bots=("random", "random"), max_steps=200)
    assert outcome["stuck"] is True and outcome["steps"] == 200 and outcome["error"] is None
    assert outcome["seed"] == 8 and outcome["rounds"] > 1 and "returns" not in outcome


def test_engine_and_bot_exceptions_are_recorded_not_raised():
    boom = play(SIMULATION, toy_records(explode_round=2), 3, seed=1, bots=BOTS)
    assert boom["error"]["type"] == "RuntimeError" and "exploded in round 2" in boom["error"]["message"]
    assert boom["error"]["phase"] == "engine" and boom["rounds"] == 2
    cheat = play(SIMULATION, toy_records(), 2, seed=1, bots=("cheater", "random"))
    assert cheat["error"] == {"type": "ValueError", "message": "illegal action 'jump'", "step": 0,
                              "phase": "engine", "seat": 0}


def test_bad_chance_probabilities_are_an_error():
    bad = replace(SIMULATION, new_game=lambda records, players: _Skewed(records, players))
    outcome = play(bad, toy_records(), 2, seed=1, bots=("heuristic",) * 2)
    assert outcome["error"]["phase"] == "chance" and "sum to 1" in outcome["error"]["message"]


class _Skewed(toy_game.DiceRace):
    def chance_outcomes(self):
        return [(value, p * 0.9) for value, p in super().chance_outcomes()]


def test_settings_are_checked():
    assert check_settings(SIMULATION, 3, None) == ("heuristic",) * 3
    assert check_settings(SIMULATION, 2, ("random",)) == ("random", "random")
    for players, bots, message in ((5, None, "2–4 players"), (2, ("nope",), "unknown bot 'nope'"),
                                   (3, ("random", "heuristic"), "2 bots for 3 players")):
        with pytest.raises(ValueError, match=message):
            check_settings(SIMULATION, players, bots)


# --- statistics -------------------------------------------------------------------------------------------

def test_wilson_interval_by_hand():
    z = 1.959963984540054
    p, n = 0.3, 100
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    low, high = wilson(30, 100)
    assert (low, high) == pytest.approx((centre - half, centre + half), abs=1e-12)
    assert (round(low, 4), round(high, 4)) == (0.2189, 0.3958)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0 and wilson(0, 0) == (0.0, 1.0)


def test_shared_wins_count_one_over_k():
    outcomes = [{"index": 0, "seed": 0, "scores": [5, 5, 1], "returns": [0.5, 0.5, 0.0], "error": None},
                {"index": 1, "seed": 1, "scores": [2, 3, 9], "returns": [0.0, 0.0, 1.0], "error": None}]
    result = summarise(outcomes, games=2, seed=0, players=3, bots=BOTS, max_steps=10, nominal={})
    assert [s.wins for s in result.seats] == [0.5, 0.5, 1.0]
    assert [s.rate for s in result.seats] == [0.25, 0.25, 0.5]
    assert result.margins.mean == 3.0 and result.margins.low == 0          # 5-5 tie, then 9-3


def test_first_player_results_whatever_their_seat():
    outcomes = [{"index": i, "seed": i, "scores": scores, "returns": returns, "first_player": first, "error": None}
                for i, (scores, returns, first) in enumerate([([9, 3], [1.0, 0.0], 0), ([4, 8], [0.0, 1.0], 1),
                                                              ([5, 7], [0.0, 1.0], 0), ([6, 6], [0.5, 0.5], 1)])]
    result = summarise(outcomes, games=4, seed=0, players=2, bots=("a", "b"), max_steps=10, nominal={})
    first = result.first_player
    assert (first.wins, first.rate, first.mean_score) == (2.5, 0.625, 7.0)      # 1 + 1 + 0 + 0.5; (9+8+5+6)/4
    assert (round(first.low, 4), round(first.high, 4)) == tuple(round(x, 4) for x in wilson(2.5, 4))
    assert seat_rows(result)[-1][:4] == ["1st", "first to play", "2.50", "0.625"]
    plain = summarise([{**o, "first_player": None} for o in outcomes], games=4, seed=0, players=2,
                      bots=("a", "b"), max_steps=10, nominal={})
    assert plain.first_player is None and len(seat_rows(plain)) == 3


def test_toy_statistics(result):
    assert result.finished == 200 and result.ok
    assert math.fsum(s.wins for s in result.seats) == pytest.approx(200)
    assert any(o["returns"].count(max(o["returns"])) > 1 for o in result.outcomes)       # ties happened
    cautious = result.seats[2]
    assert cautious.bot == "cautious" and cautious.mean_score == pytest.approx(
        sum(o["scores"][2] for o in result.outcomes) / 200)
    assert result.end_reasons == (("target", 200),)
    assert result.rounds.low >= 2 and result.turns.mean == pytest.approx(3 * result.rounds.mean)


def test_nominal_pairs_ratios_and_per_game_counters(result):
    rows = {r.name: r for r in result.nominal}
    totals = {c.name: c.total for c in result.counters}
    assert rows["pips/rolls"].nominal == 3.5
    assert rows["pips/rolls"].simulated == pytest.approx(totals["pips"] / totals["rolls"])
    assert rows["steps"].simulated == pytest.approx(totals["steps"] / 200)
    assert rows["bonus"].simulated is None
    assert [c.name for c in dict(result.frequencies)["face"]] == ["1", "2", "3", "4", "5", "6"]


def test_capped_games_are_flagged_and_left_out(capped):
    assert 0 < len(capped.flagged) < 60 and capped.finished == 60 - len(capped.flagged)
    flag = capped.flagged[0]
    assert flag.kind == "cap" and flag.message == "did not finish: safety cap max_rounds hit in round 3"
    assert dict(capped.end_reasons)["cap: max_rounds"] == len(capped.flagged)
    assert not capped.ok


def test_replaying_a_flagged_seed_reproduces_the_game(capped):
    flag = capped.flagged[0]
    again = replay(SIMULATION, toy_records(target=12, max_rounds=3), flag.seed, 3, BOTS)
    assert again.outcomes[0] == capped.outcomes[flag.index] | {"index": 0}
    assert again.flagged[0].message == flag.message and again.replay


# --- stage 6 ----------------------------------------------------------------------------------------------

def test_play_stage_locates_a_stuck_game():
    report = Report()
    result = check_play(SIMULATION, toy_records(stuck=1), report, games=1, seed=0, max_steps=300)
    assert result is not None and len(report.problems) == 1
    problem = report.problems[0]
    assert problem.rule == "play" and problem.severity is Severity.ERROR
    assert problem.where == SourceRef(FILE, "rules", 4, "B", "value")
    assert str(problem) == ("sheets/toy.xlsx › rules › B4 (value): game with seed 0 did not finish: still running "
                            "after 300 steps (round 51); no safety cap fired [play]")


def test_play_stage_capped_game_names_the_cap_and_every_blamed_row():
    report = Report()
    check_play(SIMULATION, toy_records(stuck=0, target=99, max_rounds=2), report, games=2, seed=0)
    # both games failed the same way at the same rows: one problem, with the seeds to replay
    assert len(report.errors) == 1
    message = report.errors[0].message
    assert message.startswith("2 of 2 games (seeds 0, 1) did not finish: safety cap max_rounds hit in round 2")
    assert "also sheets/toy.xlsx › faces › row 2" in message and message.endswith("; …")


def test_play_stage_engine_error_falls_back_to_the_data_file():
    report = Report()
    check_play(SIMULATION, toy_records(explode_round=3), report, games=3, seed=10)
    assert [p.where for p in report.errors] == [FILE]
    assert report.errors[0].message.startswith("3 of 3 games (seeds 10000030, 10000031, 10000032) stopped at step")
    assert "the engine raised RuntimeError: toy engine exploded in round 3" in report.errors[0].message


def test_play_stage_clean_and_without_engine():
    report = Report()
    result = check_play(SIMULATION, toy_records(), report)
    assert report.problems == [] and result.games == 20 and result.players == 3 and result.seed == 0
    assert report.notes == ["play: 20 of 20 games by bots finished (seed 0, 3 players)"]
    assert check_play(None, {}, Report()) is None


def test_play_stage_runs_the_games_own_play_checks_first(monkeypatch):
    """Simulation.play_checks is the game's hook in stage 6 (NBA plays its durations table there): its error
    stops the stage before the batch, and validate_game then returns no records."""
    from dataclasses import replace

    import pipeline.validate
    from pipeline.validate import validate_game

    monkeypatch.setattr(pipeline.validate, "load_records", lambda game, root, report, cache=None: toy_records())
    seen = []

    def checks(records, report, simulation):
        seen.append(simulation)
        report.error(SourceRef(FILE, "rules", 2, "B", "value"), "this length is not what the engine plays", "durations")

    sim = replace(SIMULATION, play_checks=checks)
    report = Report()
    assert check_play(sim, toy_records(), report) is None
    assert seen == [sim] and [p.rule for p in report.problems] == ["durations"] and report.notes == []

    game = replace(toy_game.toy_module("toy"), simulation=sim)
    report = Report()
    records, result = validate_game(game, PROJECT_ROOT, report)
    assert records is None and result is None and [p.rule for p in report.errors] == ["durations"]
    records, result = validate_game(replace(game, simulation=SIMULATION), PROJECT_ROOT, Report())
    assert records is not None and result.games == 20


# --- report -----------------------------------------------------------------------------------------------

def test_markdown_tables(result, capped):
    text = markdown(result, "Toy", game="toy")
    for row in ("| games | 200 (game i plays seed 1 × 1000003 + i) |",
                f"| 1 | heuristic | {result.seats[0].wins:g} | {result.seats[0].rate:.3f} |",
                "| target | 200 | 100.0% |", "| pips/rolls | 3.500 |", "## How often: face",
                "None: every game ended by the rules."):
        assert row in text, row
    flagged = markdown(capped, "Toy", game="toy")
    seed = capped.flagged[0].seed
    assert (f"| {capped.flagged[0].index} | {seed} | did not finish: safety cap max_rounds hit in round 3 | "
            f"`pnp simulate toy --replay {seed} --players 3 --bots heuristic,random,cautious` |") in flagged


def test_nothing_finished_means_no_statistics_and_plain_data_for_the_build_report(result):
    broken = simulate(SIMULATION, toy_records(explode_round=1), games=4, seed=0, players=2)
    text = markdown(broken, "Toy")
    assert broken.finished == 0 and "## Win rate by seat" not in text and "| error | 4 | 100.0% |" in text
    plain = json.loads(json.dumps(to_plain(result)))
    assert "outcomes" not in plain and plain["seats"][0]["bot"] == "heuristic" and plain["finished"] == 200


def test_chart_bins_and_ticks():
    from pipeline.render.charts import draw as charts

    assert charts.bin_counts([2, 3, 3, 5], 12) == (["2", "3", "4", "5"], [1, 2, 0, 1])
    assert charts.bin_counts(list(range(30)), 10) == ([f"{a}–{a + 2}" for a in range(0, 30, 3)], [3] * 10)
    assert charts.nice_step(89, whole=True) == 25 and charts._tick_label(75, 25) == "75"
    assert charts.nice_step(0.92) == 0.25 and charts._tick_label(0.5, 0.25) == "0.50"


def _drawn(draw):
    """What a chart drew on an A4 page, read back with pdfplumber."""
    import pdfplumber
    from reportlab.pdfgen.canvas import Canvas

    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(595, 842), invariant=1)
    draw(canvas)
    canvas.save()
    return pdfplumber.open(io.BytesIO(buffer.getvalue())).pages[0]


def _words_at(page, word):
    return [w for w in page.extract_words() if w["text"] == word]


def test_heat_map_cells_print_their_value_on_their_colour():
    from pipeline.render.charts import draw as charts

    assert charts.heat_colour(0.5, 0, 0.5, 1) == ((1.0, 1.0, 1.0), False)
    for value, end in ((1.0, charts.WARM), (0.0, charts.COOL)):
        fill, light = charts.heat_colour(value, 0, 0.5, 1)
        assert fill == pytest.approx(end) and light
    assert charts.heat_colour(0.75, 0, 0.5, 1)[0] == pytest.approx(tuple(1 - (1 - c) / 2 for c in charts.WARM))
    fonts = default_fonts()
    page = _drawn(lambda c: charts.heat_map(c, (40, 400, 400, 200), ["a", "b"], ["a", "b"],
                                            [[None, ["0.93", "40 games"]], [["0.07", "40 games"], None]],
                                            [[None, 0.93], [0.07, None]], "Matrix", fonts))
    warm = tuple(round(c, 3) for c in charts.heat_colour(0.93, 0, 0.5, 1)[0])
    filled = {tuple(round(c, 3) for c in r["non_stroking_color"]): r for r in page.rects
              if r["width"] > 100 and r["non_stroking_color"]}
    cell = filled[warm]
    [value] = _words_at(page, "0.93")
    assert cell["x0"] < value["x0"] < value["x1"] < cell["x1"] and cell["top"] < value["top"] < cell["bottom"]
    assert cell["x0"] > 40 + 20 and len(_words_at(page, "—")) == 2                # row labels first; mirror cells


def test_horizontal_bars_draw_negative_values_left_of_zero():
    from pipeline.render.charts import draw as charts

    fonts = default_fonts()
    page = _drawn(lambda c: charts.bar_chart(c, (40, 400, 250, 100), ["gain", "loss"], [2.0, -1.0], None, "t",
                                             fonts, horizontal=True))
    bars = sorted((r for r in page.rects if r["height"] > 3), key=lambda r: r["top"])
    gain, loss = bars
    assert loss["x1"] == pytest.approx(gain["x0"], abs=0.01)                      # both from the zero line
    assert gain["width"] == pytest.approx(2 * loss["width"], rel=1e-3)
    [label] = _words_at(page, "loss")
    assert label["x1"] <= loss["x0"] + 0.01                                         # the bar never covers its label


def test_frequency_tables_show_each_rows_share(result):
    text = markdown(result, "Toy", game="toy")
    faces = dict(result.frequencies)["face"]
    whole = sum(c.total for c in faces)
    one = faces[0]
    assert (f"| 1 | {one.mean:.3f} | {one.total:g} | {one.total / whole:.1%} | {one.games} "
            f"({one.games / 200:.0%}) |") in text


def _pdf(result) -> bytes:
    buffer = io.BytesIO()
    write_pdf(result, buffer, "Toy dice race", default_fonts())
    return buffer.getvalue()


def test_pdf_pages_fonts_and_bytes(result, capped):
    for res in (result, capped):
        data = _pdf(res)
        assert _pdf(res) == data
        with pikepdf.open(io.BytesIO(data)) as pdf:
            assert 1 <= len(pdf.pages) <= 2
            fonts = [f for page in pdf.pages for f in (page.Resources.get("/Font") or {}).values()]
            assert fonts
            for font in fonts:
                owner = font["/DescendantFonts"][0] if font.get("/Subtype") == "/Type0" else font
                assert "/FontFile2" in owner["/FontDescriptor"], font.get("/BaseFont")
                assert "Helvetica" not in str(font.get("/BaseFont"))


# --- the command ------------------------------------------------------------------------------------------

def test_unknown_game_is_a_usage_error():
    done = run_cli("simulate", "nosuch")
    assert done.returncode == 2 and "Traceback" not in done.stderr and "unknown game" in done.stderr


@pytest.fixture
def toy_cli(monkeypatch, tmp_path):
    import pipeline.cli.app
    import pipeline.games
    import pipeline.validate

    point_cli_at(monkeypatch, tmp_path)
    monkeypatch.setattr(pipeline.games, "load_game", lambda name, root: toy_game.toy_module(name))
    monkeypatch.setattr(pipeline.validate, "load_records",
                        lambda game, root, report, cache=None: toy_records(**toy_game.VARIANTS[game.id]))

    def invoke(*args):
        return CliRunner().invoke(pipeline.cli.app.app, ["simulate", *args])
    return invoke, tmp_path


def test_simulate_command_writes_the_report(toy_cli):
    invoke, root = toy_cli
    done = invoke("toy", "--games", "40", "--seed", "3", "--bots", "heuristic,random,cautious")
    assert done.exit_code == 0, done.output
    assert "Win rate by seat" in done.output and "heuristic" in done.output
    assert "wrote output/toy/simulation/report.md" in done.output
    assert (root / "output/toy/simulation/report.pdf").read_bytes().startswith(b"%PDF")
    assert "| games | 40 (game i plays seed 3 × 1000003 + i) |" in (root / "output/toy/simulation/report.md"
                                                                       ).read_text()


def test_simulate_command_flags_and_replays(toy_cli):
    invoke, _ = toy_cli
    done = invoke("toy-capped", "--games", "3", "--seed", "0")
    assert done.exit_code == 1
    assert "did not finish: safety cap max_rounds hit in round 5" in done.output
    assert "replay one: pnp simulate toy-capped --replay 0 --players 3 --bots heuristic" in done.output
    again = invoke("toy-capped", "--replay", "2")
    assert again.exit_code == 1 and "game seed 2" in again.output and "round 5" in again.output


@pytest.mark.parametrize("args, message", [(("--players", "9"), "2–4 players"), (("--bots", "x"), "unknown bot")])
def test_simulate_command_usage_errors(toy_cli, args, message):
    invoke, _ = toy_cli
    done = invoke("toy", *args)
    assert done.exit_code == 2 and message in done.output and done.exception.__class__ is SystemExit


def test_play_stage_flags_a_variant_whose_games_stop_at_the_cap():
    """Stage 6 plays the variants a game declares; one that mostly ends at a safety cap is an error at
    the variant's rules row (Build It's Contractuelle once ended 57 games of 60 at its 40-round cap)."""
    from dataclasses import replace

    unreachable = (("target", 99), ("max_rounds", 2))           # the toy reads its rules rows untyped
    sim = replace(SIMULATION, variants=lambda records: ((("target", 12),), unreachable))
    report = Report()
    check_play(sim, toy_records(), report, games=8, seed=0)
    assert [str(p) for p in report.errors] == [
        "sheets/toy.xlsx › rules › B2 (value): with target=99, max_rounds=2, 6 of 6 games by bots stopped at a "
        "safety cap instead of the variant's own end [play]"]
    assert "play (target=12): 6 of 6 games finished by the rules" in report.notes


def test_reading_effects_replay_the_same_seeds_with_the_other_value():
    """The same seeds, the other reading: how many games changed winner (All-Star Draft's swaps rule and
    the others a game declares are reported this way by `pnp simulate`)."""
    from dataclasses import replace

    from pipeline.play.variants import reading_effects
    from pipeline.simulation.report import reading_rows

    sim = replace(SIMULATION, readings=lambda records: [("target", 30), ("stuck", 1)])
    records = toy_records()
    result = simulate(sim, records, games=40, seed=3, players=3, bots=BOTS)
    same = simulate(sim, records, games=40, seed=3, players=3, bots=BOTS)
    rows = reading_effects(sim, records, result, rules=(("stuck", 0),))
    assert [row[:4] for row in rows] == [("target", "12", 30, 40)]            # stuck: changed by the run itself
    longer = simulate(sim, toy_records(target=30), games=40, seed=3, players=3, bots=BOTS)
    expected = sum(a["returns"] != b["returns"] for a, b in zip(result.outcomes, longer.outcomes))
    assert rows[0][4] == expected > 0
    first = (sum(a["returns"][0] for a in result.outcomes) / 40, sum(b["returns"][0] for b in longer.outcomes) / 40)
    assert rows[0][5:] == pytest.approx(first)          # what the reading does to the first seat's results
    assert reading_rows(rows)[1] == ["target", "12", "30", "40", f"{expected} ({expected / 40:.0%})",
                                     f"{first[0]:.2f} → {first[1]:.2f}"]
    assert reading_effects(replace(sim, readings=lambda r: [("target", 12)]), records, same)[0][4] == 0
