"""One Challengers match (challengers.md §2.4, §3.2, §3.3) as a small machine the game and the rulebook share.

The match never draws a card itself: `pending()` names the side whose deck must give its top card (a reveal,
or a card an opponent's MILL_OPPONENT sends to the discard), `outcomes(side)` lists what it can be (the
shuffled part of the deck, uniform; then the cards put under it, in order) and `feed(card)` plays it. The game
turns that into chance nodes; `tell_match` (engine/tell.py) feeds decks given top first and returns what happened,
card by card.

Sides are 0 (starts: opens the flag) and 1. Rules, in order of the brief's resolutions:
- opening: the starter reveals one card and defends with it; its no-keyword effects work, its On attack ones
  only when `opening_triggers_on_attack` (CH-A18); its no-keyword OPP_STRENGTH weakens the first attack;
- attack: each reveal adds the card's attack value (§3.2) and does its no-keyword effects; the attack total
  (cards + From the bench attack bonuses + the flag card's Holding the flag OPP_STRENGTH) is compared with the
  defence (flag card + kept bonus + From the bench defence bonuses + the attack's OPP_STRENGTH);
- capture (CH-A9, `capture_order`): Losing the flag effects of the flag card, then the flag pile goes to the
  bench bottom card first (a card without a slot loses the match); or the bench first;
- hidden cards of a flag pile do nothing (CH-A19); effects are carried out as far as possible: milling or
  discarding from an empty deck or bench is no loss (CH-A8); only a mandatory reveal from an empty deck loses;
- SELF_TO_DECK_BOTTOM works once per card and match (CH-A22, this edition's resolution: without it two decks of
  such cards can pass the flag back and forth for ever): a card that comes back from under its deck is benched
  the next time it loses the flag;
- BENCH_TO_DISCARD (which bench cards go to the discard): a side in `deciders` chooses when its bench offers
  two names or more: the match pauses (`choice`: side, cards still to discard) until `choose(card)`, then goes
  on where the effect stopped (`resume`); otherwise (the robot, a told match, a single name) §3.7 chooses: the
  slot with the fewest copies, then the lowest strength, then the oldest slot."""

from __future__ import annotations

OPENING, ATTACK, OVER = 0, 1, 2
_EMPTY = ()


