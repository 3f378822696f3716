"""All-Star Draft's reference rules engine (shared/games/all-star-draft.md §2–§3, resolutions ASD-A1..A25).

OpenSpiel-shaped and pure: the engine never draws a random number. The species put in the deck (one at a
time, without replacement, ASD-A23), each arena reveal, each dealt card (one at a time, uniform over the
remaining deck), Open Market's reveals and its first chooser are chance nodes (current_player() == CHANCE)
whose outcomes the driver samples from chance_outcomes(); a chance node with one possible outcome is applied
at once.

    data = GameData.from_rows(species, symbols, hockey, orders, tiebreak_sides, arenas, playoff_points, params)
    state = new_game(data, players=4)              # at its first chance node
    while not state.is_terminal(): state.apply_action(<a bot's choice or a sampled outcome>)
    state.outcome()

Simultaneous secret choices (drafts, teams, buses, playoff teams, shootout cards, substitutions) are asked
seat by seat in seat order; a seat's legal actions depend only on its own cards, and what it gives away
(Duel) reaches the other bench only when the hands pass. Forced moves are made by the engine: the last card
of a passed hand is simply taken, the single team of round 1 takes bus 1.

Actions (card ids as in the hockey sheet; card lists in any order, legal_actions lists them sorted):
("pick", card) draft pick (also Duel's second own pick), ("give", card) Duel, ("discard", card) Heritage/Duel,
("take", card) Open Market, ("swap", team index, team card, bench card), ("no_swap", team index),
("team", (cards)), ("buses", (bus of team 0, bus of team 1, …)), ("play_team", (cards)), ("shoot", card),
("substitute", (team cards out), (hand cards in)).
"""

from __future__ import annotations

from itertools import repeat

from pipeline.games.allstar.engine.data import (ARENA, Arena, CHANCE, Card, DEAL, Deck, FIRST_DECISION, GameData, MODES,
                                                OM_FIRST, OM_REVEAL, OVER, PHASE_NAMES, PO_TEAM, SPECIES, SUBST,
                                                TERMINAL)
from pipeline.games.allstar.engine.keys import (arena_key, bus_column, competition_ranks, has_all_symbols,
                                                is_full_house, is_straight, power, side_of, single_key, team_key)
from pipeline.games.allstar.engine.playoffs import PLAYOFF_HANDLERS, PLAYOFF_LEGAL, PlayoffRules
from pipeline.games.allstar.engine.season import SEASON_HANDLERS, SEASON_LEGAL, SeasonRules
from pipeline.games.engine_base import PhaseState

__all__ = ["CHANCE", "TERMINAL", "Arena", "Card", "GameData", "State", "new_game", "team_key", "arena_key",
           "competition_ranks", "power", "single_key", "is_straight", "is_full_house", "has_all_symbols",
           "bus_column", "side_of"]

COUNTERS = ("arena_special_decided", "shootouts", "shootout_ties_power", "playoff_rounds",
            "eliminated_by_substitution", "ticket_bonus")


