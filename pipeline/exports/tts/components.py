"""Each kind of piece as Tabletop Simulator objects, with its images (EXPORTS.md §1.2, §1.5):

- a deck -> a face-down `DeckCustom` of `Card`s on ≤ 10 × 7 sheets (a lone `Card`, face up, when it has one
  card); cards with the same front (and the same back) share a slot;
- tokens -> one stackable `Custom_Tile` per distinct design (front and back), its count in the Description
  ("× 12") and in GMNotes, rather than one object per physical token: lighter to load, and TTS can copy them;
- a board -> a locked `Custom_Tile` at real size, `copies` of them. Not `Custom_Board`: that one is sized
  from its image in a way the KB does not give (§1.2), while a stretched tile takes its size from its scale;
- a page -> a flat `Custom_Tile` per face (a two-face page: one tile, face 2 underneath), `copies` of each;
- a die -> six small tiles (its faces 1–6) with the number of dice in the Description: TTS's custom d6 needs
  a texture atlas and rotation map that are not documented [U], so no `Custom_Dice` (a note says so).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from PIL import Image

from pipeline.core.units import MM
from pipeline.exports import raster
from pipeline.exports.pieces import Card, Piece
from pipeline.exports.result import Export
from pipeline.exports.tts import objects, sheets

DECK_PX_PER_MM = 400 / 63.5     # ≈ 400 × 560 px per poker card (EXPORTS §1.5)
TOKEN_PX_PER_MM = 16.0          # tokens and dice faces: small, so more pixels per mm to stay legible
BOARD_PX_PER_MM = 8.0
PAGE_PX_PER_MM = 6.0
KEY_FIRST, KEY_RANGE = 1000, 8000   # CustomDeck keys 1000..8999: CardIDs up to 899 969
RULE = "tts"
DICE_NOTE = ("dice are exported as six tiles each: Tabletop Simulator's custom die has no documented texture "
             "layout (EXPORTS.md §1.2)")


@dataclass
class Context:
    """What one export shares across its pieces: the Export filled with images, the URL prefix, the deck keys
    taken, the image of each face already written, and what the build report lists."""

    out: Export
    base_url: str
    game_id: str
    version: str
    keys: set[int] = field(default_factory=set)
    urls: dict[tuple, str] = field(default_factory=dict)
    written: dict[str, str] = field(default_factory=dict)   # sha256 of PNG bytes -> its file name
    counts: dict[tuple, int] = field(default_factory=dict)
    sheets: list[dict] = field(default_factory=list)
    thumbnail: Image.Image | None = None     # the first deck's first front
    first_image: Image.Image | None = None   # the first face of any piece: the thumbnail of a game without decks

    def image(self, stem: str, image: Image.Image, where: str) -> str:
        """Write `image` as `<stem>-<hash>.png` (unless the same bytes are written already); its URL. Warns
        (and shrinks) past 4096 px a side."""
        if max(image.size) > sheets.MAX_SIDE:
            self.out.warn(where, f"image {stem} is {image.width} × {image.height} px, over TTS's "
                                 f"{sheets.MAX_SIDE} px: shrunk", RULE)
            image = sheets.fit_within(image, sheets.MAX_SIDE)
        data = sheets.png(image.convert("RGB"))
        digest = hashlib.sha256(data).hexdigest()
        if digest not in self.written:     # the same pixels written once (a back shared by decks), first name
            self.written[digest] = self.out.add(sheets.hashed_name(stem, data), data)
        return self.base_url + self.written[digest]

    def face(self, piece: Piece, what: str, face, images: dict[str, Image.Image]) -> str:
        """The URL of one face of a piece, written once per distinct face (`<id>-<what>-<n>-<hash>.png`)."""
        known = (piece.id, what, face.key)
        if known not in self.urls:
            self.first_image = self.first_image or images[face.key]
            number = self.counts[(piece.id, what)] = self.counts.get((piece.id, what), 0) + 1
            self.urls[known] = self.image(f"{sheets.file_safe(piece.id)}-{what}-{number}", images[face.key],
                                          piece.id)
        return self.urls[known]

    def deck_key(self, component: str, sheet: int) -> int:
        """A CustomDeck key stable across builds (a hash of game, component and sheet) and unique in the
        export: on a clash, the next free key, in the order the sheets are made."""
        digest = hashlib.sha1(f"{self.game_id}/{component}/{sheet}".encode()).hexdigest()
        key = KEY_FIRST + int(digest[:6], 16) % KEY_RANGE
        while key in self.keys:
            key = KEY_FIRST + (key - KEY_FIRST + 1) % KEY_RANGE
        self.keys.add(key)
        return key


def deck(piece: Piece, ctx: Context) -> dict:
    """A DeckCustom (or a lone Card) with its face sheets and its back (one image, or sheets on the same grid
    when backs differ card by card: back slot i belongs to face slot i, never mirrored)."""
    cards = piece.cards
    ppm = _capped(DECK_PX_PER_MM, cards[0].front)
    fronts = raster.trimmed([card.front for card in cards], ppm)
    backs = raster.trimmed([card.back for card in cards if card.back is not None], ppm)
    cell = fronts[cards[0].front.key].size
    _check_cell(ctx, piece, cell)
    back_keys = [card.back.key if card.back is not None else None for card in cards]
    unique_back = len(set(back_keys)) > 1
    slot_keys = [(card.front.key, back) if unique_back else card.front.key for card, back in zip(cards, back_keys)]
    slot_of, distinct = sheets.distinct_slots(slot_keys)
    first_card: dict[int, int] = {}          # distinct slot -> the first card using it
    for index, slot in enumerate(slot_of):
        first_card.setdefault(slot, index)
    plan = sheets.plan_sheets(len(distinct), cell)
    stem = sheets.file_safe(piece.id)
    if ctx.thumbnail is None:
        ctx.thumbnail = fronts[cards[0].front.key]

    def back_image(key: str | None) -> Image.Image:
        return backs[key] if key is not None else sheets.plain(cell)

    single_back = None if unique_back else ctx.image(f"{stem}-back", _fit(back_image(back_keys[0]), cell),
                                                     piece.id)
    entries, where = {}, {}          # key -> CustomDeck entry; distinct slot -> (key, slot on its sheet)
    for sheet in plan:
        key = ctx.deck_key(piece.id, sheet.index)
        slots = range(sheet.first, sheet.first + sheet.count)
        face_sheet = sheets.compose([fronts[cards[first_card[s]].front.key] for s in slots], sheet, cell)
        face_url = ctx.image(f"{stem}-faces-{sheet.index + 1}", face_sheet, piece.id)
        _record(ctx, piece, face_url, "faces", sheet, cell)
        back_url = single_back
        if unique_back:
            back_sheet = sheets.compose([back_image(back_keys[first_card[s]]) for s in slots], sheet, cell)
            back_url = ctx.image(f"{stem}-backs-{sheet.index + 1}", back_sheet, piece.id)
            _record(ctx, piece, back_url, "backs", sheet, cell)
        entries[str(key)] = objects.deck_entry(face_url, back_url, sheet.cols, sheet.rows, unique_back)
        where.update({s: (key, s - sheet.first) for s in slots})
    scale = objects.card_scale(piece.size_mm)
    lone = len(cards) == 1
    made = []
    for card, slot in zip(cards, slot_of):
        key, index = where[slot]
        name = piece.title if lone else card.name      # a one-card component is named by its title
        made.append(objects.card(name, "", _notes(piece, card), key * 100 + index, entries, scale,
                                 face_down=not lone))
    if lone:                            # one card is not a deck (EXPORTS §1.2); face up: it is to be read
        return made[0]
    description = f"{len(cards)} cartes · version {ctx.version}"
    return objects.deck(piece.title, description, made, entries, scale)


def tokens(piece: Piece, ctx: Context) -> list[dict]:
    """One stackable tile per distinct token (front and back), its count in Description and GMNotes."""
    fronts, backs = _images(piece, TOKEN_PX_PER_MM)
    _check_cell(ctx, piece, next(iter(fronts.values())).size)
    designs: dict[tuple, list[Card]] = {}
    for card in piece.cards:
        designs.setdefault((card.front.key, card.back.key if card.back else None), []).append(card)
    made = []
    for group in designs.values():
        first = group[0]
        back_url = ctx.face(piece, "back", first.back, backs) if first.back is not None else ""
        notes = objects.notes(component=piece.id, count=len(group), ids=_distinct(c.id for c in group),
                              cells=_distinct(c.cell for c in group))
        made.append(objects.tile(first.name, f"× {len(group)}", notes, ctx.face(piece, "front", first.front, fronts),
                                 back_url, piece.size_mm, objects.TOKEN_THICKNESS, stackable=True))
    return made


def flat(piece: Piece, ctx: Context) -> list[dict]:
    """A board (locked) or a page: a tile per face at real size, `copies` times; a page of exactly two faces
    and no backs is one tile with face 2 underneath."""
    board = piece.kind == "board"
    fronts, backs = _images(piece, BOARD_PX_PER_MM if board else PAGE_PX_PER_MM)
    _check_cell(ctx, piece, next(iter(fronts.values())).size)
    two_pages = not board and len(piece.cards) == 2 and not piece.two_sided
    if two_pages:                       # (card, the face underneath, which images it is among)
        sides = [(piece.cards[0], piece.cards[1].front, "front", fronts)]
    else:
        sides = [(card, card.back, "back", backs) for card in piece.cards]
    made = []
    for card, under, what, images in sides:
        name = piece.title if two_pages else card.name
        front_url = ctx.face(piece, "front", card.front, fronts)
        under_url = ctx.face(piece, what, under, images) if under is not None else ""
        description = f"× {piece.copies}" if piece.copies > 1 else ""
        for _ in range(piece.copies):
            made.append(objects.tile(name, description, _notes(piece, card), front_url, under_url, piece.size_mm,
                                     objects.FLAT_THICKNESS, locked=board))
    return made


def die(piece: Piece, ctx: Context) -> list[dict]:
    """Six tiles, the die's faces 1 to 6 in a row; the number of dice in the Description (one set of six)."""
    fronts, _ = _images(piece, TOKEN_PX_PER_MM)
    _check_cell(ctx, piece, next(iter(fronts.values())).size)
    if DICE_NOTE not in ctx.out.notes:
        ctx.out.notes.append(DICE_NOTE)
    made = []
    for number, card in enumerate(piece.cards, start=1):
        notes = objects.notes(component=piece.id, face=number, dice=piece.copies, id=card.id, cell=card.cell)
        made.append(objects.tile(card.name, f"face {number} · × {piece.copies} dés", notes,
                                 ctx.face(piece, "face", card.front, fronts), "", piece.size_mm,
                                 objects.TOKEN_THICKNESS, stackable=True))
    return made


