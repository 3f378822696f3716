"""The playingcards.io export (pipeline/exports/pcio.py): every game's room file passes the structural checker
of EXPORTS.md §2.3 (tests/exports/pcio_check.py), holds every card in its pile, lays its piles and boards
out without overlap, and comes out byte-identical twice; synthetic faces pin pixel sizes, colours, backs,
the 2 MiB asset cap and the 1,200-widget refusal."""

from __future__ import annotations

import io
import json
import random
import re
import zipfile
from dataclasses import dataclass

import pytest
from PIL import Image

from pipeline.core.units import MM
from pipeline.exports import pcio
from pipeline.exports.pieces import BOARD, DECK, DIE, PAGE, TOKEN, Card, Piece
from tests.exports.pcio_check import problems
from tests.exports.real_games import prepared

GAMES = ("buildit", "nba", "allstar", "fightball", "challengers")
RED, GREEN, BLUE, YELLOW = (220, 30, 30), (30, 160, 60), (30, 60, 200), (240, 200, 20)


@pytest.fixture(scope="module")
def games():
    """game -> (title, pieces, export), each game prepared once (from the build cache)."""
    found = {}
    for game in GAMES:
        item, pieces = prepared(game)
        found[game] = (item.game.title, pieces, pcio.export(game, item.game.title, pieces))
    return found


@dataclass(frozen=True)
class Flat:
    """A synthetic face: `colour` inside the trim, `bleed_colour` in the bleed around it."""
    key: str
    width: float
    height: float
    colour: tuple[int, int, int]
    bleed_colour: tuple[int, int, int] = RED
    bleed: float = 3 * MM

    def draw(self, canvas) -> None:
        b = self.bleed
        canvas.setFillColorRGB(*(c / 255 for c in self.bleed_colour))
        canvas.rect(-b, -b, self.width + 2 * b, self.height + 2 * b, stroke=0, fill=1)
        canvas.setFillColorRGB(*(c / 255 for c in self.colour))
        canvas.rect(0, 0, self.width, self.height, stroke=0, fill=1)


@dataclass(frozen=True)
class Noise:
    """A synthetic board of seeded random pixels: a PNG of it does not compress."""
    key: str
    width: float
    height: float
    bleed: float = 0.0

    def draw(self, canvas) -> None:
        from reportlab.lib.utils import ImageReader

        side = 1600
        data = random.Random(7).randbytes(side * side * 3)
        canvas.drawImage(ImageReader(Image.frombytes("RGB", (side, side), data)), 0, 0, self.width, self.height)


def poker(key: str, colour, back=None) -> Card:
    return Card(Flat(key, 63.5 * MM, 88.9 * MM, colour), back, f"carte {key}", key[:4], "")


def unpack(export) -> tuple[zipfile.ZipFile, list[dict]]:
    (data,) = export.files.values()
    archive = zipfile.ZipFile(io.BytesIO(data))
    return archive, json.loads(archive.read("widgets.json"))


def asset(archive: zipfile.ZipFile, url: str) -> Image.Image:
    assert url.startswith("package://userassets/")
    return Image.open(io.BytesIO(archive.read(url[len("package://"):])))


def by_type(widgets: list[dict], kind: str) -> list[dict]:
    return [widget for widget in widgets if widget["type"] == kind]


# --- every game ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_the_archive_passes_the_structural_checker(games, game):
    _, _, export = games[game]
    assert list(export.files) == [f"{game}.pcio"]
    assert problems(export.files[f"{game}.pcio"]) == []
    assert export.problems == []


@pytest.mark.parametrize("game", GAMES)
def test_every_card_of_a_deck_or_token_set_is_one_card_widget(games, game):
    _, pieces, export = games[game]
    archive, widgets = unpack(export)
    cards, decks = by_type(widgets, "card"), {deck["id"]: deck for deck in by_type(widgets, "cardDeck")}
    for piece in pieces:
        if piece.kind not in (DECK, TOKEN):
            continue
        mine = [deck for ident, deck in decks.items() if re.fullmatch(rf"deck-{re.escape(piece.id)}(-\d+)?", ident)]
        held = [card for card in cards if card["deck"] in {deck["id"] for deck in mine}]
        assert len(held) == len(piece.cards), piece.id
        labels = sorted(decks[card["deck"]]["cardTypes"][card["cardType"]]["label"] for card in held)
        assert labels == sorted(card.name for card in piece.cards), piece.id
        if piece.kind == DECK:
            assert len(mine) == 1 and [decks[c["deck"]]["cardTypes"][c["cardType"]]["label"] for c in held] \
                == [card.name for card in piece.cards]
        else:       # one pile per design: every card of a pile shows the same image, face up
            assert len(mine) == len({card.front.key for card in piece.cards}), piece.id
            for deck in mine:
                images = {deck["cardTypes"][card["cardType"]]["image"] for card in held if card["deck"] == deck["id"]}
                assert len(images) == 1
            assert all(card["faceup"] for card in held)


