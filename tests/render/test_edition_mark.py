"""The edition mark (issue 21): measured on faces and pages read back from built PDFs, its id following the
card's data and nothing else, --no-mark, template anchors, the ids in the print guide and ids.md."""

from __future__ import annotations

import json
from pathlib import Path

import pdfplumber
import pytest

from pipeline.build import build, edition_of
from pipeline.core.config import BuildConfig
from pipeline.core.edition import card_id, data_id, mark_text, short_ids
from pipeline.core.errors import Report
from pipeline.core.units import MM
from pipeline.games import REGISTRY, load_game
from pipeline.kinds.prepare import identified
from pipeline.render.colours import contrast
from pipeline.render.faces.edition_mark import (GAP_MM, MARK_RATIO, PAGE_GREY, SIZE, Edition, mark_grey,
                                                 safe_margin_mm, stamp)
from pipeline.render.faces.primitives import Rect
from pipeline.render.faces.layout import TemplateLoader
from pipeline.render.faces.renderer import FaceLayout
from pipeline.render.fonts import default_fonts
from pipeline.validate import load_records
from tests.conftest import copy_project, edit_workbook, set_cell
from tests.render.test_safe_zone import laid_out_faces, measured_pages

VERSION = "v9.9-test"
TOLERANCE_MM = 0.05


def _build(root: Path, **options) -> Report:
    config = BuildConfig(root=root, games=("buildit",), papers=("a4",), formats=("pnp", "print"),
                         only=("cities",), **{"version": VERSION, **options})
    report, built = build(config)
    assert built == ["buildit"], [str(p) for p in report.problems]
    return report


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """Build It's City cards (home sheet and print-shop faces) built with the mark, version VERSION."""
    root = copy_project(tmp_path_factory.mktemp("marked"))
    _build(root)
    return root


def _marks(page) -> list[dict]:
    """The mark's characters on a page: the only ones set in SIZE pt, in a grey."""
    return [c for c in page.chars if abs(c["size"] - SIZE) < 0.01 and len(set(c["non_stroking_color"])) == 1]


def _text(chars) -> str:
    return "".join(c["text"] for c in sorted(chars, key=lambda c: c["x0"]))


def _city_ids(root: Path) -> dict[str, str]:
    """City name -> the short id its mark should print, computed from the records as the build does."""
    game = load_game("buildit", root)
    records = load_records(game, root, Report())
    components = game.components(records)
    edition = edition_of(game, components, BuildConfig(root=root, games=("buildit",), version=VERSION))
    cities = next(c for c in components if c.id == "cities")
    return {face.context["name"]: edition.short(face.context) for face in cities.fronts}


def test_every_city_face_carries_its_mark_inside_the_safe_zone(built):
    """Print-shop faces (page = trim + 3 mm bleed): the mark is 5 pt, grey, reads title · version · id
    (title · version on a back), and no character of it comes closer to the trim than the safe margin."""
    ids = _city_ids(built)
    with pdfplumber.open(built / "output/buildit/print/cities.pdf") as pdf:
        seen = set()
        for page in pdf.pages:
            chars = _marks(page)
            assert chars, page.page_number
            assert SIZE >= 5.0
            width, height = page.width / MM - 6, page.height / MM - 6        # the trim, inside 3 mm of bleed
            margin = safe_margin_mm(width, height)
            for c in chars:
                left, right = c["x0"] / MM - 3, width - (c["x1"] / MM - 3)
                top, bottom = c["top"] / MM - 3, height - (c["bottom"] / MM - 3)
                assert min(left, right, top, bottom) >= margin - TOLERANCE_MM, (page.page_number, c["text"])
            seen.add(_text(chars))
    # each city's own id on its front; the backs, the deck's, say the game and the version only
    assert seen == {mark_text("Build It", VERSION, short) for short in ids.values()} | {f"Build It · {VERSION}"}
    assert len(set(ids.values())) == len(ids) == 5


