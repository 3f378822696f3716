"""Build It engine, data half: constants, plot names, and the workbook's rows prepared once per game data.

Pure: the standard library and the game's geometry module only (tests/architecture/test_engine_purity.py checks it).
A `GameData` is read-only once built and shared by every state and bot of every game played with it.
"""

from __future__ import annotations

from typing import NamedTuple

from pipeline.games.buildit.engine import geometry
from pipeline.games.engine_base import check_typed_params

CHANCE, TERMINAL = -1, -2
FREE = -1
PERMIT, SITE, BUILT = 0, 1, 2            # pawn kinds; a board cell holds seat * 3 + kind, or FREE
KINDS = ("permit", "site", "construction")

# Phases say who acts and which actions exist (DESIGN.md: phases are data, not nested ifs).
SETUP_CITY, SETUP_DEAL, SETUP_FIRST, DRAW, DRAW_CHANCE, MAIN, REACT, OFFER, THEFT, OVER = range(10)
PHASE_NAMES = ("setup_city", "setup_deal", "setup_first", "draw", "draw_chance", "main", "react", "offer",
               "theft", "over")
CHANCE_PHASES = frozenset((SETUP_CITY, SETUP_DEAL, SETUP_FIRST, DRAW_CHANCE, THEFT))
END_REASONS = ("calendar", "contracts", "high_density", "all", "cap")

# The rule parameters' one declaration: names, types and ranges (schema.py adds the designer's docs and
# builds the `rules` sheet's columns from it; the engine refuses a bad value on its own).
PARAMETERS = {
    "board_size": ("int", 3, 20), "rounds": ("int", 1, 40), "players_min": ("int", 1, 8),
    "players_max": ("int", 1, 8), "start_gold": ("int", 0, 100), "income": ("int", 0, 20),
    "start_hand": ("int", 0, 10), "draw_per_turn": ("int", 0, 5), "permit_cost": ("int", 0, 20),
    "site_cost": ("int", 0, 20), "build_cost_mode": ("enum", "per_plot", "flat"),
    "build_cost_per_plot": ("int", 0, 20), "build_cost_flat": ("int", 0, 50), "sale_price_permit": ("int", 0, 20),
    "sale_price_site": ("int", 0, 20), "pawns_per_state": ("int", 1, 64), "coins": ("int", 0, 500),
    "city_points_timing": ("enum", "on_build", "end"), "build_target": ("enum", "maximal", "any_connected_subset"),
    "contract_match": ("enum", "exact", "contains"), "allow_rotation": ("bool",), "allow_reflection": ("bool",),
    "variant_auctions": ("bool",), "variant_contractual": ("bool",), "variant_high_density": ("bool",),
    "variant_contractual_players_min": ("int", 1, 8),
    "end_when": ("enum", "refuse", "all"), "max_actions_per_turn": ("int", 10, 10000), "max_rounds": ("int", 1, 1000),
}

# Card behaviour keys on the `model` column.
MODELS = ("coin_gain", "cancel", "contract_theft", "sabotage", "strike", "demolition", "forced_purchase",
          "form_expert", "pass_a38", "overqualified_workers", "shoddy_tools")
PLOT_KIND = {"sabotage": PERMIT, "strike": SITE, "demolition": BUILT, "forced_purchase": PERMIT}
MODIFIERS = {  # model -> (pawn kind whose next purchase it changes, sign of the change)
    "form_expert": (PERMIT, -1), "pass_a38": (PERMIT, +1),
    "overqualified_workers": (SITE, -1), "shoddy_tools": (SITE, +1),
}
REWARDS = ("gold", "points", "immunity")


def plot_name(plot: int, size: int = 8) -> str:
    """0 -> "a1": columns a, b, … from the left, rows 1, 2, … from the top."""
    return f"{chr(97 + plot % size)}{plot // size + 1}"


def plot_index(name: str, size: int = 8) -> int:
    """"c3" -> 18 (row 3, column c: (3 - 1) * size + 2)."""
    col, row = ord(name[0].lower()) - 97, int(name[1:]) - 1
    if not (0 <= col < size and 0 <= row < size):
        raise ValueError(f"{name!r} is not a plot of a {size}×{size} board")
    return row * size + col


class Contract(NamedTuple):
    id: str
    name: str
    size: int
    reward_type: str
    reward_value: int
    immune_to: str | None
    copies: int
    cells: frozenset             # the plan as drawn on the card, (row, column)
    canon: tuple                 # canonical form of the plan (under the rotation/reflection rules)
    variants: tuple              # the plan's distinct normalised images, for contract_match = contains


class City(NamedTuple):
    id: str
    name: str
    sections: tuple              # ((points, plots, canonical form, cells), …), best first


class Card(NamedTuple):
    id: str
    model: str
    name: str
    copies: int
    cost: int
    cost_rule: str
    timing: str
    target: str
    persistent: bool
    value: int


