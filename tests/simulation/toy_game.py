"""A toy dice race that conforms to pipeline/data/specs.py, for testing the simulation driver without any
real game: 2–4 seats; on a turn a seat either steps 1 or rolls a weighted die (a chance node); the race ends
after the round in which someone reached the target; scores are positions capped at the target, so ties
(shared wins) are common.

Rule switches, as `rules` rows: `max_rounds` (a safety cap, 0 = none), `stuck` (nobody ever moves: without
a cap the game never ends), `explode_round` (the engine raises in that round). The `cheater` bot answers
with an action that does not exist.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from types import MappingProxyType

from pipeline.core.errors import SourceRef
from pipeline.data.schema import Record
from pipeline.data.specs import GameModule
from pipeline.play.contract import CHANCE, Simulation, TERMINAL

FILE = "sheets/toy.xlsx"
DEFAULT_RULES = {"target": 12, "max_rounds": 0, "stuck": 0, "explode_round": 0}
DEFAULT_FACES = ((1, 1), (2, 1), (3, 1), (4, 1), (5, 1), (6, 1))      # (value, weight)
ROLL, STEP = "roll", "step"


def toy_records(faces=DEFAULT_FACES, **rules) -> dict:
    """Records as the loader would give them: a `rules` sheet of parameter/value rows and a `faces` sheet."""
    unknown = set(rules) - set(DEFAULT_RULES)
    assert not unknown, unknown
    rule_letters = MappingProxyType({"parameter": "A", "value": "B"})
    face_letters = MappingProxyType({"id": "A", "value": "B", "weight": "C"})
    values = {**DEFAULT_RULES, **rules}
    rows = [Record("rules", SourceRef(FILE, "rules", i + 2), MappingProxyType({"parameter": k, "value": v}),
                   rule_letters) for i, (k, v) in enumerate(values.items())]
    dice = [Record("faces", SourceRef(FILE, "faces", i + 2),
                   MappingProxyType({"id": f"f{i + 1}", "value": v, "weight": w}), face_letters)
            for i, (v, w) in enumerate(faces)]
    return {"rules": rows, "faces": dice}


def _rules(records) -> dict:
    return {r["parameter"]: r["value"] for r in records["rules"]}


class DiceRace:
    def __init__(self, records, players: int):
        rules = _rules(records)
        self.target, self.max_rounds = rules["target"], rules["max_rounds"]
        self.stuck, self.explode_round = bool(rules["stuck"]), rules["explode_round"]
        weights = [(r["value"], r["weight"]) for r in records["faces"]]
        total = sum(w for _, w in weights)
        self.faces = [(value, weight / total) for value, weight in weights]
        self.players = players
        self.positions = [0] * players
        self.seat, self.round, self.turns = 0, 1, 0
        self.rolling = False
        self.over, self.cap, self.end_reason = False, None, None
        self.counters: Counter = Counter()

    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        return CHANCE if self.rolling else self.seat

    def legal_actions(self) -> list:
        return [] if self.over or self.rolling else [ROLL, STEP]

    def chance_outcomes(self) -> list:
        return list(self.faces) if self.rolling else []

    def apply_action(self, action) -> None:
        if self.rolling:
            if action not in {value for value, _ in self.faces}:
                raise ValueError(f"{action!r} is not a face of the die")
            self.rolling = False
            self.counters["rolls"] += 1
            self.counters["pips"] += action
            self.counters[f"face:{action}"] += 1
            self._move(action)
        elif action == ROLL:
            self.rolling = True
        elif action == STEP:
            self.counters["steps"] += 1
            self._move(1)
        else:
            raise ValueError(f"illegal action {action!r}")

    def _move(self, amount: int) -> None:
        if not self.stuck:
            self.positions[self.seat] += amount
        self.turns += 1
        if self.explode_round and self.round >= self.explode_round:
            raise RuntimeError(f"toy engine exploded in round {self.round}")
        self.seat += 1
        if self.seat < self.players:
            return
        self.seat = 0
        if max(self.positions) >= self.target:
            self.over, self.end_reason = True, "target"
        elif self.max_rounds and self.round >= self.max_rounds:
            self.over, self.end_reason, self.cap = True, "cap", "max_rounds"
        else:
            self.round += 1

    def is_terminal(self) -> bool:
        return self.over

    def scores(self) -> list[int]:
        return [min(p, self.target) for p in self.positions]

    def returns(self) -> list[float]:
        scores = self.scores()
        best = max(scores)
        winners = [i for i, s in enumerate(scores) if s == best]
        return [1 / len(winners) if i in winners else 0.0 for i in range(self.players)]

    def outcome(self) -> dict:
        return {"scores": self.scores(), "rounds": self.round, "turns": self.turns,
                "end_reason": self.end_reason, "cap": self.cap, "counters": dict(self.counters)}


class Heuristic:
    """Rolls while far from the target, steps when one step is enough."""

    def __init__(self, seat: int):
        self.seat = seat

    def choose(self, state: DiceRace, rng):
        return STEP if state.positions[self.seat] >= state.target - 1 else ROLL


class RandomBot:
    def __init__(self, seat: int):
        self.seat = seat

    def choose(self, state: DiceRace, rng):
        return rng.choice(state.legal_actions())


class Cautious:
    def __init__(self, seat: int):
        self.seat = seat

    def choose(self, state: DiceRace, rng):
        return STEP


class Cheater:
    def __init__(self, seat: int):
        self.seat = seat

    def choose(self, state: DiceRace, rng):
        return "jump"


def new_game(records, players: int) -> DiceRace:
    return DiceRace(records, players)


def nominal(records) -> dict:
    faces = [(r["value"], r["weight"]) for r in records["faces"]]
    return {"pips/rolls": sum(v * w for v, w in faces) / sum(w for _, w in faces), "steps": 2.0,
            "bonus": 1.0}


def blame(records, outcome: dict) -> list[SourceRef]:
    """A stuck race is the `stuck` rule's fault; a capped one is its cap's and the dice's."""
    by_name = {r["parameter"]: r for r in records["rules"]}
    if _rules(records)["stuck"]:
        return [by_name["stuck"].at("value")]
    if outcome.get("cap"):
        return [by_name["max_rounds"].at("value")] + [r.ref for r in records["faces"]]
    return []


SIMULATION = Simulation(new_game=new_game,
                        bots={"heuristic": Heuristic, "random": RandomBot, "cautious": Cautious,
                              "cheater": Cheater},
                        players=(2, 4), default_players=3, nominal=nominal, blame=blame)

VARIANTS = {"toy": {}, "toy-stuck": {"stuck": 1}, "toy-capped": {"stuck": 1, "max_rounds": 5}}


def load(game: str, root: str):
    """A GameSource loader (top-level, so a spawned worker can import it): the Simulation and records."""
    return SIMULATION, toy_records(**VARIANTS[game])


def toy_module(game: str = "toy") -> GameModule:
    """The toy as a registered game would look to the CLI."""
    return GameModule(id=game, title="Toy dice race", data_files=(Path("/nonexistent") / FILE,), sheets=(),
                      template_dir=Path("/nonexistent/templates/toy"), components=lambda records: [],
                      manifest_sheet=None, simulation=SIMULATION)

