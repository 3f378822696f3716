"""Offline checks of a Tabletop Simulator export (EXPORTS.md §1.7): the JSON Schema (pnp's subset, draft 2020-12)
and the cross-field invariants the schema cannot say, on the Saved Object and the image files beside it.

Each check returns a list of readable findings; [] means the export passed.
"""

from __future__ import annotations

import io
import json
from itertools import combinations
from pathlib import Path

from jsonschema import Draft202012Validator
from PIL import Image

from pipeline.exports.tts.objects import CARD_MESH_MM, MM_PER_UNIT, TILE_UNITS

SCHEMA_PATH = Path(__file__).with_name("tts_schema.json")
MAX_SIDE = 4096
DECKS, CARDS = ("Deck", "DeckCustom"), ("Card", "CardCustom")


def schema() -> dict:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


def schema_errors(saved: dict) -> list[str]:
    validator = Draft202012Validator(schema())
    return [f"{'/'.join(map(str, error.absolute_path))}: {error.message}"
            for error in sorted(validator.iter_errors(saved), key=lambda e: list(map(str, e.absolute_path)))]


def invariants(saved: dict) -> list[str]:
    """DeckIDs == the cards' CardIDs; every CardID's key is in its deck's CustomDeck, its slot inside the grid
    (and not the hidden last slot when BackIsHidden is false); each card's entry equals its deck's; no
    CustomDeck key is used by two decks (a lone card counts as a deck of its own)."""
    found, owner = [], {}
    for index, obj in enumerate(saved["ObjectStates"]):
        if obj["Name"] in DECKS:
            cards, entries = obj["ContainedObjects"], obj["CustomDeck"]
            ids = [card["CardID"] for card in cards]
            if obj["DeckIDs"] != ids:
                found.append(f"object {index}: DeckIDs {obj['DeckIDs']} != the cards' CardIDs {ids}")
        elif obj["Name"] in CARDS:
            cards, entries = [obj], obj["CustomDeck"]
        else:
            continue
        for key in entries:
            if owner.setdefault(key, index) != index:
                found.append(f"CustomDeck key {key} used by objects {owner[key]} and {index}")
        for card in cards:
            key, slot = str(card["CardID"] // 100), card["CardID"] % 100
            entry = entries.get(key)
            if entry is None:
                found.append(f"object {index}: CardID {card['CardID']} has no CustomDeck key {key}")
                continue
            slots = entry["NumWidth"] * entry["NumHeight"]
            if slot >= slots or (not entry["BackIsHidden"] and slot == slots - 1):
                found.append(f"object {index}: CardID {card['CardID']} is outside its {slots}-slot grid")
            if card["CustomDeck"].get(key) != entry:
                found.append(f"object {index}: card {card['CardID']}'s CustomDeck entry differs from the deck's")
    return found


def urls(saved: dict) -> list[str]:
    """Every image URL in the Saved Object (decks' and cards' sheets, tiles' faces), in order, "" left out."""
    found = []

    def walk(value):
        if isinstance(value, dict):
            for key, item in value.items():
                if key in ("FaceURL", "BackURL", "ImageURL", "ImageSecondaryURL") and item:
                    found.append(item)
                else:
                    walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(saved["ObjectStates"])
    return found


def image_errors(saved: dict, files: dict[str, bytes], base_url: str) -> list[str]:
    """Every URL is base_url + a file of the export; every image is a PNG or JPEG in RGB, ≤ 4096 px a side;
    a face sheet divides exactly into its grid; a back is one cell, or a sheet of the same size when UniqueBack."""
    found = []
    for url in sorted(set(urls(saved))):
        name = url[len(base_url):]
        if not url.startswith(base_url) or name not in files:
            found.append(f"{url}: not a file of the export under {base_url}")
            continue
        image = Image.open(io.BytesIO(files[name]))
        if image.format not in ("PNG", "JPEG") or image.mode != "RGB" or max(image.size) > MAX_SIDE:
            found.append(f"{name}: {image.format} {image.mode} {image.size}")
    for entry in _entries(saved):
        faces = _size(files, entry["FaceURL"], base_url)
        back = _size(files, entry["BackURL"], base_url)
        if faces is None or back is None:
            continue
        cols, rows = entry["NumWidth"], entry["NumHeight"]
        if faces[0] % cols or faces[1] % rows:
            found.append(f"{entry['FaceURL']}: {faces} does not divide into {cols} × {rows}")
        cell = (faces[0] // cols, faces[1] // rows)
        if back != (faces if entry["UniqueBack"] else cell):
            found.append(f"{entry['BackURL']}: {back}, expected {faces if entry['UniqueBack'] else cell}")
    return found


def thumbnail_errors(files: dict[str, bytes], name: str) -> list[str]:
    """`<name>.json` and a 256 × 256 PNG `<name>.png` side by side."""
    if f"{name}.json" not in files or f"{name}.png" not in files:
        return [f"{name}.json and {name}.png are not both in the export"]
    image = Image.open(io.BytesIO(files[f"{name}.png"]))
    return [] if (image.format, image.size) == ("PNG", (256, 256)) else [f"thumbnail: {image.format} {image.size}"]


def footprints(saved: dict) -> list[tuple[str, float, float, float, float]]:
    """Each top-level object's rectangle on the table (name, x0, z0, x1, z1) in units, from its centre and its
    scale: a card's mesh is CARD_MESH_MM at scale 1, a tile TILE_UNITS a side (both [U])."""
    rects = []
    for obj in saved["ObjectStates"]:
        t = obj["Transform"]
        if obj["Name"] in DECKS + CARDS:
            width = CARD_MESH_MM[0] * t["scaleX"] / MM_PER_UNIT
            depth = CARD_MESH_MM[1] * t["scaleZ"] / MM_PER_UNIT
        else:
            width, depth = TILE_UNITS * t["scaleX"], TILE_UNITS * t["scaleZ"]
        rects.append((obj.get("Nickname", obj["Name"]), t["posX"] - width / 2, t["posZ"] - depth / 2,
                      t["posX"] + width / 2, t["posZ"] + depth / 2))
    return rects


def overlaps(rects) -> list[str]:
    return [f"{a[0]!r} overlaps {b[0]!r}" for a, b in combinations(rects, 2)
            if a[1] < b[3] - 1e-6 and b[1] < a[3] - 1e-6 and a[2] < b[4] - 1e-6 and b[2] < a[4] - 1e-6]


def check(files: dict[str, bytes], name: str, base_url: str) -> list[str]:
    """Everything above on an export's files: schema, invariants, images, thumbnail, table footprints."""
    saved = json.loads(files[f"{name}.json"])
    return (schema_errors(saved) + invariants(saved) + image_errors(saved, files, base_url)
            + thumbnail_errors(files, name) + overlaps(footprints(saved)))


def _entries(saved: dict) -> list[dict]:
    entries = []
    for obj in saved["ObjectStates"]:
        if obj["Name"] in DECKS + CARDS:
            entries.extend(obj["CustomDeck"].values())
    return entries


def _size(files: dict[str, bytes], url: str, base_url: str) -> tuple[int, int] | None:
    name = url[len(base_url):]
    return Image.open(io.BytesIO(files[name])).size if url.startswith(base_url) and name in files else None
