"""Print-shop products and the TGC / MPC PNG presets (pipeline/exports/shops.py, presets.py): product sizes
from EXPORTS.md §4-§6, matching and refusing components, and the exported faces measured pixel by pixel."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

import pytest
from PIL import Image

from pipeline.core.units import MM
from pipeline.exports import presets, shops
from pipeline.exports.pieces import BOARD, DECK, DIE, PAGE, TOKEN, Card, Piece
from tests.exports.real_games import prepared

RED, BLACK, WHITE, BLUE, GREEN = (220, 30, 30), (0, 0, 0), (255, 255, 255), (20, 40, 200), (20, 160, 60)


@dataclass(frozen=True)
class Swatch:
    """A synthetic laid-out face: `bleed` (mm) filled with `outside`, then a `border` (mm) band of black just
    inside the trim edge, then `inside`. `text` is drawn in the canvas's own (TrueType) font."""

    key: str
    width_mm: float = 63.5
    height_mm: float = 88.9
    inside: tuple = WHITE
    outside: tuple = RED
    border_mm: float = 0.0
    bleed_mm: float = 3.0
    text: str = ""

    @property
    def width(self):
        return self.width_mm * MM

    @property
    def height(self):
        return self.height_mm * MM

    @property
    def bleed(self):
        return self.bleed_mm * MM

    def draw(self, canvas):
        def fill(colour, inset):
            canvas.setFillColorRGB(*(c / 255 for c in colour))
            canvas.rect(inset, inset, self.width - 2 * inset, self.height - 2 * inset, stroke=0, fill=1)
        fill(self.outside, -self.bleed)
        if self.border_mm:
            fill(BLACK, 0)
        fill(self.inside, self.border_mm * MM)
        if self.text:
            canvas.setFillColorRGB(0, 0, 0)
            canvas.setFont(canvas._fontname, 9)
            canvas.drawString(self.width / 2 - 20, self.height / 2, self.text)


def deck(ident="cards", cards=None, size=(63.5, 88.9), kind=DECK, copies=1):
    cards = cards or [Card(Swatch("f1"), Swatch("back", inside=BLUE), "Carte Une", "a1b2",
                           "sheets/x.xlsx › cards › row 2")]
    return Piece(ident, f"Titre {ident}", kind, size, tuple(cards), copies)


