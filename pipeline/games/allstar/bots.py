"""Simple managers for All-Star Draft (all-star-draft.md §3.7), and `play_game`, a seeded driver for tests
and benchmarks.

Bots read the state's public attributes and build their action directly (the engine checks it): they never
enumerate legal actions on a hot path. Team strength is computed from group counts, not from 5-card subsets:
the best team of a pool has the key of the pool's best group (count capped at the team size), so one pass
over the pool finds it. Counts are kept in thousands, so that a group's key is count + data.gscore[side][g],
the engine's integer team key. Bots draw randomness only from the rng they are given.
"""

from __future__ import annotations

from pipeline.games.allstar.engine import GameData
from pipeline.games.allstar.engine.data import (BUS, DISCARD, GIVE, KEEP, PICK, PO_TEAM, SHOOT, SPECIAL_TIER, SUBST,
                                                SWAP, TAKE, TEAM)


def group_counts(cards, card_groups) -> dict:
    """Cards per group, in thousands."""
    counts: dict = {}
    get = counts.get
    for c in cards:
        a, b, d = card_groups[c]
        counts[a] = get(a, 0) + 1000
        counts[b] = get(b, 0) + 1000
        counts[d] = get(d, 0) + 1000
    return counts


def best_group(counts: dict, gscore, cap: int) -> tuple[int, int]:
    """(key, group) of a pool's best group: the key of its best team (cap = team size in thousands)."""
    best, group = -1, -1
    for g, k in counts.items():
        key = (k if k < cap else cap) + gscore[g]
        if key > best:
            best, group = key, g
    return best, group


def usefulness(counts: dict, card_groups, single):
    """Sort key of a card's worth to keep: the size of its biggest group, then its shootout strength."""
    def key(c):
        a, b, d = card_groups[c]
        return max(counts[a], counts[b], counts[d]) * 1000 + single[c]
    return key


def best_team(pool, data: GameData, side: int, size: int) -> tuple:
    """A strongest team of `size` cards from the pool (sorted integers): the best group's cards (weakest
    shootout cards first), then the least useful others (in the smallest groups, weakest card first)."""
    cg, single, scores, cap = data.card_groups, data.single[side], data.card_scores[side], size * 1000
    counts: dict = {}
    get = counts.get
    best, group = -1, -1
    for c in pool:                               # counts and the best group in one pass
        for g, score in scores[c]:
            k = counts[g] = get(g, 0) + 1000
            value = (k if k < cap else cap) + score
            if value > best:
                best, group = value, g
    members = [c for c in pool if group in cg[c]]
    if len(members) >= size:
        return tuple(sorted(sorted(members, key=single.__getitem__)[:size]))
    rest = sorted((c for c in pool if group not in cg[c]), key=usefulness(counts, cg, single))
    return tuple(sorted(members + rest[:size - len(members)]))


