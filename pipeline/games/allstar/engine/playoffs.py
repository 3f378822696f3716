"""All-Star Draft engine, playoffs (§2.4, §3.5, ASD-A10..A14, A25): teams from the 18-card hands,
confrontations, shootouts, tickets, eliminations, substitutions, playoff points and the ticket bonus.
A mixin of engine.State.
"""

from __future__ import annotations

from itertools import combinations

from pipeline.games.allstar.engine.data import OVER, PO_TEAM, SHOOT, SUBST


class PlayoffRules:
    __slots__ = ()

    def _start_playoffs(self) -> None:
        """Every manager gathers teams and bench into a hand of 18 cards; all build a team."""
        for seat in range(self.n):
            self.hand[seat] = sorted(self.bench[seat] + [c for team in self.teams[seat] for c in team])
            self.bench[seat], self.teams[seat] = [], []
        self.alive, self.team = list(range(self.n)), [()] * self.n
        self._ask([(seat, PO_TEAM, 0) for seat in self.alive], PlayoffRules._confront)

    def _weakness(self, seat: int) -> int:
        """What "lowest" compares (ASD-A10): the power only, or the whole team key (playoff_weakest_by)."""
        key = self.data.key_int(self.team[seat], self.side)
        return key // 1000 if self.prm["playoff_weakest_by"] == "power" else key

    def _confront(self) -> None:
        """The weakest team loses; a tie for weakest goes to a shootout, where empty hands lose (ASD-A12)."""
        self._count("playoff_rounds")
        weakness = {seat: self._weakness(seat) for seat in self.alive}
        low = min(weakness.values())
        tied = [seat for seat in self.alive if weakness[seat] == low]
        if len(tied) == 1:
            return self._lose(tied)
        self._count("shootout_ties_power")
        empty = [seat for seat in tied if not self.hand[seat]]
        if empty:
            return self._lose(empty)
        self.shots = {}
        self._ask([(seat, SHOOT, 0) for seat in tied], PlayoffRules._shootout)

    def _shootout(self) -> None:
        """The weakest single card (gold, then silver, then bronze value) loses; cards go to the box."""
        single = self.data.single[self.side]
        keys = {seat: single[card] for seat, card in self.shots.items()}
        low = min(keys.values())
        self.box += list(self.shots.values())
        self.shots = {}
        self._count("shootouts")
        self._lose([seat for seat in self.alive if keys.get(seat) == low])

    def _lose(self, losers: list) -> None:
        """Each loser discards a ticket or is eliminated; then managers with too few hand cards to substitute
        are eliminated together; the others substitute."""
        out = []
        for seat in losers:
            if self.tickets[seat]:
                self.tickets[seat] -= 1
            else:
                out.append(seat)
        self._eliminate(out)
        if len(self.alive) > 1:
            unable = [seat for seat in self.alive if len(self.hand[seat]) < self.prm["min_substitution"]]
            self._count("eliminated_by_substitution", len(unable))
            self._eliminate(unable)
        if len(self.alive) > 1:
            self._ask([(seat, SUBST, 0) for seat in self.alive], PlayoffRules._confront)
        else:
            self._end_playoffs()

    def _eliminate(self, group: list) -> None:
        """Managers eliminated together all take the lowest rank still available (ASD-A13) and score its
        playoff points at once."""
        rank = len(self.alive)
        for seat in group:
            self.rank[seat] = rank
            self.playoff_points[seat] = self.data.points(self.n, rank)
            self.alive.remove(seat)

    def _end_playoffs(self) -> None:
        n, prm = self.n, self.prm
        if self.alive:
            winner = self.alive[0]
            self.rank[winner] = 1
            self.playoff_points[winner] = self.data.points(n, 1)
            self._count(f"playoff_winner_seat:{winner}")
        else:
            self._count("playoff_no_winner")         # everyone left was eliminated at once (ASD-A13)
        per_ticket = prm["ticket_bonus_2"] if n == 2 else prm["ticket_bonus_3"] if n == 3 else 0
        for seat in range(n):
            self.bonus[seat] = per_ticket * self.tickets[seat]
        self._count("ticket_bonus", sum(self.bonus))
        self.phase, self.end_reason, self.todo = OVER, "season", []

    # --- handlers -----------------------------------------------------------------------------------------

    def _act_play_team(self, seat: int, action) -> None:
        if len(action) != 2:
            raise ValueError(f"{action!r}: ('play_team', card ids) expected")
        team = self._cards(action[1], self.prm["team_size"], self.hand[seat], "hand")
        self.hand[seat] = [c for c in self.hand[seat] if c not in team]
        self.team[seat] = team
        self._next()

    def _act_shoot(self, seat: int, action) -> None:
        card = self._one_card(action, self.hand[seat], "hand")
        self.hand[seat].remove(card)
        self.shots[seat] = card
        self._next()

    def _act_substitute(self, seat: int, action) -> None:
        """k cards from hand replace k team cards, min_substitution <= k <= max_substitution; the k team cards
        go to the box (ASD-A25)."""
        low, high = self._substitution_range(seat)
        k = len(action[1]) if len(action) == 3 and type(action[1]) in (tuple, list) else -1
        if not low <= k <= high:
            raise ValueError(f"{action!r}: ('substitute', {low} to {high} team cards, as many hand cards) expected")
        out = self._cards(action[1], k, self.team[seat], "team")
        into = self._cards(action[2], k, self.hand[seat], "hand")
        self.team[seat] = tuple(sorted([c for c in self.team[seat] if c not in out] + list(into)))
        self.hand[seat] = [c for c in self.hand[seat] if c not in into]
        self.box += out
        self._next()

    def _substitution_range(self, seat: int) -> tuple[int, int]:
        prm = self.prm
        return prm["min_substitution"], min(prm["max_substitution"], len(self.hand[seat]), len(self.team[seat]))

    # --- legal actions ------------------------------------------------------------------------------------

    def _legal_playoff_teams(self, seat: int) -> list:
        names = self.data.names
        return [("play_team", tuple(names[c] for c in team))
                for team in combinations(sorted(self.hand[seat]), self.prm["team_size"])]

    def _legal_substitutions(self, seat: int) -> list:
        names, (low, high) = self.data.names, self._substitution_range(seat)
        hand = sorted(self.hand[seat])
        return sorted(("substitute", tuple(names[c] for c in out), tuple(names[c] for c in into))
                      for k in range(low, high + 1) for out in combinations(self.team[seat], k)
                      for into in combinations(hand, k))


PLAYOFF_HANDLERS = {
    (PO_TEAM, "play_team"): PlayoffRules._act_play_team, (SHOOT, "shoot"): PlayoffRules._act_shoot,
    (SUBST, "substitute"): PlayoffRules._act_substitute,
}
PLAYOFF_LEGAL = {
    PO_TEAM: PlayoffRules._legal_playoff_teams,
    SHOOT: lambda st, seat: st._legal_cards("shoot", st.hand[seat]),
    SUBST: PlayoffRules._legal_substitutions,
}
