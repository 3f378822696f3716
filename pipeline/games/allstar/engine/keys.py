"""All-Star Draft engine: the pure ranking functions of §3.2, §3.3 and §3.5 (team_key, arena_key,
competition ranks, power, single_key, the special combinations, the Bus Station column).

Cards are Card records (engine_data.Card) or mappings with symbol, number and species; the functions that
take `data` (a GameData) also accept card ids and engine integers. Keys are tuples compared with < and >;
inside the engine the same key is one integer, count * 1000 + tier * 100 + value rank (decode() converts).
"""

from __future__ import annotations

from itertools import combinations

ATTRIBUTES = ("symbol", "number", "species")
STRAIGHT, FULL_HOUSE, ALL_SYMBOLS = 1, 2, 4        # special-combination flags of a team


def side_of(players: int) -> int:
    """0 = the 2-4 side of the Tie-Breakers card, 1 = the 5-6 side."""
    return 0 if players <= 4 else 1


def _attr(card, name: str):
    return getattr(card, name) if isinstance(card, tuple) else card[name]


def power(team) -> int:
    """The size of the largest group of cards sharing a symbol, a number or a species (1..5)."""
    best = 0
    for attr in ATTRIBUTES:
        counts: dict = {}
        for card in team:
            v = _attr(card, attr)
            counts[v] = counts.get(v, 0) + 1
        best = max(best, max(counts.values(), default=0))
    return best


def is_straight(team) -> bool:
    """Numbers are consecutive integers, no wrap-around (1-2-3-4-5 … 5-6-7-8-9)."""
    numbers = sorted(int(_attr(card, "number")) for card in team)
    return len(set(numbers)) == len(numbers) and numbers[-1] - numbers[0] == len(numbers) - 1


def has_all_symbols(team, symbols: int = 5) -> bool:
    """The cards show `symbols` different symbols, each once."""
    shown = [_attr(card, "symbol") for card in team]
    return len(shown) == symbols and len(set(shown)) == symbols


def is_full_house(team) -> bool:
    """A split into 3 + the rest (2 for a team of 5): the 3 share some (attribute, value), the rest share
    another (attribute, value) (ASD-A5: five Ducks alone are not a full house)."""
    return _full_house([{(attr, _attr(card, attr)) for attr in ATTRIBUTES} for card in team])


def _full_house(sets: list) -> bool:
    """`sets`: per card, the groups it belongs to. Some 3 cards share a group, the others share a group,
    and the two groups can be told apart (not one same group on both sides)."""
    n = len(sets)
    if n == 5:
        return _full_house_of_5(sets)
    if n < 5:
        return False
    for three in combinations(range(n), 3):         # other team sizes: every split into 3 + the rest
        shared = sets[three[0]] & sets[three[1]] & sets[three[2]]
        if not shared:
            continue
        others = frozenset.intersection(*(frozenset(sets[i]) for i in range(n) if i not in three))
        if others and not (len(shared) == 1 and shared == others):
            return True
    return False


def _full_house_of_5(sets: list) -> bool:
    """The same test from group counts: a group A of 3+ cards, and the 2 cards left out of a triple of A
    sharing another group (5 in A: any other pair; 4: the outsider and one of A; 3: the two outsiders)."""
    counts: dict = {}
    for groups in sets:
        for g in groups:
            counts[g] = counts.get(g, 0) + 1
    for a, k in counts.items():
        if k == 5 and any(m >= 2 for g, m in counts.items() if g != a):
            return True
        outside = [groups for groups in sets if a not in groups]
        if k == 4 and any(counts[g] >= 2 for g in outside[0]):
            return True
        if k == 3 and outside[0] & outside[1]:
            return True
    return False


def competition_ranks(keys) -> list[int]:
    """1, 2, 2, 4 style: one plus the number of strictly better keys."""
    return [1 + sum(1 for other in keys if other > k) for k in keys]


def decode(key: int) -> tuple:
    """Integer team key -> (count, tier, vrank), the tuple of §3.2."""
    return key // 1000, key // 100 % 10, key % 100


def team_key(team, players: int, data) -> tuple:
    """(power, tier of the criterion that gives it: 3 gold / 2 silver / 1 bronze, value rank) of the best
    group (§3.2, ASD-A19); compare with < and >."""
    return decode(data.key_int(data.ints(team), side_of(players)))


def arena_key(team, players: int, arena, data) -> tuple:
    """(1 if the team shows a special combination this arena rewards else 0,) + team_key (§3.3)."""
    ints = data.ints(team)
    return (1 if data.flags(ints) & data.arena(arena).special else 0,) + decode(data.key_int(ints, side_of(players)))


def single_key(card, players: int, data) -> tuple:
    """A shootout card's (gold, silver, bronze) value ranks (§3.5, ASD-A20)."""
    c = data.ints([card])[0]
    return tuple(data.vrank(side_of(players), attr, getattr(data.cards[c], attr))
                 for attr in data.criteria[side_of(players)])


def bus_column(team, arena, data) -> int:
    """Bus Station column: 1 (leftmost) for power 5 … 5 for power 1; 0 for a team in the special tier of
    this arena (ASD-A24). `arena` None = no special icons."""
    ints = data.ints(team)
    if arena is not None and data.flags(ints) & data.arena(arena).special:
        return 0
    return 6 - power([data.cards[c] for c in ints])
