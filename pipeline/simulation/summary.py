"""The shorter tables `pnp simulate` shows on a terminal, as text rows (header first) and titles; the CLI
draws them. One replayed game seat by seat; each ratio table cut to fit: a grouped table's pooled group, a long
table's first and last rows. report.md and the CSVs (pipeline/simulation/report.py, run.py) hold every row."""

from __future__ import annotations

from pipeline.play.stats import SimulationResult, what_happened
from pipeline.simulation.report import num


def replay_rows(result: SimulationResult, seats: tuple[str, ...], players: int) -> list[list[str]]:
    """The one replayed game: each seat's bot, score and result (nothing decided if it did not finish)."""
    outcome = result.outcomes[0]
    scores = outcome.get("scores") or [None] * players
    returns = outcome.get("returns") if result.ok else None
    return [["seat", "bot", "score", "result"]] + [
        [str(i + 1), seats[i], num(scores[i]), "not finished" if returns is None else
         {1.0: "win", 0.0: "—"}.get(returns[i], f"shared win ({returns[i]:.2f})")] for i in range(players)]


def replay_lines(result: SimulationResult) -> list[str]:
    """What happened in the replayed game, its length, then its counters (when it counted any)."""
    outcome = result.outcomes[0]
    lines = [f"{what_happened(outcome)}; rounds {outcome.get('rounds')}, turns {outcome.get('turns')}, "
             f"{outcome['steps']} steps"]
    counters = outcome.get("counters") or {}
    if counters:
        lines.append("counters: " + ", ".join(f"{k} {num(v)}" for k, v in sorted(counters.items())))
    return lines


def ratio_tables(tables, result: SimulationResult, most: int = 12) -> list[tuple[list[list[str]], str]]:
    """The game's ratio tables the games counted, each as (rows, title): single rates whole, a grouped table's
    pooled group, a long table's first and last `most // 2` rows (report.md and the table's CSV hold every
    row); rows with no rate to sort by are left out and counted in the title."""
    from pipeline.play import ratios

    shown = []
    for found in ratios.computed(tables, result):
        title = found.table.title
        counted = not found.keyed or len(found.table.ratios) == 1           # a narrow terminal: rate (CI) per cell
        if found.grouped and (ratios.POOLED in found.groups or len(found.groups) == 1):
            pooled = ratios.POOLED in found.groups
            rows = ratios.rows(found, ratios.POOLED if pooled else found.groups[0], counted, compact=True,
                               counted_head="counted")
            title += " (every group pooled; report.md has each)" if pooled else f" ({found.groups[0]})"
        else:
            rows = ratios.rows(found, counted=counted, compact=found.keyed, counted_head="counted")
        unmeasured = 0
        if found.table.sort is not None and not found.grouped:      # rows with no rate to sort by sit at the end
            unmeasured = sum(row.rates[found.table.sort].rate is None for row in found.rows)
            rows = rows[:len(rows) - unmeasured]
        if len(rows) > most + 1:
            half = most // 2
            title = f"{title}: the first and last {half} of {len(rows) - 1} (every row in {found.table.id}.csv)"
            rows = rows[:half + 1] + [["…"] + [""] * (len(rows[0]) - 1)] + rows[-half:]
        if unmeasured:
            label = found.table.ratios[found.table.sort].label or "its rate"
            title += f"; {unmeasured} more without a {label}"
        shown.append((rows, title))
    return shown