@pytest.mark.parametrize("game", GAMES)
def test_info_counts_what_the_archive_holds(games, game):
    _, _, export = games[game]
    archive, widgets = unpack(export)
    assets = [name for name in archive.namelist() if name.startswith("userassets/")]
    assert export.info == {"archive": f"{game}.pcio", "widgets": len(widgets),
                           "cards": len(by_type(widgets, "card")), "assets": len(assets)}


@pytest.mark.parametrize("game", GAMES)
def test_piles_and_boards_do_not_overlap_and_fit_the_room(games, game):
    """A pile's rectangle reaches 20 units above it (its label, as virtualtabletop's importer draws it)."""
    _, pieces, export = games[game]
    _, widgets = unpack(export)
    boxes = [(w["x"], w["y"] - (20 if w["type"] == "cardPile" else 0), w["x"] + w["width"], w["y"] + w["height"])
             for w in widgets if w["type"] in ("cardPile", "board")]
    assert len(by_type(widgets, "board")) == sum(p.copies for p in pieces if p.kind == BOARD)
    for i, a in enumerate(boxes):
        assert 0 <= a[0] and 0 <= a[1] and a[2] <= 1600 and a[3] <= 1000, a
        for b in boxes[i + 1:]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)


@pytest.mark.parametrize("game", GAMES)
def test_two_exports_are_byte_identical(games, game):
    title, pieces, export = games[game]
    again = pcio.export(game, title, pieces)
    assert again.files == export.files and again.info == export.info


@pytest.mark.parametrize("game", GAMES)
def test_members_are_in_a_fixed_order_with_a_fixed_date(games, game):
    archive, _ = unpack(games[game][2])
    names = archive.namelist()
    assert names[:2] == ["schemaVersion", "widgets.json"] and names[2:] == sorted(names[2:])
    assert archive.read("schemaVersion") == b"3"
    assert {info.date_time for info in archive.infolist()} == {(1980, 1, 1, 0, 0, 0)}


def test_pages_and_dice_are_told_in_one_note_per_kind_not_a_warning(games):
    _, pieces, export = games["nba"]
    skipped = [piece.id for piece in pieces if piece.kind in (PAGE, DIE)]
    assert len(skipped) >= 2 and export.problems == [] and len(export.notes) == 2
    assert sorted(i for note in export.notes for i in note.split(":")[0].split(", ")) == sorted(skipped)
    assert all(": not exported to playingcards.io (" in note and "\n" not in note for note in export.notes)


def test_a_real_deck_with_backs_by_card_uses_the_dynamic_back_assumption(games):
    """[U] assumption: playingcards.io shows a back template's dynamic image from each card type's "back"."""
    _, pieces, export = games["challengers"]
    archive, widgets = unpack(export)
    piece = next(piece for piece in pieces if piece.kind == DECK and piece.unique_backs)
    deck = next(w for w in widgets if w["id"] == f"deck-{piece.id}")
    (back,) = deck["backTemplate"]["objects"]
    assert (back["valueType"], back["value"]) == ("dynamic", "back")
    assert len({fields["back"] for fields in deck["cardTypes"].values()}) == len({c.back.key for c in piece.cards})


def test_boards_are_pngs_below_2_mib(games):
    archive, widgets = unpack(games["fightball"][2])
    for board in by_type(widgets, "board"):
        image = asset(archive, board["boardImage"])
        assert image.format == "PNG" and len(archive.read(board["boardImage"][10:])) < 2 * 1024 * 1024
        assert abs(image.width / image.height - board["width"] / board["height"]) < 0.01


# --- synthetic pieces ---------------------------------------------------------------------------------

