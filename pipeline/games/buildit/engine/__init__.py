"""Build It's reference rules engine (shared/games/build-it.md §2–§3, resolutions BI-A1..A25).

OpenSpiel-shaped and pure: the engine never draws a random number. Shuffles, draws, the City reveal, the first
player and Contract Theft's pick are chance nodes (current_player() == CHANCE) whose outcomes the driver
samples from chance_outcomes(); a chance node with a single possible outcome is applied at once.

    data = GameData.from_rows(contracts, cities, normal_cards, params)
    state = new_game(data, players=4)             # at its first chance node
    while not state.is_terminal(): state.apply_action(<a bot's choice or a sampled outcome>)
    state.outcome()

Actions are small tuples, plots are ints row * size + column (plot_name / plot_index convert "c3"):
("draw", "contract"|"normal"), ("permit", plot), ("site", plot), ("build", plot) (any plot of the group; a
tuple of plots when build_target = any_connected_subset), ("play", card id, target seat or -1, plot or -1),
("cancel", card id) in a reaction window, ("cancel", card id, seat, lasting card id) on your turn against a
card in front of a player, ("pass",), ("sell", plot, buyer or -1 for the bank[, price with auctions]),
("offer", contract id, buyer, price), ("accept",), ("refuse",), ("end",).
"""

from __future__ import annotations

from pipeline.games.buildit.engine.cards import CardRules
from pipeline.games.buildit.engine.data import (BUILT, CHANCE, CHANCE_PHASES, DRAW, DRAW_CHANCE, FREE, GameData, MAIN,
                                                OFFER, OVER, PHASE_NAMES, Pile, REACT, SETUP_CITY, SETUP_DEAL,
                                                SETUP_FIRST, TERMINAL, THEFT, check_params, plot_index, plot_name)
from pipeline.games.buildit.engine.pawns import PawnRules, with_
from pipeline.games.engine_base import PhaseState

__all__ = ["CHANCE", "TERMINAL", "GameData", "Pile", "State", "new_game", "plot_index", "plot_name"]

COUNTERS = ("gold_from_contracts", "gold_from_coin_gain", "drawn_contract", "drawn_normal", "built_plots", "cancels")


