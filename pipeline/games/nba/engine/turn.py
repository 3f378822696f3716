"""NBA Deck-Building engine, phases C and D of a turn (§3.4, §3.5): substitution, preparation, purchases,
activation (dice, rerolls, keeping by colour) and the end of turn (keep, discard, trash, draw to 6).

A mixin of engine.State, written as generators like flow.py."""

from __future__ import annotations

from pipeline.games.nba.engine.data import FATIGUE, PLAYER, RB, TACTIC
from pipeline.games.nba.engine.kinds import CH_DIE, END, MAIN, PREP, REROLL, SUB
from pipeline.games.nba.engine.rules import offensive_rerolls


class TurnRules:
    __slots__ = ()

    # --- phase C ----------------------------------------------------------------------------------------------

    def _actions(self, seat: int):
        while True:
            action = yield from self._decide(seat, MAIN)
            tag = action[0]
            if tag == "end":
                return
            self.used.add(tag)
            if tag == "substitute":
                yield from self._substitution(seat)
            elif tag == "prepare":
                yield from self._prepare(seat)
            elif tag == "buy_player":
                self._buy(seat, action[1], action[2], action[3], True)
            elif tag == "buy_tactic":
                self._buy(seat, action[1], action[2], action[3], False)
            else:
                self.activating = True
                yield from self._activate(seat, action[1], tag == "offence")

    def _buy(self, seat: int, card: int, payment: list, source, player: bool) -> None:
        hand = self.hand[seat]
        for c in payment:
            hand.remove(c)
        self.discard[seat] += payment
        if not player:
            self.market[source] = None
            self.bought_slot = source
        elif source == "mini":
            self.mini[seat].remove(card)
            self._count("mini_market_buys")
        else:
            self.track[source] = None
        (hand if self.money else self.top[seat]).append(card)
        self._count(("bought_player:" if player else "bought_tactic:") + self.data.names[card])

    def _substitution(self, seat: int):
        """C1: cards from hand into slots (and moves of multi-position cards), Fatigue removal, then one draw
        per card that came from hand. The rulebook constrains substitutions by position only: a slot may
        take a second hand card in the same turn (every step spends a hand card, so the step ends)."""
        court, hand, discard = self.court[seat], self.hand[seat], self.discard[seat]
        self.sub_in, self.sub_fatigue = 0, 0
        while True:
            if not self._may_substitute(seat):
                break                                   # ("end",) is the only legal action: it is not asked
            action = yield from self._decide(seat, SUB)
            tag = action[0]
            if tag == "end":
                break
            if tag == "fatigue":
                hand.remove(action[1])
                (self.fatigue_supply if self.prm["fatigue_removed_to"] == "supply" else self.box).append(action[1])
                self.sub_fatigue += 1
                continue
            if tag == "in":
                _, card, pos = action
                discard.append(court[pos])
            else:
                _, frm, to, card = action
                discard.append(court[to])
                court[to] = court[frm]
                pos = frm
            hand.remove(card)
            court[pos] = card
            self.sub_in += 1
        self._count("substitutions", self.sub_in)
        for _ in range(self.sub_in):
            yield from self._draw(seat)

    def _prepare(self, seat: int):
        """C2: Tactic cards from hand onto the board; a card placed on an occupied slot replaces it."""
        hand, discard = self.hand[seat], self.discard[seat]
        while True:
            if not self._may_prepare(seat):
                return
            action = yield from self._decide(seat, PREP)
            if action[0] == "end":
                return
            board = self.off_board[seat] if action[1] == "offence" else self.def_board[seat]
            slot = action[2]
            if board[slot] is not None:
                discard.append(board[slot])
            if action[0] == "place":
                hand.remove(action[3])
                board[slot] = action[3]
            else:
                board[slot] = None

    def _may_substitute(self, seat: int) -> bool:
        """Whether a substitution step other than "end" is legal (a Player card in hand, which fits a slot of
        its positions, or a Fatigue card that may be removed)."""
        data = self.data
        for card in self.hand[seat]:
            kind = data.kind[card]
            if kind == PLAYER and data.player[card].positions:
                return True
            if kind == FATIGUE and self.sub_fatigue < self.sub_in * self.prm["fatigue_per_substitution"]:
                return True
        return False

    def _may_prepare(self, seat: int) -> bool:
        """Whether a preparation step other than "end" is legal."""
        data = self.data
        if self.prm["allow_free_tactic_discard"]:
            return True
        for card in self.hand[seat]:
            if data.kind[card] == TACTIC:
                offence = data.tactic[card].offence
                if offence and self.special:
                    continue
                if len(self.off_board[seat]) if offence else len(self.def_board[seat]):
                    return True
        return False

    # --- activation (§3.5) -----------------------------------------------------------------------------------

    def _activate(self, seat: int, slot: int, offence: bool):
        data, prm = self.data, self.prm
        board = self.off_board[seat] if offence else self.def_board[seat]
        card = board[slot]
        board[slot] = None
        self.discard[seat].append(card)
        tactic = data.tactic[card]
        self.active = card
        self._count("activated:" + tactic.id)
        levels = self.levels(seat)
        rolled = self.rolled = []
        outcomes, accept = data.die_outcomes, data.die_accept
        for die, k, _ in data.dice_for(tactic, levels):
            for _ in range(k):
                rolled.append((yield from self._chance(CH_DIE, outcomes[die], accept[die])))
        if offence:
            allow = offensive_rerolls(levels[RB], self.levels(1 - seat)[RB], prm["reroll_divisor"])
            if self.window and prm["clutch_players"]:
                allow += sum(1 for c in self.court[seat] if data.player[c].clutch)
        elif self.money:
            allow = prm["money_time_free_def_rerolls"]
        else:
            allow = len(self.fatigue_supply)
        allow = min(allow, len(rolled))
        if allow:
            self.reroll_allow, self.reroll_offence = allow, offence
            chosen = yield from self._decide(seat, REROLL)
            if chosen:
                if offence:
                    self._count("rerolls_offence", len(chosen))
                else:
                    self._count("rerolls_defence", len(chosen))
                    if not self.money:
                        for _ in chosen:
                            self.top[seat].append(self.fatigue_supply.pop())
                        self._count("fatigue_taken", len(chosen))
                for label in chosen:
                    die = data.face[label][0]
                    rolled[rolled.index(label)] = yield from self._chance(CH_DIE, outcomes[die], accept[die])
        self.reroll_allow = 0
        if offence:
            self.off_zone[seat], self.off_tactic[seat] = self._kept(tactic, rolled, None), tactic.id
        else:
            face = data.face
            waiting = {face[label][2] for label in self.off_zone[1 - seat]}
            self.def_zone[seat], self.def_tactic[seat] = self._kept(tactic, rolled, waiting), tactic.id
        self.rolled, self.active = [], None

    def _kept(self, tactic, rolled: list, waiting: set | None) -> list:
        """Keep by type (AMB-18): the best dice, up to the card's count; in defence only faces of a colour in the
        waiting attack. keep_mode exactly: the card's count of best dice regardless of colour, of which a
        defensive face of another colour is then returned."""
        face, kept = self.data.face, []
        exactly = self.prm["keep_mode"] == "exactly"
        for die, k in tactic.keep:
            mine = [label for label in rolled if face[label][0] == die]
            if waiting is not None and not exactly:
                mine = [label for label in mine if face[label][2] in waiting]
            mine.sort(key=lambda label: -face[label][1])
            chosen = mine[:k]
            if waiting is not None:
                chosen = [label for label in chosen if face[label][2] in waiting]
            kept += chosen
        return kept

    # --- phase D ----------------------------------------------------------------------------------------------

    def _end_of_turn(self, seat: int):
        hand = self.hand[seat]
        self.kept = []
        while hand:
            action = yield from self._decide(seat, END)
            if action[0] == "end":
                break
            hand.remove(action[1])
            if action[0] == "keep":
                self.kept.append(action[1])
            else:
                self.box.append(action[1])
                self._count("trashed")
        self.discard[seat] += hand
        hand[:] = self.kept
        self.kept = []
        for _ in range(self.prm["hand_size"] - len(hand)):
            if not (yield from self._draw(seat)):
                break
        if self.bought_slot is not None:
            yield from self._refill(self.bought_slot)
            self.bought_slot = None
