"""Challengers' reference rules engine (shared/games/challengers.md §2–§3, resolutions CH-A1…A21), pure and
OpenSpiel-shaped on the engine base: the engine never draws a random number.

    data = GameData.from_rows(sets, cards, card_ops, starter, schedule, trophies, robot_decks, robot_levels,
                              solo_cards, params)
    state = new_game(data, players)                # 1–8; the robot joins odd counts
    while not state.is_terminal(): state.apply_action(<a bot's choice or a sampled outcome>)
    state.outcome()

Chance nodes (outcomes in a stable order, a node with one outcome applied at once): the sets in play (`sets`
random: one outcome per selection, the set ids joined by +), each card of a Deck-phase hand (a card id, by the
copies left in the level pile), the robot's level swaps (a card id out, then an R card id in), the start player
of a match when trophies do not decide (a participant number; the robot is `players`), every card a match
reveals or mills (a card id: the deck is shuffled, so its next card is uniform over what is left), a trophy's
value (by the tokens left) and random tie-breaks (a seat).

Decisions (engine/draft.py): ("option", k), ("pick", id), ("redraw",), ("remove", id), ("done",); in a match
(engine/tournament.py) ("discard", id): the top card of one of the seat's bench slots that its BENCH_TO_DISCARD
effect sends to the discard, asked when the bench holds two names or more (the robot decides nothing). The Deck
phase asks seat by seat; a seat's actions depend only on its own hand and deck. Trophy values are secret in
3–8 player games until the final (seed l.33, CH-A20): bots read trophies only through `visible_trophies(viewer)`.

Public state: round, final, seat (who decides), hand, level (the option's), draw_level (the pile the hand is
drawn from: the next level's when `short_pile` refill meets an empty level), picks_left, redraws_left, decks[p]
{card: copies} (p = participant: seats, then the robot), deck_size, picks[seat] (cards kept, in order), tokens
(fan tokens), trophies[p] [(round, value)], match (the running Match, engine/match.py), sides (its participants),
chosen (the sets in play), piles {level: {card: copies}}."""

from __future__ import annotations

from itertools import combinations

from pipeline.games.challengers.engine.cards import Card, GameData
from pipeline.games.challengers.engine.draft import DraftRules, HAND, OPTION, PICK, REMOVE
from pipeline.games.challengers.engine.match import Match
from pipeline.games.challengers.engine.pairing import pairings, participants_for
from pipeline.games.challengers.engine.tell import tell_match
from pipeline.games.challengers.engine.tournament import DISCARD, MATCH, MatchRules, ROBOT, START, TIE, TROPHY
from pipeline.games.engine_base import CHANCE, PhaseState, TERMINAL

__all__ = ["CHANCE", "TERMINAL", "Card", "GameData", "Match", "State", "new_game", "tell_match", "pairings"]

SETS, OVER = "sets", "over"
DECISIONS = (OPTION, PICK, REMOVE, DISCARD)


