"""playingcards.io export: one `<game>.pcio` room file (EXPORTS.md §2) that a fresh room imports.

The file is a ZIP of `schemaVersion` ("3"), `widgets.json` (a JSON array of widgets) and `userassets/*.png`,
the images widgets name as `package://userassets/<file>` [S: a public validator and virtualtabletop's
importer; no official spec: every widget field below is as seen there, [U] beyond them].

- a deck: a `cardPile` holding a `cardDeck` (its templates and `cardTypes`) and one `card` per physical card,
  face down (face up when the deck has no backs at all: its face is all there is to see);
- a set of tokens: one small pile + deck per distinct design (front), face up, so a player draws from the
  pile that shows the token he wants (the format has no token widget with a custom image);
- a board: one `board` widget per copy, its image under 2 MiB (virtualtabletop's importer skips larger
  assets; whether playingcards.io has a cap of its own is [U]), at the cards' scale or smaller;
- pages and dice: not representable; a note line each (not a warning).

Cards show their trimmed faces (no bleed: it would read as a border), distinct faces stored once. Table units:
UNITS_PER_MM makes a poker card 103 units wide (the room's default card width) and keeps its true proportions
(103 × 144, not the default 103 × 160); images are drawn at PX_PER_UNIT pixels per unit (206 × 288 px).
A room holds about 1,200 widgets, cards included [S]: a game needing more is not exported, and one note says so.

Widget ids: `pile-<base>`, `deck-<base>`, `card-<base>-<n>` (n from 1, the pile's order), `board-<piece>-<copy>`,
where <base> is the piece's id, `<piece>-<design>` (from 1) for tokens. Pure: returns an Export, writes nothing.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import zipfile
from dataclasses import dataclass
from typing import Sequence

from PIL import Image

from pipeline.core.units import MM
from pipeline.exports import raster
from pipeline.exports.pieces import BOARD, DECK, DIE, PAGE, TOKEN, Card, Piece
from pipeline.exports.result import Export

TARGET = "pcio"
SCHEMA_VERSION = "3"                  # pinned: another version is another format (EXPORTS §2.4)
MAX_WIDGETS = 1200                    # about, per room, cards included [S: CAH-README]
MAX_ASSET_BYTES = 2 * 1024 * 1024     # an asset must stay below this (virtualtabletop's importer) [S]
ZIP_TIME = (1980, 1, 1, 0, 0, 0)

UNITS_PER_MM = 103 / 63.5             # a poker card is the room's default card width
PX_PER_UNIT = 2                       # card images at twice the table size
MIN_TOKEN_UNITS = 28                  # a token's shorter side on the table, at least (7 mm ones stay clickable)
MIN_TOKEN_PX = 96                     # a token image's shorter side, at least
BOARD_PX_PER_MM = 4.0                 # boards drawn at about 100 dpi ...
BOARD_MAX_EDGE_PX = 2400              # ... and at most this long, then shrunk until under MAX_ASSET_BYTES
SHRINK = 0.85

ROOM = (1600, 1000)                   # the room's usual table, units
MARGIN, GAP = 20, 20
PILE_PAD = 8                          # a pile is its card plus 4 units each side (111 × 168 for 103 × 160)
LABEL_SPACE = 24                      # a pile's label is drawn above it (virtualtabletop: 20 units)
TOKEN_BOX_WIDTH = 80                  # a token pile sits centred in this much width: room for its label
BUTTON_SPACE = 40                     # its shuffle button below it (32 units high at 1.02 × its height)
MIN_BOARD_SCALE = 0.2

NOT_EXPORTED = {PAGE: "pages to print: the room has no page widget; the PDFs carry them",
                DIE: "dice: the room format has no die with custom faces"}


@dataclass(frozen=True)
class _Pile:
    """One cardPile + cardDeck + its cards."""
    base: str
    label: str
    cards: tuple[Card, ...]
    size: tuple[float, float]         # one card on the table, units
    px_per_mm: float
    faceup: bool
    token: bool

    @property
    def box(self) -> tuple[float, float]:
        """The room it takes: the pile, its label above and (decks) its shuffle button below."""
        return (max(self.size[0] + PILE_PAD, TOKEN_BOX_WIDTH if self.token else 0),
                LABEL_SPACE + self.size[1] + PILE_PAD + (0 if self.token else BUTTON_SPACE))


@dataclass(frozen=True)
class _Board:
    id: str
    face: object
    size: tuple[float, float]         # on the table at scale 1, units


def export(game_id: str, title: str, pieces: list[Piece]) -> Export:
    """The game's room as `<game_id>.pcio`, or no file and one note when it needs more than MAX_WIDGETS."""
    result = Export(TARGET)
    piles: list[_Pile] = []
    boards: list[_Board] = []
    left_out: dict[str, list[str]] = {}
    for piece in pieces:
        if piece.kind == DECK and piece.cards:
            piles.append(_deck_pile(piece))
        elif piece.kind == TOKEN and piece.cards:
            piles.extend(_token_piles(piece))
        elif piece.kind == BOARD:
            boards.extend(_Board(f"board-{piece.id}-{copy + 1}", piece.cards[0].front, _units(piece.size_mm))
                          for copy in range(piece.copies) if piece.cards)
        elif piece.kind in NOT_EXPORTED:
            left_out.setdefault(piece.kind, []).append(piece.id)
    for kind, ids in left_out.items():
        result.notes.append(f"{', '.join(ids)}: not exported to playingcards.io ({NOT_EXPORTED[kind]})")
    archive = f"{game_id}.pcio"
    cards = sum(len(pile.cards) for pile in piles)
    count = cards + 2 * len(piles) + len(boards)
    if count > MAX_WIDGETS:
        result.notes = [f"{title}: not exported to playingcards.io: {count} widgets, more than the "
                        f"{MAX_WIDGETS:,} a room holds"]
        result.info = {"archive": None, "widgets": count, "cards": cards, "assets": 0}
        return result
    pile_at, board_at, scale = layout([pile.box for pile in piles], [board.size for board in boards])
    assets = _Assets()
    widgets: list[dict] = []
    for board, (x, y) in zip(boards, board_at):
        width, height = board.size[0] * scale, board.size[1] * scale
        widgets.append({"id": board.id, "type": "board", "x": _n(x), "y": _n(y), "z": len(widgets) + 1,
                        "width": _n(width), "height": _n(height),
                        "boardImage": assets.board(board.id.rsplit("-", 1)[0], board.face)})
    for pile, (x, y) in zip(piles, pile_at):
        left = x + (pile.box[0] - pile.size[0] - PILE_PAD) / 2
        widgets.extend(_pile_widgets(pile, left, y + LABEL_SPACE, len(widgets) + 1, assets))
    ids = [widget["id"] for widget in widgets]
    if len(set(ids)) != len(ids):
        raise ValueError("pcio: two widgets with one id (a piece id clashes with a token design's)")
    members = [("schemaVersion", SCHEMA_VERSION.encode()),
               ("widgets.json", json.dumps(widgets, indent=2, ensure_ascii=False).encode("utf-8"))]
    members += [(f"userassets/{name}", data) for name, data in sorted(assets.files.items())]
    result.add(archive, _zip(members))
    result.info = {"archive": archive, "widgets": len(widgets), "cards": cards, "assets": len(assets.files)}
    return result


