"""NBA Deck-Building engine, the decisions before phase C: Expert 1's team selection, Expert 2's draft
choices and the Tactic market refresh of phase B (actions: see actions.py)."""

from __future__ import annotations

from itertools import combinations

from pipeline.games.nba.engine.actions_base import _card, _cards, _shape, _tag
from pipeline.games.nba.engine.data import PLAYER, TACTIC


# --- setup variants ---------------------------------------------------------------------------------------------

def team_choices(state, seat: int) -> list:
    """Expert 1: the cards this seat may take next (engine integers)."""
    data, prm = state.data, state.prm
    parts = data.sets["AB"[seat]]
    court = state.court[seat]
    if None in court:
        return [c for c in parts["starters"] if court[data.player[c].positions[0]] is None]
    deck = state.team_deck[seat]
    left = prm["team_deck_size"] - len(deck) - 1
    subs = sum(1 for c in deck if data.kind[c] == PLAYER)
    out = []
    for c in parts["substitutes"] + parts["tactics"]:
        if deck.count(c) >= data.copies[c]:
            continue
        s, t = subs + (data.kind[c] == PLAYER), len(deck) - subs + (data.kind[c] == TACTIC)
        if max(0, prm["team_min_substitutes"] - s) + max(0, prm["team_min_tactics"] - t) <= left:
            out.append(c)
    return out


def check_team(state, seat: int, action):
    tag = _tag(action)
    _shape(action, 2)
    if tag != ("starter" if None in state.court[seat] else "deck"):
        raise ValueError(f"{action!r}: choose {'a starter' if None in state.court[seat] else 'a deck card'} now")
    return _card(state, action[1], team_choices(state, seat), "a card this team may take now")


def legal_team(state, seat: int) -> list:
    tag = "starter" if None in state.court[seat] else "deck"
    return sorted((tag, state.data.names[c]) for c in set(team_choices(state, seat)))


def check_draft(state, seat: int, action):
    _tag(action)
    _shape(action, 3)
    prm = state.prm
    if action[0] != "draft":
        raise ValueError(f"{action!r}: a draft choice is ('draft', mini-market cards, common cards)")
    hand = state.draft_hand[seat]
    mini = _cards(state, action[1], hand, "a card of this draft hand")
    give = _cards(state, action[2], [c for c in hand if c not in mini], "a card of this draft hand left")
    if len(mini) != prm["draft_mini_market"] or len(give) != prm["draft_common"]:
        raise ValueError(f"{action!r}: keep {prm['draft_mini_market']} and give {prm['draft_common']}")
    return mini, give


def legal_draft(state, seat: int) -> list:
    names, prm = state.data.names, state.prm
    hand = sorted(names[c] for c in state.draft_hand[seat])
    out = []
    for mini in combinations(hand, prm["draft_mini_market"]):
        rest = [c for c in hand if c not in mini]
        out += [("draft", mini, give) for give in combinations(rest, prm["draft_common"])]
    return sorted(out)


# --- adjustment --------------------------------------------------------------------------------------------------

def check_refresh(state, seat: int, action):
    _tag(action)
    _shape(action, 2)
    slots = action[1]
    if action[0] != "refresh" or type(slots) not in (tuple, list) or list(slots) != sorted(set(slots)) or any(
            type(s) is not int or not 0 <= s < len(state.market) or state.market[s] is None for s in slots):
        raise ValueError(f"{action!r}: ('refresh', increasing occupied market slots)")
    return tuple(slots)


def legal_refresh(state, seat: int) -> list:
    full = [s for s, card in enumerate(state.market) if card is not None]
    return sorted(("refresh", combo) for k in range(len(full) + 1) for combo in combinations(full, k))
