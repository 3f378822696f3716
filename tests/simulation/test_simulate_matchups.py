"""Sides, matchups, sweeps and the games table of `pnp simulate`, on the toy duel of tests/simulation/toy_duel.py."""

from __future__ import annotations

import csv
import io

import pytest
from typer.testing import CliRunner

from pipeline.play.driver import simulate
from pipeline.play.stats import wilson
from pipeline.play.variants import simulate_with, sweep_results
from pipeline.simulation.report import markdown, paired_rows, sweep_rows
from tests.conftest import point_cli_at
from tests.simulation import toy_duel
from tests.simulation.toy_duel import SIMULATION, SPEEDS, duel_records


@pytest.fixture
def duel_cli(monkeypatch, tmp_path):
    import pipeline.cli.app
    import pipeline.games
    import pipeline.validate

    point_cli_at(monkeypatch, tmp_path)
    monkeypatch.setattr(pipeline.games, "load_game", lambda name, root: toy_duel.duel_module(name))
    monkeypatch.setattr(pipeline.validate, "load_records", lambda game, root, report, cache=None: duel_records())

    def invoke(*args):
        return CliRunner().invoke(pipeline.cli.app.app, ["simulate", "duel", *args])
    return invoke, tmp_path


def _matchups(games=40, seed=2, **rules):
    from pipeline.simulation.run import Loaded, Request, run_matchups

    records = duel_records(**rules)
    loaded = Loaded(Request("duel", None, games, seed, matchups=True), toy_duel.duel_module(), records, 2,
                    ("none", "none"))
    return run_matchups(loaded)


# --- the matrix -------------------------------------------------------------------------------------------

def test_a_side_that_always_wins_reads_one_and_zero_at_both_seatings():
    m = _matchups(games=30)
    assert m.sides == ("ace", "dud", "twin", "mirror") and len(m.runs) == 12     # every ordered pair, no mirror
    ace, dud = m.cells[("ace", "dud")], m.cells[("dud", "ace")]
    assert (ace.games, ace.wins, ace.rate) == (60, 60.0, 1.0)                    # 30 games × 2 seatings
    assert (dud.wins, dud.rate) == (0.0, 0.0)
    assert (ace.low, ace.high) == wilson(60, 60) and ace.high == 1.0 and round(ace.low, 4) == 0.9398
    assert ("ace", "ace") not in m.cells
    assert m.overall["dud"].rate == 0.0 and m.overall["dud"].games == 180         # 3 opponents × 60


def test_seatings_are_pooled():
    """A side's cell adds its wins as north against B and as south against B; draws count half."""
    m = _matchups(games=50, draw_pct=20)
    runs = dict(m.runs)
    for side, opponent in (("twin", "mirror"), ("ace", "twin"), ("mirror", "ace")):
        there, back = runs[(side, opponent)], runs[(opponent, side)]
        cell = m.cells[(side, opponent)]
        assert cell.wins == pytest.approx(there.seats[0].wins + back.seats[1].wins)
        assert cell.games == there.finished + back.finished == 100
        assert cell.wins + m.cells[(opponent, side)].wins == pytest.approx(100)
    assert any(o["returns"] == [0.5, 0.5] for _, r in m.runs for o in r.outcomes)    # draws happened
    assert m.cells[("ace", "dud")].rate < 1.0                                     # a drawn game is half a win


def test_every_pairing_plays_the_same_seeds():
    m = _matchups(games=5, seed=3)
    seeds = {tuple(o["seed"] for o in r.outcomes) for _, r in m.runs}
    assert seeds == {tuple(3 * 1_000_003 + i for i in range(5))}
    assert m.pooled.games == 60 and [o["index"] for o in m.pooled.outcomes] == list(range(60))


def test_games_table_columns_and_pivot():
    from pipeline.simulation.table import rate_pivot

    m = _matchups(games=10)
    frame = m.frame
    assert list(frame.columns[:15]) == ["run", "game", "seed", "team_north", "team_south", "bot_1", "score_1",
                                        "result_1", "bot_2", "score_2", "result_2", "winner", "end_reason", "flag",
                                        "rounds"]
    assert {"points:play", "played:ace", "discarded:dud", "buzz:north"} <= set(frame.columns)
    assert len(frame) == 120
    ace_north = frame[(frame.team_north == "ace") & (frame.team_south == "dud")]
    assert set(ace_north.winner) == {"ace"} and set(ace_north["buzz:south"]) == {0}
    pivot = rate_pivot(m.cells, m.sides)
    assert pivot.loc["ace", "dud"] == 1.0 and pivot.loc["dud", "ace"] == 0.0
    assert pivot.isna().values.diagonal().all()


# --- the sweep and the frequency tables ---------------------------------------------------------------------

