"""Fightball's printed faces, measured (shared/games/fightball.md §1.2-1.3): the components built from the real
workbook, each distinct face drawn to a PDF page and read back with pdfplumber (characters, their colours,
the paths around them), never the layout objects."""

from __future__ import annotations

from collections import Counter

import pytest

from pipeline.core.units import MM
from pipeline.data.specs import BoardSpec, CardDeck, PageSpec
from pipeline.games.fightball.components import POKER, ZONE_COLOURS
from pipeline.games.fightball.engine.data import LAYOUT
from tests.render.test_safe_zone import game_components, laid_out_faces, measured_pages

TEMPLATES_PER_TEAM = {"player.yaml": 16, "ball.yaml": 9, "shot.yaml": 10, "effect.yaml": 8, "buzz.yaml": 1}
FIELD_PER_TEAM = {"B": 5, "R": 3, "G": 4}
MANIFEST_OF_TEMPLATE = {"player.yaml": "player", "ball.yaml": "ball", "shot.yaml": "shot", "effect.yaml": "effect",
                        "buzz.yaml": "buzz", "field.yaml": "field"}


@pytest.fixture(scope="module")
def parts():
    game, components = game_components("fightball")
    return components


@pytest.fixture(scope="module")
def drawn():
    """(spec, face, pdfplumber page) for every distinct face Fightball prints, normal colours."""
    faces = list(laid_out_faces("fightball", False))
    pdf = measured_pages(faces)
    return [(spec, face, page) for (spec, face), page in zip(faces, pdf.pages)]


def rgb(hex_colour: str) -> tuple[float, float, float]:
    return tuple(int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5))


def same_colour(pdf_colour, hex_colour: str) -> bool:
    return pdf_colour is not None and len(pdf_colour) == 3 and all(
        abs(a - b) < 0.01 for a, b in zip(pdf_colour, rgb(hex_colour)))


def page_text(page) -> str:
    return "".join(c["text"] for c in page.chars)


def shape_around(page, char) -> tuple[str, dict] | None:
    """The smallest closed path around a character's centre: ("circle", path) if drawn only with curves,
    ("diamond", path) if four straight sides, else ("other", path)."""
    x, y = (char["x0"] + char["x1"]) / 2, (char["top"] + char["bottom"]) / 2
    around = [c for c in page.curves if c["x0"] < x < c["x1"] and c["top"] < y < c["bottom"]]
    if not around:
        return None
    best = min(around, key=lambda c: (c["x1"] - c["x0"]) * (c["bottom"] - c["top"]))
    ops = [segment[0] for segment in best.get("path", [])]
    if ops and ops[0] == "m" and set(ops[1:]) <= {"c", "h"} and ops.count("c") == 4:
        return "circle", best
    if ops and ops[0] == "m" and ops.count("l") == 3 and "c" not in ops:
        return "diamond", best
    return "other", best


# --- decks: counts ------------------------------------------------------------------------------------------------

def test_each_team_has_one_deck_of_44_cards_and_one_field_of_12(parts):
    decks = {c.id: c for c in parts if isinstance(c, CardDeck)}
    teams = sorted(d.removeprefix("deck-") for d in decks if d.startswith("deck-"))
    assert teams == ["eclairs", "forges", "mirages", "remparts"]
    for team in teams:
        deck, field = decks[f"deck-{team}"], decks[f"field-{team}"]
        assert len(deck.fronts) == len(deck.backs) == 44, team
        assert dict(Counter(f.template for f in deck.fronts)) == TEMPLATES_PER_TEAM, team
        assert deck.fronts[-1].template == "buzz.yaml"                       # the deck's last card
        assert len(field.fronts) == len(field.backs) == 12
        assert dict(Counter(f.context["colour"]["code"] for f in field.fronts)) == FIELD_PER_TEAM
        assert all(f.context["team"]["id"] == team for f in deck.fronts + field.fronts)
        assert deck.size_mm == field.size_mm == POKER


