"""A Challengers match told card by card, for the rulebook and the tests (challengers.md §4.2): the game's own
Match (engine/match.py) fed with two decks in a known order instead of chance, so what the book prints is what
the engine plays."""

from __future__ import annotations

from pipeline.games.challengers.engine.match import Match


def tell_match(data, deck0: list[str], deck1: list[str], params: dict | None = None,
               benches: tuple = ((), ())) -> dict:
    """Play one match of two decks given top first (card ids), side 0 starting, through the game's own Match:
    returns {"winner": 0 | 1, "end": empty_deck | bench_full | cap, "events": [...], "benches", "discards",
    "fans"}. Events are dicts: reveal (card, attack, defence), effect (op, n), capture (the capturing card),
    bench (cards), flag (card, defence), mill (card), loss (reason). `benches` fills benches beforehand (ids)."""
    order = ([data.index[c] for c in deck0], [data.index[c] for c in deck1])
    counts = tuple(_counts(cards) for cards in order)
    log: list = []
    match = Match(data, counts[0], counts[1], params, log,
                  tuple([data.index[c] for c in bench] for bench in benches))
    nxt = [0, 0]
    while True:
        side = match.pending()
        if side is None:
            break
        if match.size[side]:
            card = order[side][nxt[side]]
            nxt[side] += 1
        else:
            card = match.bottom[side][0]
        match.feed(card)
    return {"winner": match.winner, "end": match.end, "events": log, "fans": list(match.fans),
            "benches": [[data.ids(slot) for slot in bench.values()] for bench in match.bench],
            "discards": [data.ids(d) for d in match.discard]}


def _counts(cards: list[int]) -> dict[int, int]:
    counts: dict[int, int] = {}
    for card in cards:
        counts[card] = counts.get(card, 0) + 1
    return counts