def _deck_pile(piece: Piece) -> _Pile:
    size = _units(piece.size_mm)
    return _Pile(piece.id, piece.title, piece.cards, size, PX_PER_UNIT * UNITS_PER_MM,
                 faceup=not piece.two_sided, token=False)


def _token_piles(piece: Piece) -> list[_Pile]:
    """One pile per distinct front, in order of first appearance, labelled with what its cards' names share."""
    designs: dict[str, list[Card]] = {}
    for card in piece.cards:
        designs.setdefault(card.front.key, []).append(card)
    size = _units(piece.size_mm)
    grow = max(1.0, MIN_TOKEN_UNITS / min(size))
    size = (size[0] * grow, size[1] * grow)
    px_per_mm = max(PX_PER_UNIT * UNITS_PER_MM, MIN_TOKEN_PX / min(piece.size_mm))
    many = len(designs) > 1
    return [_Pile(f"{piece.id}-{index}" if many else piece.id,
                  _shared_name([card.name for card in cards]) if many else piece.title,
                  tuple(cards), size, px_per_mm, faceup=True, token=True)
            for index, cards in enumerate(designs.values(), start=1)]


def _shared_name(names: list[str]) -> str:
    """The words all names start with ("Permis Bleu" of "Permis Bleu 1/12", "Permis Bleu 2/12"…), else the
    first name: a short label for a pile of one design."""
    shared = names[0]
    for name in names[1:]:
        while not name.startswith(shared):
            shared = shared[:-1]
    if any(name != shared for name in names):
        shared = shared[:shared.rfind(" ") + 1] if " " in shared else ""
    return shared.rstrip(" ,;:-—") or names[0]


