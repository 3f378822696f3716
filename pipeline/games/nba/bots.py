"""Simple players for NBA Deck-Building (nba-deck-building.md §7.4 "Simple bot"), for simulations.

Bots read the state's public attributes and build their action directly (the engine checks it): they never
enumerate legal actions on a hot path. Expectations are exact (§2.3): data.best_table gives the expected sum of
the k best of n dice, on a defensive die counting only faces of the waiting colours. Bots draw randomness only
from the rng they are given.
"""

from __future__ import annotations

from itertools import product

from pipeline.games.nba.engine.actions_start import team_choices
from pipeline.games.nba.engine.data import COLOURS, FATIGUE, PLAYER, POSITIONS, SKILL_INDEX, TACTIC
from pipeline.games.nba.engine.kinds import DRAFT, END, MAIN, PREP, REFRESH, REROLL, SUB, TEAM

WEIGHTS = (1.0, 1.0, 1.0, 0.6, 0.6, 0.6, 0.7, 1.5)     # 3P IN PE IT BL ST RB GI: a lineup's worth
ALL_COLOURS = frozenset(COLOURS)
TRASH_FROM_TURN = 4          # "never trashes in the first turns"
MIN_DECK = 10                # cards kept in the deck (hand and piles) when trashing


def card_scores(data) -> list:
    """Weighted rating sum of every Player card (None for other cards), cached on the data."""
    cached = data._tables.get("bot_scores")
    if cached is None:
        cached = data._tables["bot_scores"] = [
            sum(w * s for w, s in zip(WEIGHTS, stats)) if stats else None for stats in data.stats]
    return cached


def cheapest_payment(cards: list, value, cost: int, worth=None):
    """The minimal payment of least total value, then fewest cards, then least worth; None if none pays.
    Cards of equal value are interchangeable but for their worth, so counts per value are enumerated (a few
    dozen combinations) rather than subsets; a least-total payment is minimal by construction."""
    groups: dict = {}
    for c in cards:
        if value[c] > 0:
            groups.setdefault(value[c], []).append(c)
    values = sorted(groups)
    for v in values:
        groups[v].sort(key=lambda c: (worth(c) if worth else 0, c))
    best, best_key = None, None
    for counts in product(*(range(len(groups[v]) + 1) for v in values)):
        total = sum(v * k for v, k in zip(values, counts))
        if total >= cost:
            key = (total, sum(counts))
            if best_key is None or key < best_key:
                best, best_key = counts, key
    if best is None:
        return None
    return [c for v, k in zip(values, best) for c in groups[v][:k]]


