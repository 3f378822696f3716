"""Challengers' players (challengers.md §3.7). A bot is made per seat; choose(state, rng) reads only what its
seat may know (its own hand and deck, the piles' levels, the round; never the trophy values of a 3–8 player game,
CH-A20: they are read through state.visible_trophies, and the drafter does not need them) and draws randomness
only from the rng it is given. Choices inside a match's effects are the engine's (engine/match.py, §3.7).

- drafter: the option with the higher level; keeps the strongest cards, a From the bench card whose name it
  already owns counting as stronger (its bonus is multiplied on the bench), effects counted as strength too
  (this edition's addition to §3.7, or a whole set of cheap effect cards would never be kept: a sure fan when
  selected 1, an extra pick the level's mean strength, a fan on reveal or on losing the flag ½, a bench card
  sent to the discard ½, a card milled from the opponent's deck ½, a card going under its deck instead of the
  bench 1 (a slot kept free and the card still in play); what an OPP_STRENGTH takes from the other side counts
  as the card's own strength where it works, attacking or holding the flag); one of equally strong cards at
  random (the first of the sheet's order would favour the sets whose rows come first: the last set was almost
  never the one a player drafted most); redraws when the best card of the hand is below the level's average
  strength; from round 4 removes its starter cards of strength 1 or less, never going under 8 cards.
- random: a random legal action."""

from __future__ import annotations

DONE, REDRAW = ("done",), ("redraw",)
KEEP_AT_LEAST = 8           # the drafter never removes below this many cards
REMOVE_FROM_ROUND = 4
WEAK = 1                    # starter cards of this strength or less go
SAME_NAME_BONUS = 1.5       # a From the bench card whose name is already in the deck
SURE_FAN, LIKELY_FAN, FREED_SLOT, MILLED, BACK_UNDER = 1.0, 0.5, 0.5, 0.5, 1.0


def effect_value(data, c) -> float:
    """What a card's non-strength effects are worth to the drafter, in strength points."""
    value = 0.0
    for op, n in c.on_select:
        value += n * SURE_FAN if op == "FANS" else n * data.level_mean.get(c.level, 0.0) if op == "EXTRA_PICK" else 0
    for op, n in c.on_reveal + c.on_losing:
        value += n * LIKELY_FAN if op == "FANS" else n * FREED_SLOT if op == "BENCH_TO_DISCARD" else \
            n * MILLED if op == "MILL_OPPONENT" else BACK_UNDER if op == "SELF_TO_DECK_BOTTOM" else 0
    return value


def card_value(state, seat: int, card: int) -> float:
    c = state.data.cards[card]
    strength = max(c.attack - c.opp_attack, c.flag - c.opp_flag)     # OPP_STRENGTH n is negative: a gain
    value = strength + c.bench_attack + c.bench_defence + effect_value(state.data, c)
    if c.keyword == "from_bench":
        names = {state.data.cards[owned].slot for owned in state.decks[seat]}
        if c.slot in names:
            value += SAME_NAME_BONUS
    return value


class DrafterBot:
    def __init__(self, seat: int):
        self.seat = seat

    def choose(self, state, rng):
        phase, me, data = state.phase, self.seat, state.data
        if phase == "option":
            options = data.schedule[state.round]
            return ("option", max(range(len(options)), key=lambda k: ("ABC".index(options[k][0]), -k)))
        if phase == "pick":
            values = {card: card_value(state, me, card) for card in sorted(set(state.hand))}
            top = max(values.values())
            if state._may_redraw() and top < data.level_mean[state.level]:
                return REDRAW
            equals = [card for card, value in values.items() if value == top]
            best = equals[0] if len(equals) == 1 else rng.choice(equals)
            return ("pick", data.card_ids[best])
        if state.round >= REMOVE_FROM_ROUND and state.deck_size[me] > max(KEEP_AT_LEAST, state.prm["min_deck_size"]):
            weak = sorted(card for card in state.decks[me]
                          if data.cards[card].level == "S" and data.cards[card].strength <= WEAK)
            if weak:
                return ("remove", data.card_ids[weak[0]])
        return DONE


class RandomBot:
    def __init__(self, seat: int):
        self.seat = seat

    def choose(self, state, rng):
        return rng.choice(state.legal_actions())


BOTS = {"drafter": DrafterBot, "random": RandomBot}