class State(PawnRules, CardRules, PhaseState):
    """One position of a game. Attributes are public for bots and tests; change them only through actions."""

    __slots__ = (
        "data", "prm", "n", "gold", "hand", "contracts", "fulfilled", "front", "immune", "points", "city_banked",
        "board", "owned", "cdeck", "ndeck", "discard", "city", "round_no", "turns", "first", "seat", "phase",
        "draws_left", "drawing", "actions", "offered", "deal", "stack", "reactor", "offer", "thief", "victim",
        "end_reason", "capped", "blame", "counters",
    )

    def __init__(self, data: GameData, players: int):
        prm = data.params
        if not prm["players_min"] <= players <= prm["players_max"]:
            raise ValueError(f"{players} players: this game takes {prm['players_min']} to {prm['players_max']}")
        n = self.n = players
        self.data, self.prm = data, prm
        self.gold = [prm["start_gold"]] * n
        self.hand, self.contracts, self.fulfilled, self.front = [()] * n, [()] * n, [()] * n, [()] * n
        self.immune = [frozenset()] * n
        self.points, self.city_banked = [0] * n, [0] * n
        self.board = [FREE] * data.nplots
        self.owned = [set() for _ in range(3 * n)]           # seat * 3 + kind -> plots
        self.cdeck, self.ndeck, self.discard = Pile(), Pile(), {}
        self.city, self.round_no, self.turns, self.first, self.seat = None, 1, 0, -1, 0
        self.phase, self.draws_left, self.drawing, self.actions, self.offered = SETUP_CITY, 0, "", 0, frozenset()
        self.deal, self.stack, self.reactor, self.offer, self.thief, self.victim = [], [], -1, None, -1, -1
        self.end_reason, self.capped, self.blame = None, False, []
        self.counters = dict.fromkeys(COUNTERS, 0)

    @classmethod
    def from_setup(cls, data: GameData, setup: dict) -> "State":
        """Any mid-game position, for tests and scenario files. Keys (engine.setup.state_from_setup details them):
        players; seats [{gold, hand, contracts, fulfilled, front, immune}]; board {"c3": [seat, "permit" | "site" |
        "construction"]}; city; contract_deck, normal_deck (list = known order, top first; dict = shuffled);
        discard; round; first_player; current; start ("turn" | "draw" | "main"); turns."""
        from pipeline.games.buildit.engine.setup import state_from_setup
        return state_from_setup(cls, data, setup)

    # --- the engine interface (legal_actions, apply_action, returns, clone: engine_base.PhaseState) -------------

    def current_player(self) -> int:
        phase = self.phase
        if phase == MAIN or phase == DRAW:
            return self.seat
        if phase == REACT:
            return self.reactor
        if phase == OFFER:
            return self.offer[2]
        return TERMINAL if phase == OVER else CHANCE

    def chance_outcomes(self) -> list:
        phase = self.phase
        if phase == SETUP_CITY:
            return [(cid, 1 / len(self.data.city_ids)) for cid in self.data.city_ids]
        if phase == SETUP_FIRST:
            return [(seat, 1 / self.n) for seat in range(self.n)]
        if phase == SETUP_DEAL or (phase == DRAW_CHANCE and self.drawing == "normal"):
            return self.ndeck.outcomes()
        if phase == DRAW_CHANCE:
            return self.cdeck.outcomes()
        if phase == THEFT:
            return self._theft_outcomes()
        return []

    def _after_step(self, phase, tag) -> None:
        """A Main-phase action other than the end counts toward max_actions_per_turn (BI-A19)."""
        if phase == MAIN and tag != "end":
            self.actions += 1
            if self.phase == MAIN:
                self._back_to_main()
        if self.phase in CHANCE_PHASES:
            self._settle()

    def outcome(self) -> dict:
        """The keys pipeline/play/driver.py reads: scores (contract + City points), gold, winners, end_reason
        (calendar | contracts | high_density | all | cap; None before the end), rounds, turns, cap (the safety
        cap that fired, a rules parameter name, or None), counters, blame ([sheet, row or parameter] pairs)."""
        cap = next((key for sheet, key in self.blame if sheet == "rules"), "safety cap") if self.capped else None
        return {
            "scores": self.scores(), "gold": list(self.gold), "winners": self.winners(),
            "end_reason": self.end_reason, "rounds": self.round_no, "turns": self.turns, "cap": cap,
            "counters": dict(self.counters), "blame": [list(b) for b in self.blame],
        }

    # --- scoring ------------------------------------------------------------------------------------------

    def city_points(self, seat: int) -> int:
        if self.prm["city_points_timing"] == "on_build":
            return self.city_banked[seat]
        return sum(self.data.city_points(self.city, b) for b in self.groups(seat, BUILT))

    def scores(self) -> list[int]:
        """Contract points + City points (§2.6)."""
        return [self.points[s] + self.city_points(s) for s in range(self.n)]

    def winners(self) -> list[int]:
        """Most points, then most gold; equal keys share the win."""
        keys = [(score, gold) for score, gold in zip(self.scores(), self.gold)]
        best = max(keys)
        return [seat for seat, key in enumerate(keys) if key == best]

    # --- chance -------------------------------------------------------------------------------------------

    def _apply_chance(self, outcome) -> None:
        phase = self.phase
        if phase == SETUP_CITY:
            self._need(isinstance(outcome, str) and outcome in self.data.cities, f"{outcome!r} is not a City")
            self.city = outcome
            self._next_deal()
        elif phase == SETUP_DEAL:
            self.ndeck.take(outcome)
            self._count("drawn_normal")      # a dealt card is drawn too: gold per Normal card counts it (BI-A22)
            seat = self.deal.pop()
            self.hand[seat] = with_(self.hand[seat], outcome)
            self._next_deal()
        elif phase == SETUP_FIRST:
            self.first = self._seat_arg(outcome)
            self._start_turn(outcome)
        elif phase == DRAW_CHANCE:
            self._draw_card(outcome)
        else:
            self._apply_theft(outcome)

    def _settle(self) -> None:
        """Apply chance nodes that have a single possible outcome (a known top card, one City…)."""
        while self.phase in CHANCE_PHASES:
            phase = self.phase
            if phase == SETUP_DEAL or phase == DRAW_CHANCE:
                pile = self.cdeck if phase == DRAW_CHANCE and self.drawing == "contract" else self.ndeck
                outcome = pile.only()
                if outcome is None:
                    return
            else:
                outcomes = self.chance_outcomes()
                if len(outcomes) != 1:
                    return
                outcome = outcomes[0][0]
            self._apply_chance(outcome)

    # --- setup and turns ----------------------------------------------------------------------------------

    def _begin(self, first_player: int | None) -> None:
        self.cdeck, self.ndeck = Pile(counts=self.data.contract_deck), Pile(counts=self.data.normal_deck)
        self.first = -1 if first_player is None else self._seat_arg(first_player)
        self.deal = [seat for seat in reversed(range(self.n)) for _ in range(self.prm["start_hand"])]
        if self.data.city_ids:
            self.phase = SETUP_CITY
        else:
            self._next_deal()
        self._settle()

    def _next_deal(self) -> None:
        if self.deal and self.pile_open("normal"):
            self._refill_normal()
            self.phase = SETUP_DEAL
        elif self.first >= 0:
            self.deal = []
            self._start_turn(self.first)
        else:
            self.deal, self.phase = [], SETUP_FIRST

    def _start_turn(self, seat: int) -> None:
        self.seat, self.turns, self.actions, self.offered = seat, self.turns + 1, 0, frozenset()
        self.gold[seat] += self.prm["income"]
        self.draws_left = self.prm["draw_per_turn"]
        self._draw_or_main()

    def _draw_or_main(self) -> None:
        if self.draws_left > 0 and (self.pile_open("contract") or self.pile_open("normal")):
            self.phase = DRAW
        else:
            self._back_to_main()

    def pile_open(self, pile: str) -> bool:
        """Can a card be drawn from this pile ("contract" or "normal": its deck or, BI-A13, its discard)?"""
        if pile == "contract":
            return self.cdeck.size > 0
        return self.ndeck.size > 0 or bool(self.discard)

    def _refill_normal(self) -> None:
        """BI-A13: an empty Normal deck takes the discard pile back, shuffled (each draw is then a chance node)."""
        if self.ndeck.size == 0 and self.discard:
            self.ndeck, self.discard = Pile(counts=self.discard), {}
            self._count("reshuffles")

    def _act_draw(self, seat: int, action: tuple) -> None:
        pile = action[1] if len(action) == 2 else None
        self._need(pile in ("contract", "normal") and self.pile_open(pile), f"{action!r}: that pile is empty")
        if pile == "normal":
            self._refill_normal()
        self.drawing, self.phase = pile, DRAW_CHANCE
        self._count("drawn_" + pile)

    def _draw_card(self, card) -> None:
        seat = self.seat
        if self.drawing == "contract":
            self.cdeck.take(card)
            self.contracts[seat] = with_(self.contracts[seat], card)
        else:
            self.ndeck.take(card)
            self.hand[seat] = with_(self.hand[seat], card)
        self.draws_left -= 1
        self._draw_or_main()

    def _back_to_main(self) -> None:
        """Back to the turn's owner; the safety cap max_actions_per_turn forces the end of a runaway turn."""
        self.phase = MAIN
        if self.actions >= self.prm["max_actions_per_turn"]:
            self.capped = True
            self._blame("rules", "max_actions_per_turn")
            self._end_turn()

    def _act_end(self, seat: int, action: tuple) -> None:
        self._need(len(action) == 1, f"{action!r}")
        self._end_turn()

    def _end_turn(self) -> None:
        """END (irrevocable): variant end checks, the calendar after the last seat of a round, next player."""
        prm, last = self.prm, self.seat == (self.first - 1) % self.n
        reason = self._variant_end()
        if reason:
            return self._finish(reason)
        if last:
            if not (prm["variant_contractual"] or prm["variant_high_density"]) and self.round_no >= prm["rounds"]:
                return self._finish("calendar")
            if self.round_no >= prm["max_rounds"]:
                self.capped = True
                self._blame("rules", "max_rounds")
                for variant in ("variant_contractual", "variant_high_density"):   # what took the calendar away
                    if prm[variant]:
                        self._blame("rules", variant)
                return self._finish("cap")
            self.round_no += 1
        self._start_turn((self.seat + 1) % self.n)

    def _contracts_done(self) -> bool:
        """BI-A6: the Contract deck is empty and no unfulfilled Contract is left in any hand."""
        return self.cdeck.size == 0 and not any(self.contracts)

    def _variant_end(self) -> str | None:
        contractual, dense = self.prm["variant_contractual"], self.prm["variant_high_density"]
        full = dense and FREE not in self.board
        if contractual and dense:
            return "all" if full and self._contracts_done() else None
        if dense:
            return "high_density" if full else None
        return "contracts" if contractual and self._contracts_done() else None

    def _after_build(self) -> None:
        """The game ends right after the build that fulfils the last Contract (BI-A6, BI-D12)."""
        if self.prm["variant_high_density"]:
            reason = self._variant_end()
            if reason:
                self._finish(reason)
        elif self._contracts_done():
            self._finish("contracts")

    def _finish(self, reason: str) -> None:
        self.phase, self.end_reason = OVER, reason

    # --- bookkeeping --------------------------------------------------------------------------------------

    def _count(self, name: str, k: int = 1) -> None:
        self.counters[name] = self.counters.get(name, 0) + k

    def _blame(self, sheet: str, row: str) -> None:
        if [sheet, row] not in self.blame:
            self.blame.append([sheet, row])

    def _discard(self, card_id: str) -> None:
        self.discard[card_id] = self.discard.get(card_id, 0) + 1

    def __str__(self) -> str:
        size, prm = self.data.size, self.prm
        lines = [f"Build It: round {self.round_no}/{prm['rounds']}, turn {self.turns}, seat {self.seat}'s turn, "
                 f"phase {PHASE_NAMES[self.phase]}, player {self.current_player()}, city {self.city}"]
        lines.append("    " + " ".join(f"{chr(97 + c):>2}" for c in range(size)))
        for r in range(size):
            cells = (self.board[r * size + c] for c in range(size))
            lines.append(f"{r + 1:>3} " + " ".join(" ." if v == FREE else f"{v // 3}{'PSC'[v % 3]}" for v in cells))
        for s in range(self.n):
            lines.append(f"seat {s}: {self.gold[s]} gold, {self.points[s]} pts, hand {list(self.hand[s])}, "
                         f"contracts {list(self.contracts[s])}, fulfilled {list(self.fulfilled[s])}, "
                         f"front {list(self.front[s])}, immune {sorted(self.immune[s])}, supply "
                         + "/".join(str(self.supply(s, k)) for k in range(3)))
        lines.append(f"decks: contract {self.cdeck.size}, normal {self.ndeck.size}, discard "
                     f"{sum(self.discard.values())}; stack {[e[:5] for e in self.stack]}; offer {self.offer}")
        if self.phase == OVER:
            lines.append(f"over ({self.end_reason}): {self.outcome()}")
        return "\n".join(lines)