def _pile_widgets(pile: _Pile, x: float, y: float, z: int, assets: _Assets) -> list[dict]:
    """The pile, its deck and its cards, all at the pile's place; the first card lowest (z), the last on top
    (that the highest z is the top of the pile is [U])."""
    width, height = pile.size
    pile_id, deck_id = f"pile-{pile.base}", f"deck-{pile.base}"
    types, type_of = _card_types(pile, assets)
    frame = {"type": "image", "x": 0, "y": 0, "w": _n(width), "h": _n(height)}
    backs = {card.back.key if card.back is not None else None for card in pile.cards}
    if backs == {None}:
        back_objects = []                           # a blank card: printed on one side only
    elif len(backs) == 1:
        back_objects = [{**frame, "valueType": "static", "value": types[type_of[0]]["back"]}]
    else:
        # [U] Beyond the importer's evidence: a deck has one back template, so a back that changes card by
        # card is a dynamic image reading each card type's "back" field, as the face template reads "image".
        back_objects = [{**frame, "valueType": "dynamic", "value": "back"}]
    if len(backs) == 1:
        for fields in types.values():
            fields.pop("back", None)
    widgets = [
        {"id": pile_id, "type": "cardPile", "x": _n(x), "y": _n(y), "z": z,
         "width": _n(width + PILE_PAD), "height": _n(height + PILE_PAD), "label": pile.label,
         "hasShuffleButton": not pile.token},
        {"id": deck_id, "type": "cardDeck", "parent": pile_id, "x": _n(x), "y": _n(y), "z": z + 1,
         "cardWidth": _n(width), "cardHeight": _n(height),
         "faceTemplate": {"includeBorder": False, "includeRadius": not pile.token,
                          "objects": [{**frame, "valueType": "dynamic", "value": "image"}]},
         "backTemplate": {"includeBorder": not back_objects, "includeRadius": not pile.token,
                          "objects": back_objects},
         "cardTypes": types}]
    for n, card_type in enumerate(type_of, start=1):
        widgets.append({"id": f"card-{pile.base}-{n}", "type": "card", "deck": deck_id, "cardType": card_type,
                        "parent": pile_id, "x": _n(x), "y": _n(y), "z": z + 1 + n, "faceup": pile.faceup})
    return widgets


def _card_types(pile: _Pile, assets: _Assets) -> tuple[dict[str, dict], list[str]]:
    """cardTypes by a stable id (the card's edition id, else its front's key; "-2", "-3"… when one id stands
    for different cards), and each card's type in order. A type is a front, a back and a name."""
    images = assets.faces(pile.base, [face for card in pile.cards for face in (card.front, card.back) if face],
                          pile.px_per_mm)
    types: dict[str, dict] = {}
    known: dict[tuple, str] = {}
    type_of = []
    for card in pile.cards:
        identity = (card.front.key, card.back.key if card.back is not None else None, card.name)
        if identity not in known:
            base = card.id or _digest(card.front.key)[:8]
            key, n = base, 1
            while key in types:
                n += 1
                key = f"{base}-{n}"
            types[key] = {"label": card.name, "image": images[card.front.key],
                          "back": images[card.back.key] if card.back is not None else ""}
            known[identity] = key
        type_of.append(known[identity])
    return types, type_of


class _Assets:
    """The userassets: each distinct image once, named after the first piece using it and its face's key."""

    def __init__(self):
        self.files: dict[str, bytes] = {}
        self.names: dict[tuple[str, float], str] = {}

    def faces(self, owner: str, faces: Sequence, px_per_mm: float) -> dict[str, str]:
        """Face key -> `package://userassets/<file>`, drawing the faces not stored yet."""
        missing = [face for face in faces if (face.key, px_per_mm) not in self.names]
        for key, image in raster.trimmed(missing, px_per_mm).items():
            self._store(owner, key, px_per_mm, image)
        return {face.key: self.names[face.key, px_per_mm] for face in faces}

    def board(self, owner: str, face) -> str:
        px_per_mm = min(BOARD_PX_PER_MM, BOARD_MAX_EDGE_PX / (max(face.width, face.height) / MM))
        return self.faces(owner, [face], px_per_mm)[face.key]

    def _store(self, owner: str, key: str, px_per_mm: float, image: Image.Image) -> None:
        name = f"{_slug(owner)}-{_digest(f'{key}@{px_per_mm:.6f}')[:12]}.png"
        self.files[name] = _png_under_limit(image)
        self.names[key, px_per_mm] = f"package://userassets/{name}"


