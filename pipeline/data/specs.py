"""What a game plugs into the pipeline, the one module games import for it: the game record (GameModule: its
data files, sheets, checks and components) and the specs of the components it prints (card decks, boards,
pages, dice, rulebooks), each made of FaceSpecs. How a game is played (the Simulation record) is the play
room's: pipeline/play/contract.py."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping

from pipeline.core.errors import Report, SourceRef
from pipeline.data.schema import Column, Record, SheetSpec

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
    # "printed together": decks of one group (a team, a set, a level; a file-safe id) share pooled sheets with
    # each other and never with another group's, so a group prints alone (pipeline/kinds/pooled.py)
    group: str = ""
    group_title: str = ""           # the group's French name, in headers and the print guide ("Les Éclairs")


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
    simulation: Any = None                   # a Simulation (pipeline/play/contract.py): games with a rules engine
    rule_parameters: tuple[Column, ...] = ()  # the `rules` sheet's parameters, typed in stage 2 (schema.py)
    # who made the game, as every PDF of it credits them (Author); the French seed rulebooks name no one
    author: str = ""
    keywords: tuple[str, ...] = ()           # what the game is, first in every PDF's Keywords (French)
    # the edition printed in every edition mark and naming a release ("0.3"); "" lets `git describe --tags`
    # of the project say it (pipeline/core/edition.py version_of); `--version` overrides both
    version: str = ""
    # the designers as the workbook's `game` sheet names them (pipeline/data/meta.py); "" keeps `author`
    designers: str = ""

    @property
    def credited_author(self) -> str:
        """The PDF Author of the game's files: the designers its workbook names, else its record's author,
        else its title's authors."""
        return self.designers.strip() or self.author.strip() or f"Auteurs de {self.title}"
