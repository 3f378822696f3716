"""The Deck phase (challengers.md §2.2, CH-A3, CH-A5, CH-A15), seat by seat: a choice of option when the round
offers more than one, a hidden hand drawn card by card from the level pile (chance), picks and at most
`redraws_per_round` redraws, When selected effects at once (FANS, EXTRA_PICK, REMOVE_FROM_DECK), then removals
from the deck down to min_deck_size. Unpicked and redrawn-away cards wait aside and go back to their level pile
at the end of the phase; a level pile that runs out takes them back first, then hands over to the next level
(`short_pile`). Finalists only remove (§2.7).

Actions: ("option", k) k = 0, 1 … in schedule order; ("pick", card id); ("redraw",); ("remove", card id);
("done",) ends the removals (a REMOVE_FROM_DECK's too)."""

from __future__ import annotations

from pipeline.games.challengers.engine.data import DRAFT_LEVELS

OPTION, HAND, PICK, REMOVE = "option", "hand", "pick", "remove"
DONE, REDRAW = ("done",), ("redraw",)


class DraftRules:
    __slots__ = ()

    # --- sequencing ---------------------------------------------------------------------------------------

    def _start_deck_phase(self, drafters: list[int]) -> None:
        self.drafters, self.drafter_i, self.out = drafters, 0, []
        self._next_drafter()

    def _next_drafter(self) -> None:
        if self.drafter_i >= len(self.drafters):
            for level, card in self.out:
                pile = self.piles[level]
                pile[card] = pile.get(card, 0) + 1
                self.pile_size[level] += 1
            self.out = []
            self._deck_phase_over()
            return
        self.seat = self.drafters[self.drafter_i]
        self.hand, self.picks_left, self.redraws_left = [], 0, self.prm["redraws_per_round"]
        self.picked_this_round = 0
        if self.final:
            self._removals(None, None)
            return
        options = self.data.schedule[self.round]
        if len(options) == 1:
            self._take_option(0)
        else:
            self.phase = OPTION

    def _take_option(self, k: int) -> None:
        self.level, self.to_draw, self.picks_left = self.data.schedule[self.round][k]
        self.draw_level = self.level
        self._draw_hand()

    def _draw_hand(self) -> None:
        if self.to_draw and self._level_exhausted():
            self._count("short_hands")
            self._count("empty_hands")
            self.to_draw = 0
        if self.to_draw:
            self.phase = HAND
        else:
            self._picks_done()

    def _level_exhausted(self) -> bool:
        """The pile the hand is drawn from is empty. `short_pile` refill (hands of 5, seed l.19): the cards of
        that level set aside in this Deck phase (unpicked, redrawn away) become its pile again, and a level with
        none left hands over to the next level's pile (A, then B, then C); deal_what_is_left: the hand stays
        short. Drafted cards never come back."""
        while not self.pile_size[self.draw_level]:
            if self.prm["short_pile"] != "refill":
                return True
            level, pile, kept = self.draw_level, self.piles[self.draw_level], []
            for entry in self.out:
                if entry[0] == level:
                    pile[entry[1]] = pile.get(entry[1], 0) + 1
                    self.pile_size[level] += 1
                else:
                    kept.append(entry)
            self.out = kept
            if self.pile_size[level]:
                self._count("piles_reshuffled")
            elif level == DRAFT_LEVELS[-1]:
                return True
            else:
                self.draw_level = DRAFT_LEVELS[DRAFT_LEVELS.index(level) + 1]
                self._count("next_level_draws")
        return False

    def _drew(self, card: int) -> None:
        pile = self.piles[self.draw_level]
        n = pile.get(card, 0) if type(card) is int else 0
        if not n:
            raise ValueError(f"{card!r} is not in the level {self.draw_level} pile")
        if n == 1:
            del pile[card]
        else:
            pile[card] = n - 1
        self.pile_size[self.draw_level] -= 1
        self.hand.append(card)
        self._count(self.data.offered[card])
        self.to_draw -= 1
        if self.to_draw and not self.pile_size[self.draw_level] and self._level_exhausted():
            self._count("short_hands")
            self.to_draw = 0
        if not self.to_draw:
            self.phase = PICK

    def _picks_done(self) -> None:
        cards = self.data.cards
        self.out += [(cards[card].level, card) for card in self.hand]
        self.hand = []
        self._removals(None, None)

    def _removals(self, limit, then) -> None:
        self.remove_limit, self.remove_then, self.phase = limit, then, REMOVE

    # --- handlers -----------------------------------------------------------------------------------------

    def _option(self, seat: int, action: tuple) -> None:
        k = action[1] if len(action) == 2 else None
        if type(k) is not int or not 0 <= k < len(self.data.schedule[self.round]):
            last = len(self.data.schedule[self.round]) - 1
            raise ValueError(f"{action!r}: round {self.round} offers options 0..{last}")
        self._take_option(k)

    def _pick(self, seat: int, action: tuple) -> None:
        card = self.data.index.get(action[1]) if len(action) == 2 and type(action[1]) is str else None
        if card is None or card not in self.hand:
            raise ValueError(f"{action!r}: not a card of the hand")
        self.hand.remove(card)
        deck = self.decks[seat]
        deck[card] = deck.get(card, 0) + 1
        self.deck_size[seat] += 1
        self.picks[seat].append(card)
        self.picks_left -= 1
        self.picked_this_round += 1
        self._count(self.data.picked[card])
        c = self.data.cards[card]
        for op, n in c.on_select:
            if op == "FANS":
                self.tokens[seat] += n
            elif op == "EXTRA_PICK":
                self.picks_left += n
        removing = sum(n for op, n in c.on_select if op == "REMOVE_FROM_DECK")
        if removing > 0:
            self._removals(removing, PICK)
        elif self.picks_left <= 0 or not self.hand:
            self._picks_done()

    def _redraw(self, seat: int, action: tuple) -> None:
        if len(action) != 1 or not self._may_redraw():
            raise ValueError(f"{action!r}: no redraw left (or not before the first pick)")
        self.redraws_left -= 1
        self.to_draw, cards = len(self.hand), self.data.cards
        self.out += [(cards[card].level, card) for card in self.hand]
        self.hand = []
        self._count("redraws")
        self._draw_hand()

    def _remove(self, seat: int, action: tuple) -> None:
        card = self.data.index.get(action[1]) if len(action) == 2 and type(action[1]) is str else None
        deck = self.decks[seat]
        if card is None or not deck.get(card) or not self._may_remove():
            raise ValueError(f"{action!r}: not a card of the deck, or the deck is at its smallest")
        if deck[card] == 1:
            del deck[card]
        else:
            deck[card] -= 1
        self.deck_size[seat] -= 1
        self._count("removed")
        if self.remove_limit is not None:
            self.remove_limit -= 1
            if self.remove_limit <= 0:
                self._done(seat, DONE)

    def _done(self, seat: int, action: tuple) -> None:
        if len(action) != 1:
            raise ValueError(f"{action!r} takes no argument")
        if self.remove_then == PICK:
            self.remove_then = None
            if self.picks_left > 0 and self.hand:
                self.phase = PICK
            else:
                self._picks_done()
            return
        self.drafter_i += 1
        self._next_drafter()

    # --- legal actions ------------------------------------------------------------------------------------

    def _may_redraw(self) -> bool:
        return self.redraws_left > 0 and bool(self.hand) and self.pile_size[self.draw_level] > 0 and \
            (self.picked_this_round > 0 or self.prm["redraw_window"] == "any_time")

    def _may_remove(self) -> bool:
        return self.deck_size[self.seat] > self.prm["min_deck_size"]

    def _legal_option(self, seat: int) -> list:
        return [("option", k) for k in range(len(self.data.schedule[self.round]))]

    def _legal_pick(self, seat: int) -> list:
        ids = self.data.card_ids
        found = sorted({("pick", ids[card]) for card in self.hand})
        return found + [REDRAW] if self._may_redraw() else found

    def _legal_remove(self, seat: int) -> list:
        if not self._may_remove():
            return [DONE]
        ids = self.data.card_ids
        return [DONE] + sorted(("remove", ids[card]) for card in self.decks[seat])
