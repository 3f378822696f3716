"""NBA Deck-Building engine, the setup (§3.1, §4.2 Expert 1 and 2): starting teams (initiation sets or the
team selection), the Tactic market, the Player pile (random cards, the cost-window fix of AMB-06, sorted by cost;
or the opening draft), the first reveal, the opening hands and the first player.

A mixin of engine.State, written as generators like flow.py."""

from __future__ import annotations

from pipeline.games.nba.engine.kinds import CH_FIRST, CH_POOL, DRAFT, TEAM


class SetupRules:
    __slots__ = ()

    def _game(self):
        data, prm = self.data, self.prm
        for seat in range(2):
            parts = data.sets["AB"[seat]]
            if prm["variant_team_selection"]:
                yield from self._choose_team(seat)
                deck = self.team_deck[seat]
            else:
                init = [c for c in parts["starters"] + parts["substitutes"] + parts["tactics"]
                        if (data.player[c] or data.tactic[c]).initiation]
                for c in init:
                    if data.player[c] and data.player[c].kind == "starter":
                        self.court[seat][data.player[c].positions[0]] = c
                deck = [c for c in init if c not in self.court[seat]]
            for c in deck:
                self.rest[seat][c] = self.rest[seat].get(c, 0) + 1
            used = list(self.court[seat]) + deck
            for c in parts["starters"] + parts["substitutes"] + parts["tactics"]:
                self.box += [c] * (data.copies[c] - used.count(c))
            self.team_deck[seat] = []
        self.tactic_pile = {t: data.tactic[t].copies for t in data.market_tactics}
        for slot in range(len(self.market)):
            yield from self._refill(slot)
        if prm["variant_draft"]:
            yield from self._draft()
        else:
            yield from self._build_pile()
        yield from self._advance_track(0)
        self.last_reveal = len(self.pile)
        self.regulation_turns = self.last_reveal + prm["track_slots"] - 1
        for seat in range(2):
            for _ in range(prm["hand_size"]):
                yield from self._draw(seat)
        if prm["first_player"] == "random":
            self.first = yield from self._chance(CH_FIRST, [(0, 0.5), (1, 0.5)], {0: 0, 1: 1})
        else:
            self.first = 0
        self.first0 = self.first
        yield from self._match(1)

    def _choose_team(self, seat: int):
        """Expert 1: one Starter per position on court, then a deck of team_deck_size cards (§4.2)."""
        court = self.court[seat]
        while None in court:
            card = yield from self._decide(seat, TEAM)
            court[self.data.player[card].positions[0]] = card
        deck = self.team_deck[seat]
        while len(deck) < self.prm["team_deck_size"]:
            deck.append((yield from self._decide(seat, TEAM)))

    def _build_pile(self):
        """Draw pile_cards NBA cards, then the cost-window fix (AMB-06); the pile is then sorted (reveals are
        uniform within the cheapest group)."""
        data, prm = self.data, self.prm
        pool, chosen = list(data.nba), []
        for _ in range(data.pile_cards()):
            card = yield from self._pick(CH_POOL, pool)
            pool.remove(card)
            chosen.append(card)
        low, high = prm["cost_window_min"], prm["cost_window_max"]

        def inside(c):
            return low <= data.player[c].cost <= high
        missing = prm["cost_window_required"] - sum(map(inside, chosen))
        while missing > 0:
            adds, outs = [c for c in pool if inside(c)], [c for c in chosen if not inside(c)]
            if not adds or not outs:
                break
            add = yield from self._pick(CH_POOL, adds)
            out = yield from self._pick(CH_POOL, outs)
            pool.remove(add)
            chosen.remove(out)
            chosen.append(add)
            pool.append(out)
            self._count("cost_window_fixes")
            missing -= 1
        self.box += pool
        self.pile = self._sorted_pile(chosen)

    def _sorted_pile(self, cards) -> list:
        key = self.data.value if self.prm["market_sort_key"] == "value" else self.data.cost
        return sorted(cards, key=lambda c: (key[c], c))

    def _draft(self):
        """Expert 2: draft_rounds rounds of hands; each seat keeps cards for its mini-market, gives cards to the
        common pile and boxes the rest; the common pile is brought to pile_cards and is not sorted."""
        data, prm = self.data, self.prm
        pool, common = list(data.nba), []
        size = prm["draft_mini_market"] + prm["draft_common"] + prm["draft_box"]
        for _ in range(prm["draft_rounds"]):
            for seat in range(2):
                for _ in range(size):
                    card = yield from self._pick(CH_POOL, pool)
                    pool.remove(card)
                    self.draft_hand[seat].append(card)
            for seat in range(2):
                mini, give = yield from self._decide(seat, DRAFT)
                self.mini[seat] += mini
                common += give
                self.box += [c for c in self.draft_hand[seat] if c not in mini and c not in give]
                self.draft_hand[seat] = []
        need = data.pile_cards()
        while len(common) < need and pool:
            card = yield from self._pick(CH_POOL, pool)
            pool.remove(card)
            common.append(card)
        while len(common) > need:
            card = yield from self._pick(CH_POOL, sorted(common))
            common.remove(card)
            self.box.append(card)
        self.box += pool
        self.pile, self.pile_sorted = sorted(common), False
