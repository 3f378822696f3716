"""NBA Deck-Building engine, the course of a game (§3.4, §3.7): the match, normal turns (phases A and B; C
and D are in turn.py), the special last turn and overtime, the Player track, the Tactic market and the
draw piles. Written as generators that read like the rulebook's pseudo-code (§3.8); the setup is in
start.py.

A mixin of engine.State. Each generator yields when the game waits: for a chance outcome (`_chance`: the
node's outcomes are stored for chance_outcomes()) or for a seat's decision (`_decide`). State.apply_action
checks the action first, then sends it in (already converted to engine integers), so a refused action never
reaches this code. A chance node with a single possible outcome is not asked: it simply happens, and neither
is a decision whose only legal action is to end the step (an empty hand at the end of turn, nothing left to
substitute or prepare, an empty market to refresh).
"""

from __future__ import annotations

from pipeline.games.nba.engine.data import CHANCE, GI
from pipeline.games.nba.engine.kinds import CH_DRAW, CH_REVEAL, CH_TACTIC, COUNTER, REFRESH
from pipeline.games.nba.engine.rules import push_track, shift_track


class FlowRules:
    __slots__ = ()

    # --- waiting --------------------------------------------------------------------------------------------

    def _chance(self, kind: int, outcomes: list, accept: dict, pool=None):
        """Wait for one of `outcomes`; accept[outcome] is sent back. With a pool (the cards that may come),
        accept may be the data's whole card index: the outcome must then be in the pool too."""
        if len(outcomes) == 1:
            return accept[outcomes[0][0]]
        self.phase, self.actor, self.outcomes, self.accept, self.pool = kind, CHANCE, outcomes, accept, pool
        return (yield)

    def _decide(self, seat: int, kind: int):
        self.phase, self.actor = kind, seat
        return (yield)

    def _pick(self, kind: int, cards: list):
        """A card chosen uniformly among `cards` (distinct integers) by chance."""
        names, p = self.data.names, 1 / len(cards)
        return (yield from self._chance(kind, [(names[c], p) for c in cards], self.data.index, cards))

    def _count(self, name: str, k: int = 1) -> None:
        self.counters[name] = self.counters.get(name, 0) + k

    # --- the match (§3.7) ------------------------------------------------------------------------------------

    def _match(self, turn: int):
        """Normal turns until the end of regulation, the special last turn, then overtimes while tied."""
        yield from self._regulation(turn)
        yield from self._result()

    def _result(self):
        while self.scores[0] == self.scores[1]:
            if not self.prm["overtime_enabled"] or self.overtime >= self.prm["overtime_max"]:
                self.end_reason = "draw"
                return
            yield from self._overtime()
        self.end_reason = "overtime" if self.overtime else "regulation"

    def _regulation(self, turn: int):
        literal = self.prm["end_rule"] == "market_empty_literal"
        while True:
            seat = self.first if turn % 2 else 1 - self.first
            yield from self._turn(seat, turn)
            self._count("normal_turns")
            if (not self.pile and not any(c is not None for c in self.track)) if literal \
                    else turn >= self.regulation_turns:
                break
            turn += 1
        if turn % 2:                # the first player took the last normal turn: the second evens it
            turn += 1
            yield from self._turn(1 - self.first, turn)
            self._count("normal_turns")
        self._clear_track()
        yield from self._special(self.first)

    def _overtime(self):
        """Six counters on the track, the other player first, no buying, then a special last turn (§3.7)."""
        self.overtime += 1
        self._count("overtime")
        self.first = 1 - self.first
        self.period = "overtime"
        self.track = [COUNTER] * len(self.track)
        yield from self._overtime_turns(1)

    def _overtime_turns(self, turn: int):
        turns = self.prm["overtime_turns"] + self.prm["overtime_turns"] % 2    # both play as many turns
        for turn in range(turn, turns + 1):
            yield from self._turn(self.first if turn % 2 else 1 - self.first, turn)
        self._clear_track()
        yield from self._special(self.first)

    def _from_special(self):
        """A position at the special last turn (scenarios)."""
        yield from self._special(self.first)
        yield from self._result()

    def _from_overtime(self, turn: int):
        """A position in an overtime already begun (scenarios)."""
        self.counters["overtime"] = self.overtime
        yield from self._overtime_turns(turn)
        yield from self._result()

    def _clear_track(self) -> None:
        for i, card in enumerate(self.track):
            if card is not None and card != COUNTER:
                self.player_discard.append(card)
            self.track[i] = None

    def _money_window(self, turn: int) -> bool:
        """Money-time (AMB-04): the last money_time_turns normal turns under the countdown rule, every turn
        from the last reveal on under the literal rule. Never in overtime."""
        if self.period != "regulation":
            return False
        if self.prm["end_rule"] == "market_empty_literal":
            return turn >= self.last_reveal
        return turn > self.regulation_turns - self.prm["money_time_turns"]

    # --- a turn (§3.4) ---------------------------------------------------------------------------------------

    def _start(self, seat: int, special: bool, window: bool) -> None:
        self.turns += 1
        self.seat_turns[seat] += 1
        self.mover, self.window = seat, window
        self.money = window and self.prm["variant_money_time"]
        self.used, self.activating, self.special = set(), False, special
        self.no_buy = special or self.period != "regulation"
        self.bought_slot = None

    def _turn(self, seat: int, turn: int):
        self.turn = turn
        self._start(seat, False, False)
        self._score(seat)                                           # A. scoring
        yield from self._advance_track(turn)                        # B. adjustment
        self.window = self._money_window(turn)
        self.money = self.window and self.prm["variant_money_time"]
        if self.money:
            self._count("money_time_turns")
            if self.money_from is None:
                self.money_from = turn
        slots = (yield from self._decide(seat, REFRESH)) if any(c is not None for c in self.market) else ()
        if slots:
            for s in slots:
                self.tactic_discard.append(self.market[s])
                self.market[s] = None
            for s, card in enumerate(self.market):
                if card is None:
                    yield from self._refill(s)
        yield from self._actions(seat)                              # C. actions
        yield from self._end_of_turn(seat)                          # D. end of turn

    def _special(self, seat: int):
        """Score, prepare defences, activate one; then the other player's last attack is scored (AMB-30)."""
        self._start(seat, True, self.period == "regulation")     # after the last normal turn: in the window
        self.special_by.append(seat)
        self._score(seat)
        yield from self._actions(seat)
        self.special = False
        self._score(1 - seat)

    def _score(self, seat: int) -> None:
        """§3.4 A: own offence dice − the opponent's defence dice of a colour in the attack."""
        other, face = 1 - seat, self.data.face
        off = self.off_zone[seat]
        if off:
            colours = {face[label][2] for label in off}
            attack = sum(face[label][1] for label in off)
            defence = sum(face[label][1] for label in self.def_zone[other] if face[label][2] in colours)
            points = attack - defence
            if points < 0 and self.prm["negative_score"] == "clamp0":
                points = 0
            self.scores[seat] += points
            self._count("points:" + self.off_tactic[seat], points)
            if self.def_tactic[other] is not None:
                self._count("prevented:" + self.def_tactic[other], attack - points)
        self.off_zone[seat], self.off_tactic[seat] = [], None
        self.def_zone[other], self.def_tactic[other] = [], None

    def _advance_track(self, turn: int):
        if self.pile:
            if self.pile_sorted:
                key = self.data.value if self.prm["market_sort_key"] == "value" else self.data.cost
                lowest = key[self.pile[0]]
                group = [c for c in self.pile if key[c] == lowest]
            else:
                group = self.pile
            card = yield from self._pick(CH_REVEAL, group)
            self.pile.remove(card)
            self.track, out = push_track(self.track, card)
        elif self.period != "regulation" or self.prm["river_when_pile_empty"] == "shift_all":
            self.track, out = shift_track(self.track)
        else:
            out = None
        if out is not None and out != COUNTER:
            self.player_discard.append(out)

    def _refill(self, slot: int):
        """A market slot from the Tactic pile; an empty pile is first made again from the discard (AMB-25)."""
        pile = self.tactic_pile
        if not pile:
            for card in self.tactic_discard:
                pile[card] = pile.get(card, 0) + 1
            self.tactic_discard.clear()
            if not pile:
                return
            self._count("tactic_reshuffles")
        card = yield from self._pick_counted(CH_TACTIC, pile)
        self.market[slot] = card

    def _pick_counted(self, kind: int, pile: dict):
        """One card of a shuffled multiset {card: copies}: uniform over copies; removed from it."""
        if len(pile) == 1:
            card = next(iter(pile))
        else:
            names, total = self.data.names, sum(pile.values())
            keys = sorted(pile)
            card = yield from self._chance(kind, [(names[c], pile[c] / total) for c in keys], self.data.index, pile)
        left = pile[card] - 1
        if left:
            pile[card] = left
        else:
            del pile[card]
        return card

    def _draw(self, seat: int):
        """One card to hand: the known top first, else a chance card of the shuffled rest; an empty pile takes
        the discard pile as its new shuffled rest (AMB-26). False when both are empty."""
        top = self.top[seat]
        if top:
            self.hand[seat].append(top.pop())
            return True
        rest = self.rest[seat]
        if not rest:
            discard = self.discard[seat]
            if not discard:
                return False
            for card in discard:
                rest[card] = rest.get(card, 0) + 1
            discard.clear()
            self._count("reshuffles")
        self.hand[seat].append((yield from self._pick_counted(CH_DRAW, rest)))
        return True

    # --- reading ----------------------------------------------------------------------------------------------

    def levels(self, seat: int) -> tuple:
        """Team levels of the five on court, one per SKILLS entry (§3.3), cached by lineup."""
        court = tuple(self.court[seat])
        cache = self.data._levels
        found = cache.get(court)
        if found is None:
            if len(cache) > 50_000:
                cache.clear()
            stats = self.data.stats
            a, b, c, d, e = (stats[card] for card in court)
            found = cache[court] = tuple(a[i] + b[i] + c[i] + d[i] + e[i] for i in range(8))
        return found

    def collective(self, seat: int) -> int:
        return self.levels(seat)[GI]
