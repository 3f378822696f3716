"""A toy league for the ratio tables and the robot sweep (tests/simulation/test_simulate_ratios.py): 1 to 8 seats and,
at an odd count, a robot; counters shaped like Challengers' engine's, their odds set by the rules.

Chance, in order: the selection of sets ("a+b" or "a+c", even odds); each seat's most-drafted set (one of the
selection's two, even odds); at an odd count the robot's match, won with probability robot_level / 6; the
game's winner (even odds among the seats; solo: the player, unless the robot won).
Counters: set_lead:<selection>|<set> for every seat, set_lead_won:<selection>|<set> for the winner;
offered:<card> 2 and picked:<card> 1 per seat for card "common", offered:rare 1 per game, picked:rare 1 for the
winner only (so its pick rate is 1 / seats and its win rate when picked 1); picked_by_winner:<card> for the
winner's picks; matches (seats // 2, plus the robot's), reveals (10 a match), match_end:empty_deck and
match_end:bench_full (one each per match, alternately: the first of a game by an empty deck), robot:matches,
robot:won.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from types import MappingProxyType

from pipeline.core.errors import SourceRef
from pipeline.data.schema import Record
from pipeline.data.specs import GameModule
from pipeline.play.contract import CHANCE, Ratio, RatioTable, Simulation, Sweep, TERMINAL, with_rules

FILE = "sheets/league.xlsx"
RULES = {"robot_level": 3}
SELECTIONS = ("a+b", "a+c")


def league_records(**rules) -> dict:
    letters = MappingProxyType({"parameter": "A", "value": "B"})
    values = {**RULES, **rules}
    return {"rules": [Record("rules", SourceRef(FILE, "rules", i + 2), MappingProxyType({"parameter": k, "value": v}),
                             letters) for i, (k, v) in enumerate(values.items())]}


class League:
    def __init__(self, records, players: int):
        self.level = int({r["parameter"]: r["value"] for r in records["rules"]}["robot_level"])
        self.players, self.robot = players, players % 2 == 1
        self.selection, self.leads, self.robot_won, self.winner = None, [], None, None

    def _step(self) -> str:
        if self.selection is None:
            return "selection"
        if len(self.leads) < self.players:
            return "lead"
        if self.robot and self.robot_won is None:
            return "robot"
        return "winner" if self.winner is None else "over"

    def current_player(self) -> int:
        return TERMINAL if self._step() == "over" else CHANCE

    def legal_actions(self) -> list:
        return []

    def chance_outcomes(self) -> list:
        step = self._step()
        if step == "selection":
            return [(s, 0.5) for s in SELECTIONS]
        if step == "lead":
            return [(s, 0.5) for s in self.selection.split("+")]
        if step == "robot":
            return [(True, self.level / 6), (False, 1 - self.level / 6)]
        if step == "winner":
            if self.players == 1:
                return [(-1 if self.robot_won else 0, 1.0)]
            return [(seat, 1 / self.players) for seat in range(self.players)]
        return []

    def apply_action(self, action) -> None:
        step = self._step()
        if step == "selection":
            self.selection = action
        elif step == "lead":
            self.leads.append(action)
        elif step == "robot":
            self.robot_won = action
        elif step == "winner":
            self.winner = action
        else:
            raise ValueError("the league is over")

    def is_terminal(self) -> bool:
        return self._step() == "over"

    def returns(self) -> list[float]:
        return [1.0 if seat == self.winner else 0.0 for seat in range(self.players)]

    def outcome(self) -> dict:
        c: Counter = Counter()
        if self.winner is not None:
            for seat, lead in enumerate(self.leads):
                c[f"set_lead:{self.selection}|{lead}"] += 1
                c["offered:common"] += 2
                c["picked:common"] += 1
                if seat == self.winner:
                    c[f"set_lead_won:{self.selection}|{lead}"] += 1
                    c["picked_by_winner:common"] += 1
                    c["picked:rare"] += 1
                    c["picked_by_winner:rare"] += 1
            c["offered:rare"] += 1
            matches = self.players // 2 + self.robot
            c["matches"], c["reveals"] = matches, 10 * matches
            c["match_end:empty_deck"], c["match_end:bench_full"] = (matches + 1) // 2, matches // 2
            if self.robot:
                c["robot:matches"], c["robot:won"] = 1, int(self.robot_won)
        return {"scores": self.returns() if self.winner is not None else [0] * self.players, "rounds": 1,
                "turns": 1, "end_reason": "lead" if self.players <= 2 else "final", "counters": dict(c)}


class Idle:
    def __init__(self, seat: int):
        self.seat = seat

    def choose(self, state, rng):
        raise AssertionError("the league never asks a seat")


def new_game(records, players: int) -> League:
    return League(records, players)


ROBOT_WON = Ratio("robot:won", "robot:matches", "robot's match win rate")
SETS = RatioTable("set_strength", "Set strength", (Ratio("set_lead_won", "set_lead", "win rate"),))
CARDS = RatioTable("cards", "Cards", (Ratio("picked", "offered", "pick rate"),
                                      Ratio("picked_by_winner", "picked", "win rate when picked")), sort=1,
                   note="A card no better than another wins as often as its player.")
MATCHES = RatioTable("matches", "Matches", (Ratio("reveals", "matches", "reveals per match", share=False),
                                            Ratio("match_end:bench_full", "matches", "lost on a full bench"),
                                            ROBOT_WON))
ROBOT = Sweep(("robot_level",), tuple((level,) for level in range(1, 6)), "robot level", y=ROBOT_WON)
SIMULATION = Simulation(new_game=new_game, bots={"none": Idle}, players=(1, 8), default_players=3,
                        sweeps=(ROBOT,), ratios=(SETS, CARDS, MATCHES))


def load(game: str, root: str, rules=()):
    return SIMULATION, with_rules(league_records(), rules)


def league_module(game: str = "league") -> GameModule:
    return GameModule(id=game, title="Toy league", data_files=(Path("/nonexistent") / FILE,), sheets=(),
                      template_dir=Path("/nonexistent/templates/league"), components=lambda records: [],
                      manifest_sheet=None, simulation=SIMULATION)
