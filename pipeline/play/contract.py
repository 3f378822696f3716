"""The engine contract and the simulation record: what the seeded driver (pipeline/play/driver.py) plays, and
what a game declares so that `pnp simulate`, `pnp sweep` and validation stage 6 can play it (the Simulation
record, its ratios, sweeps, sides and key figures). Also the two helpers the driver applies to a game's
records: the records with some rule parameters changed, and where a flagged game's blame points."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, NamedTuple, Protocol, Sequence

from pipeline.core.errors import Report, SourceRef
from pipeline.data.specs import Records

CHANCE = -1         # current_player() while chance acts (a shuffle, a draw): the driver samples an outcome
TERMINAL = -2       # current_player() once the game is over


class GameState(Protocol):
    """OpenSpiel-shaped. Engines import only the standard library: they conform, they do not import this."""

    def current_player(self) -> int: ...                     # a seat 0..P-1, CHANCE or TERMINAL
    def legal_actions(self) -> list: ...                     # the current player's, sorted and stable
    def chance_outcomes(self) -> list[tuple[Any, float]]: ...  # at CHANCE: (outcome, probability), stable order
    def apply_action(self, action: Any) -> None: ...         # raises ValueError for an illegal action
    def is_terminal(self) -> bool: ...
    def returns(self) -> list[float]: ...                    # per seat at the end: 1 win, shared win 1/k, else 0
    def outcome(self) -> dict: ...                           # see pipeline/play/driver.py for its keys


class Bot(Protocol):
    def choose(self, state: GameState, rng) -> Any: ...      # an action legal for state.current_player()


class Sides(NamedTuple):
    """The sides a game matches (Fightball's two team decks): the rule parameters naming the side of each seat,
    in seat order ("team_north", "team_south"), and the ids a side may take, read from the data. `pnp simulate
    --teams A,B` sets those parameters; `--matchups` plays every ordered pair of ids."""

    parameters: tuple[str, ...]
    choices: Callable[[Records], Sequence[str]]


class Ratio(NamedTuple):
    """A rate read from the games' counters: the numerator's total over the denominator's, over every game
    that ended by the rules. Two counter tables (names without a colon: "picked_by_winner" over "picked") give
    one rate per key of the denominator's table; two counters ("robot:won" over "robot:matches", "reveals"
    over "matches") give one rate. A share (`share`: every numerator at most its denominator) carries a 95 %
    Wilson interval; otherwise the rate is a mean per unit of the denominator (reveals per match)."""

    numerator: str
    denominator: str
    label: str = ""                                  # what the rate is ("win rate when picked")
    share: bool = True


class RatioTable(NamedTuple):
    """Rates shown together (pipeline/play/ratios.py): ratios of counter tables side by side, one row per
    key (a key "group|row" is shown in its group, the part before "|", and the groups pooled as "all"); or
    ratios of single counters, one row each. Also written as <id>.csv next to the report."""

    id: str                                          # file-safe: the CSV's name
    title: str
    ratios: tuple[Ratio, ...]
    sort: int | None = None                          # rows by this ratio's rate, highest first; None: key order
    note: str = ""                                   # how to read it, printed under the title


class Sweep(NamedTuple):
    """Rule parameters set together to a few settings, the same seeds played at each (Fightball's speeds
    (40, 60), (50, 50), (60, 40)): the report shows the win rate by seat as a function of `x(setting)`, or,
    with `y`, that ratio of the games' counters (the robot's match win rate by robot level). A sweep whose
    `y` denominator the run never counted (no robot at an even player count) is not played."""

    parameters: tuple[str, ...]
    settings: tuple[tuple[Any, ...], ...]
    label: str = ""                                  # what x is ("north's share of the speed")
    x: Callable[[tuple], Any] | None = None          # a setting -> its point on the axis; None: the values
    y: Ratio | None = None                           # what is measured; None: every seat's win rate


class KeyFigure(NamedTuple):
    """A number a designer watches while tuning a rule (`pnp sweep` tables, balance gates): the mean of a
    counter per game that ended by the rules, or with `per`, the counter's total over another's total (points
    per activation). A counter table's name (no colon) stands for the sum of its rows."""

    counter: str
    label: str                                       # French-free, for reports: "Contract gold per game"
    per: str | None = None