class Pile:
    """A face-down deck: `order` is its known part (top card last, drawn first), `counts` the shuffled rest."""

    __slots__ = ("order", "counts", "size")

    def __init__(self, order=(), counts=None):
        self.order = list(reversed(order))
        self.counts = {k: v for k, v in sorted((counts or {}).items()) if v > 0}   # kept sorted: stable outcomes
        self.size = len(self.order) + sum(self.counts.values())

    def copy(self) -> "Pile":
        pile = Pile.__new__(Pile)
        pile.order, pile.counts, pile.size = self.order[:], dict(self.counts), self.size
        return pile

    def frozen(self) -> tuple:
        return tuple(self.order), tuple(sorted(self.counts.items())), self.size

    def outcomes(self) -> list:
        if self.order:
            return [(self.order[-1], 1.0)]
        size = self.size
        return [(card, n / size) for card, n in self.counts.items()]

    def only(self):
        """The card a draw must give when only one is possible, else None."""
        if self.order:
            return self.order[-1]
        return next(iter(self.counts)) if len(self.counts) == 1 else None

    def take(self, card) -> None:
        if self.order:
            if self.order[-1] != card:
                raise ValueError(f"{card!r} is not the top card")
            self.order.pop()
        else:
            n = self.counts.get(card, 0) if isinstance(card, str) else 0
            if not n:
                raise ValueError(f"{card!r} is not in the pile")
            if n == 1:
                del self.counts[card]
            else:
                self.counts[card] = n - 1
        self.size -= 1


def check_params(params: dict) -> None:
    """Every parameter present, typed and in range; variants that contradict each other refused (BI-A7)."""
    check_typed_params(PARAMETERS, params)
    if params["variant_contractual"] and params["variant_high_density"] and params["end_when"] == "refuse":
        raise ValueError("variants_conflict: variant_contractual and variant_high_density both redefine the end "
                         "of the game (BI-A7); set end_when to all to require both")
    if params["players_min"] > params["players_max"]:
        raise ValueError(f"players_min {params['players_min']} is above players_max {params['players_max']}")


class GameData:
    """Cards, cities and rule parameters of one workbook, with the board geometry they imply."""

    def __init__(self, contracts: dict, cities: dict, cards: dict, params: dict):
        check_params(params)
        self.params = dict(params)
        self.contracts, self.cities, self.cards = contracts, cities, cards
        self.city_ids = tuple(sorted(cities))
        self.contract_deck = {cid: c.copies for cid, c in sorted(contracts.items()) if c.copies > 0}
        self.normal_deck = {cid: c.copies for cid, c in sorted(cards.items()) if c.copies > 0}
        self.cancel_ids = frozenset(cid for cid, c in cards.items() if c.model == "cancel")
        self.size = size = params["board_size"]
        self.nplots = size * size
        self.adj = tuple(_neighbours(p, size) for p in range(size * size))
        self.rotation, self.reflection = params["allow_rotation"], params["allow_reflection"]
        self._shapes: dict = {}          # normalised cells -> canonical form (a pure cache)
        self._placements: dict = {}      # contract id -> every placement on the board (bots)
        self._by_plot: dict = {}         # contract id -> per plot, the indices of the placements covering it

    @classmethod
    def from_rows(cls, contracts: list[dict], cities: list[dict], normal_cards: list[dict],
                  params: dict) -> "GameData":
        """Plain dict rows with the columns of schema.py, and the typed `rules` parameters."""
        check_params(params)
        rot, refl = params["allow_rotation"], params["allow_reflection"]
        return cls({r["id"]: _contract(r, rot, refl) for r in contracts},
                   {r["id"]: _city(r, rot, refl) for r in cities},
                   {r["id"]: _card(r) for r in normal_cards}, params)

    def with_params(self, **changes) -> "GameData":
        """The same cards under changed rule parameters (contract/city forms are rebuilt: they depend on rules)."""
        params = {**self.params, **changes}
        if {"allow_rotation", "allow_reflection"} & set(changes):
            rot, refl = params["allow_rotation"], params["allow_reflection"]
            contracts = {k: _reform_contract(c, rot, refl) for k, c in self.contracts.items()}
            cities = {k: _reform_city(c, rot, refl) for k, c in self.cities.items()}
            return GameData(contracts, cities, self.cards, params)
        return GameData(self.contracts, self.cities, self.cards, params)

    # --- shapes -------------------------------------------------------------------------------------------

    def shape(self, plots) -> tuple:
        """Canonical form of a set of plots under this game's rotation/reflection rules."""
        size = self.size
        key = geometry.normalise([divmod(p, size) for p in plots])
        form = self._shapes.get(key)
        if form is None:
            form = self._shapes[key] = geometry.canonical(key, self.rotation, self.reflection)
        return form

    def contract_fits(self, contract_id: str, plots, form=None) -> bool:
        """Does a building fulfil this Contract (contract_match: exact shape, or contains the plan)?"""
        contract = self.contracts[contract_id]
        if self.params["contract_match"] == "exact":
            return len(plots) == contract.size and (form or self.shape(plots)) == contract.canon
        return len(plots) >= contract.size and _contains(plots, contract.variants, self.size)

    def city_points(self, city_id: str | None, plots) -> int:
        """Points of the best City section the building matches exactly (3, 2, 1 or 0)."""
        if city_id is None:
            return 0
        form = None
        for points, size, canon, _ in self.cities[city_id].sections:
            if len(plots) == size:
                form = form or self.shape(plots)
                if form == canon:
                    return points
        return 0

    def placements(self, contract_id: str) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
        """Every (plots, ring) where the Contract's plan fits on the board; ring = the N8 plots around it."""
        found = self._placements.get(contract_id)
        if found is None:
            found = self._placements[contract_id] = _placements(self.contracts[contract_id].variants,
                                                                 self.size, self.adj)
        return found

    def placements_covering(self, contract_id: str) -> tuple[tuple[int, ...], ...]:
        """Per plot, the indices in placements(contract_id) of the placements that use that plot."""
        index = self._by_plot.get(contract_id)
        if index is None:
            cover = [[] for _ in range(self.nplots)]
            for i, (plots, _) in enumerate(self.placements(contract_id)):
                for p in plots:
                    cover[p].append(i)
            index = self._by_plot[contract_id] = tuple(tuple(c) for c in cover)
        return index


