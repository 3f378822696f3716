"""Tokens: the trophies (a secret-backed family: the round on the side that lies up, the same for every trophy
of a round; the fans under a star on the side that lies down), the flags and the fan tokens."""

from __future__ import annotations

from pipeline.data.specs import CardDeck, FaceSpec, Records
from pipeline.games.secret_tokens import SecretGroup, secret_tokens

TROPHY = (24.0, 24.0)       # duplex: the round side is each token's back, printed behind its value side
FLAG = (22.0, 22.0)
FAN_SIZES = {1: (15.0, 15.0), 5: (18.0, 18.0)}


def trophy_groups(records: Records) -> list[SecretGroup]:
    """One group per round: its tokens' values (count copies each, trophies sheet order within the round)."""
    rounds: dict[int, list] = {}
    for rec in records["trophies"]:
        rounds.setdefault(rec["round"], []).append(rec)
    groups = []
    for number in sorted(rounds):
        secrets, refs = [], []
        for rec in rounds[number]:
            for _ in range(rec["count"]):
                secrets.append({"value": rec["value"]})
                refs.append(rec.at("count"))
        groups.append(SecretGroup(f"r{number}", {"round": number}, tuple(secrets), tuple(refs),
                                  f"trophy of round {number}"))
    return groups


def trophies(records: Records) -> CardDeck:
    return secret_tokens("trophies", "Trophées", trophy_groups(records), "trophy-value.yaml", "trophy-round.yaml",
                         TROPHY, group_key="trophy")


def flags(count: int) -> CardDeck:
    fronts = tuple(FaceSpec("flag.yaml", {"card": {"index": i, "copy": i, "copies": count}}, None, f"flag-{i}",
                            f"flag {i}") for i in range(1, count + 1))
    return CardDeck("flags", "Drapeaux", fronts, None, FLAG)


def fan_tokens(counts: dict[int, int]) -> list[CardDeck]:
    """Single-sided: a fan token's value is public. One deck per value, in two sizes, so a 5 is told from a 1
    by its size too."""
    decks = []
    for value, count in sorted(counts.items()):
        side = FAN_SIZES[value][0]
        fronts = tuple(FaceSpec("fan.yaml", {"value": value, "side": side,
                                             "card": {"index": copy, "copy": copy, "copies": count}},
                                None, f"fan{value}-{copy}", f"fan token {value}", size_mm=FAN_SIZES[value])
                       for copy in range(1, count + 1))
        decks.append(CardDeck(f"fans-{value}", f"Jetons Fan de {value}", fronts, None, FAN_SIZES[value]))
    return decks
