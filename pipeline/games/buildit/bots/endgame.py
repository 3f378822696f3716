"""How the heuristic bot plays toward the end of the variants without a calendar (004_, "Variantes").

Contractuelle ends when the Contract deck is empty and every Contract in hand is fulfilled: a player who can
no longer build one (no placement away from their own buildings, or too few Construction pawns left: the
pawn limit) offers it for nothing to a player who can, who accepts. Haute densité ends when no plot is
free: once its own project is served, a player covers free plots with Permits; when its Permits are all
on the board it turns one into a Site, which gives a Permit pawn back, and when its Sites are all on the
board it builds a group of them, which gives the Site pawns back.
"""

from __future__ import annotations

from functools import lru_cache

from pipeline.games.buildit.engine.data import BUILT, FREE, PERMIT, SITE

ACCEPT, REFUSE = ("accept",), ("refuse",)


def placement(state, seat: int, cid: str):
    """A placement of the Contract's plan `seat` could build: on free plots or its own Permits and Sites,
    not touching its own Sites and Constructions (which would merge into another shape). None if none."""
    owned = state.owned
    permits, sites, built = owned[seat * 3 + PERMIT], owned[seat * 3 + SITE], owned[seat * 3 + BUILT]
    taken = set().union(*owned) - permits - sites
    merging = sites | built
    for plots, ring in state.data.placements(cid):
        if taken.isdisjoint(plots) and merging.isdisjoint(ring):
            return plots, ring
    return None


@lru_cache(maxsize=64)
def _edge_order(size: int, placements: tuple) -> tuple[int, ...]:
    def depth(plot: int) -> int:
        row, col = divmod(plot, size)
        return min(row, col, size - 1 - row, size - 1 - col)
    return tuple(sorted(range(len(placements)), key=lambda i: (sum(depth(p) for p in placements[i][0]), i)))


def edge_first(data, cid: str) -> tuple[int, ...]:
    """The Contract's placements, those nearest the board's edges first."""
    return _edge_order(data.size, tuple(data.placements(cid)))


def can_build(state, seat: int, cid: str) -> bool:
    size = state.data.contracts[cid].size
    return state.supply(seat, BUILT) >= size and placement(state, seat, cid) is not None


def hand_over(state, seat: int):
    """("offer", contract, buyer, 0) for a held Contract this seat cannot build and another seat can."""
    for cid in sorted(set(state.contracts[seat])):
        if ("contract", cid) in state.offered or can_build(state, seat, cid):
            continue
        buyers = sorted((s for s in range(state.n) if s != seat), key=lambda s: (-state.supply(s, BUILT), s))
        for buyer in buyers:
            if can_build(state, buyer, cid):
                return ("offer", cid, buyer, 0)
    return None


def clear_board(state, seat: int):
    """("sell", plot, -1): once the Contract deck is empty, a player with no Contract left sells its Permits
    and Sites back to the bank while someone holds a Contract nobody can place, freeing room for it."""
    if state.cdeck.size or state.contracts[seat] or state.prm["variant_high_density"]:
        return None
    stuck = any(not any(can_build(state, s, cid) for s in range(state.n))
                for holder in range(state.n) if holder != seat for cid in set(state.contracts[holder]))
    if not stuck:
        return None
    mine = seat * 3
    pawns = sorted(state.owned[mine + PERMIT] | state.owned[mine + SITE])
    return ("sell", pawns[0], -1) if pawns else None


def free_pawns(state, seat: int):
    """("play", Demolition, holder, plot) against a player who holds a Contract it cannot build (too few
    Construction pawns left, or its own buildings touch every placement): the Demolition gives the pawns
    back and turns the building into Permits, which a plan may use (Contract and City points already won
    stay)."""
    cards = state.data.cards
    for holder in range(state.n):
        held = state.contracts[holder]
        if holder == seat or not held or any(can_build(state, holder, cid) for cid in held):
            continue
        for card_id in sorted(set(state.hand[seat])):
            if cards[card_id].model != "demolition":
                continue
            for group in sorted(state.groups(holder, BUILT), key=lambda g: (-len(g), min(g))):
                if state.play_cost(seat, card_id, holder, min(group)) is not None:
                    return ("play", card_id, holder, min(group))
    return None


def answer_offer(state, seat: int):
    """A free Contract this seat can build is taken (it ends the Contractuelle sooner and may pay)."""
    kind, _, buyer, item, price = state.offer
    if kind == "contract" and buyer == seat and price == 0 and can_build(state, seat, item):
        return ACCEPT
    return REFUSE


def fill_step(state, seat: int, reserve: int, keep_clear: set[int]):
    """One step toward a full board, or None when nothing is affordable beyond `reserve` (the gold the
    project still needs): a Permit on a free plot; with no Permit pawn left, one of its Permits turned into
    a Site (the Permit pawn comes back); with no Site pawn left, a group of its Sites built (the Site pawns
    come back). `keep_clear`: the project's plots, whose neighbours are left alone (a Site there would
    merge into the project's build)."""
    board, gold, data = state.board, state.gold[seat] - reserve, state.data
    if FREE not in board:
        return None
    if state.supply(seat, PERMIT) > 0:
        if gold >= state.permit_cost(seat):
            free = [p for p, code in enumerate(board) if code == FREE and p not in keep_clear]
            if free:
                return ("permit", free[0])
        return None
    near = keep_clear.union(*(data.adj[p] for p in keep_clear)) if keep_clear else set()
    mine = seat * 3
    if state.supply(seat, SITE) > 0:
        if gold >= state.site_cost(seat):
            permits = sorted(state.owned[mine + PERMIT] - near)
            lone = [p for p in permits if all(board[n] not in (mine + SITE, mine + BUILT) for n in data.adj[p])]
            if lone or permits:
                return ("site", (lone or permits)[0])
        return None
    for group in sorted(state.groups(seat, SITE), key=lambda g: (len(g), min(g))):
        if near.isdisjoint(group) and state.supply(seat, BUILT) >= len(group) \
                and gold >= state.build_cost(len(group)):
            plots = sorted(group)
            return ("build", tuple(plots) if state.prm["build_target"] == "any_connected_subset" else plots[0])
    return None
