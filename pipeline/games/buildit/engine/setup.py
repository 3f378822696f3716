"""Build It engine: any mid-game position from plain data (the worked examples' scenario files, tests)."""

from __future__ import annotations

from pipeline.games.buildit.engine.data import KINDS, MAIN, MODIFIERS, Pile, plot_index

_KEYS = {"players", "seats", "board", "city", "contract_deck", "normal_deck", "discard", "round", "first_player",
         "current", "start", "turns"}
_SEAT_KEYS = {"gold", "hand", "contracts", "fulfilled", "front", "immune"}


def state_from_setup(cls, data, setup: dict):
    """Build a position. Keys (only `players` is required):

    players        number of seats
    seats          one dict per seat (missing seats get the defaults): gold (default start_gold); hand (Normal
                   card ids); contracts (unfulfilled Contract ids in hand); fulfilled (Contract ids already
                   fulfilled: their points count and their immunities hold, their gold is not paid again);
                   front (modifier card ids kept in front); immune (extra card models the seat is immune to)
    board          {"c3": [seat, "permit" | "site" | "construction"], …}; the supplies are what is left
    city           the revealed City id, or null/absent for none (no City points)
    contract_deck  list of ids, top card first (drawn in that order, no chance node), or {id: copies} (shuffled:
                   each draw is a chance node); absent = empty
    normal_deck    the same for the Normal deck
    discard        the Normal discard pile, {id: copies} or a list
    round          calendar step (default 1)
    first_player   seat that began each round (default 0)
    current        seat whose turn it is (default first_player)
    start          "turn" (default: the turn begins, income is taken, then the draw), "draw" (income already
                   taken, the draw comes next) or "main" (the draw already made: actions come next)
    turns          turns begun so far, this one included (default: from round, first_player and current)
    """
    _check_keys(setup, _KEYS, "setup")
    n, prm = setup["players"], data.params
    state = cls(data, n)
    seats = setup.get("seats", [])
    if len(seats) > n:
        raise ValueError(f"{len(seats)} seats described for {n} players")
    for seat, spec in enumerate(seats):
        _seat(state, seat, spec)
    for name, (seat, kind) in setup.get("board", {}).items():
        if kind not in KINDS or not 0 <= seat < n:
            raise ValueError(f"board {name}: [{seat}, {kind!r}] is not [seat, one of {', '.join(KINDS)}]")
        state._put(plot_index(name, data.size), seat, KINDS.index(kind))
    for seat in range(n):
        for kind in range(3):
            if state.supply(seat, kind) < 0:
                raise ValueError(f"seat {seat} has more {KINDS[kind]} pawns on the board than pawns_per_state")
    state.city = setup.get("city")
    if state.city is not None and state.city not in data.cities:
        raise ValueError(f"unknown city {state.city!r}")
    state.cdeck = _pile(setup.get("contract_deck", ()), data.contracts)
    state.ndeck = _pile(setup.get("normal_deck", ()), data.cards)
    state.discard = dict(_counts(setup.get("discard", {}), data.cards))
    state.round_no = setup.get("round", 1)
    state.first = setup.get("first_player", 0)
    current = setup.get("current", state.first)
    state.turns = (state.round_no - 1) * n + (current - state.first) % n
    _start(state, current, setup.get("start", "turn"), prm)
    if "turns" in setup:
        state.turns = setup["turns"]
    state._settle()
    return state


def _seat(state, seat: int, spec: dict) -> None:
    _check_keys(spec, _SEAT_KEYS, f"seat {seat}")
    data = state.data
    state.gold[seat] = spec.get("gold", data.params["start_gold"])
    state.hand[seat] = tuple(sorted(_ids(spec.get("hand", ()), data.cards, "Normal card")))
    state.contracts[seat] = tuple(sorted(_ids(spec.get("contracts", ()), data.contracts, "Contract")))
    state.fulfilled[seat] = tuple(_ids(spec.get("fulfilled", ()), data.contracts, "Contract"))
    immune = set(spec.get("immune", ()))
    for cid in state.fulfilled[seat]:
        contract = data.contracts[cid]
        if contract.reward_type == "points":
            state.points[seat] += contract.reward_value
        elif contract.reward_type == "immunity":
            immune.add(contract.immune_to)
    state.immune[seat] = frozenset(immune)
    front = tuple(sorted(_ids(spec.get("front", ()), data.cards, "Normal card")))
    if any(data.cards[c].model not in MODIFIERS for c in front):
        raise ValueError(f"seat {seat}: only cost modifiers are kept in front ({front})")
    state.front[seat] = front


def _start(state, current: int, start: str, prm: dict) -> None:
    if start == "turn":
        state._start_turn(current)
        return
    state.seat, state.turns = current, state.turns + 1
    if start == "draw":
        state.draws_left = prm["draw_per_turn"]
        state._draw_or_main()
    elif start == "main":
        state.phase = MAIN
    else:
        raise ValueError(f"start {start!r} is not one of turn, draw, main")


def _check_keys(spec: dict, known: set, where: str) -> None:
    unknown = set(spec) - known
    if unknown:
        raise ValueError(f"{where}: unknown keys {sorted(unknown)} (known: {sorted(known)})")


def _ids(ids, known: dict, what: str) -> list:
    for card_id in ids:
        if card_id not in known:
            raise ValueError(f"unknown {what} {card_id!r}")
    return list(ids)


def _counts(spec, known: dict) -> dict:
    if isinstance(spec, dict):
        _ids(spec, known, "card")
        return {k: v for k, v in spec.items() if v > 0}
    counts = {}
    for card_id in _ids(spec, known, "card"):
        counts[card_id] = counts.get(card_id, 0) + 1
    return counts


def _pile(spec, known: dict) -> Pile:
    if isinstance(spec, dict):
        return Pile(counts=_counts(spec, known))
    return Pile(order=_ids(spec, known, "card"))

