"""Fightball's reference rules engine (shared/games/fightball.md §2, §3.4): the real-time fast round as a race
on the engine base, then the scoring round of every stack (engine/scoring.py), four quarters.

Pure and OpenSpiel-shaped: the engine never draws a random number. Each step of a fast round is a chance node
"who acts next" (north with speed_north / (north + south)); that coach takes one action. Drawing from the deck
is a chance node too: uniform over the deck's remaining non-BUZZ cards (copies of a kind merged into one
outcome, the card id), the BUZZ only when it is the last card (applied at once, a single outcome).

    data = GameData.from_rows(teams, players, shots, effects, effect_ops, params)
    state = new_game(data)                     # at its first "who acts next" node
    while not state.is_terminal(): state.apply_action(<a bot's choice or a sampled outcome>)
    state.outcome()

Actions, in the order legal_actions lists them: empty hand ("DRAW_DECK",), ("TAKE_DISCARD_TOP",) (own discard
pile not empty); holding a card ("PLACE", cell) for the 24 cells in row-major order (cell = row * 5 + col),
then ("DISCARD",) (a card drawn from the deck only), then ("HOLD",): wait, the card in hand, and watch the other
side (the seed, l.49: each coach plays at the speed of their choice). After a hold the other coach moves at
once and may not hold in turn: two coaches never wait on each other, the moment passes to the one who did not
wait first, so every hold is followed by a move and the fast round still ends (a BUZZ in hand is placed, never
held). Holding the BUZZ only ("PLACE_BUZZ",), which ends the
fast round at once: the card the other coach holds goes nowhere (FB-A7, FB-A16, FB-A17), unless the rules
read l.123 of the seed as the Shot card (`shot_at_buzz` placed): a Shot card the other coach holds then lands
where they choose, in phase "last_shot" (the same PLACE or DISCARD as when holding it), and the quarter is
scored.

Public state for bots and tests: hand, from_deck, discard, left (non-BUZZ cards in each deck), stacks[cell]
[(card, placed_by), …], plays[cell] (the scorer's Play of that stack), awards[cell], live (each coach's
points if the quarter ended now), waiting (the seat holding, or -1), log (cells in placement order: the `seq`),
last_stacks (the stacks of the quarter scored last), quarter_scores. Seats: 0 north, 1 south."""

from __future__ import annotations

from pipeline.games.engine_base import CHANCE, PhaseState, TERMINAL
from pipeline.games.fightball.engine.cards import GameData
from pipeline.games.fightball.engine.data import COLOURS, NOBODY, SEATS, SHOT
from pipeline.games.fightball.engine.scoring import (DONE, EMPTY, EMPTY_PLAY, KINDS, OPEN, PLAY, effect_gains,
                                                     evaluate_stack, finish, play_total, step)

__all__ = ["CHANCE", "TERMINAL", "GameData", "State", "new_game", "evaluate_stack"]

WHO, ACT, DRAW, OVER, LAST = range(5)
PHASE_NAMES = ("who_acts", "act", "draw", "over", "last_shot")
DRAW_DECK, TAKE, DISCARD, PLACE_BUZZ, HOLD = (("DRAW_DECK",), ("TAKE_DISCARD_TOP",), ("DISCARD",), ("PLACE_BUZZ",),
                                             ("HOLD",))
_NO_AWARDS = ()
CAUSE = {kind: f"cause:{kind}" for kind in KINDS}     # points by cause: a play (any colour) or each foul