@dataclass(frozen=True)
class Simulation:
    """How `pnp simulate` and validation stage 6 play a game: new_game(records, players) -> a state at its
    first chance node; bots by name; `nominal` = expectations computed from the data, shown next to the
    simulated values (name -> value, e.g. expected gold per Contract card drawn)."""

    new_game: Callable[[Records, int], GameState]
    bots: Mapping[str, Callable[[int], Bot]]     # name -> factory(seat)
    players: tuple[int, int] | Callable[[Records], tuple[int, int]]   # fewest, most; or read from the data
    default_players: int
    nominal: Callable[[Records], Mapping[str, float]] = lambda records: {}
    blame: Callable[[Records, dict], list[SourceRef]] = lambda records, outcome: []   # rows behind a stuck game
    # rule variants stage 6 also plays (each a tuple of `rules` overrides): a variant whose games mostly stop
    # at a safety cap instead of at their own end is a problem of the data or of the bots
    variants: Callable[[Records], Sequence[tuple[tuple[str, str], ...]]] = lambda records: ()
    # the rulebook's disputed readings as (rules parameter, the other reading's value): `pnp simulate` replays
    # the same seeds with the other value and reports how often it changes the winner
    readings: Callable[[Records], Sequence[tuple[str, str]]] = lambda records: ()
    # the game's own checks of stage 6, before the seeded batch: (records, report, this record) -> None, e.g. a
    # table of game lengths compared with the length the engine plays
    play_checks: Callable[[Records, Report, "Simulation"], None] = lambda records, report, simulation: None
    # the sides a game matches (`--teams`, `--matchups`); None: the game has no sides to choose
    sides: Sides | None = None
    # rule parameters whose effect on the win rate `pnp simulate` measures on the run's seeds
    sweeps: Sequence[Sweep] = ()
    # pairs of counter tables with the same keys shown side by side ("played", "discarded"): per card, how
    # often each happened and the first's share of the two
    paired: Sequence[tuple[str, str]] = ()
    # rates of counters with their intervals (per card, per set, per match): pipeline/play/ratios.py
    ratios: Sequence[RatioTable] = ()
    # the numbers a designer tunes against (Build It: Contract gold; NBA: points per activation), first the
    # one that matters most: `pnp sweep` shows them for every combination, a balance gate may name them
    key_figures: Sequence[KeyFigure] = ()
    # every key a counter table could count, from the data ({"bought_player": card ids}): a balance gate on a
    # table's presence also sees the cards no game ever bought
    catalogs: Callable[[Records], Mapping[str, Sequence[str]]] = lambda records: {}

    def player_range(self, records: Records | None = None) -> tuple[int, int]:
        """Fewest and most players: from the data when the game reads them there (records given)."""
        if callable(self.players):
            if records is None:
                raise ValueError("this game reads its player range from its data: give the records")
            return tuple(self.players(records))
        return self.players


def other_readings(*choices: tuple[str, tuple[str, ...]]) -> Callable[[Records], list[tuple[str, str]]]:
    """Simulation.readings from (rules parameter, its readings) pairs: for each, the first reading the rules
    sheet does not use."""
    def readings(records: Records) -> list[tuple[str, str]]:
        used = {rec.get("parameter"): rec.get("value") for rec in records.get("rules", ())}
        found = []
        for name, options in choices:
            if name not in used:
                continue
            value = {True: "yes", False: "no"}.get(used[name], used[name]) if isinstance(used[name], bool) \
                else str(used[name])
            other = next((option for option in options if option != value), None)
            if other is not None:
                found.append((name, other))
        return found
    return readings


def per_records(build: Callable[[Records], Any]) -> Callable[[Records], Any]:
    """`build(records)` once per records object: a batch of games (or a validation) shares one GameData."""
    cache: dict[int, tuple] = {}

    def get(records: Records):
        hit = cache.get(id(records))
        if hit is None or hit[0] is not records:
            cache.clear()
            hit = cache[id(records)] = (records, build(records))
        return hit[1]
    return get


def blame_rows(records: Records, outcome: dict) -> list[SourceRef]:
    """The cells behind an outcome's "blame" pairs: ["rules", parameter] -> its value cell, [sheet, row id]
    -> that row. Games use it as their Simulation.blame."""
    refs = []
    for sheet, key in outcome.get("blame", ()):
        for rec in records.get(sheet, ()):
            if sheet == "rules" and rec.get("parameter") == key:
                refs.append(rec.at("value"))
            elif rec.get("id") == key:
                refs.append(rec.ref)
    return refs


def with_rules(records: Records, rules: tuple[tuple[str, str], ...]) -> Records:
    """The records with some `rules` sheet values replaced (`pnp simulate --rule mode=duel`): the same typing
    and checks apply to them as to the workbook's own cells. ValueError names an unknown parameter."""
    from dataclasses import replace
    from types import MappingProxyType

    if not rules:
        return records
    wanted = dict(rules)
    known = {rec.get("parameter") for rec in records.get("rules", ())}
    unknown = sorted(set(wanted) - known)
    if unknown:
        raise ValueError(f"unknown rule parameter {', '.join(unknown)} (known: {', '.join(sorted(map(str, known)))})")
    rows = [replace(rec, values=MappingProxyType({**rec.values, "value": wanted[rec.get("parameter")]}))
            if rec.get("parameter") in wanted else rec for rec in records["rules"]]
    return {**records, "rules": rows}
