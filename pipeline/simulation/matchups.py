"""`pnp simulate GAME --matchups`: every ordered pair of a game's sides played on the same seeds, and its
report: the matchup matrix (each side's win rate against each other side, both seatings pooled, with 95 %
Wilson intervals), each side against all, the seat advantage and the engine's frequency tables over every
game, and the games as a CSV (pipeline/simulation/table.py reads them with pandas)."""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipeline.play.stats import MatchupCell, SimulationResult
from pipeline.simulation import report as text_of


@dataclass(frozen=True)
class Matchups:
    parameters: tuple[str, ...]                 # the sides' rule parameters, in seat order
    sides: tuple[str, ...]                      # every side id, in the game's order
    runs: tuple[tuple[tuple[str, ...], SimulationResult], ...]     # (side of each seat, its games)
    pooled: SimulationResult                    # every game of every run: seat advantage, counters
    cells: dict[tuple[str, str], MatchupCell]   # (side, opponent) -> pooled over seatings
    overall: dict[str, MatchupCell]             # side -> against every other side
    frame: Any = None                           # the games as a pandas DataFrame (games.csv)

    @property
    def games(self) -> int:
        return self.runs[0][1].games if self.runs else 0


def matrix_rows(m: Matchups, between: str = " ") -> list[list[str]]:
    """Rows: each side; columns: its win rate against each opponent, then against all, each with its 95 %
    interval in brackets after `between` (a new line in a narrow terminal)."""
    def shown(cell: MatchupCell | None) -> str:
        interval = f"{cell.low:.2f}–{cell.high:.2f}" if cell else ""
        return "—" if cell is None else f"{cell.rate:.3f}{between}" + (
            interval if between == "\n" else f"({interval})")

    return [["side" if between == "\n" else "side \\ opponent"] + list(m.sides) + ["all"]] + [
        [side] + [shown(m.cells.get((side, opponent))) for opponent in m.sides] + [shown(m.overall.get(side))]
        for side in m.sides]


def side_rows(m: Matchups) -> list[list[str]]:
    return [["side", "games", "wins", "win rate", "95 % CI", "mean score", "mean score against"]] + [
        [c.side, str(c.games), text_of.num(c.wins), f"{c.rate:.3f}", f"{c.low:.3f}–{c.high:.3f}",
         text_of.num(c.score_for), text_of.num(c.score_against)] for c in (m.overall[s] for s in m.sides
                                                                            if s in m.overall)]


def pairing_rows(m: Matchups) -> list[list[str]]:
    """Each seating on its own: the seat advantage inside every pairing."""
    head = [f"seat {k + 1} ({p})" for k, p in enumerate(m.parameters)]
    rows = [head + [f"seat {k + 1} win rate" for k in range(len(m.parameters))] + ["shared", "finished", "flagged"]]
    for ids, result in m.runs:
        rows.append(list(ids) + [f"{s.rate:.3f}" for s in result.seats]
                    + [str(text_of.shared_games(result)), str(result.finished), str(len(result.flagged))])
    return rows


def flagged_rows(m: Matchups, game: str, rules=()) -> list[list[str]]:
    """Flagged games with the command replaying each (`rules`: the run's other --rule overrides)."""
    rows = [["sides", "seed", "what happened", "replay"]]
    for ids, result in m.runs:
        for f in result.flagged:
            command = f"{text_of.replay_command(result, game, f.seed, rules)} --teams {','.join(ids)}"
            rows.append([" vs ".join(ids), str(f.seed), f.message, f"`{command}`"])
    return rows


def settings_rows(m: Matchups) -> list[list[str]]:
    first = m.pooled
    return [["setting", "value"], ["pairings", f"{len(m.runs)} (every ordered pair of {', '.join(m.sides)})"],
            ["games per pairing", f"{m.games} (game i plays seed {first.seed} × 1000003 + i in every pairing)"],
            ["master seed", str(first.seed)],
            ["bots", ", ".join(f"{i + 1}: {b}" for i, b in enumerate(first.bots))],
            ["finished by the rules", f"{first.finished} of {first.games}"],
            ["flagged (cap, stuck, error)", str(len(first.flagged))]]


