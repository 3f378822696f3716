"""The one engine base (pipeline/games/engine_base.py): the public interface every game's State inherits,
on a toy game of two phases, and a check that the games keep their rules in tables and hooks."""

from __future__ import annotations

import pytest

from pipeline.games.engine_base import CHANCE, TERMINAL, PhaseState, as_action, every_tag

PICK, DRAW, OVER = 0, 1, 2


class Toy(PhaseState):
    """Seats pick numbers in turn; after each pick a card is drawn by chance; after 4 picks the game ends."""

    __slots__ = ("data", "n", "phase", "seat", "picked", "drawn", "log", "steps")

    def __init__(self, players: int = 2):
        self.data, self.n, self.phase, self.seat = {"cards": (1, 2, 3)}, players, PICK, 0
        self.picked, self.drawn, self.log, self.steps = [[] for _ in range(players)], [], {"picks": 0}, 0

    def current_player(self) -> int:
        return {PICK: self.seat, DRAW: CHANCE}.get(self.phase, TERMINAL)

    def chance_outcomes(self) -> list:
        return [(card, 1 / 3) for card in (3, 1, 2)] if self.phase == DRAW else []

    def winners(self) -> list[int]:
        totals = [sum(p) for p in self.picked]
        return [seat for seat, total in enumerate(totals) if total == max(totals)]

    def _pick(self, seat: int, action: tuple) -> None:
        if type(action[1]) is not int or not 1 <= action[1] <= 3:
            raise ValueError(f"{action!r}: pick 1, 2 or 3")
        self.picked[seat].append(action[1])
        self.log["picks"] += 1
        self.phase = DRAW

    def _apply_chance(self, card) -> None:
        if card not in self.data["cards"]:
            raise ValueError(f"{card!r} is not a card")
        self.drawn.append(card)
        self.seat = (self.seat + 1) % self.n
        self.phase = OVER if self.log["picks"] == 4 else PICK

    def _after_step(self, phase, tag) -> None:
        self.steps += 1


Toy.LEGAL = {PICK: lambda state, seat: [("pick", n) for n in (1, 2, 3)]}
Toy.HANDLERS = {PICK: {"pick": Toy._pick}, OVER: {}}
Toy.CHANCE_PHASES, Toy.OVER, Toy.PHASE_NAMES = frozenset({DRAW}), OVER, ("pick", "draw", "over")


def test_lists_become_tuples_at_every_depth():
    assert as_action(["sell", [3, [4, 5]], 2]) == ("sell", (3, (4, 5)), 2)
    assert as_action(("end",)) == ("end",) and as_action("card") == "card"


def test_a_game_played_through_the_base():
    state = Toy()
    assert state.legal_actions() == [("pick", 1), ("pick", 2), ("pick", 3)]
    state.apply_action(["pick", 3])                                   # a JSON list is accepted
    assert state.picked == [[3], []] and state.current_player() == CHANCE
    assert state.legal_actions() == [1, 2, 3]                        # a chance phase: its outcomes, sorted
    for action in (2, ("pick", 2), 1, ("pick", 1), 3, ("pick", 2), 1):
        state.apply_action(action)
    assert state.is_terminal() and state.legal_actions() == [] and state.steps == 8
    assert state.picked == [[3, 1], [2, 2]] and state.drawn == [2, 1, 3, 1]
    assert state.returns() == [0.5, 0.5]                             # 4 each: a shared win


def test_returns_give_a_sole_winner_1_and_nothing_before_the_end():
    state = Toy()
    assert state.returns() == [0.0, 0.0]
    for action in (("pick", 3), 1, ("pick", 1), 1, ("pick", 3), 1, ("pick", 1), 1):
        state.apply_action(action)
    assert state.picked == [[3, 3], [1, 1]] and state.returns() == [1.0, 0.0]


@pytest.mark.parametrize("action, message", [(("jump",), "not an action of phase pick"), ((), "not an action"),
                                             ("pick", "not an action"), (("pick", 9), "pick 1, 2 or 3"),
                                             (None, "not an action")])
def test_a_refused_action_changes_nothing(action, message):
    state = Toy()
    state.apply_action(("pick", 2))
    state.apply_action(1)
    before = state.snapshot()
    with pytest.raises(ValueError, match=message):
        state.apply_action(action)
    assert state.snapshot() == before and state.steps == 2


def test_after_the_end_every_action_is_refused():
    state = Toy()
    for action in (("pick", 1), 1) * 4:
        state.apply_action(action)
    with pytest.raises(ValueError, match="phase over"):
        state.apply_action(("pick", 1))


def test_a_clone_shares_the_data_and_nothing_else():
    state = Toy()
    state.apply_action(("pick", 2))
    twin = state.clone()
    assert twin.snapshot() == state.snapshot() and twin.data is state.data
    twin.apply_action(3)
    twin.apply_action(("pick", 1))
    assert state.picked == [[2], []] and state.drawn == [] and state.log == {"picks": 1}
    assert twin.picked == [[2], [1]] and twin.log == {"picks": 2}


def test_every_tag_hands_any_tag_to_the_one_handler():
    table = every_tag(print)
    assert table.get("anything") is print and table.get("end") is print


@pytest.mark.parametrize("game", ["buildit", "allstar", "nba", "_template"])
def test_every_game_keeps_its_rules_in_tables_and_hooks(game):
    """The public interface is the base's; a game State overrides it only where its rules differ, and says
    why in the override's docstring (NBA: a capped game is a draw; a running generator cannot be copied)."""
    from importlib import import_module

    state_class = import_module(f"pipeline.games.{game}.engine").State
    assert issubclass(state_class, PhaseState)
    public = ("legal_actions", "apply_action", "is_terminal", "returns", "clone", "snapshot")
    for name in public:
        owner = next(klass for klass in state_class.__mro__ if name in klass.__dict__)
        if owner is not PhaseState:
            assert (game, name) in {("nba", "returns"), ("nba", "clone")}, f"{game} rewrites {name}"
            assert owner.__dict__[name].__doc__, f"{game}.{name} overrides the base without saying why"
    assert state_class.LEGAL and state_class.HANDLERS and state_class.CHANCE_PHASES and state_class.PHASE_NAMES