def _images(piece: Piece, px_per_mm: float) -> tuple[dict[str, Image.Image], dict[str, Image.Image]]:
    """The piece's fronts and backs, trimmed, at `px_per_mm` capped so that no side passes 4096 px."""
    ppm = _capped(px_per_mm, piece.cards[0].front)
    return (raster.trimmed([card.front for card in piece.cards], ppm),
            raster.trimmed([card.back for card in piece.cards if card.back is not None], ppm))


def _capped(px_per_mm: float, face) -> float:
    longest = max(face.width, face.height) / MM
    return min(px_per_mm, sheets.MAX_SIDE / longest)


def _fit(image: Image.Image, cell: tuple[int, int]) -> Image.Image:
    return image if image.size == cell else image.resize(cell, Image.Resampling.LANCZOS)


def _check_cell(ctx: Context, piece: Piece, size: tuple[int, int]) -> None:
    if min(size) < sheets.MIN_CELL:
        ctx.out.warn(piece.id, f"a face is {size[0]} × {size[1]} px on the TTS table, under "
                               f"{sheets.MIN_CELL} px on its short side: hard to read", RULE)


def _record(ctx: Context, piece: Piece, url: str, side: str, sheet: sheets.Sheet, cell: tuple[int, int]) -> None:
    ctx.sheets.append({"file": url[len(ctx.base_url):], "component": piece.id, "side": side,
                       "grid": [sheet.cols, sheet.rows], "cell_px": [cell[0], cell[1]], "slots": sheet.count})


def _notes(piece: Piece, card: Card) -> str:
    return objects.notes(id=card.id, cell=card.cell, component=piece.id)


def _distinct(values) -> list[str]:
    seen: list[str] = []
    for value in values:
        if value and value not in seen:
            seen.append(value)
    return seen