def test_home_sheets_carry_the_page_mark_in_their_header(built):
    with pdfplumber.open(built / "output/buildit/pnp-a4/cities.pdf") as pdf:
        for page in pdf.pages:
            header = [c for c in _marks(page) if c["top"] < 20 * MM]
            assert _text(header) == f"Build It · {VERSION}", page.page_number
            assert page.width - max(c["x1"] for c in header) >= 3 * MM


def test_the_id_follows_the_cards_data_and_nothing_else(tmp_path):
    root = copy_project(tmp_path)
    before = _city_ids(root)
    edit_workbook(root / "sheets/buildit.xlsx", lambda wb: set_cell(wb["cities"], "name", "Diagonia", "text",
                                                                   "Un autre texte."))
    after = _city_ids(root)
    changed = {name for name in before if before[name] != after[name]}
    assert changed == {"Diagonia"}
    frame = root / "templates/buildit/frame.yaml"                  # a template change: no id changes
    frame.write_text(frame.read_text().replace("elements:", "vars: {unused_here: 1}\nelements:", 1))
    assert _city_ids(root) == after


def test_no_mark_and_the_version_reach_the_files(tmp_path):
    root = copy_project(tmp_path)
    _build(root, mark=False)
    for name in ("print/cities.pdf", "pnp-a4/cities.pdf"):
        with pdfplumber.open(root / "output/buildit" / name) as pdf:
            assert not any(_marks(page) for page in pdf.pages), name
    data = json.loads((root / "output/buildit/report.json").read_text())
    assert data["edition"] is None and not (root / "output/buildit/ids.md").exists()
    _build(root, version="v2")                                     # the cache must not keep the unmarked files
    with pdfplumber.open(root / "output/buildit/pnp-a4/cities.pdf") as pdf:
        assert _text([c for c in _marks(pdf.pages[0]) if c["top"] < 20 * MM]) == "Build It · v2"


def test_the_guide_and_ids_md_name_every_card(built):
    ids = _city_ids(built)
    data = json.loads((built / "output/buildit/report.json").read_text())
    edition = data["edition"]
    assert edition["version"] == VERSION and edition["path"] == "output/buildit/ids.md"
    listed = (built / edition["path"]).read_text()
    for name, short in ids.items():
        assert f"| Cartes Ville | {name} | cities, ligne " in listed and f"`{short}`" in listed
    assert {row["id"] for row in edition["cards"] if row["component"] == "Cartes Ville"} == set(ids.values())
    guide = (built / "output/buildit/guide-a4.md").read_text()
    assert "Marque d'édition" in guide and "[ids.md](ids.md)" in guide and f"« carte {edition['cards'][0]['id']} »" in guide


def _face(width_mm: float, height_mm: float, anchor: str = "bottom", inset: float = 0.0) -> FaceLayout:
    return FaceLayout("k", width_mm * MM, height_mm * MM, 0.0, (), (), mark_anchor=anchor, mark_inset=inset)


@pytest.mark.parametrize("anchor", ("bottom", "bottom-left", "bottom-right", "top", "top-left", "top-right"))
def test_anchors_put_the_mark_against_their_edge_and_corner(anchor):
    fonts = default_fonts()
    face = stamp(_face(63.5, 88.9, anchor), ("Build It · v1 · 3f2a",), fonts)
    runs = face.primitives[-1].runs
    x, y = runs[0].x / MM, runs[0].y / MM
    assert (y < 10) == anchor.startswith("bottom") and (y > 80) == anchor.startswith("top")
    assert {"left": x < 4, "right": x > 30}.get(anchor.partition("-")[2], 15 < x < 30)
    assert face.key != "k" and runs[0].size == SIZE


def test_a_narrow_face_gets_a_shorter_mark_and_a_tiny_token_none():
    fonts = default_fonts()
    edition = Edition("NBA Deck-Building", "v0.1-12-gabcdef0-dirty", {})
    texts = edition.texts({"name": "x"})
    assert "".join(r.text for r in stamp(_face(63.5, 88.9), texts, fonts).primitives[-1].runs) == texts[0]
    assert "".join(r.text for r in stamp(_face(18, 18), texts, fonts).primitives[-1].runs) == texts[2]
    assert stamp(_face(7, 7), texts, fonts).primitives == ()


