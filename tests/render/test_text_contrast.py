"""Every printed text of every face reads against its ground (issue 29): WCAG 2's contrast ratio of the text's
fill colour and the colour printed under it, 4.5:1, or 3:1 from 14 pt up (pipeline/render/colours.py).

The measure is read back from a PDF: each distinct face of each game (cards and their backs, tokens, boards,
dice faces, write-on pages; normal and ink-saver; with its edition mark) is drawn by the real drawing code
on a page of its own, pdfplumber reads every character's colour, size and baseline, and the same page,
its text operators taken out (pikepdf), is rendered by pdfium: the ground of a character is the pixels at
points over the band where its letters have ink (baseline to x-height), its ratio the worst of them. So a
word half over a dark band counts as over it, and text over an image or an icon is measured like any other.

The generic checker of the render layer (pipeline/render/faces/contrast.py, which the edition mark uses to
choose its grey) reads the same grounds from a face's primitives: its own tests are here too.
"""

from __future__ import annotations

import math
from io import BytesIO

import pdfplumber
import pikepdf
import pypdfium2 as pdfium
import pytest

from pipeline.core.units import MM
from pipeline.games import REGISTRY
from pipeline.render.colours import contrast, ink_on, luminance, needed, readable, shade, tint
from pipeline.render.faces.art import Art
from pipeline.render.faces.contrast import Grounds, face_readings, readings
from pipeline.render.faces.edition_mark import SIZE as MARK_SIZE
from pipeline.render.faces.primitives import Circle, Group, Polygon, Rect, Text
from pipeline.render.faces.renderer import FaceLayout
from pipeline.render.faces.text import Run
from pipeline.render.fonts import default_fonts
from tests.render.test_safe_zone import face_pdf, laid_out_faces

DPI = 150
X_HEIGHT = 0.5          # of the size: where a character has ink, from its baseline up
TOLERANCE = 0.02        # the render's 8-bit channels
SHOWING = {"Tj", "TJ", "'", '"'}


def _strip_text(pdf_bytes: bytes) -> bytes:
    """The PDF without the characters of its pages: every text-showing operator (Tj TJ ' ") taken out of the
    content streams; the rest stays, the colours set inside a BT…ET that later shapes paint with too (forms
    are left as drawn)."""
    with pikepdf.open(BytesIO(pdf_bytes)) as pdf:
        for page in pdf.pages:
            kept = [(operands, operator) for operands, operator in pikepdf.parse_content_stream(page)
                    if str(operator) not in SHOWING]
            page.Contents = pdf.make_stream(pikepdf.unparse_content_stream(kept))
        out = BytesIO()
        pdf.save(out, deterministic_id=True)
        return out.getvalue()


def _ink_points(char: dict, page_height: float) -> tuple[float, list[tuple[float, float]]]:
    """A character's size (its box across its baseline, as pdfplumber measures an upright one) and the points
    (from the page's top-left, points) where its letter has ink: three along its advance, at 0.1 and
    X_HEIGHT of its size above its baseline, in its own direction (a turned text too)."""
    a, b, c, d, e, f = char["matrix"]
    along, up = math.hypot(a, b) or 1.0, math.hypot(c, d) or 1.0
    a, b, c, d = a / along, b / along, c / up, d / up
    width, height = char["x1"] - char["x0"], char["bottom"] - char["top"]
    length, size = abs(a) * width + abs(b) * height, abs(d) * height + abs(c) * width
    points = []
    for i in range(3):
        u = length * (i + 0.5) / 3
        for v in (0.1 * size, X_HEIGHT * size):
            points.append((e + u * a + v * c, page_height - (f + u * b + v * d)))
    return size, points