def test_the_speed_sweep_measures_the_speed_share():
    records = duel_records(team_north="twin", team_south="mirror")             # equal strength: speed alone
    result = simulate(SIMULATION, records, games=400, seed=1, players=2)
    points = sweep_results(SIMULATION, records, result, SPEEDS, limit=300)
    assert [s for s, _ in points] == [(40, 60), (50, 50), (60, 40)]
    rates = [r.seats[0].rate for _, r in points]
    for rate, share, (_, r) in zip(rates, (0.4, 0.5, 0.6), points):
        assert r.games == 300 and r.seats[0].low < share < r.seats[0].high
    assert rates[0] < rates[1] < rates[2]
    assert points[1][1].outcomes == result.outcomes[:300]                       # (50, 50) is the run itself
    again = simulate_with(SIMULATION, records, (("speed_north", "40"), ("speed_south", "60")), 300, 1, 2)
    assert again.outcomes == points[0][1].outcomes                             # the same seeds
    rows = sweep_rows(SPEEDS, points, ["twin", "mirror"])
    assert rows[0] == ["speed_north, speed_south", "north's speed share", "twin win rate (95 % CI)",
                       "mirror win rate (95 % CI)", "shared", "games"]
    assert rows[1][:2] == ["40, 60", "0.40"] and rows[1][2].startswith(f"{rates[0]:.3f} (")


def test_paired_tables_and_shares():
    result = simulate(SIMULATION, duel_records(team_north="ace", team_south="dud"), games=20, seed=1, players=2)
    rows = paired_rows(result, "played", "discarded")
    assert rows == [["", "played / game", "discarded / game", "played share"],
                    ["ace", "1", "1", "50.0%"], ["dud", "0", "2", "0.0%"]]
    text = markdown(result, "Duel", paired=(("played", "discarded"),))
    assert "## played vs discarded" in text
    assert "| north | 1 | 20 | 100.0% | 20 (100%) |" in text                    # buzz: north every quarter


# --- the command --------------------------------------------------------------------------------------------

def test_teams_is_the_same_as_the_side_rules(duel_cli):
    invoke, root = duel_cli
    by_teams = invoke("--teams", "twin,mirror", "--games", "30", "--seed", "4")
    assert by_teams.exit_code == 0, by_teams.output
    teams_csv = (root / "output/duel/simulation/games.csv").read_text()
    by_rules = invoke("--rule", "team_north=twin", "--rule", "team_south=mirror", "--games", "30", "--seed", "4")
    assert by_rules.exit_code == 0
    assert (root / "output/duel/simulation/games.csv").read_text() == teams_csv
    rows = list(csv.DictReader(io.StringIO(teams_csv)))
    assert len(rows) == 30 and {r["team_north"] for r in rows} == {"twin"}
    assert {r["winner"] for r in rows} == {"twin", "mirror"}
    report = (root / "output/duel/simulation/report.md").read_text()
    assert "## Sweep: win rate as a function of north's speed share" in report
    assert "Toy duel (team_north=twin, team_south=mirror)" in report


def test_matchups_command_prints_the_matrix_and_writes_the_reports(duel_cli):
    invoke, root = duel_cli
    done = invoke("--matchups", "--games", "12")
    assert done.exit_code == 0, done.output
    low = f"{wilson(24, 24)[0]:.2f}"                                             # ace vs dud: 24 games won
    lines = done.output.splitlines()
    ace = next(i for i, line in enumerate(lines) if line.startswith("ace "))
    assert lines[ace - 3].startswith("Matchup matrix")
    assert lines[ace].split("│")[1:3] == [" " * 9 + "— ", "     1.000 "]
    assert lines[ace + 1].split("│")[2] == f" {low}–1.00 "                        # the interval under the rate
    folder = root / "output/duel/simulation/matchups"
    assert (folder / "report.pdf").read_bytes().startswith(b"%PDF")
    text = (folder / "report.md").read_text()
    assert f"| ace | — | 1.000 ({low}–1.00) | 0.500 (" in text
    rows = list(csv.DictReader(io.StringIO((folder / "games.csv").read_text())))
    assert len(rows) == 144 and rows[0]["team_north"] == "ace" and rows[0]["team_south"] == "dud"


@pytest.mark.parametrize("args, message", [
    (("--teams", "ace,nobody"), "--teams: unknown id 'nobody' (known: ace, dud, twin, mirror)"),
    (("--teams", "ace"), "--teams takes 2 ids separated by commas"),
    (("--teams", "ace,dud", "--rule", "team_north=twin"), "--teams and --rule team_north=… both set team_north"),
    (("--matchups", "--teams", "ace,dud"), "--matchups plays every pairing: it does not take --teams"),
    (("--matchups", "--rule", "team_south=ace"), "--matchups sets team_south in every pairing"),
])
def test_side_usage_errors(duel_cli, args, message):
    invoke, _ = duel_cli
    done = invoke(*args)
    assert done.exit_code == 2 and message in done.output and "Traceback" not in done.output
    assert len([line for line in done.output.splitlines() if line.strip()]) == 1


