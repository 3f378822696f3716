"""Build It engine, card half of a turn: playing Normal cards, Cancel reaction windows, card effects.

Mixed into engine.State. A played card is paid at once, then waits on a stack while a reaction window asks
every other player clockwise from its owner's left, then the owner, to CANCEL it or PASS (BI-A10). Players
holding no Cancel they can pay are not asked: PASS would be their only answer. A Cancel opens its own window;
when a window closes its card resolves (a Cancel removes the card below it), and the window below resumes.
Costs are never refunded; Contract fulfilments are not cards played and cannot be cancelled.
"""

from __future__ import annotations

from pipeline.games.buildit.engine.data import BUILT, MODIFIERS, PERMIT, PLOT_KIND, REACT, SITE, THEFT
from pipeline.games.buildit.engine.pawns import with_, without

# a stack entry is a list: [card id, model, owner, target (-1: none), plot argument (-1: none), askers, next asker]
CARD, MODEL, OWNER, TARGET, ARG, ASKERS, NEXT = range(7)


class CardRules:
    __slots__ = ()

    def play_cost(self, seat: int, card_id: str, target: int, arg: int) -> int | None:
        """Gold `seat` pays to play this card now with this target and plot, or None when the play is not
        legal (Cancel is only played in reaction windows). Bots call it to check a play before making it."""
        card = self.data.cards.get(card_id)
        if card is None or card.model == "cancel" or type(target) is not int or type(arg) is not int:
            return None
        if card.target == "other":
            if not 0 <= target < self.n or target == seat:
                return None
        elif target != -1:
            return None
        who, model, plots = (target if target >= 0 else seat), card.model, 1
        kind = PLOT_KIND.get(model)
        if kind is None:
            if arg != -1:
                return None
        elif not 0 <= arg < self.data.nplots or self.board[arg] != who * 3 + kind:
            return None
        elif model == "demolition":
            plots = len(self.component(arg))
            if self.supply(who, PERMIT) < plots:         # the pawn limit (004_, l.136): every plot needs one
                return None
        elif model == "strike" and self.supply(who, PERMIT) <= 0:
            return None
        elif model == "forced_purchase" and self.supply(seat, PERMIT) <= 0:
            return None
        if model in MODIFIERS and model in self.immune[who]:
            return None
        cost = card.cost * plots if card.cost_rule == "per_plot" else card.cost
        return cost if cost <= self.gold[seat] else None

    def usable_cancel(self, seat: int) -> str | None:
        """The first Cancel card in the player's hand they can pay for, if any."""
        cancels, cards, gold = self.data.cancel_ids, self.data.cards, self.gold[seat]
        for card_id in self.hand[seat]:
            if card_id in cancels and cards[card_id].cost <= gold:
                return card_id
        return None

    # --- playing and answering ----------------------------------------------------------------------------

    def _act_play(self, seat: int, action: tuple) -> None:
        """("play", card id, target seat or -1, plot or -1)."""
        seat = self.seat
        self._need(len(action) == 4 and action[1] in self.hand[seat], f"{action!r}: not a card in your hand")
        _, card_id, target, arg = action
        cost = self.play_cost(seat, card_id, target, arg)
        self._need(cost is not None, f"{action!r}: no legal target, or not enough gold")
        card = self.data.cards[card_id]
        self.hand[seat] = without(self.hand[seat], card_id)
        self.gold[seat] -= cost
        if card.cost_rule == "paid_to_target":
            self.gold[target if target >= 0 else seat] += cost
        self._count("played:" + card.model)
        self._push(card_id, card.model, seat, target, arg)

    def _act_cancel(self, seat: int, action: tuple) -> None:
        """("cancel", id of a Cancel card in hand): answers the card on top of the stack."""
        seat = self.reactor
        self._need(len(action) == 2 and action[1] in self.hand[seat] and action[1] in self.data.cancel_ids,
                   f"{action!r}: not a Cancel card in your hand")
        card = self.data.cards[action[1]]
        self._need(card.cost <= self.gold[seat], f"this Cancel costs {card.cost} gold")
        self.hand[seat] = without(self.hand[seat], card.id)
        self.gold[seat] -= card.cost
        self.stack[-1][NEXT] += 1                     # this player has answered the window
        self._count("played:cancel")
        self._count("cancels")
        self._push(card.id, "cancel", seat, -1, -1)

    def _act_cancel_lasting(self, seat: int, action: tuple) -> None:
        """("cancel", Cancel card id, seat, lasting card id), on your turn: a Cancel may be played at any time
        (004_, l.94), so also against a lasting card already in front of a player (a Pass A38, a Form
        Expert…). It opens a reaction window like any card; if nobody cancels it, the lasting card is
        discarded."""
        seat = self.seat
        self._need(len(action) == 4 and tuple(action) in self._legal_lasting_cancels(seat),
                   f"{action!r}: not a Cancel you can pay against a lasting card in front of a player")
        _, cancel_id, target, lasting = action
        self.hand[seat] = without(self.hand[seat], cancel_id)
        self.gold[seat] -= self.data.cards[cancel_id].cost
        self._count("played:cancel")
        self._count("cancels")
        self._count("cancelled_lasting")
        self._push(cancel_id, "cancel_lasting", seat, target, lasting)

    def _act_pass(self, seat: int, action: tuple) -> None:
        self._need(len(action) == 1, f"{action!r}")
        self.stack[-1][NEXT] += 1
        self._advance_window()

    def _push(self, card_id: str, model: str, owner: int, target: int, arg: int) -> None:
        n = self.n
        askers = tuple((owner + k) % n for k in range(1, n)) + (owner,)
        self.stack.append([card_id, model, owner, target, arg, askers, 0])
        self._advance_window()

    def _advance_window(self) -> None:
        """Ask the next player who could answer; when nobody is left, resolve the top card (LIFO)."""
        stack = self.stack
        while stack:
            top = stack[-1]
            askers, i = top[ASKERS], top[NEXT]
            while i < len(askers):
                if self.usable_cancel(askers[i]) is not None:
                    top[NEXT], self.reactor, self.phase = i, askers[i], REACT
                    return
                i += 1
            stack.pop()
            if top[MODEL] == "cancel":
                self._discard(stack.pop()[CARD])      # the cancelled card: no effect, no refund
                self._discard(top[CARD])
            elif self._resolve(top):
                return                                # a chance node (Contract Theft's pick) comes first
        self._back_to_main()

    # --- effects ------------------------------------------------------------------------------------------

    def _resolve(self, entry: list) -> bool:
        """Apply a card that nobody cancelled. True when a chance outcome must be drawn first."""
        card_id, model, owner, target, arg = entry[:5]
        who = target if target >= 0 else owner
        if model in MODIFIERS:
            if model in self.immune[who]:
                self._discard(card_id)
            else:
                self.front[who] = with_(self.front[who], card_id)
            return False
        self._discard(card_id)
        if model == "cancel_lasting":
            if arg in self.front[who]:
                self.front[who] = without(self.front[who], arg)
                self._discard(arg)
        elif model == "coin_gain":
            value = self.data.cards[card_id].value
            self.gold[owner] += value
            self._count("gold_from_coin_gain", value)
        elif model == "contract_theft":
            return self._theft(owner, who)
        elif model == "sabotage":
            if self.board[arg] == who * 3 + PERMIT:
                self._lift(arg)
        elif model == "strike":
            if self.board[arg] == who * 3 + SITE:
                self._back_to_permits(who, [arg])
        elif model == "demolition":
            if self.board[arg] == who * 3 + BUILT:
                self._back_to_permits(who, sorted(self.component(arg)))
        elif model == "forced_purchase":
            if self.board[arg] == who * 3 + PERMIT and self.supply(owner, PERMIT) > 0:
                self._lift(arg)
                self._put(arg, owner, PERMIT)
        return False

    def _back_to_permits(self, seat: int, plots: list[int]) -> None:
        """Plots become the player's Permits. play_cost refused the card unless the victim had a Permit pawn
        for every plot (the pawn limit, 004_ l.136); nothing in a reaction window changes that supply."""
        for plot in plots:
            self._lift(plot)
        for plot in plots:
            if self.supply(seat, PERMIT) > 0:
                self._put(plot, seat, PERMIT)

    def _theft(self, thief: int, victim: int) -> bool:
        held = self.contracts[victim] if victim != thief else ()
        if len(set(held)) == 1:
            self._steal(thief, victim, held[0])
        elif held:
            self.thief, self.victim, self.phase = thief, victim, THEFT
            return True
        return False                                  # BI-A12: nothing to steal, no effect

    def _steal(self, thief: int, victim: int, cid: str) -> None:
        self.contracts[victim] = without(self.contracts[victim], cid)
        self.contracts[thief] = with_(self.contracts[thief], cid)
        self._count("stolen")

    def _theft_outcomes(self) -> list:
        held = self.contracts[self.victim]
        return [(cid, held.count(cid) / len(held)) for cid in sorted(set(held))]

    def _apply_theft(self, cid) -> None:
        self._need(cid in self.contracts[self.victim], f"{cid!r} is not in the victim's hand")
        self._steal(self.thief, self.victim, cid)
        self._back_to_main()

    # --- legal actions ------------------------------------------------------------------------------------

    def _legal_plays(self, seat: int) -> list:
        cards, acts = self.data.cards, []
        for card_id in sorted(set(self.hand[seat])):
            card = cards[card_id]
            if card.model == "cancel":
                continue
            targets = [t for t in range(self.n) if t != seat] if card.target == "other" else [-1]
            for target in targets:
                for arg in self._plot_args(card.model, target if target >= 0 else seat):
                    if self.play_cost(seat, card_id, target, arg) is not None:
                        acts.append(("play", card_id, target, arg))
        return acts

    def _plot_args(self, model: str, who: int) -> list[int]:
        kind = PLOT_KIND.get(model)
        if kind is None:
            return [-1]
        if kind == BUILT:
            return [min(b) for b in self.groups(who, BUILT)]   # any plot names a building; list one each
        return sorted(self.owned[who * 3 + kind])

    def _legal_lasting_cancels(self, seat: int) -> list:
        cards, gold = self.data.cards, self.gold[seat]
        cancels = sorted({c for c in self.hand[seat] if c in self.data.cancel_ids and cards[c].cost <= gold})
        return [("cancel", c, target, lasting) for c in cancels for target in range(self.n)
                for lasting in sorted(set(self.front[target]))]

    def _legal_reactions(self, seat: int) -> list:
        cards, gold = self.data.cards, self.gold[seat]
        cancels = sorted({c for c in self.hand[seat] if c in self.data.cancel_ids and cards[c].cost <= gold})
        return [("cancel", c) for c in cancels] + [("pass",)]
