"""All-Star Draft engine: any position from plain data (the worked examples' scenario files, tests)."""

from __future__ import annotations

from pipeline.games.allstar.engine.data import PO_TEAM, SUBST, Deck

_KEYS = {"players", "mode", "first_player", "round", "start", "species", "deck", "arenas", "arena_deck",
         "supporters", "tickets", "seats", "box", "open_market_first"}
_SEAT_KEYS = {"packet", "bench", "teams", "buses", "gained", "hand", "team"}
STARTS = ("new", "round", "draft", "discard", "swap", "team", "buses", "playoffs", "confront", "substitute")


def state_from_setup(cls, data, setup: dict, new_game):
    # new_game (the engine's, for start "new") is passed in: this module does not import the engine
    """Build a position. Keys (only `players` is required):

    players      number of managers
    mode         classic | heritage | duel | open_market (default: the `mode` parameter)
    first_player Open Market's first chooser in round 1 (default: a chance node)
    start        where the game resumes (default "new"):
                 new        a new game (new_game: the species are chance nodes); the other keys are ignored
                 round      round `round` begins: its arenas are revealed (chance) unless `arenas` lists them,
                            then the draft of the mode (deals are chance nodes)
                 draft      the seats' `packet`s are in front of them: picks come next
                 discard    Heritage/Duel: the draft is over, each discards one of its `gained` cards
                 swap       the draft is over: swaps of earlier teams (round >= 2), then the new team
                 team       the new team is built from the bench next
                 buses      buses next (round >= 2; round 1 goes straight to the match)
                 playoffs   the seats' `hand`s are their playoff hands: teams are chosen next
                 confront   hands and playoff `team`s are set: the confrontation is resolved at once
                 substitute hands and teams are set: every seat substitutes next, then a confrontation
    round        1..rounds (default 1)
    species      the species in the game (default none); the deck is their cards that no seat holds
    deck         the remaining deck as card ids (overrides `species`)
    arenas       this round's arena ids, arena 1 (bus 1) first
    arena_deck   arena ids still face down (default: every playable arena not in `arenas`)
    supporters   per seat (default 0); tickets: per seat (default from the tickets_* parameters)
    box          card ids already out of the game (discarded)
    open_market_first  who chose first in the previous round's first triple (Open Market ties, ASD-A17)
    seats        one dict per seat: packet, bench, gained (card ids), teams (list of card-id lists, the team
                 of round 1 first), buses (bus per team), hand, team (playoffs)
    """
    unknown = set(setup) - _KEYS
    if unknown:
        raise ValueError(f"setup: unknown keys {sorted(unknown)} (known: {sorted(_KEYS)})")
    start = setup.get("start", "new")
    if start not in STARTS:
        raise ValueError(f"setup start {start!r} is not one of {', '.join(STARTS)}")
    n = setup["players"]
    if start == "new":
        return new_game(data, n, setup.get("mode"), setup.get("first_player"))
    state = cls(data, n, setup.get("mode"), setup.get("first_player"))
    state.round_no = setup.get("round", 1)
    seats = setup.get("seats", [])
    if len(seats) > n:
        raise ValueError(f"{len(seats)} seats described for {n} players")
    for seat, spec in enumerate(seats):
        _seat(state, seat, spec)
    _decks(state, setup)
    if "supporters" in setup:
        state.supporters = list(setup["supporters"])
    if "tickets" in setup:
        state.tickets = list(setup["tickets"])
    state.box = list(data.ints(setup.get("box", ())))
    state.om_first = setup.get("open_market_first", -1)
    _start(state, start, setup)
    state._settle()
    return state


def _seat(state, seat: int, spec: dict) -> None:
    unknown = set(spec) - _SEAT_KEYS
    if unknown:
        raise ValueError(f"setup seat {seat}: unknown keys {sorted(unknown)} (known: {sorted(_SEAT_KEYS)})")
    ints = state.data.ints
    for name in ("packet", "bench", "gained", "hand"):
        if name in spec:
            getattr(state, name)[seat] = list(ints(spec[name]))
    if "teams" in spec:
        state.teams[seat] = [ints(team) for team in spec["teams"]]
    if "buses" in spec:
        state.buses[seat] = tuple(spec["buses"])
    if "team" in spec:
        state.team[seat] = ints(spec["team"])


def _decks(state, setup: dict) -> None:
    data = state.data
    held = [c for seat in range(state.n) for c in state.packet[seat] + state.bench[seat] + state.hand[seat]
            + list(state.team[seat]) + [c for t in state.teams[seat] for c in t]]
    held += data.ints(setup.get("box", ()))
    if len(set(held)) != len(held):
        raise ValueError("setup: a card is held twice")
    state.species = list(setup.get("species", ()))
    state.species_left = [s for s in data.species_ids if s not in state.species]
    if "deck" in setup:
        state.deck = Deck(data.ints(setup["deck"]), data.names)
    else:
        taken = set(held)
        state.deck = Deck([c for s in state.species for c in data.species_cards[s] if c not in taken], data.names)
    state.arenas = [data.arena(a).index for a in setup.get("arenas", ())]
    if "arena_deck" in setup:
        state.arena_deck = [data.arena(a).index for a in setup["arena_deck"]]
    else:
        state.arena_deck = [a for a in state.arena_deck if a not in state.arenas]


def _start(state, start: str, setup: dict) -> None:
    if start == "round":
        arenas = state.arenas
        state._start_round(state.round_no)
        if arenas:
            state.arenas = arenas
            state._start_draft()
    elif start == "draft":
        state._next_pass()
    elif start == "discard":
        state._end_draft()
    elif start == "swap":
        state._team_building()
    elif start == "team":
        state._team_step()
    elif start == "buses":
        state._bus_step()
    else:
        state.alive = list(range(state.n))
        if start == "playoffs":
            state._ask([(seat, PO_TEAM, 0) for seat in state.alive], type(state)._confront)
        elif start == "confront":
            state._confront()
        else:
            state._ask([(seat, SUBST, 0) for seat in state.alive], type(state)._confront)
