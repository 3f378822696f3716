"""Imposition: geometry is read back from the written PDFs (pdfplumber, pikepdf), never from the plan."""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

import pdfplumber
import pikepdf
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from pipeline.core.errors import PipelineError
from pipeline.core.printing import PrintOptions
from pipeline.core.units import MM, PAPERS_MM, mm
from pipeline.render.fonts import default_fonts
from pipeline.render.sheets.imposition import write_png, write_pnp, write_print
from pipeline.render.sheets.marks import crop_marks
from pipeline.render.sheets.plan import (BAND_GAP, CARD_EDGE, MARK_EDGE, MARK_MIN, SHORT_EDGE, SHORT_MIN, Rect,
                                         choose_plan)
from tests.render.sheets.printcheck import run_pdfcheck as pdfcheck

POKER = (63.5, 88.9)
TOL = 0.1  # mm


@dataclass(frozen=True)
class FakeFace:
    """The face renderer's shape: a coloured bleed rectangle, a border inside the safe zone, a label."""

    key: str
    colour: tuple
    label: str
    width: float = mm(POKER[0])
    height: float = mm(POKER[1])
    bleed: float = mm(3)

    def draw(self, canvas):
        b, w, h = self.bleed, self.width, self.height
        canvas.setFillColorRGB(*self.colour)
        canvas.rect(-b, -b, w + 2 * b, h + 2 * b, stroke=0, fill=1)
        canvas.setStrokeColorRGB(1, 1, 1)
        canvas.setLineWidth(1)
        canvas.rect(mm(3), mm(3), w - mm(6), h - mm(6), stroke=1, fill=0)
        canvas.setFillColorRGB(1, 1, 1)
        canvas.setFont(default_fonts().name("bold"), 12)
        canvas.drawString(mm(5), h - mm(10), self.label)


def front(i: int, **size) -> FakeFace:
    return FakeFace(f"front-{i}", (round(i / 40, 4), 0.5, 0.5), f"F{i}", **size)


def back(i: int, designs: int = 3, **size) -> FakeFace:
    """Several back designs in one deck; the colour identifies the design."""
    d = i % designs
    return FakeFace(f"back-{d}", (0.9, round(d / designs, 4), 0.1), f"B{d}", **size)


def deck(n: int, designs: int = 3, **size):
    return [front(i, **size) for i in range(n)], [back(i, designs, **size) for i in range(n)]


def write(tmp_path, name, fronts, face_backs, **options) -> tuple[Path, dict]:
    path = tmp_path / f"{name}.pdf"
    opts = PrintOptions(game_title="NBA", component_title="Joueurs", **options)
    return path, write_pnp(path, fronts, face_backs, opts)


# ----------------------------------------------------------------------------- reading geometry back
@dataclass(frozen=True)
class Card:
    centre: tuple[float, float]   # mm from the page's bottom-left
    size: tuple[float, float]     # trim on the page, mm
    colour: tuple

    @property
    def trim(self):
        (cx, cy), (w, h) = self.centre, self.size
        return (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)


def cards_on(page, card=POKER, bleed=3.0) -> list[Card]:
    """Each fake face's bleed rectangle (unclipped geometry) marks its card: centre and orientation."""
    found = []
    for r in page.rects:
        if not r["fill"]:
            continue
        w, h = (r["x1"] - r["x0"]) / MM, (r["y1"] - r["y0"]) / MM
        for tw, th in dict.fromkeys((tuple(card), tuple(card[::-1]))):
            if abs(w - tw - 2 * bleed) < TOL and abs(h - th - 2 * bleed) < TOL:
                centre = ((r["x0"] + r["x1"]) / 2 / MM, (r["y0"] + r["y1"]) / 2 / MM)
                found.append(Card(centre, (tw, th), tuple(r["non_stroking_color"])))
    return sorted(found, key=lambda c: (-round(c.centre[1], 1), c.centre[0]))


def marks_on(page) -> list[tuple[float, float, float, float]]:
    return [(ln["x0"] / MM, ln["y0"] / MM, ln["x1"] / MM, ln["y1"] / MM) for ln in page.lines
            if abs(ln["linewidth"] - 0.3) < 0.01]