def test_a_template_anchor_is_read_inherited_and_checked(tmp_path):
    folder = tmp_path / "templates" / "g"
    folder.mkdir(parents=True)
    (folder / "parent.yaml").write_text("size: [40, 60]\nedition_mark: {anchor: top-left, inset: 5}\nelements: []\n")
    (folder / "child.yaml").write_text("extends: parent.yaml\nelements: []\n")
    (folder / "bad.yaml").write_text("size: [40, 60]\nedition_mark: {anchor: middle}\nelements: []\n")
    loader = TemplateLoader(tmp_path, (tmp_path / "templates",))
    child, problems = loader.load(folder / "child.yaml")
    assert child.mark == ("top-left", 5.0) and not problems
    bad, problems = loader.load(folder / "bad.yaml")
    assert bad.mark is None
    assert [str(p) for p in problems] == ["templates/g/bad.yaml › line 2: edition_mark: anchor 'middle' is not one "
                                          "of bottom, bottom-left, bottom-right, top, top-left, top-right [template]"]


def test_short_ids_cover_every_marked_face_of_a_game():
    from pipeline import PROJECT_ROOT

    game = load_game("buildit", PROJECT_ROOT)
    components = game.components(load_records(game, PROJECT_ROOT, Report()))
    edition = edition_of(game, components, BuildConfig(root=PROJECT_ROOT, games=("buildit",), version="x"))
    full = {card_id(face.context) for c in components for face in identified(c)}
    assert set(edition.ids) == full and edition.ids == short_ids(full)
    kinds = {type(c).__name__ for c in components if identified(c)}
    assert kinds == {"CardDeck", "BoardSpec", "PageSpec"}           # no dice face, no rulebook figure
    assert edition_of(game, components, BuildConfig(root=PROJECT_ROOT, games=("buildit",), mark=False)) is None


def test_a_cards_id_leaves_out_its_place_in_the_deck():
    """edition.card_id: copies share an id, a card inserted before another changes none; the count of copies
    (a cell of the card's row) is its data."""
    first = {"name": "Lina", "atk": 4, "card": {"index": 1, "copy": 1, "copies": 2}}
    assert card_id(first) == card_id({**first, "card": {"index": 7, "copy": 2, "copies": 2}})
    assert card_id(first) != card_id({**first, "card": {"index": 1, "copy": 1, "copies": 3}})
    assert card_id(first) != card_id({**first, "atk": 5}) and card_id({"x": 1}) == data_id({"x": 1})


def _gap_mm(a: dict, b: dict) -> float:
    """The distance between two characters' boxes, mm (0 where they overlap)."""
    dx = max(0.0, max(a["x0"], b["x0"]) - min(a["x1"], b["x1"]))
    dy = max(0.0, max(a["top"], b["top"]) - min(a["bottom"], b["bottom"]))
    return (dx * dx + dy * dy) ** 0.5 / MM


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_the_mark_keeps_a_millimetre_from_every_other_character_of_any_face(game_id):
    """Every distinct face of every game, marked as a build marks it for a release ("v1.0") and read back from
    a PDF: no character of the mark (the SIZE pt grey ones) comes within GAP_MM of a character of the face's
    own text (0.1 mm from the City title in Build It, 0.4–0.7 mm from NBA text before issue 29)."""
    faces = [*laid_out_faces(game_id, False, marked=True, version="v1.0"),
             *laid_out_faces(game_id, False, pages=True, marked=True, version="v1.0")]
    found, marked = [], 0
    with measured_pages(faces) as pdf:
        for (spec, _), page in zip(faces, pdf.pages):
            chars = [c for c in page.chars if c["text"].strip()]
            mark = _marks(page)
            marked += bool(mark)
            others = [c for c in chars if c not in mark]
            closest = min(((_gap_mm(m, o), o["text"]) for m in mark for o in others), default=(99.0, ""))
            if closest[0] < GAP_MM - TOLERANCE_MM:
                found.append(f"{spec.template} {spec.name}: the mark {closest[0]:.2f} mm from {closest[1]!r}")
    assert marked >= len(faces) // 2, (marked, len(faces))
    assert not found, "\n".join(found)


