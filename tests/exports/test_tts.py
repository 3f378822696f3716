"""The Tabletop Simulator export (pipeline/exports/tts): every game's Saved Object against pnp's schema and the
cross-field invariants (tests/exports/tts_check.py), sheets read back by pixel, URL rewriting, determinism, the
chest folder, and the table layout. Offline: nothing here runs TTS, so the sizes of TTS's meshes stay assumptions
[U] (pipeline/exports/tts/objects.py); the tests that depend on them say so."""

from __future__ import annotations

import copy
import hashlib
import io
import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from PIL import Image

from pipeline.core.units import MM
from pipeline.exports.pieces import BOARD, DECK, DIE, PAGE, TOKEN, Card, Piece
from pipeline.exports.tts import chest_folder, export, install, saved_object_name
from pipeline.exports.tts.components import DICE_NOTE
from pipeline.exports.tts.objects import CARD_MESH_MM, MM_PER_UNIT, card_scale
from pipeline.exports.tts.sheets import plan_sheets
from tests.exports import tts_check
from tests.exports.real_games import prepared

GAMES = ("buildit", "nba", "allstar", "fightball", "challengers")
BASE = "file:///home/me/pnp/output/demo/tts/"
HOSTED = "https://example.org/pnp/demo/"
POKER = (63.5, 88.9)
RED, BLUE, GREEN, YELLOW, MAGENTA, CYAN = (220, 30, 30), (30, 30, 220), (30, 180, 30), (240, 220, 20), \
    (200, 30, 200), (20, 200, 200)


class Solid:
    """A laid-out face filled with one colour, bleed included (what raster crops to the trim)."""

    def __init__(self, key: str, rgb: tuple[int, int, int], size_mm=POKER, bleed_mm: float = 3.0):
        self.key, self.rgb = key, rgb
        self.width, self.height, self.bleed = size_mm[0] * MM, size_mm[1] * MM, bleed_mm * MM

    def draw(self, canvas) -> None:
        canvas.setFillColorRGB(*(c / 255 for c in self.rgb))
        b = self.bleed
        canvas.rect(-b, -b, self.width + 2 * b, self.height + 2 * b, fill=1, stroke=0)


def solid_card(key, rgb, back=None, size_mm=POKER, name=None) -> Card:
    return Card(Solid(key, rgb, size_mm), back and Solid(back[0], back[1], size_mm), name or f"carte {key}",
                f"id-{key}", "sheets/demo.xlsx › cards › row 2")


def deck_piece(cards, size_mm=POKER, ident="cards", kind=DECK, copies=1) -> Piece:
    return Piece(ident, "Cartes de démo", kind, size_mm, tuple(cards), copies)


def run(*pieces: Piece, base: str = BASE):
    return export("demo", "Démo : le Jeu", "1.0", list(pieces), base)


def saved(out) -> dict:
    return json.loads(out.files[out.info["saved_object"]])


def image(out, url: str) -> Image.Image:
    return Image.open(io.BytesIO(out.files[url[len(BASE):]]))


def centre(sheet: Image.Image, slot: int, cols: int, cell: tuple[int, int]) -> tuple[int, int, int]:
    row, col = divmod(slot, cols)
    return sheet.getpixel((col * cell[0] + cell[0] // 2, row * cell[1] + cell[1] // 2))


def close(a, b, tolerance=6) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b))


# --- every game -------------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def games():
    """game id -> (its Export with BASE, its pieces, title, version): each game prepared (cached) once."""
    made = {}
    for game in GAMES:
        item, pieces = prepared(game)
        title, version = item.game.title, item.edition.version
        made[game] = (export(item.game.id, title, version, pieces, BASE), pieces, title, version)
    return made


