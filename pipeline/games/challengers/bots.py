"""Challengers' players (challengers.md §3.7). A bot is made per seat; choose(state, rng) reads only what its
seat may know (its own hand and deck, the piles' levels, the round; never the trophy values of a 3–8 player game,
CH-A20: they are read through state.visible_trophies, and the drafter does not need them) and draws randomness
only from the rng it is given. Choices inside a match's effects are the engine's (engine/match.py, §3.7).

- drafter: the option with the higher level; keeps the strongest cards, a From the bench card whose name it
  already owns counting as stronger (its bonus is multiplied on the bench); redraws when the best card of the
  hand is below the level's average strength; from round 4 removes its starter cards of strength 1 or less,
  never going under 8 cards.
- random: a random legal action."""

from __future__ import annotations

DONE, REDRAW = ("done",), ("redraw",)
KEEP_AT_LEAST = 8           # the drafter never removes below this many cards
REMOVE_FROM_ROUND = 4
WEAK = 1                    # starter cards of this strength or less go
SAME_NAME_BONUS = 1.5       # a From the bench card whose name is already in the deck


def card_value(state, seat: int, card: int) -> float:
    c = state.data.cards[card]
    value = max(c.attack, c.flag) + c.bench_attack + c.bench_defence
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
            best = max(sorted(state.hand), key=lambda card: card_value(state, me, card))
            if state._may_redraw() and card_value(state, me, best) < data.level_mean[state.level]:
                return REDRAW
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