class DraftBot:
    """Drafts toward its bench's best group, swaps when a team improves, sends its strongest team where the
    winner earns most, and plays the strongest playoff team, card and substitution (§3.7)."""

    def __init__(self, seat: int):
        self.seat = seat
        self.counted = (None, 0, None, [], -1)   # bench list, cards counted, last of them, counts, best key
        self.ctx = (None, -1, (), 0)              # data, side, (group, score) pairs per card, team size * 1000

    def choose(self, state, rng):
        return _CHOICES[state.phase](self, state, rng)

    def _bench_counts(self, state) -> tuple[list, int]:
        """Group counts of the bench (in thousands, a list indexed by group) and its best-team key. A draft
        only appends to the bench list, so the previous pick's counts are extended with the new cards; any
        other change counts again."""
        ctx = self.ctx
        if ctx[0] is not state.data or ctx[1] != state.side:
            ctx = self.ctx = (state.data, state.side, state.data.card_scores[state.side],
                              state.prm["team_size"] * 1000)
        _, _, scores, cap = ctx
        bench = state.bench[self.seat]
        known, size, last, counts, base = self.counted
        if not (known is bench and len(bench) >= size and (size == 0 or bench[size - 1] == last)):
            counts, size, base = [0] * len(state.data.groups), 0, -1
        for c in bench[size:]:
            for g, score in scores[c]:
                k = counts[g] = counts[g] + 1000
                value = (k if k < cap else cap) + score
                if value > base:
                    base = value
        self.counted = (bench, len(bench), bench[-1] if bench else None, counts, base)
        return counts, base

    def _candidates(self, state, pool, sign: int = 1) -> list:
        """The pool cards whose addition gives the bench the best (sign 1) or worst (sign -1) best-team key.
        The hot path of every draft: a key is one addition."""
        counts, base = self._bench_counts(state)
        _, _, scores, cap = self.ctx
        best_key, best = None, []
        for c in pool:
            key = base
            for g, score in scores[c]:
                v = counts[g] + 1000
                v = (v if v < cap else cap) + score
                if v > key:
                    key = v
            key *= sign
            if best_key is None or key > best_key:
                best_key, best = key, [c]
            elif key == best_key:
                best.append(c)
        return best

    def _pick(self, state, rng):
        take = state.phase == TAKE
        best = self._candidates(state, state.market if take else state.packet[self.seat])
        card = best[0] if len(best) == 1 else best[rng.randrange(len(best))]
        return ("take" if take else "pick", state.data.names[card])

    def _give(self, state, rng):
        """Duel: the card that would help this bench least (the rest goes to the opponent anyway)."""
        worst = self._candidates(state, state.packet[self.seat], -1)
        single = state.data.single[state.side]
        return ("give", state.data.names[min(worst, key=single.__getitem__)])

    def _discard(self, state, rng):
        """Heritage/Duel: the card of this round whose loss keeps the bench's best team strongest."""
        data, side, bench = state.data, state.side, state.bench[self.seat]
        size, single = state.prm["team_size"], data.single[side]

        def kept(card):
            rest = list(bench)
            rest.remove(card)
            return best_group(group_counts(rest, data.card_groups), data.gscore[side], size * 1000)[0], -single[card]
        return ("discard", data.names[max(state.gained[self.seat], key=kept)])

    def _swap(self, state, rng):
        """The bench card that raises the team's best group most, in for a team card outside that group."""
        data, seat, t, side = state.data, self.seat, state.todo[-1][2], state.side
        scores, cap = data.card_scores[side], state.prm["team_size"] * 1000
        team = state.teams[seat][t]
        counts = group_counts(team, data.card_groups)
        get = counts.get
        best, choice = data.key_int(team, side), None      # the engine's (cached) key of the team
        for b in state.bench[seat]:
            for g, score in scores[b]:
                k = get(g, 0)
                if k < cap and k + 1000 + score > best:
                    best, choice = k + 1000 + score, (b, g)
        if choice is None:
            return ("no_swap", t)
        into, group = choice
        cg = data.card_groups
        out = min((c for c in team if group not in cg[c]), key=usefulness(counts, cg, data.single[side]))
        return ("swap", t, data.names[out], data.names[into])

    def _team(self, state, rng):
        team = best_team(state.bench[self.seat], state.data, state.side, state.prm["team_size"])
        return ("team", tuple(map(state.data.names.__getitem__, team)))

    def _buses(self, state, rng):
        """Arenas by top-rank points (highest first) each take the strongest team left for that arena (a team
        showing a combination the arena rewards is stronger there)."""
        data, side = state.data, state.side
        arenas = [data.arenas[a] for a in state.arenas]
        order = sorted(range(len(arenas)), key=lambda k: -arenas[k].points[0])
        teams = state.teams[self.seat]
        keys = [data.key_int(team, side) for team in teams]
        left, buses = list(range(len(teams))), [0] * len(teams)
        for k in order:
            special = arenas[k].special
            if special:
                pick = max(left, key=lambda t: keys[t] + (SPECIAL_TIER if data.flags(teams[t]) & special else 0))
            else:
                pick = max(left, key=keys.__getitem__)
            left.remove(pick)
            buses[pick] = k + 1
        return ("buses", tuple(buses))

    def _playoff_team(self, state, rng):
        team = best_team(state.hand[self.seat], state.data, state.side, state.prm["team_size"])
        return ("play_team", tuple(map(state.data.names.__getitem__, team)))

    def _shoot(self, state, rng):
        single = state.data.single[state.side]
        return ("shoot", state.data.names[max(state.hand[self.seat], key=single.__getitem__)])

    def _substitute(self, state, rng):
        """The k giving the best new team key, ties to the smallest k (keeps cards, §3.7). With k swaps a
        group of t team and h hand cards reaches min(t, size - k) + min(h, k) cards, which grows until
        k = min(h, size - t) and never grows after: that k, kept within the allowed range, is its best."""
        data, seat = state.data, self.seat
        cg, gs, single = data.card_groups, data.gscore[state.side], data.single[state.side]
        team, hand = state.team[seat], state.hand[seat]
        size = len(team)
        in_team, in_hand = group_counts(team, cg), group_counts(hand, cg)
        low, high = state._substitution_range(seat)
        full, low, high = size * 1000, low * 1000, high * 1000         # counts are in thousands
        tget, hget = in_team.get, in_hand.get
        best, best_k, g = -1, 0, -1
        for group in in_team.keys() | in_hand.keys():
            t, h = tget(group, 0), hget(group, 0)
            k = h if h < full - t else full - t
            k = low if k < low else high if k > high else k
            key = (t if t < full - k else full - k) + (h if h < k else k) + gs[group]
            if key > best:
                best, best_k, g = key, k, group
        k = best_k // 1000
        strength = single.__getitem__
        keep = sorted((c for c in team if g in cg[c]), key=strength, reverse=True)[:size - k]
        keep += sorted((c for c in team if c not in keep), key=strength, reverse=True)[:size - k - len(keep)]
        into = sorted((c for c in hand if g in cg[c]), key=strength)[:k]
        into += sorted((c for c in hand if c not in into), key=strength)[:k - len(into)]
        names = data.names
        return ("substitute", tuple(names[c] for c in team if c not in keep), tuple(names[c] for c in into))


_CHOICES = {
    PICK: DraftBot._pick, KEEP: DraftBot._pick, TAKE: DraftBot._pick, GIVE: DraftBot._give,
    DISCARD: DraftBot._discard, SWAP: DraftBot._swap, TEAM: DraftBot._team, BUS: DraftBot._buses,
    PO_TEAM: DraftBot._playoff_team, SHOOT: DraftBot._shoot, SUBST: DraftBot._substitute,
}


class RandomBot:
    """A uniformly random legal action; playoff teams and substitutions are sampled card by card instead of
    listing thousands of actions (k uniform, then the cards)."""

    def __init__(self, seat: int):
        self.seat = seat

    def choose(self, state, rng):
        names, seat = state.data.names, self.seat
        if state.phase == PO_TEAM:
            team = rng.sample(sorted(state.hand[seat]), state.prm["team_size"])
            return ("play_team", tuple(names[c] for c in sorted(team)))
        if state.phase == SUBST:
            low, high = state._substitution_range(seat)
            k = rng.randint(low, high)
            out, into = rng.sample(state.team[seat], k), rng.sample(sorted(state.hand[seat]), k)
            return ("substitute", tuple(names[c] for c in sorted(out)), tuple(names[c] for c in sorted(into)))
        actions = state.legal_actions()
        return actions[rng.randrange(len(actions))]


BOTS = {"draft": DraftBot, "random": RandomBot}
