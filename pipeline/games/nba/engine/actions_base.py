"""NBA Deck-Building engine: reading actions (shared by actions.py and actions_start.py)."""

from __future__ import annotations

from pipeline.games.nba.engine.data import POSITIONS


def _tag(action) -> str:
    if type(action) is tuple and action and type(action[0]) is str:
        return action[0]
    raise ValueError(f"{action!r} is not an action (a tuple starting with its name)")


def _shape(action, length: int) -> None:
    if len(action) != length:
        raise ValueError(f"{action!r}: {action[0]} takes {length - 1} argument(s)")


def _card(state, name, where: list, what: str) -> int:
    card = state.data.index.get(name) if type(name) is str else None
    if card is None or card not in where:
        raise ValueError(f"{name!r} is not {what}")
    return card


def _cards(state, names, where: list, what: str) -> list:
    if type(names) not in (tuple, list):
        raise ValueError(f"{names!r} is not a list of cards")
    left, out = list(where), []
    for name in names:
        card = _card(state, name, left, what)
        left.remove(card)
        out.append(card)
    return out


def _position(code) -> int:
    if code not in POSITIONS:
        raise ValueError(f"{code!r} is not a position ({', '.join(POSITIONS)})")
    return POSITIONS.index(code)
