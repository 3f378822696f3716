"""Print-shop presets that take one PNG a face: The Game Crafter (TGC) and MakePlayingCards (MPC).

Each deck or set of tokens whose trim matches one of the shop's products (pipeline/exports/shops.py) becomes a
folder `<component>-<identity>/` (`players-PokerDeck/`) holding:
- `front-<NNN>-<card id or name>.png`, one per distinct front, in deck order (identical faces written once);
- `back.png` when one back serves the deck, else `back-<NNN>-….png` (numbered after the first front using it);
- `manifest.csv`: one row per distinct (front, back) pair with its quantity, so the quantities add up to the
  deck's cards as the workbook counts them.

Every PNG is the shop's exact file size at 300 dpi, RGB, no alpha, with a 300 dpi tag: the face at its true
size, trim centred, and the shop's own bleed around it (never the face rescaled: that would move the cut line;
EXPORTS.md §0). TGC takes RGB; "CMYK images will be rejected" is secondary [U] (§4.1), RGB is safe either way.
Text should stay inside the safe zone (TGC: 75 px from the edge); it is reported, not checked.

Boards, pages and dice are not card products: they are left out with a note. A deck or token set whose size
matches no product is left out with a warning naming the nearest products. MPC's sizes are secondary sources,
unverified against MPC's template [U] (§5): every MPC export says so in its notes.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from dataclasses import dataclass

from pipeline.exports import raster, shops
from pipeline.exports.pieces import Piece
from pipeline.exports.result import Export

CHUNK = 16                      # faces rendered at once: bounds the images held in memory on a large deck
MANIFEST_COLUMNS = ("fichier", "nom", "quantité", "fichier dos", "id édition", "cellule")
MPC_TIER = 18                   # MPC sells decks by tiers of cards, 18 to 108 (secondary source [U], §5)


@dataclass
class Row:
    """One distinct (front, back) pair of a deck: the manifest's line."""

    front: object
    back: object | None
    quantity: int
    names: list[str]
    ids: list[str]
    cells: list[str]
    front_file: str = ""
    back_file: str = ""


def export(target: str, game_id: str, title: str, pieces: list[Piece]) -> Export:
    """The shop's files (TGC or MPC, `target` "tgc" or "mpc") for every deck and token set of a game that
    matches one of its products. Pure: returns the files as bytes."""
    if target not in (shops.TGC, shops.MPC):
        raise ValueError(f"presets: no PNG preset for {target!r} (tgc or mpc)")
    result = Export(target)
    name = shops.SHOP_NAMES[target]
    written, untiered = {}, []
    pairs, skipped = shops.taken(target, pieces, result)
    for piece, product in pairs:
        folder = f"{file_safe(piece.id, 'composant')}-{product.identity}"
        written[folder] = _write(result, folder, piece, product)
        cards = written[folder]["cards"]
        if target == shops.MPC and cards % MPC_TIER:
            untiered.append(f"{piece.id} ({cards} cards)")
    result.info = {"game": game_id, "title": title, "shop": name, "dpi": shops.DPI, "folders": written,
                   "left_out": sorted(str(p.where) for p in result.problems), "not_card_products": skipped}
    if target == shops.MPC:
        result.info["unverified"] = shops.MPC_UNVERIFIED
        result.notes.append(shops.MPC_UNVERIFIED + " [U]")
    if written:
        safe = sorted({f"{_number(info['safe_px'])} px" for info in written.values()})
        result.notes.append(f"{name}: {len(written)} folder(s) of PNGs ({', '.join(written)}); keep text "
                            f"{' / '.join(safe)} inside each file's edge (the safe zone, not checked)")
    if skipped:
        result.notes.append(f"{name}: not card products, left out: {', '.join(skipped)}")
    if untiered:
        result.notes.append(f"{name} sells decks by tiers of {MPC_TIER} cards (secondary source [U]): "
                            f"{', '.join(untiered)} will not fill a tier; check the order page")
    return result


def rows_of(piece: Piece) -> list[Row]:
    """The deck's distinct (front, back) pairs in deck order, each with how many the game needs."""
    rows: dict[tuple[str, str | None], Row] = {}
    for card in piece.cards:
        key = (card.front.key, card.back.key if card.back is not None else None)
        row = rows.get(key)
        if row is None:
            row = rows[key] = Row(card.front, card.back, 0, [], [], [])
        row.quantity += piece.copies
        for values, value in ((row.names, card.name), (row.ids, card.id), (row.cells, card.cell)):
            if value and value not in values:
                values.append(value)
    return list(rows.values())


def file_safe(text: str, fallback: str = "carte") -> str:
    """ASCII letters, digits, '-' and '_' only: "Éclair n°3" -> "Eclair-n3"."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    plain = re.sub(r"[^A-Za-z0-9_]+", "-", plain).strip("-")
    return plain[:40].rstrip("-") or fallback


def _write(result: Export, folder: str, piece: Piece, product: shops.Product) -> dict:
    """Name the files of one piece, render its distinct faces and add them with its manifest; what the build
    report says of it."""
    rows = rows_of(piece)
    one_back = not piece.unique_backs
    fronts: dict[str, str] = {}
    backs: dict[str, str] = {}
    for row in rows:
        label = file_safe(row.ids[0] if row.ids else (row.names[0] if row.names else ""))
        number = len(fronts) + 1
        if row.front.key not in fronts:
            fronts[row.front.key] = f"front-{number:03d}-{label}.png"
        row.front_file = fronts[row.front.key]
        if row.back is not None:
            if row.back.key not in backs:
                backs[row.back.key] = "back.png" if one_back else \
                    f"back-{row.front_file[len('front-'):]}"
            row.back_file = backs[row.back.key]
    faces, names = [], {}
    for row in rows:
        for face, path in ((row.front, row.front_file), (row.back, row.back_file)):
            if face is not None and face.key not in names:
                names[face.key] = path
                faces.append(face)
    for start in range(0, len(faces), CHUNK):
        chunk = faces[start:start + CHUNK]
        images = raster.with_bleed(chunk, product.file_px, product.dpi)
        for face in chunk:
            image = images[face.key]
            if image.mode != "RGB" or image.size != tuple(product.file_px):
                raise ValueError(f"{folder}: {image.mode} {image.size} image, not RGB {product.file_px}")
            result.add(f"{folder}/{names[face.key]}", raster.png_bytes(image, dpi=product.dpi, fast=True))
    result.add(f"{folder}/manifest.csv", _manifest(rows))
    return {"component": piece.id, "title": piece.title, "identity": product.identity,
            "trim_mm": list(product.trim_mm), "file_px": list(product.file_px),
            "bleed_px": [round(side, 2) for side in product.bleed_px], "safe_px": round(product.safe_px, 2),
            "cards": sum(row.quantity for row in rows), "fronts": len(fronts), "backs": len(backs),
            **({"uncertain": product.note} if product.uncertain else {})}


def _manifest(rows: list[Row]) -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(MANIFEST_COLUMNS)
    for row in rows:
        writer.writerow((row.front_file, " ; ".join(row.names), row.quantity, row.back_file,
                         " ; ".join(row.ids), " ; ".join(row.cells)))
    return buffer.getvalue().encode("utf-8")


def _number(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")
