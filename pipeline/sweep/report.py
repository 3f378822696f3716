"""The report of a rule sweep (pipeline/sweep/run.py measures it): text rows shared by the terminal, the Markdown
report and the PDF (pipeline/sweep/pdf.py), and the CSV, one row per combination with every measure and its
interval in columns a notebook can pivot. Seats are numbered from 1."""

from __future__ import annotations

import re
from pathlib import Path

from pipeline.play.metrics import Measure
from pipeline.simulation.report import md_table, num, replay_command

RATE_NOTE = ("A win shared by k seats counts 1/k; rates show their 95 % Wilson interval, means and changes "
             "± the half-width of theirs. \"Change\" is the paired difference from the baseline's game with the "
             "same seed, over the games both ended by the rules (their number when some did not): chance is "
             "held fixed, so it measures the rule.")


# --- cells ------------------------------------------------------------------------------------------------------

def rate(m: Measure, narrow: bool = False) -> str:
    """A rate and its (asymmetric, Wilson) interval; `narrow`: the interval on a line of its own."""
    if m.value is None:
        return "—"
    return f"{m.value:.3f}{_between(narrow)}({m.low:.2f}–{m.high:.2f})"


def mean(m: Measure, narrow: bool = False, digits: int = 2, sign: str = "") -> str:
    """A mean (or a change) and the half-width of its symmetric interval: "8.23 ± 0.17"."""
    if m.value is None:
        return "—"
    return f"{m.value:{sign}.{digits}f}{_between(narrow)}± {(m.high - m.low) / 2:.{digits}f}"


def change(m: Measure, point, narrow: bool = False, digits: int = 3) -> str:
    """The paired change from the baseline, signed, and over how many games when some were not paired (a
    flagged game on either side); "baseline" on the baseline's own row."""
    if point.baseline or m.value is None:
        return "baseline" if point.baseline else "—"
    paired = f"{_between(narrow)}({m.n} games)" if m.n < point.result.games else ""
    return mean(m, narrow, digits, "+") + paired


def _between(narrow: bool) -> str:
    return "\n" if narrow else " "


def seat_names(result) -> list[str]:
    """Who sits at each seat ("seat 1 (eclairs)" for a game with sides)."""
    from pipeline.simulation.run import seat_names as named

    return named(result.plan.loaded)


def _setting(point) -> list[str]:
    return [value for _, value in point.setting]


def _axes(result) -> list[str]:
    return [axis.name for axis in result.plan.axes]


def finished(point, narrow: bool = False) -> str:
    result = point.result
    return (f"{result.finished}/{result.games}" if narrow else f"{result.finished} of {result.games}") + (
        " (flagged)" if result.flagged else "")


# --- the tables ---------------------------------------------------------------------------------------------------

def win_rows(result, narrow: bool = False) -> list[list[str]]:
    """Per combination: games finished, the first player's win rate and its change, each seat's win rate
    (`narrow`, for a terminal: two-line cells, and the seats' rates without their intervals)."""
    rows = [_axes(result) + ["finished", "first player", "change"] + seat_names(result)]
    for p in result.points:
        seats = [f"{s.value:.3f}" if narrow and s.value is not None else rate(s) for s in p.seats]
        rows.append(_setting(p) + [finished(p, narrow), rate(p.first, narrow), change(p.first_change, p, narrow)]
                    + seats)
    return rows


def figure_rows(result, narrow: bool = False) -> list[list[str]]:
    """Per combination: each of the game's key figures and its change ([] when the game names none)."""
    figures = result.plan.figures
    if not figures:
        return []
    rows = [_axes(result) + [h for f in figures for h in (f.label, "change")]]
    for p in result.points:
        rows.append(_setting(p) + [cell for m, c in zip(p.figures, p.figure_changes)
                                   for cell in (mean(m, narrow), change(c, p, narrow, 2))])
    return rows


def length_rows(result, narrow: bool = False) -> list[list[str]]:
    rows = [_axes(result) + ["score mean", "score sd", "rounds", "turns", "shared wins"]]
    for p in result.points:
        scores = p.result.scores
        rows.append(_setting(p) + [num(scores.mean) if scores else "—", num(scores.sd) if scores else "—",
                                   mean(p.rounds, narrow), mean(p.turns, narrow), str(_shared(p.result))])
    return rows


def reasons(result) -> list[str]:
    """Every end reason of the sweep, the most frequent first."""
    totals: dict[str, int] = {}
    for p in result.points:
        for reason, count in p.result.end_reasons:
            totals[reason] = totals.get(reason, 0) + count
    return sorted(totals, key=lambda r: (-totals[r], r))


def reason_rows(result) -> list[list[str]]:
    names = reasons(result)
    rows = [_axes(result) + names]
    for p in result.points:
        counts = dict(p.result.end_reasons)
        rows.append(_setting(p) + [str(counts.get(r, 0)) for r in names])
    return rows


def flag_rows(result, game: str, code: bool = True) -> list[list[str]]:
    """The combinations whose games did not all end by the rules: how many, the first in words, and the
    command that plays it again (`code`: in backquotes, for Markdown)."""
    rows = [_axes(result) + ["flagged games", "what happened", "replay"]]
    for p in result.points:
        if p.result.flagged:
            first = p.result.flagged[0]
            again = replay(p, game)
            rows.append(_setting(p) + [str(len(p.result.flagged)), f"seed {first.seed}: {first.message}",
                                       f"`{again}`" if code else again])
    return rows


