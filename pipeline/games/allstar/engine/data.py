"""All-Star Draft engine, data half: constants, rule parameters, and the workbook's rows prepared once.

Pure: the standard library only (tests/architecture/test_engine_purity.py checks it). A `GameData` is read-only once built
and shared by every state and bot of every game played with it (its one cache, special-combination flags per
team, is a pure function of the team).

Cards are integers inside the engine: their index in the hockey rows sorted by id, so that sorting integers
sorts ids. Actions and chance outcomes carry the ids themselves ("bear_4"); `data.index` converts.
"""

from __future__ import annotations

from bisect import bisect_left
from itertools import repeat
from typing import NamedTuple

from pipeline.games.allstar.engine.keys import ALL_SYMBOLS, ATTRIBUTES, FULL_HOUSE, STRAIGHT, _full_house
from pipeline.games.engine_base import check_typed_params

CHANCE, TERMINAL = -1, -2
SIDES = ("2-4", "5-6")                  # Tie-Breakers sides: N <= 4 reads the first, N >= 5 the second
ICONS = ("unusual_count", "not_for_2", "straight_beats_5", "full_house_beats_5", "all_symbols_beats_5")
MODES = ("classic", "heritage", "duel", "open_market")
DUO_MODES = MODES[1:]          # what the `mode` parameter may name: the rulebook's modes for two
SPECIAL_FLAGS = {"straight_beats_5": STRAIGHT, "full_house_beats_5": FULL_HOUSE, "all_symbols_beats_5": ALL_SYMBOLS}
SPECIAL_TIER = 1_000_000    # added to a special team's integer key: the tier above every team_key (§3.3)

# The rule parameters' one declaration: names, types and ranges (schema.py adds the designer's docs and
# builds the `rules` sheet's columns from it; the engine refuses a bad value on its own).
PARAMETERS = {
    "players_min": ("int", 2, 6), "players_max": ("int", 2, 6), "rounds": ("int", 1, 5),
    "hand_size": ("int", 2, 12), "team_size": ("int", 2, 8), "species_per_manager": ("int", 1, 3),
    "tickets_2": ("int", 0, 4), "tickets_3": ("int", 0, 4), "tickets_4plus": ("int", 0, 4),
    "ticket_bonus_2": ("int", 0, 20), "ticket_bonus_3": ("int", 0, 20),
    "swaps_per_round": ("enum", "per_team", "one_total"), "playoff_weakest_by": ("enum", "power", "full_key"),
    "min_substitution": ("int", 1, 5), "max_substitution": ("int", 1, 5), "mode": ("enum",) + DUO_MODES,
    "duo_hand_size": ("int", 3, 12), "duo_species": ("int", 3, 12), "open_market_species": ("int", 3, 12),
    "final_tiebreak_includes_ticket_bonus": ("bool",), "track_length": ("int", 10, 100),
    "max_steps": ("int", 100, 1_000_000),
}


class Card(NamedTuple):
    id: str
    species: str
    number: int
    symbol: str
    index: int                  # the engine's integer for this card


class Arena(NamedTuple):
    id: str
    name: str
    points: tuple               # p1..p6: supporters by rank
    icons: tuple                # icon ids, in sheet order
    special: int                # STRAIGHT | FULL_HOUSE | ALL_SYMBOLS flags of its special icons
    index: int

# Phases say who acts and which actions exist (DESIGN.md: phases are data, not nested ifs). The first five
# are chance nodes: species choice, arena reveal, a dealt card, Open Market's first chooser and reveals.
(SPECIES, ARENA, DEAL, OM_FIRST, OM_REVEAL, PICK, KEEP, GIVE, DISCARD, TAKE, SWAP, TEAM, BUS, PO_TEAM, SHOOT,
 SUBST, OVER) = range(17)
PHASE_NAMES = ("species", "arena", "deal", "open_market_first", "open_market_reveal", "pick", "keep", "give",
               "discard", "take", "swap", "team", "buses", "playoff_team", "shootout", "substitute", "over")
FIRST_DECISION = PICK           # phase < FIRST_DECISION: a chance node


