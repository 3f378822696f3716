"""NBA Deck-Building engine, the decisions: for each kind of node, `check` (an action -> what the flow applies,
in engine integers, or ValueError naming why it is refused) and `legal` (every legal action, sorted).

Actions are small tuples of strings and integers (card ids, position codes, slot numbers, die labels):
    team          ("starter", card)  ("deck", card)                               Expert 1
    draft         ("draft", (mini-market cards), (common cards))                  Expert 2
    refresh       ("refresh", (market slots discarded))                           () = no refresh
    main          ("substitute",) ("prepare",) ("buy_player", card, (payment)) ("buy_tactic", card, (payment))
                  ("offence", slot) ("defence", slot) ("end",)                    "end": to the end of turn
    substitution  ("in", card, position) ("move", from position, to position, card) ("fatigue",) ("end",)
    prepare       ("place", card, slot) ("discard_board", "offence"|"defence", slot) ("end",)
    reroll        ("reroll", (die labels))                                        () = no reroll
    end_of_turn   ("keep", card) ("trash", card) ("end",)                         "end" discards the rest
A payment is a minimal set of hand cards (§3.9): dropping any card would no longer pay. "main" comes back
after each action until "end" (each action at most once; after an activation only activations remain). The
sub-steps of a substitution or a preparation and the end-of-turn steps repeat until "end"; when "end" is the
only legal step the engine does not ask (flow.py).
"""

from __future__ import annotations

from pipeline.games.nba.engine.actions_base import _card, _cards, _position, _shape, _tag
from pipeline.games.nba.engine.actions_start import (check_draft, check_refresh, check_team, legal_draft, legal_refresh,
                                                     legal_team)
from pipeline.games.nba.engine.data import FATIGUE, PLAYER, POSITIONS, TACTIC
from pipeline.games.nba.engine.kinds import DRAFT, END, MAIN, PREP, REFRESH, REROLL, SUB, TEAM


# --- phase C -----------------------------------------------------------------------------------------------------

def is_minimal(values: list, cost: int) -> bool:
    """Pays (Σ ≥ cost) and no card could be left out (Σ − the smallest < cost)."""
    total = sum(values)
    return total >= cost and (not values or total - min(values) < cost)


def minimal_payments(cards: list, value, cost: int) -> set:
    """Every minimal paying multiset of these cards, as sorted tuples of engine integers."""
    if cost <= 0:
        return {()}
    cards = sorted(cards)
    out = set()
    for mask in range(1, 1 << len(cards)):
        chosen = [c for i, c in enumerate(cards) if mask >> i & 1]
        if is_minimal([value[c] for c in chosen], cost):
            out.add(tuple(chosen))
    return out


def _buy(state, seat: int, action, player: bool):
    _shape(action, 3)
    data = state.data
    name = action[1]
    card = data.index.get(name) if type(name) is str else None
    if player:
        if card is not None and card in state.track:
            source = state.track.index(card)
        elif card is not None and card in state.mini[seat]:
            source = "mini"
        else:
            raise ValueError(f"{name!r} is not a Player card on the track or in this player's mini-market")
    elif card is not None and card in state.market:
        source = state.market.index(card)
    else:
        raise ValueError(f"{name!r} is not a Tactic card of the market")
    kind = PLAYER if player else TACTIC
    payment = _cards(state, action[2], [c for c in state.hand[seat] if data.kind[c] == kind],
                     f"a {'Player' if player else 'Tactic'} card of this hand")
    if not is_minimal([data.value[c] for c in payment], data.cost[card]):
        raise ValueError(f"{action!r}: the payment is not a minimal one for cost {data.cost[card]}")
    return (action[0], card, payment, source)


def _activation(state, seat: int, action, offence: bool):
    _shape(action, 2)
    board = state.off_board[seat] if offence else state.def_board[seat]
    slot = action[1]
    if type(slot) is not int or not 0 <= slot < len(board) or board[slot] is None:
        raise ValueError(f"{action!r}: no prepared {action[0]} tactic in that slot")
    tactic = state.data.tactic[board[slot]]
    if tactic.complexity > state.collective(seat):
        raise ValueError(f"{action!r}: complexity {tactic.complexity} is above the collective level "
                         f"{state.collective(seat)}")
    return (action[0], slot)


