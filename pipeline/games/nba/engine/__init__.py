"""NBA Deck-Building's reference rules engine (shared/games/nba-deck-building.md §2–§4, resolutions AMB-01..36).

OpenSpiel-shaped and pure: the engine never draws a random number. Every draw from a shuffled pile, every
reveal, every die and the first player are chance nodes (current_player() == CHANCE) whose outcomes the driver
samples from chance_outcomes(); a chance node with one possible outcome simply happens.

    data = GameData.from_rows(skills, dice, players, tactics, fatigue, durations, params)
    state = new_game(data)                         # at its first chance node
    while not state.is_terminal(): state.apply_action(<a bot's choice or a sampled outcome>)
    state.outcome()

Chance outcomes: a card id (a draw uniform over the distinct cards of the shuffled rest, weighted by copies;
the Player pile's reveal uniform within its cheapest cost group; the NBA cards of the pile; the Tactic pile),
a die face label ("PE:4", "BL:3R"; equal faces merged) or a seat (the first player). Actions: see
actions.py. The course of the game: flow.py (match, turns, piles), start.py (setup),
turn.py (phases C and D). Positions for tests: setup.py.
"""

from __future__ import annotations

from pipeline.games.engine_base import PhaseState, every_tag
from pipeline.games.nba.engine.actions import CHECK, LEGAL
from pipeline.games.nba.engine.data import CHANCE, GameData, POSITIONS, TERMINAL
from pipeline.games.nba.engine.flow import FlowRules
from pipeline.games.nba.engine.kinds import CH_FIRST, KIND_NAMES, OVER
from pipeline.games.nba.engine.start import SetupRules
from pipeline.games.nba.engine.turn import TurnRules

__all__ = ["CHANCE", "TERMINAL", "GameData", "State", "new_game", "POSITIONS"]

PLAIN_COUNTERS = ("normal_turns", "overtime", "rerolls_offence", "rerolls_defence", "fatigue_taken",
                  "substitutions", "trashed", "reshuffles", "money_time_turns")