def check_params(params: dict) -> None:
    """Every parameter present, typed and in range; parameters that contradict each other refused."""
    check_typed_params(PARAMETERS, params)
    _order("players_min", "players_max", params)
    _order("min_substitution", "max_substitution", params)
    _order("min_substitution", "team_size", params)


def _order(low: str, high: str, params: dict) -> None:
    if params[low] > params[high]:
        raise ValueError(f"rule parameter {low} = {params[low]} is above {high} = {params[high]}")


class Deck:
    """The face-down hockey deck: sorted card integers and their ids side by side. A deal's chance outcomes
    are built from the ids in C (the hottest node of a game), a card is found by bisection."""

    __slots__ = ("cards", "names")

    def __init__(self, cards=(), names: tuple = ()):
        self.cards = sorted(cards)
        self.names = [names[c] for c in self.cards]       # sorted too: integers follow the ids' order

    def __len__(self) -> int:
        return len(self.cards)

    def outcomes(self) -> list:
        return list(zip(self.names, repeat(1 / len(self.names))))

    def take(self, name) -> int:
        """Remove the card with this id and return its integer; ValueError if it is not in the deck."""
        names = self.names
        i = bisect_left(names, name) if type(name) is str else len(names)
        if i == len(names) or names[i] != name:
            raise ValueError(f"{name!r} is not a card of the deck")
        card = self.cards[i]
        del self.cards[i], names[i]
        return card

    def copy(self) -> "Deck":
        deck = Deck.__new__(Deck)
        deck.cards, deck.names = list(self.cards), list(self.names)
        return deck

    def frozen(self) -> tuple:
        return tuple(self.cards)


