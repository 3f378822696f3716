"""Tabletop Simulator export: a Saved Object (`<Name>.json` + its 256 px `<Name>.png` thumbnail, the pair TTS's
chest shows) and every image it uses, flat in one folder (EXPORTS.md §1).

- sheets: the card sheets (≤ 10 × 7, ≤ 4096 px), file names with a content hash, the thumbnail;
- objects: the JSON objects (DeckCustom, Card, Custom_Tile) and the real-size scales, with their [U]
  assumptions (the meshes' sizes at scale 1, 1 unit ≈ 1 inch);
- components: each kind of piece as objects (decks, tokens, boards, pages, dice);
- table: where the objects land on the table;
- chest: the Saved Objects folder of each system, and copying the pair there.

Every image URL is `base_url + file name` (the build passes the folder's file:/// URI, or a user's
--base-url to hosted copies); nothing else in the files depends on it. Pure: returns an Export, writes nothing.
"""

from __future__ import annotations

from pipeline.exports.pieces import BOARD, DECK, DIE, PAGE, TOKEN, Piece
from pipeline.exports.result import Export
from pipeline.exports.tts import components, objects, sheets, table
from pipeline.exports.tts.chest import chest_folder, install

__all__ = ["export", "chest_folder", "install", "saved_object_name"]

HOSTING_NOTE = ("the images are files on this computer, which other players cannot see: to play together, "
                "--install, load it in Tabletop Simulator, then Modding › Cloud Manager › Upload All and save again "
                "(or host output/<game>/tts/ and build with --base-url)")


def saved_object_name(title: str) -> str:
    """The stable file name (without suffix) of a game's Saved Object: "NBA Deck-Building" -> "NBA-Deck-Building"."""
    return sheets.file_safe(title, fallback="jeu")


def export(game_id: str, title: str, version: str, pieces: list[Piece], base_url: str) -> Export:
    """The game's TTS Saved Object, thumbnail and images (paths relative to the tts folder)."""
    if not base_url.endswith("/"):
        raise ValueError(f"base_url must end with '/': {base_url!r}")
    out = Export("tts")
    ctx = components.Context(out, base_url, game_id, version)
    boards, decks, pages, tokens, dice = [], [], [], [], []
    deck_count = card_count = 0
    for piece in pieces:
        if not piece.cards or piece.kind not in (DECK, TOKEN, BOARD, PAGE, DIE):
            out.warn(piece.id, f"a {piece.kind or 'component'} with {len(piece.cards)} faces: "
                               f"not in the TTS export", components.RULE)
            continue
        if piece.kind == DECK:
            decks.append(components.deck(piece, ctx))
            deck_count, card_count = deck_count + 1, card_count + len(piece.cards)
        elif piece.kind == TOKEN:
            tokens.extend(components.tokens(piece, ctx))
        elif piece.kind == DIE:
            dice.append(components.die(piece, ctx))
        else:
            (boards if piece.kind == BOARD else pages).extend(components.flat(piece, ctx))
    table.arrange(boards, decks, [pages, tokens, *dice])
    placed = boards + decks + pages + tokens + [tile for die in dice for tile in die]
    name = saved_object_name(title)
    images = len(out.files)
    out.add(f"{name}.json", objects.to_bytes(objects.saved_object(placed)))
    out.add(f"{name}.png", sheets.png(sheets.thumbnail(ctx.thumbnail or ctx.first_image)))
    if base_url.startswith("file:"):
        out.notes.append(HOSTING_NOTE)
    out.info = {"saved_object": f"{name}.json", "thumbnail": f"{name}.png", "decks": deck_count,
                "cards": card_count, "images": images, "objects": len(placed), "sheets": ctx.sheets}
    return out
