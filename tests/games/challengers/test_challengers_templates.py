"""Challengers' printed faces, measured (shared/games/challengers.md §1.2): the components built from the real
workbook, each distinct face drawn to a PDF page and read back with pdfplumber (characters, their fonts and
positions), never the layout objects; the trophies also from the duplex sheet the build writes."""

from __future__ import annotations

import re
from collections import Counter

import pdfplumber
import pytest

from pipeline import PROJECT_ROOT
from pipeline.core.units import MM
from pipeline.data.specs import CardDeck, PageSpec
from pipeline.games.challengers.components.cards import KEYWORDS
from pipeline.games.challengers.engine.pairing import pairings, participants_for
from pipeline.games.secret_tokens import public_sides_differ
from tests.conftest import built_game
from tests.render.test_safe_zone import game_components, laid_out_faces, measured_pages

GAME = "challengers"


@pytest.fixture(scope="module")
def loaded():
    """The game, its records and its components (no build: `built` would mark every test slow)."""
    game, parts = game_components(GAME)
    from pipeline.core.errors import Report
    from pipeline.validate import load_records
    records = load_records(game, PROJECT_ROOT, Report())
    return game, records, parts


@pytest.fixture(scope="module")
def drawn():
    """(spec, face, pdfplumber page) for every distinct face Challengers prints, cut faces and pages."""
    faces = list(laid_out_faces(GAME, False)) + list(laid_out_faces(GAME, False, pages=True))
    pdf = measured_pages(faces)
    return [(spec, face, page) for (spec, face), page in zip(faces, pdf.pages)]


def of(drawn, template: str) -> list:
    return [(spec, face, page) for spec, face, page in drawn if spec.template == template]


def mm(value: float, face) -> float:
    return value / MM - face.bleed / MM


def words(page, face, **box) -> list[dict]:
    """Words (with font and size) whose box lies inside x0..x1, y0..y1 (mm from the trim's top-left)."""
    found = []
    for w in page.extract_words(extra_attrs=["fontname", "size"], keep_blank_chars=False):
        x0, x1, top, bottom = mm(w["x0"], face), mm(w["x1"], face), mm(w["top"], face), mm(w["bottom"], face)
        if box.get("x0", -99) <= x0 and x1 <= box.get("x1", 999) and box.get("y0", -99) <= top \
                and bottom <= box.get("y1", 999):
            found.append(w)
    return found


def deck(parts, deck_id: str) -> CardDeck:
    return next(p for p in parts if isinstance(p, CardDeck) and p.id == deck_id)


# --- counts: the components sheet ----------------------------------------------------------------------------

def test_printed_counts_equal_the_components_sheet(loaded):
    game, records, parts = loaded
    sheet = {r["component"]: r["count"] for r in records["components"]}
    decks = {p.id: p for p in parts if isinstance(p, CardDeck)}
    for rec in records["sets"]:
        assert len(decks[f"cards-{rec['id']}"].fronts) == sheet[f"cards_{rec['id']}"], rec["id"]
    assert len(decks["trophies"].fronts) == sheet["trophy"] == 28
    assert len(decks["flags"].fronts) == sheet["flag"]
    assert len(decks["fans-1"].fronts) == sheet["fan_1"] and len(decks["fans-5"].fronts) == sheet["fan_5"]
    pages = {p.id: p for p in parts if isinstance(p, PageSpec)}
    assert len(pages["bench"].faces) * pages["bench"].copies == sheet["bench"] == 8
    assert pages["aid"].copies == sheet["aid"] and len(pages["aid"].faces) == 1
    for page_id, component in (("robotaid", "robotaid"), ("track", "schedule"), ("pairing", "pairing")):
        assert len(pages[page_id].faces) * pages[page_id].copies == sheet[component], page_id
    # the starter cards: once per player's starting deck
    starter = {r["card"]: r["copies_per_player"] for r in records["starter"]}
    names = Counter(f.name.rsplit("-", 1)[0] for f in decks["cards-city"].fronts)
    for card, per_player in starter.items():
        assert names[card] == per_player * 8, card


# --- the cards ---------------------------------------------------------------------------------------------------

