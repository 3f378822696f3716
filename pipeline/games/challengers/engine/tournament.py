"""The Match phase and the end of a Challengers game (challengers.md §2.3, §2.6–§2.8, §3.5, §3.6): the robot's
deck of the round (its level swaps, chance), the pairs of the circle method, the start player of each match,
the match itself (engine/match.py: every card it reveals is a chance node), the trophy (its value drawn from
the round's tokens), the +lead_to_win win of 1–2 player games, the qualification and the final of 3–8 player
games."""

from __future__ import annotations

from pipeline.games.challengers.engine.match import Match
from pipeline.games.challengers.engine.scoring import fans, lead_winner, qualified, rank_key, start_player

ROBOT, START, MATCH, TROPHY, TIE = "robot", "start", "match", "trophy", "tie"
DISCARD = "discard"             # a player chooses the bench cards a BENCH_TO_DISCARD effect sends to the discard
FINALISTS = 2                   # §2.7: the two players with the most fans play the final


class MatchRules:
    __slots__ = ()

    def _start_round(self) -> None:
        self.round += 1
        self._start_deck_phase(list(range(self.n)))

    def _deck_phase_over(self) -> None:
        if self.final:
            a, b = self.finalists
            self._pair_start(a, b)
        elif self.robot >= 0:
            self._build_robot()
        else:
            self._start_matches()

    # --- the robot ----------------------------------------------------------------------------------------

    def _build_robot(self) -> None:
        """The robot's deck of the round and its level swaps. Solo with `solo_robot_deck` kept (seed: the robot
        gains no new cards): the deck of round 1, with its SOLO cards and its swaps, is built once and kept."""
        data, r = self.data, self.round
        kept = self.n == 1 and self.prm["solo_robot_deck"] == "kept"
        if kept and r > 1:
            self._start_matches()
            return
        base = data.robot_base.get(max((k for k in data.robot_base if k <= r), default=0), [])
        deck: dict[int, int] = {}
        extra = data.solo.get(r, []) if self.n == 1 and self.prm["solo_challenge"] else []
        for card, copies in list(base) + list(extra):
            deck[card] = deck.get(card, 0) + copies
        self.decks[self.robot] = deck
        self.deck_size[self.robot] = sum(deck.values())
        level = self.prm["robot_level"]
        self.swaps_left = data.swaps.get(level, level - 1)
        self.r_pool, self.robot_out = dict(data.r_cards), True
        self._robot_next()

    def robot_base(self) -> dict[int, int]:
        """The robot's cards a level swap may take out: its base cards (not R cards already in, not SOLO ones)
        that an R card left in the pool outranks (a swap always brings a strictly stronger card)."""
        cards = self.data.cards
        best = max((cards[card].strength for card, n in self.r_pool.items() if n), default=-1)
        return {card: n for card, n in self.decks[self.robot].items()
                if cards[card].level not in ("R", "SOLO") and cards[card].strength < best}

    def robot_gains(self) -> dict[int, int]:
        """The R cards the swap under way may bring in: those stronger than the card it took out."""
        cards, floor = self.data.cards, self.swap_floor
        return {card: n for card, n in self.r_pool.items() if n and cards[card].strength > floor}

    def _robot_next(self) -> None:
        if self.swaps_left > 0 and self.robot_base():
            self.phase = ROBOT
        else:
            self._start_matches()

    def _robot_swap(self, card: int) -> None:
        pile = self.robot_base() if self.robot_out else self.robot_gains()
        n = pile.get(card, 0) if type(card) is int else 0
        if not n:
            raise ValueError(f"{card!r} is not a card the robot can {'lose' if self.robot_out else 'gain'}")
        pile = self.decks[self.robot] if self.robot_out else self.r_pool
        if pile[card] == 1:
            del pile[card]
        else:
            pile[card] -= 1
        if self.robot_out:
            self.deck_size[self.robot] -= 1
            self.swap_floor = self.data.cards[card].strength
        else:
            deck = self.decks[self.robot]
            deck[card] = deck.get(card, 0) + 1
            self.deck_size[self.robot] += 1
            self.swaps_left -= 1
            self._count("robot:swaps")
        self.robot_out = not self.robot_out
        if self.robot_out:
            self._robot_next()

    # --- matches ------------------------------------------------------------------------------------------

    def _start_matches(self) -> None:
        self.pair_i, self.token_pool = 0, dict(self.data.trophies.get(self.round, ()))
        self._next_pair()

    def _next_pair(self) -> None:
        pairs = self.table[self.round - 1]
        if self.pair_i >= len(pairs):
            self._round_over()
            return
        self._pair_start(*pairs[self.pair_i])

    def _pair_start(self, a: int, b: int) -> None:
        first = start_player(self.trophies[a], self.trophies[b])
        if first is None:
            self.pair, self.phase = (a, b), START
        else:
            self._begin_match(*((a, b) if first == 0 else (b, a)))

    def _begin_match(self, first: int, second: int) -> None:
        self.sides = (first, second)
        self.match = Match(self.data, self.decks[first], self.decks[second], self.prm,
                           deciders=(first != self.robot, second != self.robot))
        self._count("matches")
        if self.robot in self.sides:
            self._count("robot:matches")
        self._match_go()

    def _match_go(self) -> None:
        choice = self.match.choice
        if choice is not None:
            self.phase, self.seat = DISCARD, self.sides[choice[0]]
        elif self.match.pending() is None:
            self._match_over()
        else:
            self.phase = MATCH

    def _match_over(self) -> None:
        m, sides = self.match, self.sides
        winner = sides[m.winner]
        self.tokens[sides[0]] += m.fans[0]
        self.tokens[sides[1]] += m.fans[1]
        self._count(f"match_end:{m.end}")
        self._count("reveals", m.reveals)
        if m.end == "cap":
            self.cap = "max_reveals_per_match"
        if winner == self.robot:
            self._count("robot:won")
        self.match, self.last_winner = None, winner
        if self.final:
            self._finish("final", [winner])
        elif winner == self.robot and self.n >= 3:
            self.pair_i += 1
            self._next_pair()
        else:
            self.phase = TROPHY

    def _discard(self, seat: int, action: tuple) -> None:
        card = self.data.index.get(action[1]) if len(action) == 2 and type(action[1]) is str else None
        if card is None or card not in self.match.choices():
            raise ValueError(f"{action!r}: not the top card of one of your bench slots")
        self._count("bench_discards_chosen")
        self.match.choose(card)
        self._match_go()

    def _legal_discard(self, seat: int) -> list:
        ids = self.data.card_ids
        return sorted(("discard", ids[card]) for card in self.match.choices())

    def _award(self, value) -> None:
        if type(value) is not int or not self.token_pool.get(value):
            raise ValueError(f"{value!r} is not the value of a trophy token left in round {self.round}")
        self.token_pool[value] -= 1
        self.trophies[self.last_winner].append((self.round, value))
        self.pair_i += 1
        self._next_pair()

    # --- the end ------------------------------------------------------------------------------------------

    def fans_of(self, who: int) -> int:
        return fans(self.trophies[who], self.tokens[who], self.prm["fans_from_trophies"])

    def _key(self, who: int) -> tuple:
        return rank_key(self.trophies[who], self.tokens[who], self.prm["fans_from_trophies"])

    def _round_over(self) -> None:
        if self.n <= 2:
            leader = lead_winner(self.fans_of(0), self.fans_of(1), self.prm["lead_to_win"])
            if leader is not None:
                self._finish("lead", [leader])
            elif self.round >= self.prm["rounds"]:
                self._duo_end()
            else:
                self._start_round()
        elif self.round >= self.prm["rounds"]:
            sure, group, places = qualified([self._key(seat) for seat in range(self.n)], FINALISTS)
            self.finalists = sure
            self._tie(group, places) if places else self._start_final()
        else:
            self._start_round()

    def _duo_end(self) -> None:
        a, b = self._key(0), self._key(1)
        if a != b:
            self._finish("rounds", [0 if a > b else 1])
        elif self.prm["duo_tie_rule"] == "draw":
            self._finish("draw", [0, 1])
        else:
            self._tie([0, 1], 1)

    def _tie(self, group: list[int], places: int) -> None:
        self.tie_group, self.tie_places, self.phase = list(group), places, TIE

    def _tie_broken(self, seat) -> None:
        if type(seat) is not int or seat not in self.tie_group:
            raise ValueError(f"{seat!r} is not one of the tied {self.tie_group}")
        if self.n <= 2:
            self._finish("rounds", [seat])
            return
        self.tie_group.remove(seat)
        self.finalists.append(seat)
        self.tie_places -= 1
        if not self.tie_places:
            self._start_final()

    def _start_final(self) -> None:
        self.final, self.finalists = True, sorted(self.finalists)
        self._count("finals")
        self._start_deck_phase(list(self.finalists))
