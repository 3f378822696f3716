"""Simple players for Build It (build-it.md §3.7), and `play_game`, a seeded driver for tests and benchmarks.

Bots read the state's public attributes and build their intended action directly: the engine checks it.
They draw randomness only from the rng they are given. A bot object keeps a small cache (its current
project), so make one per seat and game.
"""

from __future__ import annotations

from pipeline.games.buildit.bots import endgame
from pipeline.games.buildit.engine.cards import MODEL, OWNER, TARGET
from pipeline.games.buildit.engine.data import BUILT, DRAW, FREE, MAIN, MODIFIERS, OFFER, PERMIT, REACT, SITE

END, PASS, REFUSE = ("end",), ("pass",), ("refuse",)
ATTACKS = ("demolition", "strike", "contract_theft")      # what a HeuristicBot keeps its Cancels for
PEACEFUL = ("cancel", "coin_gain")


class HeuristicBot:
    """Draws Contracts up to two, builds the cheapest one on a free area, harms the leader; in the variants
    without a calendar it plays toward their end (endgame.py)."""

    def __init__(self, seat: int):
        self.seat = seat
        self.project = None          # (contract id, plots, ring) being built
        self.failed_turn = -1        # turn in which no project could be placed (do not search again)

    def choose(self, state, rng):
        phase = state.phase
        if phase == MAIN:
            return self._main(state, rng)
        if phase == DRAW:
            return self._draw(state)
        if phase == REACT:
            return self._react(state)
        if phase == OFFER:
            return endgame.answer_offer(state, self.seat) if state.prm["variant_contractual"] else REFUSE
        raise ValueError(f"seat {self.seat} has no decision in phase {phase}")

    def _draw(self, state):
        wants_contract = len(state.contracts[self.seat]) < 2 and state.cdeck.size > 0
        if wants_contract or not state.pile_open("normal"):
            return ("draw", "contract")
        return ("draw", "normal")

    def _react(self, state):
        """Cancel an attack on this seat when, if everyone passed now, it would go through."""
        stack, seat = state.stack, self.seat
        base = stack[0]
        attacked = base[MODEL] in ATTACKS and base[TARGET] == seat and base[OWNER] != seat
        if attacked and len(stack) % 2 == 1:          # an even number of Cancels on top: the attack resolves
            return ("cancel", state.usable_cancel(seat))
        return PASS

    def _main(self, state, rng):
        seat, cards = self.seat, state.data.cards
        for card_id in state.front[seat]:           # a penalty in front of this seat: cancel it if one can
            if MODIFIERS.get(cards[card_id].model, (None, 0))[1] > 0 and state.usable_cancel(seat) is not None:
                return ("cancel", state.usable_cancel(seat), seat, card_id)
        for card_id in state.hand[seat]:            # Coin Gain at once; one discount modifier kept in front
            model = cards[card_id].model
            useful = model == "coin_gain" or (model in MODIFIERS and MODIFIERS[model][1] < 0
                                              and not _has_model(state, seat, model))
            if useful and state.play_cost(seat, card_id, -1, -1) is not None:
                return ("play", card_id, -1, -1)
        prm = state.prm
        if prm["variant_contractual"]:                # a Contract it cannot build goes to one who can
            offer = endgame.hand_over(state, seat) or endgame.clear_board(state, seat)
            if offer:
                return offer
        project = self._project(state, rng)
        reserve = 0
        if project:
            step, reserve = self._project_step(state, project)
            if step:
                return step
        if prm["variant_high_density"]:              # cover the board first: the variant's end
            fill = endgame.fill_step(state, seat, reserve, set(project[1]) if project else set())
            if fill:
                return fill
        if prm["variant_contractual"] and not state.cdeck.size and not state.contracts[seat]:
            return endgame.free_pawns(state, seat) or END    # help the last Contracts get built, never delay them
        return self._attack(state, reserve) or END

    # --- the project: one Contract built on a free area ---------------------------------------------------

    def _project(self, state, rng):
        if self.project and self._still_valid(state, self.project):
            return self.project
        self.project = None
        if self.failed_turn != state.turns and state.contracts[self.seat]:
            self.project = self._search(state, rng)
            if self.project is None:
                self.failed_turn = state.turns
        return self.project

    def _still_valid(self, state, project) -> bool:
        cid, plots, ring = project
        board, mine = state.board, self.seat * 3
        if cid not in state.contracts[self.seat]:
            return False
        for p in plots:
            code = board[p]
            if code != FREE and code != mine + PERMIT and code != mine + SITE:
                return False
        for p in ring:
            code = board[p]
            if code == mine + SITE or code == mine + BUILT:     # would merge with the building
                return False
        return True

    def _search(self, state, rng):
        """The cheapest held Contract with a placement on free or own plots, one plot away from own Sites and
        Constructions: one that reuses the most own Permits/Sites, else the first free one from a random start."""
        data, seat = state.data, self.seat
        owned = state.owned
        permits, sites, built = owned[seat * 3 + PERMIT], owned[seat * 3 + SITE], owned[seat * 3 + BUILT]
        taken = set().union(*owned) - permits - sites          # plots the plan cannot use
        merging = sites | built                                 # own pawns the plan must not touch
        for cid in sorted(set(state.contracts[seat]), key=lambda c: (data.contracts[c].size, c)):
            placements = data.placements(cid)
            if permits or sites:
                found = self._reusing(data, cid, placements, permits, sites, taken, merging, rng)
                if found:
                    return (cid,) + found
            if state.prm["variant_contractual"]:     # pack along the edges: the middle stays open for big plans
                order = endgame.edge_first(data, cid)
            else:
                start = rng.randrange(len(placements))
                order = [(start + i) % len(placements) for i in range(len(placements))]
            for i in order:
                plots, ring = placements[i]
                if taken.isdisjoint(plots) and merging.isdisjoint(ring):
                    return cid, plots, ring
        return None

    @staticmethod
    def _reusing(data, cid, placements, permits, sites, taken, merging, rng):
        """Among the placements that use own Permits (1 point each) or Sites (2), a best valid one."""
        cover = data.placements_covering(cid)
        candidates = sorted({i for p in permits | sites for i in cover[p]})
        best, best_score = [], 0
        for i in candidates:
            plots, ring = placements[i]
            if taken.isdisjoint(plots) and merging.isdisjoint(ring):
                score = len(permits.intersection(plots)) + 2 * len(sites.intersection(plots))
                if score > best_score:
                    best, best_score = [placements[i]], score
                elif score == best_score:
                    best.append(placements[i])
        return best[rng.randrange(len(best))] if best else None

    def _project_step(self, state, project):
        """Permits first, then Sites, then the build. Returns (action or None, gold the project still needs)."""
        seat, board = self.seat, state.board
        plots, permit = project[1], seat * 3 + PERMIT
        free = [p for p in plots if board[p] == FREE]
        if free:
            cost = state.permit_cost(seat)
            if state.supply(seat, PERMIT) <= 0:        # blocked by the pawn limit, not by gold: keep none
                return None, 0
            if state.gold[seat] >= cost:
                return ("permit", free[0]), 0
            return None, len(free) * (cost + state.site_cost(seat)) + state.build_cost(len(plots))
        permits = [p for p in plots if board[p] == permit]
        if permits:
            cost = state.site_cost(seat)
            if state.supply(seat, SITE) <= 0:
                return None, 0
            if state.gold[seat] >= cost:
                return ("site", permits[0]), 0
            return None, len(permits) * cost + state.build_cost(len(plots))
        needed = state.build_cost(len(plots))
        if state.supply(seat, BUILT) < len(plots):
            return None, 0
        if state.gold[seat] >= needed:
            target = plots if state.prm["build_target"] == "any_connected_subset" else plots[0]
            return ("build", target), 0
        return None, needed

    # --- harm the leader ----------------------------------------------------------------------------------

    def _attack(self, state, reserve: int):
        """A harmful card against the best-placed opponent, if it leaves the gold the project still needs."""
        seat, cards = self.seat, state.data.cards
        peaceful = PEACEFUL + ("sabotage",) if state.prm["variant_high_density"] else PEACEFUL   # frees a plot
        harmful = [c for c in state.hand[seat] if cards[c].target == "other" and cards[c].model not in peaceful]
        if not harmful:
            return None
        leader = _leader(state, seat)
        spare = state.gold[seat] - reserve
        for card_id in sorted(set(harmful)):
            card = cards[card_id]
            for arg in _attack_args(state, card.model, leader):
                cost = state.play_cost(seat, card_id, leader, arg)
                if cost is not None and (cost == 0 or cost <= spare):
                    return ("play", card_id, leader, arg)
        return None