def is_label(char) -> bool:
    """A fake face's label (bold), not the sheet's header or footer (regular)."""
    return "Bold" in char["fontname"]


def near(a, b, tol=TOL) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b))


def mirror_x(point, page_width):
    return (page_width - point[0], point[1])


# ----------------------------------------------------------------------------- the grids
def _edge_distance(rect, paper) -> float:
    pw, ph = PAPERS_MM[paper]
    x0, y0, x1, y1 = rect
    return min(x0, y0, pw - x1, ph - y1)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_poker_prints_9_a_page_on_both_papers(tmp_path, paper):
    """The print-and-play norm: three poker cards are 190.5 mm wide and three rows 266.7 mm high, which A4
    holds with 5 mm crop marks; Letter's 279.4 leaves 6.35 mm above and below, where short marks go
    (test_letter_marks_above_and_below_are_short_the_others_5_mm), its header in the side margins."""
    path, info = write(tmp_path, paper, *deck(9), paper=paper)
    expected = (9, (3, 3), False)
    assert (info["cards_per_page"], info["grid"], info["rotated"]) == expected
    assert info["bleed_mode"] == "shared-cut" and info["pages"] == 2
    assert info["side_bands"] is (paper == "letter")
    assert info["mark_length_mm"] == ([5.0, 5.0] if paper == "a4" else [5.0, 2.1])
    with pdfplumber.open(path) as pdf:
        cards = cards_on(pdf.pages[0])
    assert len(cards) == expected[0]
    xs = sorted({round(v, 2) for c in cards for v in (c.trim[0], c.trim[2])})
    ys = sorted({round(v, 2) for c in cards for v in (c.trim[1], c.trim[3])})
    cols, rows = expected[1]
    cw, ch = (88.9, 63.5) if expected[2] else POKER
    assert len(xs) == cols + 1 and len(ys) == rows + 1       # shared cut lines
    assert [b - a for a, b in zip(xs, xs[1:])] == pytest.approx([cw] * cols, abs=0.01)
    assert [b - a for a, b in zip(ys, ys[1:])] == pytest.approx([ch] * rows, abs=0.01)
    pw, _ = PAPERS_MM[paper]
    assert xs[0] == pytest.approx((pw - cols * cw) / 2, abs=0.01)  # centred across, for the duplex mirror
    assert min(_edge_distance(c.trim, paper) for c in cards) >= CARD_EDGE


def test_landscape_poker_cards_turn_to_print_9_a_page(tmp_path):
    landscape = {"width": mm(POKER[1]), "height": mm(POKER[0])}
    path, info = write(tmp_path, "turned", *deck(9, **landscape), paper="a4")
    assert (info["cards_per_page"], info["grid"], info["rotated"]) == (9, (3, 3), True)


# the README's table "Cards per page": measured here from written sheets
# with 5 mm crop marks (what a steel rule lines up on), short ones (2 mm or more, 4.2 mm from the edge) above
# and below where that margin holds no band: Letter's 12.7 mm for three poker rows then holds them
CARDS_PER_PAGE = [((63.5, 88.9), 9, 9), ((63.0, 88.0), 9, 9), ((57.15, 88.9), 9, 9), ((44.0, 68.0), 16, 12),
                  ((41.0, 63.0), 18, 18), ((59.0, 92.0), 9, 8), ((88.0, 126.0), 4, 4), ((70.0, 70.0), 8, 6),
                  ((18.0, 18.0), 150, 140), ((36.0, 18.0), 75, 70)]


@pytest.mark.parametrize("card,a4,letter", CARDS_PER_PAGE)
def test_cards_per_page_of_each_size_as_the_readme_states(tmp_path, card, a4, letter):
    size = {"width": mm(card[0]), "height": mm(card[1])}
    for paper, expected in (("a4", a4), ("letter", letter)):
        path, info = write(tmp_path, paper, *deck(expected, designs=1, **size), paper=paper)
        assert info["pages"] == 2
        with pdfplumber.open(path) as pdf:
            assert len(cards_on(pdf.pages[0], card)) == len(cards_on(pdf.pages[1], card)) == expected, paper
        _, more = write(tmp_path, paper, *deck(expected + 1, designs=1, **size), paper=paper)
        assert more["pages"] == 4                   # one more card takes a second sheet: the page is full


