"""NBA Deck-Building engine, data half: constants, rule parameters, and the workbook's rows prepared once.

Pure: the standard library only (tests/architecture/test_engine_purity.py checks it). A `GameData` is read-only once built
and shared by every state and bot of every game played with it.

Cards are integers inside the engine: their index in every card id (Player cards, Tactic models, Fatigue)
sorted, so that sorting integers sorts ids. Copies of a Tactic model or of the Fatigue card share one integer.
Actions and chance outcomes carry the ids themselves ("korver"); `data.index` converts. A die face is a
label "TYPE:value" or "TYPE:valueC" (C = B, Y or R: the colour a defensive face cancels), e.g. "IT:2B".
"""

from __future__ import annotations

from typing import NamedTuple

from pipeline.games.engine_base import check_typed_params
from pipeline.games.nba.engine.rules import (COLOUR_OF_DIE, DEFENCE_SKILLS, DICE, OFFENCE_SKILLS, SKILLS, dice_to_roll,
                                             expected_best)

CHANCE, TERMINAL = -1, -2
POSITIONS = ("MJ", "Ar", "Ai", "AF", "P")
LENGTHS = ("short", "normal", "long", "epic")
LETTER = {"blue": "B", "yellow": "Y", "red": "R"}
COLOURS = ("blue", "yellow", "red")
PLAYER, TACTIC, FATIGUE = 0, 1, 2            # card kinds
SKILL_INDEX = {s: i for i, s in enumerate(SKILLS)}
RB, GI = SKILL_INDEX["RB"], SKILL_INDEX["GI"]

# The rule parameters' one declaration: names, types and ranges (schema.py adds the designer's docs and
# builds the `rules` sheet's columns from it; the engine refuses a bad value on its own).
PARAMETERS = {
    "length": ("enum",) + LENGTHS,
    "end_rule": ("enum", "countdown6", "market_empty_literal"),
    "river_when_pile_empty": ("enum", "shift_all", "static"),
    "market_sort_key": ("enum", "cost", "value"),
    "cost_window_min": ("int", 0, 15), "cost_window_max": ("int", 0, 15), "cost_window_required": ("int", 0, 50),
    "track_slots": ("int", 1, 10), "market_slots": ("int", 1, 10),
    "dice_cap": ("int", 1, 20), "dice_cap_scope": ("enum", "per_skill", "per_tactic"),
    "reroll_divisor": ("int", 1, 10), "keep_mode": ("enum", "up_to", "exactly"),
    "negative_score": ("enum", "clamp0", "allow_negative"),
    "fatigue_removed_to": ("enum", "supply", "box"), "fatigue_per_substitution": ("int", 0, 5),
    "allow_free_tactic_discard": ("bool",), "hand_size": ("int", 1, 12),
    "offence_slots": ("int", 1, 6), "defence_slots": ("int", 1, 6),
    "first_player": ("enum", "random", "seat0"),
    "overtime_enabled": ("bool",), "overtime_turns": ("int", 2, 20), "overtime_max": ("int", 0, 10),
    "variant_team_selection": ("bool",), "variant_draft": ("bool",), "variant_money_time": ("bool",),
    "draft_rounds": ("int", 1, 10), "draft_mini_market": ("int", 0, 5), "draft_common": ("int", 0, 5),
    "draft_box": ("int", 0, 5),
    "team_min_substitutes": ("int", 0, 10), "team_min_tactics": ("int", 0, 10), "team_deck_size": ("int", 1, 20),
    "money_time_turns": ("int", 1, 20), "money_time_free_def_rerolls": ("int", 0, 10),
    "clutch_players": ("bool",), "max_steps": ("int", 100, 10_000_000),
}


def check_params(params: dict) -> None:
    """Every parameter present, typed and in range; ValueError naming the first that is not."""
    check_typed_params(PARAMETERS, params)
    if params["cost_window_min"] > params["cost_window_max"]:
        raise ValueError(f"rule parameter cost_window_min = {params['cost_window_min']} is above "
                         f"cost_window_max = {params['cost_window_max']}")