State.HANDLERS = {            # phase -> {tag: handler(state, seat, action)}
    DRAW: {"draw": State._act_draw},
    MAIN: {"permit": State._act_permit, "site": State._act_site, "build": State._act_build,
           "play": State._act_play, "cancel": State._act_cancel_lasting, "sell": State._act_sell,
           "offer": State._act_offer, "end": State._act_end},
    REACT: {"cancel": State._act_cancel, "pass": State._act_pass},
    OFFER: {"accept": State._act_accept, "refuse": State._act_refuse},
    OVER: {},
}
State.LEGAL = {               # phase -> legal(state, seat), sorted
    DRAW: lambda state, seat: [("draw", pile) for pile in ("contract", "normal") if state.pile_open(pile)],
    MAIN: lambda state, seat: sorted(state._legal_pawn_actions(seat) + state._legal_plays(seat)
                                     + state._legal_lasting_cancels(seat) + [("end",)]),
    REACT: lambda state, seat: state._legal_reactions(seat),
    OFFER: lambda state, seat: [("accept",), ("refuse",)],
}
State.CHANCE_PHASES, State.OVER, State.PHASE_NAMES = frozenset(CHANCE_PHASES), OVER, PHASE_NAMES


def new_game(data: GameData, players: int, first_player: int | None = None) -> State:
    """A game at its first chance node (the City reveal), or later when setup needs no chance.
    ValueError for a player count outside players_min..players_max or conflicting variants (BI-A7)."""
    check_params(data.params)
    state = State(data, players)
    state._begin(first_player)
    return state

