"""NBA Deck-Building engine: the kinds of node a game waits at (DESIGN.md: phases are data, not nested ifs)."""

from __future__ import annotations

# decisions: a seat acts
TEAM, DRAFT, REFRESH, MAIN, SUB, PREP, REROLL, END = range(8)
# chance nodes: the driver samples chance_outcomes()
CH_FIRST, CH_POOL, CH_REVEAL, CH_TACTIC, CH_DRAW, CH_DIE = range(8, 14)
OVER = 14
KIND_NAMES = ("team", "draft", "refresh", "main", "substitution", "prepare", "reroll", "end_of_turn",
              "first_player", "pool", "reveal", "tactic", "draw", "die", "over")
COUNTER = -1            # a face-down counter card on the overtime track (not a card of the game)
