"""Challengers' players (challengers.md §3.7). A bot is made per seat; choose(state, rng) reads only what its
seat may know (its own hand and deck, the piles' levels, the round; never the others' trophy values in a 3–8
player game before the final, CH-A20: they are read through state.visible_trophies, and the drafter does not
need them) and draws randomness only from the rng it is given. In a match, a seat chooses the bench cards its
BENCH_TO_DISCARD effects send to the discard (phase discard); the match's other choices are the engine's.

- drafter: the option with the higher level; keeps the strongest cards, a From the bench card whose name it
  already owns counting as stronger (its bonus is multiplied on the bench), effects counted as strength too
  (this edition's addition to §3.7, or a whole set of cheap effect cards would never be kept: a sure fan when
  selected 1, an extra pick the level's mean strength, a fan on reveal or on losing the flag ½, a bench card
  sent to the discard ½, a card milled from the opponent's deck ½, a card going under its deck instead of the
  bench 1 (a slot kept free and the card still in play); what an OPP_STRENGTH takes from the other side counts
  as the card's own strength where it works, attacking or holding the flag); one of equally strong cards at
  random (the first of the sheet's order would favour the sets whose rows come first: the last set was almost
  never the one a player drafted most); redraws (whenever the rules let it: before or after its first
  pick) when the cards it would keep from its hand are worth ¼ a card less than the cards it expects to keep
  from a fresh hand of as many cards (the level's cards in the game's sets; with the shipped cards, whose effects are
  priced at their level's strength, that is a hand without a From the bench partner for a name it owns); from
  round 4 removes its starter cards of strength 1 or less, never going under 8 cards.
- drafter in a match: a BENCH_TO_DISCARD effect sends §3.7's card to the discard (the slot with the fewest
  copies, then the weakest card: the one that frees a slot soonest).
- random: a random legal action."""

from __future__ import annotations

from math import comb

DONE, REDRAW = ("done",), ("redraw",)
KEEP_AT_LEAST = 8           # the drafter never removes below this many cards
REMOVE_FROM_ROUND = 4
WEAK = 1                    # starter cards of this strength or less go
SAME_NAME_BONUS = 1.5       # a From the bench card whose name is already in the deck
REDRAW_MARGIN = 0.25        # per card kept: how much better a fresh hand must be expected to be to redraw
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


_VALUES: list = [None, ()]                  # (the GameData they were made for, each card's value alone)


def own_value(data, card: int) -> float:
    """A card's value to any seat: its strength where it works, its From the bench bonuses, its effects."""
    if _VALUES[0] is not data:
        _VALUES[:] = [data, tuple(max(c.attack - c.opp_attack, c.flag - c.opp_flag) + c.bench_attack +
                                  c.bench_defence + effect_value(data, c) for c in data.cards)]
    return _VALUES[1][card]                     # OPP_STRENGTH n is negative: a gain, hence attack − opp_attack


def owned_names(state, seat: int) -> set:
    cards = state.data.cards
    return {cards[owned].slot for owned in state.decks[seat]}


def card_value(state, seat: int, card: int, names: set) -> float:
    """own_value, and a From the bench card whose name the seat's deck already holds is worth more."""
    value, c = own_value(state.data, card), state.data.cards[card]
    if c.keyword == "from_bench" and c.slot in names:
        value += SAME_NAME_BONUS
    return value


_LEVELS: list = [None, {}]      # (the GameData, {(level, sets): its cards' values, (level, sets, k, p, …): best})


def level_values(state, level: str) -> tuple[dict, dict]:
    """The cards of a level in this game's sets: ({value: copies}, {From the bench name: [(value, copies)]})."""
    data = state.data
    if _LEVELS[0] is not data:
        _LEVELS[:] = [data, {}]
    key = (level, state.chosen)
    if key not in _LEVELS[1]:
        weights: dict[float, int] = {}
        bench: dict[int, list] = {}
        for card, n in data.piles(state.chosen)[level].items():
            value = own_value(data, card)
            weights[value] = weights.get(value, 0) + n
            if data.cards[card].keyword == "from_bench":
                bench.setdefault(data.cards[card].slot, []).append((value, n))
        _LEVELS[1][key] = (weights, bench)
    return _LEVELS[1][key]


def expected_top(state, seat: int, k: int, p: int, names: set) -> float:
    """The expected value to `seat` of the p best of k fresh cards of the level the hand is drawn from (its
    cards in this game's sets, copies as weights, drawn as if with replacement): what a redraw offers to keep."""
    weights, bench = level_values(state, state.draw_level)
    partners = tuple(slot for slot in bench if slot in names)
    key = (state.draw_level, state.chosen, k, p, partners)     # a few per game: worked out once
    if key in _LEVELS[1]:
        return _LEVELS[1][key]
    if partners:
        weights = dict(weights)
        for slot in partners:
            for value, n in bench[slot]:
                weights[value] -= n
                weights[value + SAME_NAME_BONUS] = weights.get(value + SAME_NAME_BONUS, 0) + n
    total, values = sum(weights.values()), sorted(weights)
    found = 0.0
    for j in range(1, min(p, k) + 1):           # the j-th best is at most v: at most j − 1 cards above v
        before, below = 0.0, 0
        for value in values:
            below += weights[value]
            f = below / total
            at_most = sum(comb(k, i) * (1 - f) ** i * f ** (k - i) for i in range(j))
            found += value * (at_most - before)
            before = at_most
    _LEVELS[1][key] = found
    return found


class DrafterBot:
    def __init__(self, seat: int):
        self.seat = seat

    def choose(self, state, rng):
        phase, me, data = state.phase, self.seat, state.data
        if phase == "option":
            options = data.schedule[state.round]
            return ("option", max(range(len(options)), key=lambda k: ("ABC".index(options[k][0]), -k)))
        if phase == "pick":
            names = owned_names(state, me)
            values = {card: card_value(state, me, card, names) for card in sorted(set(state.hand))}
            top = max(values.values())
            if state._may_redraw():
                keep = min(state.picks_left, len(state.hand))
                best = sorted((values[card] for card in state.hand), reverse=True)[:keep]
                if sum(best) < expected_top(state, me, len(state.hand), keep, names) - REDRAW_MARGIN * keep:
                    return REDRAW
            equals = [card for card, value in values.items() if value == top]
            best = equals[0] if len(equals) == 1 else rng.choice(equals)
            return ("pick", data.card_ids[best])
        if phase == "discard":                  # §3.7: the slot with the fewest copies, then the weakest card
            return ("discard", data.card_ids[state.match.policy_card(state.match.choice[0])])
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
