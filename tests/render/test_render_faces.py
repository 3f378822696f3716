"""The face renderer: templates (templates/README.md) drawn onto a real canvas and read back with pdfplumber.

Each face is drawn on a page exactly the size of its bleed box, so a template position (x, y) in mm is at
pdfplumber's (bleed + x mm, bleed + y mm) from the page's top-left corner.
"""

from __future__ import annotations

import os
import shutil
import textwrap
import time
from io import BytesIO
from pathlib import Path

import pdfplumber
import pikepdf
import pytest
from PIL import Image

from pipeline import PROJECT_ROOT
from pipeline.core.errors import Severity
from pipeline.core.units import MM
from pipeline.render.faces.renderer import FaceLayout, FaceRenderer, Text
from pipeline.render.fonts import default_fonts
from pipeline.render.pdf import new_canvas

CARD = {"index": 3, "copy": 1, "copies": 2}
NAME = "contract 3 (Statue Citédor)"
TOLERANCE = 0.05   # mm


@pytest.fixture
def proj(tmp_path: Path) -> Path:
    """A scratch project: templates/game/ for the test's templates, the real common icons, an art PNG."""
    root = tmp_path / "proj"
    (root / "templates" / "game" / "art").mkdir(parents=True)
    shutil.copytree(PROJECT_ROOT / "templates" / "common" / "icons", root / "templates" / "common" / "icons")
    Image.new("RGBA", (200, 100), (200, 30, 30, 255)).save(root / "templates" / "game" / "art" / "wide.png")
    return root


def write(root: Path, name: str, source: str) -> None:
    (root / "templates" / "game" / name).write_text(textwrap.dedent(source), encoding="utf-8")


def renderer(root: Path, ink_saver: bool = False) -> FaceRenderer:
    return FaceRenderer(root, root / "templates" / "game", default_fonts(), ink_saver=ink_saver)


def lay(root: Path, template: str, ink_saver: bool = False, **values) -> tuple[FaceLayout, list]:
    return renderer(root, ink_saver).layout(template, {"card": CARD, **values}, None, NAME)


def to_pdf(*faces: FaceLayout) -> bytes:
    """One page per face, each page exactly the face's bleed box."""
    buffer = BytesIO()
    first = faces[0]
    canvas = new_canvas(buffer, (first.width + 2 * first.bleed, first.height + 2 * first.bleed), default_fonts())
    for face in faces:
        canvas.setPageSize((face.width + 2 * face.bleed, face.height + 2 * face.bleed))
        canvas.translate(face.bleed, face.bleed)
        face.draw(canvas)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def page_of(pdf: bytes, number: int = 0):
    return pdfplumber.open(BytesIO(pdf)).pages[number]


def mm_from_edge(points: float, face: FaceLayout) -> float:
    """A pdfplumber x or top (pt from the page's left/top edge) -> template mm from the trim's corner."""
    return (points - face.bleed) / MM


def near(a: float, b: float, tolerance: float = TOLERANCE) -> bool:
    return abs(a - b) <= tolerance


def find_rect(page, face: FaceLayout, x: float, y: float, w: float, h: float) -> dict | None:
    for rect in page.rects:
        if (near(mm_from_edge(rect["x0"], face), x) and near(mm_from_edge(rect["top"], face), y)
                and near(rect["width"] / MM, w) and near(rect["height"] / MM, h)):
            return rect
    return None