@pytest.mark.parametrize("game", GAMES)
def test_every_game_passes_the_schema_and_the_invariants(games, game):
    out, pieces, title, _ = games[game]
    name = saved_object_name(title)
    assert out.info["saved_object"] == f"{name}.json"
    assert tts_check.check(out.files, name, BASE) == []
    decks = [piece for piece in pieces if piece.kind == DECK]
    assert out.info["decks"] == len(decks) and out.info["cards"] == sum(len(p.cards) for p in decks)
    assert out.info["objects"] == len(saved(out)["ObjectStates"])
    assert out.info["images"] == len(out.files) - 2


@pytest.mark.parametrize("game", GAMES)
def test_no_two_objects_overlap_on_the_table_assuming_the_mesh_sizes(games, game):
    """[U] footprints from CARD_MESH_MM and TILE_UNITS; nothing at the origin in a pile."""
    rects = tts_check.footprints(saved(games[game][0]))
    assert tts_check.overlaps(rects) == []
    assert len({(round(r[1], 3), round(r[2], 3)) for r in rects}) == len(rects)


def test_every_image_name_carries_the_hash_of_its_bytes(games):
    out, _, title, _ = games["challengers"]
    name = saved_object_name(title)
    for path, data in out.files.items():
        if path not in (f"{name}.json", f"{name}.png"):
            assert path.endswith(f"-{hashlib.sha256(data).hexdigest()[:8]}.png"), path


def test_nba_players_fill_two_full_poker_sheets_and_a_single_back(games):
    out, pieces, _, _ = games["nba"]
    players = next(obj for obj in saved(out)["ObjectStates"] if obj["Nickname"] == "Joueurs")
    entries = list(players["CustomDeck"].values())
    assert [(e["NumWidth"], e["NumHeight"]) for e in entries] == [(10, 7), (10, 7)]
    assert {image(out, e["FaceURL"]).size for e in entries} == {(4000, 3920)}
    assert len({e["BackURL"] for e in entries}) == 1 and image(out, entries[0]["BackURL"]).size == (400, 560)
    assert players["Transform"]["rotZ"] == 180 and all(e["BackIsHidden"] for e in entries)
    cards = players["ContainedObjects"]
    assert [card["Nickname"] for card in cards] == [card.name for card in pieces[0].cards]
    notes = json.loads(cards[0]["GMNotes"])
    assert notes == {"id": pieces[0].cards[0].id, "cell": pieces[0].cards[0].cell, "component": "players"}


def test_the_same_game_exports_to_the_same_bytes(games):
    out, pieces, title, version = games["challengers"]
    assert export("challengers", title, version, pieces, BASE).files == out.files


def test_a_base_url_changes_only_the_url_prefix(games):
    out, pieces, title, version = games["buildit"]
    hosted = export("buildit", title, version, pieces, HOSTED)
    name = out.info["saved_object"]
    assert set(hosted.files) == set(out.files)
    assert all(hosted.files[path] == data for path, data in out.files.items() if path != name)
    assert hosted.files[name] != out.files[name]
    assert hosted.files[name].decode().replace(HOSTED, BASE) == out.files[name].decode()
    assert tts_check.check(hosted.files, name[:-5], HOSTED) == []


def test_the_thumbnail_is_the_first_deck_front_on_a_transparent_square():
    out = run(deck_piece([solid_card("a", RED), solid_card("b", BLUE)]))
    thumb = Image.open(io.BytesIO(out.files["Demo-le-Jeu.png"]))
    assert thumb.size == (256, 256) and thumb.mode == "RGBA"
    assert thumb.getpixel((2, 128))[3] == 0 and thumb.getpixel((128, 2))[3] < 255
    assert close(thumb.getpixel((128, 128))[:3], RED) and thumb.getpixel((128, 128))[3] == 255
    opaque = [y for y in range(256) if thumb.getpixel((128, y))[3] > 0]
    assert max(opaque) - min(opaque) + 1 in (234, 235)


# --- sheets, by pixel --------------------------------------------------------------------------------------------