def test_a_game_without_sides_refuses_teams_and_matchups(monkeypatch, tmp_path):
    import pipeline.cli.app
    import pipeline.games
    import pipeline.validate
    from tests.simulation import toy_game

    point_cli_at(monkeypatch, tmp_path)
    monkeypatch.setattr(pipeline.games, "load_game", lambda name, root: toy_game.toy_module(name))
    monkeypatch.setattr(pipeline.validate, "load_records", lambda game, root, report, cache=None: toy_game.toy_records())
    for option in (["--teams", "a,b"], ["--matchups"]):
        done = CliRunner().invoke(pipeline.cli.app.app, ["simulate", "toy", *option])
        assert done.exit_code == 2 and done.output.strip() == (
            f"error: toy: {option[0]} needs a game that declares its sides; this one has none")


# --- pandas stays out of build and validate; Fightball's sides ------------------------------------------------

def test_pandas_is_imported_by_simulate_only():
    import subprocess
    import sys

    code = ("import sys\nfrom pipeline import build, validate\nimport pipeline.cli.app\n"
            "from pipeline.simulation import run, report, matchups\n"
            "import pipeline.games.fightball\nassert 'pandas' not in sys.modules\n"
            "from pipeline.simulation import table\ntable.games_frame([])\nprint('pandas' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "True"


def test_fightball_teams_and_sweep_are_declared():
    from pipeline import PROJECT_ROOT
    from pipeline.core.errors import Report
    from pipeline.games import load_game
    from pipeline.simulation.run import Request, SimulationUsage, load

    game = load_game("fightball", PROJECT_ROOT)
    sides, [speed] = game.simulation.sides, game.simulation.sweeps
    assert sides.parameters == ("team_north", "team_south") and speed.settings == ((30, 70), (40, 60), (50, 50),
                                                                               (60, 40), (70, 30))
    assert [speed.x(s) for s in speed.settings] == [0.3, 0.4, 0.5, 0.6, 0.7]
    loaded = load(Request("fightball", PROJECT_ROOT, games=2, teams=("eclairs", "remparts")), Report())
    assert list(sides.choices(loaded.records)) == ["eclairs", "forges", "remparts", "mirages"]
    assert loaded.request.rules == (("team_north", "eclairs"), ("team_south", "remparts"))
    with pytest.raises(SimulationUsage, match=r"^--teams: unknown id 'eclair' \(known: eclairs, forges, remparts, "
                                              r"mirages\)$"):
        load(Request("fightball", PROJECT_ROOT, games=2, teams=("eclair", "remparts")), Report())


def test_variants_share_one_pool_and_match_one_process(monkeypatch):
    """Every pairing's (or setting's) batches go to one pool; a worker loads the game once and makes each
    variant's records once; the results are those of one process."""
    from pipeline.play.driver import GameSource, simulate_runs
    from pipeline.play.executors import Local

    pools = []
    real = Local._in_processes
    monkeypatch.setattr(Local, "_in_processes",
                        lambda self, batches, progress: pools.append((len(batches), self.workers)) or
                        real(self, batches, progress))
    source = GameSource("duel", "", loader=toy_duel.load)
    variants = [(("team_north", a), ("team_south", b)) for a, b in (("ace", "dud"), ("twin", "mirror"), ("dud", "ace"))]
    one = simulate_runs(SIMULATION, duel_records(), variants, 60, 5, 2, workers=1, source=source)
    two = simulate_runs(SIMULATION, duel_records(), variants, 60, 5, 2, workers=2, source=source)
    assert pools == [(9, 2)] and one == two                              # 3 variants × 3 batches, one pool
    assert [r.seats[0].wins for r in one] == [60, one[1].seats[0].wins, 0] and 0 < one[1].seats[0].wins < 60


def test_a_flagged_games_replay_command_keeps_the_runs_sides():
    from dataclasses import replace

    from pipeline.simulation.report import flagged_rows

    result = simulate(SIMULATION, duel_records(), games=3, seed=0, players=2)
    broken = replace(result, flagged=(replace(toy_duel_flag(), seed=7),))
    rules = (("team_north", "twin"), ("team_south", "dud"))
    assert flagged_rows(broken, "duel", rules)[1][3] == (
        "`pnp simulate duel --replay 7 --players 2 --bots none --rule team_north=twin --rule team_south=dud`")


def toy_duel_flag():
    from pipeline.play.stats import Flagged

    return Flagged(0, 0, "error", "stopped at step 0 (its setup): the engine raised ValueError: x")