def test_the_mark_takes_the_lightest_grey_that_reads_on_its_ground():
    light, paper, yellow, maroon = (0.95, 0.93, 0.88), (1.0, 1.0, 1.0), (0.91, 0.64, 0.09), (0.47, 0.09, 0.16)
    for ground in (paper, light, yellow, maroon):
        grey = mark_grey([ground])
        assert grey[0] == grey[1] == grey[2] and contrast(grey, ground) >= MARK_RATIO >= 4.5
        step = tuple(min(1.0, max(0.0, g + (1 if grey[0] < 0.5 or ground != maroon else -1) / 255)) for g in grey)
        assert contrast(step, ground) < MARK_RATIO or step == grey            # the lightest (darkest) that does
    assert mark_grey([maroon])[0] > 0.5 > mark_grey([yellow])[0]           # light on a dark ground
    assert mark_grey([paper, (0.1, 0.2, 0.4)]) is None                     # across a dark band and the paper
    assert mark_grey([paper, None]) is None                                # over an image
    assert PAGE_GREY == mark_grey([paper]) and contrast(PAGE_GREY, paper) >= MARK_RATIO


def test_a_mark_over_a_pattern_stands_on_a_plate_of_its_own():
    """Stripes under every place: no one grey reads on both colours, so the mark gets a plate of the
    lightest one (the Fightball field cards, dotted white on red)."""
    red = (0.75, 0.22, 0.17)
    stripes = tuple(Rect(0, y * MM, 63.5 * MM, 1.2 * MM, 0, (1.0, 1.0, 1.0), None, 0, None)
                    for y in range(-3, 92, 2))
    face = FaceLayout("k", 63.5 * MM, 88.9 * MM, 0.0, (), (Rect(0, 0, 63.5 * MM, 88.9 * MM, 0, red, None, 0, None),
                                                            *stripes))
    marked = stamp(face, ("Fightball · v1 · 3f2a",), default_fonts())
    plate, text = marked.primitives[-2:]
    assert isinstance(plate, Rect) and plate.fill == (1.0, 1.0, 1.0)
    x0, y0 = text.runs[0].x, text.runs[0].y
    assert plate.x < x0 and plate.y < y0 and contrast(text.colour, plate.fill) >= MARK_RATIO


def test_the_mark_grey_is_the_first_level_that_reads_as_a_walk_over_all_256_would_find_it():
    """edition_mark._grey tries a few levels (bisection on each ground) where it once walked all 256: the same
    grey, or none, on 2,000 seeded sets of grounds (greys, colours, black and white among them)."""
    import random

    from pipeline.render.faces import edition_mark

    def walked(grounds):
        dark = min(contrast((0, 0, 0), g) for g in grounds) >= min(contrast((1, 1, 1), g) for g in grounds)
        levels = range(255, -1, -1) if dark else range(256)
        return next(((v / 255,) * 3 for v in levels
                     if min(contrast((v / 255,) * 3, g) for g in grounds) >= MARK_RATIO), None)

    rng, nones = random.Random(2026), 0
    for _ in range(2_000):
        count = rng.randint(1, 5)
        if rng.random() < 0.2:
            grounds = tuple(((v := rng.randint(0, 255) / 255), v, v) for _ in range(count))
        else:
            grounds = tuple(tuple(rng.choice((rng.random(), rng.randint(0, 255) / 255, 0.0, 1.0)) for _ in range(3))
                            for _ in range(count))
        expected = walked(grounds)
        assert edition_mark._grey.__wrapped__(grounds) == expected, grounds
        nones += expected is None
    assert 100 < nones < 1_900             # both outcomes are exercised