def _card_bleed_rects(page, card) -> list:
    """The fake faces' own bleed rectangles (clipped to the trim on shared-cut sheets)."""
    found = []
    for r in page.rects:
        w, h = (r["x1"] - r["x0"]) / MM, (r["y1"] - r["y0"]) / MM
        if r["fill"] and any(abs(w - a - 6) < TOL and abs(h - b - 6) < TOL for a, b in (card, card[::-1])):
            found.append(r)
    return found


@pytest.mark.parametrize("paper,card", [("a4", POKER), ("letter", POKER), ("a4", (85.0, 130.0)),
                                        ("letter", (57.0, 87.0)), ("a4", (18.0, 18.0))])
@pytest.mark.parametrize("offset", [(0.0, 0.0), (1.5, -1.0)])
def test_no_card_within_5_mm_nor_anything_within_3_mm_of_the_edge(tmp_path, paper, card, offset):
    size = {"width": mm(card[0]), "height": mm(card[1])}
    path, info = write(tmp_path, paper, *deck(11, **size), paper=paper, back_offset_mm=offset)
    pw, ph = PAPERS_MM[paper]
    with pdfplumber.open(path) as pdf:
        for page in pdf.pages:
            assert (page.width / MM, page.height / MM) == pytest.approx((pw, ph), abs=0.01)
            placed = cards_on(page, card)
            assert placed
            for c in placed:
                assert _edge_distance(c.trim, paper) >= CARD_EDGE - 0.01
            faces = {id(r) for r in _card_bleed_rects(page, card)}
            for obj in page.chars + page.lines + page.rects + page.curves:
                if id(obj) in faces and info["bleed_mode"] == "shared-cut":
                    continue                          # clipped to its trim, measured above
                box = (obj["x0"] / MM, obj["y0"] / MM, obj["x1"] / MM, obj["y1"] / MM)
                assert _edge_distance(box, paper) >= MARK_EDGE - 0.01, obj.get("text", obj["object_type"])


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_crop_marks_extend_cut_lines_and_never_enter_a_card(tmp_path, paper):
    path, _ = write(tmp_path, paper, *deck(9), paper=paper)
    with pdfplumber.open(path) as pdf:
        page = pdf.pages[0]
        cards, marks = cards_on(page), marks_on(page)
    trims = [c.trim for c in cards]
    xs = {round(v, 2) for t in trims for v in (t[0], t[2])}
    ys = {round(v, 2) for t in trims for v in (t[1], t[3])}
    left, bottom = min(t[0] for t in trims), min(t[1] for t in trims)
    right, top = max(t[2] for t in trims), max(t[3] for t in trims)
    assert marks
    for x0, y0, x1, y1 in marks:
        assert x0 == pytest.approx(x1, abs=1e-6) or y0 == pytest.approx(y1, abs=1e-6)
        on_cut = round(x0, 2) in xs if x0 == pytest.approx(x1, abs=1e-6) else round(y0, 2) in ys
        assert on_cut, (x0, y0, x1, y1)
        # not even touching: 1 mm of air to every trim; Letter's short marks above and below the grid
        # start right at the trim of the shared cut (nothing is printed beyond it), never inside a card
        short = paper == "letter" and x0 == pytest.approx(x1, abs=1e-6)
        air = -0.01 if short else 0.9
        for tx0, ty0, tx1, ty1 in trims:
            assert x1 < tx0 - air or x0 > tx1 + air or y1 < ty0 - air or y0 > ty1 + air
    vertical = [m for m in marks if m[0] == pytest.approx(m[2])]
    horizontal = [m for m in marks if m[1] == pytest.approx(m[3])]
    for x in xs:  # every cut line has a mark at both of its ends, outside the block
        assert any(round(m[0], 2) == x and m[1] > top - 0.01 for m in vertical)
        assert any(round(m[0], 2) == x and m[3] < bottom + 0.01 for m in vertical)
    for y in ys:
        assert any(round(m[1], 2) == y and m[2] < left for m in horizontal)
        assert any(round(m[1], 2) == y and m[0] > right for m in horizontal)