def test_card_counts_match_the_components_sheet(parts):
    from pipeline import PROJECT_ROOT
    from pipeline.core.errors import Report
    from pipeline.games import load_game
    from pipeline.validate import load_records

    records = load_records(load_game("fightball", PROJECT_ROOT), PROJECT_ROOT, Report())
    announced = {r["component"]: r["count"] for r in records["components"]}
    printed = Counter(MANIFEST_OF_TEMPLATE[f.template] for c in parts if isinstance(c, CardDeck) for f in c.fronts)
    for component, count in printed.items():
        assert announced[component] == count, component
    assert announced["team"] == sum(1 for c in parts if isinstance(c, CardDeck) and c.id.startswith("deck-"))


def test_per_team_backs_differ_and_every_card_of_a_deck_shares_its_back(parts, drawn):
    decks = [c for c in parts if isinstance(c, CardDeck)]
    backs = {c.id: {b.name for b in c.backs} for c in decks}
    assert all(len(names) == 1 for names in backs.values()), backs
    assert len({next(iter(names)) for names in backs.values()}) == len(decks)      # 8 different backs
    # drawn: each team's deck back is filled with its own colour and names the team
    deck_backs = [(spec, page) for spec, _, page in drawn if spec.template == "back.yaml"]
    assert len(deck_backs) == 4
    fills = set()
    for spec, page in deck_backs:
        team = spec.context["team"]
        assert team["name"].upper() in page_text(page), spec.name
        background = max(page.rects, key=lambda r: r["width"] * r["height"])
        assert same_colour(background["non_stroking_color"], team["colour"]), spec.name
        fills.add(team["colour"])
    assert len(fills) == 4


# --- faces: what is printed ------------------------------------------------------------------------------------------

def test_every_deck_face_and_back_shows_its_team_name(drawn):
    checked: Counter = Counter()
    for spec, _, page in drawn:
        if spec.template in TEMPLATES_PER_TEAM or spec.template in ("back.yaml", "field-back.yaml"):
            assert spec.context["team"]["name"].upper() in page_text(page), spec.name
            checked[spec.context["team"]["id"], spec.template] += 1
    for team in ("eclairs", "forges", "remparts", "mirages"):   # distinct faces (copies are drawn once)
        assert checked[team, "player.yaml"] == 8 and checked[team, "ball.yaml"] == 3, team
        assert checked[team, "shot.yaml"] >= 3 and checked[team, "effect.yaml"] >= 3, team
        assert checked[team, "buzz.yaml"] == checked[team, "back.yaml"] == checked[team, "field-back.yaml"] == 1


def test_player_values_sit_in_circles_and_diamonds_beside_their_colour_letter(drawn):
    players = [(spec, page) for spec, _, page in drawn if spec.template == "player.yaml"]
    assert len(players) == 4 * 8
    for spec, page in players:
        assert spec.context["name"] in page_text(page)
        digits = sorted((c for c in page.chars if c["text"].isdigit()), key=lambda c: (round(c["top"]), c["x0"]))
        assert len(digits) == 6, spec.name
        for k, value in enumerate(spec.context["values"]):
            attack, defence = digits[2 * k], digits[2 * k + 1]
            assert (attack["text"], defence["text"]) == (str(value["atk"]), str(value["def"])), spec.name
            circle, diamond = shape_around(page, attack), shape_around(page, defence)
            assert circle[0] == "circle" and diamond[0] == "diamond", (spec.name, k)
            assert same_colour(circle[1]["stroking_color"], value["hex"])
            assert same_colour(diamond[1]["stroking_color"], value["hex"])
            # the colour's letter on the same row, left of the circle
            row = [c for c in page.chars if c["text"] == value["letter"] and c["x1"] < circle[1]["x0"]
                   and circle[1]["top"] < (c["top"] + c["bottom"]) / 2 < circle[1]["bottom"]]
            assert row, (spec.name, value["letter"])