class HeuristicBot:
    """§7.4: buys the dearest Player and Tactic it can afford, substitutes when the lineup gains more than the
    buying power lost, prepares while slots are free, activates the best expected offence and defence, rerolls
    low offensive dice and (while Fatigue is cheap) wrong-colour defensive dice, trashes weak Substitutes late."""

    def __init__(self, seat: int):
        self.seat = seat
        self.trashed_at = -1
        self.worth: dict = {}        # (tactic card, team levels) -> tactic_worth

    def choose(self, state, rng):
        return _CHOICES[state.phase](self, state, rng)

    # --- values ---------------------------------------------------------------------------------------------

    def tactic_worth(self, state, card: int, levels) -> float:
        """Expected kept total of an offence, or a defence's expected reduction against any colour (halved)."""
        key = (card, levels)
        worth = self.worth.get(key)
        if worth is None:
            data = state.data
            tactic = data.tactic[card]
            worth = data.expected_attack(tactic, levels) if tactic.offence else \
                0.5 * data.expected_defence(tactic, levels, ALL_COLOURS)
            if len(self.worth) > 5000:
                self.worth.clear()
            self.worth[key] = worth
        return worth

    def best_substitution(self, state):
        """(gain, card, position) of the best single substitution worth its lost buying power, or None."""
        data, seat = state.data, self.seat
        scores, court = card_scores(data), state.court[seat]
        best = None
        for c in state.hand[seat]:
            if data.kind[c] != PLAYER:
                continue
            for pos in data.player[c].positions:
                gain = scores[c] - scores[court[pos]] - 0.3 * data.value[c] - 0.3
                if gain > 0 and (best is None or gain > best[0]):
                    best = (gain, c, pos)
        return best

    def reserved_tactics(self, state, levels) -> list:
        """Hand tactics kept back from paying: the best activatable offence when none is prepared."""
        data, seat = state.data, self.seat
        collective = levels[SKILL_INDEX["GI"]]
        if any(c is not None and data.tactic[c].complexity <= collective for c in state.off_board[seat]):
            return []
        offences = [c for c in state.hand[seat] if data.kind[c] == TACTIC and data.tactic[c].offence
                    and data.tactic[c].complexity <= collective]
        return [max(offences, key=lambda c: self.tactic_worth(state, c, levels))] if offences else []

    def purchase(self, state, player: bool, levels):
        """("buy_…", card, payment) for the dearest affordable card, or None."""
        data, seat = state.data, self.seat
        kind, value, cost = (PLAYER if player else TACTIC), data.value, data.cost
        power = sum(value[c] for c in state.hand[seat] if data.kind[c] == kind)
        targets = (state.track if player else state.market)
        if not any(c is not None and c >= 0 and cost[c] <= power for c in targets) and not (
                player and any(cost[c] <= power for c in state.mini[seat])):
            return None
        return self._purchase(state, player, levels)

    def _purchase(self, state, player: bool, levels):
        data, seat = state.data, self.seat
        hand = list(state.hand[seat])
        if player:
            targets = [c for c in state.track if c is not None and c >= 0] + list(state.mini[seat])
            currency = [c for c in hand if data.kind[c] == PLAYER]
            worth = card_scores(data).__getitem__
        else:
            targets = [c for c in state.market if c is not None]
            for c in self.reserved_tactics(state, levels):
                hand.remove(c)
            currency = [c for c in hand if data.kind[c] == TACTIC]
            worth = None
        power = sum(data.value[c] for c in currency)
        affordable = [c for c in targets if data.cost[c] <= power]
        if not affordable:
            return None
        if player:
            scores = card_scores(data)
            target = max(affordable, key=lambda c: (data.cost[c], scores[c], -c))
        else:
            target = max(affordable, key=lambda c: (data.cost[c], self.tactic_worth(state, c, levels), -c))
        payment = cheapest_payment(sorted(currency), data.value, data.cost[target], worth)
        names = data.names
        return ("buy_player" if player else "buy_tactic", names[target], tuple(sorted(names[c] for c in payment)))

    def placement(self, state, levels):
        """("place", card, slot) for the best hand tactic worth putting on the board, or None."""
        data, seat = state.data, self.seat
        collective = levels[SKILL_INDEX["GI"]]
        options = []
        for c in set(state.hand[seat]):
            tactic = data.tactic[c]
            if data.kind[c] != TACTIC or tactic.complexity > collective + 1 or (state.special and tactic.offence):
                continue
            board = state.off_board[seat] if tactic.offence else state.def_board[seat]
            worth = self.tactic_worth(state, c, levels)
            for slot, held in enumerate(board):
                if held is None:
                    gain = worth + 100
                elif data.tactic[held].complexity > collective:
                    gain = worth + 50
                else:
                    gain = worth - self.tactic_worth(state, held, levels) - 1.0
                if gain > 0:
                    options.append((gain, -c, -slot))
        if not options:
            return None
        _, c, slot = max(options)
        return ("place", data.names[-c], -slot)

    # --- decisions ----------------------------------------------------------------------------------------

    def _team(self, state, rng):
        data, seat = state.data, self.seat
        choices = team_choices(state, seat)
        scores = card_scores(data)
        if None in state.court[seat]:
            return ("starter", data.names[max(choices, key=lambda c: (scores[c], -c))])
        deck = state.team_deck[seat]
        tactics = sum(1 for c in deck if data.kind[c] == TACTIC)
        prm = state.prm
        want = max(prm["team_min_tactics"], min(5, prm["team_deck_size"] - prm["team_min_substitutes"]))
        levels = state.levels(seat)
        pool = [c for c in choices if (data.kind[c] == TACTIC) == (tactics < want)] or choices
        return ("deck", data.names[max(pool, key=lambda c: (
            scores[c] if data.kind[c] == PLAYER else self.tactic_worth(state, c, levels), -c))])

    def _draft(self, state, rng):
        data, prm = state.data, state.prm
        scores = card_scores(data)
        hand = sorted(state.draft_hand[self.seat], key=lambda c: (-scores[c] / max(1, data.cost[c]), c))
        by_strength = sorted(hand, key=lambda c: (-scores[c], c))
        mini = by_strength[:prm["draft_mini_market"]]
        rest = [c for c in hand if c not in mini]
        give = sorted(rest, key=lambda c: (scores[c], c))[:prm["draft_common"]]
        names = data.names
        return ("draft", tuple(sorted(names[c] for c in mini)), tuple(sorted(names[c] for c in give)))

    def _refresh(self, state, rng):
        data = state.data
        power = sum(data.value[c] for c in state.hand[self.seat] if data.kind[c] == TACTIC)
        market = state.market
        cheapest = min((data.cost[c] for c in data.market_tactics), default=0)
        if power < cheapest or any(c is not None and data.cost[c] <= power for c in market) or state.no_buy:
            return ("refresh", ())          # nothing to hope for, or something to buy already
        return ("refresh", tuple(s for s, c in enumerate(market) if c is not None))

    def _main(self, state, rng):
        data, seat, used = state.data, self.seat, state.used
        levels = state.levels(seat)
        if not state.activating:
            if "substitute" not in used and not state.special and self.best_substitution(state):
                return ("substitute",)
            if not state.no_buy and "buy_tactic" not in used:
                buy = self.purchase(state, False, levels)
                if buy:
                    return buy
            if "prepare" not in used and self.placement(state, levels):
                return ("prepare",)
            if not state.no_buy and "buy_player" not in used:
                buy = self.purchase(state, True, levels)
                if buy:
                    return buy
        collective = levels[SKILL_INDEX["GI"]]
        if "offence" not in used and not state.special:
            best = max(((self.tactic_worth(state, c, levels), -s) for s, c in enumerate(state.off_board[seat])
                        if c is not None and data.tactic[c].complexity <= collective), default=None)
            if best and best[0] > 0:
                return ("offence", -best[1])
        waiting = state.off_zone[1 - seat]
        if "defence" not in used and waiting:
            face = data.face
            colours = frozenset(face[label][2] for label in waiting)
            attack = sum(face[label][1] for label in waiting)
            options = []
            for s, c in enumerate(state.def_board[seat]):
                if c is not None and data.tactic[c].complexity <= collective:
                    cut = data.expected_defence(data.tactic[c], levels, colours)
                    options.append((min(cut, attack), -s))
            best = max(options, default=None)
            if best and best[0] > 0.3:
                return ("defence", -best[1])
        return ("end",)

    def _sub(self, state, rng):
        best = self.best_substitution(state)
        if best:
            return ("in", state.data.names[best[1]], POSITIONS[best[2]])
        data = state.data
        if state.sub_fatigue < state.sub_in * state.prm["fatigue_per_substitution"] and any(
                data.kind[c] == FATIGUE for c in state.hand[self.seat]):
            return ("fatigue",)
        return ("end",)

    def _prep(self, state, rng):
        return self.placement(state, state.levels(self.seat)) or ("end",)

    def _reroll(self, state, rng):
        data, seat = state.data, self.seat
        face, allow = data.face, state.reroll_allow
        if state.reroll_offence:
            low = sorted((face[label][1], label) for label in state.rolled
                         if face[label][1] < data.mean[face[label][0]])
            return ("reroll", tuple(sorted(label for _, label in low[:allow])))
        budget = allow
        if not state.money:
            own = sum(1 for c in state.hand[seat] + state.top[seat] + state.discard[seat] if data.kind[c] == FATIGUE)
            own += sum(n for c, n in state.rest[seat].items() if data.kind[c] == FATIGUE)
            budget = min(allow, max(0, 2 - own)) if len(state.fatigue_supply) >= 3 else 0
        colours = {face[label][2] for label in state.off_zone[1 - seat]}
        tactic = data.tactic[state.active]
        chosen = []
        for die, k in tactic.keep:
            mine = [label for label in state.rolled if face[label][0] == die]
            good = [label for label in mine if face[label][2] in colours]
            bad = sorted((label for label in mine if face[label][2] not in colours), key=lambda lb: face[lb][1])
            chosen += bad[:max(0, k - len(good))]
        return ("reroll", tuple(sorted(chosen[:budget])))

    def _end(self, state, rng):
        data, seat = state.data, self.seat
        if state.seat_turns[seat] >= TRASH_FROM_TURN and not state.special:
            deck = len(state.hand[seat]) + len(state.top[seat]) + sum(state.rest[seat].values()) \
                + len(state.discard[seat])
            if deck > MIN_DECK and self.trashed_at != state.turns:
                weak = [c for c in state.hand[seat] if data.kind[c] == PLAYER and data.player[c].kind == "substitute"]
                if weak:
                    self.trashed_at = state.turns          # one trash per turn
                    scores = card_scores(data)
                    return ("trash", data.names[min(weak, key=lambda c: (scores[c], c))])
        return ("end",)


_CHOICES = {TEAM: HeuristicBot._team, DRAFT: HeuristicBot._draft, REFRESH: HeuristicBot._refresh,
            MAIN: HeuristicBot._main, SUB: HeuristicBot._sub, PREP: HeuristicBot._prep,
            REROLL: HeuristicBot._reroll, END: HeuristicBot._end}


class RandomBot:
    """A uniformly random legal action."""

    def __init__(self, seat: int):
        self.seat = seat

    def choose(self, state, rng):
        actions = state.legal_actions()
        return actions[rng.randrange(len(actions))]


BOTS = {"heuristic": HeuristicBot, "random": RandomBot}