@pytest.mark.parametrize("offset", [(0.0, 0.0), (1.0, -1.2)])
def test_letter_marks_above_and_below_are_short_the_others_5_mm(tmp_path, offset):
    """Issue 29: on Letter, 3 × 3 poker cards leave 6.35 mm above and below the grid. Each mark there runs
    from the trim outward, at least 2 mm, and ends 4.2 mm or more from the paper edge (where home printers
    still print); every mark in the side margins is 5 mm long and ends 5 mm or more from the edge. Read
    back from both sides of the sheet, the backs moved by a per-printer offset too."""
    path, _ = write(tmp_path, "letter", *deck(9), paper="letter", back_offset_mm=offset)
    pw, ph = PAPERS_MM["letter"]
    with pdfplumber.open(path) as pdf:
        sides = [(cards_on(page), marks_on(page)) for page in pdf.pages]
    for side, (cards, marks) in enumerate(sides):
        trims = [c.trim for c in cards]
        bottom, top = min(t[1] for t in trims), max(t[3] for t in trims)
        xs = sorted({round(v, 2) for t in trims for v in (t[0], t[2])})
        vertical = [m for m in marks if m[0] == pytest.approx(m[2], abs=1e-6)]
        horizontal = [m for m in marks if m[1] == pytest.approx(m[3], abs=1e-6)]
        assert len(vertical) == 2 * len(xs) == 8 and len(horizontal) == 8
        for x0, y0, x1, y1 in vertical:
            lo, hi = sorted((y0, y1))
            assert lo >= top - 0.01 or hi <= bottom + 0.01              # above or below the grid
            if side == 0:                                            # the front: from the trim outward
                assert lo == pytest.approx(top, abs=0.01) or hi == pytest.approx(bottom, abs=0.01)
                assert hi - lo >= SHORT_MIN - 0.01
            assert min(lo, ph - hi) >= SHORT_EDGE - 0.01, (side, lo, hi)
        for x0, y0, x1, y1 in horizontal:
            assert abs(x1 - x0) == pytest.approx(5.0, abs=0.01)
            assert min(x0, x1, pw - x0, pw - x1) >= 5.0 - abs(offset[0]) - 0.01


def _band_text(page, left: bool) -> str:
    """The characters of a side band read the way it runs, bottom to top."""
    pw = page.width
    chars = [c for c in page.chars if not is_label(c) and (c["x1"] < 15 * MM if left else c["x0"] > pw - 15 * MM)]
    return "".join(c["text"] for c in sorted(chars, key=lambda c: -c["bottom"]))


@pytest.mark.parametrize("offset", [(0.0, 0.0), (1.0, -1.2)])
def test_letter_header_and_footer_run_between_the_marks(tmp_path, offset):
    """The side bands beside 3 × 3 poker cards on Letter are one line each, interrupted where the marks of
    the horizontal cuts cross them: read bottom to top they say the whole header (and the edition mark)
    and the whole footer, 5 mm or more from the paper edge, and no character comes within BAND_GAP of a
    mark on either side of the sheet."""
    from pipeline.render.pdf import credits
    with credits("test", edition="NBA · v9"):
        path, _ = write(tmp_path, "letter", *deck(10), paper="letter", back_offset_mm=offset)
    pw, _ = PAPERS_MM["letter"]
    with pdfplumber.open(path) as pdf:
        for number, page in enumerate(pdf.pages, 1):
            side = "recto" if number % 2 else "verso"
            header = _band_text(page, left=True)
            assert header.replace(" ", "") == f"NBA·Joueurs·page{number}/4({side})NBA·v9", header
            footer = _band_text(page, left=False).replace(" ", "")
            assert footer == "50mm—imprimerà100%(tailleréelle)rectoverso:retournersurlebordlong", footer
            bars = [c for c in page.curves if abs(c["linewidth"] - 0.5) < 0.01]
            assert len(bars) == 1 and (bars[0]["y1"] - bars[0]["y0"]) / MM == pytest.approx(50.0, abs=0.01)
            marks = marks_on(page)
            text = [c for c in page.chars if not is_label(c)]
            for c in text:
                assert min(c["x0"], pw * MM - c["x1"]) / MM >= 5.0 - 0.01
                for x0, y0, x1, y1 in marks:
                    apart = (c["x1"] / MM < min(x0, x1) - BAND_GAP + 0.01 or c["x0"] / MM > max(x0, x1) + BAND_GAP - 0.01
                             or c["y1"] / MM < min(y0, y1) - BAND_GAP + 0.01 or c["y0"] / MM > max(y0, y1) + BAND_GAP - 0.01)
                    assert apart, (number, c["text"], (x0, y0, x1, y1))