class State(SeasonRules, PlayoffRules, PhaseState):
    """One position of a game. Attributes are public for bots and tests; change them only through actions.
    Cards are engine integers (data.names[c] is the id); per-seat lists are indexed by seat."""

    __slots__ = (
        "data", "prm", "n", "mode", "side", "phase", "todo", "after", "round_no", "steps", "turns", "capped",
        "end_reason", "species", "species_left", "need_species", "deck", "box", "arena_deck", "arenas", "deal",
        "packet", "bench", "teams", "hidden", "gained", "gifts", "buses", "market", "chooser", "om_first",
        "fixed_first", "triples_left", "supporters", "tickets", "hand", "team", "alive", "rank", "playoff_points",
        "bonus", "shots", "counters", "log", "cap_at",
    )

    def __init__(self, data: GameData, players: int, mode: str | None = None, first_player: int | None = None):
        prm = data.params
        self.data, self.prm, self.n = data, prm, players
        if mode is None:        # the `mode` parameter is the 2-manager draft: "classic for 3+" (schema)
            mode = prm["mode"] if players == 2 else "classic"
        self.mode = mode
        check_game(data, players, self.mode)
        if first_player is not None and first_player not in range(players):
            raise ValueError(f"first_player {first_player!r} is not a seat of {players} managers")
        n = players
        self.side, self.phase, self.todo, self.after = side_of(n), SPECIES, [], None
        self.round_no, self.steps, self.turns, self.capped, self.end_reason = 1, 0, 0, False, None
        self.cap_at = prm["max_steps"]
        self.species, self.species_left = [], list(data.species_ids)
        self.need_species = species_needed(prm, n, self.mode)
        self.deck, self.box, self.arenas, self.deal, self.market = Deck(), [], [], [], []
        self.arena_deck = [a.index for a in data.arenas if not (n == 2 and "not_for_2" in a.icons)]
        for name in ("packet", "bench", "teams", "gained", "gifts", "hand"):
            setattr(self, name, [[] for _ in range(n)])
        self.hidden = [set() for _ in range(n)]
        self.buses, self.team = [()] * n, [()] * n
        self.chooser, self.om_first, self.fixed_first, self.triples_left = -1, -1, first_player, 0
        self.supporters, self.tickets = [0] * n, [tickets_for(prm, n)] * n
        self.alive, self.rank, self.playoff_points, self.bonus, self.shots = [], [0] * n, [0] * n, [0] * n, {}
        self.counters, self.log = dict.fromkeys(COUNTERS, 0), []

    @classmethod
    def from_setup(cls, data: GameData, setup: dict) -> "State":
        """Any position, for tests and scenario files (engine.setup.state_from_setup documents the keys)."""
        from pipeline.games.allstar.engine.setup import state_from_setup
        return state_from_setup(cls, data, setup, new_game)

    # --- the engine interface (legal_actions, apply_action, returns, clone: engine_base.PhaseState) -------------

    def current_player(self) -> int:
        if self.phase >= FIRST_DECISION:
            return self.todo[-1][0] if self.phase != OVER else TERMINAL
        return CHANCE

    def chance_outcomes(self) -> list:
        phase = self.phase
        if phase == DEAL or phase == OM_REVEAL:
            return self.deck.outcomes()
        if phase == SPECIES:
            return list(zip(self.species_left, repeat(1 / len(self.species_left))))
        if phase == ARENA:
            arenas, p = self.data.arenas, 1 / len(self.arena_deck)
            return [(arenas[a].id, p) for a in self.arena_deck]
        if phase == OM_FIRST:
            return [(seat, 1 / self.n) for seat in range(self.n)]
        return []

    def _after_step(self, phase, tag) -> None:
        """Decisions count as turns, every step toward the max_steps cap."""
        if tag is not None:
            self.turns += 1
        self.steps += 1
        if self.phase < FIRST_DECISION:
            self._settle()
        if self.steps >= self.cap_at and self.phase != OVER:
            self.capped = True
            self._finish("cap")

    def outcome(self) -> dict:
        """The keys pipeline/play/driver.py reads, plus `playoff` (playoff supporters per seat, the ticket bonus
        included when final_tiebreak_includes_ticket_bonus, ASD-A14) and `mode`."""
        return {
            "scores": self.scores(), "rounds": self.round_no, "turns": self.turns, "end_reason": self.end_reason,
            "cap": "max_steps" if self.capped else None, "blame": [["rules", "max_steps"]] if self.capped else [],
            "counters": dict(self.counters), "playoff": self.playoff_scores(), "mode": self.mode,
        }

    # --- scoring ------------------------------------------------------------------------------------------

    def scores(self) -> list[int]:
        """Arena supporters + playoff points + ticket bonus (§3.6)."""
        return [self.supporters[s] + self.playoff_points[s] + self.bonus[s] for s in range(self.n)]

    def playoff_scores(self) -> list[int]:
        with_bonus = self.prm["final_tiebreak_includes_ticket_bonus"]
        return [self.playoff_points[s] + (self.bonus[s] if with_bonus else 0) for s in range(self.n)]

    def winners(self) -> list[int]:
        """Most supporters, then most playoff supporters; equal keys share the win (§2.5, ASD-A14)."""
        keys = list(zip(self.scores(), self.playoff_scores()))
        best = max(keys)
        return [seat for seat, key in enumerate(keys) if key == best]

    # --- chance -------------------------------------------------------------------------------------------

    def _apply_chance(self, outcome) -> None:
        phase = self.phase
        if phase == DEAL or phase == OM_REVEAL:
            c = self.deck.take(outcome)
            if phase == DEAL:
                self._dealt(c)
            else:
                self._revealed(c)
        elif phase == SPECIES:
            if type(outcome) is not str or outcome not in self.species_left:
                raise ValueError(f"{outcome!r} is not a species still available")
            self.species_left.remove(outcome)
            self.species.append(outcome)
            if len(self.species) == self.need_species:
                self.deck = Deck([c for s in self.species for c in self.data.species_cards[s]], self.data.names)
                self._start_round(1)
        elif phase == ARENA:
            a = self.data.arena_index.get(outcome) if type(outcome) is str else None
            if a is None or a not in self.arena_deck:
                raise ValueError(f"{outcome!r} is not an arena of the arena deck")
            self.arena_deck.remove(a)
            self.arenas.append(a)
            if len(self.arenas) == self.round_no:
                self._start_draft()
        elif phase == OM_FIRST:
            if type(outcome) is not int or outcome not in range(self.n):
                raise ValueError(f"{outcome!r} is not a seat")
            self._first_triple(outcome)
        else:
            raise ValueError(f"{outcome!r}: the game is over")

    def _settle(self) -> None:
        """Apply chance nodes that have a single possible outcome (the last card, the last arena…)."""
        while True:
            phase = self.phase
            if phase == DEAL or phase == OM_REVEAL:
                single = len(self.deck) == 1
            elif phase == SPECIES:
                single = len(self.species_left) == 1
            elif phase == ARENA:
                single = len(self.arena_deck) == 1
            else:
                return                      # a decision, the end, or Open Market's first chooser (2 seats)
            if not single:
                return
            self._apply_chance(self.chance_outcomes()[0][0])

    # --- sequencing ---------------------------------------------------------------------------------------

    def _ask(self, entries: list, after) -> None:
        """Ask (seat, phase, argument) entries in order, then call after(self)."""
        self.todo, self.after = entries[::-1], after
        if entries:
            self.phase = entries[0][1]
        else:
            after(self)

    def _next(self) -> None:
        """The current entry is done: the next one, or the step's resolution."""
        todo = self.todo
        todo.pop()
        if todo:
            self.phase = todo[-1][1]
        else:
            self.after(self)

    def _finish(self, reason: str) -> None:
        self.phase, self.end_reason, self.todo = OVER, reason, []

    def _count(self, name: str, k: int = 1) -> None:
        self.counters[name] = self.counters.get(name, 0) + k

    # --- reading ------------------------------------------------------------------------------------------

    def ids(self, cards) -> list[str]:
        """Engine integers -> card ids, sorted."""
        names = self.data.names
        return [names[c] for c in sorted(cards)]

    def observation(self, seat: int) -> dict:
        """What `seat` may know (ASD-A22): its own cards; of the others, face-up teams (a face-down card,
        swapped in or in a team not yet revealed, shows as None), supporters, tickets and counts."""
        def shown(s, team):
            return [self.data.names[c] if s == seat or c not in self.hidden[s] else None for c in team]
        return {
            "round": self.round_no, "phase": PHASE_NAMES[self.phase], "mode": self.mode,
            "arenas": [self.data.arenas[a].id for a in self.arenas], "supporters": list(self.supporters),
            "tickets": list(self.tickets), "packet": self.ids(self.packet[seat]), "bench": self.ids(self.bench[seat]),
            "hand": self.ids(self.hand[seat]), "market": self.ids(self.market),
            "teams": [[shown(s, t) for t in self.teams[s]] for s in range(self.n)],
            "bench_sizes": [len(b) for b in self.bench], "hand_sizes": [len(h) for h in self.hand],
            "playoff_teams": [self.ids(t) if s == seat or self.phase not in (PO_TEAM, SUBST) else None
                              for s, t in enumerate(self.team)],     # chosen in secret, shown together
            "alive": list(self.alive),
        }

    def __str__(self) -> str:
        lines = [f"All-Star Draft ({self.mode}, {self.n} managers): round {self.round_no}/{self.prm['rounds']}, "
                 f"phase {PHASE_NAMES[self.phase]}, player {self.current_player()}, steps {self.steps}, "
                 f"turns {self.turns}; arenas {[self.data.arenas[a].id for a in self.arenas]}; deck {len(self.deck)}"]
        for s in range(self.n):
            lines.append(f"seat {s}: {self.supporters[s]} supporters, {self.tickets[s]} tickets; packet "
                         f"{self.ids(self.packet[s])}, bench {self.ids(self.bench[s])}, teams "
                         f"{[self.ids(t) for t in self.teams[s]]}, buses {self.buses[s]}")
            if self.hand[s] or self.team[s] or self.rank[s]:
                lines.append(f"    playoffs: hand {self.ids(self.hand[s])}, team {self.ids(self.team[s])}, "
                             f"rank {self.rank[s] or '-'}")
        if self.market:
            lines.append(f"market {self.ids(self.market)}, chooser {self.chooser}")
        if self.phase == OVER:
            lines.append(f"over ({self.end_reason}): {self.outcome()}")
        return "\n".join(lines)