class State(DraftRules, MatchRules, PhaseState):
    """One position of a game. Attributes are public for bots and tests; change them only through actions."""

    __slots__ = ("data", "prm", "n", "parts", "robot", "table", "phase", "round", "final", "chosen", "piles",
                 "pile_size", "decks", "deck_size", "picks", "tokens", "trophies", "drafters", "drafter_i", "seat",
                 "hand", "level", "draw_level", "to_draw", "picks_left", "redraws_left", "picked_this_round",
                 "remove_limit", "remove_then", "out", "swaps_left", "r_pool", "robot_out", "swap_floor", "pair_i",
                 "pair", "sides", "match", "token_pool", "last_winner", "finalists", "tie_group", "tie_places",
                 "winners_", "end_reason", "cap", "counters", "turns")

    def __init__(self, data: GameData, players: int):
        prm = data.params
        if not prm["players_min"] <= players <= prm["players_max"]:
            raise ValueError(f"Challengers is played by {prm['players_min']} to {prm['players_max']} players, "
                             f"not {players}")
        self.data, self.prm, self.n = data, prm, players
        self.parts = participants_for(players)
        self.robot = players if self.parts > players else -1
        self.table = pairings(self.parts, prm["rounds"])
        for r in range(1, prm["rounds"] + 1):
            if sum(n for _, n in data.trophies.get(r, ())) < self.parts // 2:
                raise ValueError(f"round {r} has fewer trophy tokens than the {self.parts // 2} matches it plays")
        starter = {card: copies for card, copies in data.starter}
        self.decks = [dict(starter) for _ in range(players)] + ([{}] if self.robot >= 0 else [])
        self.deck_size = [sum(starter.values())] * players + ([0] if self.robot >= 0 else [])
        self.picks = [[] for _ in range(players)]
        self.tokens, self.trophies = [0] * self.parts, [[] for _ in range(self.parts)]
        self.round, self.final, self.turns, self.counters = 0, False, 0, {}
        self.seat, self.hand, self.level, self.to_draw, self.picks_left, self.redraws_left = -1, [], "A", 0, 0, 0
        self.draw_level = "A"
        self.picked_this_round, self.remove_limit, self.remove_then, self.out, self.drafters = 0, None, None, [], []
        self.drafter_i, self.swaps_left, self.r_pool, self.robot_out, self.swap_floor = 0, 0, {}, True, 0
        self.pair_i, self.pair, self.sides, self.match, self.token_pool, self.last_winner = 0, (), (), None, {}, -1
        self.finalists, self.tie_group, self.tie_places = [], [], 0
        self.winners_, self.end_reason, self.cap = [], None, None
        self.chosen, self.piles, self.pile_size = (), {}, {}
        if prm["sets"] == "random":
            self.phase = SETS
        else:
            self._use_sets(tuple(s.strip() for s in prm["sets"].split(",")))
        self._after_step(None, None)            # chance nodes with a single outcome

    # --- the engine interface (legal_actions, apply_action, returns, clone: engine_base.PhaseState) ---------

    def current_player(self) -> int:
        phase = self.phase
        if phase in DECISIONS:
            return self.seat
        return TERMINAL if phase == OVER else CHANCE

    def chance_outcomes(self) -> list:
        phase, ids = self.phase, self.data.card_ids
        if phase == MATCH:
            m = self.match
            return [(ids[card], p) for card, p in m.outcomes(m.pending())]
        if phase == HAND:
            size = self.pile_size[self.draw_level]
            return [(ids[card], n / size) for card, n in self.piles[self.draw_level].items()]
        if phase == TROPHY:
            total = sum(self.token_pool.values())
            return [(value, n / total) for value, n in sorted(self.token_pool.items()) if n]
        if phase == ROBOT:
            pile = self.robot_base() if self.robot_out else self.robot_gains()
            total = sum(pile.values())
            return [(ids[card], n / total) for card, n in pile.items()]
        if phase == START:
            return [(self.pair[0], 0.5), (self.pair[1], 0.5)]
        if phase == TIE:
            return [(seat, 1 / len(self.tie_group)) for seat in self.tie_group]
        if phase == SETS:
            options = self.selections()
            return [("+".join(option), 1 / len(options)) for option in options]
        return []

    def _apply_chance(self, outcome) -> None:
        phase = self.phase
        if phase == MATCH:
            card = self.data.index.get(outcome) if type(outcome) is str else None
            if card is None:
                raise ValueError(f"{outcome!r} is not a card id")
            self.match.feed(card)
            self._match_go()
        elif phase == HAND:
            self._drew(self.data.index.get(outcome) if type(outcome) is str else None)
        elif phase == TROPHY:
            self._award(outcome)
        elif phase == ROBOT:
            self._robot_swap(self.data.index.get(outcome) if type(outcome) is str else None)
        elif phase == START:
            if outcome not in self.pair:
                raise ValueError(f"{outcome!r} is not one of the pair {self.pair}")
            a, b = self.pair
            self._begin_match(*((a, b) if outcome == a else (b, a)))
        elif phase == TIE:
            self._tie_broken(outcome)
        elif phase == SETS:
            if type(outcome) is not str or tuple(outcome.split("+")) not in self.selections():
                raise ValueError(f"{outcome!r} is not a selection of sets")
            self._use_sets(tuple(outcome.split("+")))
        else:
            raise ValueError(f"{outcome!r}: no chance acts in phase {phase}")

    def _after_step(self, phase, tag) -> None:
        if tag is not None:
            self.turns += 1
        while self.phase in self.CHANCE_PHASES and self._single():
            self._apply_chance(self.chance_outcomes()[0][0])

    def _single(self) -> bool:
        if self.phase == MATCH:
            m = self.match
            side = m.pending()
            return m.size[side] == 0 or len(m.pool[side]) == 1
        return len(self.chance_outcomes()) == 1

    def winners(self) -> list[int]:
        return [seat for seat in self.winners_ if seat < self.n] if self.n > 1 else list(self.winners_)

    def returns(self) -> list[float]:
        """1 for the winner, 1/k each for a win shared by k; solo: 1 beating the robot, ½ a draw, 0 a loss."""
        if self.phase != OVER:
            return [0.0] * self.n
        if self.n == 1:
            return [1.0 if self.winners_ == [0] else 0.5 if 0 in self.winners_ else 0.0]
        return super().returns()

    # --- sets ---------------------------------------------------------------------------------------------

    def selections(self) -> list[tuple[str, ...]]:
        return [tuple(sorted(c)) for c in combinations(sorted(self.data.optional_sets), self.prm["sets_per_game"])]

    def _use_sets(self, chosen: tuple[str, ...]) -> None:
        unknown = [s for s in chosen if s not in self.data.optional_sets]
        if unknown or len(set(chosen)) != self.prm["sets_per_game"]:
            raise ValueError(f"sets {chosen}: need {self.prm['sets_per_game']} distinct ids of "
                             f"{list(self.data.optional_sets)}")
        self.chosen = tuple(sorted(chosen))
        self.piles = self.data.piles(self.chosen)
        self.pile_size = {level: sum(pile.values()) for level, pile in self.piles.items()}
        self._start_round()

    # --- the end ------------------------------------------------------------------------------------------

    def _finish(self, reason: str, winners: list[int]) -> None:
        self.phase, self.end_reason, self.winners_ = OVER, reason, list(winners)
        data, selection = self.data, "+".join(self.chosen)
        for seat in range(self.n):
            won = seat in winners
            if won:
                for card in self.picks[seat]:
                    self._count(data.picked_by_winner[card])
            per_set: dict[str, int] = {}
            for card in self.picks[seat]:
                s = data.cards[card].set
                if s not in data.city:
                    per_set[s] = per_set.get(s, 0) + 1
            if per_set:
                best = max(per_set.values())
                leaders = [s for s, k in per_set.items() if k == best]
                if len(leaders) == 1:
                    self._count(f"set_lead:{selection}|{leaders[0]}")
                    if won:
                        self._count(f"set_lead_won:{selection}|{leaders[0]}")

    def _count(self, name: str, k: int = 1) -> None:
        self.counters[name] = self.counters.get(name, 0) + k

    def visible_trophies(self, viewer: int, of: int) -> list[tuple[int, int | None]]:
        """What `viewer` knows of `of`'s trophies: in 3–8 player games the others' values are hidden (None) until
        the final (seed l.33): they are turned over when round 7 ends, to count the fans that qualify."""
        if self.n <= 2 or viewer == of or self.final or self.phase in (TIE, OVER):
            return list(self.trophies[of])
        return [(r, None) for r, _ in self.trophies[of]]

    def outcome(self) -> dict:
        return {"scores": [self.fans_of(seat) for seat in range(self.n)], "rounds": self.round, "turns": self.turns,
                "end_reason": self.end_reason, "cap": self.cap, "counters": dict(self.counters),
                "robot_fans": self.fans_of(self.robot) if self.robot >= 0 else None,
                "finalists": list(self.finalists) if self.final else None}

    def __str__(self) -> str:
        ids = self.data.ids
        lines = [f"Challengers: {self.n} players, round {self.round}{' (final)' if self.final else ''}, phase "
                 f"{self.phase}, seat {self.seat}, sets {self.chosen}, end {self.end_reason}"]
        for p in range(self.parts):
            who = "robot" if p == self.robot else f"seat {p}"
            lines.append(f"  {who}: deck {self.deck_size[p]}, fans {self.fans_of(p)}, trophies {self.trophies[p]}")
        if self.hand:
            lines.append(f"  hand {ids(self.hand)}, picks left {self.picks_left}, redraws {self.redraws_left}")
        if self.match is not None:
            lines.append(f"  sides {self.sides}\n{self.match}")
        return "\n".join(lines)


State.LEGAL = {OPTION: State._legal_option, PICK: State._legal_pick, REMOVE: State._legal_remove,
               DISCARD: State._legal_discard}
State.HANDLERS = {OPTION: {"option": State._option}, PICK: {"pick": State._pick, "redraw": State._redraw},
                  REMOVE: {"remove": State._remove, "done": State._done}, DISCARD: {"discard": State._discard},
                  OVER: {}}
State.CHANCE_PHASES = frozenset({SETS, HAND, ROBOT, START, MATCH, TROPHY, TIE})
State.OVER, State.PHASE_NAMES = OVER, {p: p for p in (SETS, OPTION, HAND, PICK, REMOVE, ROBOT, START, MATCH,
                                                    DISCARD, TROPHY, TIE, OVER)}


def new_game(data: GameData, players: int) -> State:
    """A game of 1–8 players at its first node (the sets drawn, or the first Deck phase)."""
    return State(data, players)