def test_shot_cards_print_tir_in_their_best_colour_and_three_circled_values(drawn):
    shots = [(spec, page) for spec, _, page in drawn if spec.template == "shot.yaml"]
    assert len(shots) >= 4 * 5
    for spec, page in shots:
        best = spec.context["best"]
        word = [c for c in page.chars if c["text"] in "TIR" and c["size"] > 30]
        assert "".join(c["text"] for c in word) == "TIR", spec.name       # the card says Tir, never SHOT
        assert all(same_colour(c["non_stroking_color"], best["hex"]) for c in word), spec.name
        big = [c for c in page.chars if c["text"].isdigit() and c["size"] > 15]
        assert [c["text"] for c in sorted(big, key=lambda c: c["x0"])] == [str(v["value"]) for v in spec.context["values"]]
        for char, value in zip(sorted(big, key=lambda c: c["x0"]), spec.context["values"]):
            kind, path = shape_around(page, char)
            assert kind == "circle" and same_colour(path["stroking_color"], value["hex"]), spec.name
            below = [c for c in page.chars if c["text"] == value["letter"] and c["top"] > path["bottom"]
                     and abs((c["x0"] + c["x1"]) / 2 - (char["x0"] + char["x1"]) / 2) < 3 * MM]
            assert below, (spec.name, value["letter"])


def test_balls_and_field_cards_carry_their_letter_and_points_not_only_colour(drawn):
    letters = {code: letter for code, (letter, *_) in ZONE_COLOURS.items()}
    balls = [(spec, page) for spec, _, page in drawn if spec.template == "ball.yaml"]
    assert sorted(spec.context["colour"]["code"] for spec, _ in balls) == sorted("BRG" * 4)
    for spec, page in balls:
        text = page_text(page)
        assert letters[spec.context["colour"]["code"]] in text and "BALLE " + spec.context["colour"]["feminine"].upper() in text
    fields = [(spec, page) for spec, _, page in drawn if spec.template == "field.yaml"]
    patterns = {}
    for spec, page in fields:
        colour = spec.context["colour"]
        text = page_text(page)
        assert letters[colour["code"]] in text and f"{colour['points']} points" in text, spec.name
        assert colour["points"] == (3 if colour["code"] == "G" else 2)
        patterns[colour["code"]] = (len(page.rects), len(page.curves))
    # blue is striped (many bands), red dotted (many discs), green plain: told apart without colour
    assert patterns["B"][0] > 10 and patterns["R"][1] > 100 and patterns["G"][0] <= 3 and patterns["G"][1] <= 5


def test_field_mat_lays_out_the_5x5_field_with_card_sized_cells(parts, drawn):
    mat = next(c for c in parts if isinstance(c, BoardSpec))
    cells = mat.face.context["cells"]
    assert len(cells) == 24 and mat.face.context["centre"]["row"] == mat.face.context["centre"]["col"] == 2
    assert Counter(c["colour"]["code"] for c in cells) == Counter("".join(LAYOUT).replace("_", ""))
    assert {c["owner"] for c in cells if c["row"] < 2 and c["colour"]["code"] != "G"} == {"Nord"}
    assert {c["owner"] for c in cells if c["row"] > 2 and c["colour"]["code"] != "G"} == {"Sud"}
    width, height = mat.size_mm
    assert width >= 5 * POKER[0] and height >= 5 * POKER[1]
    _, face, page = next(d for d in drawn if d[0].template == "mat.yaml")
    text = page_text(page)
    assert text.count("BUZZ") == 2                   # the centre's mark and its sentence
    assert text.count("NORD") == text.count("SUD") == 1
    assert text.count("Nord") == text.count("Sud") == text.count("neutre") == 8
    # the north half's words are turned half a turn, to read from the north coach's seat
    turned = "".join(c["text"] for c in page.chars if c["matrix"][0] < 0)
    assert turned.count("NORD") == 1 and turned.count("Nord") == 8 and "SUD" not in turned and "Sud" not in turned
    # each coloured cell holds a card: a dashed outline at least 63.5 x 88.9 mm
    outlines = [c for c in page.curves if c.get("dash") and (c["x1"] - c["x0"]) / MM >= POKER[0] - 0.1
                and (c["bottom"] - c["top"]) / MM >= POKER[1] - 0.1]
    assert len(outlines) >= 25