def _png_under_limit(image: Image.Image) -> bytes:
    """The image as PNG, shrunk by steps of SHRINK until the file is below MAX_ASSET_BYTES."""
    data = raster.png_bytes(image)
    while len(data) >= MAX_ASSET_BYTES:
        size = (max(1, int(image.width * SHRINK)), max(1, int(image.height * SHRINK)))
        image = image.resize(size, Image.Resampling.LANCZOS)
        data = raster.png_bytes(image)
    return data


def layout(piles: Sequence[tuple[float, float]], boards: Sequence[tuple[float, float]]
           ) -> tuple[list[tuple[float, float]], list[tuple[float, float]], float]:
    """Top-left corners for the piles' boxes (in rows from the left) and the boards (beside them, on the
    right), and the boards' common scale (≤ 1): the largest at which they fit the room beside the piles,
    then the widest pile area at that scale. Nothing overlaps; a game too big for the room grows downwards."""
    widest = max((w for w, _ in piles), default=0.0)
    width, height = max(ROOM[0] - 2 * MARGIN, widest), ROOM[1] - 2 * MARGIN
    if not boards:
        return _offset(_pack(piles, width)[0], MARGIN, MARGIN), [], 1.0
    best = None
    for area in range(int(width), math.ceil(widest) - 1, -10) if piles else [-GAP]:
        spots, used = _pack(piles, area)
        if spots is None or (used > height and best is not None):
            continue
        room = width - area - GAP
        for step in range(int(round((1 - MIN_BOARD_SCALE) / 0.02)) + 1):
            scale = round(1 - 0.02 * step, 2)
            sized = [(w * scale, h * scale) for w, h in boards]
            at, tall = _pack(sized, room)
            if at is not None and tall <= height:
                score = (used <= height, scale, area)
                if best is None or score > best[0]:
                    best = (score, spots, _offset(at, MARGIN + area + GAP, MARGIN))
                break
    if best is not None:
        (_, scale, _), spots, board_at = best
        return _offset(spots, MARGIN, MARGIN), board_at, scale
    # boards too wide beside any pile area: under the piles, scaled to the room's width
    spots, used = _pack(piles, width)
    scale = max(MIN_BOARD_SCALE, min(1.0, width / max(w for w, _ in boards)))
    at, _ = _pack([(w * scale, h * scale) for w, h in boards], max(width, max(w for w, _ in boards) * scale))
    return _offset(spots, MARGIN, MARGIN), _offset(at, MARGIN, MARGIN + used + GAP), scale


def _pack(boxes: Sequence[tuple[float, float]], width: float):
    """Boxes in rows, left to right, GAP apart: their top-left corners and the height used; corners None
    when a box is wider than `width`."""
    if any(w > width + 1e-9 for w, _ in boxes):
        return None, float("inf")
    spots, x, y, row = [], 0.0, 0.0, 0.0
    for w, h in boxes:
        if x > 0 and x + w > width + 1e-9:
            x, y, row = 0.0, y + row + GAP, 0.0
        spots.append((x, y))
        x, row = x + w + GAP, max(row, h)
    return spots, y + row


def _offset(spots, dx: float, dy: float) -> list[tuple[float, float]]:
    return [(x + dx, y + dy) for x, y in spots or []]


def _units(size_mm: Sequence[float]) -> tuple[float, float]:
    return size_mm[0] * UNITS_PER_MM, size_mm[1] * UNITS_PER_MM


def _n(value: float) -> int:
    """A coordinate for the JSON: whole units, the same on every machine."""
    return int(round(value))


def _slug(text: str) -> str:
    return "".join(c if c.isascii() and (c.isalnum() or c in "-_") else "-" for c in text) or "asset"


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _zip(members: Sequence[tuple[str, bytes]]) -> bytes:
    """A ZIP of the members in this order, each deflated at level 9 with a fixed date and mode."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in members:
            info = zipfile.ZipInfo(name, date_time=ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 3
            info.external_attr = 0o644 << 16
            archive.writestr(info, data, compresslevel=9)
    return buffer.getvalue()
