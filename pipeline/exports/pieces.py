"""A game's components as exports see them: each a `Piece` of one kind (a deck of cards, a set of tokens, a
board, a sheet of pages, a die), holding its cards in order, each with its front, its back, its name, its
edition id and the workbook cell it comes from. Built from the laid-out components of a build (non-ink)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from pipeline.data.specs import BoardSpec, CardDeck, DiceSpec, FaceSpec, PageSpec

TOKEN_SIDE_MM = 40.0        # a deck whose longer side is at most this is a set of tokens (counters, pawns, coins)

DECK, TOKEN, BOARD, PAGE, DIE = "deck", "token", "board", "page", "die"


@dataclass(frozen=True)
class Card:
    """One physical piece: a card, a token, a board, a page or a die's face."""

    front: Any                      # a laid-out face (render/sheets/imposition.Face: key, width, height, bleed, draw)
    back: Any | None                # its back, None when blank
    name: str                       # what a player calls it (FaceSpec.label, else its file-safe name)
    id: str = ""                    # its edition id ("3f2a"), "" without marks or when no card's own
    cell: str = ""                  # where its data is ("sheets/nba.xlsx › players › row 5"), "" when none


@dataclass(frozen=True)
class Piece:
    id: str                         # the component's id ("players"); a die's: "<dice id>-<die id>"
    title: str                      # French, from the game's data
    kind: str                       # DECK, TOKEN, BOARD, PAGE or DIE
    size_mm: tuple[float, float]    # trim size of one card
    cards: tuple[Card, ...]
    copies: int = 1                 # how many the game needs (boards, pages, dice of one kind)

    @property
    def unique_backs(self) -> bool:
        """Whether the backs differ card by card (team backs, level backs): else one back serves the deck."""
        return len({card.back.key for card in self.cards if card.back is not None}) > 1

    @property
    def two_sided(self) -> bool:
        return any(card.back is not None for card in self.cards)


def pieces_of(laid: Sequence, edition=None) -> list[Piece]:
    """Every non-ink Laid (pipeline/kinds/prepare.Laid) as Pieces, in the game's order; rulebooks are
    left out (they are documents, not table pieces: the release carries their PDFs)."""
    pieces = []
    for one in laid:
        if one.ink:
            continue
        component = one.component
        if isinstance(component, CardDeck):
            pieces.append(_deck(component, one.faces, edition))
        elif isinstance(component, BoardSpec):
            card = _card(component.face, one.faces, None, edition, component.title, own=False)
            pieces.append(Piece(component.id, component.title, BOARD, tuple(component.size_mm), (card,),
                                component.copies))
        elif isinstance(component, PageSpec):
            cards = tuple(_card(spec, face, None, edition, _numbered(component.title, i, len(component.faces)),
                                own=False)
                          for i, (spec, face) in enumerate(zip(component.faces, one.faces)))
            pieces.append(Piece(component.id, component.title, PAGE, tuple(component.size_mm), cards,
                                component.copies))
        elif isinstance(component, DiceSpec):
            for die, faces in zip(component.dice, one.faces.dice):
                cards = tuple(_card(spec, face, None, None, f"{die.caption or die.label} — face {i + 1}", own=False)
                              for i, (spec, face) in enumerate(zip(die.faces, faces.faces)))
                size = (component.face_mm, component.face_mm)
                pieces.append(Piece(f"{component.id}-{die.id}", die.caption or die.label, DIE, size, cards,
                                    die.count))
    return pieces


def _deck(deck: CardDeck, faces, edition) -> Piece:
    fronts, backs = faces
    count = len(fronts)
    cards = tuple(_card(spec, front, back, edition, _numbered(deck.title, i, count))
                  for i, (spec, front, back) in enumerate(zip(deck.fronts, fronts, backs or [None] * count)))
    kind = TOKEN if max(deck.size_mm) <= TOKEN_SIDE_MM else DECK
    return Piece(deck.id, deck.title, kind, tuple(deck.size_mm), cards)


def _card(spec: FaceSpec, front, back, edition, name: str = "", own: bool = True) -> Card:
    """`own`: the card's name comes from its data (a deck's cards); else `name` (French: the component's title)."""
    ident = edition.short(spec.context) if edition is not None and edition.ids else ""
    return Card(front, back, _name(spec, name) if own else name, ident, str(spec.ref) if spec.ref else "")


def _numbered(title: str, index: int, count: int) -> str:
    return title if count == 1 else f"{title} ({index + 1}/{count})"


def _name(spec: FaceSpec, fallback: str) -> str:
    """The card's own name (its data's `name` value, French), else `fallback` (the component's French title),
    else its file-safe name. Never FaceSpec.label: that is the messages' English ("trophy of round 1")."""
    own = spec.context.get("name")
    if isinstance(own, str) and own.strip():
        return own.strip()
    return fallback or spec.name