State.HANDLERS = [{tag: handler for (p, tag), handler in {**SEASON_HANDLERS, **PLAYOFF_HANDLERS}.items() if p == phase}
                  for phase in range(len(PHASE_NAMES))]      # phase -> {tag: handler(state, seat, action)}
State.LEGAL = {**SEASON_LEGAL, **PLAYOFF_LEGAL}               # phase -> legal(state, seat), sorted
State.CHANCE_PHASES, State.OVER, State.PHASE_NAMES = frozenset(range(FIRST_DECISION)), OVER, PHASE_NAMES


def tickets_for(prm: dict, players: int) -> int:
    """Tickets per manager (ASD-A7): 2 managers tickets_2, 3 tickets_3, 4 to 6 tickets_4plus."""
    return prm["tickets_2"] if players == 2 else prm["tickets_3"] if players == 3 else prm["tickets_4plus"]


def species_needed(prm: dict, players: int, mode: str) -> int:
    if mode == "classic":
        return prm["species_per_manager"] * players
    return prm["open_market_species"] if mode == "open_market" else prm["duo_species"]


def check_game(data: GameData, players: int, mode: str) -> None:
    """A game these data and parameters can play to its end; ValueError naming the parameter otherwise."""
    prm = data.params
    if not prm["players_min"] <= players <= prm["players_max"]:
        raise ValueError(f"{players} players: players_min..players_max is {prm['players_min']}..{prm['players_max']}")
    if mode not in MODES:
        raise ValueError(f"mode {mode!r} is not one of {', '.join(MODES)}")
    if mode != "classic" and players != 2:
        raise ValueError(f"mode {mode} is a 2-manager mode (ASD-A18), not for {players} managers")
    species_param = {"classic": "species_per_manager", "open_market": "open_market_species"}.get(mode, "duo_species")
    need = species_needed(prm, players, mode)
    if need > len(data.species_ids):
        raise ValueError(f"{species_param}: {need} species needed, the data has {len(data.species_ids)}")
    smallest = min(len(cards) for cards in data.species_cards.values())
    per_round, hand_param = {"classic": (prm["hand_size"] * players, "hand_size"),
                             "open_market": (3 * prm["hand_size"], "hand_size")}.get(
        mode, (prm["duo_hand_size"] * 2, "duo_hand_size"))
    if per_round * prm["rounds"] > need * smallest:
        raise ValueError(f"{hand_param}: {prm['rounds']} rounds use {per_round * prm['rounds']} cards, a deck of "
                         f"{need} species may hold only {need * smallest} ({species_param})")
    kept = prm["duo_hand_size"] - 1 if mode in ("heritage", "duel") else prm["hand_size"]
    if prm["team_size"] > kept:
        raise ValueError(f"team_size {prm['team_size']}: a round's draft keeps only {kept} cards")
    arenas = sum(1 for a in data.arenas if not (players == 2 and "not_for_2" in a.icons))
    if arenas < prm["rounds"] * (prm["rounds"] + 1) // 2:
        raise ValueError(f"rounds {prm['rounds']}: {prm['rounds'] * (prm['rounds'] + 1) // 2} arenas needed, "
                         f"{arenas} playable with {players} managers (ASD-A6)")


def new_game(data: GameData, players: int, mode: str | None = None, first_player: int | None = None) -> State:
    """A game at its first chance node (the first species). mode defaults to the `mode` parameter with 2
    managers (heritage, duel or open_market: the workbook cannot name the pass draft for two) and to classic,
    the pass draft, with more; a 2-manager mode asked for 3+ managers is a ValueError. Tests may still ask
    for classic with two, to check a mechanism on the smallest table.
    first_player fixes Open Market's first chooser of round 1 (else a chance node)."""
    state = State(data, players, mode, first_player)
    state._settle()
    return state

