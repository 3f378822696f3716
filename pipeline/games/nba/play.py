"""NBA Deck-Building's engine plugged into the simulation driver (`pnp simulate nba`, validation stage 6)."""

from __future__ import annotations

from pipeline.games.base import Records, Simulation, other_readings, per_records
from pipeline.games.nba import engine
from pipeline.games.nba.bots import BOTS
from pipeline.games.kit import blame_rows

SHEETS = ("skills", "dice", "players", "tactics", "fatigue", "durations")
def _game_data(records: Records) -> engine.GameData:
    from pipeline.games.nba.components import parameters

    return engine.GameData.from_rows(*([dict(rec.values) for rec in records[sheet]] for sheet in SHEETS),
                                     parameters(records))


game_data = per_records(_game_data)       # build the tables once per batch, not per game


def new_game(records: Records, players: int):
    return engine.new_game(game_data(records), players)


def initiation_levels(data: engine.GameData) -> list:
    """Team levels of set A's initiation five (§7.3: GI 6, 3P 3, PE 3, RB 4 with the proposed cards)."""
    five = [c for c in data.sets["A"]["starters"] if data.player[c].initiation]
    return [sum(data.stats[c][i] for c in five) for i in range(8)]


def nominal(records: Records) -> dict[str, float]:
    """Per offensive tactic, "points:<id>/activated:<id>" = its expected kept total (§2.3) when the initiation
    five activates it: shown next to the points a simulated activation finally scored (after defence)."""
    data = game_data(records)
    levels = initiation_levels(data)
    return {f"points:{t.id}/activated:{t.id}": round(data.expected_attack(t, levels), 3)
            for t in sorted((t for t in data.tactic if t and t.offence), key=lambda t: t.id)}


# the points the rulebook leaves open or contradicts (see the rulebook's "Choix de cette édition")
READINGS = other_readings(("dice_cap_scope", ("per_skill", "per_tactic")), ("negative_score", ("clamp0", "allow_negative")),
                          ("fatigue_removed_to", ("box", "supply")), ("keep_mode", ("up_to", "exactly")),
                          ("end_rule", ("countdown6", "market_empty_literal")))

SIMULATION = Simulation(new_game=new_game, bots=BOTS, players=(2, 2), default_players=2, nominal=nominal,
                        blame=blame_rows, readings=READINGS)
