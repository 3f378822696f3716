"""A toy two-sided game for the matchup tests: two teams meet (rule parameters team_north and team_south, the
game's sides); one chance node decides the game: a draw with draw_pct %, else north wins in proportion to
strength × speed (speed_north, speed_south). A team of strength 0 never wins against one of strength > 0, at
either seat; two equal teams split by speed alone (the speed sweep then measures the speed share).

Counters: points:play (the winner's 2 points), played:<team> and discarded:<team> (1 and 1 per game for the
winner, 0 and 2 for the loser), buzz:<seat> (who ended the game: always the winner's seat, nobody on a draw).
"""

from __future__ import annotations

from pathlib import Path
from types import MappingProxyType

from pipeline.core.errors import SourceRef
from pipeline.data.schema import Record
from pipeline.data.specs import GameModule
from pipeline.play.contract import CHANCE, Sides, Simulation, Sweep, TERMINAL, with_rules

FILE = "sheets/duel.xlsx"
TEAMS = {"ace": 1, "dud": 0, "twin": 1, "mirror": 1}
RULES = {"team_north": "ace", "team_south": "twin", "speed_north": 50, "speed_south": 50, "draw_pct": 0}
NORTH, SOUTH, DRAW = "north", "south", "draw"


def duel_records(teams=None, **rules) -> dict:
    rule_letters = MappingProxyType({"parameter": "A", "value": "B"})
    team_letters = MappingProxyType({"id": "A", "strength": "B"})
    values = {**RULES, **rules}
    return {"rules": [Record("rules", SourceRef(FILE, "rules", i + 2), MappingProxyType({"parameter": k, "value": v}),
                             rule_letters) for i, (k, v) in enumerate(values.items())],
            "teams": [Record("teams", SourceRef(FILE, "teams", i + 2), MappingProxyType({"id": k, "strength": v}),
                             team_letters) for i, (k, v) in enumerate((teams or TEAMS).items())]}


class Duel:
    def __init__(self, records, players: int):
        rules = {r["parameter"]: r["value"] for r in records["rules"]}
        strength = {r["id"]: float(r["strength"]) for r in records["teams"]}
        self.sides = (str(rules["team_north"]), str(rules["team_south"]))
        north = strength[self.sides[0]] * int(rules["speed_north"])
        south = strength[self.sides[1]] * int(rules["speed_south"])
        if north + south == 0:
            north, south = int(rules["speed_north"]), int(rules["speed_south"])
        draw = int(rules["draw_pct"]) / 100
        self.chances = [(NORTH, (1 - draw) * north / (north + south)), (SOUTH, (1 - draw) * south / (north + south)),
                        (DRAW, draw)]
        self.result = None

    def current_player(self) -> int:
        return TERMINAL if self.result else CHANCE

    def legal_actions(self) -> list:
        return []

    def chance_outcomes(self) -> list:
        return [] if self.result else list(self.chances)

    def apply_action(self, action) -> None:
        self.result = action

    def is_terminal(self) -> bool:
        return self.result is not None

    def returns(self) -> list[float]:
        return {NORTH: [1.0, 0.0], SOUTH: [0.0, 1.0], DRAW: [0.5, 0.5]}[self.result]

    def outcome(self) -> dict:
        scores = [2 * r for r in self.returns()] if self.result else [0, 0]
        counters = {"points:play": max(scores)}
        for seat, team in enumerate(self.sides):
            won = self.result != DRAW and self.returns()[seat] == 1.0
            counters[f"played:{team}"] = counters.get(f"played:{team}", 0) + (1 if won else 0)
            counters[f"discarded:{team}"] = counters.get(f"discarded:{team}", 0) + (1 if won else 2)
        if self.result in (NORTH, SOUTH):
            counters[f"buzz:{self.result}"] = 1
        return {"scores": scores, "rounds": 1, "turns": 1, "end_reason": "decided", "counters": counters}


class Idle:
    """The duel has no decision: a bot that is never asked."""

    def __init__(self, seat: int):
        self.seat = seat

    def choose(self, state, rng):
        raise AssertionError("the duel never asks a seat")


def new_game(records, players: int) -> Duel:
    return Duel(records, players)


SPEEDS = Sweep(("speed_north", "speed_south"), ((40, 60), (50, 50), (60, 40)), "north's speed share",
               lambda setting: setting[0] / (setting[0] + setting[1]))
SIMULATION = Simulation(new_game=new_game, bots={"none": Idle}, players=(2, 2), default_players=2,
                        sides=Sides(("team_north", "team_south"), lambda records: [r["id"] for r in records["teams"]]),
                        sweeps=(SPEEDS,), paired=(("played", "discarded"),))


def load(game: str, root: str, rules=()):
    """A GameSource loader (top-level, for spawned workers)."""
    return SIMULATION, with_rules(duel_records(), rules)


def duel_module(game: str = "duel") -> GameModule:
    return GameModule(id=game, title="Toy duel", data_files=(Path("/nonexistent") / FILE,), sheets=(),
                      template_dir=Path("/nonexistent/templates/duel"), components=lambda records: [],
                      manifest_sheet=None, simulation=SIMULATION)