class PlayerCard(NamedTuple):
    id: str
    set: str                    # A, B or NBA
    kind: str                   # starter, substitute or nba
    initiation: bool
    positions: tuple            # position indices (POSITIONS), in the card's order
    value: int
    cost: int                   # 0 on starting cards
    stats: tuple                # one rating per SKILLS entry
    clutch: bool


class TacticCard(NamedTuple):
    id: str
    set: str                    # A, B or market
    initiation: bool
    offence: bool
    value: int
    cost: int
    complexity: int
    keep: tuple                 # ((die, dice kept), …) in DICE order, dice kept > 0
    copies: int


def _int(row: dict, column: str, sheet: str, default=None) -> int:
    value = row.get(column, default)
    if value is None or value == "":
        if default is None:
            raise ValueError(f"{sheet} {row.get('id', row)!r}: {column} is empty")
        return default
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ValueError(f"{sheet} {row.get('id', row)!r}: {column} = {value!r} is not a number") from None


def _bool(value) -> bool:
    if isinstance(value, str):
        return value.strip().lower() in ("yes", "true", "1", "oui", "x")
    return bool(value)


class GameData:
    """Cards, dice, game lengths and rule parameters of one workbook, prepared for the engine."""

    def __init__(self, rows: dict, params: dict):
        check_params(params)
        self.rows, self.params = rows, dict(params)
        self._dice(rows["skills"], rows["dice"])
        players = [_player(r) for r in rows["players"]]
        tactics = [_tactic(r) for r in rows["tactics"]]
        fatigue = [(str(r["id"]), _int(r, "copies", "fatigue")) for r in rows["fatigue"]]
        ids = [c.id for c in players] + [t.id for t in tactics] + [f for f, _ in fatigue]
        if len(set(ids)) != len(ids):
            twice = sorted({i for i in ids if ids.count(i) > 1})
            raise ValueError(f"card ids must be unique over players, tactics and fatigue: {', '.join(twice)}")
        self.names = tuple(sorted(ids))
        self.index = {name: i for i, name in enumerate(self.names)}
        n = len(self.names)
        self.kind, self.player, self.tactic = [None] * n, [None] * n, [None] * n
        for c in players:
            i = self.index[c.id]
            self.kind[i], self.player[i] = PLAYER, c
        for t in tactics:
            i = self.index[t.id]
            self.kind[i], self.tactic[i] = TACTIC, t
        self.fatigue = tuple(self.index[f] for f, copies in fatigue for _ in range(copies))
        for f, _ in fatigue:
            self.kind[self.index[f]] = FATIGUE
        self.value = tuple(c.value if c else t.value if t else 0 for c, t in zip(self.player, self.tactic))
        self.cost = tuple(c.cost if c else t.cost if t else 0 for c, t in zip(self.player, self.tactic))
        self.stats = tuple(c.stats if c else None for c in self.player)
        self.copies = tuple(t.copies if t else self.fatigue.count(i) if self.kind[i] == FATIGUE else 1
                            for i, t in enumerate(self.tactic))
        self.total_cards = sum(self.copies)
        self.nba = tuple(sorted(self.index[c.id] for c in players if c.set == "NBA"))
        self.market_tactics = tuple(sorted(self.index[t.id] for t in tactics if t.set == "market"))
        self.sets = {s: {"starters": self._ids(c.id for c in players if c.set == s and c.kind == "starter"),
                         "substitutes": self._ids(c.id for c in players if c.set == s and c.kind == "substitute"),
                         "tactics": self._ids(t.id for t in tactics if t.set == s)}
                     for s in ("A", "B")}
        self.durations = {str(r["length"]): (_int(r, "turns_per_player", "durations"),
                                             _int(r, "pile_cards", "durations")) for r in rows["durations"]}
        self._check_setup()
        self._tables: dict = {}
        self._plans: dict = {}
        self._levels: dict = {}      # lineup (5 cards) -> team levels: a pure function of the lineup

    @classmethod
    def from_rows(cls, skills: list, dice: list, players: list, tactics: list, fatigue: list, durations: list,
                  params: dict) -> "GameData":
        """Plain dict rows with the columns of schema.py, and the typed `rules` parameters."""
        return cls({"skills": list(skills), "dice": list(dice), "players": list(players), "tactics": list(tactics),
                    "fatigue": list(fatigue), "durations": list(durations)}, params)

    def with_params(self, **changes) -> "GameData":
        """The same rows under changed rule parameters."""
        return GameData(self.rows, {**self.params, **changes})

    # --- building ------------------------------------------------------------------------------------------

    def _ids(self, names) -> tuple:
        return tuple(sorted(self.index[n] for n in names))

    def _dice(self, skills: list, dice: list) -> None:
        owned = {str(r["id"]): _int(r, "dice_per_player", "skills", 0) for r in skills}
        self.owned = {d: owned.get(d, 10) for d in DICE}
        faces: dict = {d: [] for d in DICE}
        for r in dice:
            die = str(r["die"])
            if die not in faces:
                raise ValueError(f"dice: unknown die {die!r} (dice: {', '.join(DICE)})")
            colour = r.get("colour") or None
            if colour is not None and colour not in LETTER:
                raise ValueError(f"dice {die} face {r.get('face')}: colour {colour!r} is not blue, yellow or red")
            faces[die].append((_int(r, "face", "dice"), _int(r, "value", "dice"), colour))
        self.faces, self.face, self.die_outcomes, self.die_accept, self.mean = {}, {}, {}, {}, {}
        for die in DICE:
            rows = sorted(faces[die])
            if not rows:
                raise ValueError(f"dice: die {die} has no face")
            values = []
            for _, value, colour in rows:
                letter = LETTER[colour] if die in DEFENCE_SKILLS and colour and value > 0 else ""
                label = f"{die}:{value}{letter}"
                colour = colour if letter else (COLOUR_OF_DIE.get(die) if die in OFFENCE_SKILLS else None)
                self.face[label] = (die, value, colour)
                values.append(label)
            self.faces[die] = tuple(values)
            counts: dict = {}
            for label in values:
                counts[label] = counts.get(label, 0) + 1
            self.die_outcomes[die] = [(label, k / len(values)) for label, k in counts.items()]
            self.die_accept[die] = {label: label for label in counts}
            self.mean[die] = sum(self.face[label][1] for label in values) / len(values)

    def _check_setup(self) -> None:
        for s, parts in self.sets.items():
            starters = [self.player[c] for c in parts["starters"]]
            for pos in range(len(POSITIONS)):
                if not any(c.initiation and c.positions[0] == pos for c in starters):
                    raise ValueError(f"players: set {s} has no initiation starter for position {POSITIONS[pos]}")
        length = self.params["length"]
        if length not in self.durations:
            raise ValueError(f"durations: no row for length {length!r} (rule parameter length)")
        if self.durations[length][1] > len(self.nba):
            raise ValueError(f"durations {length}: a pile of {self.durations[length][1]} cards, "
                             f"the data has {len(self.nba)} NBA cards")

    # --- what the engine and bots read ---------------------------------------------------------------------

    def ints(self, names) -> list:
        """Card ids -> engine integers; ValueError naming an unknown id."""
        index = self.index
        try:
            return [index[n] for n in names]
        except (KeyError, TypeError):
            unknown = [n for n in names if not isinstance(n, str) or n not in index]
            raise ValueError(f"unknown card {unknown[0]!r}") from None

    def pile_cards(self) -> int:
        return self.durations[self.params["length"]][1]

    def best_table(self, die: str, colours: frozenset | None = None) -> list:
        """table[n][k] = E[Σ of the k best of n dice of this type]; on a defensive die only faces whose colour
        is in `colours` count (the matching reduction of §7.4's bot)."""
        key = (die, colours)
        table = self._tables.get(key)
        if table is None:
            values = [v if colours is None or c in colours else 0 for v, c in
                      (self.face[label][1:] for label in self.faces[die])]
            top = max(self.params["dice_cap"], self.owned[die]) + 1
            table = self._tables[key] = [[expected_best(values, n, k) for k in range(11)] for n in range(top)]
        return table

    def dice_for(self, tactic: TacticCard, levels) -> list:
        """[(die, dice rolled, dice kept)] for this tactic with these team levels: engine_rules.dice_to_roll
        (the cap per skill or per tactic), and never more dice than a player owns."""
        plan = self._plans.get(tactic.id)
        if plan is None:
            plan = self._plans[tactic.id] = tuple((d, SKILL_INDEX[d], min(self.params["dice_cap"], self.owned[d]), k)
                                                  for d, k in tactic.keep)
        if self.params["dice_cap_scope"] == "per_skill":
            return [(d, 0 if levels[i] < 0 else levels[i] if levels[i] < cap else cap, k) for d, i, cap, k in plan]
        counts = dice_to_roll({d: levels[i] for d, i, _, _ in plan}, [d for d, *_ in plan], self.params["dice_cap"],
                              "per_tactic")
        return [(d, min(counts[d], self.owned[d]), k) for d, _, _, k in plan]

    def expected_attack(self, tactic: TacticCard, levels) -> float:
        """§2.3: the expected kept total of an offensive tactic for these team levels."""
        return sum(self.best_table(d)[n][min(k, 10)] for d, n, k in self.dice_for(tactic, levels))

    def expected_defence(self, tactic: TacticCard, levels, colours: frozenset) -> float:
        """The expected reduction of a defence against an attack of these colours (faces of other colours and
        blanks count 0)."""
        return sum(self.best_table(d, colours)[n][min(k, 10)] for d, n, k in self.dice_for(tactic, levels))


