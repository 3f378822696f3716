"""What a game plugs into the pipeline: its data, its checks and the components it prints."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, NamedTuple, Protocol, Sequence

from pipeline.errors import Report, SourceRef
from pipeline.schema import Column, Record, SheetSpec

MANIFEST_NAME = "game.yaml"       # a data-only game: templates/<game>/game.yaml (datagame.py)

Records = dict[str, list[Record]]


@dataclass(frozen=True)
class FaceSpec:
    """One face to draw: a template and the values it is drawn with, and where those values came from."""

    template: str                   # file name under the game's template folder
    context: Mapping[str, Any]
    ref: SourceRef | None
    name: str                       # file-safe id: PNG file name and messages
    label: str = ""                 # human name used in messages ("Statue Citédor, copy 2")
    data_dir: Path | None = None    # base folder for art paths coming from cells
    size_mm: tuple[float, float] | None = None    # overrides the template's size (a board sized by the data)
    legible: bool = False           # a rulebook diagram: never drawn so small that its words print under 6 pt


@dataclass(frozen=True)
class CardDeck:
    """A component made of cards: fronts, and per-front backs (None: single-sided)."""

    id: str
    title: str                      # printed in the sheet header (French)
    fronts: tuple[FaceSpec, ...]
    backs: tuple[FaceSpec, ...] | None
    size_mm: tuple[float, float] = (63.5, 88.9)
    keep_bleed: bool = False        # home sheets keep each face's bleed (gutters) rather than most cards


@dataclass(frozen=True)
class BoardSpec:
    """One face larger than home paper (a game board): printed whole, with bleed, for print shops
    (output/<game>/print/<id>.pdf) and tiled on A4/Letter with overlap strips, alignment marks and a page
    map (output/<game>/pnp-<paper>/<id>.pdf)."""

    id: str
    title: str                      # French, printed in headers and on the page map
    face: FaceSpec
    size_mm: tuple[float, float]    # trim size
    copies: int = 1                 # how many a game needs (one Court board per player): the report says so


@dataclass(frozen=True)
class PageSpec:
    """Faces printed one per page, centred on the paper, with no crop marks: score sheets and other
    write-on pages. Each face must fit inside the 10 mm margins of both A4 and Letter (190 x 259 mm)."""

    id: str
    title: str
    faces: tuple[FaceSpec, ...]
    size_mm: tuple[float, float]
    copies: int = 1                 # how many printed sets a game needs (one player aid per player)


@dataclass(frozen=True)
class RulebookSpec:
    """A rulebook: Markdown chapters with jinja2 (templates/<game>/<source>/*.md, in file-name order)
    rendered to A4 and Letter PDFs with a table of contents, page numbers, headers and figures."""

    id: str
    title: str
    source: str                                 # folder under the game's template folder
    context: Mapping[str, Any]                  # values the chapters' jinja2 sees (counts, costs, tables…)
    figures: Mapping[str, FaceSpec]             # figure name -> a face drawn at its own size in the text


@dataclass(frozen=True)
class DieSpec:
    """One kind of die: six faces (face 1..6, in order) drawn by templates, and how many dice to make.
    Opposite faces are 1–6, 2–5 and 3–4, as on a standard d6."""

    id: str                         # file-safe: PNG names (<dice id>/<die id>-<face>.png)
    label: str                      # short code printed on the net's glue tab and the sticker rows ("3P")
    faces: tuple[FaceSpec, ...]     # exactly 6, face 1 first; every template drawn square
    count: int                      # dice of this kind: one cube net and six stickers each
    caption: str = ""               # longer French name for the sticker sheet's group titles


@dataclass(frozen=True)
class DiceSpec:
    """Custom dice for home printing (shared/DESIGN.md "Dice"): cube nets with glue tabs
    (output/<game>/pnp-<paper>/<id>-nets.pdf, one net per die) and sticker sheets for blank dice
    (<id>-stickers.pdf, six stickers per die). A face is laid out once at its template's size and scaled
    into a `face_mm` square on the nets and a `sticker_mm` square on the stickers."""

    id: str
    title: str                      # French, printed in the sheet headers
    dice: tuple[DieSpec, ...]
    face_mm: float = 16.0           # cube edge of the nets (16 mm: a standard die)
    sticker_mm: float = 13.0        # sticker side for standard 16 mm blank dice
    ref: SourceRef | None = None    # where the dice come from, for problems (the dice sheet)

    def __post_init__(self):
        for die in self.dice:
            if len(die.faces) != 6:
                raise ValueError(f"die {die.id!r} of {self.id!r} has {len(die.faces)} faces, not 6")
            if die.count < 0:
                raise ValueError(f"die {die.id!r} of {self.id!r} has a negative count {die.count}")


Component = CardDeck | BoardSpec | PageSpec | DiceSpec | RulebookSpec


# --- engines (shared/DESIGN.md "Engines"): what pipeline/simulate.py drives --------------------------------

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
    def outcome(self) -> dict: ...                           # see pipeline/simulate.py for its keys


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
    """Rates shown together (pipeline/simulate_ratios.py): ratios of counter tables side by side, one row per
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
    # rates of counters with their intervals (per card, per set, per match): pipeline/simulate_ratios.py
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


def staged_checks(check_rows: Callable[[Records, Report], None], check_rules: Callable[[Records, Report], None]
                  ) -> Callable[[Records, Report], None]:
    """Stage 3 (rows together), then stage 5 (rules) only when the rows are clean."""
    def run(records: Records, report: Report) -> None:
        check_rows(records, report)
        if not report.errors:
            check_rules(records, report)
    return run


@dataclass(frozen=True)
class GameModule:
    id: str
    title: str
    data_files: tuple[Path, ...]            # absolute; xlsx (all sheets) or csv (one sheet each)
    sheets: tuple[SheetSpec, ...]
    template_dir: Path
    components: Callable[[Records], list[Component]]
    rule_checks: Callable[[Records, Report], None] = lambda records, report: None
    summary: Callable[[Records], list[str]] = lambda records: []
    manifest_sheet: str | None = "components"
    inline_manifest: tuple[Mapping[str, Any], ...] = ()    # data-only games declare counts in game.yaml
    csv_sheet_names: Mapping[str, str] = field(default_factory=dict)   # csv file name -> sheet name
    simulation: Simulation | None = None     # games with a reference rules engine
    rule_parameters: tuple[Column, ...] = ()  # the `rules` sheet's parameters, typed in stage 2 (schema.py)
    # who made the game, as every PDF of it credits them (Author); the French seed rulebooks name no one
    author: str = ""
    keywords: tuple[str, ...] = ()           # what the game is, first in every PDF's Keywords (French)
    # the edition printed in every edition mark and naming a release ("0.3"); "" lets `git describe --tags`
    # of the project say it (pipeline/edition.py version_of); `--version` overrides both
    version: str = ""

    @property
    def credited_author(self) -> str:
        """The PDF Author of the game's files: its record's author, else its title's authors."""
        return self.author.strip() or f"Auteurs de {self.title}"