def test_a_poker_card_is_206_by_288_px_trimmed_on_a_103_by_144_card():
    """Twice the room's 103-unit card width, at the card's true 5:7 proportions; no bleed left."""
    back = Flat("back", 63.5 * MM, 88.9 * MM, BLUE)
    piece = Piece("deck", "Paquet", DECK, (63.5, 88.9), (poker("g001", GREEN, back), poker("y002", YELLOW, back)))
    export = pcio.export("synth", "Synthèse", [piece])
    assert problems(export.files["synth.pcio"]) == []
    archive, widgets = unpack(export)
    (deck,) = by_type(widgets, "cardDeck")
    assert (deck["cardWidth"], deck["cardHeight"]) == (103, 144)
    types = deck["cardTypes"]
    assert sorted(types) == ["g001", "y002"] and types["g001"]["label"] == "carte g001"
    for key, colour in (("g001", GREEN), ("y002", YELLOW)):
        image = asset(archive, types[key]["image"]).convert("RGB")
        assert image.size == (206, 288)
        for xy in ((0, 0), (205, 287), (103, 144)):
            assert max(abs(a - b) for a, b in zip(image.getpixel(xy), colour)) <= 3, (key, xy)
    (back_object,) = deck["backTemplate"]["objects"]
    assert back_object["valueType"] == "static" and "back" not in types["g001"]
    assert asset(archive, back_object["value"]).convert("RGB").getpixel((103, 144)) == pytest.approx(BLUE, abs=3)
    cards = by_type(widgets, "card")
    assert [card["cardType"] for card in cards] == ["g001", "y002"] and not any(c["faceup"] for c in cards)
    assert len([n for n in archive.namelist() if n.startswith("userassets/")]) == 3


def test_backs_that_differ_card_by_card_are_read_by_a_dynamic_back_assumption():
    """[U] assumption beyond the importer's evidence: a dynamic image in the back template shows each card
    type's "back" field."""
    front, red, blue = (Flat(key, 63.5 * MM, 88.9 * MM, colour)
                        for key, colour in (("front", GREEN), ("red", RED), ("blue", BLUE)))
    cards = (Card(front, red, "rouge", "a001"), Card(front, blue, "bleue", "b002"), Card(front, red, "rouge", "a001"))
    export = pcio.export("synth", "Synthèse", [Piece("deck", "Paquet", DECK, (63.5, 88.9), cards)])
    assert problems(export.files["synth.pcio"]) == []
    archive, widgets = unpack(export)
    (deck,) = by_type(widgets, "cardDeck")
    (back,) = deck["backTemplate"]["objects"]
    assert (back["valueType"], back["value"]) == ("dynamic", "back")
    assert [card["cardType"] for card in by_type(widgets, "card")] == ["a001", "b002", "a001"]
    colours = {key: asset(archive, fields["back"]).convert("RGB").getpixel((100, 140))
               for key, fields in deck["cardTypes"].items()}
    assert colours["a001"] == pytest.approx(RED, abs=3) and colours["b002"] == pytest.approx(BLUE, abs=3)
    # one front stored once although two card types show it
    assert len({fields["image"] for fields in deck["cardTypes"].values()}) == 1


def test_one_id_for_two_different_cards_gives_two_card_types():
    cards = (poker("same-a", GREEN), Card(Flat("other", 63.5 * MM, 88.9 * MM, YELLOW), None, "autre", "same", ""))
    export = pcio.export("synth", "Synthèse", [Piece("deck", "Paquet", DECK, (63.5, 88.9), cards)])
    _, widgets = unpack(export)
    (deck,) = by_type(widgets, "cardDeck")
    assert sorted(deck["cardTypes"]) == ["same", "same-2"]
    assert deck["backTemplate"]["objects"] == [] and all(card["faceup"] for card in by_type(widgets, "card"))


def test_a_game_over_1200_widgets_is_refused_in_one_note_and_no_file():
    face = Flat("one", 63.5 * MM, 88.9 * MM, GREEN)
    many = tuple(Card(face, None, f"carte {i}", f"{i:04x}", "") for i in range(1199))   # + pile + deck = 1201
    export = pcio.export("synth", "Synthèse", [Piece("deck", "Paquet", DECK, (63.5, 88.9), many)])
    assert export.files == {} and export.problems == []
    assert len(export.notes) == 1 and "1201 widgets" in export.notes[0] and "1,200" in export.notes[0]
    assert export.info["archive"] is None


def test_a_game_of_exactly_1200_widgets_is_exported():
    face = Flat("one", 63.5 * MM, 88.9 * MM, GREEN)
    many = tuple(Card(face, None, f"carte {i}", f"{i:04x}", "") for i in range(1198))
    export = pcio.export("synth", "Synthèse", [Piece("deck", "Paquet", DECK, (63.5, 88.9), many)])
    assert export.info["widgets"] == 1200 and problems(export.files["synth.pcio"]) == []