def test_a_two_card_sheet_is_filled_row_major():
    out = run(deck_piece([solid_card("red", RED), solid_card("blue", BLUE)]))
    deck = saved(out)["ObjectStates"][0]
    (key, entry), = deck["CustomDeck"].items()
    assert (entry["NumWidth"], entry["NumHeight"]) == (2, 1)
    sheet = image(out, entry["FaceURL"])
    assert sheet.size == (800, 560) and sheet.mode == "RGB"
    assert close(centre(sheet, 0, 2, (400, 560)), RED) and close(centre(sheet, 1, 2, (400, 560)), BLUE)
    assert deck["DeckIDs"] == [int(key) * 100, int(key) * 100 + 1]
    assert [c["Nickname"] for c in deck["ContainedObjects"]] == ["carte red", "carte blue"]


def test_per_card_backs_sit_in_the_same_slots_never_mirrored():
    backs = [("b-green", GREEN), ("b-yellow", YELLOW), ("b-magenta", MAGENTA)]
    cards = [solid_card(f"f{i}", rgb, back) for i, (rgb, back) in enumerate(zip((RED, BLUE, CYAN), backs))]
    out = run(deck_piece(cards))
    (entry,) = saved(out)["ObjectStates"][0]["CustomDeck"].values()
    assert entry["UniqueBack"] is True and (entry["NumWidth"], entry["NumHeight"]) == (3, 1)
    faces, back_sheet = image(out, entry["FaceURL"]), image(out, entry["BackURL"])
    assert back_sheet.size == faces.size == (1200, 560)
    for slot, (rgb, (_, back)) in enumerate(zip((RED, BLUE, CYAN), backs)):
        assert close(centre(faces, slot, 3, (400, 560)), rgb)
        assert close(centre(back_sheet, slot, 3, (400, 560)), back)


def test_identical_fronts_share_a_slot_unless_their_backs_differ():
    same = run(deck_piece([solid_card("a", RED), solid_card("b", BLUE), solid_card("a", RED)]))
    deck = saved(same)["ObjectStates"][0]
    assert [i % 100 for i in deck["DeckIDs"]] == [0, 1, 0]
    other = run(deck_piece([solid_card("a", RED, ("x", GREEN)), solid_card("a", RED, ("y", YELLOW))]))
    assert [i % 100 for i in saved(other)["ObjectStates"][0]["DeckIDs"]] == [0, 1]


def test_a_deck_without_backs_gets_a_plain_grey_back_of_its_card_size():
    out = run(deck_piece([solid_card("a", RED), solid_card("b", BLUE)]))
    (entry,) = saved(out)["ObjectStates"][0]["CustomDeck"].values()
    back = image(out, entry["BackURL"])
    assert back.size == (400, 560) and back.getpixel((200, 280)) == (128, 128, 128)


