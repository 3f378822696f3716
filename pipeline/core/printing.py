"""The one vocabulary of printing: the papers, the ways of printing backs, the output formats, and the one
options record every home-printing writer takes (card sheets, board tiles, pages, dice, rulebooks)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from pipeline.core.units import PAPERS_MM


class Paper(StrEnum):
    A4 = "a4"
    LETTER = "letter"

    @property
    def size_mm(self) -> tuple[float, float]:
        return PAPERS_MM[self.value]


class Backs(StrEnum):
    DUPLEX = "duplex"          # backs on the other side of the same sheet, mirrored for a long-edge flip
    FOLDOVER = "foldover"      # backs beside the fronts, fold along the line and glue
    NONE = "none"              # fronts only


class Format(StrEnum):
    PNP = "pnp"                # home printing: A4 / Letter sheets
    PRINT = "print"            # print services: one face per page, with bleed and page boxes
    PNG = "png"                # one image per face
    TTS = "tts"                # Tabletop Simulator: face sheets and a Saved Object (pipeline/exports/tts/)
    PCIO = "pcio"              # playingcards.io: an importable room archive (pipeline/exports/pcio.py)
    TGC = "tgc"                # The Game Crafter: one PNG per face at its exact size (pipeline/exports/presets.py)
    MPC = "mpc"                # MakePlayingCards: likewise, at its own size
    DTC = "dtc"                # DriveThruCards: one card a page, 1/8 in bleed, PDF/X-1a with Ghostscript


PAPER_FORMATS = ("pnp", "print", "png")     # what the component kinds write; the rest are exports (kinds/exports.py)


OVERLAP_RANGE_MM = (4.0, 40.0)     # a tiled board's glue strip: below, no room to glue; above, paper wasted


def _member(kind: type[StrEnum], value, what: str):
    try:
        return kind(value)
    except ValueError:
        raise ValueError(f"unknown {what} {value!r} (use {', '.join(member.value for member in kind)})") from None


@dataclass(frozen=True)
class PrintOptions:
    """How one home-printing file is made. Every writer reads paper and titles; the rest is for the kinds
    named beside each field."""

    paper: Paper = Paper.A4
    game_title: str = ""
    component_title: str = ""
    ink_saver: bool = False                           # card sheets and boards: the header says so
    backs: Backs = Backs.DUPLEX                       # card sheets
    back_offset_mm: tuple[float, float] = (0.0, 0.0)  # card sheets printed duplex: the printer's correction
    keep_bleed: bool = False                          # card sheets: every face keeps its bleed
    overlap_mm: float = 10.0                          # boards: the glue strip between tiles
    subtitle: str = "Règles du jeu"                   # rulebooks: under the title
    fonts: Any = None                                 # rulebooks: a FontSet (None: the default fonts)

    def __post_init__(self):
        object.__setattr__(self, "paper", _member(Paper, self.paper, "paper"))
        object.__setattr__(self, "backs", _member(Backs, self.backs, "backs mode"))
        low, high = OVERLAP_RANGE_MM
        if not low <= self.overlap_mm <= high:
            raise ValueError(f"overlap {self.overlap_mm:g} mm is outside {low:g}–{high:g} mm")