class State(FlowRules, SetupRules, TurnRules, PhaseState):
    """One position of a two-player game. Attributes are public for bots and tests; change them only through
    actions. Cards are engine integers (data.names[c] is the id); per-seat lists are indexed by seat; a draw
    pile is `top` (known cards, the top one last) above `rest` (a shuffled multiset {card: copies})."""

    __slots__ = (
        "data", "prm", "flow", "phase", "actor", "outcomes", "accept", "pool", "steps", "capped", "end_reason", "turns",
        "seat_turns", "turn", "period", "overtime", "first", "first0", "scores", "counters", "special_by",
        "money_from", "last_reveal", "regulation_turns", "pile", "pile_sorted", "track", "player_discard",
        "tactic_pile", "market", "tactic_discard", "fatigue_supply", "box", "court", "off_board", "def_board",
        "hand", "top", "rest", "discard", "off_zone", "off_tactic", "def_zone", "def_tactic", "mini",
        "draft_hand", "team_deck", "used", "activating", "special", "no_buy", "window", "money", "bought_slot",
        "sub_in", "sub_fatigue", "rolled", "reroll_allow", "reroll_offence", "kept",
        "active", "mover",
    )

    SHARED = ("data", "prm", "flow", "accept")     # the flow is the running turn; accept maps outcomes to it

    def __init__(self, data: GameData):
        prm = data.params
        check_game(data)
        self.data, self.prm = data, prm
        self.flow, self.phase, self.actor, self.outcomes, self.accept, self.pool = None, OVER, TERMINAL, [], {}, None
        self.steps, self.capped, self.end_reason, self.turns, self.seat_turns = 0, False, None, 0, [0, 0]
        self.turn, self.period, self.overtime, self.first, self.first0 = 0, "regulation", 0, 0, 0
        self.scores, self.counters, self.special_by = [0, 0], dict.fromkeys(PLAIN_COUNTERS, 0), []
        self.money_from, self.last_reveal, self.regulation_turns = None, 0, 0
        self.pile, self.pile_sorted, self.track, self.player_discard = [], True, [None] * prm["track_slots"], []
        self.tactic_pile, self.market, self.tactic_discard = {}, [None] * prm["market_slots"], []
        self.fatigue_supply, self.box = list(data.fatigue), []
        self.court = [[None] * len(POSITIONS) for _ in range(2)]
        self.off_board = [[None] * prm["offence_slots"] for _ in range(2)]
        self.def_board = [[None] * prm["defence_slots"] for _ in range(2)]
        for name in ("hand", "top", "discard", "off_zone", "def_zone", "mini", "draft_hand", "team_deck"):
            setattr(self, name, [[], []])
        self.rest, self.off_tactic, self.def_tactic = [{}, {}], [None, None], [None, None]
        self.used, self.activating, self.special, self.no_buy, self.window, self.money = set(), False, False, False, \
            False, False
        self.bought_slot, self.sub_in, self.sub_fatigue = None, 0, 0
        self.rolled, self.reroll_allow, self.reroll_offence, self.kept, self.active = [], 0, True, [], None
        self.mover = -1              # the seat whose turn it is

    @classmethod
    def from_setup(cls, data: GameData, setup: dict) -> "State":
        """Any position, for tests and scenario files (engine.setup.state_from_setup documents the keys)."""
        from pipeline.games.nba.engine.setup import state_from_setup
        return state_from_setup(cls, data, setup, new_game)

    def _run(self, flow) -> None:
        """Start a course of play (a generator of engine_flow) and go to its first node."""
        self.flow = flow
        self._resume(None)

    def _resume(self, value) -> None:
        try:
            self.flow.send(value)
        except StopIteration:
            self.phase, self.actor, self.flow = OVER, TERMINAL, None
            if self.end_reason is None:
                self.end_reason = "regulation"

    # --- the engine interface (legal_actions, apply_action, clone: engine_base.PhaseState) ----------------------

    def current_player(self) -> int:
        return self.actor

    def chance_outcomes(self) -> list:
        """(outcome, probability) in a stable order; do not modify the list (a die's is shared)."""
        return self.outcomes if self.actor == CHANCE else []

    def _apply_chance(self, outcome) -> None:
        try:
            payload = self.accept[outcome]
            if self.pool is not None and payload not in self.pool:
                raise KeyError(outcome)
        except (KeyError, TypeError):
            raise ValueError(f"{outcome!r} is not an outcome of this {KIND_NAMES[self.phase]} node") from None
        self._resume(payload)

    def _check_and_go_on(self, seat: int, action) -> None:
        """Every decision node checks its own tags (actions.CHECK) and the flow resumes with what it allows."""
        self._resume(CHECK[self.phase](self, seat, action))

    def _after_step(self, phase, tag) -> None:
        self.steps += 1
        if self.steps >= self.prm["max_steps"] and self.phase != OVER:
            self.capped, self.end_reason = True, "cap"
            self.flow.close()
            self.phase, self.actor, self.flow = OVER, TERMINAL, None

    def returns(self) -> list[float]:
        """1 win, 0 loss, 0.5 each for a draw and, unlike the base's shared win, for a game stopped by the
        safety cap (a two-player game: neither seat won it)."""
        if self.phase != OVER:
            return [0.0, 0.0]
        a, b = self.scores
        return [0.5, 0.5] if a == b or self.capped else [1.0, 0.0] if a > b else [0.0, 1.0]

    def clone(self):
        """Not offered: the turn is a running generator (engine/flow.py), which cannot be copied; replay the
        game from its seed to reach a position again."""
        raise TypeError("an NBA Deck-Building state cannot be cloned (its turn flow is a generator)")

    def outcome(self) -> dict:
        """The keys pipeline/play/driver.py reads, plus first_player (of regulation), money_time_from (the first
        Money-time turn, None without the variant) and special_by (who played each special last turn)."""
        return {
            "scores": list(self.scores), "rounds": max(self.seat_turns), "turns": self.turns,
            "end_reason": self.end_reason, "cap": "max_steps" if self.capped else None,
            "blame": [["rules", "max_steps"]] if self.capped else [], "counters": dict(self.counters),
            "first_player": self.first0, "money_time_from": self.money_from, "special_by": list(self.special_by),
        }

    # --- reading ------------------------------------------------------------------------------------------

    @property
    def kind(self) -> str:
        """The name of the node the game waits at (KIND_NAMES)."""
        return KIND_NAMES[self.phase]

    def ids(self, cards) -> list[str]:
        names = self.data.names
        return sorted(names[c] for c in cards)

    def total_cards(self) -> int:
        """Every card of the game wherever it is (a conservation check: equals data.total_cards)."""
        per_seat = sum(len(self.hand[s]) + len(self.top[s]) + sum(self.rest[s].values()) + len(self.discard[s])
                       + sum(c is not None for c in self.court[s] + self.off_board[s] + self.def_board[s])
                       + len(self.mini[s]) + len(self.draft_hand[s]) + len(self.team_deck[s]) for s in range(2))
        shared = (len(self.pile) + sum(c is not None and c >= 0 for c in self.track) + len(self.player_discard)
                  + sum(self.tactic_pile.values()) + sum(c is not None for c in self.market)
                  + len(self.tactic_discard) + len(self.fatigue_supply) + len(self.box) + len(self.kept))
        return per_seat + shared

    def __str__(self) -> str:
        names = self.data.names

        def show(cards):
            return [names[c] if c is not None and c >= 0 else "-" for c in cards]
        lines = [f"NBA Deck-Building: turn {self.turn} ({self.period}), {self.kind} node, player "
                 f"{self.current_player()}, steps {self.steps}, scores {self.scores}, track {show(self.track)}, "
                 f"pile {len(self.pile)}, market {show(self.market)}, fatigue {len(self.fatigue_supply)}"]
        for s in range(2):
            lines.append(f"seat {s}: court {show(self.court[s])} board {show(self.off_board[s])}/"
                         f"{show(self.def_board[s])} hand {self.ids(self.hand[s])} top {show(self.top[s])} "
                         f"rest {sum(self.rest[s].values())} discard {len(self.discard[s])} off {self.off_zone[s]} "
                         f"def {self.def_zone[s]}")
        return "\n".join(lines)


