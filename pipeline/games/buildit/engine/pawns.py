"""Build It engine, pawn half of a turn: Permits, Sites, builds, Contract fulfilment, sales and offers.

Mixed into engine.State. Every `_act_*` method checks the whole action first and raises ValueError before it
changes anything, so a refused action leaves the state as it was.
"""

from __future__ import annotations

from bisect import bisect

from pipeline.games.buildit.engine.data import BUILT, FREE, MODIFIERS, OFFER, PERMIT, SITE, plot_name


def without(items: tuple, item) -> tuple:
    """The sorted tuple less one copy of item."""
    i = items.index(item)
    return items[:i] + items[i + 1:]


def with_(items: tuple, item) -> tuple:
    """The sorted tuple plus one copy of item, still sorted."""
    i = bisect(items, item)
    return items[:i] + (item,) + items[i:]


class PawnRules:
    __slots__ = ()

    # --- costs and supply (bots read these too) -----------------------------------------------------------

    def permit_cost(self, seat: int) -> int:
        return self._modified_cost(seat, PERMIT, self.prm["permit_cost"])

    def site_cost(self, seat: int) -> int:
        return self._modified_cost(seat, SITE, self.prm["site_cost"])

    def _modified_cost(self, seat: int, kind: int, cost: int) -> int:
        # BI-A8: every pending modifier of that kind applies to the next purchase; the cost never drops below 0
        front = self.front[seat]
        if not front:
            return cost
        cards = self.data.cards
        for card_id in front:
            card = cards[card_id]
            mod = MODIFIERS.get(card.model)
            if mod and mod[0] == kind:
                cost += mod[1] * (card.value or 1)
        return cost if cost > 0 else 0

    def build_cost(self, plots: int) -> int:
        prm = self.prm
        return prm["build_cost_per_plot"] * plots if prm["build_cost_mode"] == "per_plot" else prm["build_cost_flat"]

    def supply(self, seat: int, kind: int) -> int:
        """Pawns of that kind the player still has off the board."""
        return self.prm["pawns_per_state"] - len(self.owned[seat * 3 + kind])

    # --- board primitives ---------------------------------------------------------------------------------

    def _put(self, plot: int, seat: int, kind: int) -> None:
        code = seat * 3 + kind
        self.board[plot] = code
        self.owned[code].add(plot)

    def _lift(self, plot: int) -> None:
        self.owned[self.board[plot]].discard(plot)
        self.board[plot] = FREE

    def component(self, plot: int) -> set[int]:
        """The N8-connected plots holding the same pawn (owner and kind) as `plot`."""
        board, adj = self.board, self.data.adj
        code = board[plot]
        seen, stack = {plot}, [plot]
        while stack:
            for q in adj[stack.pop()]:
                if board[q] == code and q not in seen:
                    seen.add(q)
                    stack.append(q)
        return seen

    def groups(self, seat: int, kind: int) -> list[set[int]]:
        """A player's N8 groups of one kind (kind BUILT: their buildings), ordered by smallest plot."""
        left, found = set(self.owned[seat * 3 + kind]), []
        for plot in sorted(left):
            if plot in left:
                group = self.component(plot)
                left -= group
                found.append(group)
        return found

    def _plot(self, action: tuple, i: int) -> int:
        plot = action[i] if len(action) > i else None
        if type(plot) is not int or not 0 <= plot < self.data.nplots:
            raise ValueError(f"{action!r}: {plot!r} is not a plot")
        return plot

    def _seat_arg(self, value, allow_bank: bool = False) -> int:
        if type(value) is not int or not (-1 if allow_bank else 0) <= value < self.n:
            raise ValueError(f"{value!r} is not a seat")
        return value

    def _need(self, ok: bool, why: str) -> None:
        if not ok:
            raise ValueError(why)

    # --- Permit, Site, Build ------------------------------------------------------------------------------

    def _act_permit(self, seat: int, action: tuple) -> None:
        seat, plot = self.seat, self._plot(action, 1)
        cost = self.permit_cost(seat)
        self._need(len(action) == 2 and self.board[plot] == FREE, f"{plot_name(plot, self.data.size)} is not free")
        self._need(self.supply(seat, PERMIT) > 0, "no Permit pawn left in supply")
        self._need(self.gold[seat] >= cost, f"a Permit costs {cost} gold")
        self.gold[seat] -= cost
        self._put(plot, seat, PERMIT)
        self._discard_front(seat, PERMIT)

    def _act_site(self, seat: int, action: tuple) -> None:
        seat, plot = self.seat, self._plot(action, 1)
        cost = self.site_cost(seat)
        self._need(len(action) == 2 and self.board[plot] == seat * 3 + PERMIT, "a Site needs one of your Permits")
        self._need(self.supply(seat, SITE) > 0, "no Site pawn left in supply")
        self._need(self.gold[seat] >= cost, f"a Site costs {cost} gold")
        self.gold[seat] -= cost
        self._lift(plot)
        self._put(plot, seat, SITE)
        self._discard_front(seat, SITE)

    def _discard_front(self, seat: int, kind: int) -> None:
        """The purchase used every pending modifier of its kind: discard them all (BI-A8)."""
        cards, kept = self.data.cards, []
        for card_id in self.front[seat]:
            mod = MODIFIERS.get(cards[card_id].model)
            if mod and mod[0] == kind:
                self._discard(card_id)
            else:
                kept.append(card_id)
        self.front[seat] = tuple(kept)

    def _build_group(self, action: tuple) -> list[int]:
        """The Sites a build converts: the maximal group around a plot, or (any_connected_subset) a given set."""
        code = self.seat * 3 + SITE
        self._need(len(action) == 2, f"{action!r}: a build names one plot or one tuple of plots")
        if self.prm["build_target"] == "maximal":
            plot = self._plot(action, 1)
            self._need(self.board[plot] == code, "a build starts from one of your Sites")
            return sorted(self.component(plot))
        plots = action[1]
        self._need(type(plots) is tuple and plots and len(set(plots)) == len(plots), "a build names its Sites")
        for plot in plots:
            self._need(type(plot) is int and 0 <= plot < self.data.nplots and self.board[plot] == code,
                       f"{plot!r} is not one of your Sites")
        self._need(len(_connected(plots, self.data.adj)) == len(plots), "the Sites of a build must touch")
        return sorted(plots)

    def _act_build(self, seat: int, action: tuple) -> None:
        seat, group = self.seat, self._build_group(action)
        cost = self.build_cost(len(group))
        self._need(self.gold[seat] >= cost, f"this build costs {cost} gold")
        self._need(self.supply(seat, BUILT) >= len(group), "not enough Construction pawns in supply")
        self.gold[seat] -= cost
        for plot in group:
            self._lift(plot)
            self._put(plot, seat, BUILT)
        self._count("built_plots", len(group))
        building = self.component(group[0])          # merges with touching buildings of the same player
        self._fulfil(seat, building)
        if self.prm["city_points_timing"] == "on_build":
            self.city_banked[seat] += self.data.city_points(self.city, building)
        self._after_build()

    def _fulfil(self, seat: int, building: set[int]) -> None:
        """Every held Contract the building matches is fulfilled now, its reward taken (BI-A5, BI-A24)."""
        held = self.contracts[seat]
        if not held:
            return
        data = self.data
        form = data.shape(building) if data.params["contract_match"] == "exact" else None
        done = tuple(cid for cid in held if data.contract_fits(cid, building, form))
        if not done:
            return
        self.contracts[seat] = tuple(cid for cid in held if cid not in done)
        self.fulfilled[seat] += done
        for cid in done:
            contract = data.contracts[cid]
            self._count("fulfilled:" + cid)
            if contract.reward_type == "gold":
                self.gold[seat] += contract.reward_value
                self._count("gold_from_contracts", contract.reward_value)
            elif contract.reward_type == "points":
                self.points[seat] += contract.reward_value
            else:
                self._make_immune(seat, contract.immune_to)

    def _make_immune(self, seat: int, model: str) -> None:
        """Immune to a card model from now on; a copy already in front of the player is discarded."""
        self.immune[seat] = self.immune[seat] | {model}
        cards, kept = self.data.cards, []
        for card_id in self.front[seat]:
            if cards[card_id].model == model:
                self._discard(card_id)
            else:
                kept.append(card_id)
        self.front[seat] = tuple(kept)

    # --- sales and offers (BI-A14, BI-A15) ----------------------------------------------------------------

    def _act_sell(self, seat: int, action: tuple) -> None:
        """("sell", plot, -1) to the bank; ("sell", plot, buyer) a fixed-price offer, (…, price) with auctions."""
        seat, plot = self.seat, self._plot(action, 1)
        kind = self.board[plot] - seat * 3
        self._need(kind in (PERMIT, SITE), "only your own Permits and Sites can be sold")
        price = self.prm["sale_price_permit"] if kind == PERMIT else self.prm["sale_price_site"]
        buyer = self._seat_arg(action[2] if len(action) > 2 else None, allow_bank=True)
        if buyer == -1:
            self._need(len(action) == 3, f"{action!r}: a sale to the bank is ('sell', plot, -1)")
            self._lift(plot)
            self.gold[seat] += price
            return
        if self.prm["variant_auctions"]:
            self._need(len(action) == 4 and type(action[3]) is int and action[3] >= 0, "name a price")
            price = action[3]
        else:
            self._need(len(action) == 3, f"{action!r}: the price of a sale is fixed")
        self._need(buyer != seat and plot not in self.offered, "one offer per plot and turn, to another player")
        self._need(self.gold[buyer] >= price and self.supply(buyer, kind) > 0, "the buyer cannot take it")
        self.offered = self.offered | {plot}
        self._open_offer("pawn", buyer, plot, price)

    def _act_offer(self, seat: int, action: tuple) -> None:
        """("offer", contract id, buyer, price): one hidden Contract offered once per turn at one price."""
        seat = self.seat
        self._need(len(action) == 4, f"{action!r}: an offer is ('offer', contract, buyer, price)")
        _, cid, buyer, price = action
        buyer = self._seat_arg(buyer)
        self._need(cid in self.contracts[seat] and ("contract", cid) not in self.offered, "not a Contract to offer")
        self._need(buyer != seat and type(price) is int and 0 <= price <= self.gold[buyer], "the buyer cannot pay")
        self.offered = self.offered | {("contract", cid)}
        self._open_offer("contract", buyer, cid, price)

    def _open_offer(self, kind: str, buyer: int, item, price: int) -> None:
        self.offer = (kind, self.seat, buyer, item, price)
        self.phase = OFFER

    def _act_accept(self, seat: int, action: tuple) -> None:
        self._need(len(action) == 1, f"{action!r}")
        kind, seller, buyer, item, price = self.offer
        self.gold[buyer] -= price
        self.gold[seller] += price
        if kind == "pawn":
            pawn = self.board[item] % 3
            self._lift(item)
            self._put(item, buyer, pawn)
        else:
            self.contracts[seller] = without(self.contracts[seller], item)
            self.contracts[buyer] = with_(self.contracts[buyer], item)
        self._count("trades")
        self.offer = None
        self._back_to_main()

    def _act_refuse(self, seat: int, action: tuple) -> None:
        self._need(len(action) == 1, f"{action!r}")
        self.offer = None
        self._back_to_main()

    # --- legal actions ------------------------------------------------------------------------------------

    def _legal_pawn_actions(self, seat: int) -> list:
        board, gold, acts = self.board, self.gold[seat], []
        if self.supply(seat, PERMIT) and gold >= self.permit_cost(seat):
            acts += [("permit", p) for p in range(self.data.nplots) if board[p] == FREE]
        if self.supply(seat, SITE) and gold >= self.site_cost(seat):
            acts += [("site", p) for p in self.owned[seat * 3 + PERMIT]]
        for group in self.groups(seat, SITE):
            for target, size in self._build_choices(group):
                if gold >= self.build_cost(size) and self.supply(seat, BUILT) >= size:
                    acts.append(("build", target))
        for kind in (PERMIT, SITE):
            for plot in self.owned[seat * 3 + kind]:
                acts.append(("sell", plot, -1))
                acts += self._offers_to_players(seat, plot, kind)
        for cid in sorted(set(self.contracts[seat])):
            if ("contract", cid) not in self.offered:
                acts += [("offer", cid, buyer, price) for buyer in range(self.n) if buyer != seat
                         for price in range(self.gold[buyer] + 1)]
        return acts

    def _build_choices(self, group: set[int]) -> list[tuple]:
        """(action argument, plots built) for each build a group allows."""
        if self.prm["build_target"] == "maximal":
            return [(min(group), len(group))]
        return [(plots, len(plots)) for plots in sorted(_connected_subsets(group, self.data.adj))]

    def _offers_to_players(self, seat: int, plot: int, kind: int) -> list:
        if plot in self.offered:
            return []
        fixed = self.prm["sale_price_permit"] if kind == PERMIT else self.prm["sale_price_site"]
        acts = []
        for buyer in range(self.n):
            if buyer == seat or not self.supply(buyer, kind):
                continue
            if self.prm["variant_auctions"]:
                acts += [("sell", plot, buyer, price) for price in range(self.gold[buyer] + 1)]
            elif self.gold[buyer] >= fixed:
                acts.append(("sell", plot, buyer))
        return acts


def _connected(plots, adj) -> set[int]:
    """The plots N8-reachable from the first one inside `plots`."""
    inside = set(plots)
    seen, stack = {plots[0]}, [plots[0]]
    while stack:
        for q in adj[stack.pop()]:
            if q in inside and q not in seen:
                seen.add(q)
                stack.append(q)
    return seen


def _connected_subsets(group: set[int], adj) -> set[tuple[int, ...]]:
    """Every non-empty N8-connected subset of a group, as sorted tuples (build_target = any_connected_subset)."""
    found, frontier = set(), [frozenset((p,)) for p in group]
    while frontier:
        grown = []
        for subset in frontier:
            key = tuple(sorted(subset))
            if key in found:
                continue
            found.add(key)
            for p in subset:
                grown += [subset | {q} for q in adj[p] if q in group and q not in subset]
        frontier = grown
    return found
