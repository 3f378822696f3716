"""NBA Deck-Building's formulas (shared/games/nba-deck-building.md §3.5), pure functions on plain numbers.

Standard library only. The engine, the bots, the rulebook's worked example and the player aid all use these,
so the numbers printed are the numbers played.
"""

from __future__ import annotations

import functools
from math import ceil
from typing import Iterable, Mapping, Sequence

OFFENCE_SKILLS = ("3P", "IN", "PE")
DEFENCE_SKILLS = ("IT", "BL", "ST")
DICE = OFFENCE_SKILLS + DEFENCE_SKILLS
SKILLS = DICE + ("RB", "GI")
COLOUR_OF_DIE = {"3P": "blue", "IN": "yellow", "PE": "red"}     # an offensive die's colour


def team_level(lineup: Iterable[Mapping[str, int]], skill: str) -> int:
    """Σ of one rating over the Player cards on court (GI gives the collective level)."""
    return sum(card[skill] for card in lineup)


def collective(lineup: Iterable[Mapping[str, int]]) -> int:
    return team_level(lineup, "GI")


def dice_to_roll(levels: Mapping[str, int], skills: Sequence[str], cap: int, scope: str = "per_skill"
                 ) -> dict[str, int]:
    """Dice rolled per skill: the team level, at most `cap` per skill (or `cap` in all, shared in order)."""
    if scope == "per_skill":
        return {s: min(cap, max(0, levels[s])) for s in skills}
    left, out = cap, {}
    for s in skills:
        out[s] = min(left, max(0, levels[s]))
        left -= out[s]
    return out


def offensive_rerolls(own_rb: int, opp_rb: int, divisor: int = 3) -> int:
    """max(0, ceil((own − opp) / divisor)): a tie gives none (AMB-34)."""
    return max(0, ceil((own_rb - opp_rb) / divisor))


def keep_best(values: Sequence[int], keep: int) -> list[int]:
    """The `keep` highest values, highest first (keeping is never a real choice: AMB-18)."""
    return sorted(values, reverse=True)[:keep]


def attack_points(offence: Iterable[tuple[str, int]], defence: Iterable[tuple[int, str | None]],
                  negative: str = "clamp0") -> int:
    """offence: (die, value) kept by the attacker; defence: (value, face colour) kept by the defender.
    Only defensive faces whose colour matches a colour among the attack's dice count (§3.4 A)."""
    offence = list(offence)
    colours = {COLOUR_OF_DIE[die] for die, _ in offence}
    total = sum(v for _, v in offence) - sum(v for v, colour in defence if colour in colours)
    return max(0, total) if negative == "clamp0" else total


def normal_turns(pile_cards: int, track_slots: int = 6) -> int:
    """Normal turns of a game under the countdown rule (AMB-03): the setup reveals one card, each turn
    reveals one more, and the turn revealing the last starts `track_slots` final turns: N − 1 + track_slots − 1
    + 1 = N + 4 with six slots."""
    return pile_cards - 1 + track_slots - 1


# --- the Player track (§3.4 B, AMB-02) ----------------------------------------------------------------------

def push_track(track: Sequence, card) -> tuple[list, object]:
    """A revealed card enters slot 1 and pushes the cards ahead of it up to the first hole (None).
    Returns (new track, the card pushed out of the last slot or None)."""
    out, carry = list(track), card
    for i, held in enumerate(out):
        out[i], carry = carry, held
        if held is None:
            return out, None
    return out, carry


def shift_track(track: Sequence) -> tuple[list, object]:
    """Empty Player pile (river_when_pile_empty = shift_all): every card moves one slot towards the last, holes
    included; the card pushed out of the last slot is returned (None if it was a hole)."""
    return [None] + list(track[:-1]), track[-1] if track else None


# --- expected dice (§2.3), exact ----------------------------------------------------------------------------

@functools.lru_cache(maxsize=4096)
def _binomial_tail(n: int, q: float) -> tuple[float, ...]:
    """P(B >= j) for j = 0..n, B ~ Binomial(n, q) (the same few dice, asked thousands of times a game)."""
    pmf = [0.0] * (n + 1)
    pmf[0] = 1.0
    for _ in range(n):
        for j in range(n, 0, -1):
            pmf[j] = pmf[j] * (1 - q) + pmf[j - 1] * q
        pmf[0] *= 1 - q
    tail, running = [0.0] * (n + 2), 0.0
    for j in range(n, -1, -1):
        running += pmf[j]
        tail[j] = running
    return tuple(tail[:n + 1])


def expected_best(faces: Sequence[int], n: int, k: int) -> float:
    """E[Σ of the k highest of n dice], each die showing one of `faces` (values ≥ 0) with equal chance.

    The k best sum to Σ_i (w_i − w_(i+1)) · min(k, N_i) over the distinct values w_1 > w_2 > … (w_(m+1) = 0),
    N_i being the number of dice showing at least w_i: a binomial count."""
    return _expected_best(tuple(faces), n, k)


@functools.lru_cache(maxsize=4096)
def _expected_best(faces: tuple[int, ...], n: int, k: int) -> float:
    if n <= 0 or k <= 0:
        return 0.0
    levels = sorted({v for v in faces if v > 0}, reverse=True)
    total = 0.0
    for i, w in enumerate(levels):
        step = w - (levels[i + 1] if i + 1 < len(levels) else 0)
        q = sum(1 for v in faces if v >= w) / len(faces)
        tail = _binomial_tail(n, q)
        total += step * sum(tail[j] for j in range(1, min(k, n) + 1))
    return total