State.LEGAL = LEGAL                                     # decision node -> legal(state, seat), sorted
State.HANDLERS = {node: every_tag(State._check_and_go_on) for node in CHECK}
State.HANDLERS[OVER] = {}
State.CHANCE_PHASES, State.OVER, State.PHASE_NAMES = frozenset(range(CH_FIRST, OVER)), OVER, KIND_NAMES


def check_game(data: GameData) -> None:
    """A game these data and parameters can play; ValueError naming the parameter otherwise."""
    prm = data.params
    if prm["variant_draft"]:
        dealt = 2 * prm["draft_rounds"] * (prm["draft_mini_market"] + prm["draft_common"] + prm["draft_box"])
        if dealt > len(data.nba):
            raise ValueError(f"draft_rounds: the draft deals {dealt} cards, the data has {len(data.nba)} NBA cards")
    if prm["variant_team_selection"]:
        for s, parts in data.sets.items():
            subs, tactics = len(parts["substitutes"]), sum(data.copies[t] for t in parts["tactics"])
            if prm["team_min_substitutes"] > subs or prm["team_min_tactics"] > tactics \
                    or prm["team_min_substitutes"] + prm["team_min_tactics"] > prm["team_deck_size"] \
                    or prm["team_deck_size"] > subs + tactics:
                raise ValueError(f"team_deck_size: set {s} cannot make a deck of {prm['team_deck_size']} cards with "
                                 f"{prm['team_min_substitutes']}+ Substitutes and {prm['team_min_tactics']}+ tactics")


def new_game(data: GameData, players: int = 2) -> State:
    """A game at its first node. Two players only (the 3–4 player evolution is not built, AMB-35)."""
    if players != 2:
        raise ValueError(f"NBA Deck-Building is played by 2, not {players}")
    state = State(data)
    state._run(state._game())
    return state

