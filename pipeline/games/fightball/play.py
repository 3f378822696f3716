"""Records -> Fightball's engine: new_game (the game data built once per records, shared by a batch of games),
the nominal values `pnp simulate` shows next to the simulated ones, and the disputed readings it replays."""

from __future__ import annotations

from pipeline.games.base import Records, other_readings, per_records

SHEETS = ("teams", "players", "shots", "effects", "effect_ops")


def _game_data(records: Records):
    from pipeline.games.fightball.engine import GameData
    from pipeline.games.fightball.schema import RULE_PARAMETERS
    from pipeline.params import rules

    return GameData.from_rows(*([dict(rec.values) for rec in records[sheet]] for sheet in SHEETS),
                              dict(rules(records, RULE_PARAMETERS).values))


game_data = per_records(_game_data)       # build the cards once per batch, not per game


def new_game(records: Records, players: int):
    from pipeline.games.fightball import engine

    return engine.new_game(game_data(records), players)


def nominal(records: Records) -> dict[str, float]:
    """"plays:valid/plays:complete": the share of complete plays that would score with no defender and no
    effect, from the two decks (every attacker, ball and Shot card of a deck by copies, on every cell legal
    for it): shown next to the share the simulated games reach (defenders lower it, choices raise it)."""
    from pipeline.games.fightball.engine.data import BALL, PLAYER, SHOT, legal_attack_cell

    data = game_data(records)
    rules, shares = data.rules, []
    for seat, deck in enumerate(data.deck):
        cards = [(data.cards[card], n) for card, n in deck]
        players, balls, shots = ([(c, n) for c, n in cards if c.kind == kind] for kind in (PLAYER, BALL, SHOT))
        weight = valid = 0
        for cell in (cell for cell in data.cells if legal_attack_cell(cell, seat)):
            colour = cell.colour
            for attacker, a in players:
                for ball, b in balls:
                    base = attacker.attack[colour] + (rules.bonus if ball.ball == colour else 0)
                    for shot, s in shots:
                        weight += a * b * s
                        valid += a * b * s if base + shot.shot[colour] >= rules.threshold else 0
        if weight:
            shares.append(valid / weight)
    return {"plays:valid/plays:complete": round(sum(shares) / len(shares), 3)} if shares else {}


READINGS = other_readings(("new_attacker_same_name_compares", ("current", "first")), ("tie_rule", ("draw", "overtime")))
