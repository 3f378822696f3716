"""Challengers' pure scoring rules (challengers.md §2.6, §2.7, §3.5, §3.6): fans, the lead that ends a 1–2 player
game, the start player of a match, the finalists' order, the trophy values of a round and the matches per round.
The engine calls these; tests and the rulebook may call them with plain numbers."""

from __future__ import annotations

from pipeline.games.challengers.engine.pairing import participants_for


def fans(trophies: list, tokens: int, fans_from_trophies: str = "values") -> int:
    """CH-A6: the trophies' fan values (or one fan per trophy) + fan tokens. trophies: [(round, value), …]."""
    if fans_from_trophies == "count":
        return len(trophies) + tokens
    return sum(value for _, value in trophies) + tokens


def lead_winner(fans_a: int, fans_b: int, lead_to_win: int) -> int | None:
    """CH-T1: 1–2 players after a Match phase: 0 or 1 leads by at least lead_to_win, else None (play on)."""
    if fans_a - fans_b >= lead_to_win:
        return 0
    if fans_b - fans_a >= lead_to_win:
        return 1
    return None


def best_round(trophies: list) -> int:
    return max((r for r, _ in trophies), default=0)


def start_player(trophies_a: list, trophies_b: list) -> int | None:
    """§2.3, CH-A7: 0 or 1 holds the trophy of the highest round; None when neither or both do (chance)."""
    a, b = best_round(trophies_a), best_round(trophies_b)
    return None if a == b else 0 if a > b else 1


def rank_key(trophies: list, tokens: int, fans_from_trophies: str = "values") -> tuple[int, int, int]:
    """§2.7, CH-D7: fans, then the number of trophies, then the best trophy's value (then chance)."""
    return (fans(trophies, tokens, fans_from_trophies), len(trophies), max((v for _, v in trophies), default=0))


def ranked(keys: list[tuple]) -> tuple[list[list[int]], ...]:
    """Seats grouped by equal key, best group first."""
    groups: dict[tuple, list[int]] = {}
    for seat, key in enumerate(keys):
        groups.setdefault(key, []).append(seat)
    return tuple(groups[key] for key in sorted(groups, reverse=True))


def qualified(keys: list[tuple], places: int = 2) -> tuple[list[int], list[int], int]:
    """(seats sure to qualify, the tied group that chance must cut, how many of it qualify)."""
    sure: list[int] = []
    for group in ranked(keys):
        if len(sure) + len(group) <= places:
            sure += group
            if len(sure) == places:
                return sure, [], 0
        else:
            return sure, group, places - len(sure)
    return sure, [], 0


def trophy_values(tokens: list[tuple[int, int]]) -> list[int]:
    """The values a round's trophy can have (CH-T5): the distinct values with tokens left."""
    return sorted({value for value, count in tokens if count > 0})


def matches_per_round(players: int) -> int:
    """CH-D8: participants / 2 (the robot joins odd counts)."""
    return participants_for(players) // 2
