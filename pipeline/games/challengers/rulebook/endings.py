"""The end of a game as the rulebook shows it, with the engine's own scoring rules (engine/scoring.py): the lead
that ends a 1–2 player game (CH-T1) and who reaches the final after a tie on fans (CH-D7), with trophies
drawn from the workbook's trophy table."""

from __future__ import annotations

from itertools import combinations

from pipeline.games.challengers.engine.scoring import fans, lead_winner, matches_per_round, qualified, rank_key

FINALISTS = ("Chloé", "David", "Emma")


def lead_example(rules: dict) -> dict:
    """Two scores after a Match phase: one lead that ends the game, one a fan short that does not."""
    lead, other = rules["lead_to_win"], 14
    return {"other": other, "stops": other + lead, "goes_on": other + lead - 1,
            "stops_wins": lead_winner(other + lead, other, lead) == 0,
            "goes_on_wins": lead_winner(other + lead - 1, other, lead) is not None}


def _tokens(trophies: dict) -> list[tuple[int, int]]:
    return [(row["round"], value) for row in trophies["rounds"] for value in row["values"]]


def _possible(hands: list, trophies: dict) -> bool:
    """Trophies three players can hold together: no more of a round than its matches (the robot joins, so
    matches_per_round(3)), no more of a value than the round's tokens."""
    rounds = {row["round"]: row["tokens"] for row in trophies["rounds"]}
    taken: dict = {}
    for hand in hands:
        for r, v in hand:
            taken[r] = taken.get(r, 0) + 1
            taken[(r, v)] = taken.get((r, v), 0) + 1
    return all(taken[key] <= (matches_per_round(3) if isinstance(key, int) else rounds[key[0]].get(key[1], 0))
               for key in taken)


def final_example(trophies: dict, rules: dict) -> dict | None:
    """Three players after the last round: Chloé ahead; David and Emma level on fans and on trophies, parted by
    their best trophy: the richest such pair of two-trophy hands (rounds apart) of the trophy table.""" 
    hands = [pair for pair in combinations(_tokens(trophies), 2) if pair[0][0] != pair[1][0]]
    mode = rules["fans_from_trophies"]
    by_fans = sorted(combinations(hands, 2), key=lambda pair: -fans(list(pair[0]), 0, mode))   # close to the top
    for pair in by_fans:
        david, emma = sorted(pair, key=lambda hand: max(v for _, v in hand))
        if fans(list(david), 0, mode) != fans(list(emma), 0, mode) or \
                max(v for _, v in david) == max(v for _, v in emma):
            continue
        chloe = next((list(hand) for hand in sorted(hands, key=lambda hand: -fans(list(hand), 0, mode))
                      if _possible([hand, david, emma], trophies)), None)
        if chloe is None:
            continue
        tokens = 2
        keys = [rank_key(chloe, tokens, mode), rank_key(list(david), 0, mode), rank_key(list(emma), 0, mode)]
        sure, tied, _ = qualified(keys)
        if tied or keys[0] <= keys[2]:
            continue
        return {"players": [{"name": name, "trophies": [{"round": r, "value": v} for r, v in hand],
                             "tokens": n, "fans": key[0], "best": key[2]}
                            for name, hand, n, key in zip(FINALISTS, (chloe, david, emma), (tokens, 0, 0), keys)],
                "finalists": [FINALISTS[seat] for seat in sorted(sure)]}
    return None