def test_a_board_too_big_for_2_mib_is_shrunk_until_it_fits():
    board = Piece("plateau", "Plateau", BOARD, (500.0, 400.0), (Card(Noise("noise", 500 * MM, 400 * MM), None,
                                                                       "Plateau"),), copies=2)
    export = pcio.export("synth", "Synthèse", [board])
    assert problems(export.files["synth.pcio"]) == []
    archive, widgets = unpack(export)
    boards = by_type(widgets, "board")
    assert len(boards) == 2 and boards[0]["boardImage"] == boards[1]["boardImage"]
    data = archive.read(boards[0]["boardImage"][len("package://"):])
    image = Image.open(io.BytesIO(data))
    assert len(data) < 2 * 1024 * 1024 and image.format == "PNG"
    assert image.width < 2000 and abs(image.width / image.height - 500 / 400) < 0.01   # 4 px/mm would be 2000


def test_the_layout_keeps_many_piles_and_wide_boards_apart():
    piles = [(111, 216)] * 30 + [(80, 69)] * 20
    boards = [(900, 700), (1700, 300)]
    pile_at, board_at, scale = pcio.layout(piles, boards)
    boxes = [(x, y, x + w, y + h) for (x, y), (w, h) in zip(pile_at, piles)]
    boxes += [(x, y, x + w * scale, y + h * scale) for (x, y), (w, h) in zip(board_at, boards)]
    assert len(boxes) == 52 and 0 < scale <= 1
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)


# --- the checker itself ---------------------------------------------------------------------------------

def _rezip(data: bytes, change) -> bytes:
    source = zipfile.ZipFile(io.BytesIO(data))
    members = {name: source.read(name) for name in source.namelist()}
    change(members)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as target:
        for name, content in members.items():
            target.writestr(name, content)
    return out.getvalue()


def test_the_checker_finds_what_is_broken():
    back = Flat("back", 63.5 * MM, 88.9 * MM, BLUE)
    piece = Piece("deck", "Paquet", DECK, (63.5, 88.9), (poker("g001", GREEN, back), poker("y002", YELLOW, back)))
    good = pcio.export("synth", "Synthèse", [piece]).files["synth.pcio"]

    def version(members):
        members["schemaVersion"] = b"4"

    def asset_gone(members):
        del members[next(name for name in members if name.startswith("userassets/"))]

    def card_type(members):
        widgets = json.loads(members["widgets.json"])
        widgets[-1]["cardType"] = "nope"
        widgets[-1]["parent"] = "nowhere"
        members["widgets.json"] = json.dumps(widgets).encode()

    def stray(members):
        members["notes.txt"] = b"x"
        members["userassets/unused.png"] = b"\x89PNG\r\n\x1a\n"

    assert problems(good) == []
    assert problems(_rezip(good, version)) == ["schemaVersion is '4', not '3'"]
    assert any("is not in the archive" in p for p in problems(_rezip(good, asset_gone)))
    found = problems(_rezip(good, card_type))
    assert any("cardType 'nope'" in p for p in found) and any("parent 'nowhere'" in p for p in found)
    found = problems(_rezip(good, stray))
    assert any("notes.txt" in p for p in found) and any("unused.png is packaged but never used" in p for p in found)
    assert problems(good, max_widgets=3) == ["4 widgets, more than 3"]


def test_tokens_make_one_face_up_pile_per_design_big_enough_to_pick():
    """7 mm tokens: 28 table units at least (11 at the cards' scale) and images of 96 px at least."""
    blue, red = (Flat(key, 7 * MM, 7 * MM, colour) for key, colour in (("blue", BLUE), ("red", RED)))
    cards = tuple(Card(face, None, f"Jeton {word} {i}/3", "", "")
                  for face, word in ((blue, "bleu"), (red, "rouge")) for i in (1, 2, 3))
    export = pcio.export("synth", "Synthèse", [Piece("jetons", "Jetons", TOKEN, (7.0, 7.0), cards)])
    assert problems(export.files["synth.pcio"]) == []
    archive, widgets = unpack(export)
    assert [pile["label"] for pile in by_type(widgets, "cardPile")] == ["Jeton bleu", "Jeton rouge"]
    decks = by_type(widgets, "cardDeck")
    assert [(deck["cardWidth"], deck["cardHeight"]) for deck in decks] == [(28, 28), (28, 28)]
    for deck, colour in zip(decks, (BLUE, RED)):
        (url,) = {fields["image"] for fields in deck["cardTypes"].values()}     # three names, one image
        image = asset(archive, url).convert("RGB")
        assert image.size == (96, 96) and image.getpixel((48, 48)) == pytest.approx(colour, abs=3)
    cards = by_type(widgets, "card")
    assert len(cards) == 6 and all(card["faceup"] for card in cards)
    assert [card["deck"] for card in cards] == ["deck-jetons-1"] * 3 + ["deck-jetons-2"] * 3