def _positions(row: dict) -> tuple:
    codes = [p.strip() for p in str(row.get("positions") or "").split("/") if p.strip()]
    if not codes or any(p not in POSITIONS for p in codes):
        raise ValueError(f"players {row.get('id')!r}: positions {row.get('positions')!r} must be codes among "
                         f"{', '.join(POSITIONS)} separated by /")
    return tuple(POSITIONS.index(p) for p in codes)


def _player(row: dict) -> PlayerCard:
    return PlayerCard(
        id=str(row["id"]), set=str(row["set"]), kind=str(row["kind"]), initiation=_bool(row.get("initiation")),
        positions=_positions(row), value=_int(row, "value", "players"), cost=_int(row, "cost", "players", 0),
        stats=tuple(_int(row, s, "players", 0) for s in SKILLS), clutch=_bool(row.get("clutch")))


def _tactic(row: dict) -> TacticCard:
    offence = str(row["type"]) == "offence"
    keep = tuple((d, _int(row, f"keep_{d}", "tactics", 0)) for d in DICE if _int(row, f"keep_{d}", "tactics", 0) > 0)
    allowed = OFFENCE_SKILLS if offence else DEFENCE_SKILLS
    if not keep or any(d not in allowed for d, _ in keep):
        raise ValueError(f"tactics {row.get('id')!r}: an {row['type']} tactic keeps dice of "
                         f"{', '.join(allowed)} only, at least one")
    return TacticCard(
        id=str(row["id"]), set=str(row["set"]), initiation=_bool(row.get("initiation")), offence=offence,
        value=_int(row, "value", "tactics"), cost=_int(row, "cost", "tactics", 0),
        complexity=_int(row, "complexity", "tactics"), keep=keep, copies=_int(row, "copies", "tactics", 1))
