"""All-Star Draft engine, regular season (§2.2, §2.7, §3.2–§3.4): rounds, the four drafts, swaps, teams,
buses and matches. A mixin of engine.State: it reads and writes the state's attributes.

Every handler checks the whole action before it changes anything, so a refused action leaves the state as
it was. Handlers take (state, seat, action) with seat = the seat whose decision it is.
"""

from __future__ import annotations

from itertools import combinations, permutations

from pipeline.games.allstar.engine.data import (ARENA, BUS, DEAL, DISCARD, GIVE, KEEP, OM_FIRST, OM_REVEAL, PICK,
                                                SPECIAL_FLAGS, SPECIAL_TIER, SWAP, TAKE, TEAM)
from pipeline.games.allstar.engine.keys import competition_ranks


class SeasonRules:
    __slots__ = ()

    # --- rounds and drafts --------------------------------------------------------------------------------

    def _start_round(self, r: int) -> None:
        """Reveal r arenas (chance), then the draft of this game's mode."""
        self.round_no, self.arenas, self.phase = r, [], ARENA
        for gained in self.gained:
            gained.clear()

    def _start_draft(self) -> None:
        prm, n = self.prm, self.n
        if self.mode == "open_market":
            self.triples_left = prm["hand_size"]
            if self.round_no > 1:
                self._first_triple(self._open_market_first())
            elif self.fixed_first is not None:
                self._first_triple(self.fixed_first)
            else:
                self.phase = OM_FIRST
            return
        size = prm["hand_size"] if self.mode == "classic" else prm["duo_hand_size"]
        self.deal = [seat for seat in reversed(range(n)) for _ in range(size)]   # popped: seat 0 first
        self.phase = DEAL

    def _dealt(self, card: int) -> None:
        deal = self.deal
        self.packet[deal.pop()].append(card)
        if not deal:
            self._next_pass()

    def _next_pass(self) -> None:
        """Everyone picks from the hand in front of them; a last single card is simply taken (no choice)."""
        size = len(self.packet[0])
        if size <= 1:
            for seat in range(self.n):
                if self.packet[seat]:
                    card = self.packet[seat].pop()
                    self.bench[seat].append(card)
                    self.gained[seat].append(card)
            return self._end_draft()
        steps = (PICK, KEEP, GIVE) if self.mode == "duel" and size >= 3 else (PICK,)
        self._ask([(seat, step, 0) for seat in range(self.n) for step in steps], SeasonRules._pass_hands)

    def _pass_hands(self) -> None:
        """Hands move left in odd rounds, right in even ones (left(i) = i + 1, ASD-A21); Duel gifts land."""
        n, d = self.n, 1 if self.round_no % 2 else -1
        self.packet = [self.packet[(seat - d) % n] for seat in range(n)]
        for seat, gifts in enumerate(self.gifts):
            if gifts:
                self.bench[seat] += gifts
                self.gained[seat] += gifts
                self.gifts[seat] = []
        self._next_pass()

    def _end_draft(self) -> None:
        if self.mode in ("heritage", "duel"):
            self._ask([(seat, DISCARD, 0) for seat in range(self.n)], SeasonRules._team_building)
        else:
            self._team_building()

    # --- Open Market --------------------------------------------------------------------------------------

    def _open_market_first(self) -> int:
        """Rounds 2+: fewer supporters chooses first; a tie: who did not choose first last round (ASD-A17)."""
        a, b = self.supporters
        if a != b:
            return 0 if a < b else 1
        return 1 - self.om_first

    def _first_triple(self, seat: int) -> None:
        self.om_first = seat
        self._new_triple(seat)

    def _new_triple(self, chooser: int) -> None:
        self.chooser, self.market, self.phase = chooser, [], OM_REVEAL

    def _revealed(self, card: int) -> None:
        self.market.append(card)
        if len(self.market) == 3:
            self._ask([(self.chooser, TAKE, 0), (1 - self.chooser, TAKE, 0)], SeasonRules._after_triple)

    def _after_triple(self) -> None:
        self.box += self.market             # the third card is discarded
        self.market = []
        self.triples_left -= 1
        if self.triples_left:
            self._new_triple(1 - self.chooser)
        else:
            self._end_draft()

    # --- team building, buses, matches --------------------------------------------------------------------

    def _team_building(self) -> None:
        """Rounds 2+: one optional swap per earlier team (ASD-A9; one_total: one per manager), then a team."""
        earlier = self.round_no - 1
        entries = [(seat, SWAP, t) for seat in range(self.n) for t in range(earlier)]
        self._ask(entries, SeasonRules._team_step)

    def _team_step(self) -> None:
        self._ask([(seat, TEAM, 0) for seat in range(self.n)], SeasonRules._bus_step)

    def _bus_step(self) -> None:
        if self.round_no == 1:
            self.buses = [(1,)] * self.n
            return self._matches()
        self._ask([(seat, BUS, 0) for seat in range(self.n)], SeasonRules._matches)

    def _matches(self) -> None:
        """Bus k sends each manager's team to arena k; arenas rank in bus order (§2.2 e–f)."""
        data, n, side, r = self.data, self.n, self.side, self.round_no
        for bus in range(1, r + 1):
            arena = data.arenas[self.arenas[bus - 1]]
            teams = [self.teams[s][self.buses[s].index(bus)] for s in range(n)]
            plain = [data.key_int(t, side) for t in teams]
            keys, flags = plain, ()
            if arena.special:
                flags = [data.flags(t) & arena.special for t in teams]
                if any(flags):
                    keys = [k + SPECIAL_TIER if f else k for k, f in zip(plain, flags)]
            ranks = competition_ranks(keys)
            points = [arena.points[rank - 1] for rank in ranks]
            for s in range(n):
                self.supporters[s] += points[s]
            self._count("arena:" + arena.id)
            if keys is not plain and ranks != competition_ranks(plain):
                self._count("arena_special_decided")
                for icon in arena.icons:
                    flag = SPECIAL_FLAGS.get(icon, 0)
                    if any(f & flag for f in flags):
                        self._count("special:" + icon)
            self.log.append((r, bus, arena.index, tuple(teams), tuple(ranks), tuple(points)))
        for hidden in self.hidden:
            hidden.clear()                  # revealed: every team is face up now
        if r < self.prm["rounds"]:
            self._start_round(r + 1)
        else:
            self._start_playoffs()

    # --- handlers -----------------------------------------------------------------------------------------

    def _card(self, value) -> int:
        card = self.data.index.get(value) if type(value) is str else None
        if card is None:
            raise ValueError(f"{value!r} is not a card id")
        return card

    def _cards(self, values, size: int, where, what: str) -> tuple:
        """A tuple or list of `size` distinct card ids, all in `where` -> sorted engine integers."""
        if type(values) not in (tuple, list) or len(values) != size:
            raise ValueError(f"{values!r}: {size} card ids expected")
        if not all(type(v) is str for v in values):
            raise ValueError(f"{values!r}: card ids expected")
        try:
            cards = tuple(sorted(map(self.data.index.__getitem__, values)))
        except KeyError:
            raise ValueError(f"{values!r}: an unknown card id") from None
        if len(set(cards)) != size or not all(map(where.__contains__, cards)):
            raise ValueError(f"{values!r}: {size} different cards of the {what} expected")
        return cards

    def _one_card(self, action, where, what: str) -> int:
        if len(action) != 2:
            raise ValueError(f"{action!r}: ({action[0]!r}, card id) expected")
        card = self._card(action[1])
        if card not in where:
            raise ValueError(f"{action!r}: {action[1]} is not in the {what}")
        return card

    def _act_pick(self, seat: int, action) -> None:
        packet = self.packet[seat]               # the hottest handler: _one_card inlined
        card = self.data.index.get(action[1]) if len(action) == 2 and type(action[1]) is str else None
        if card is None or card not in packet:
            raise ValueError(f"{action!r}: ('pick', a card id of the hand) expected")
        packet.remove(card)
        self.bench[seat].append(card)
        self.gained[seat].append(card)
        self._next()

    def _act_give(self, seat: int, action) -> None:
        """Duel: face down onto the other bench, where it lands when the hands pass (simultaneous choices)."""
        card = self._one_card(action, self.packet[seat], "hand")
        self.packet[seat].remove(card)
        self.gifts[(seat + 1) % self.n].append(card)
        self._next()

    def _act_discard(self, seat: int, action) -> None:
        card = self._one_card(action, self.gained[seat], "cards drafted this round")
        self.gained[seat].remove(card)
        self.bench[seat].remove(card)
        self.box.append(card)
        self._next()

    def _act_take(self, seat: int, action) -> None:
        card = self._one_card(action, self.market, "market")
        self.market.remove(card)
        self.bench[seat].append(card)
        self.gained[seat].append(card)
        self._next()

    def _act_swap(self, seat: int, action) -> None:
        t = self.todo[-1][2]
        if len(action) != 4 or action[1] != t or type(action[1]) is not int:
            raise ValueError(f"{action!r}: ('swap', {t}, team card, bench card) expected")
        out = self._card(action[2])
        into = self._card(action[3])
        team = self.teams[seat][t]
        if out not in team or into not in self.bench[seat]:
            raise ValueError(f"{action!r}: the first card must be in team {t}, the second on the bench")
        self.teams[seat][t] = tuple(sorted([c for c in team if c != out] + [into]))
        self.bench[seat].remove(into)
        self.bench[seat].append(out)
        self.hidden[seat].add(into)                 # the incoming card is put in face down
        if self.prm["swaps_per_round"] == "one_total":
            while len(self.todo) > 1 and self.todo[-2][0] == seat and self.todo[-2][1] == SWAP:
                self.todo.pop()
        self._next()

    def _act_no_swap(self, seat: int, action) -> None:
        t = self.todo[-1][2]
        if len(action) != 2 or action[1] != t or type(action[1]) is not int:
            raise ValueError(f"{action!r}: ('no_swap', {t}) expected")
        self._next()

    def _act_team(self, seat: int, action) -> None:
        if len(action) != 2:
            raise ValueError(f"{action!r}: ('team', card ids) expected")
        team = self._cards(action[1], self.prm["team_size"], self.bench[seat], "bench")
        self.bench[seat] = [c for c in self.bench[seat] if c not in team]
        self.teams[seat].append(team)
        self.hidden[seat].update(team)
        self._next()

    def _act_buses(self, seat: int, action) -> None:
        r = self.round_no
        buses = action[1] if len(action) == 2 else None
        if type(buses) not in (tuple, list) or any(type(b) is not int for b in buses) \
                or sorted(buses) != list(range(1, r + 1)):
            raise ValueError(f"{action!r}: ('buses', a permutation of 1..{r}, bus of team 0 first) expected")
        self.buses[seat] = tuple(buses)
        self._next()

    # --- legal actions ------------------------------------------------------------------------------------

    def _legal_cards(self, tag: str, cards) -> list:
        names = self.data.names
        return [(tag, names[c]) for c in sorted(cards)]

    def _legal_swaps(self, seat: int) -> list:
        t, names = self.todo[-1][2], self.data.names
        bench = sorted(self.bench[seat])
        return [("no_swap", t)] + [("swap", t, names[o], names[i]) for o in self.teams[seat][t] for i in bench]

    def _legal_teams(self, seat: int) -> list:
        names = self.data.names
        return [("team", tuple(names[c] for c in team))
                for team in combinations(sorted(self.bench[seat]), self.prm["team_size"])]


SEASON_HANDLERS = {
    (PICK, "pick"): SeasonRules._act_pick, (KEEP, "pick"): SeasonRules._act_pick,
    (GIVE, "give"): SeasonRules._act_give, (DISCARD, "discard"): SeasonRules._act_discard,
    (TAKE, "take"): SeasonRules._act_take, (SWAP, "swap"): SeasonRules._act_swap,
    (SWAP, "no_swap"): SeasonRules._act_no_swap, (TEAM, "team"): SeasonRules._act_team,
    (BUS, "buses"): SeasonRules._act_buses,
}
SEASON_LEGAL = {
    PICK: lambda st, seat: st._legal_cards("pick", st.packet[seat]),
    KEEP: lambda st, seat: st._legal_cards("pick", st.packet[seat]),
    GIVE: lambda st, seat: st._legal_cards("give", st.packet[seat]),
    DISCARD: lambda st, seat: st._legal_cards("discard", st.gained[seat]),
    TAKE: lambda st, seat: st._legal_cards("take", st.market),
    SWAP: SeasonRules._legal_swaps,
    TEAM: SeasonRules._legal_teams,
    BUS: lambda st, seat: [("buses", p) for p in permutations(range(1, st.round_no + 1))],
}