def test_a_long_letter_header_keeps_its_page_number_and_cuts_its_list(tmp_path):
    """A header longer than the side band's three windows flows through them and loses words from the end
    of its longest list ("…"), never the page number nor the edition mark; the words never overlap."""
    from pipeline.render.pdf import credits
    title = "Cartes 63,5 × 88,9 mm : " + ", ".join(f"Paquet numéro {n} des Équipes du Nord" for n in range(1, 9))
    with credits("test", edition="Jeu · v9"):
        path, _ = write_pnp_title(tmp_path, title)
    with pdfplumber.open(path) as pdf:
        for number, page in enumerate(pdf.pages, 1):
            header = _band_text(page, left=True)
            assert header.startswith("NBA · Cartes 63,5 × 88,9 mm : Paquet numéro 1 des Équipes du Nord,"), header
            assert "…" in header and "numéro 8" not in header
            assert header.endswith(f"page {number}/2 ({'recto' if number == 1 else 'verso'})Jeu · v9"), header
            chars = sorted((c for c in page.chars if c["x1"] < 15 * MM), key=lambda c: c["y0"])
            assert all(a["y1"] <= b["y0"] + 0.01 for a, b in zip(chars, chars[1:]))     # one line, no overlap


def write_pnp_title(tmp_path, title: str):
    path = tmp_path / "long.pdf"
    return path, write_pnp(path, *deck(3), PrintOptions(paper="letter", game_title="NBA", component_title=title))


# ----------------------------------------------------------------------------- duplex
def _front_back_pairs(path, page_front, page_back, card=POKER):
    with pdfplumber.open(path) as pdf:
        fronts, backs = cards_on(pdf.pages[page_front], card), cards_on(pdf.pages[page_back], card)
        width = pdf.pages[page_front].width / MM
        front_chars = [c for c in pdf.pages[page_front].chars if c["text"] == "F" and is_label(c)]
        back_chars = [c for c in pdf.pages[page_back].chars if c["text"] == "B" and is_label(c)]
    return fronts, backs, width, front_chars, back_chars


LANDSCAPE = (POKER[1], POKER[0])


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("offset", [(0.0, 0.0), (1.5, -1.0)])
@pytest.mark.parametrize("card", [POKER, LANDSCAPE])
def test_duplex_backs_mirror_fronts_about_the_vertical_centre(tmp_path, paper, offset, card):
    fronts, backs = deck(9, width=mm(card[0]), height=mm(card[1]))
    path, info = write(tmp_path, "duplex", fronts, backs, paper=paper, back_offset_mm=offset)
    page_fronts, page_backs, width, front_chars, back_chars = _front_back_pairs(path, 0, 1, card)
    assert len(page_backs) == len(page_fronts) == min(9, info["cards_per_page"])
    by_colour = {f.colour: i for i, f in enumerate(fronts)}
    for placed in page_fronts:
        i = by_colour[placed.colour]
        mx, my = mirror_x(placed.centre, width)
        target = (mx + offset[0], my + offset[1])
        behind = [b for b in page_backs if near(b.centre, target)]
        assert len(behind) == 1, f"no back behind front {i}"
        assert behind[0].colour == backs[i].colour  # backs[i] is the back of fronts[i]
        assert behind[0].size == placed.size
    assert front_chars and back_chars
    if info["rotated"]:  # turned fronts turn +90°, their backs -90°: upright to each other after the flip
        assert all(c["matrix"][1] > 0 for c in front_chars)
        assert all(c["matrix"][1] < 0 for c in back_chars)
    else:
        assert all(c["matrix"][:2] == pytest.approx((1, 0)) for c in front_chars + back_chars)