class State(PhaseState):
    """One position of a game. Attributes are public for bots and tests; change them only through actions."""

    __slots__ = ("data", "prm", "n", "phase", "actor", "quarter", "scores", "quarter_scores", "hand", "from_deck",
                 "counts", "left", "discard", "stacks", "plays", "awards", "live", "log", "last_stacks",
                 "counters", "turns", "end_reason", "who", "waiting")

    def __init__(self, data: GameData):
        self.data, self.prm, self.n = data, data.params, 2
        north, south = self.prm["speed_north"], self.prm["speed_south"]
        self.who = ((0, north / (north + south)), (1, south / (north + south)))
        self.quarter, self.scores, self.quarter_scores, self.turns = 0, [0, 0], [], 0
        self.counters, self.end_reason, self.last_stacks = {}, None, None
        self._start_quarter()

    # --- the engine interface (legal_actions, apply_action, returns, clone: engine_base.PhaseState) ---------

    def current_player(self) -> int:
        phase = self.phase
        if phase == WHO or phase == DRAW:               # the hot path: most nodes are chance nodes
            return CHANCE
        return TERMINAL if phase == OVER else self.actor

    def chance_outcomes(self) -> list:
        if self.phase == WHO:
            return list(self.who)
        if self.phase != DRAW:
            return []
        seat = self.actor
        left = self.left[seat]
        if left == 0:
            return [(self.data.cards[self.data.buzz[seat]].id, 1.0)]
        return [(card, n / left) for card, n in zip(self.data.deck_ids[seat], self.counts[seat]) if n]

    def _apply_chance(self, outcome) -> None:
        if self.phase == WHO:
            if type(outcome) is not int or outcome not in (0, 1):
                raise ValueError(f"{outcome!r} is not a seat (0 north, 1 south)")
            self.actor, self.phase = outcome, ACT
            return
        if self.phase != DRAW:
            raise ValueError(f"{outcome!r}: no chance acts in phase {PHASE_NAMES[self.phase]}")
        seat, data = self.actor, self.data
        card = data.index.get(outcome) if type(outcome) is str else None
        if self.left[seat] == 0:
            if card != data.buzz[seat]:
                raise ValueError(f"{outcome!r}: only the BUZZ is left in {SEATS[seat]}'s deck")
        else:
            j = data.deck_pos[seat].get(card)
            if j is None or not self.counts[seat][j]:
                raise ValueError(f"{outcome!r} is not a card left in {SEATS[seat]}'s deck (the BUZZ comes last)")
            self.counts[seat][j] -= 1
            self.left[seat] -= 1
        self.hand[seat], self.from_deck[seat], self.phase = card, True, WHO

    def _settle(self) -> None:
        """A draw with one possible card (the BUZZ, or copies of a single kind) is applied at once."""
        outcomes = self.chance_outcomes()
        if len(outcomes) == 1:
            self._apply_chance(outcomes[0][0])

    def _after_step(self, phase, tag) -> None:
        if tag is not None:
            self.turns += 1
            if self.waiting != NOBODY and tag != "HOLD":
                self.waiting = NOBODY                       # the other coach moved: the wait is over
        if self.phase == DRAW and self.left[self.actor] <= self.data.max_copies:   # else two kinds at least
            self._settle()

    def winners(self) -> list[int]:
        north, south = self.scores
        return [0] if north > south else [1] if south > north else [0, 1]

    def outcome(self) -> dict:
        return {"scores": list(self.scores), "rounds": self.quarter, "turns": self.turns,
                "end_reason": self.end_reason, "cap": None, "counters": dict(self.counters),
                "quarters": [list(q) for q in self.quarter_scores]}

    # --- handlers -----------------------------------------------------------------------------------------

    def _draw(self, seat: int, action: tuple) -> None:
        if self.hand[seat] != NOBODY or len(action) != 1:
            raise ValueError(f"{action!r}: {SEATS[seat]} already holds a card" if len(action) == 1 else
                             f"{action!r} takes no argument")
        self.phase = DRAW

    def _take(self, seat: int, action: tuple) -> None:
        if self.hand[seat] != NOBODY or not self.discard[seat] or len(action) != 1:
            raise ValueError(f"{action!r}: {SEATS[seat]} holds a card or has an empty discard pile")
        self.hand[seat], self.from_deck[seat], self.phase = self.discard[seat].pop(), False, WHO

    def _place(self, seat: int, action: tuple) -> None:
        card = self.hand[seat]
        cell = action[1] if len(action) == 2 else None
        where = self.data.cell_at[cell] if type(cell) is int and 0 <= cell < 25 else None
        if card == NOBODY or card == self.data.buzz[seat] or where is None:
            raise ValueError(f"{action!r}: {SEATS[seat]} holds no card to place there (the BUZZ goes to the "
                             f"centre; cells are row * 5 + col, the centre excepted)")
        self.stacks[cell].append((card, seat))
        self.log.append(cell)
        data = self.data
        play = self.plays[cell] = step(self.plays[cell], card, seat, where, data.rules, data.cards)
        old, new = self.awards[cell], (finish(play, where, data.rules, data.cards, data.move_points)
                                       if play.fouls or play.shot != NOBODY else _NO_AWARDS)
        if old or new:
            live = self.live
            for coach, points, _ in old:
                live[coach] -= points
            for coach, points, _ in new:
                live[coach] += points
            self.awards[cell] = new
        self._count(data.played_key[card])
        self.hand[seat] = NOBODY
        if self.phase == LAST:                  # the Shot card held at the BUZZ has landed: score the quarter
            self._count("shot_at_buzz:placed")
            self._score_quarter()
        else:
            self.phase = WHO

    def _discard(self, seat: int, action: tuple) -> None:
        card = self.hand[seat]
        if card == NOBODY or not self.from_deck[seat] or card == self.data.buzz[seat] or len(action) != 1:
            raise ValueError(f"{action!r}: only a card drawn from the deck may be discarded (never the BUZZ)")
        self.discard[seat].append(card)
        self._count(self.data.discarded_key[card])
        self.hand[seat] = NOBODY
        if self.phase == LAST:
            self._score_quarter()
        else:
            self.phase = WHO

    def _hold(self, seat: int, action: tuple) -> None:
        """Wait, card in hand, and watch the other side: the other coach moves next (no "who acts" node) and
        may not wait in turn, so a hold never stalls the race (the moment passes to whoever did not wait)."""
        card = self.hand[seat]
        if card == NOBODY or card == self.data.buzz[seat] or self.waiting != NOBODY or len(action) != 1:
            raise ValueError(f"{action!r}: {SEATS[seat]} may hold only a card in hand (not the BUZZ), and not "
                             f"while the other coach is holding")
        self.waiting, self.actor = seat, 1 - seat
        self._count(f"hold:{SEATS[seat]}")

    def _place_buzz(self, seat: int, action: tuple) -> None:
        if self.hand[seat] != self.data.buzz[seat] or len(action) != 1:
            raise ValueError(f"{action!r}: {SEATS[seat]} does not hold their BUZZ")
        self.hand[seat] = NOBODY
        self._count(f"buzz:{SEATS[seat]}")
        held = self.hand[1 - seat]
        if held != NOBODY and self.data.cards[held].kind == SHOT:
            self._count("shot_at_buzz:held")
            if self.prm["shot_at_buzz"] == "placed":     # l.123 read as the Shot card: it lands (phase LAST)
                self.actor, self.phase = 1 - seat, LAST
                return
        self._score_quarter()

    # --- quarters -----------------------------------------------------------------------------------------

    def _start_quarter(self) -> None:
        """Every card back to its owner's deck, shuffled (the draws are chance), the BUZZ at the bottom."""
        data = self.data
        self.quarter += 1
        self.counts = [[n for _, n in deck] for deck in data.deck]
        self.left = list(data.size)
        self.hand, self.from_deck, self.discard = [NOBODY, NOBODY], [False, False], [[], []]
        self.stacks = [[] for _ in range(25)]
        self.plays = [EMPTY_PLAY] * 25
        self.awards = [_NO_AWARDS] * 25
        self.live, self.log, self.actor, self.phase, self.waiting = [0, 0], [], NOBODY, WHO, NOBODY

    def _score_quarter(self) -> None:
        """§2.8: every cell's awards (kept up to date as cards landed: finish of its Play), counted by source."""
        data, points = self.data, [0, 0]
        for cell in data.cells:
            play = self.plays[cell.index]
            if play.status == EMPTY:
                continue
            for coach, pts, kind in self.awards[cell.index]:
                points[coach] += pts
                self._count(f"points:{kind}_{COLOURS[cell.colour]}" if kind == PLAY else f"points:{kind}", pts)
                self._count(CAUSE[kind], pts)
            if play.status == DONE:
                self._count("plays:complete")
                if play_total(play, cell, data.rules, data.cards) >= data.rules.threshold:
                    self._count("plays:valid")
            for card, seat, gain in effect_gains(play, cell, data.rules, data.cards, data.move_points):
                self._count(data.effect_key[card], gain)
        self._count("points_scored", points[0] + points[1])
        self.scores = [self.scores[0] + points[0], self.scores[1] + points[1]]
        self.quarter_scores.append(points)
        self.last_stacks = self.stacks
        regular, played = self.prm["quarters"], self.quarter
        tied = self.scores[0] == self.scores[1]
        if played < regular or (tied and self.prm["tie_rule"] == "overtime"
                                and played < regular + self.prm["overtime_quarters"]):
            self._start_quarter()
            return
        overtime = played > regular
        self.end_reason = ("overtime_draw" if overtime else "draw") if tied else "overtime" if overtime else "final"
        self.phase, self.actor = OVER, NOBODY

    def _count(self, name: str, k: int = 1) -> None:
        self.counters[name] = self.counters.get(name, 0) + k

    # --- reading ------------------------------------------------------------------------------------------

    def stack_ids(self, cell: int, stacks=None) -> list:
        """[(card id, placed_by), …] bottom first, of this quarter's stacks (or of `stacks`)."""
        cards = self.data.cards
        return [(cards[card].id, seat) for card, seat in (stacks or self.stacks)[cell]]

    def open_plays(self) -> list[int]:
        return [cell for cell in self.data.cell_ids if self.plays[cell].status == OPEN]

    def __str__(self) -> str:
        cards = self.data.cards
        lines = [f"Fightball: quarter {self.quarter}, phase {PHASE_NAMES[self.phase]}, actor {self.actor}, "
                 f"scores {self.scores}, live {self.live}, turns {self.turns}"]
        for seat in range(2):
            held = cards[self.hand[seat]].id if self.hand[seat] != NOBODY else "-"
            top = cards[self.discard[seat][-1]].id if self.discard[seat] else "-"
            lines.append(f"{SEATS[seat]}: holds {held} ({'deck' if self.from_deck[seat] else 'discard'}), deck "
                         f"{self.left[seat]} + BUZZ, discard {len(self.discard[seat])} (top {top})")
        for cell in self.data.cell_ids:
            if self.stacks[cell]:
                lines.append(f"  cell {cell}: {self.stack_ids(cell)} -> {list(self.awards[cell])}")
        return "\n".join(lines)


