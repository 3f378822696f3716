"""The `balance` sheet a game's workbook may hold: one balance gate per row (a metric and the band it must lie
in), typed like every other sheet. What the gates mean and how they are played is pipeline/play/gates.py."""

from __future__ import annotations

from pipeline.data.schema import Column, SheetSpec

SHEET = "balance"
SEAT, PRESENCE = "seat_win_rate:", "presence:"

BALANCE_SHEET = SheetSpec(
    name=SHEET, on_faces=False,
    doc="Balance gates: what the designer promises of the game, checked by `pnp validate --balance`.",
    columns=(
        Column("metric", doc="What is measured: first_player_advantage (the first player's win rate), "
                             "seat_win_rate:<seat>, completion (share of games ending by the rules, not at a cap), "
                             "drawishness (share of games without a single winner), duration (mean rounds), "
                             "duration_turns (mean turns), a key figure's counter (its mean per game), or "
                             "presence:<table> (the share of games in which the least counted card of that table "
                             "was counted: 'no card bought in under 2 % of games')."),
        Column("min", "float", required=False, doc="Lowest value the gate accepts; empty: no lower bound. A rate "
                                                   "(win rate, completion, presence) is between 0 and 1."),
        Column("max", "float", required=False, doc="Highest value the gate accepts; empty: no upper bound."),
        Column("players", "int", required=False, min=1, max=99,
               doc="Players in the games measured; empty: the game's usual number."),
        Column("note", required=False, max_length=200, doc="Why this band (free text, not printed)."),
    ),
)
