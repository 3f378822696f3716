"""The games of a simulation as a table (pandas): one row per game (seed, each seat's side, bot, score and
result, winner, end reason, counters), written as games.csv for a designer's notebook, and the grouped
statistics read from it: each side's results against each other side, seatings pooled (the matchup matrix).

pandas is imported here only, and this module only by `pnp simulate`: build and validate never load it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Mapping, Sequence

from pipeline.play.stats import MatchupCell, SimulationResult, end_label, natural_key, flag_of

Run = tuple[Mapping[str, str], SimulationResult]     # (side parameter -> side id, the games played so)


def seat_names(sides: Mapping[str, str], players: int) -> list[str]:
    """Who sits at each seat: its side id when the game has sides, else "seat k"."""
    named = list(sides.values())
    return [named[i] if i < len(named) else f"seat {i + 1}" for i in range(players)]


def winner(outcome: dict, names: Sequence[str]) -> str:
    """The winning seat's name, "draw" when every seat shares the win, "shared: a+b" otherwise; "" for a
    game that did not end by the rules."""
    returns = outcome.get("returns")
    if flag_of(outcome) or not returns:
        return ""
    best = max(returns)
    won = [names[i] for i, r in enumerate(returns) if r == best and r > 0]
    if len(won) == 1:
        return won[0]
    return "draw" if len(won) == len(returns) else "shared: " + "+".join(won)


def games_frame(runs: Sequence[Run]):
    """A pandas DataFrame, one row per game of every run, in run then game order. Columns: run, game (its
    index in the run), seed; the side parameters (team_north, …); per seat k: bot_k, score_k, result_k (1 a
    win, 1/k a shared one); winner, end_reason, flag ("" when the game ended by the rules), rounds, turns,
    steps; then every counter (0 where a finished game did not count it)."""
    import pandas as pd

    rows, counters = [], set()
    for number, (sides, result) in enumerate(runs):
        names = seat_names(sides, result.players)
        for outcome in result.outcomes:
            row = {"run": number, "game": outcome.get("index", 0), "seed": outcome["seed"], **sides}
            scores, returns = outcome.get("scores") or [], outcome.get("returns") or []
            for k in range(result.players):
                row[f"bot_{k + 1}"] = result.bots[k]
                row[f"score_{k + 1}"] = scores[k] if k < len(scores) else None
                row[f"result_{k + 1}"] = returns[k] if k < len(returns) else None
            row.update(winner=winner(outcome, names), end_reason=end_label(outcome), flag=flag_of(outcome) or "",
                       rounds=outcome.get("rounds"), turns=outcome.get("turns"), steps=outcome.get("steps"))
            found = outcome.get("counters") or {}
            counters.update(found)
            rows.append((row, found))
    names = sorted(counters, key=natural_key)
    frame = pd.DataFrame([{**row, **{n: found.get(n, 0) for n in names}} for row, found in rows])
    return frame


def write_csv(frame, target: Path) -> None:
    from pipeline.core.output import atomic_write

    atomic_write(Path(target), frame.to_csv(index=False, lineterminator="\n").encode())


def _long(frame, sides: Sequence[str]):
    """One row per (game, seat): side, opponent (each other seat's side), result, score, opponent's score;
    games that ended by the rules only."""
    import pandas as pd

    done = frame[frame["flag"] == ""]
    parts = []
    for k, side in enumerate(sides):
        for j, other in enumerate(sides):
            if j != k:
                parts.append(pd.DataFrame({"side": done[side], "opponent": done[other],
                                           "result": done[f"result_{k + 1}"], "score": done[f"score_{k + 1}"],
                                           "against": done[f"score_{j + 1}"]}))
    return pd.concat(parts, ignore_index=True)


def matchup_matrix(frame, sides: Sequence[str], order: Sequence[str]
                   ) -> tuple[dict[tuple[str, str], MatchupCell], dict[str, MatchupCell]]:
    """Each side's results against each other side (seatings pooled: the side at any seat), and against all
    of them; a side against itself (a mirror match) is left out. `order`: the side ids, as the game lists
    them. Returns ({(side, opponent): cell}, {side: cell against everyone})."""
    long = _long(frame, sides)
    long = long[long["side"] != long["opponent"]]
    grouped = long.groupby(["side", "opponent"]).agg(games=("result", "size"), wins=("result", "sum"),
                                                     score=("score", "mean"), against=("against", "mean"))
    overall = long.groupby("side").agg(games=("result", "size"), wins=("result", "sum"),
                                       score=("score", "mean"), against=("against", "mean"))
    cells = {(side, opp): _cell(side, opp, grouped.loc[(side, opp)]) for side in order for opp in order
             if (side, opp) in grouped.index}
    return cells, {side: _cell(side, None, overall.loc[side]) for side in order if side in overall.index}


def _cell(side: str, opponent: str | None, row) -> MatchupCell:
    def mean(value):
        return None if value != value else float(value)        # NaN: no scores

    return MatchupCell.of(side, opponent, int(row["games"]), float(row["wins"]), mean(row["score"]),
                          mean(row["against"]))


def rate_pivot(cells: Mapping[tuple[str, str], MatchupCell], order: Sequence[str]):
    """The matrix as a DataFrame: rows the side, columns the opponent, values the win rate (NaN: not played)."""
    import pandas as pd

    frame = pd.DataFrame([{"side": c.side, "opponent": c.opponent, "rate": c.rate} for c in cells.values()],
                         columns=["side", "opponent", "rate"])
    return frame.pivot(index="side", columns="opponent", values="rate").reindex(index=order, columns=order)