def _legal(state: State, seat: int) -> list:
    card = state.hand[seat]
    if card == NOBODY:
        return [DRAW_DECK, TAKE] if state.discard[seat] else [DRAW_DECK]
    data = state.data
    if card == data.buzz[seat]:
        return [PLACE_BUZZ]
    places = [("PLACE", cell) for cell in data.cell_ids]
    if state.from_deck[seat]:
        places.append(DISCARD)
    if state.waiting == NOBODY and state.phase == ACT:
        places.append(HOLD)
    return places


State.LEGAL = {ACT: _legal, LAST: _legal}
State.HANDLERS = {ACT: {"DRAW_DECK": State._draw, "TAKE_DISCARD_TOP": State._take, "PLACE": State._place,
                        "DISCARD": State._discard, "PLACE_BUZZ": State._place_buzz, "HOLD": State._hold},
                  LAST: {"PLACE": State._place, "DISCARD": State._discard},
                  WHO: {}, DRAW: {}, OVER: {}}
State.CHANCE_PHASES, State.OVER, State.PHASE_NAMES = frozenset({WHO, DRAW}), OVER, PHASE_NAMES


def new_game(data: GameData, players: int = 2) -> State:
    """A game at its first "who acts next" node; Fightball is for two coaches exactly."""
    if players != 2:
        raise ValueError(f"Fightball is played by 2 coaches, not {players}")
    return State(data)