def _neighbours(plot: int, size: int) -> tuple[int, ...]:
    r, c = divmod(plot, size)
    return tuple((r + dr) * size + c + dc for dr, dc in geometry.N8 if 0 <= r + dr < size and 0 <= c + dc < size)


def _contains(plots, variants, size: int) -> bool:
    cells = {divmod(p, size) for p in plots}
    for variant in variants:
        r0, c0 = variant[0]
        for r, c in cells:
            if all((r + dr - r0, c + dc - c0) in cells for dr, dc in variant):
                return True
    return False


def _placements(variants, size: int, adj) -> list:
    found = []
    for variant in variants:
        height = 1 + max(r for r, _ in variant)
        width = 1 + max(c for _, c in variant)
        for top in range(size - height + 1):
            for left in range(size - width + 1):
                plots = tuple(sorted((top + r) * size + left + c for r, c in variant))
                ring = sorted({q for p in plots for q in adj[p]} - set(plots))
                found.append((plots, tuple(ring)))
    return found


def _plan(text: str, where: str):
    cells = geometry.parse_plan(text or "")
    if not cells or not geometry.is_connected(cells):
        raise ValueError(f"{where}: plan {text!r} is empty or not connected under 8-adjacency")
    return cells


def _contract(row: dict, rot: bool, refl: bool) -> Contract:
    cells = _plan(row["plan"], f"contract {row['id']}")
    reward = row["reward_type"]
    if reward not in REWARDS:
        raise ValueError(f"contract {row['id']}: reward_type {reward!r} is not one of {', '.join(REWARDS)}")
    if reward == "immunity" and row.get("immune_to") not in MODIFIERS:
        raise ValueError(f"contract {row['id']}: immune_to {row.get('immune_to')!r} is not a card model it "
                         "can protect against")
    return Contract(row["id"], row.get("name") or row["id"], len(cells), reward, row.get("reward_value") or 0,
                    row.get("immune_to"), int(row.get("copies") or 0), cells, *_forms(cells, rot, refl))


def _forms(cells, rot: bool, refl: bool) -> tuple[tuple, tuple]:
    return geometry.canonical(cells, rot, refl), tuple(sorted(set(geometry.variants(cells, rot, refl))))


def _reform_contract(c: Contract, rot: bool, refl: bool) -> Contract:
    canon, variants = _forms(c.cells, rot, refl)
    return c._replace(canon=canon, variants=variants)


def _city(row: dict, rot: bool, refl: bool) -> City:
    sections = []
    for points, column in ((3, "plan3"), (2, "plan2"), (1, "plan1")):
        cells = _plan(row[column], f"city {row['id']} {column}")
        sections.append((points, len(cells), geometry.canonical(cells, rot, refl), cells))
    return City(row["id"], row.get("name") or row["id"], tuple(sections))


def _reform_city(city: City, rot: bool, refl: bool) -> City:
    return city._replace(sections=tuple((pts, n, geometry.canonical(cells, rot, refl), cells)
                                        for pts, n, _, cells in city.sections))


def _card(row: dict) -> Card:
    if row["model"] not in MODELS:
        raise ValueError(f"normal card {row['id']}: unknown model {row['model']!r} (the engine knows "
                         f"{', '.join(MODELS)})")
    return Card(row["id"], row["model"], row.get("name") or row["id"], int(row.get("copies") or 0),
                int(row.get("cost") or 0), row.get("cost_rule") or "fixed", row.get("timing") or "own_turn",
                row.get("target") or "none", bool(row.get("persistent")), int(row.get("value") or 0))
