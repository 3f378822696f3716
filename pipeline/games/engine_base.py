"""The one base every game engine's State extends, pure like the engines (standard library only): the public,
OpenSpiel-shaped interface is written here once, each game brings its rules as phase tables and a few hooks.

The phase-table idiom, the template for every new game (pipeline/games/_template/engine/ plays it):

    phase             the kind of decision the game waits for (an int or a name); the game's own
    CHANCE_PHASES     the phases where chance acts: the driver samples chance_outcomes() and applies one
    OVER              the phase of a finished game
    LEGAL[phase]      (state, seat) -> the seat's legal actions in that phase, sorted and stable
    HANDLERS[phase]   {tag: handler(state, seat, action)}: an action is a tuple whose first item is its tag;
                      a handler refuses what the rules forbid with ValueError before changing anything, so a
                      refused action leaves the state exactly as it was
    current_player()  the seat that decides, CHANCE or TERMINAL (the game's: who acts is a rule)
    chance_outcomes() [(outcome, probability)] at a chance phase, in a stable order
    _apply_chance(o)  applies a chance outcome (ValueError for one that is not possible)
    _after_step(phase, tag)  bookkeeping after every step (counters, a step cap); the default applies chance
                      nodes that have one outcome (_settle) before the next decision
    winners()         the seats that share the win, once the game is over (returns() is built on it)

A rule then lives in one handler, apply_action never grows a chain of ifs, and legal_actions, apply_action,
is_terminal, returns, clone and snapshot are the same code for every game. The step cap of a game counts in
_after_step and ends it with end_reason "cap" (the rules parameter max_steps names it in the outcome)."""

from __future__ import annotations

from typing import Any, Callable, Mapping

CHANCE, TERMINAL = -1, -2


def as_action(action):
    """An action given as a list (from JSON, a replay file) as the engine compares it: tuples at any depth."""
    if type(action) is list:
        return tuple(as_action(part) for part in action)
    return action


class _EveryTag(dict):
    __slots__ = ("handler",)

    def get(self, tag, default=None):
        return self.handler


def every_tag(handler: Callable) -> Mapping[str, Callable]:
    """HANDLERS[phase] for a phase whose one handler tells its tags apart itself (NBA's decision nodes check
    the whole action, tag included, in one function per node)."""
    table = _EveryTag()
    table.handler = handler
    return table


class PhaseState:
    __slots__ = ()

    CHANCE_PHASES: frozenset = frozenset()
    OVER: Any = None
    PHASE_NAMES: Any = ()
    LEGAL: Mapping[Any, Callable] = {}
    HANDLERS: Mapping[Any, Mapping[str, Callable]] = {}
    SHARED = ("data", "prm")        # read-only for the whole game: clones share them, snapshots leave them out

    # --- the interface --------------------------------------------------------------------------------------

    def is_terminal(self) -> bool:
        return self.phase == self.OVER

    def legal_actions(self) -> list:
        phase = self.phase
        if phase in self.CHANCE_PHASES:
            return sorted(outcome for outcome, _ in self.chance_outcomes())
        if phase == self.OVER:
            return []
        return self.LEGAL[phase](self, self.current_player())

    def apply_action(self, action) -> None:
        """A seat's action or a chance outcome; ValueError, with the state unchanged, if it is not legal."""
        phase = self.phase
        if phase in self.CHANCE_PHASES:
            self._apply_chance(action)
            tag = None
        else:
            if type(action) is list:
                action = as_action(action)
            tag = action[0] if type(action) is tuple and action else None
            handler = self.HANDLERS[phase].get(tag) if type(tag) is str else None
            if handler is None:
                raise ValueError(f"{action!r} is not an action of phase {self.PHASE_NAMES[phase]}")
            handler(self, self.current_player(), action)
        self._after_step(phase, tag)

    def returns(self) -> list[float]:
        """Per seat at the end: 1 for a sole winner, 1/k each for a win shared by k, else 0."""
        if self.phase != self.OVER:
            return [0.0] * self.n
        winners = self.winners()
        return [1 / len(winners) if seat in winners else 0.0 for seat in range(self.n)]

    def clone(self):
        """An independent copy: containers copied at every depth, the game's read-only data shared."""
        other = object.__new__(type(self))
        for name in _slots(type(self)):
            value = getattr(self, name)
            setattr(other, name, value if name in self.SHARED else _copied(value))
        return other

    def snapshot(self) -> tuple:
        """Everything that defines the position, comparable with == (a refused action changes nothing)."""
        return tuple(_frozen(getattr(self, name)) for name in _slots(type(self)) if name not in self.SHARED)

    # --- hooks with a default --------------------------------------------------------------------------------

    def _after_step(self, phase, tag) -> None:
        if self.phase in self.CHANCE_PHASES:
            self._settle()


def _slots(cls) -> tuple[str, ...]:
    names = []
    for klass in reversed(cls.__mro__):
        slots = klass.__dict__.get("__slots__", ())
        names.extend((slots,) if isinstance(slots, str) else slots)
    return tuple(names)


def _copied(value):
    kind = type(value)
    if kind is list:
        return [_copied(v) for v in value]
    if kind is dict:
        return {k: _copied(v) for k, v in value.items()}
    if kind is set:
        return set(value)
    if hasattr(value, "copy") and kind not in (tuple, frozenset, str, bytes):
        return value.copy()
    return value


def _frozen(value):
    if isinstance(value, dict):
        return tuple(sorted(((repr(k), _frozen(v)) for k, v in value.items())))
    if isinstance(value, (list, tuple)):
        return tuple(_frozen(v) for v in value)
    if isinstance(value, (set, frozenset)):
        return tuple(sorted(value, key=repr))
    if hasattr(value, "frozen"):
        return value.frozen()
    return value


def check_typed_params(specs: Mapping[str, tuple], params: Mapping) -> None:
    """Every parameter present, typed and in range, ValueError naming the first that is not. A spec is
    ("bool",), ("enum", choice, …), ("int", low, high) or ("str",) (an id the game's checks resolve)."""
    for name, spec in specs.items():
        if name not in params:
            raise ValueError(f"missing rule parameter {name}")
        value, kind = params[name], spec[0]
        if kind == "bool":
            ok = isinstance(value, bool)
        elif kind == "enum":
            ok = value in spec[1:]
        elif kind == "str":
            ok = isinstance(value, str) and value != ""
        else:
            ok = isinstance(value, int) and not isinstance(value, bool) and spec[1] <= value <= spec[2]
        if not ok:
            allowed = ("true or false" if kind == "bool" else " | ".join(spec[1:]) if kind == "enum"
                       else "a non-empty text" if kind == "str" else f"an integer {spec[1]}..{spec[2]}")
            raise ValueError(f"rule parameter {name} = {value!r} is not {allowed}")