def check_main(state, seat: int, action):
    tag = _tag(action)
    if tag == "end":
        _shape(action, 1)
        return ("end",)
    if tag not in ("substitute", "prepare", "buy_player", "buy_tactic", "offence", "defence"):
        raise ValueError(f"{action!r} is not an action of phase C")
    if tag in state.used:
        raise ValueError(f"{action!r}: {tag} was already done this turn")
    if tag in ("offence", "defence"):
        if tag == "offence" and state.special:
            raise ValueError(f"{action!r}: the special last turn has no offence")
        return _activation(state, seat, action, tag == "offence")
    if state.activating:
        raise ValueError(f"{action!r}: activation is the last step of phase C")
    if tag in ("substitute", "prepare"):
        _shape(action, 1)
        if tag == "substitute" and state.special:
            raise ValueError(f"{action!r}: the special last turn has no substitution")
        return (tag,)
    if state.no_buy:
        raise ValueError(f"{action!r}: no buying in {'the special last turn' if state.special else 'overtime'}")
    return _buy(state, seat, action, tag == "buy_player")


def legal_main(state, seat: int) -> list:
    data, names = state.data, state.data.names
    out = [("end",)]
    used = state.used
    if not state.activating:
        if "substitute" not in used and not state.special:
            out.append(("substitute",))
        if "prepare" not in used:
            out.append(("prepare",))
        if not state.no_buy:
            hand = state.hand[seat]
            for tag, kind, targets in (("buy_player", PLAYER, list(state.track) + list(state.mini[seat])),
                                       ("buy_tactic", TACTIC, state.market)):
                if tag in used:
                    continue
                currency = [c for c in hand if data.kind[c] == kind]
                found: dict = {}
                for card in {c for c in targets if c is not None and c >= 0}:
                    cost = data.cost[card]
                    if cost not in found:
                        found[cost] = minimal_payments(currency, data.value, cost)
                    out += [(tag, names[card], tuple(names[c] for c in pay)) for pay in found[cost]]
    collective = state.collective(seat)
    for tag, board in (("offence", state.off_board[seat]), ("defence", state.def_board[seat])):
        if tag in used or (tag == "offence" and state.special):
            continue
        out += [(tag, s) for s, card in enumerate(board)
                if card is not None and data.tactic[card].complexity <= collective]
    return sorted(out)


# --- substitution and preparation -----------------------------------------------------------------------------------

def check_sub(state, seat: int, action):
    tag = _tag(action)
    data, hand = state.data, state.hand[seat]
    if tag == "end":
        _shape(action, 1)
        return ("end",)
    if tag == "fatigue":
        _shape(action, 1)
        tired = [c for c in hand if data.kind[c] == FATIGUE]
        if not tired or state.sub_fatigue >= state.sub_in * state.prm["fatigue_per_substitution"]:
            raise ValueError(f"{action!r}: no Fatigue card to remove now (one per card brought in)")
        return ("fatigue", min(tired))
    if tag == "in":
        _shape(action, 3)
        pos = _position(action[2])
        card = _card(state, action[1], [c for c in hand if data.kind[c] == PLAYER], "a Player card of this hand")
        if pos not in data.player[card].positions:
            raise ValueError(f"{action!r}: the card cannot take slot {action[2]} now")
        return ("in", card, pos)
    if tag == "move":
        _shape(action, 4)
        frm, to = _position(action[1]), _position(action[2])
        card = _card(state, action[3], [c for c in hand if data.kind[c] == PLAYER], "a Player card of this hand")
        if frm == to or to not in data.player[state.court[seat][frm]].positions \
                or frm not in data.player[card].positions:
            raise ValueError(f"{action!r}: not a possible move")
        return ("move", frm, to, card)
    raise ValueError(f"{action!r} is not a substitution step")


def legal_sub(state, seat: int) -> list:
    data, names = state.data, state.data.names
    court = state.court[seat]
    players = sorted({c for c in state.hand[seat] if data.kind[c] == PLAYER})
    out = [("end",)]
    out += [("in", names[c], POSITIONS[p]) for c in players for p in data.player[c].positions]
    for frm, mover in enumerate(court):
        for to in data.player[mover].positions:
            if to != frm:
                out += [("move", POSITIONS[frm], POSITIONS[to], names[c]) for c in players
                        if frm in data.player[c].positions]
    if state.sub_fatigue < state.sub_in * state.prm["fatigue_per_substitution"] and any(
            data.kind[c] == FATIGUE for c in state.hand[seat]):
        out.append(("fatigue",))
    return sorted(out)