def test_short_last_sheet_has_backs_only_behind_its_cards(tmp_path):
    path, info = write(tmp_path, "short", *deck(11), paper="a4")
    assert info["pages"] == 4
    full, _, _, _, _ = _front_back_pairs(path, 0, 1)
    fronts, backs, width, _, _ = _front_back_pairs(path, 2, 3)
    assert len(full) == 9 and len(fronts) == 2 and len(backs) == 2
    for placed, cell in zip(fronts, full[:2]):  # the first cells of the grid, in reading order
        assert near(placed.centre, cell.centre)
    for placed in fronts:
        assert sum(near(b.centre, mirror_x(placed.centre, width)) for b in backs) == 1


def test_header_and_calibration_bar(tmp_path):
    path, _ = write(tmp_path, "text", *deck(10), paper="a4", ink_saver=True)
    with pdfplumber.open(path) as pdf:
        first, last = pdf.pages[0], pdf.pages[3]
        text = first.extract_text()
        assert "NBA · Joueurs · version économie d'encre · page 1/4 (recto)" in text
        assert "page 4/4 (verso)" in last.extract_text()
        assert "50 mm — imprimer à 100 % (taille réelle)" in text
        assert "recto verso : retourner sur le bord long" in text
        bars = [c for c in first.curves if abs(c["linewidth"] - 0.5) < 0.01]
        assert len(bars) == 1 and (bars[0]["x1"] - bars[0]["x0"]) / MM == pytest.approx(50.0, abs=0.01)
        assert min(ch["size"] for ch in first.chars) >= 6.0


def test_header_and_footer_move_to_the_sides_when_only_side_room_is_left(tmp_path):
    """85×130 mm on A4: 2×2 cards leave 1 mm too little height for the bands, but room at the sides."""
    path, info = write(tmp_path, "sides", *deck(4, width=mm(85), height=mm(130)), paper="a4")
    assert info["side_bands"] and info["cards_per_page"] == 4
    with pdfplumber.open(path) as pdf:
        text = [c for c in pdf.pages[0].chars if not is_label(c)]
        assert text and all(c["matrix"][:4] == pytest.approx((0, 1, -1, 0)) for c in text)
    assert pdfcheck(path, "--expect-card", "85x130", "--paper", "a4").returncode == 0


# ----------------------------------------------------------------------------- fold-over
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_foldover_register_about_the_fold_line(tmp_path, paper):
    fronts, backs = deck(4)
    path, info = write(tmp_path, "fold", fronts, backs, paper=paper, backs="foldover")
    with pdfplumber.open(path) as pdf:
        page = pdf.pages[0]
        cards = cards_on(page)
        folds = [ln for ln in page.lines if abs(ln["linewidth"] - 0.4) < 0.01]
        assert "plier ici" in page.extract_text()
        labels = {c["text"]: c["matrix"] for c in page.chars if c["text"] in "FB" and is_label(c)}
    fold_y = folds[0]["y0"] / MM
    assert all(abs(ln["y0"] / MM - fold_y) < 1e-6 for ln in folds)
    by_colour = {f.colour: i for i, f in enumerate(fronts)}
    page_fronts = [c for c in cards if c.colour in by_colour]
    assert len(page_fronts) == info["cards_per_page"] == len(cards) - len(page_fronts)
    for card in page_fronts:
        assert card.trim[1] > fold_y
        target = (card.centre[0], 2 * fold_y - card.centre[1])
        behind = [c for c in cards if near(c.centre, target)]
        assert len(behind) == 1 and behind[0].colour == backs[by_colour[card.colour]].colour
    # the back's turn is the front's reflected about the fold (180° - θ: 180° upright, 90° when turned),
    # so a label's baseline direction (a, b) becomes (-a, b)
    fa, fb = labels["F"][:2]
    ba, bb = labels["B"][:2]
    assert (ba, bb) == pytest.approx((-fa, fb), abs=1e-6)


