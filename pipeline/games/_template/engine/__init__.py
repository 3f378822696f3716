"""TEMPLATE: the pure rules (standard library only; tests/test_engine_purity.py checks it), OpenSpiel-shaped:
current_player, legal_actions, chance_outcomes, apply_action, returns, outcome. Chance is data: the driver
samples chance_outcomes() and applies the outcome like an action.

The phase-table idiom: `phase` names the current kind of decision; LEGAL and APPLY map a phase to the
functions that list and apply its actions, so a rule lives in one handler and apply_action never grows a
chain of ifs. A handler refuses an action that is not legal with ValueError before changing anything.

The example: a dice race. On its turn a seat steps 1 or rolls a die (a chance node); the game ends after the
round in which someone reached the target (end_rule after_round) or at once (at_once)."""

from __future__ import annotations

CHANCE, TERMINAL = -1, -2
ROLL, STEP = "roll", "step"
DECIDE, ROLLING, OVER = "decide", "rolling", "over"
FACES = (1, 2, 3, 4, 5, 6)


class State:
    def __init__(self, params: dict, players: int):
        self.params, self.players = dict(params), players
        self.target, self.max_rounds = params["target"], params["max_rounds"]
        self.positions, self.seat, self.round, self.turns = [0] * players, 0, 1, 0
        self.phase, self.end_reason, self.cap = DECIDE, None, None

    # --- the interface ---------------------------------------------------------------------------------
    def current_player(self) -> int:
        return {DECIDE: self.seat, ROLLING: CHANCE}.get(self.phase, TERMINAL)

    def legal_actions(self) -> list:
        return LEGAL[self.phase](self)

    def chance_outcomes(self) -> list:
        return [(face, 1 / len(FACES)) for face in FACES] if self.phase == ROLLING else []

    def apply_action(self, action) -> None:
        handler = APPLY.get(self.phase)
        if handler is None:
            raise ValueError(f"the game is over: {action!r}")
        handler(self, action)

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def returns(self) -> list[float]:
        best = max(self.positions)
        winners = [s for s, p in enumerate(self.positions) if p == best]
        return [1 / len(winners) if s in winners else 0.0 for s in range(self.players)]

    def outcome(self) -> dict:
        return {"scores": list(self.positions), "rounds": self.round, "turns": self.turns,
                "end_reason": self.end_reason, "cap": self.cap, "counters": {}}

    def clone(self) -> "State":
        other = State.__new__(State)
        other.__dict__ = {k: (list(v) if isinstance(v, list) else v) for k, v in self.__dict__.items()}
        return other

    def __str__(self) -> str:
        return f"dice race: round {self.round}, phase {self.phase}, seat {self.seat}, positions {self.positions}"

    # --- handlers ---------------------------------------------------------------------------------------
    def _decide(self, action) -> None:
        if action not in (ROLL, STEP):
            raise ValueError(f"{action!r}: roll or step")
        if action == ROLL:
            self.phase = ROLLING
        else:
            self._move(1)

    def _rolled(self, face) -> None:
        if face not in FACES:
            raise ValueError(f"{face!r} is not a face of the die")
        self.phase = DECIDE
        self._move(face)

    def _move(self, amount: int) -> None:
        self.positions[self.seat] += amount
        self.turns += 1
        if self.params["end_rule"] == "at_once" and self.positions[self.seat] >= self.target:
            self.phase, self.end_reason = OVER, "target"
            return
        self.seat = (self.seat + 1) % self.players
        if self.seat:
            return
        if max(self.positions) >= self.target:
            self.phase, self.end_reason = OVER, "target"
        elif self.round >= self.max_rounds:
            self.phase, self.end_reason, self.cap = OVER, "cap", "max_rounds"
        else:
            self.round += 1


LEGAL = {DECIDE: lambda state: [ROLL, STEP], ROLLING: lambda state: [], OVER: lambda state: []}
APPLY = {DECIDE: State._decide, ROLLING: State._rolled}


def new_game(params: dict, players: int) -> State:
    return State(params, players)
