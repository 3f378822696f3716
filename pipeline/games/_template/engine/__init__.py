"""TEMPLATE: the pure rules (standard library only; tests/architecture/test_engine_purity.py checks it), on the one engine
base (pipeline/games/engine_base.py): the base owns the public interface (legal_actions, apply_action,
is_terminal, returns, clone, snapshot); the game brings its phase tables and a few hooks.

The phase-table idiom: `phase` names the current kind of decision; LEGAL maps a decision phase to the
function that lists its actions, HANDLERS to {tag: handler}, so a rule lives in one handler and apply_action
never grows a chain of ifs. A handler refuses an action that is not legal with ValueError before changing
anything. Chance is data: the driver samples chance_outcomes() and applies the outcome like an action.

The example: a dice race. On its turn a seat steps 1 or rolls a die (a chance phase); the game ends after the
round in which someone reached the target (end_rule after_round) or at once (at_once)."""

from __future__ import annotations

from pipeline.games._template.engine.data import PARAMETERS
from pipeline.games.engine_base import CHANCE, PhaseState, TERMINAL, check_typed_params

DECIDE, ROLLING, OVER = "decide", "rolling", "over"
FACES = (1, 2, 3, 4, 5, 6)


class State(PhaseState):
    __slots__ = ("params", "n", "target", "max_rounds", "positions", "seat", "round", "turns", "phase",
                 "end_reason", "cap")
    SHARED = ("params",)

    def __init__(self, params: dict, players: int):
        check_typed_params(PARAMETERS, params)
        self.params, self.n = dict(params), players
        self.target, self.max_rounds = params["target"], params["max_rounds"]
        self.positions, self.seat, self.round, self.turns = [0] * players, 0, 1, 0
        self.phase, self.end_reason, self.cap = DECIDE, None, None

    # --- who acts, what chance does, who won -------------------------------------------------------------
    def current_player(self) -> int:
        return {DECIDE: self.seat, ROLLING: CHANCE}.get(self.phase, TERMINAL)

    def chance_outcomes(self) -> list:
        return [(face, 1 / len(FACES)) for face in FACES] if self.phase == ROLLING else []

    def winners(self) -> list[int]:
        best = max(self.positions)
        return [seat for seat, position in enumerate(self.positions) if position == best]

    def outcome(self) -> dict:
        return {"scores": list(self.positions), "rounds": self.round, "turns": self.turns,
                "end_reason": self.end_reason, "cap": self.cap, "counters": {}}

    def __str__(self) -> str:
        return f"dice race: round {self.round}, phase {self.phase}, seat {self.seat}, positions {self.positions}"

    # --- handlers ---------------------------------------------------------------------------------------
    def _roll(self, seat: int, action: tuple) -> None:
        self.phase = ROLLING

    def _step(self, seat: int, action: tuple) -> None:
        self._move(1)

    def _apply_chance(self, face) -> None:
        if face not in FACES:
            raise ValueError(f"{face!r} is not a face of the die")
        self.phase = DECIDE
        self._move(face)

    def _settle(self) -> None:
        """Chance phases with a single outcome would be applied here; the die always has six."""

    def _move(self, amount: int) -> None:
        self.positions[self.seat] += amount
        self.turns += 1
        if self.params["end_rule"] == "at_once" and self.positions[self.seat] >= self.target:
            self.phase, self.end_reason = OVER, "target"
            return
        self.seat = (self.seat + 1) % self.n
        if self.seat:
            return
        if max(self.positions) >= self.target:
            self.phase, self.end_reason = OVER, "target"
        elif self.round >= self.max_rounds:
            self.phase, self.end_reason, self.cap = OVER, "cap", "max_rounds"
        else:
            self.round += 1


State.LEGAL = {DECIDE: lambda state, seat: [("roll",), ("step",)]}
State.HANDLERS = {DECIDE: {"roll": State._roll, "step": State._step}, OVER: {}}
State.CHANCE_PHASES, State.OVER, State.PHASE_NAMES = frozenset({ROLLING}), OVER, {DECIDE: DECIDE, OVER: OVER}


def new_game(params: dict, players: int) -> State:
    return State(params, players)