def measured(faces) -> list[tuple]:
    """(face spec, character, its size, its colour, the worst ground under it, the ratio there) for every
    printed character of the faces, read back from their PDF."""
    drawn = face_pdf(faces)
    with pdfplumber.open(BytesIO(drawn)) as plumbed:
        chars = [[c for c in page.chars if c["text"].strip()] for page in plumbed.pages]
        heights = [page.height for page in plumbed.pages]
    bare = pdfium.PdfDocument(_strip_text(drawn))
    found = []
    try:
        scale = DPI / 72.0
        for (spec, _), page_chars, height, page in zip(faces, chars, heights, bare):
            if not page_chars:
                continue
            image = page.render(scale=scale).to_pil().convert("RGB")
            for char in page_chars:
                colour = tuple(float(v) for v in char["non_stroking_color"])
                size, points = _ink_points(char, height)
                grounds = [tuple(v / 255 for v in image.getpixel((min(image.width - 1, max(0, int(x * scale))),
                                                                   min(image.height - 1, max(0, int(y * scale))))))
                           for x, y in points]
                ground = min(grounds, key=lambda g: contrast(colour, g))
                found.append((spec, char, size, colour, ground, contrast(colour, ground)))
    finally:
        bare.close()
    return found


@pytest.mark.parametrize("ink_saver", (False, True), ids=["normal", "ink-saver"])
@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_every_character_of_every_face_reads_on_its_ground(game_id, ink_saver):
    faces = [*laid_out_faces(game_id, ink_saver, marked=True, version="v1.0"),
             *laid_out_faces(game_id, ink_saver, pages=True, marked=True, version="v1.0")]
    rows = measured(faces)
    assert len(rows) > 100, game_id
    marks = [row for row in rows if abs(row[2] - MARK_SIZE) < 0.01 and len(set(row[3])) == 1]
    assert len({id(row[0]) for row in marks}) >= len(faces) // 2, "most faces carry an edition mark"
    found = {}
    for spec, char, size, colour, ground, ratio in rows:
        if ratio < needed(size) - TOLERANCE:
            key = (spec.template, colour, ground, round(size, 1))
            found.setdefault(key, f"{spec.template} {spec.name}: {char['text']!r} at {size:.1f} pt, "
                                  f"{ratio:.2f}:1 (text {colour}, ground {tuple(round(g, 3) for g in ground)})")
    assert not found, f"{len(found)} colours of text that do not read:\n" + "\n".join(found.values())


# --- the generic checker, on faces made for the purpose ---------------------------------------------------------

def test_wcag_contrast_and_luminance():
    assert contrast("#000000", "#FFFFFF") == pytest.approx(21.0)
    assert contrast((1, 1, 1), (1, 1, 1)) == pytest.approx(1.0)
    assert contrast("#767676", "#FFFFFF") == pytest.approx(4.54, abs=0.01)
    assert luminance("#808080") == pytest.approx(0.2159, abs=1e-3)
    assert needed(13.9) == 4.5 and needed(14) == 3.0


def test_readable_darkens_a_colour_only_as_far_as_it_must():
    stade = "#C07A12"                                   # Challengers' Stade: 3.48:1 on white before
    ink = readable(stade)
    assert contrast(ink, "#FFFFFF") >= 4.5 > contrast(stade, "#FFFFFF")
    step = tuple(int(ink[i:i + 2], 16) for i in (1, 3, 5))
    assert all(abs(a / b - step[0] / 0xC0) < 0.03 for a, b in zip(step, (0xC0, 0x7A, 0x12)))   # the same hue
    assert readable("#1F5FBF") == "#1F5FBF"             # already reads: unchanged
    assert contrast(readable("#5E6B7A", "#1B2A4A"), "#1B2A4A") >= 4.5    # on a dark ground it lightens
    assert contrast(readable("#C07A12", "#FFFFFF", 3.0), "#FFFFFF") >= 3.0
    for colour in ("#5E6B7A", "#34479E", "#1D7484", "#8C3344", "#C07A12", "#3A7536", "#A13A86", "#555B61"):
        assert contrast(shade(colour), tint(colour)) >= 4.5, colour     # a set's name on its own wash
        assert contrast(ink_on(colour), colour) == max(contrast("#FFFFFF", colour), contrast("#1E1E1E", colour))


def _face(*primitives) -> FaceLayout:
    return FaceLayout("k", 60 * MM, 40 * MM, 0.0, (), tuple(primitives))


