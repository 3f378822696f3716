"""Who meets whom in each Match phase (challengers.md §3.5, CH-A13): the circle method.

Participants are numbered 0 … n−1: the players by seat, then the robot as the last participant when the player
count is odd (so `participants` is always even). The last participant stays put while the others turn one step
per round (rotation (round − 1) mod (n − 1)); with 8 participants over 7 rounds every pair meets exactly once,
with fewer participants the cycle starts again (repeats only when unavoidable). Deterministic: the printed
pairing chart and the engine read the same table."""

from __future__ import annotations


def participants_for(players: int) -> int:
    """Players plus the robot when the player count is odd (a solo game is 1 player against the robot)."""
    return players + (players % 2)


def round_pairs(participants: int, round_index: int) -> list[tuple[int, int]]:
    """The pairs of one round (round_index 0 = round 1), each pair (low, high), sorted by their low index."""
    if participants < 2 or participants % 2:
        raise ValueError(f"the circle method pairs an even number of participants (2 or more), not {participants}")
    fixed, turning = participants - 1, participants - 1
    circle = [(i + round_index) % turning for i in range(turning)]
    pairs = [(circle[0], fixed)]
    pairs += [(circle[k], circle[turning - k]) for k in range(1, participants // 2)]
    return sorted((min(a, b), max(a, b)) for a, b in pairs)


def pairings(participants: int, rounds: int) -> list[list[tuple[int, int]]]:
    """Per round (round 1 first) the list of (a, b) participant pairs; the robot, if any, is participants − 1."""
    return [round_pairs(participants, r) for r in range(rounds)]