def embedded_fonts(pdf: bytes) -> set[str]:
    with pikepdf.open(BytesIO(pdf)) as document:
        return {str(obj.get("/BaseFont")) for obj in document.objects
                if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/Font"}


EVERY_KIND = """\
    size: [63.5, 88.9]
    bleed: 3
    vars:
      accent: "{{ '#B03A2E' if reward == 'gold' else '#1F618D' }}"
    elements:
      - rect:    {x: -3, y: -3, w: 69.5, h: 94.9, fill: "{{ accent }}"}
      - rect:    {x: 3, y: 3, w: 57.5, h: 12, r: 2, fill: "#FFFFFF", stroke: "#222", stroke_width: 0.6}
      - circle:  {cx: 10, cy: 30, r: 4.5, fill: white, stroke: black, stroke_width: 0.8}
      - polygon: {points: [[20, 26], [28, 26], [24, 34]], fill: "#333"}
      - line:    {x1: 3, y1: 20, x2: 60.5, y2: 20, stroke: "#999", stroke_width: 0.5, dash: [1, 1]}
      - text:    {x: 5, y: 4, w: 40, h: 10, text: "{{ title }}", font: title, size: 12}
      - text:    {x: 5, y: 40, w: 53.5, h: 15, text: "Gain **two** coins & more", size: 9}
      - image:   {x: 5, y: 60, w: 20, h: 20, src: art/wide.png}
      - icon:    {name: coin, x: 50, y: 5, size: 6}
      - cells:   {x: 30, y: 60, w: 24, h: 16, pattern: "##./.#.", fill: "#333", empty: "#EEE"}
      - group:
          x: 40
          y: 75
          rotate: 90
          elements:
            - rect: {x: 0, y: 0, w: 10, h: 2, fill: "#00FF00"}
    """


def test_every_element_kind_is_drawn_where_the_template_says(proj):
    write(proj, "all.yaml", EVERY_KIND)
    face, problems = lay(proj, "all.yaml", reward="gold", title="Statue Citédor")
    assert problems == []
    assert near(face.width / MM, 63.5, 1e-6) and near(face.height / MM, 88.9, 1e-6) and near(face.bleed / MM, 3)
    pdf = to_pdf(face)
    page = page_of(pdf)

    background = find_rect(page, face, -3, -3, 69.5, 94.9)
    assert background is not None and background["non_stroking_color"] == pytest.approx((0.690196, 0.227451,
                                                                                       0.180392), abs=1e-3)
    assert find_rect(page, face, 30, 60, 8, 8) is not None          # cells: 3 x 2 grid of 8 mm squares
    cells = [r for r in page.rects if near(r["width"] / MM, 8)]
    assert len(cells) == 6
    assert sum(r["non_stroking_color"] == pytest.approx((0.2, 0.2, 0.2), abs=1e-3) for r in cells) == 3
    # group: rotated 90° clockwise about (40, 75), a 10 x 2 mm bar now hangs down to the left of x = 40
    assert find_rect(page, face, 38, 75, 2, 10) is not None

    dashed = [line for line in page.lines if near(mm_from_edge(line["top"], face), 20)]
    assert len(dashed) == 1 and near(mm_from_edge(dashed[0]["x0"], face), 3)
    assert near(mm_from_edge(dashed[0]["x1"], face), 60.5)

    circle = [c for c in page.curves if near(mm_from_edge(c["x0"], face), 5.5) and near(c["width"] / MM, 9)]
    assert circle and near(mm_from_edge(circle[0]["top"], face), 25.5)
    triangle = [c for c in page.curves if near(mm_from_edge(c["x0"], face), 20) and near(c["width"] / MM, 8)]
    assert triangle and near(mm_from_edge(triangle[0]["bottom"], face), 34)

    words = page.extract_text()
    assert "Statue Citédor" in words and "Gain two coins & more" in words
    bold = {c["fontname"].split("+")[-1] for c in page.chars if c["text"] in "two"}
    assert "Lato-Bold" in bold
    assert {name.split("+")[-1] for name in embedded_fonts(pdf)} <= {"Lato-Regular", "Lato-Bold", "Lato-Black",
                                                                     "Lato-Italic", "FjallaOne-Regular"}
    # the 200 x 100 image is contained in its 20 x 20 box: 20 x 10 mm, centred vertically
    image = page.images[0]
    assert near(mm_from_edge(image["x0"], face), 5) and near(image["width"] / MM, 20)
    assert near(mm_from_edge(image["top"], face), 65) and near(image["height"] / MM, 10)
    # the coin icon (an SVG): 6 mm high, its top-left corner at (50, 5)
    coin = [c for c in page.curves if near(mm_from_edge(c["x0"], face), 50, 0.5)
            and near(mm_from_edge(c["top"], face), 5, 0.5)]
    assert coin and max(c["height"] for c in coin) / MM == pytest.approx(6 * 21.2 / 24, abs=0.2)


def test_extends_inherits_scalars_merges_vars_and_draws_the_parent_first(proj):
    (proj / "templates" / "common" / "frame.yaml").write_text(textwrap.dedent("""\
        size: [63.5, 88.9]
        bleed: 3
        vars: {a: first, b: parent, paper: "{{ theme }}"}
        elements:
          - rect: {x: 0, y: 0, w: 63.5, h: 88.9, fill: "{{ paper }}"}
        """), encoding="utf-8")
    write(proj, "child.yaml", """\
        extends: ../common/frame.yaml
        bleed: 2
        vars: {b: child, c: "{{ a }}+{{ b }}", theme: "#FF0000"}
        elements:
          - text: {x: 5, y: 5, w: 50, h: 10, text: "{{ a }} {{ b }} {{ c }}"}
        """)
    face, problems = lay(proj, "child.yaml")
    assert problems == []
    assert near(face.width / MM, 63.5) and near(face.bleed / MM, 2)
    kinds = [type(p).__name__ for p in face.primitives]
    assert kinds == ["Rect", "Text"]
    assert face.primitives[1].runs[0].text == "first child first+child"     # the child uses the frame's vars
    assert face.primitives[0].fill == (1.0, 0.0, 0.0)                        # and the frame the child's


def test_extends_outside_templates_and_cycles_are_refused(proj):
    write(proj, "escape.yaml", "extends: ../../../outside.yaml\nsize: [10, 10]\nelements: []\n")
    write(proj, "a.yaml", "extends: b.yaml\nsize: [10, 10]\nelements: []\n")
    write(proj, "b.yaml", "extends: a.yaml\nelements: []\n")
    _, problems = lay(proj, "escape.yaml")
    assert [p.rule for p in problems] == ["template"] and "leaves the templates folder" in problems[0].message
    _, problems = lay(proj, "a.yaml")
    assert any("cycle" in p.message for p in problems)


def test_an_undefined_variable_is_located_at_the_element_line_and_names_the_card(proj):
    write(proj, "typo.yaml", """\
        size: [63.5, 88.9]
        elements:
          - rect: {x: 0, y: 0, w: 10, h: 10, fill: red}

          - text: {x: 5, y: 5, w: 50, h: 10, text: "{{ plann }}"}
        """)
    face, problems = lay(proj, "typo.yaml", plan="##")
    assert len(problems) == 1
    problem = problems[0]
    assert problem.rule == "template" and problem.severity is Severity.ERROR
    assert problem.where.file == "templates/game/typo.yaml" and problem.where.row == 5   # blank lines count
    assert problem.message.startswith(f"card {NAME}: ") and "'plann' is undefined" in problem.message
    assert [type(p).__name__ for p in face.primitives] == ["Rect"]       # the rest of the face still draws


def test_template_mistakes_are_reported_once_with_their_lines(proj):
    write(proj, "bad.yaml", """\
        size: [63.5, 88.9]
        elements:
          - rectangle: {x: 0, y: 0}
          - rect: {x: 0, y: 0, w: 5, h: 5, colour: red}
          - rect: {x: 0, y: 0, w: 5 furlongs, h: 5}
          - text: {x: 0, y: 0, w: 5, h: 5, text: "{{ oops( }}"}
        """)
    render = renderer(proj)
    _, problems = render.layout("bad.yaml", {"card": CARD}, None, NAME)
    by_line = {p.where.row: p for p in problems}
    assert by_line[3].rule == "template" and "unknown element kind 'rectangle'" in by_line[3].message
    assert by_line[4].severity is Severity.WARNING and "unknown key 'colour'" in by_line[4].message
    assert by_line[5].severity is Severity.ERROR and "not a length" in by_line[5].message
    assert "jinja syntax error" in by_line[6].message
    again, more = render.layout("bad.yaml", {"card": CARD}, None, "another card")
    assert more == [] and len(again.primitives) == 1      # only the valid rect with an unknown key is left


def test_a_yaml_error_is_located(proj):
    write(proj, "broken.yaml", "size: [63.5, 88.9]\nelements:\n  - rect: {x: 0, y: 0\n")
    face, problems = lay(proj, "broken.yaml")
    assert problems and problems[0].where.row is not None and "YAML error" in problems[0].message
    assert face.primitives == ()


def test_when_false_skips_the_element(proj):
    write(proj, "when.yaml", """\
        size: [63.5, 88.9]
        elements:
          - rect: {x: 0, y: 0, w: 10, h: 10, fill: red, when: "{{ card.copies > 1 }}"}
          - rect: {x: 0, y: 0, w: 20, h: 10, fill: red, when: "{{ card.copy > 1 }}"}
          - rect: {x: 0, y: 0, w: 30, h: 10, fill: red, when: "no"}
          - rect: {x: 0, y: 0, w: 40, h: 10, fill: red, when: "{{ flag }}"}
        """)
    face, problems = lay(proj, "when.yaml", flag="")
    assert problems == []
    assert [round(p.width / MM) for p in face.primitives] == [10]


def test_long_text_shrinks_and_short_text_keeps_its_size(proj):
    write(proj, "fit.yaml", """\
        size: [63.5, 88.9]
        elements:
          - text: {x: 5, y: 5, w: 50, h: 20, text: "{{ effect }}", size: 10, min_size: 6}
        """)
    short, _ = lay(proj, "fit.yaml", effect="Draw a card.")
    long, problems = lay(proj, "fit.yaml", effect=" ".join(["Each player draws a card, then discards one."] * 6))
    assert problems == []
    page_short, page_long = page_of(to_pdf(short)), page_of(to_pdf(long))
    short_size = page_short.chars[0]["size"]
    long_size = page_long.chars[0]["size"]
    assert short_size == pytest.approx(10)
    assert 6 <= long_size < 10 and (long_size * 4) == int(long_size * 4)      # on the 0.25 pt grid
    assert max(c["x1"] for c in page_long.chars) / MM <= 55 + TOLERANCE
    assert max(c["bottom"] for c in page_long.chars) / MM <= 25 + TOLERANCE


def test_text_that_cannot_fit_at_min_size_is_an_overflow_problem(proj):
    write(proj, "overflow.yaml", """\
        size: [63.5, 88.9]
        elements:
          - rect: {x: 0, y: 0, w: 10, h: 10, fill: red}
          - text: {x: 5, y: 5, w: 30, h: 8, text: "{{ effect }}", size: 9, min_size: 7}
        """)
    face, problems = renderer(proj).layout("overflow.yaml", {"card": CARD, "effect": "word " * 80},
                                           None, NAME)
    assert [p.rule for p in problems] == ["text-overflow"]
    assert problems[0].where.file == "templates/game/overflow.yaml" and problems[0].where.row == 4
    assert NAME in problems[0].message and "7 pt" in problems[0].message
    assert any(isinstance(p, Text) and p.runs[0].size == 7 for p in face.primitives)   # still drawn


def test_alignment_and_explicit_line_breaks(proj):
    write(proj, "align.yaml", """\
        size: [63.5, 88.9]
        elements:
          - text: {x: 10, y: 10, w: 40, h: 30, text: "one\\ntwo", align: right, valign: bottom, size: 10}
        """)
    face, _ = lay(proj, "align.yaml")
    page = page_of(to_pdf(face))
    lines = {}
    for char in page.chars:
        lines.setdefault(round(char["top"]), []).append(char)
    assert len(lines) == 2
    for chars in lines.values():
        assert mm_from_edge(max(c["x1"] for c in chars), face) == pytest.approx(50, abs=0.05)
    assert mm_from_edge(max(c["bottom"] for c in page.chars), face) <= 40 + TOLERANCE


def test_inline_icon_stands_on_the_baseline_at_cap_height(proj):
    write(proj, "inline.yaml", """\
        size: [63.5, 88.9]
        elements:
          - text: {x: 5, y: 5, w: 50, h: 10, text: "Pay :coin: now", size: 10}
        """)
    face, problems = lay(proj, "inline.yaml")
    assert problems == []
    text = face.primitives[0]
    (icon,) = text.icons
    baseline = text.runs[0].y
    assert icon.y == pytest.approx(baseline)
    assert icon.height == pytest.approx(10 * 0.7165, abs=0.01)        # Lato's cap height, 716.5 / 1000
    page = page_of(to_pdf(face))
    pay = [c for c in page.chars if c["text"] == "y"][0]
    now = [c for c in page.chars if c["text"] == "n"][0]
    coin = [c for c in page.curves if pay["x1"] < c["x0"] < now["x0"]]
    assert coin, "the coin is drawn between the words"
    page_baseline = page.height - pay["matrix"][5]
    # coin.svg: an outer circle of radius 10.6 in a 24-unit viewBox, so its lowest point is 1.4 units up
    assert max(c["bottom"] for c in coin) == pytest.approx(page_baseline - 1.4 / 24 * icon.height, abs=0.05)


def test_unknown_icons_are_problems(proj):
    write(proj, "icons.yaml", """\
        size: [63.5, 88.9]
        elements:
          - icon: {name: unicorn, x: 5, y: 5, size: 5}
          - text: {x: 5, y: 20, w: 50, h: 10, text: "Gain :dragon:"}
        """)
    _, problems = lay(proj, "icons.yaml")
    assert [p.rule for p in problems] == ["icon", "icon"]
    assert "unicorn" in problems[0].message and "dragon" in problems[1].message


def test_a_game_icon_overrides_the_common_one(proj):
    (proj / "templates" / "game" / "icons").mkdir(exist_ok=True)
    Image.new("RGB", (40, 20), "blue").save(proj / "templates" / "game" / "icons" / "coin.png")
    write(proj, "icon.yaml", "size: [63.5, 88.9]\nelements:\n  - icon: {name: coin, x: 5, y: 5, size: 5}\n")
    face, _ = lay(proj, "icon.yaml")
    art = face.primitives[0]
    assert art.rel == "templates/game/icons/coin.png" and art.width == pytest.approx(2 * art.height)


def test_missing_art_draws_a_labelled_placeholder_and_is_listed(proj):
    write(proj, "art.yaml", """\
        size: [63.5, 88.9]
        elements:
          - image: {x: 5, y: 5, w: 30, h: 20, src: "art/{{ picture }}"}
        """)
    face, problems = lay(proj, "art.yaml", picture="statue.png")
    assert problems == []
    assert face.missing_art == ("templates/game/art/statue.png",)
    page = page_of(to_pdf(face))
    assert "statue.png" in page.extract_text()
    box = find_rect(page, face, 5, 5, 30, 20)
    assert box is not None and box["non_stroking_color"] == pytest.approx((0.88, 0.88, 0.88), abs=1e-3)
    assert len([line for line in page.lines if near(line["width"] / MM, 30)]) == 2        # the cross


def test_image_paths_from_data_cells_are_relative_to_the_data_folder(proj):
    data = proj / "sheets" / "pictures"
    data.mkdir(parents=True)
    Image.new("RGB", (10, 10), "green").save(data / "tree.png")
    write(proj, "cell.yaml", "size: [63.5, 88.9]\nelements:\n  - image: {x: 0, y: 0, w: 10, h: 10, src: '{{ art }}'}\n")
    face, problems = renderer(proj).layout("cell.yaml", {"card": CARD, "art": "pictures/tree.png"}, None, NAME,
                                           data_dir=proj / "sheets")
    assert problems == [] and face.missing_art == ()
    assert face.primitives[0].rel == "sheets/pictures/tree.png"


@pytest.mark.parametrize("src", ["../../../../etc/passwd", "/etc/passwd", "art/link.png", "art/nul\x00.png"])
def test_paths_leaving_the_project_are_refused(proj, tmp_path, src):
    outside = tmp_path / "secret.png"
    Image.new("RGB", (4, 4)).save(outside)
    os.symlink(outside, proj / "templates" / "game" / "art" / "link.png")
    write(proj, "escape.yaml", "size: [63.5, 88.9]\nelements:\n  - image: {x: 0, y: 0, w: 10, h: 10, src: '{{ p }}'}\n")
    face, problems = lay(proj, "escape.yaml", p=src)
    assert [p.rule for p in problems] == ["path"] and NAME in problems[0].message
    assert face.missing_art == ()
    assert "refused" in page_of(to_pdf(face)).extract_text()


def test_identical_faces_share_a_key_and_different_ones_do_not(proj):
    write(proj, "all.yaml", EVERY_KIND)
    render = renderer(proj)
    first, _ = render.layout("all.yaml", {"card": CARD, "reward": "gold", "title": "A"}, None, "one")
    same, _ = render.layout("all.yaml", {"card": dict(CARD), "reward": "gold", "title": "A"}, None, "two")
    other, _ = render.layout("all.yaml", {"card": CARD, "reward": "wood", "title": "A"}, None, "three")
    retitled, _ = render.layout("all.yaml", {"card": CARD, "reward": "gold", "title": "B"}, None, "four")
    assert first.key == same.key
    assert len({first.key, other.key, retitled.key}) == 3
    assert to_pdf(first) == to_pdf(same)


def test_the_ink_saver_variable_reaches_the_templates(proj):
    write(proj, "ink.yaml", """\
        size: [63.5, 88.9]
        elements:
          - rect: {x: 0, y: 0, w: 63.5, h: 88.9, fill: "{{ 'white' if ink_saver else '#B03A2E' }}"}
        """)
    normal, _ = lay(proj, "ink.yaml")
    saver, _ = lay(proj, "ink.yaml", ink_saver=True)
    assert normal.primitives[0].fill == pytest.approx((0.690196, 0.227451, 0.180392), abs=1e-3)
    assert saver.primitives[0].fill == (1.0, 1.0, 1.0)
    assert normal.key != saver.key


def test_repeated_icons_and_images_are_embedded_once(proj):
    write(proj, "many.yaml", """\
        size: [63.5, 88.9]
        elements:
          - icon: {name: coin, x: 5, y: 5, size: 5}
          - icon: {name: star, x: 15, y: 5, size: 5}
          - image: {x: 5, y: 20, w: 20, h: 20, src: art/wide.png}
          - text: {x: 5, y: 50, w: 50, h: 10, text: "Gain :coin: and :star:"}
        """)
    render = renderer(proj)
    faces = [render.layout("many.yaml", {"card": dict(CARD, index=i)}, None, str(i))[0] for i in range(12)]
    with pikepdf.open(BytesIO(to_pdf(*faces))) as document:
        forms = [o for o in document.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Form"]
        images = [o for o in document.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image"
                  and o.get("/ColorSpace") == "/DeviceRGB"]          # not counting the alpha masks
    assert len(forms) == 3                        # coin, star, wide.png: one form each for 12 pages
    assert len([i for i in images if i.get("/Width") == 200]) == 1


def test_draw_leaves_the_canvas_state_as_found(proj):
    write(proj, "all.yaml", EVERY_KIND)
    face, _ = lay(proj, "all.yaml", reward="gold", title="T")
    fonts = default_fonts()
    canvas = new_canvas(BytesIO(), (300, 300), fonts)
    canvas.setFont(fonts.name("title"), 13)
    canvas.setFillColorRGB(0.1, 0.2, 0.3)
    before = (canvas._fontname, canvas._fontsize, canvas._fillColorObj, len(canvas.state_stack))
    face.draw(canvas)
    assert (canvas._fontname, canvas._fontsize, canvas._fillColorObj, len(canvas.state_stack)) == before
    assert face.draw(canvas) is None              # a second draw on the same canvas reuses the forms


BENCH_CARD = """\
    size: [63, 88]
    bleed: 3
    elements:
      - rect: {x: -3, y: -3, w: 69, h: 94, fill: "{{ color }}"}
      - text: {x: 4, y: 5.9, w: 44, h: 6, text: "{{ title }}", font: bold, size: 11}
      - image: {x: 49, y: 3, w: 10, h: 10, src: art/wide.png}
      - circle: {cx: 13, cy: 21, r: 4.5, fill: white, stroke: black, stroke_width: 0.8}
      - circle: {cx: 31.5, cy: 21, r: 4.5, fill: white, stroke: black, stroke_width: 0.8}
      - circle: {cx: 50, cy: 21, r: 4.5, fill: white, stroke: black, stroke_width: 0.8}
      - text: {x: 8.5, y: 16.5, w: 9, h: 9, text: "{{ a }}", font: numbers, size: 10, align: center, valign: middle}
      - text: {x: 27, y: 16.5, w: 9, h: 9, text: "{{ b }}", font: numbers, size: 10, align: center, valign: middle}
      - text: {x: 45.5, y: 16.5, w: 9, h: 9, text: "{{ c }}", font: numbers, size: 10, align: center, valign: middle}
      - rect: {x: 4, y: 30, w: 55, h: 54, r: 2, fill: white}
      - text: {x: 6, y: 32, w: 51, h: 50, text: "{{ rules }}", size: 8, leading: 1.25}
    """


def test_laying_out_a_benchmark_card_costs_well_under_a_millisecond(proj):
    write(proj, "bench.yaml", BENCH_CARD)
    render = renderer(proj)
    words = "the health move place turn discards die allies gain return two otherwise coins roll".split()
    contexts = [{"card": dict(CARD, index=i), "color": "#8CD46B", "title": f"Wild Falcon {i}", "a": i % 13,
                 "b": (i * 7) % 13, "c": (i * 5) % 13,
                 "rules": " ".join(words[(i * k) % len(words)] for k in range(45)) + f" {i}."}
                 for i in range(400)]
    render.layout("bench.yaml", contexts[0], None, "warm-up")
    started = time.perf_counter()
    for context in contexts:
        face, problems = render.layout("bench.yaml", context, None, context["title"])
        assert problems == []
    per_card = (time.perf_counter() - started) / len(contexts)
    assert per_card < 0.001, f"{per_card * 1e6:.0f} µs per card"


def test_a_face_drawn_inside_a_form_keeps_its_icons(proj):
    """Imposition draws each distinct face once as a form: icon forms are then nested inside it."""
    write(proj, "icon.yaml", "size: [63.5, 88.9]\nelements:\n  - icon: {name: coin, x: 5, y: 5, size: 6}\n")
    face, _ = lay(proj, "icon.yaml")
    buffer = BytesIO()
    canvas = new_canvas(buffer, (face.width, face.height), default_fonts())
    canvas.beginForm("Face0", 0, 0, face.width, face.height)
    face.draw(canvas)
    canvas.endForm()
    for _ in range(2):
        canvas.doForm("Face0")
        canvas.showPage()
    canvas.save()
    page = page_of(buffer.getvalue(), 1)
    coin = [c for c in page.curves if near(c["x0"] / MM, 5, 0.5) and near(c["top"] / MM, 5, 0.5)]
    assert coin


REPEATED = """\
    size: [60, 60]
    elements:
      - group:
          x: 5
          y: 5
          repeat: "{{ n }}"
          dy: 10
          var: row
          elements:
            - group:
                repeat: "{{ n }}"
                dx: 10
                var: col
                elements:
                  - rect: {x: 0, y: 0, w: 10, h: 10, fill: "{{ '#333333' if (row + col) % 2 else '#EEEEEE' }}"}
                  - text: {x: 0, y: 2, w: 10, h: 6, text: "{{ 'abcdefgh'[col] }}{{ row + 1 }}", align: center}
      - group: {x: 0, y: 0, elements: [{text: {x: 0, y: 50, w: 60, h: 8, text: "{{ i }}"}}]}
    """


def test_repeated_groups_place_each_copy_and_expose_its_index(proj):
    write(proj, "grid.yaml", REPEATED)
    face, problems = lay(proj, "grid.yaml", n=4, i="column i")
    assert problems == []
    page = page_of(to_pdf(face))
    cells = sorted((round(mm_from_edge(r["x0"], face), 2), round(mm_from_edge(r["top"], face), 2))
                   for r in page.rects)
    assert cells == [(5 + 10 * c, 5 + 10 * r) for c in range(4) for r in range(4)]
    words = {w["text"]: (round(mm_from_edge(w["x0"], face)), round(mm_from_edge(w["top"], face)))
             for w in page.extract_words()}
    assert words["a1"][1] < words["a2"][1] and words["a1"][0] < words["b1"][0] < words["d1"][0]
    assert "d4" in words and "e1" not in words
    assert "column" in words           # a plain group does not hide a column called `i`


def test_a_bad_repeat_count_is_a_located_problem(proj):
    write(proj, "bad.yaml", """\
        size: [20, 20]
        elements:
          - group: {repeat: -2, elements: [{rect: {x: 0, y: 0, w: 1, h: 1, fill: black}}]}
        """)
    _, problems = lay(proj, "bad.yaml")
    assert len(problems) == 1 and "group.repeat" in problems[0].message and problems[0].where.row == 3