def test_every_card_shows_its_strength_in_both_top_corners_and_its_level_bottom_right(drawn):
    cards = of(drawn, "card.yaml")
    assert len(cards) == 85                                   # one distinct face per card of the cards sheet
    for spec, face, page in cards:
        strength, level = str(spec.context["strength"]), spec.context["level"]
        left = [w["text"] for w in words(page, face, x1=17, y1=17) if w["size"] >= 12]
        right = [w["text"] for w in words(page, face, x0=46.5, y1=17) if w["size"] >= 12]
        assert left == [strength] and right == [strength], (spec.name, left, right)
        corner = [w["text"] for w in words(page, face, x0=43, y0=78)]
        assert corner == [level], (spec.name, corner)


def test_rarity_marks_say_the_copies_the_deck_holds(drawn, loaded):
    _, _, parts = loaded
    copies = Counter(f.name.rsplit("-", 1)[0] for p in parts if isinstance(p, CardDeck) and p.id.startswith("cards-")
                     for f in p.fronts)
    marked = 0
    for spec, face, page in of(drawn, "card.yaml"):
        foot = " ".join(w["text"] for w in words(page, face, x1=22, y0=78))
        rarity = spec.context["rarity"]
        if not rarity:
            assert not re.search(r"Rare|Commune", foot), spec.name
            continue
        marked += 1
        word, number = re.fullmatch(r"(Rare|Commune) (\d+)", foot).groups()
        assert int(number) == copies[spec.context["id"]] != 4, (spec.name, foot)
    assert marked == 12                                        # one rare and one common in each of six sets


def test_the_keyword_is_bold_and_the_effect_text_is_not(drawn):
    seen = set()
    for spec, face, page in of(drawn, "card.yaml"):
        keyword, text = spec.context["keyword"], spec.context["text"]
        body = words(page, face, y0=46, y1=77)
        bold = " ".join(w["text"] for w in body if "Bold" in w["fontname"])
        regular = " ".join(w["text"] for w in body if "Bold" not in w["fontname"])
        assert bold == keyword, (spec.name, bold)
        assert regular.split() == text.split(), (spec.name, regular)
        if keyword:
            seen.add(keyword)
    assert seen == {label for label in KEYWORDS.values() if label}      # all five timings are printed


def test_every_card_draws_its_set_symbol_large_and_small(drawn, loaded):
    _, records, _ = loaded
    symbols = {r["id"]: r["symbol"] for r in records["sets"]}
    for spec, face, _ in of(drawn, "card.yaml"):
        src = f"symbols/{symbols[spec.context['set']['id']]}.svg"
        sizes = sorted(p.height / MM for p in face.primitives if getattr(p, "rel", "").endswith(src))
        assert len(sizes) == 2 and sizes[0] >= 5 and sizes[1] >= 15, (spec.name, sizes)


def test_every_symbol_the_schema_allows_is_drawn_boldly():
    from svglib.svglib import svg2rlg

    from pipeline.games.challengers.schema import SYMBOLS

    for symbol in SYMBOLS:
        drawing = svg2rlg(str(PROJECT_ROOT / "templates" / GAME / "symbols" / f"{symbol}.svg"))
        x0, y0, x1, y1 = drawing.getBounds()
        sides = sorted(((x1 - x0) / drawing.width, (y1 - y0) / drawing.height))
        assert sides[0] >= 0.6 and sides[1] >= 0.85, (symbol, sides)       # fills its box: as large as it can at 5 mm


def test_backs_show_the_level_pile_and_the_robot_has_its_own(loaded, drawn):
    _, _, parts = loaded
    for part in parts:
        if isinstance(part, CardDeck) and part.id.startswith("cards-"):
            for front, back in zip(part.fronts, part.backs):
                level = front.context["level"]
                if part.id == "cards-robot":
                    assert back.template == "back-robot.yaml"
                    assert back.context["level"] == (level if level in ("R", "SOLO") else "")
                else:
                    assert back.template == "back.yaml" and back.context["level"] == level
    for spec, face, page in of(drawn, "back.yaml"):
        big = [w["text"] for w in page.extract_words(extra_attrs=["size"]) if w["size"] >= 30]
        assert big == [spec.context["level"]], (spec.name, big)


# --- trophies: secret-backed ---------------------------------------------------------------------------------