# ----------------------------------------------------------------------------- files
def test_repeated_face_is_one_form_xobject(tmp_path):
    fronts = [FakeFace("same-front", (0.2, 0.4, 0.6), "F")] * 20
    backs = [FakeFace("same-back", (0.9, 0.1, 0.1), "B")] * 20
    path, info = write(tmp_path, "forms", fronts, backs, paper="a4")
    assert info["forms"] == 2 and info["pages"] == 6
    with pikepdf.open(path) as pdf:
        forms = [o for o in pdf.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Form"]
        assert len(forms) == 2
        for page in pdf.pages:
            assert len(page.Resources.XObject.keys()) == 1


def test_two_writes_are_byte_identical(tmp_path):
    fronts, backs = deck(11)
    outputs = []
    for _ in range(2):
        buffer = io.BytesIO()
        write_pnp(buffer, fronts, backs, PrintOptions(paper="letter", game_title="NBA"))
        outputs.append(buffer.getvalue())
    assert outputs[0] == outputs[1]
    a, b = tmp_path / "a.pdf", tmp_path / "b.pdf"
    write_print(a, fronts, "NBA")
    write_print(b, fronts, "NBA")
    assert a.read_bytes() == b.read_bytes()


def test_print_file_boxes(tmp_path):
    fronts, backs = deck(3)
    path = tmp_path / "print.pdf"
    info = write_print(path, fronts + backs[:1], "NBA — Joueurs")
    assert info["pages"] == 4
    with pikepdf.open(path) as pdf:
        for page in pdf.pages:
            boxes = {name: [float(v) / MM for v in page.obj[name]] for name in ("/MediaBox", "/TrimBox", "/BleedBox")}
            trim, bleed, media = boxes["/TrimBox"], boxes["/BleedBox"], boxes["/MediaBox"]
            assert (trim[2] - trim[0], trim[3] - trim[1]) == pytest.approx((63.5, 88.9), abs=0.01)
            assert (bleed[2] - bleed[0], bleed[3] - bleed[1]) == pytest.approx((69.5, 94.9), abs=0.01)
            assert media == pytest.approx(bleed, abs=0.01)
            assert trim[:2] == pytest.approx([3.0, 3.0], abs=0.01)


def test_png_export_size_and_dpi(tmp_path):
    fronts, _ = deck(2)
    source = tmp_path / "print.pdf"
    write_print(source, fronts, "NBA")
    files = write_png(source, tmp_path / "png", ["p1", "p2"])
    assert [f.name for f in files] == ["p1.png", "p2.png"]
    expected = (round((63.5 + 6) / 25.4 * 300), round((88.9 + 6) / 25.4 * 300))
    first = files[0].read_bytes()
    with Image.open(files[0]) as image:
        assert image.size == expected
        assert image.info["dpi"] == pytest.approx((300, 300), abs=0.01)
    write_png(source, tmp_path / "png", ["p1", "p2"])
    assert files[0].read_bytes() == first


# ----------------------------------------------------------------------------- preflight
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_pdfcheck_passes_on_duplex_sheets(tmp_path, paper):
    path, _ = write(tmp_path, paper, *deck(11), paper=paper)
    result = pdfcheck(path, "--expect-card", "63.5x88.9", "--paper", paper)
    assert result.returncode == 0, result.stdout
    assert "backs mirror fronts" in result.stdout


def test_pdfcheck_passes_on_foldover_and_print(tmp_path):
    path, _ = write(tmp_path, "fold", *deck(5), paper="a4", backs="foldover")
    result = pdfcheck(path, "--expect-card", "63.5x88.9", "--paper", "a4", "--duplex", "off")
    assert result.returncode == 0, result.stdout
    fronts, backs = deck(3)
    write_print(tmp_path / "print.pdf", fronts + backs[:1], "NBA")
    result = pdfcheck(tmp_path / "print.pdf", "--bleed", "3", "--expect-card", "63.5x88.9", "--duplex", "off")
    assert result.returncode == 0, result.stdout


# ----------------------------------------------------------------------------- refusals
def test_refusals(tmp_path):
    fronts, backs = deck(3)
    with pytest.raises(ValueError):
        PrintOptions(paper="a3")
    with pytest.raises(ValueError):
        PrintOptions(backs="sideways")
    with pytest.raises(PipelineError, match="3 fronts but 2 backs"):
        write_pnp(tmp_path / "x.pdf", fronts, backs[:2], PrintOptions())
    with pytest.raises(PipelineError, match="no cards"):
        write_pnp(tmp_path / "x.pdf", [], None, PrintOptions())
    with pytest.raises(PipelineError, match="does not fit"):
        write_pnp(tmp_path / "x.pdf", [front(0, width=mm(200), height=mm(300))], None, PrintOptions())
    assert not (tmp_path / "x.pdf").exists()


# ----------------------------------------------------------------------------- the plan, for any card
@settings(max_examples=150, deadline=None)
@given(w=st.floats(20, 200), h=st.floats(20, 280), bleed=st.sampled_from([0.0, 2.0, 3.0]),
       paper=st.sampled_from(sorted(PAPERS_MM)), fold=st.booleans())
def test_any_plan_keeps_cards_marks_and_bands_apart_and_inside_the_margins(w, h, bleed, paper, fold):
    plan = choose_plan(PAPERS_MM[paper], (w, h), bleed, foldover=fold, footer_items=(100.0, 50.0))
    if plan is None:
        return
    pw, ph = PAPERS_MM[paper]
    slots = [plan.front_slot(i) for i in range(plan.per_page)]
    blocks = [[s.rect for s in slots]]
    if fold:
        blocks.append([plan.fold_back_slot(i).rect for i in range(plan.per_page)])
    rects = [r for block in blocks for r in block]
    bands = [plan.header.rect, plan.footer.rect]
    for r in rects:
        b = plan.printed_bleed
        assert r.x0 - b >= CARD_EDGE - 1e-6 and r.y0 - b >= CARD_EDGE - 1e-6
        assert r.x1 + b <= pw - CARD_EDGE + 1e-6 and r.y1 + b <= ph - CARD_EDGE + 1e-6
    for r in bands:
        assert r.x0 >= MARK_EDGE - 1e-6 and r.y0 >= MARK_EDGE - 1e-6
        assert r.x1 <= pw - MARK_EDGE + 1e-6 and r.y1 <= ph - MARK_EDGE + 1e-6
    for r in rects:
        for band in bands:
            assert r.x1 <= band.x0 or r.x0 >= band.x1 or r.y1 <= band.y0 or r.y0 >= band.y1
    edge_y = SHORT_EDGE if plan.short_y else MARK_EDGE
    bottom, top = min(r.y0 for r in rects), max(r.y1 for r in rects)
    for (x0, y0), (x1, y1) in crop_marks(plan, blocks):
        assert min(x0, x1) >= MARK_EDGE - 1e-6 and max(x0, x1) <= pw - MARK_EDGE + 1e-6
        assert min(y0, y1) >= edge_y - 1e-6 and max(y0, y1) <= ph - edge_y + 1e-6
        # short marks: above or below everything, from where the print ends (the bleed, on bleed gutters)
        short = plan.short_y and x0 == x1 and (min(y0, y1) >= top - 1e-6 or max(y0, y1) <= bottom + 1e-6)
        assert abs(x1 - x0) + abs(y1 - y0) >= (SHORT_MIN if short else MARK_MIN) - 1e-6
        air = plan.printed_bleed - 1e-6 if short else 0.99
        for r in rects:
            assert max(x0, x1) <= r.x0 - air or min(x0, x1) >= r.x1 + air or \
                max(y0, y1) <= r.y0 - air or min(y0, y1) >= r.y1 + air
        for band in (plan.header, plan.footer):
            stretches = [(band.rect.y0 + a, band.rect.y0 + b) if band.vertical else (band.rect.x0 + a, band.rect.x0 + b)
                         for a, b in band.windows()]
            for lo, hi in stretches:     # a windowed band's marks cross it between its windows only
                part = Rect(band.rect.x0, lo, band.rect.x1, hi) if band.vertical else \
                    Rect(lo, band.rect.y0, hi, band.rect.y1)
                assert max(x0, x1) < part.x0 or min(x0, x1) > part.x1 \
                    or max(y0, y1) <= part.y0 - BAND_GAP + 1e-6 or min(y0, y1) >= part.y1 + BAND_GAP - 1e-6