def check_prep(state, seat: int, action):
    tag = _tag(action)
    if tag == "end":
        _shape(action, 1)
        return ("end",)
    if tag == "place":
        _shape(action, 3)
        card = _card(state, action[1], [c for c in state.hand[seat] if state.data.kind[c] == TACTIC],
                     "a Tactic card of this hand")
        row = "offence" if state.data.tactic[card].offence else "defence"
        slot = action[2]
        board = state.off_board[seat] if row == "offence" else state.def_board[seat]
        if row == "offence" and state.special:
            raise ValueError(f"{action!r}: the special last turn prepares defences only")
        if type(slot) is not int or not 0 <= slot < len(board):
            raise ValueError(f"{action!r}: not a free {row} slot now")
        return ("place", row, slot, card)
    if tag == "discard_board":
        _shape(action, 3)
        row, slot = action[1], action[2]
        board = state.off_board[seat] if row == "offence" else state.def_board[seat] if row == "defence" else None
        if not state.prm["allow_free_tactic_discard"] or board is None or type(slot) is not int \
                or not 0 <= slot < len(board) or board[slot] is None:
            raise ValueError(f"{action!r}: prepared tactics are only replaced (allow_free_tactic_discard)")
        return ("discard_board", row, slot)
    raise ValueError(f"{action!r} is not a preparation step")


def legal_prep(state, seat: int) -> list:
    data, names = state.data, state.data.names
    out = [("end",)]
    for card in sorted({c for c in state.hand[seat] if data.kind[c] == TACTIC}):
        row = "offence" if data.tactic[card].offence else "defence"
        if row == "offence" and state.special:
            continue
        board = state.off_board[seat] if row == "offence" else state.def_board[seat]
        out += [("place", names[card], s) for s in range(len(board))]
    if state.prm["allow_free_tactic_discard"]:
        for row, board in (("offence", state.off_board[seat]), ("defence", state.def_board[seat])):
            out += [("discard_board", row, s) for s, card in enumerate(board) if card is not None]
    return sorted(out)


# --- rerolls and the end of turn ----------------------------------------------------------------------------------

def check_reroll(state, seat: int, action):
    _tag(action)
    _shape(action, 2)
    labels = action[1]
    if action[0] != "reroll" or type(labels) not in (tuple, list) or len(labels) > state.reroll_allow:
        raise ValueError(f"{action!r}: ('reroll', at most {state.reroll_allow} rolled dice)")
    left = list(state.rolled)
    for label in labels:
        if label not in left:
            raise ValueError(f"{action!r}: {label!r} is not a rolled die")
        left.remove(label)
    return tuple(sorted(labels))


def legal_reroll(state, seat: int) -> list:
    counts: dict = {}
    for label in state.rolled:
        counts[label] = counts.get(label, 0) + 1
    combos = [()]
    for label, n in sorted(counts.items()):
        combos = [c + (label,) * k for c in combos for k in range(n + 1) if len(c) + k <= state.reroll_allow]
    return sorted(("reroll", c) for c in combos)


def check_end(state, seat: int, action):
    tag = _tag(action)
    if tag == "end":
        _shape(action, 1)
        return ("end",)
    if tag not in ("keep", "trash"):
        raise ValueError(f"{action!r} is not an end-of-turn step")
    _shape(action, 2)
    card = _card(state, action[1], state.hand[seat], "a card of this hand")
    if tag == "trash" and state.data.kind[card] == FATIGUE:
        raise ValueError(f"{action!r}: Fatigue cards cannot be trashed")
    return (tag, card)


def legal_end(state, seat: int) -> list:
    data, names = state.data, state.data.names
    out = [("end",)]
    for card in set(state.hand[seat]):
        out.append(("keep", names[card]))
        if data.kind[card] != FATIGUE:
            out.append(("trash", names[card]))
    return sorted(out)


CHECK = {TEAM: check_team, DRAFT: check_draft, REFRESH: check_refresh, MAIN: check_main, SUB: check_sub,
         PREP: check_prep, REROLL: check_reroll, END: check_end}
LEGAL = {TEAM: legal_team, DRAFT: legal_draft, REFRESH: legal_refresh, MAIN: legal_main, SUB: legal_sub,
         PREP: legal_prep, REROLL: legal_reroll, END: legal_end}