def test_aid_and_score_sheet_print_the_rule_numbers(parts):
    pages = {c.id: c for c in parts if isinstance(c, PageSpec)}
    assert pages["aid"].copies == 2 and len(pages["aid"].faces) == 2
    rules = pages["aid"].faces[0].context["rules"]
    faces = list(laid_out_faces("fightball", False, pages=True))
    pdf = measured_pages(faces)
    text = {spec.name: page_text(page) for (spec, _), page in zip(faces, pdf.pages)}
    for (spec, _), page in zip(faces, pdf.pages):    # the 2-up sheet prints the aid at 88 % (Letter): 7 pt -> 6.2
        smallest = min(c["size"] for c in page.chars if c["text"].strip())
        assert smallest >= (7 if spec.name.startswith("aid") else 6) - 0.01, (spec.name, smallest)
    assert f"≥{rules['threshold']}" in text["aid-front"].replace(" ", "")
    assert f"+{rules['ball_match_bonus']}/0" in text["aid-front"].replace(" ", "")
    for name in ("FAUXDÉPART", "TROPTARD", "TIRPRÉCIPITÉ"):
        assert name in text["aid-back"].replace(" ", "")
    assert f"+{rules['too_late_points']}" in text["aid-back"] and f"+{rules['hurried_shot_points']}" in text["aid-back"]
    sheet = text["score-sheet"]
    assert sheet.count("quart-temps") >= 2 * rules["quarters"]
    assert sheet.count("Prolongation ") == 2 * rules["overtime_quarters"]   # the rows, not the note
    assert sheet.count("TOTAL") == 2


def test_every_emblem_the_schema_allows_is_drawn_and_every_face_shows_its_team_emblem(drawn):
    from pipeline import PROJECT_ROOT
    from pipeline.games.fightball.schema import EMBLEMS
    from svglib.svglib import svg2rlg

    folder = PROJECT_ROOT / "templates" / "fightball" / "emblems"
    for emblem in EMBLEMS:
        drawing = svg2rlg(str(folder / f"{emblem}.svg"))
        x0, y0, x1, y1 = drawing.getBounds()
        sides = sorted(((x1 - x0) / drawing.width, (y1 - y0) / drawing.height))
        assert sides[1] >= 0.8 and sides[0] >= 0.6, (emblem, sides)   # fills its box: as large as it can at 6 mm
    for spec, face, _ in drawn:
        if "team" not in spec.context or spec.template == "field.yaml":
            continue
        emblem = f"emblems/{spec.context['team']['emblem']}.svg"
        sizes = [p.height / MM for p in face.primitives if getattr(p, "rel", "").endswith(emblem)]
        assert sizes and min(sizes) >= 6, (spec.name, sizes)


def test_generated_cards_point_at_the_team_cell_that_counts_them(parts):
    deck = next(c for c in parts if isinstance(c, CardDeck) and c.id == "deck-forges")
    field = next(c for c in parts if isinstance(c, CardDeck) and c.id == "field-forges")
    columns = {f.ref.field for f in deck.fronts + field.fronts if f.template in ("ball.yaml", "buzz.yaml", "field.yaml")}
    assert columns == {"balls_B", "balls_R", "balls_G", "buzz", "field_B", "field_R", "field_G"}
    assert {f.ref.sheet for f in deck.fronts} == {"teams", "players", "shots", "effects"}