def replay(point, game: str) -> str:
    """The command that plays this combination's first flagged game again ("" when none)."""
    if not point.result.flagged:
        return ""
    return replay_command(point.result, game, point.result.flagged[0].seed, point.setting)


def settings_rows(result) -> list[list[str]]:
    plan, first = result.plan, result.points[0].result
    request = plan.loaded.request
    swept = [[f"rule {a.name}", ", ".join(a.values) + f" (workbook: {a.current}"
              + (f", {a.ref})" if a.ref else ")")] for a in plan.axes]
    base = ", ".join(f"{n}={v}" for n, v in plan.settings[plan.baseline])
    done = sum(p.result.finished for p in result.points)
    return [["setting", "value"]] + swept + [
        ["combinations", f"{len(plan.settings)} (the first rule varying slowest)"],
        ["games per combination", f"{request.games} (game i plays seed {request.seed} × 1000003 + i in every "
                                  "combination)"],
        ["master seed", str(request.seed)], ["players", str(first.players)],
        ["bots", ", ".join(f"{i + 1}: {b}" for i, b in enumerate(first.bots))],
        ["baseline", base + (": the workbook's values" if plan.workbook else
                             ": the first combination (the workbook's values are not swept)")],
        ["finished by the rules", f"{done} of {request.games * len(plan.settings)}"],
        ["combinations flagged", str(sum(not p.finishes for p in result.points))],
        ["step guard", f"{first.max_steps} engine steps per game"]]


def _shared(result) -> int:
    from pipeline.simulation.report import shared_games

    return shared_games(result)


# --- Markdown -----------------------------------------------------------------------------------------------------

def title(result) -> str:
    return f"{result.plan.loaded.module.title} — rule sweep: {', '.join(_axes(result))}"


def markdown(result) -> str:
    game = result.plan.loaded.request.game
    lines = [f"# {title(result)}", "", "## Settings", ""] + md_table(settings_rows(result))
    lines += ["## Win rates", "", RATE_NOTE, ""] + md_table(win_rows(result))
    figures = figure_rows(result)
    if figures:
        lines += ["## Key figures", "", "Means per game that ended by the rules (a figure \"per\" something: the "
                  "ratio of the two totals, its interval by the delta method).", ""] + md_table(figures)
    lines += ["## Scores and game length", "", "Rounds and turns: mean ± the half-width of its 95 % interval; "
              "shared wins: games whose win was shared.", ""] + md_table(length_rows(result))
    lines += ["## End reasons", ""] + md_table(reason_rows(result))
    lines += ["## Flagged combinations", ""]
    flagged = flag_rows(result, game)
    lines += (["Games that stopped at a safety cap, got stuck or raised an error are left out of the measures "
               "above; each command replays the first of them.", ""] + md_table(flagged) if len(flagged) > 1
              else ["None: every game of every combination ended by the rules.", ""])
    return "\n".join(lines)


# --- CSV ------------------------------------------------------------------------------------------------------------

def slug(text: str) -> str:
    """A column name: "Contract gold per game" -> "contract_gold_per_game"."""
    return re.sub(r"[^0-9a-z]+", "_", text.lower()).strip("_")


def _measure(row: dict, name: str, m: Measure) -> None:
    row.update({name: m.value, f"{name}_low": m.low, f"{name}_high": m.high})


def frame(result):
    """A pandas DataFrame, one row per combination in sweep order. Columns: combination (1, 2, …), the swept
    rule parameters by name, baseline; games, finished, flagged; each measure as <name>, <name>_low,
    <name>_high (completion, first_player_win_rate, seat_<k>_win_rate, rounds, turns, each key figure by its
    label), their changes from the baseline as <name>_change(_low, _high); score_mean, score_sd, rounds_sd,
    turns_sd, shared_wins; end_<reason> (games); replay (the first flagged game's command, or empty)."""
    import pandas as pd

    plan, game = result.plan, result.plan.loaded.request.game
    names = reasons(result)
    rows = []
    for n, p in enumerate(result.points, 1):
        row = {"combination": n, **dict(p.setting), "baseline": p.baseline, "games": p.result.games,
               "finished": p.result.finished, "flagged": len(p.result.flagged)}
        _measure(row, "completion", p.completion)
        _measure(row, "first_player_win_rate", p.first)
        _measure(row, "first_player_win_rate_change", p.first_change)
        for k, seat in enumerate(p.seats, 1):
            _measure(row, f"seat_{k}_win_rate", seat)
        for figure, m, c in zip(plan.figures, p.figures, p.figure_changes):
            _measure(row, slug(figure.label), m)
            _measure(row, f"{slug(figure.label)}_change", c)
        _measure(row, "rounds", p.rounds)
        _measure(row, "turns", p.turns)
        scores = p.result.scores
        row.update(score_mean=scores.mean if scores else None, score_sd=scores.sd if scores else None,
                   rounds_sd=p.result.rounds.sd if p.result.rounds else None,
                   turns_sd=p.result.turns.sd if p.result.turns else None)
        row["shared_wins"] = _shared(p.result)
        counts = dict(p.result.end_reasons)
        row.update({f"end_{slug(r)}": counts.get(r, 0) for r in names})
        row["replay"] = replay(p, game)
        rows.append(row)
    return pd.DataFrame(rows)


def write_csv(data, target: Path) -> None:
    from pipeline.core.output import atomic_write

    atomic_write(Path(target), data.to_csv(index=False, lineterminator="\n").encode())