def test_a_big_deck_spreads_over_sheets_with_distinct_keys():
    cards = [solid_card(f"c{i:02d}", (i * 3, 100, 255 - i * 3)) for i in range(75)]
    out = run(deck_piece(cards))
    deck = saved(out)["ObjectStates"][0]
    entries = deck["CustomDeck"]
    assert len(entries) == 2
    grids = [(e["NumWidth"], e["NumHeight"]) for e in entries.values()]
    assert sorted(grids) == [(10, 1), (10, 7)]
    keys = [card["CardID"] // 100 for card in deck["ContainedObjects"]]
    assert len(set(keys[:70])) == 1 and len(set(keys[70:])) == 1 and keys[0] != keys[70]
    assert [card["CardID"] % 100 for card in deck["ContainedObjects"]] == list(range(70)) + list(range(5))
    last = image(out, entries[str(keys[70])]["FaceURL"])
    assert last.size == (4000, 560) and close(centre(last, 4, 10, (400, 560)), (74 * 3, 100, 255 - 74 * 3))
    assert tts_check.check(out.files, "Demo-le-Jeu", BASE) == []


def test_big_cards_get_fewer_columns_and_rows_within_4096_px():
    size = (88.0, 126.0)
    cards = [solid_card(f"c{i:02d}", (i * 5, 80, 80), size_mm=size) for i in range(40)]
    out = run(deck_piece(cards, size_mm=size))
    deck = saved(out)["ObjectStates"][0]
    keys = [str(card["CardID"] // 100) for card in deck["ContainedObjects"]]
    entries = [deck["CustomDeck"][key] for key in (keys[0], keys[-1])]          # the sheets in pile order
    assert [(e["NumWidth"], e["NumHeight"]) for e in entries] == [(7, 5), (7, 1)]
    assert image(out, entries[0]["FaceURL"]).size == (7 * 554, 5 * 794)
    assert [(s.cols, s.rows, s.count) for s in plan_sheets(40, (554, 794))] == [(7, 5, 35), (7, 1, 5)]


def test_a_one_card_deck_is_a_lone_face_up_card():
    out = run(deck_piece([solid_card("solo", RED)]))
    (obj,) = saved(out)["ObjectStates"]
    assert obj["Name"] == "Card" and "DeckIDs" not in obj and obj["Transform"]["rotZ"] == 0
    assert obj["Nickname"] == "Cartes de démo"
    (key, entry), = obj["CustomDeck"].items()
    assert obj["CardID"] == int(key) * 100 and (entry["NumWidth"], entry["NumHeight"]) == (1, 1)
    assert tts_check.check(out.files, "Demo-le-Jeu", BASE) == []


def test_deck_keys_are_stable_and_differ_between_games():
    pieces = [deck_piece([solid_card("a", RED), solid_card("b", BLUE)], ident=name) for name in ("one", "two")]
    keys = [list(deck["CustomDeck"]) for deck in saved(run(*pieces))["ObjectStates"]]
    assert keys == [list(deck["CustomDeck"]) for deck in saved(run(*pieces))["ObjectStates"]] and keys[0] != keys[1]
    other = saved(export("another", "Démo", "1.0", pieces, BASE))["ObjectStates"]
    assert [list(deck["CustomDeck"]) for deck in other] != keys


# --- other kinds ----------------------------------------------------------------------------------------------

def test_tokens_become_one_stackable_tile_per_design_with_its_count():
    size = (18.0, 18.0)
    cards = [solid_card("pawn-r", RED, size_mm=size)] * 5 + [solid_card("pawn-b", BLUE, ("pb", GREEN), size)] * 3
    out = run(deck_piece(cards, size, "pawns", TOKEN))
    tiles = saved(out)["ObjectStates"]
    assert [t["Description"] for t in tiles] == ["× 5", "× 3"]
    assert [json.loads(t["GMNotes"])["count"] for t in tiles] == [5, 3]
    assert all(t["CustomImage"]["CustomTile"]["Stackable"] for t in tiles)
    assert tiles[0]["CustomImage"]["ImageSecondaryURL"] == ""
    back = image(out, tiles[1]["CustomImage"]["ImageSecondaryURL"])
    assert back.size == (288, 288) and close(back.getpixel((144, 144)), GREEN)


def test_a_board_is_locked_at_real_size_with_its_copies_assuming_the_tile_size():
    """[U] TILE_UNITS and MM_PER_UNIT: a 424 × 260 mm board spans 424/25.4 × 260/25.4 units."""
    board = Piece("court", "Terrain", BOARD, (424.0, 260.0), (solid_card("court", GREEN, size_mm=(424, 260)),), 2)
    out = run(board)
    objs = saved(out)["ObjectStates"]
    assert len(objs) == 2 and all(o["Locked"] and o["Name"] == "Custom_Tile" for o in objs)
    rect = tts_check.footprints(saved(out))[0]
    assert rect[3] - rect[1] == pytest.approx(424 / 25.4, abs=1e-3)
    assert rect[4] - rect[2] == pytest.approx(260 / 25.4, abs=1e-3)
    assert image(out, objs[0]["CustomImage"]["ImageURL"]).size == (3392, 2080)


def test_a_board_image_is_capped_at_4096_px():
    size = (600.0, 300.0)
    out = run(Piece("mat", "Tapis", BOARD, size, (solid_card("mat", GREEN, size_mm=size),)))
    (obj,) = saved(out)["ObjectStates"]
    assert image(out, obj["CustomImage"]["ImageURL"]).size == (4096, 2048) and out.problems == []


def test_a_two_face_page_is_one_tile_with_face_two_underneath():
    size = (148.0, 210.0)
    page = Piece("aid", "Aide de jeu", PAGE, size, (solid_card("p1", RED, size_mm=size),
                                                   solid_card("p2", BLUE, size_mm=size)), 2)
    objs = saved(out := run(page))["ObjectStates"]
    assert len(objs) == 2 and {o["Nickname"] for o in objs} == {"Aide de jeu"}
    custom = objs[0]["CustomImage"]
    assert close(image(out, custom["ImageURL"]).getpixel((400, 600)), RED)
    assert close(image(out, custom["ImageSecondaryURL"]).getpixel((400, 600)), BLUE)
    assert image(out, custom["ImageURL"]).size == (888, 1260)


def test_a_die_is_six_tiles_with_the_number_of_dice_and_a_note():
    size = (16.0, 16.0)
    faces = tuple(solid_card(f"d{i}", (40 * i, 90, 90), size_mm=size, name=f"Dé bleu — face {i}")
                  for i in range(1, 7))
    out = run(Piece("dice-blue", "Dé bleu", DIE, size, faces, 20))
    tiles = saved(out)["ObjectStates"]
    assert [t["Nickname"] for t in tiles] == [f"Dé bleu — face {i}" for i in range(1, 7)]
    assert all("× 20" in t["Description"] for t in tiles) and DICE_NOTE in out.notes
    assert len({t["Transform"]["posZ"] for t in tiles}) == 1          # one row


def test_small_faces_and_unknown_components_are_warned_about_not_dropped_silently():
    tiny = deck_piece([solid_card("t1", RED, size_mm=(8, 8)), solid_card("t2", BLUE, size_mm=(8, 8))],
                      size_mm=(8.0, 8.0), ident="tiny")
    odd = Piece("odd", "Étrange", "spinner", (50.0, 50.0), (solid_card("o", RED, size_mm=(50, 50)),))
    out = run(tiny, odd)
    found = {(str(p.where), p.rule) for p in out.problems}
    assert found == {("tiny", "tts"), ("odd", "tts")}
    assert len(saved(out)["ObjectStates"]) == 1


def test_card_scale_follows_the_assumed_card_mesh():
    """[U] CARD_MESH_MM (tts-deckconverter's 56 × 80 mm at scale 1): poker is 1.134 × 1.111."""
    assert card_scale(POKER) == pytest.approx((63.5 / 56, 88.9 / 80), abs=1e-4)
    sx, sz = card_scale((88.0, 126.0))
    assert (CARD_MESH_MM[0] * sx / MM_PER_UNIT, CARD_MESH_MM[1] * sz / MM_PER_UNIT) == \
        pytest.approx((88 / 25.4, 126 / 25.4), abs=1e-3)


def test_boards_centre_on_the_origin_decks_lie_in_front_and_the_rest_beside():
    size = (18.0, 18.0)
    out = run(deck_piece([solid_card("a", RED), solid_card("b", BLUE)]),
              deck_piece([solid_card("t", GREEN, size_mm=size)], size, "pawns", TOKEN),
              Piece("mat", "Tapis", BOARD, (300.0, 200.0), (solid_card("mat", GREEN, size_mm=(300, 200)),)))
    board, deck, token = tts_check.footprints(saved(out))      # boards, decks, then the others
    assert (board[1] + board[3]) / 2 == pytest.approx(0) and (board[2] + board[4]) / 2 == pytest.approx(0)
    assert deck[4] < board[2] and (deck[1] + deck[3]) / 2 == pytest.approx(0)
    assert token[1] > board[3]


# --- the schema and the checker fail when they should ----------------------------------------------------------

@pytest.fixture(scope="module")
def small():
    """A 2-card deck and a board: ObjectStates [board, deck] (boards come first)."""
    out = run(deck_piece([solid_card("red", RED), solid_card("blue", BLUE)]),
              Piece("mat", "Tapis", BOARD, (100.0, 100.0), (solid_card("mat", GREEN, size_mm=(100, 100)),)))
    made = saved(out)
    assert [obj["Name"] for obj in made["ObjectStates"]] == ["Custom_Tile", "DeckCustom"]
    return out, made


def test_the_schema_rejects_eleven_columns_a_one_card_deck_and_a_bare_path(small):
    Draft202012Validator.check_schema(tts_check.schema())          # a valid draft 2020-12 schema itself
    _, good = small
    assert tts_check.schema_errors(good) == []
    wide = copy.deepcopy(good)
    next(iter(wide["ObjectStates"][1]["CustomDeck"].values()))["NumWidth"] = 11
    lone = copy.deepcopy(good)
    lone["ObjectStates"][1]["ContainedObjects"] = lone["ObjectStates"][1]["ContainedObjects"][:1]
    lone["ObjectStates"][1]["DeckIDs"] = lone["ObjectStates"][1]["DeckIDs"][:1]
    bare = copy.deepcopy(good)
    bare["ObjectStates"][0]["CustomImage"]["ImageURL"] = "C:/x.png"
    for bad in (wide, lone, bare):
        assert tts_check.schema_errors(bad) != []


def test_the_invariants_catch_a_reordered_pile_and_a_shared_key(small):
    out, good = small
    assert tts_check.invariants(good) == [] and tts_check.image_errors(good, out.files, BASE) == []
    swapped = copy.deepcopy(good)
    swapped["ObjectStates"][1]["DeckIDs"].reverse()
    assert any("DeckIDs" in finding for finding in tts_check.invariants(swapped))
    twice = copy.deepcopy(good)
    twice["ObjectStates"].append(copy.deepcopy(twice["ObjectStates"][1]))
    assert any("used by objects" in finding for finding in tts_check.invariants(twice))
    assert tts_check.image_errors(good, out.files, HOSTED) != []
    assert tts_check.overlaps([("a", 0, 0, 2, 2), ("b", 1, 1, 3, 3)]) != []


# --- the chest ---------------------------------------------------------------------------------------------------

def test_the_chest_folder_of_each_system():
    home = Path("/home/me")
    assert chest_folder("Windows", home, {"USERPROFILE": "/users/me"}) == \
        Path("/users/me/Documents/My Games/Tabletop Simulator/Saves/Saved Objects")
    assert chest_folder("Windows", home, {}) == home / "Documents/My Games/Tabletop Simulator/Saves/Saved Objects"
    assert chest_folder("Darwin", home, {}) == home / "Library/Tabletop Simulator/Saves/Saved Objects"
    assert chest_folder("Linux", home, {}) == home / ".local/share/Tabletop Simulator/Saves/Saved Objects"
    with pytest.raises(ValueError):
        chest_folder("Plan9", home, {})


def test_install_copies_the_pair_into_a_new_folder(tmp_path, small):
    out, names = small[0], ["Demo-le-Jeu.json", "Demo-le-Jeu.png"]
    for name in names:
        (tmp_path / name).write_bytes(out.files[name])
    folder = tmp_path / "chest" / "Saved Objects"
    placed = install(tmp_path / names[0], tmp_path / names[1], folder)
    assert placed == [folder / name for name in names]
    assert [path.read_bytes() for path in placed] == [out.files[name] for name in names]