class Match:
    __slots__ = ("cards", "slots", "losing_first", "open_on_attack", "cap", "pool", "size", "bottom", "attack",
                 "attack_sum", "flag", "bench", "bench_att", "bench_def", "discard", "fans", "defender", "stage",
                 "opp_def", "opp_open", "open_bonus", "mill", "winner", "end", "reveals", "log", "flag_spent",
                 "attack_spent", "from_bottom", "deciders", "choice", "resume")

    def __init__(self, data, deck0: dict, deck1: dict, params: dict | None = None, log: list | None = None,
                 benches: tuple = ((), ()), deciders: tuple = (False, False)):
        params = params or data.params
        self.cards, self.slots = data.cards, params["bench_slots"]
        self.losing_first = params["capture_order"] == "losing_flag_first"
        self.open_on_attack, self.cap = params["opening_triggers_on_attack"], params["max_reveals_per_match"]
        self.pool = [dict(deck0), dict(deck1)]
        self.size = [sum(deck0.values()), sum(deck1.values())]
        self.bottom, self.attack, self.flag, self.discard = [[], []], [], [[], []], [[], []]
        self.bench, self.bench_att, self.bench_def = [{}, {}], [0, 0], [0, 0]
        self.fans, self.mill, self.attack_sum = [0, 0], [0, 0], 0
        self.defender, self.stage, self.opp_def, self.opp_open, self.open_bonus = 0, OPENING, 0, 0, 0
        self.winner, self.end, self.reveals, self.log = None, None, 0, log
        self.flag_spent, self.attack_spent, self.from_bottom = [False, False], False, False
        self.deciders, self.choice, self.resume = tuple(deciders), None, None
        for side, cards in enumerate(benches):
            for card in cards:
                self._bench_card(side, card)
        self._check()

    # --- what the match waits for -------------------------------------------------------------------------

    def pending(self) -> int | None:
        """The side whose top card comes next (milling first), None once the match is over."""
        if self.stage == OVER:
            return None
        mill = self.mill
        if mill[0]:
            return 0
        if mill[1]:
            return 1
        return self.defender if self.stage == OPENING else 1 - self.defender

    def outcomes(self, side: int) -> list:
        """[(card, probability)]: the shuffled part uniformly, or the first card put under the deck."""
        size = self.size[side]
        if size:
            return [(card, n / size) for card, n in self.pool[side].items()]
        return [(self.bottom[side][0], 1.0)]

    def cards_left(self, side: int) -> int:
        return self.size[side] + len(self.bottom[side])

    def feed(self, card: int) -> None:
        """The pending side's top card is `card` (ValueError if that deck cannot give it)."""
        side = self.pending()
        if side is None:
            raise ValueError("the match is over")
        self._take(side, card)
        if self.mill[side]:
            self.mill[side] -= 1
            self.discard[side].append(card)
            self._note("mill", side, card)
        else:
            self._reveal(side, card)
        if self.stage != OVER and self.choice is None:
            self._check()

    # --- the rules ----------------------------------------------------------------------------------------

    def _take(self, side: int, card: int) -> None:
        if self.size[side]:
            pool = self.pool[side]
            n = pool.get(card, 0)
            if not n:
                raise ValueError(f"{self.cards[card].id if 0 <= card < len(self.cards) else card!r} is not in the "
                                 f"shuffled deck of side {side}")
            if n == 1:
                del pool[card]
            else:
                pool[card] = n - 1
            self.size[side] -= 1
            self.from_bottom = False
        elif self.bottom[side] and self.bottom[side][0] == card:
            self.bottom[side].pop(0)
            self.from_bottom = True
        else:
            raise ValueError(f"{card!r} is not the next card of side {side}'s deck")

    def _check(self) -> None:
        """Milling an empty deck stops (CH-A8); a mandatory reveal from an empty deck loses; the safety cap."""
        for side in (0, 1):
            if self.mill[side] and not self.cards_left(side):
                self.mill[side] = 0
        side = self.pending()
        if side is not None and not self.mill[side] and not self.cards_left(side):
            self._lose(side, "empty_deck")
        elif self.reveals >= self.cap:
            self._lose(1 - self.defender, "cap")

    def _reveal(self, side: int, card: int) -> None:
        c = self.cards[card]
        self.reveals += 1
        if self.stage == OPENING:
            self.flag[side].append(card)
            self.flag_spent[side] = self.from_bottom
            self.opp_open = c.opp_attack - c.opp_opening_extra
            if self.open_on_attack:
                self.open_bonus, self.opp_open = c.opening_extra, c.opp_attack
            then = ("opened", side, card)
            self._run(side, c, c.on_reveal, 0, then) if c.on_reveal else self._then(then)
            return
        self.attack.append(card)
        self.attack_spent = self.from_bottom
        self.attack_sum += c.attack
        self.opp_def += c.opp_attack
        if c.on_reveal:
            self._run(side, c, c.on_reveal, 0, ("attacked", side, card))
            return
        attack, defence = self.attack_total(), self.defence()        # the common case, without the detour
        self._note("reveal", side, card, attack=attack, defence=defence)
        if attack >= defence:
            self._capture(1 - side, side)

    def _run(self, side: int, c, ops: tuple, start: int, then: tuple) -> None:
        """Effects ops[start:] of card c, then what follows them (`then`); a choice pauses both."""
        for i in range(start, len(ops)):
            op, n = ops[i]
            if op == "BENCH_TO_DISCARD" and self.deciders[side] and len(self.bench[side]) > 1:
                self._note("effect", side, c.index, op=op, n=n)
                self.choice, self.resume = (side, n), (c.index, ops, i + 1, then)
                return
            if op == "SELF_TO_DECK_BOTTOM":
                self._under_deck(side, c, then)
            else:
                self._op(side, c, op, n)
        self._then(then)

    def _then(self, then: tuple) -> None:
        kind, x, y = then
        if kind == "opened":
            self._note("reveal", x, y, defence=self.defence())
            self.stage = ATTACK
        elif kind == "attacked":
            attack, defence = self.attack_total(), self.defence()
            self._note("reveal", x, y, attack=attack, defence=defence)
            if attack >= defence:
                self._capture(1 - x, x)
        elif kind == "lost_first":               # Losing the flag done: the flag pile goes to the bench
            if self._bench_pile(x, self.flag[x]):
                self._flag_moves(x, y)
        else:                                   # "lost_after": the pile was benched before
            self._flag_moves(x, y)

    def choose(self, card: int) -> None:
        """The deciding side sends `card`, the top card of one of its bench slots, to its discard."""
        side, n = self.choice
        if not any(slot[-1] == card for slot in self.bench[side].values()):
            raise ValueError(f"{card!r} is not on top of a bench slot of side {side}")
        self._unbench(side, card)
        self.discard[side].append(card)
        n -= 1
        if n and len(self.bench[side]) > 1:
            self.choice = (side, n)
            return
        while n and self._bench_to_discard(side):   # one name left: no choice
            n -= 1
        (card, ops, start, then), self.choice, self.resume = self.resume, None, None
        self._run(side, self.cards[card], ops, start, then)
        if self.stage != OVER and self.choice is None:
            self._check()

    def choices(self) -> list[int]:
        """The cards the deciding side may discard: the top card of each of its bench slots."""
        return sorted({slot[-1] for slot in self.bench[self.choice[0]].values()}) if self.choice else []

    def attack_total(self) -> int:
        a, d = 1 - self.defender, self.defender
        flag = self.flag[d]
        against = self.cards[flag[-1]].opp_flag if flag else 0
        return self.attack_sum + self.bench_att[a] + against + self.opp_open

    def defence(self) -> int:
        d = self.defender
        flag = self.flag[d]
        top = self.cards[flag[-1]].flag if flag else 0
        return top + self.open_bonus + self.bench_def[d] + self.opp_def

    def _op(self, side: int, c, op: str, n: int) -> None:
        if op == "FANS":
            self.fans[side] += n
        elif op == "BENCH_TO_DISCARD":
            for _ in range(n):
                if not self._bench_to_discard(side):
                    break
        elif op == "MILL_OPPONENT":
            self.mill[1 - side] += n
        self._note("effect", side, c.index, op=op, n=n)

    def _capture(self, d: int, a: int) -> None:
        pile = self.flag[d]
        top = self.cards[pile[-1]]
        self._note("capture", a, pile[-1])
        if top.on_losing:
            if self.losing_first:
                self._run(d, top, top.on_losing, 0, ("lost_first", d, a))
            elif self._bench_pile(d, pile):
                self._run(d, top, top.on_losing, 0, ("lost_after", d, a))
        elif self._bench_pile(d, pile):
            self._flag_moves(d, a)

    def _flag_moves(self, d: int, a: int) -> None:
        self.flag[d] = []
        self.flag[a], self.attack = self.attack, []
        self.flag_spent[a] = self.attack_spent
        self.defender, self.attack_sum, self.opp_def, self.opp_open, self.open_bonus = a, 0, 0, 0, 0
        self._note("flag", a, self.flag[a][-1], defence=self.defence())

    def _under_deck(self, d: int, top, then: tuple) -> None:
        """SELF_TO_DECK_BOTTOM, once per card and match (CH-A22): else it stays to be benched."""
        if self.flag_spent[d]:
            return
        pile = self.flag[d]
        if then[0] == "lost_first" and pile and pile[-1] == top.index:
            pile.pop()
        else:
            self._unbench(d, top.index)
        self.bottom[d].append(top.index)
        self._note("effect", d, top.index, op="SELF_TO_DECK_BOTTOM", n=0)

    def _bench_pile(self, d: int, pile: list) -> bool:
        for i, card in enumerate(pile):
            if not self._bench_card(d, card):
                self.flag[d] = pile[i:]             # what found no slot stays in the flag pile
                self._lose(d, "bench_full")
                return False
        self._note("bench", d, None, cards=list(pile))
        return True

    def _bench_card(self, side: int, card: int) -> bool:
        c = self.cards[card]
        bench = self.bench[side]
        slot = bench.get(c.slot)
        if slot is None:
            if len(bench) >= self.slots:
                return False
            bench[c.slot] = [card]
        else:
            slot.append(card)
        self.bench_att[side] += c.bench_attack
        self.bench_def[side] += c.bench_defence
        return True

    def _unbench(self, side: int, card: int) -> None:
        c = self.cards[card]
        slot = self.bench[side][c.slot]
        slot.remove(card)
        if not slot:
            del self.bench[side][c.slot]
        self.bench_att[side] -= c.bench_attack
        self.bench_def[side] -= c.bench_defence

    def policy_card(self, side: int) -> int | None:
        """§3.7's choice: a card of the slot with the fewest copies, then the lowest strength, oldest slot."""
        bench, cards = self.bench[side], self.cards
        return min(bench.values(), key=lambda s: (len(s), cards[s[-1]].strength))[-1] if bench else None

    def _bench_to_discard(self, side: int) -> bool:
        card = self.policy_card(side)
        if card is None:
            return False
        self._unbench(side, card)
        self.discard[side].append(card)
        return True

    def _lose(self, side: int, reason: str) -> None:
        self.winner, self.end, self.stage = 1 - side, reason, OVER
        self._note("loss", side, None, reason=reason)

    def _note(self, event: str, side: int, card, **more) -> None:
        if self.log is not None:
            self.log.append({"event": event, "side": side,
                             "card": None if card is None else self.cards[card].id, **more})

    # --- reading and copying ------------------------------------------------------------------------------

    def every_card(self, side: int) -> list[int]:
        """All of one side's cards wherever they are (deck, bench, flag pile, attack, discard)."""
        found = [card for card, n in self.pool[side].items() for _ in range(n)] + self.bottom[side]
        found += [card for slot in self.bench[side].values() for card in slot] + self.flag[side] + self.discard[side]
        if self.stage != OPENING and side != self.defender:
            found += self.attack
        return found

    def copy(self) -> "Match":
        other = object.__new__(Match)
        for name in Match.__slots__:
            setattr(other, name, getattr(self, name))
        other.pool = [dict(p) for p in self.pool]
        other.size, other.mill, other.fans = list(self.size), list(self.mill), list(self.fans)
        other.bottom, other.flag = [list(b) for b in self.bottom], [list(f) for f in self.flag]
        other.discard, other.attack = [list(d) for d in self.discard], list(self.attack)
        other.bench = [{k: list(v) for k, v in b.items()} for b in self.bench]
        other.bench_att, other.bench_def = list(self.bench_att), list(self.bench_def)
        other.flag_spent = list(self.flag_spent)         # choice and resume are tuples: shared
        other.log = None if self.log is None else list(self.log)
        return other

    def frozen(self) -> tuple:
        return (tuple(sorted(self.pool[0].items())), tuple(sorted(self.pool[1].items())),
                tuple(map(tuple, self.bottom)),
                tuple(self.attack), tuple(map(tuple, self.flag)),
                tuple(tuple(sorted((k, tuple(v)) for k, v in b.items())) for b in self.bench),
                tuple(map(tuple, self.discard)), tuple(self.fans), tuple(self.mill), self.defender, self.stage,
                self.winner, self.reveals, tuple(self.flag_spent), self.attack_spent, self.choice,
                self.resume)

    def __str__(self) -> str:
        ids = lambda cards: [self.cards[c].id for c in cards]       # noqa: E731
        lines = [f"match: stage {self.stage}, defender {self.defender}, reveals {self.reveals}, winner {self.winner}"]
        for side in (0, 1):
            lines.append(f"  side {side}: deck {self.cards_left(side)}, flag {ids(self.flag[side])}, bench "
                         f"{[ids(s) for s in self.bench[side].values()]}, discard {ids(self.discard[side])}")
        return "\n".join(lines)