def markdown(m: Matchups, title: str, game: str, paired=(), rules=()) -> str:
    table = text_of.md_table
    lines = [f"# {title} — matchups", "", "## Settings", ""] + table(settings_rows(m))
    lines += ["## Matchup matrix", "", "The win rate of the side of the row against the side of the column, both "
              "seatings pooled (a draw counts half a win), with its 95 % Wilson interval; \"all\" pools every "
              "game of the side.", ""] + table(matrix_rows(m))
    lines += ["## Each side against all", ""] + table(side_rows(m))
    lines += ["## Each seating", "", "The same pairing with the seats swapped: how much its seat is worth "
              "to each side.", ""] + table(pairing_rows(m))
    if m.pooled.finished:
        lines += ["## Win rate by seat, every pairing", ""] + table(text_of.seat_rows(m.pooled))
        lines += ["## Scores and game length, every pairing", ""] + table(text_of.spread_rows(m.pooled))
    lines += ["## End reasons", ""] + table(text_of.reason_rows(m.pooled))
    lines += ["## What the games counted", "", "Per game of every pairing (a side plays in "
              f"{2 / len(m.sides):.0%} of them); a share does not depend on that.", ""]
    lines += text_of.frequency_lines(m.pooled, paired)
    lines += ["## Flagged games", ""]
    lines += table(flagged_rows(m, game, rules)) if m.pooled.flagged else ["None: every game ended by the rules.", ""]
    return "\n".join(lines)


def matrix_panel(m: Matchups, fonts, charts):
    """The matrix as a full-width heat map (each cell prints its rate, interval and games)."""
    from pipeline.render.charts import pages as layout

    from pipeline.simulation.table import rate_pivot

    order = list(m.sides)
    pivot = rate_pivot(m.cells, order)                  # NaN where a side did not meet the other (itself)
    values = [[None if v != v else float(v) for v in row] for row in pivot.to_numpy().tolist()]
    cells = [[([f"{c.rate:.2f}", f"{c.low:.2f}–{c.high:.2f}", f"{c.games} games"] if c else None)
              for c in (m.cells.get((a, b)) for b in order)] for a in order]
    height = 40 + 30 * (len(order) + 1)
    return layout.Panel(height, lambda c, box: charts.heat_map(
        c, box, order, order, cells, values, "Matchup matrix: win rate of the row's side against the column's "
        "(seatings pooled, draws half, 95 % Wilson interval)", fonts, corner="side \\ opponent",
        note="Blue: under 0.5, orange: over 0.5; every cell prints its rate."), True)


def write(m: Matchups, folder: Path, title: str, game: str, fonts, paired=(), rules=()) -> list[Path]:
    """folder/report.md, report.pdf and games.csv; returns their paths."""
    from pipeline.core.output import atomic_write
    from pipeline.render.charts import draw as charts, pages as layout
    from pipeline.simulation.pdf import write_pdf
    from pipeline.simulation.table import write_csv

    atomic_write(folder / "report.md", markdown(m, title, game, paired, rules).encode())
    P = layout.Panel
    rows = side_rows(m)
    first = [matrix_panel(m, fonts, charts),
             P(layout.table_height(len(rows), title="t"), lambda c, box: layout.titled_table(
                 c, box, rows, fonts, (1.6, 1, 1, 1, 1.5, 1.2, 1.6), "Each side against all"), True)]
    pairs = pairing_rows(m)
    first.append(P(layout.table_height(len(pairs), title="t"), lambda c, box: layout.titled_table(
        c, box, pairs, fonts, (1.6,) * len(m.parameters) + (1.1,) * len(m.parameters) + (0.8, 0.9, 0.8),
        "Each seating", aligns="l" * len(m.parameters)), True))
    buffer = io.BytesIO()
    what = (f"{len(m.runs)} pairings × {m.games} games, the same seeds in each: master seed {m.pooled.seed} "
            f"(game i plays seed {m.pooled.seed} × 1000003 + i)")
    write_pdf(m.pooled, buffer, f"{title}: matchups", fonts, paired=paired, panels=first, subtitle=what)
    atomic_write(folder / "report.pdf", buffer.getvalue())
    write_csv(m.frame, folder / "games.csv")
    return [folder / "report.md", folder / "report.pdf", folder / "games.csv"]