def test_trophy_round_sides_are_one_drawing_per_round_and_the_values_lie_on_the_other_side(loaded, drawn):
    _, records, parts = loaded
    trophies = deck(parts, "trophies")
    from pipeline.render.faces.renderer import FaceRenderer
    from pipeline.render.fonts import default_fonts
    renderer = FaceRenderer(PROJECT_ROOT, PROJECT_ROOT / "templates" / GAME, default_fonts())

    def layout(spec):
        return renderer.layout(spec.template, spec.context, spec.ref, spec.name)[0]

    assert public_sides_differ(trophies, layout, lambda front: front.context["trophy"]["round"]) == []
    rounds = {spec.context["trophy"]["round"]: page for spec, _, page in of(drawn, "trophy-round.yaml")}
    assert sorted(rounds) == list(range(1, 8))
    for number, page in rounds.items():
        assert [w["text"] for w in page.extract_words()] == ["MANCHE", str(number)]
    values = Counter((f.context["trophy"]["round"], f.context["value"]) for f in trophies.fronts)
    assert values == Counter({(r["round"], r["value"]): r["count"] for r in records["trophies"]})
    for spec, _, page in of(drawn, "trophy-value.yaml"):
        assert [w["text"] for w in page.extract_words()] == [str(spec.context["value"]), "FANS"]


def test_the_built_trophy_sheet_hides_every_value_behind_its_round(tmp_path_factory, loaded):
    """The duplex sheet as the build writes it: the values on the recto, the rounds on the verso, each token's
    own round behind its value (the sheet is filled row by row in the deck's order)."""
    fronts = deck(loaded[2], "trophies").fronts
    output = built_game(tmp_path_factory, GAME, "--paper", "a4", "--format", "pnp")
    with pdfplumber.open(output / "pnp-a4" / "trophies.pdf") as pdf:
        recto, verso = pdf.pages
        width = recto.width
        values = [w for w in recto.extract_words(extra_attrs=["size"]) if w["text"].isdigit() and w["size"] >= 12]
        rounds = [w for w in verso.extract_words(extra_attrs=["size"]) if w["text"].isdigit() and w["size"] >= 12]
        assert "MANCHE" not in recto.extract_text() and "FANS" not in verso.extract_text()
        assert len(values) == len(rounds) == 28
        values.sort(key=lambda w: (round(w["top"]), w["x0"]))
        assert [int(w["text"]) for w in values] == [f.context["value"] for f in fronts]
        for value, front in zip(values, fronts):            # the verso is mirrored for a long-edge flip
            x = width - (value["x0"] + value["x1"]) / 2
            behind = min(rounds, key=lambda w: abs((w["x0"] + w["x1"]) / 2 - x) + abs(w["top"] - value["top"]))
            assert abs((behind["x0"] + behind["x1"]) / 2 - x) < 12 * MM and abs(behind["top"] - value["top"]) < 12 * MM
            assert int(behind["text"]) == front.context["trophy"]["round"], (value["text"], behind["text"])


# --- the pages ---------------------------------------------------------------------------------------------

def test_the_pairing_chart_prints_the_engines_pairing(drawn):
    (spec, face, page), = of(drawn, "pairing.yaml")
    context = spec.context
    for players, block in zip(range(1, 9), context["blocks"]):
        participants = participants_for(players)
        names = [f"J{s}" for s in range(1, players + 1)] + (["Robot"] if participants > players else [])
        assert block["title"].startswith(f"{players} joueur")
        for r, pairs in enumerate(pairings(participants, 7)):
            opponent = {a: b for a, b in pairs} | {b: a for a, b in pairs}
            for p in range(participants):
                x = block["x"] + context["name_w"] + r * context["cell_w"]
                y = block["y"] + context["title_h"] + (p + 1) * context["row_h"]
                cell = words(page, face, x0=x, x1=x + context["cell_w"], y0=y, y1=y + context["row_h"])
                assert [w["text"] for w in cell] == [names[opponent[p]]], (players, r + 1, p, cell)
                assert cell[0]["size"] >= 7