class GameData:
    """Cards, orders, arenas, playoff points and rule parameters of one workbook, prepared for the engine."""

    def __init__(self, rows: dict, params: dict):
        check_params(params)
        self.rows, self.params = rows, dict(params)
        self.species_ids = tuple(r["id"] for r in rows["species"])
        self.symbol_ids = tuple(r["id"] for r in rows["symbols"])
        self.cards = _cards(rows["hockey"], self.species_ids, self.symbol_ids)
        self.index = {card.id: card.index for card in self.cards}
        self.names = tuple(card.id for card in self.cards)
        self.species_cards = {s: tuple(c.index for c in self.cards if c.species == s) for s in self.species_ids}
        self.numbers = tuple(sorted({card.number for card in self.cards}))
        values = {"symbol": self.symbol_ids, "number": self.numbers, "species": self.species_ids}
        self.criteria = _criteria(rows["tiebreak_sides"])
        self.orders = _orders(rows["orders"], values)
        self._groups(values)
        self.arenas = tuple(_arena(row, i) for i, row in enumerate(rows["arenas"]))
        self.arena_index = {a.id: a.index for a in self.arenas}
        if len(self.arena_index) != len(self.arenas):
            raise ValueError("arenas: two rows have the same id")
        self.playoff_points = _playoff_points(rows["playoff_points"], params)
        self._flags: dict = {}
        self._keys: tuple = ({}, {})

    @classmethod
    def from_rows(cls, species: list, symbols: list, hockey: list, orders: list, tiebreak_sides: list,
                  arenas: list, playoff_points: list, params: dict) -> "GameData":
        """Plain dict rows with the columns of schema.py, and the typed `rules` parameters."""
        return cls({"species": list(species), "symbols": list(symbols), "hockey": list(hockey),
                    "orders": list(orders), "tiebreak_sides": list(tiebreak_sides), "arenas": list(arenas),
                    "playoff_points": list(playoff_points)}, params)

    def with_params(self, **changes) -> "GameData":
        """The same rows under changed rule parameters."""
        return GameData(self.rows, {**self.params, **changes})

    # --- what the engine and bots read ---------------------------------------------------------------------

    def _groups(self, values: dict) -> None:
        """A group is one (attribute, value); each card belongs to 3. gscore[side][g] = tier * 100 + vrank,
        tier 3/2/1 = gold/silver/bronze, vrank = len(order) - position (bigger = stronger)."""
        groups = [(attr, v) for attr in ATTRIBUTES for v in values[attr]]
        gindex = {g: i for i, g in enumerate(groups)}
        self.groups = tuple(groups)
        self.card_groups = tuple((gindex["symbol", c.symbol], gindex["number", c.number], gindex["species", c.species])
                                 for c in self.cards)
        self.group_sets = tuple(frozenset(g) for g in self.card_groups)
        self.gscore, self.single, self._vranks, self.card_scores = [], [], [], []
        for side in range(2):
            crit = self.criteria[side]
            vrank = {(attr, v): len(order) - i
                     for attr, order in self.orders[side].items() for i, v in enumerate(order)}
            tier = {attr: 3 - i for i, attr in enumerate(crit)}
            self.gscore.append(tuple(tier[attr] * 100 + vrank[attr, v] for attr, v in groups))
            gs = self.gscore[-1]        # per card, its 3 (group, group score) pairs: the bots' hot loops
            self.card_scores.append(tuple(tuple((g, gs[g]) for g in cg) for cg in self.card_groups))
            self.single.append(tuple(_single(vrank, crit, card) for card in self.cards))
            self._vranks.append(vrank)

    def vrank(self, side: int, attribute: str, value) -> int:
        return self._vranks[side][attribute, value]

    def key_int(self, team: tuple, side: int) -> int:
        """team_key as one integer: count * 1000 + tier * 100 + vrank of the best group (§3.2). Cached by
        sorted team tuple: teams play several rounds and bots weigh them again."""
        cache = self._keys[side]
        key = cache.get(team)
        if key is None:
            if len(cache) > 200_000:
                cache.clear()
            gs, cg, counts = self.gscore[side], self.card_groups, {}
            get = counts.get
            for c in team:
                for g in cg[c]:
                    counts[g] = get(g, 0) + 1000
            key = 0
            for g, k in counts.items():
                if k + gs[g] > key:
                    key = k + gs[g]
            cache[team] = key
        return key

    def flags(self, team: tuple) -> int:
        """STRAIGHT | FULL_HOUSE | ALL_SYMBOLS of a sorted team tuple (cached: arenas and bots ask often)."""
        found = self._flags.get(team)
        if found is None:
            if len(self._flags) > 200_000:
                self._flags.clear()
            numbers = sorted(self.cards[c].number for c in team)
            straight = len(set(numbers)) == len(numbers) and numbers[-1] - numbers[0] == len(numbers) - 1
            symbols = {self.card_groups[c][0] for c in team}
            found = ((STRAIGHT if straight else 0)
                     | (FULL_HOUSE if _full_house([self.group_sets[c] for c in team]) else 0)
                     | (ALL_SYMBOLS if len(team) == len(symbols) == len(self.symbol_ids) else 0))
            self._flags[team] = found
        return found

    def ints(self, team) -> tuple:
        """Cards given as Card records, ids or integers -> sorted engine integers."""
        out = []
        for card in team:
            if isinstance(card, Card):
                out.append(card.index)
            elif isinstance(card, str) and card in self.index:
                out.append(self.index[card])
            elif isinstance(card, int) and not isinstance(card, bool) and 0 <= card < len(self.cards):
                out.append(card)
            else:
                raise ValueError(f"{card!r} is not a hockey card")
        return tuple(sorted(out))

    def arena(self, arena) -> Arena:
        if isinstance(arena, Arena):
            return arena
        if arena in self.arena_index:
            return self.arenas[self.arena_index[arena]]
        raise ValueError(f"{arena!r} is not an arena")

    def points(self, players: int, rank: int) -> int:
        return self.playoff_points[players, rank]


# --- rows -> records ---------------------------------------------------------------------------------------

def _cards(rows: list, species: tuple, symbols: tuple) -> tuple:
    parsed, seen = [], set()
    for row in rows:
        number = _int(row.get("number"), f"hockey {row.get('id')}: number")
        if row.get("species") not in species:
            raise ValueError(f"hockey {row.get('id')}: unknown species {row.get('species')!r}")
        if row.get("symbol") not in symbols:
            raise ValueError(f"hockey {row.get('id')}: unknown symbol {row.get('symbol')!r}")
        if (row["species"], number) in seen:
            raise ValueError(f"hockey {row.get('id')}: a second card {row['species']} {number}")
        seen.add((row["species"], number))
        parsed.append((str(row["id"]), row["species"], number, row["symbol"]))
    parsed.sort()
    if len({p[0] for p in parsed}) != len(parsed):
        raise ValueError("hockey: two cards have the same id")
    return tuple(Card(*p, i) for i, p in enumerate(parsed))