def _text(colour, x_mm: float, y_mm: float, words: str = "Texte", size: float = 9.0) -> Text:
    return Text(colour, (Run(default_fonts().name("body"), size, x_mm * MM, y_mm * MM, words),), (), size)


WHITE, NAVY, GREY = (1.0, 1.0, 1.0), (0.133, 0.188, 0.29), (0.6, 0.6, 0.6)


def test_readings_take_the_last_shape_painted_under_the_text():
    band = Rect(0, 20 * MM, 60 * MM, 20 * MM, 2 * MM, NAVY, None, 0, None)
    face = _face(band, _text(WHITE, 5, 30), _text(NAVY, 5, 10), _text(GREY, 5, 5))
    on_band, on_paper, grey = readings(face.primitives)
    assert on_band.ground == NAVY and on_band.ratio == pytest.approx(contrast(WHITE, NAVY)) and on_band.reads
    assert on_paper.ground == WHITE and on_paper.reads
    assert grey.ratio == pytest.approx(2.85, abs=0.01) and not grey.reads


def test_a_run_half_over_a_band_counts_its_worst_ground():
    band = Rect(20 * MM, 0, 40 * MM, 40 * MM, 0, NAVY, None, 0, None)
    (reading,) = readings((band, _text((0.1, 0.1, 0.1), 10, 20, "Une phrase assez longue")))
    assert reading.ground == NAVY and not reading.reads


def test_shapes_are_read_in_their_group_turned_and_moved():
    disc = Circle(0, 0, 6 * MM, NAVY, None, 0)
    triangle = Polygon(((-20 * MM, -20 * MM), (20 * MM, -20 * MM), (0, 20 * MM)), (0.9, 0.2, 0.2), None, 0)
    group = Group(30 * MM, 20 * MM, 90.0, (triangle, disc, _text(WHITE, -2, -1, "7", 12)))
    (reading,) = readings((group,))
    assert reading.ground == NAVY
    assert 24 * MM < reading.box[0] < 32 * MM and 14 * MM < reading.box[1] < 22 * MM     # turned a quarter


def test_text_over_an_image_is_measured_on_a_render():
    art = Art("templates/common/icons/coin.svg", default_fonts().name("body"), 0, 0, 40 * MM, 40 * MM)
    face = FaceLayout("k", 60 * MM, 40 * MM, 0.0, (), (art, _text((0.1, 0.1, 0.1), 12, 18, "5", 16)),
                      project_root=__import__("pipeline").PROJECT_ROOT)
    assert readings(face.primitives)[0].ground is None
    (rendered,) = face_readings(face, default_fonts())
    assert rendered.ground is not None and rendered.ratio == pytest.approx(contrast((0.1, 0.1, 0.1), rendered.ground))


def test_grounds_under_a_box_list_each_colour_once():
    band = Rect(0, 0, 30 * MM, 40 * MM, 0, NAVY, None, 0, None)
    assert Grounds((band,)).under((20 * MM, 5 * MM, 40 * MM, 7 * MM)) == [NAVY, WHITE]


def test_faces_that_differ_in_colour_only_each_get_their_own_grounds():
    """The points under a box are read once per geometry (contrast.py _shown): a second face with the same
    shapes in other colours gets its colours, in the order the points meet them, not the first face's."""
    box = (20 * MM, 5 * MM, 40 * MM, 9 * MM)

    def face(band, panel):
        return (Rect(0, 0, 30 * MM, 40 * MM, 0, band, None, 0, None),
                Rect(25 * MM, 7 * MM, 30 * MM, 10 * MM, 2 * MM, panel, (0.0, 0.0, 0.0), 0.5, None))
    first = Grounds(face(NAVY, (0.9, 0.9, 0.2))).under(box)
    second = Grounds(face((0.7, 0.1, 0.1), (0.2, 0.8, 0.3))).under(box)
    assert first == [NAVY, (0.0, 0.0, 0.0), (0.9, 0.9, 0.2), WHITE], first
    assert second == [(0.7, 0.1, 0.1), (0.0, 0.0, 0.0), (0.2, 0.8, 0.3), WHITE], second
