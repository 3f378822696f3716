"""Print shops' card products: each product's trim and the exact file it takes, and which product a component
fits (or the nearest ones, to say why it fits none).

Facts from ../shared/EXPORTS.md:
- The Game Crafter (§4.1): identities and file sizes at 300 dpi, bleed included, from Templative's table;
  PokerDeck's 825 × 1125 confirmed by TGC's API. Inch-sized decks follow (trim + 1/4 in) × 300; the metric
  decks (EuroPokerDeck, USGameDeck) do not: their file size is the table's, never the formula's. Safe zone: 1/8 in
  inside the trim (75 px from the edge on PokerDeck, Squib's TGC layout). Rules (`Document`) are not a card
  product and are left out.
- MakePlayingCards (§5): SECONDARY SOURCES ONLY, unverified against MPC's template: poker 822 × 1122 px (trim
  750 × 1050 centred, 36 px of bleed a side), tarot 897 × 1497 px; a further 36 px safe margin. [U]
- DriveThruCards (§6.1, first-party help page): a poker card's page is 2.75 × 3.75 in, i.e. 1/8 in of bleed on
  each side of a 2.5 × 3.5 in trim; text at least 1/8 in inside the trim. No other DTC card size is given in
  EXPORTS.md, so poker is the only DTC product here.

A component matches a product when its trim equals the product's within a tolerance, in the product's own
orientation only: a landscape card is never turned to fit a portrait product (turning would change how the
card is laid out, which is the layout's business, not the export's); `turned` finds that case so the refusal
can say so.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from pipeline.core.errors import Problem
from pipeline.exports.pieces import DECK, TOKEN
from pipeline.exports.result import Export

MM_PER_INCH = 25.4
DPI = 300

TGC, MPC, DTC = "tgc", "mpc", "dtc"
SHOPS = (TGC, MPC, DTC)
RULE = "print-shop"                 # a size no product takes: acknowledged (pipeline/core/errors.py ACKNOWLEDGED)
CANDIDATES = (DECK, TOKEN)          # what is a card product; boards, pages and dice are not
# How far a component's trim may be from a product's and still be printed on it, centred at its true size (never
# scaled): 1 mm, what a shop's cut wanders anyway (1/32 in either way is the usual promise), and what a 3 mm
# bleed covers. A 63 × 88 mm deck goes on poker (63.5 × 88.9 mm) stock where no closer product exists.
TOLERANCE_MM = 1.0
SHOP_NAMES = {TGC: "The Game Crafter", MPC: "MakePlayingCards", DTC: "DriveThruCards"}


@dataclass(frozen=True)
class Product:
    """One card product of one shop: its trim and the file it takes (bleed included) at `dpi`."""

    shop: str                       # TGC, MPC or DTC
    identity: str                   # the shop's name for it ("PokerDeck")
    trim_mm: tuple[float, float]    # width, height of the cut card
    file_px: tuple[int, int]        # width, height of the file the shop takes, bleed included
    safe_px: float                  # from the file's edge to the line that text should stay inside
    dpi: int = DPI
    note: str = ""                  # where the size comes from, when it is worth saying
    uncertain: bool = False         # secondary sources only ([U] in EXPORTS.md)

    @property
    def trim_px(self) -> tuple[float, float]:
        return tuple(side / MM_PER_INCH * self.dpi for side in self.trim_mm)

    @property
    def bleed_px(self) -> tuple[float, float]:
        """Bleed on each side, horizontally and vertically: (file - trim) / 2 (37.5 px on TGC's PokerDeck)."""
        return tuple((whole - trim) / 2 for whole, trim in zip(self.file_px, self.trim_px))

    @property
    def file_mm(self) -> tuple[float, float]:
        return tuple(side / self.dpi * MM_PER_INCH for side in self.file_px)

    @property
    def file_pt(self) -> tuple[float, float]:
        """The file's size in points: a PDF page (DTC: 198 × 270)."""
        return tuple(side / self.dpi * 72 for side in self.file_px)

    def describe(self) -> str:
        """"PokerDeck 63.5×88.9 mm"."""
        return f"{self.identity} {size_text(self.trim_mm)} mm"


def size_text(size_mm: tuple[float, float]) -> str:
    """(63.5, 88.9) -> "63.5×88.9"; (88.0, 126.0) -> "88×126"."""
    return "×".join(_number(side) for side in size_mm)


def _number(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _inches(width: float, height: float) -> tuple[float, float]:
    return (round(width * MM_PER_INCH, 3), round(height * MM_PER_INCH, 3))


def _tgc(identity: str, trim_mm: tuple[float, float], file_px: tuple[int, int], note: str = "") -> Product:
    # Safe zone: 1/8 in (37.5 px) inside the trim, 75 px from the edge on PokerDeck (Squib's TGC layout).
    bleed = max((whole - side / MM_PER_INCH * DPI) / 2 for whole, side in zip(file_px, trim_mm))
    return Product(TGC, identity, trim_mm, file_px, bleed + DPI / 8, note=note)


# The Game Crafter, EXPORTS.md §4.1 (Templative's table; PokerDeck also TGC's API). Not `Document` (rules).
TGC_PRODUCTS = (
    _tgc("PokerDeck", _inches(2.5, 3.5), (825, 1125)),
    _tgc("BridgeDeck", _inches(2.25, 3.5), (750, 1125)),
    _tgc("MiniDeck", _inches(1.75, 2.5), (600, 825)),
    _tgc("TarotDeck", _inches(2.75, 4.75), (900, 1500)),
    _tgc("SquareDeck", _inches(3.5, 3.5), (1125, 1125)),
    _tgc("SmallSquareDeck", _inches(2.5, 2.5), (825, 825)),
    _tgc("JumboDeck", _inches(3.5, 5.5), (1125, 1725)),
    # The metric decks take the table's file size, not (trim + 1/4 in) × 300.
    _tgc("EuroPokerDeck", (63.0, 88.0), (825, 1125), "metric: the poker file size, per TGC's table"),
    _tgc("USGameDeck", (56.0, 87.0), (750, 1125), "metric: the bridge file size, per TGC's table"),
)

# MakePlayingCards, EXPORTS.md §5: unverified against MPC's template (secondary sources only). [U]
MPC_UNVERIFIED = ("MakePlayingCards sizes are unverified against MPC's template (secondary sources: poker "
                  "822×1122 px, tarot 897×1497 px, 36 px bleed a side)")
MPC_PRODUCTS = (
    Product(MPC, "poker", _inches(2.5, 3.5), (822, 1122), 72, note="unverified against MPC's template",
            uncertain=True),
    Product(MPC, "tarot", _inches(2.75, 4.75), (897, 1497), 72, note="unverified against MPC's template",
            uncertain=True),
)

# DriveThruCards, EXPORTS.md §6.1 (first-party): a 2.75 × 3.75 in page for a 2.5 × 3.5 in card; text 1/8 in
# inside the trim.
DTC_PRODUCTS = (
    Product(DTC, "poker", _inches(2.5, 3.5), (825, 1125), 75),
)

PRODUCTS = {TGC: TGC_PRODUCTS, MPC: MPC_PRODUCTS, DTC: DTC_PRODUCTS}


def products(shop: str) -> tuple[Product, ...]:
    try:
        return PRODUCTS[shop]
    except KeyError:
        raise ValueError(f"unknown print shop {shop!r} (known: {', '.join(PRODUCTS)})") from None


def match(shop: str, size_mm: tuple[float, float], tolerance_mm: float = TOLERANCE_MM) -> Product | None:
    """The product whose trim equals `size_mm` within `tolerance_mm` on each side, in the product's own
    orientation (a landscape card does not match a portrait product: see `turned`); the closest when several
    do; None when none does."""
    fits = [p for p in products(shop) if _fits(p.trim_mm, size_mm, tolerance_mm)]
    return min(fits, key=lambda p: _distance(p.trim_mm, size_mm), default=None)


def turned(shop: str, size_mm: tuple[float, float], tolerance_mm: float = TOLERANCE_MM) -> Product | None:
    """The product a component would match if it were turned a quarter (a landscape card against a portrait
    product), for the refusal's message; None when turning does not help either."""
    width, height = size_mm
    if abs(width - height) <= tolerance_mm:
        return None
    return match(shop, (height, width), tolerance_mm)


def nearest(shop: str, size_mm: tuple[float, float], n: int = 2) -> list[Product]:
    """The `n` products whose trims are closest to `size_mm` (straight-line distance between the sizes, in
    either orientation), closest first; ties keep the table's order."""
    def distance(product: Product) -> float:
        flipped = (product.trim_mm[1], product.trim_mm[0])
        return min(_distance(product.trim_mm, size_mm), _distance(flipped, size_mm))
    return sorted(products(shop), key=distance)[:n]


def refusal(shop: str, size_mm: tuple[float, float], tolerance_mm: float = TOLERANCE_MM) -> str:
    """Why a component of `size_mm` is left out of `shop`'s files (for Export.warn)."""
    size, name = size_text(size_mm), SHOP_NAMES[shop]
    product = turned(shop, size_mm, tolerance_mm)
    if product is not None:
        return (f"{size} mm is {product.identity} turned a quarter: {name} takes "
                f"{size_text(product.trim_mm)} mm (portrait) files; lay the component out that way up; left out")
    closest = ", ".join(f"{p.identity} {size_text(p.trim_mm)} mm" for p in nearest(shop, size_mm))
    return f"{size} mm matches no {name} product (nearest: {closest}); left out"


def refusals(shop: str, pieces) -> list[Problem]:
    """Each deck or token set of `pieces` (pipeline/exports/pieces.py) `shop` takes no product for, as the
    located warning its export gives (the build tells them before it writes anything)."""
    found = Export(shop)
    taken(shop, pieces, found)
    return found.problems


def taken(shop: str, pieces, result) -> tuple[list, list[str]]:
    """The (piece, product) pairs of the decks and token sets `shop` has a product for, and the pieces that are no
    card product ("court (board)"); a located warning on `result` (an Export) for each of a size no product has."""
    pairs, skipped = [], []
    for piece in pieces:
        if piece.kind not in CANDIDATES:
            skipped.append(f"{piece.id} ({piece.kind})")
            continue
        product = match(shop, piece.size_mm)
        if product is None:
            result.warn(piece.id, refusal(shop, piece.size_mm), rule=RULE)
        else:
            pairs.append((piece, product))
    return pairs, skipped


def _fits(trim: tuple[float, float], size: tuple[float, float], tolerance: float) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(trim, size))


def _distance(a: tuple[float, float], b: tuple[float, float]) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])