def png(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def manifest(export, folder):
    """The folder's manifest.csv as dicts, checking its header first."""
    reader = csv.DictReader(io.StringIO(export.files[f"{folder}/manifest.csv"].decode("utf-8")))
    assert tuple(reader.fieldnames) == ("fichier", "nom", "quantité", "fichier dos", "id édition", "cellule")
    return list(reader)


# -- product tables ------------------------------------------------------------------------------------------

def test_tgc_poker_takes_825_by_1125_with_37_5_px_bleed_and_a_75_px_safe_zone():
    poker = shops.match(shops.TGC, (63.5, 88.9))
    assert (poker.identity, poker.file_px, poker.dpi) == ("PokerDeck", (825, 1125), 300)
    assert poker.bleed_px == pytest.approx((37.5, 37.5))
    assert poker.safe_px == pytest.approx(75)


def test_inch_sized_tgc_decks_follow_trim_plus_a_quarter_inch_and_the_metric_ones_the_table():
    for product in shops.TGC_PRODUCTS:
        formula = tuple(round((side / 25.4 + 0.25) * 300) for side in product.trim_mm)
        if product.identity in ("EuroPokerDeck", "USGameDeck"):
            assert formula != product.file_px, product.identity
        else:
            assert formula == product.file_px, product.identity
    assert shops.match(shops.TGC, (63, 88)).file_px == (825, 1125)
    assert shops.match(shops.TGC, (56, 87)).file_px == (750, 1125)
    assert "Document" not in {p.identity for p in shops.TGC_PRODUCTS}


def test_mpc_sizes_are_marked_unverified_and_dtc_poker_is_a_198_by_270_pt_page():
    poker, tarot = shops.MPC_PRODUCTS
    assert (poker.file_px, tarot.file_px) == ((822, 1122), (897, 1497))
    assert poker.bleed_px == pytest.approx((36, 36)) and tarot.bleed_px == pytest.approx((36, 36))
    assert all(p.uncertain for p in shops.MPC_PRODUCTS)
    (dtc,) = shops.DTC_PRODUCTS
    assert dtc.file_pt == pytest.approx((198, 270))
    assert dtc.bleed_px == pytest.approx((37.5, 37.5))       # 1/8 in


def test_match_takes_a_size_within_the_tolerance_in_the_products_orientation_only():
    assert shops.match(shops.TGC, (64.4, 89.8)).identity == "PokerDeck"        # 0.9 mm off
    assert shops.match(shops.TGC, (64.6, 88.9)) is None                          # 1.1 mm off
    assert shops.match(shops.TGC, (63.4, 88.7)).identity == "PokerDeck"        # both fit: poker is nearer
    assert shops.match(shops.TGC, (63.2, 88.3)).identity == "EuroPokerDeck"    # both fit: EuroPoker is nearer
    assert shops.match(shops.TGC, (88.9, 63.5)) is None                          # landscape
    assert shops.turned(shops.TGC, (88.9, 63.5)).identity == "PokerDeck"
    assert shops.match(shops.TGC, (88.9, 88.9)).identity == "SquareDeck"
    assert shops.turned(shops.TGC, (88.9, 88.9)) is None


def test_nearest_and_the_refusal_name_the_closest_products():
    assert [p.identity for p in shops.nearest(shops.TGC, (88, 126))] == ["JumboDeck", "TarotDeck"]
    assert shops.refusal(shops.TGC, (88, 126)) == (
        "88×126 mm matches no The Game Crafter product (nearest: JumboDeck 88.9×139.7 mm, "
        "TarotDeck 69.85×120.65 mm); left out")
    assert "turned a quarter" in shops.refusal(shops.TGC, (88.9, 63.5))
    with pytest.raises(ValueError):
        shops.match("nowhere", (63.5, 88.9))


# -- presets on synthetic faces ------------------------------------------------------------------------------

def _trim_edges(image: Image.Image) -> tuple[int, int, int, int]:
    """Distance in px from each side of the image to the outer edge of the black border, along the middle."""
    width, height = image.size
    row = [image.getpixel((x, height // 2)) for x in range(width)]
    column = [image.getpixel((width // 2, y)) for y in range(height)]
    dark = lambda pixel: sum(pixel) < 120                                              # noqa: E731
    left = next(x for x, p in enumerate(row) if dark(p))
    right = width - 1 - next(x for x, p in enumerate(reversed(row)) if dark(p))
    top = next(y for y, p in enumerate(column) if dark(p))
    bottom = height - 1 - next(y for y, p in enumerate(reversed(column)) if dark(p))
    return left, width - 1 - right, top, height - 1 - bottom


@pytest.mark.parametrize("target, size, bleed", [("tgc", (825, 1125), 37.5), ("mpc", (822, 1122), 36.0)])
def test_the_trim_lies_where_the_shop_cuts(target, size, bleed):
    """A 1 mm black border at the trim edge, red bleed, white inside: at the shop's exact size the border's
    outer edge is `bleed` px (±1) from each side, the bleed stays red to the corner, the middle white."""
    face = Swatch("bordered", border_mm=1.0)
    export = presets.export(target, "g", "Jeu", [deck(cards=[Card(face, None, "Bord", "", "")])])
    folder = f"cards-{'PokerDeck' if target == 'tgc' else 'poker'}"
    image = png(export.files[f"{folder}/front-001-Bord.png"])
    assert image.size == size and image.mode == "RGB"
    for edge in _trim_edges(image):
        assert abs(edge - bleed) <= 1
    assert image.getpixel((1, 1)) == pytest.approx(RED, abs=8)
    assert image.getpixel((size[0] // 2, size[1] // 2)) == WHITE
    border_px = 1.0 / 25.4 * 300
    assert image.getpixel((round(bleed + border_px / 2), size[1] // 2)) == pytest.approx(BLACK, abs=8)


def test_identical_faces_are_written_once_with_their_quantity_and_one_back_serves_the_deck():
    back = Swatch("back", inside=BLUE)
    cards = [Card(Swatch("a", inside=GREEN), back, "Éclair n°1", "", "sheets/x.xlsx › cards › row 2"),
             Card(Swatch("b"), back, "Tonnerre", "9f3c", "sheets/x.xlsx › cards › row 3"),
             Card(Swatch("a", inside=GREEN), back, "Éclair n°1", "", "sheets/x.xlsx › cards › row 2")]
    export = presets.export("tgc", "g", "Jeu", [deck(cards=cards, copies=2)])
    folder = "cards-PokerDeck"
    assert sorted(export.files) == [f"{folder}/back.png", f"{folder}/front-001-Eclair-n1.png",
                                    f"{folder}/front-002-9f3c.png", f"{folder}/manifest.csv"]
    rows = manifest(export, folder)
    assert [tuple(r.values()) for r in rows] == [
        ("front-001-Eclair-n1.png", "Éclair n°1", "4", "back.png", "", "sheets/x.xlsx › cards › row 2"),
        ("front-002-9f3c.png", "Tonnerre", "2", "back.png", "9f3c", "sheets/x.xlsx › cards › row 3")]
    for path, data in export.files.items():
        if path.endswith(".png"):
            image = png(data)
            assert (image.size, image.mode) == ((825, 1125), "RGB")
            assert image.info["dpi"] == pytest.approx((300, 300), abs=0.01)
    assert png(export.files[f"{folder}/back.png"]).getpixel((412, 562)) == BLUE
    assert png(export.files[f"{folder}/front-001-Eclair-n1.png"]).getpixel((412, 562)) == GREEN
    assert export.info["folders"][folder]["cards"] == 6 and export.info["folders"][folder]["safe_px"] == 75
    assert export.problems == []


def test_per_card_backs_get_one_file_each_named_after_the_first_card_that_uses_it():
    cards = [Card(Swatch("a"), Swatch("back-1", inside=BLUE), "Un", "0001", ""),
             Card(Swatch("b"), Swatch("back-2", inside=GREEN), "Deux", "0002", ""),
             Card(Swatch("c"), Swatch("back-1", inside=BLUE), "Trois", "0003", "")]
    export = presets.export("mpc", "g", "Jeu", [deck(cards=cards)])
    rows = manifest(export, "cards-poker")
    assert [(r["fichier"], r["fichier dos"]) for r in rows] == [
        ("front-001-0001.png", "back-001-0001.png"), ("front-002-0002.png", "back-002-0002.png"),
        ("front-003-0003.png", "back-001-0001.png")]
    assert png(export.files["cards-poker/back-002-0002.png"]).getpixel((411, 561)) == GREEN
    assert png(export.files["cards-poker/back-002-0002.png"]).size == (822, 1122)


def test_sizes_no_product_takes_are_refused_with_the_nearest_products_and_no_files():
    pieces = [deck("arenas", size=(88, 126), cards=[Card(Swatch("x", 88, 126), None, "Arène", "", "")]),
              deck("pawns", kind=TOKEN, size=(18, 18), cards=[Card(Swatch("t", 18, 18), None, "Pion", "", "")]),
              deck("players")]
    export = presets.export("tgc", "g", "Jeu", pieces)
    warned = {str(p.where): p for p in export.problems}
    assert sorted(warned) == ["arenas", "pawns"]
    assert warned["arenas"].message == ("88×126 mm matches no The Game Crafter product (nearest: JumboDeck "
                                        "88.9×139.7 mm, TarotDeck 69.85×120.65 mm); left out")
    assert warned["pawns"].message.startswith("18×18 mm matches no The Game Crafter product (nearest: MiniDeck")
    assert all(p.rule == "print-shop" and p.severity.value == "warning" for p in export.problems)
    assert {path.split("/")[0] for path in export.files} == {"players-PokerDeck"}


def test_boards_pages_and_dice_are_left_out_with_a_note_not_a_warning():
    pieces = [deck("court", kind=BOARD, size=(63.5, 88.9)), deck("aid", kind=PAGE, size=(63.5, 88.9)),
              deck("dice-red", kind=DIE, size=(63.5, 88.9))]
    export = presets.export("tgc", "g", "Jeu", pieces)
    assert export.files == {} and export.problems == []
    assert export.notes == ["The Game Crafter: not card products, left out: court (board), aid (page), "
                            "dice-red (die)"]


def test_mpc_says_its_sizes_are_unverified_and_names_decks_that_fill_no_tier():
    export = presets.export("mpc", "g", "Jeu", [deck()])
    assert any("unverified against MPC's template" in note for note in export.notes)
    assert any("cards (1 cards)" in note and "tiers of 18" in note for note in export.notes)
    assert export.info["folders"]["cards-poker"]["uncertain"] == "unverified against MPC's template"


def test_the_same_pieces_give_the_same_bytes():
    cards = [Card(Swatch("a", border_mm=1), Swatch("back", inside=BLUE), "Un", "0001", "")]
    one, two = (presets.export("tgc", "g", "Jeu", [deck(cards=cards)]) for _ in range(2))
    assert one.files == two.files and one.info == two.info


def test_an_unknown_target_is_refused():
    with pytest.raises(ValueError):
        presets.export("dtc", "g", "Jeu", [deck()])


# -- a real game -----------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def nba():
    return prepared("nba")


def test_nba_for_tgc_every_face_at_the_exact_size_and_manifests_matching_the_workbook(nba):
    item, pieces = nba
    export = presets.export("tgc", item.game.id, item.game.title, pieces)
    decks = {p.id: p for p in pieces if p.kind == DECK}
    assert sorted(export.info["folders"]) == sorted(f"{ident}-PokerDeck" for ident in decks)
    players = manifest(export, "players-PokerDeck")
    assert len(players) == 140 and sum(int(r["quantité"]) for r in players) == 140
    assert {r["fichier dos"] for r in players} == {"back.png"}
    assert all(r["id édition"] and r["cellule"].startswith("sheets/nba.xlsx › players › row ") for r in players)
    for ident, piece in decks.items():
        rows = manifest(export, f"{ident}-PokerDeck")
        assert sum(int(r["quantité"]) for r in rows) == len(piece.cards)
        assert {r["fichier"] for r in rows} | {r["fichier dos"] for r in rows} == \
            {path.split("/")[1] for path in export.files if path.startswith(f"{ident}-PokerDeck/")} - {"manifest.csv"}
    pngs = [path for path in export.files if path.endswith(".png")]
    assert len(pngs) == 140 + 40 + 1 + 3          # distinct fronts of players, tactics, fatigue; one back each
    for path in pngs:
        image = Image.open(io.BytesIO(export.files[path]))      # the header: size and mode as stored
        assert (image.format, image.size, image.mode) == ("PNG", (825, 1125), "RGB"), path
    assert export.problems == []
    assert any("not card products" in note and "court (board)" in note for note in export.notes)


def test_nba_fatigue_for_mpc_at_822_by_1122(nba):
    item, pieces = nba
    export = presets.export("mpc", item.game.id, item.game.title, [p for p in pieces if p.id == "fatigue"])
    images = [png(data) for path, data in export.files.items() if path.endswith(".png")]
    assert len(images) == 2 and all((im.size, im.mode) == ((822, 1122), "RGB") for im in images)
    assert sum(int(r["quantité"]) for r in manifest(export, "fatigue-poker")) == 9