def test_each_bench_mat_has_six_numbered_slots_its_seat_and_both_ways_to_lose(drawn):
    mats = of(drawn, "bench.yaml")
    assert sorted(spec.context["seat"] for spec, _, _ in mats) == [f"J{s}" for s in range(1, 9)]
    for spec, face, page in mats:
        slots = spec.context["slots"]
        assert len(slots) == 6
        for slot in slots:
            tab = words(page, face, x0=slot["x"], x1=slot["x"] + 16, y0=slot["y"], y1=slot["y"] + 16)
            assert [w["text"] for w in tab] == [str(slot["number"])], (spec.name, tab)
        for a, b in ((a, b) for i, a in enumerate(slots) for b in slots[i + 1:]):     # slots never overlap
            assert a["x"] + a["w"] <= b["x"] or b["x"] + b["w"] <= a["x"] or a["y"] + a["h"] <= b["y"] \
                or b["y"] + b["h"] <= a["y"]
        text = " ".join(page.extract_text().split())
        assert spec.context["seat"] in text and "DEUX FAÇONS DE PERDRE" in text
        assert "paquet est vide" in text and "aucun n'est vide" in text


def test_the_round_track_prints_the_schedule_and_the_trophy_values(drawn, loaded):
    _, records, _ = loaded
    (spec, face, page), = of(drawn, "track.yaml")
    row_h = (250 - 34) / 7                                      # track.yaml's rows
    for index in range(7):
        number, top = index + 1, 21 + index * row_h
        options = " ".join(w["text"] for w in words(page, face, x0=23, x1=125, y0=top, y1=top + row_h))
        expected = " ou ".join(f"{r['draw']} cartes {r['level']}, gardez-en {r['keep']}"
                               for r in sorted(records["schedule"], key=lambda r: r["option"]) if r["round"] == number)
        assert options == expected, (number, options)
        fans = " ".join(w["text"] for w in words(page, face, x0=125, x1=159, y0=top, y1=top + row_h))
        values = sorted({r["value"] for r in records["trophies"] if r["round"] == number})
        assert fans == " ou ".join(map(str, values)) + " fans", (number, fans)
        ring = [w["text"] for w in words(page, face, x1=20, y0=top, y1=top + row_h)]
        assert ring == [str(number)]


def test_the_aid_lists_the_five_timings_in_bold_and_never_prints_under_7_pt(drawn):
    (spec, face, page), = of(drawn, "aid.yaml")
    bold = " ".join(w["text"] for w in page.extract_words(extra_attrs=["fontname"]) if "Bold" in w["fontname"])
    for label in (label for label in KEYWORDS.values() if label):
        assert label in bold, label
    text = " ".join(page.extract_text().split())
    assert "DEUX FAÇONS DE PERDRE" in text and "paquet est vide" in text
    assert min(c["size"] for c in page.chars if c["text"].strip()) >= 7


def test_the_robot_reference_prints_its_deck_round_by_round(drawn, loaded):
    _, records, _ = loaded
    (spec, face, page), = of(drawn, "robot-aid.yaml")
    cards = {r["id"]: r for r in records["cards"]}
    base = sorted({r["card"] for r in records["robot_decks"]}, key=lambda c: (cards[c]["strength"], cards[c]["name"]))
    header = words(page, face, y0=35, y1=44)         # a column's name above its "force N", read column by column
    centre = lambda w: (w["x0"] + w["x1"]) / 2                    # noqa: E731
    anchors = sorted(centre(w) for w in header if w["text"] != "force" and not w["text"].isdigit())
    header.sort(key=lambda w: (min(range(len(anchors)), key=lambda i: abs(anchors[i] - centre(w))), w["top"]))
    assert [w["text"] for w in header] == ["Manche"] + [t for c in base for t in (
        cards[c]["name"], "force", str(cards[c]["strength"]))] + ["Total"]
    for index, number in enumerate(sorted({r["round"] for r in records["robot_decks"]})):
        copies = {r["card"]: r["copies"] for r in records["robot_decks"] if r["round"] == number}
        top = 31 + 5 + 7.2 + index * 6.4                          # the table's rows (robot-aid.yaml)
        row = [w["text"] for w in sorted(words(page, face, y0=top, y1=top + 6.4), key=lambda w: w["x0"])]
        expected = [str(number)] + [str(copies[c]) if c in copies else "·" for c in base] + [str(sum(copies.values()))]
        assert row == expected, (number, row)
    assert min(c["size"] for c in page.chars if c["text"].strip()) >= 7
