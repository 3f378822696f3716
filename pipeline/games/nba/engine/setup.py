"""NBA Deck-Building engine: any position from plain data (the worked examples' scenario files, tests).

The worked examples' decks break the card-flow rules (AMB-15, AMB-16), so a scenario states the position at the
start of a turn (hands, piles, boards, dice waiting) and then scripts each chance outcome and action."""

from __future__ import annotations

from pipeline.games.nba.engine.data import FATIGUE

_KEYS = {"start", "first_player", "turn", "period", "overtime", "scores", "pile", "pile_sorted", "regulation_turns",
         "last_reveal", "track", "player_discard", "tactic_pile", "market", "tactic_discard", "fatigue", "seats"}
_SEAT_KEYS = {"court", "board_offence", "board_defence", "hand", "top", "rest", "discard", "off_zone", "off_tactic",
              "def_zone", "def_tactic", "mini"}
STARTS = ("new", "turn", "special")


def state_from_setup(cls, data, setup: dict, new_game):
    # new_game (the engine's, for start "new") is passed in: this module does not import the engine
    """Build a position. Keys (all optional):

    start        new (a new game: the other keys are ignored), turn (default: the start of turn `turn`, phase
                 A) or special (the special last turn of `first_player`)
    first_player the seat that plays the odd turns (default 0); turn: the turn about to be played (default 1)
    period       regulation (default) or overtime; overtime: overtimes already begun (default 0, 1 in overtime)
    scores       [seat 0, seat 1]
    pile         the Player pile's cards (sorted by the market_sort_key unless pile_sorted is false)
    last_reveal  the turn whose adjustment reveals (or revealed) the pile's last card (default: from the pile)
    regulation_turns  normal turns of regulation (default: last_reveal + track_slots - 1, the countdown rule)
    track        the Player track, slot 1 first: card ids or null (holes)
    player_discard, tactic_pile (a multiset), market (slots: ids or null), tactic_discard: card ids
    fatigue      cards in the Fatigue supply (default: every Fatigue card not placed elsewhere)
    seats        per seat: court (5 ids, MJ Ar Ai AF P; default the seat's initiation Starters: set A for seat 0,
                 B for seat 1), board_offence / board_defence (ids or null per slot),
                 hand, top (known draw-pile cards, the top one first), rest (the shuffled rest), discard,
                 off_zone / def_zone (die labels waiting, e.g. "PE:4", "BL:3R"), off_tactic / def_tactic (the
                 tactic ids that put them there), mini (Expert 2 mini-market)
    Every card not placed is in the box.
    """
    unknown = set(setup) - _KEYS
    if unknown:
        raise ValueError(f"setup: unknown keys {sorted(unknown)} (known: {sorted(_KEYS)})")
    start = setup.get("start", "turn")
    if start not in STARTS:
        raise ValueError(f"setup start {start!r} is not one of {', '.join(STARTS)}")
    if start == "new":
        return new_game(data)
    state = cls(data)
    prm, ints = data.params, data.ints
    placed: list = []

    def take(names):
        cards = ints(n for n in names if n is not None)
        placed.extend(cards)
        return cards

    def slots(names, size, what):
        names = list(names) + [None] * (size - len(names))
        if len(names) != size:
            raise ValueError(f"setup: {what} has {size} slots, not {len(names)}")
        take(names)
        return [None if n is None else data.index[n] for n in names]

    state.first = state.first0 = setup.get("first_player", 0)
    state.turn = turn = setup.get("turn", 1)
    state.period = setup.get("period", "regulation")
    state.overtime = setup.get("overtime", 1 if state.period == "overtime" else 0)
    state.scores = list(setup.get("scores", [0, 0]))
    state.pile_sorted = setup.get("pile_sorted", True)
    pile = take(setup.get("pile", []))
    state.pile = state._sorted_pile(pile) if state.pile_sorted else sorted(pile)
    state.last_reveal = setup.get("last_reveal", turn + len(pile) - 1 if pile else turn - 1)
    state.regulation_turns = setup.get("regulation_turns", state.last_reveal + prm["track_slots"] - 1)
    state.track = slots(setup.get("track", []), prm["track_slots"], "track")
    state.player_discard = take(setup.get("player_discard", []))
    for card in take(setup.get("tactic_pile", [])):
        state.tactic_pile[card] = state.tactic_pile.get(card, 0) + 1
    state.market = slots(setup.get("market", []), prm["market_slots"], "market")
    state.tactic_discard = take(setup.get("tactic_discard", []))
    seats = list(setup.get("seats", [])) + [{}] * (2 - len(setup.get("seats", [])))
    for seat, spec in enumerate(seats):
        _seat(state, seat, spec, take, slots)
    copies = {c: data.copies[c] for c in range(len(data.names))}
    for card in placed:
        copies[card] -= 1
        if copies[card] < 0:
            raise ValueError(f"setup: more copies of {data.names[card]!r} than the game has")
    tired = [c for c, n in copies.items() if data.kind[c] == FATIGUE for _ in range(n)]
    state.fatigue_supply = tired[:setup.get("fatigue", len(tired))]
    for card in state.fatigue_supply:
        copies[card] -= 1
    state.box = [c for c, n in copies.items() for _ in range(n)]
    if start == "special":
        state._run(state._from_special())
    else:
        state._run(state._match(turn) if state.period == "regulation" else state._from_overtime(turn))
    return state


def _seat(state, seat: int, spec: dict, take, slots) -> None:
    unknown = set(spec) - _SEAT_KEYS
    if unknown:
        raise ValueError(f"setup seat {seat}: unknown keys {sorted(unknown)} (known: {sorted(_SEAT_KEYS)})")
    data, prm = state.data, state.prm
    court = spec.get("court") or [data.names[c] for c in sorted(
        (c for c in data.sets["AB"[seat]]["starters"] if data.player[c].initiation),
        key=lambda c: data.player[c].positions[0])]
    state.court[seat] = slots(court, 5, f"seat {seat} court")
    state.off_board[seat] = slots(spec.get("board_offence", []), prm["offence_slots"], "board_offence")
    state.def_board[seat] = slots(spec.get("board_defence", []), prm["defence_slots"], "board_defence")
    state.hand[seat] = take(spec.get("hand", []))
    state.top[seat] = take(spec.get("top", []))[::-1]
    for card in take(spec.get("rest", [])):
        state.rest[seat][card] = state.rest[seat].get(card, 0) + 1
    state.discard[seat] = take(spec.get("discard", []))
    state.mini[seat] = take(spec.get("mini", []))
    for zone in ("off_zone", "def_zone"):
        labels = list(spec.get(zone, []))
        for label in labels:
            if label not in data.face:
                raise ValueError(f"setup seat {seat}: {label!r} is not a die face")
        getattr(state, zone)[seat] = labels
    state.off_tactic[seat] = spec.get("off_tactic", "waiting_attack" if state.off_zone[seat] else None)
    state.def_tactic[seat] = spec.get("def_tactic", "waiting_defence" if state.def_zone[seat] else None)


__all__ = ["state_from_setup", "STARTS", "FATIGUE"]
