"""The JSON objects of a Tabletop Simulator Saved Object (EXPORTS.md §1.1–§1.3), as plain dicts: decks
(`DeckCustom` holding `Card`s), lone cards, image tiles, and the Saved Object around them.

- No `GUID`: TTS assigns them when the object is spawned (§1.3), which also avoids clashes with a save's own.
- Sizes: an object is scaled to its real size in mm. The sizes of TTS's meshes at scale 1 are not documented:
  the constants below are assumptions [U], each kept in one place with its evidence.
"""

from __future__ import annotations

import json

# [U] 1 TTS unit ≈ 1 inch (the KB gives tile thickness "in in-game units (about an inch)", EXPORTS §1.6).
MM_PER_UNIT = 25.4
# [U] A card at scale 1 measures about 56 × 80 mm: tts-deckconverter scales its standard cards by 63.5/56 and
# 88.9/80 to reach 63.5 × 88.9 mm (EXPORTS §1.5). The image is stretched to the mesh, whatever its shape.
CARD_MESH_MM = (56.0, 80.0)
# [U] A Custom_Tile at scale 1 with "Stretch" on is a square about 2 units a side: a public mod lays two
# scale-38 tiles side by side 76 units apart (Esper-lvl4/ZX_TT_Mod table_replacement.js). Not in the KB.
TILE_UNITS = 2.0

TILE_BOX = 0                        # CustomTile.Type: 0 box, 1 hex, 2 circle, 3 rounded (EXPORTS §1.2)
CARD_SHAPE = 0                      # CustomDeck.Type: 0 rounded rectangle (the default)
TOKEN_THICKNESS = 0.2               # units: CustomToken's default, used for tokens and dice faces
FLAT_THICKNESS = 0.1                # units: boards and pages, thin sheets
TABLE_Y = 1.0                       # units: dropped just above the default tables' surface
ROUND = 4                           # decimals kept in positions and scales (stable bytes, no float noise)


def card_scale(size_mm: tuple[float, float]) -> tuple[float, float]:
    """Transform scaleX, scaleZ that make a card of `size_mm` its real size on the assumed 56 × 80 mm mesh
    [U: CARD_MESH_MM] (poker 63.5 × 88.9 mm -> 1.1339, 1.1112)."""
    return round(size_mm[0] / CARD_MESH_MM[0], ROUND), round(size_mm[1] / CARD_MESH_MM[1], ROUND)


def tile_scale(size_mm: tuple[float, float]) -> tuple[float, float]:
    """Transform scaleX, scaleZ that make a stretched Custom_Tile `size_mm` on the table [U: TILE_UNITS,
    MM_PER_UNIT]: the tile is square at scale 1, so each axis scales on its own."""
    return (round(size_mm[0] / MM_PER_UNIT / TILE_UNITS, ROUND),
            round(size_mm[1] / MM_PER_UNIT / TILE_UNITS, ROUND))


def footprint(obj: dict) -> tuple[float, float]:
    """The object's width (x) and depth (z) on the table, in units, from its Name and Transform scale (TTS
    objects here are only turned by 180° about y or z, which keeps the footprint)."""
    transform = obj["Transform"]
    if obj["Name"] in ("DeckCustom", "Deck", "Card", "CardCustom"):
        return (CARD_MESH_MM[0] * transform["scaleX"] / MM_PER_UNIT,
                CARD_MESH_MM[1] * transform["scaleZ"] / MM_PER_UNIT)
    return TILE_UNITS * transform["scaleX"], TILE_UNITS * transform["scaleZ"]


def transform(scale: tuple[float, float], face_down: bool = False, x: float = 0.0, z: float = 0.0) -> dict:
    """rotY 180 (the way TTS generators turn objects to face the first seat); rotZ 180 = face down."""
    return {"posX": round(x, ROUND), "posY": TABLE_Y, "posZ": round(z, ROUND),
            "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0 if face_down else 0.0,
            "scaleX": scale[0], "scaleY": 1.0, "scaleZ": scale[1]}


def move(obj: dict, x: float, z: float) -> None:
    """Put the object (and the cards inside a deck) at x, z."""
    for one in [obj, *obj.get("ContainedObjects", ())]:
        one["Transform"]["posX"], one["Transform"]["posZ"] = round(x, ROUND), round(z, ROUND)


def deck_entry(face_url: str, back_url: str, cols: int, rows: int, unique_back: bool) -> dict:
    """One CustomDeck value. BackIsHidden is always true: hands show the back, and every slot of the grid
    can hold a card (with false, TTS shows the sheet's last slot as the hidden face, §1.5)."""
    return {"FaceURL": face_url, "BackURL": back_url, "NumWidth": cols, "NumHeight": rows,
            "BackIsHidden": True, "UniqueBack": unique_back, "Type": CARD_SHAPE}


def card(nickname: str, description: str, notes: str, card_id: int, entries: dict[str, dict],
         scale: tuple[float, float], face_down: bool) -> dict:
    """A `Card`: CardID = key × 100 + slot; it carries its own CustomDeck with the deck's entry for its key
    (EXPORTS §1.2: generators and a validator require it)."""
    key = str(card_id // 100)
    return {"Name": "Card", "Nickname": nickname, "Description": description, "GMNotes": notes,
            "CardID": card_id, "Hands": True, "SidewaysCard": False,
            "Transform": transform(scale, face_down), "CustomDeck": {key: dict(entries[key])}}


def deck(nickname: str, description: str, cards: list[dict], entries: dict[str, dict],
         scale: tuple[float, float]) -> dict:
    """A face-down `DeckCustom`: DeckIDs are the cards' CardIDs in the same order as ContainedObjects
    (the game's order; which end TTS deals first from is [U], EXPORTS §1.2)."""
    return {"Name": "DeckCustom", "Nickname": nickname, "Description": description,
            "Transform": transform(scale, face_down=True), "Hands": False, "SidewaysCard": False,
            "DeckIDs": [one["CardID"] for one in cards],
            "CustomDeck": {key: dict(entry) for key, entry in entries.items()},
            "ContainedObjects": cards}


def tile(nickname: str, description: str, notes: str, image_url: str, back_url: str,
         size_mm: tuple[float, float], thickness: float, stackable: bool = False, locked: bool = False) -> dict:
    """A flat `Custom_Tile` (box) at real size: `back_url` is its bottom face ("" = TTS repeats the top)."""
    return {"Name": "Custom_Tile", "Nickname": nickname, "Description": description, "GMNotes": notes,
            "Locked": locked, "Transform": transform(tile_scale(size_mm)),
            "CustomImage": {"ImageURL": image_url, "ImageSecondaryURL": back_url, "ImageScalar": 1.0,
                            "WidthScale": 0.0,
                            "CustomTile": {"Type": TILE_BOX, "Thickness": thickness, "Stackable": stackable,
                                           "Stretch": True}}}


def notes(**fields) -> str:
    """GMNotes: a small JSON text (sorted keys) a script or a curious player can read back."""
    return json.dumps(fields, sort_keys=True, ensure_ascii=False)


def saved_object(objects: list[dict]) -> dict:
    """The Saved Object around the objects: the save's own fields empty or default (EXPORTS §1.1)."""
    return {"SaveName": "", "GameMode": "", "Date": "", "VersionNumber": "", "Gravity": 0.5, "PlayArea": 0.5,
            "Table": "", "Sky": "", "Note": "", "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "",
            "TabStates": {}, "ObjectStates": objects}


def to_bytes(saved: dict) -> bytes:
    return (json.dumps(saved, indent=2, ensure_ascii=False, sort_keys=True) + "\n").encode("utf-8")