class RandomBot:
    """A uniformly random legal action; once it has acted in a turn it ENDs with probability `stop`."""

    def __init__(self, seat: int, stop: float = 0.25):
        self.seat, self.stop = seat, stop

    def choose(self, state, rng):
        if state.phase == MAIN and state.actions and rng.random() < self.stop:
            return END
        actions = state.legal_actions()
        return actions[rng.randrange(len(actions))]


BOTS = {"heuristic": HeuristicBot, "random": RandomBot}


def _leader(state, seat: int) -> int:
    """The best-placed opponent: most points, then most fulfilled Contracts, then most gold (lowest seat on ties)."""
    best, best_key = -1, None
    for s in range(state.n):
        if s != seat:
            key = (state.points[s], len(state.fulfilled[s]), state.gold[s])
            if best_key is None or key > best_key:
                best, best_key = s, key
    return best


def _has_model(state, seat: int, model: str) -> bool:
    cards = state.data.cards
    return any(cards[c].model == model for c in state.front[seat])


def _attack_args(state, model: str, target: int) -> list[int]:
    if model == "sabotage" or model == "forced_purchase":
        plots = state.owned[target * 3 + PERMIT]
        return [min(plots)] if plots else []
    if model == "strike":
        plots = state.owned[target * 3 + SITE]
        return [min(plots)] if plots else []
    if model == "demolition":       # the biggest building first
        return [min(b) for b in sorted(state.groups(target, BUILT), key=lambda b: (-len(b), min(b)))]
    if model == "contract_theft":
        return [-1] if state.contracts[target] else []
    return [-1]
