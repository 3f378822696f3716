"""What the data promises before any game is played (pure): the nominal values `pnp simulate` shows next
to the simulated ones."""

from __future__ import annotations

from pipeline.games.fightball.engine.data import BALL, PLAYER, SHOT, legal_attack_cell


def unopposed_valid_share(data) -> float | None:
    """The share of complete plays that would score with no defender and no effect, from the two decks (every
    attacker, ball and Shot card of a deck by copies, on every cell legal for it), averaged over the decks;
    None for decks without a play."""
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
    return sum(shares) / len(shares) if shares else None