def _int(value, where: str) -> int:
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise ValueError(f"{where} {value!r} is not a number") from None
    if number != value and str(number) != str(value).strip():
        raise ValueError(f"{where} {value!r} is not a whole number")
    return number


def _criteria(rows: list) -> tuple:
    found = {}
    for row in rows:
        crit = (row.get("gold"), row.get("silver"), row.get("bronze"))
        if sorted(crit) != sorted(ATTRIBUTES):
            raise ValueError(f"tiebreak_sides {row.get('side')}: gold/silver/bronze {crit} is not a permutation of "
                             f"{', '.join(ATTRIBUTES)}")
        found[row.get("side")] = crit
    missing = [s for s in SIDES if s not in found]
    if missing:
        raise ValueError(f"tiebreak_sides: no row for side {', '.join(missing)}")
    return tuple(found[s] for s in SIDES)


def _orders(rows: list, values: dict) -> tuple:
    """Per side, attribute -> values strongest first. A side without rows for an attribute reads the other
    side's order (ASD-A2: same orders on both sides unless authored otherwise)."""
    table: dict = {}
    for row in rows:
        attr, value = row.get("attribute"), row.get("value")
        if attr == "number":
            value = _int(value, f"orders {row.get('side')} number: value")
        position = _int(row.get("position"), f"orders {row.get('side')} {attr}: position")
        table.setdefault((row.get("side"), attr), {})[position] = value
    sides = []
    for side in SIDES:
        orders = {}
        for attr in ATTRIBUTES:
            found = table.get((side, attr)) or table.get((SIDES[1 - SIDES.index(side)], attr))
            if not found:
                raise ValueError(f"orders: no {attr} order on either side")
            order = tuple(found[p] for p in sorted(found))
            if sorted(map(str, order)) != sorted(map(str, values[attr])) or len(set(order)) != len(order):
                raise ValueError(f"orders side {side} {attr}: {list(order)} is not an order of "
                                 f"{sorted(values[attr], key=str)}")
            orders[attr] = order
        sides.append(orders)
    return tuple(sides)


def _single(vrank: dict, crit: tuple, card: Card) -> int:
    """single_key as one integer: gold, silver, bronze value ranks in base 100."""
    a, b, c = (vrank[attr, getattr(card, attr)] for attr in crit)
    return a * 10_000 + b * 100 + c


def _arena(row: dict, index: int) -> Arena:
    points = tuple(_int(row.get(f"p{r}"), f"arenas {row.get('id')}: p{r}") for r in range(1, 7))
    if min(points) < 0:
        raise ValueError(f"arenas {row.get('id')}: negative supporter points")
    icons = tuple(i.strip() for i in str(row.get("icons") or "").split(",") if i.strip())
    unknown = [i for i in icons if i not in ICONS]
    if unknown:
        raise ValueError(f"arenas {row.get('id')}: unknown icon {', '.join(unknown)} (known: {', '.join(ICONS)})")
    special = 0
    for icon in icons:
        special |= SPECIAL_FLAGS.get(icon, 0)
    return Arena(str(row["id"]), row.get("name") or str(row["id"]), points, icons, special, index)


def _playoff_points(rows: list, params: dict) -> dict:
    table = {}
    for row in rows:
        managers = _int(row.get("managers"), "playoff_points: managers")
        rank = _int(row.get("rank"), "playoff_points: rank")
        table[managers, rank] = _int(row.get("points"), f"playoff_points {managers}/{rank}: points")
    for n in range(params["players_min"], params["players_max"] + 1):
        missing = [r for r in range(1, n + 1) if (n, r) not in table]
        if missing:
            raise ValueError(f"playoff_points: no points for {n} managers, rank {', '.join(map(str, missing))}")
    return table
