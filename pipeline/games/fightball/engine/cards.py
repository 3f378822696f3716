"""Fightball's game data, built once from the sheets' rows and shared read-only by every state and bot of a
batch: every card kind of every team (copies merged: `<team>_ball_<C>` and `<team>_buzz` generated from the
teams' counts), the two decks the rules name (team_north, team_south), the field, and what the scorer and the
bots read on every step, precomputed (per-card tuples, counter names, MOVE_PLAY's zone values)."""

from __future__ import annotations

from pipeline.games.engine_base import check_typed_params
from pipeline.games.fightball.engine.data import (BALL, BEST, BUZZ, COLOURS, Card, EFFECT, PARAMETERS, PLAYER, SEATS,
                                                  SHOT, colour_values, field, legal_attack_cell, parse_op)
from pipeline.games.fightball.engine.scoring import rules_of


class GameData:
    """Read-only once built. `cards[i]` is the card kind whose id ranks i-th; `deck[seat]` the seat's
    non-BUZZ cards as ((card, copies), …) sorted by id, `buzz[seat]` its BUZZ."""

    def __init__(self, cards: list[Card], params: dict):
        check_typed_params(PARAMETERS, params)
        self.params, self.rules = dict(params), rules_of(params)
        self.cards = tuple(card._replace(index=i) for i, card in enumerate(sorted(cards, key=lambda c: c.id)))
        self.index = {card.id: card.index for card in self.cards}
        if len(self.index) != len(self.cards):
            raise ValueError("two cards share an id")
        self.cells = field(params)
        self.cell_at = tuple(next((c for c in self.cells if c.index == i), None) for i in range(25))
        self.cell_ids = tuple(c.index for c in self.cells)
        self.teams = (params["team_north"], params["team_south"])
        self.played_key = tuple(f"played:{c.id}" for c in self.cards)
        self.discarded_key = tuple(f"discarded:{c.id}" for c in self.cards)
        self.effect_key = tuple(f"effect_points:{c.id}" for c in self.cards)
        self.move_points = tuple(_move_points(self.cells, seat) for seat in range(2))

    def build_decks(self, counts: dict[str, int]) -> None:
        """counts: card id -> copies, for every card. Each seat's deck is its team's cards."""
        known = {card.team for card in self.cards}
        self.deck, self.buzz, self.size, self.mean_shot = [], [], [], []
        for seat, team in enumerate(self.teams):
            if team not in known:
                raise ValueError(f"rule parameter team_{SEATS[seat]} = {team!r} is not a team of the sheets")
            mine = [card for card in self.cards if card.team == team]
            buzz = [card for card in mine if card.kind == BUZZ]
            if len(buzz) != 1 or counts[buzz[0].id] != 1:
                raise ValueError(f"team {team}: a deck needs exactly one BUZZ card")
            deck = tuple((card.index, counts[card.id]) for card in mine if card.kind != BUZZ and counts[card.id] > 0)
            self.deck.append(deck)
            self.buzz.append(buzz[0].index)
            self.size.append(sum(n for _, n in deck))
            shots = [(self.cards[c], n) for c, n in deck if self.cards[c].kind == SHOT]
            weight = sum(n for _, n in shots) or 1
            self.mean_shot.append(tuple(sum(card.shot[colour] * n for card, n in shots) / weight
                                        for colour in range(3)))
        self.deck, self.buzz, self.size, self.mean_shot = (tuple(self.deck), tuple(self.buzz), tuple(self.size),
                                                           tuple(self.mean_shot))
        self.deck_ids = tuple(tuple(self.cards[card].id for card, _ in deck) for deck in self.deck)
        self.max_copies = max((n for deck in self.deck for _, n in deck), default=0)
        self.deck_pos = tuple({card: j for j, (card, _) in enumerate(deck)} for deck in self.deck)
        self.counts = dict(counts)

    @classmethod
    def from_rows(cls, teams: list[dict], players: list[dict], shots: list[dict], effects: list[dict],
                  effect_ops: list[dict], params: dict) -> "GameData":
        """Rows as dicts of the sheets (schema.py's columns); ValueError naming what cannot be played."""
        cards, counts = [], {}

        def add(card: Card, copies) -> None:
            cards.append(card)
            counts[card.id] = int(copies)

        ops = {}
        for row in sorted(effect_ops, key=lambda r: (r["effect"], int(r["order"]))):
            try:
                ops.setdefault(row["effect"], []).append(parse_op(row["op"], row.get("arg"), row["phase"]))
            except ValueError as exc:
                raise ValueError(f"effect {row['effect']}: {exc}") from None
        for team in teams:
            tid = team["id"]
            for c, colour in enumerate(COLOURS):
                add(Card(0, f"{tid}_ball_{colour}", tid, BALL, f"ball {colour}", ball=c), team[f"balls_{colour}"])
            add(Card(0, f"{tid}_buzz", tid, BUZZ, "BUZZ"), team["buzz"])
        for row in players:
            add(Card(0, row["id"], row["team"], PLAYER, row["name"], attack=colour_values(row, "atk"),
                     defence=colour_values(row, "def")), row["copies"])
        for row in shots:
            add(Card(0, row["id"], row["team"], SHOT, "shot", shot=colour_values(row, "shot")), row["copies"])
        for row in effects:
            if row["id"] not in ops:
                raise ValueError(f"effect {row['id']} has no operation (sheet effect_ops)")
            add(Card(0, row["id"], row["team"], EFFECT, row["name"], ops=tuple(ops[row["id"]])), row["copies"])
        unknown = sorted(set(ops) - {row["id"] for row in effects})
        if unknown:
            raise ValueError(f"effect_ops name effects that do not exist: {', '.join(unknown)}")
        data = cls(cards, params)
        data.build_decks(counts)
        return data

    def with_params(self, **changes) -> "GameData":
        """The same cards under other rules (tests, rule variants)."""
        data = GameData(list(self.cards), {**self.params, **changes})
        data.build_decks(self.counts)
        return data

    def card(self, card_id: str) -> Card:
        return self.cards[self.index[card_id]]


def _move_points(cells, seat: int) -> dict:
    """MOVE_PLAY's zone value for an attacker of `seat`: best legal cell, or the best legal cell of a colour
    (None when no cell of that colour is legal for them)."""
    legal = [cell for cell in cells if legal_attack_cell(cell, seat)]
    found = {BEST: max((cell.points for cell in legal), default=None)}
    for colour in range(3):
        found[colour] = max((cell.points for cell in legal if cell.colour == colour), default=None)
    return found
