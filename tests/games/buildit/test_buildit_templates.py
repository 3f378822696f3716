"""Build It's non-card components (board, calendar, marker, pawns, coins, player aid, score sheet): each
template is laid out with the contexts pipeline/games/buildit/components.py gives it, drawn to a PDF and
measured with pdfplumber (text and shapes read back from the file, never from the layout objects)."""

from __future__ import annotations

from io import BytesIO

import pdfplumber
import pytest

from pipeline import PROJECT_ROOT
from pipeline.core.errors import Report
from pipeline.core.units import MM
from pipeline.data.params import read_parameters
from pipeline.games import load_game
from pipeline.games.buildit.components import calendar
from pipeline.games.buildit.schema import RULE_PARAMETERS
from pipeline.render.faces.renderer import FaceRenderer
from pipeline.render.fonts import default_fonts
from pipeline.render.pdf import new_canvas
from pipeline.validate import load_records

GAME_DIR = PROJECT_ROOT / "templates" / "buildit"
CARD = {"index": 1, "copy": 1, "copies": 1}
COLOURS = (("blue", "Bleu", "B", "#2E6FD0"), ("red", "Rouge", "R", "#C8372D"),
           ("yellow", "Jaune", "J", "#E8B823"), ("green", "Vert", "V", "#2E9E5B"))
STATES = (("permit", "Permis", "P"), ("site", "Chantier", "Ch"), ("construction", "Construction", "C"))
MODELS = ("coin_gain", "cancel", "contract_theft", "sabotage", "strike", "demolition", "forced_purchase",
          "form_expert", "pass_a38", "overqualified_workers", "shoddy_tools")
TOLERANCE = 0.05    # mm
INK = (False, True)


# --- contexts, built from the real workbook ----------------------------------------------------------------

@pytest.fixture(scope="module")
def workbook():
    report = Report()
    records = load_records(load_game("buildit", PROJECT_ROOT), PROJECT_ROOT, report)
    assert records is not None, report
    rules = read_parameters(records["rules"], RULE_PARAMETERS, Report()).values
    models: dict[str, dict] = {}
    for rec in records["normal_cards"]:         # one entry per model; Coin Gain rows add up their copies
        values = rec.values
        if values["model"] in models:
            models[values["model"]]["copies"] += values["copies"]
        else:
            models[values["model"]] = {key: values[key] for key in ("model", "name", "copies", "cost", "cost_rule",
                                                                    "timing", "target", "persistent", "effect")}
    return rules, list(models.values())


def build_cost(rules: dict) -> str:
    if rules["build_cost_mode"] == "per_plot":
        return f"{rules['build_cost_per_plot']} PO par parcelle"
    return f"{rules['build_cost_flat']} PO"


def board_context(rules: dict, board_size: int | None = None) -> dict:
    if board_size is not None:
        rules = {**rules, "board_size": board_size}
    return {"rules": rules, "plot": 26, "margin": 12, "title": "Build It"}


def calendar_context(rules: dict) -> dict:
    """The calendar's face values as the game's components give them (the steps' rows and sizes)."""
    context = dict(calendar(rules).fronts[0].context)
    context.pop("card", None)
    return context


def pawn_contexts() -> list[dict]:
    return [{"colour": c, "colour_name": cn, "colour_letter": cl, "hex": h, "state": s, "state_name": sn,
             "state_letter": sl} for c, cn, cl, h in COLOURS for s, sn, sl in STATES]


def aid_contexts(rules: dict, normal: list[dict]) -> list[dict]:
    return [{"rules": rules, "colour_name": cn, "hex": h, "normal": normal, "build_cost": build_cost(rules)}
            for _, cn, _, h in COLOURS]


def every_context(rules: dict, normal: list[dict]) -> dict[str, list[dict]]:
    return {
        "board.yaml": [board_context(rules), board_context(rules, 6)],
        "calendar.yaml": [calendar_context(rules), calendar_context({**rules, "rounds": 12})],
        "marker.yaml": [{}],
        "pawn.yaml": pawn_contexts(),
        "coin.yaml": [{"value": 1}, {"value": 5}],
        "aid-front.yaml": aid_contexts(rules, normal),
        "aid-back.yaml": aid_contexts(rules, normal),
        "score-sheet.yaml": [{"rules": rules, "title": "Build It"}],
    }


# --- rendering and measuring ---------------------------------------------------------------------------------

def layout(template: str, context: dict, ink_saver: bool = False, size_mm: tuple[float, float] | None = None):
    """`size_mm`: the face's size when its component sizes it (the calendar grows a row at a time)."""
    renderer = FaceRenderer(PROJECT_ROOT, GAME_DIR, default_fonts(), ink_saver=ink_saver)
    return renderer.layout(template, {**context, "card": CARD}, None, template, size_mm=size_mm)


def page(face):
    """The face drawn on a page exactly its bleed box (template (x, y) mm = page (bleed + x, bleed + y))."""
    buffer = BytesIO()
    size = (face.width + 2 * face.bleed, face.height + 2 * face.bleed)
    canvas = new_canvas(buffer, size, default_fonts())
    canvas.translate(face.bleed, face.bleed)
    face.draw(canvas)
    canvas.showPage()
    canvas.save()
    return pdfplumber.open(BytesIO(buffer.getvalue())).pages[0]


def drawn(template: str, context: dict, ink_saver: bool = False, size_mm: tuple[float, float] | None = None):
    face, problems = layout(template, context, ink_saver, size_mm)
    assert problems == [], problems
    return face, page(face)


def mm(points: float, face) -> float:
    return (points - face.bleed) / MM


def words_in(pdf_page, face, x0: float, top: float, x1: float, bottom: float) -> list[str]:
    """Words whose box lies inside a template rectangle (mm)."""
    return [w["text"] for w in pdf_page.extract_words(keep_blank_chars=False)
            if mm(w["x0"], face) >= x0 - TOLERANCE and mm(w["x1"], face) <= x1 + TOLERANCE
            and mm(w["top"], face) >= top - TOLERANCE and mm(w["bottom"], face) <= bottom + TOLERANCE]


def squares(pdf_page, side: float) -> list[dict]:
    return [r for r in pdf_page.rects
            if abs(r["width"] / MM - side) <= TOLERANCE and abs(r["height"] / MM - side) <= TOLERANCE]


def flat_text(pdf_page) -> str:
    return " ".join(pdf_page.extract_text().split())


# --- every template, every variant: no problem, no text under 6 pt, text inside the safe area ------------------

# issue 20: a token under 30 mm keeps 10 % of its side (1.8 mm on a pawn), see tests/render/test_safe_zone.py
SAFE = {"marker.yaml": 3, "pawn.yaml": 1.8, "coin.yaml": 3, "aid-front.yaml": 3, "aid-back.yaml": 3,
        "calendar.yaml": 3, "board.yaml": 3, "score-sheet.yaml": 0}


@pytest.mark.parametrize("ink_saver", INK, ids=["normal", "ink-saver"])
@pytest.mark.parametrize("template", sorted(SAFE))
def test_every_variant_lays_out_without_problems(workbook, template, ink_saver):
    rules, normal = workbook
    for context in every_context(rules, normal)[template]:
        face, pdf_page = drawn(template, context, ink_saver)
        assert pdf_page.chars, template
        safe = SAFE[template]
        width, height = face.width / MM, face.height / MM
        for char in pdf_page.chars:
            assert char["size"] >= 6 - 1e-3, (template, char["text"], char["size"])
            if char["text"].strip():
                assert mm(char["x0"], face) >= safe - 0.3 and mm(char["x1"], face) <= width - safe + 0.3, \
                    (template, context.get("state"), char["text"], mm(char["x0"], face))
                assert mm(char["top"], face) >= safe - 0.6 and mm(char["bottom"], face) <= height - safe + 0.6, \
                    (template, context.get("state"), char["text"], mm(char["top"], face))


def test_sizes_and_bleeds_are_the_component_sizes(workbook):
    rules, normal = workbook
    expected = {"board.yaml": (232, 232, 3), "calendar.yaml": (190, 66, 3), "marker.yaml": (18, 18, 3),
                "pawn.yaml": (18, 18, 3), "coin.yaml": (18, 18, 3), "aid-front.yaml": (88, 126, 3),
                "aid-back.yaml": (88, 126, 3), "score-sheet.yaml": (190, 250, 0)}
    contexts = every_context(rules, normal)
    for template, (width, height, bleed) in expected.items():
        face, _ = layout(template, contexts[template][0])
        assert (round(face.width / MM, 3), round(face.height / MM, 3), round(face.bleed / MM, 3)) == \
            (width, height, bleed), template


# --- board --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("ink_saver", INK, ids=["normal", "ink-saver"])
def test_board_has_one_26mm_plot_per_square_and_coordinates_on_every_side(workbook, ink_saver):
    rules, _ = workbook
    n = rules["board_size"]
    assert n == 8
    face, pdf_page = drawn("board.yaml", board_context(rules), ink_saver)
    plots = squares(pdf_page, 26)
    assert len(plots) == n * n
    origins = sorted((round(mm(r["x0"], face), 1), round(mm(r["top"], face), 1)) for r in plots)
    assert origins == sorted((12 + 26.0 * c, 12 + 26.0 * r) for r in range(n) for c in range(n))

    letters, numbers = list("abcdefgh"), [str(k) for k in range(1, n + 1)]
    side = 2 * 12 + n * 26
    top = [w for w in words_in(pdf_page, face, 12, 5, side - 12, 12) if len(w) == 1]
    left = words_in(pdf_page, face, 3, 12, 12, side - 12)
    assert top == letters and left == numbers
    # the bottom and right labels are turned 180° (text matrix -1 0 0 -1): read them as characters
    turned = [c for c in pdf_page.chars if c["matrix"][0] < 0 and c["size"] > 10]
    bottom = sorted(c["text"] for c in turned if mm(c["top"], face) > side - 12)
    right = sorted(c["text"] for c in turned if mm(c["x0"], face) > side - 12)
    assert bottom == letters and right == sorted(numbers)
    assert all(side - 12 < mm(c["top"], face) and mm(c["bottom"], face) < side - 3 for c in turned
               if c["text"] in letters)
    text = flat_text(pdf_page)
    assert all(f"{letter}{number}" in text for letter in letters for number in numbers)   # plot tags
    assert "BUILD IT" in text and "Parcelles voisines : par un côté ou par un coin" in text


def test_board_grid_follows_board_size(workbook):
    rules, _ = workbook
    face, pdf_page = drawn("board.yaml", board_context(rules, 6))
    assert len(squares(pdf_page, 26)) == 36
    top = [w for w in words_in(pdf_page, face, 12, 5, 12 + 6 * 26, 12) if len(w) == 1]
    assert top == list("abcdef")


# --- calendar -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("rounds", [10, 12])
def test_calendar_shows_one_box_per_round(workbook, rounds):
    rules, _ = workbook
    if rounds == 10:
        assert rules["rounds"] == 10
    context = calendar_context({**rules, "rounds": rounds})
    steps = context["steps"]
    face, pdf_page = drawn("calendar.yaml", context, size_mm=calendar({**rules, "rounds": rounds}).size_mm)
    box_w = 184 / steps["per_row"] - 1.4
    boxes = [c for c in pdf_page.curves if abs(c["width"] / MM - box_w) < 0.2 and abs(c["height"] / MM - 22) < 0.2]
    assert len(boxes) == rounds and box_w >= 20 and steps["rows"] == (2 if rounds in (10, 12) else steps["rows"])
    numbers = [w for w in words_in(pdf_page, face, 3, 11, 187, face.height / MM - 9) if w.isdigit()]
    assert numbers == [str(k) for k in range(1, rounds + 1)]       # read row after row
    text = flat_text(pdf_page)
    assert "CALENDRIER" in text and "départ" in text and "dernier" in text
    assert f"La partie s'arrête à la fin du tour de table joué sur la case {rounds}" in text


@pytest.mark.parametrize("rounds", [1, 5, 14, 15, 20, 40])
def test_calendar_fits_any_allowed_number_of_rounds(workbook, rounds):
    """As many rows of at most 7 steps as the rounds need, each step 20 mm or more each way (issue 29),
    the strip as tall as its rows; the words stay."""
    rules, _ = workbook
    face, pdf_page = drawn("calendar.yaml", calendar_context({**rules, "rounds": rounds}),
                           size_mm=calendar({**rules, "rounds": rounds}).size_mm)
    numbers = [w for w in words_in(pdf_page, face, 3, 11, 187, face.height / MM - 9) if w.isdigit()]
    assert sorted(map(int, numbers)) == list(range(1, rounds + 1))
    assert {"départ", "dernier", "tour"} <= set(flat_text(pdf_page).replace(".", " ").split())


@pytest.mark.parametrize("board_size", [3, 5, 12, 20])
def test_board_lays_out_for_other_sizes(workbook, board_size):
    rules, _ = workbook
    face, pdf_page = drawn("board.yaml", board_context(rules, board_size))
    assert len(squares(pdf_page, 26)) == board_size * board_size


def test_marker_names_what_it_counts():
    _, pdf_page = drawn("marker.yaml", {})
    assert flat_text(pdf_page) == "TOUR"


# --- pawns and coins -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("ink_saver", INK, ids=["normal", "ink-saver"])
def test_every_pawn_shows_its_state_and_colour_letters(ink_saver):
    shapes = {}
    for context in pawn_contexts():
        face, pdf_page = drawn("pawn.yaml", context, ink_saver)
        # issue 20: French initials (Ch for Chantier, never the English S of Site) and the state's French name
        assert context["state_letter"] in ("P", "Ch", "C")
        big = sorted(pdf_page.chars, key=lambda c: -c["size"])[:len(context["state_letter"])]
        assert "".join(c["text"] for c in sorted(big, key=lambda c: c["x0"])) == context["state_letter"]
        assert min(c["size"] for c in big) >= 10
        words = pdf_page.extract_words()
        assert context["state_name"].upper() in [w["text"] for w in words], words
        corner = min(pdf_page.chars, key=lambda c: c["x0"] + c["top"])
        assert corner["text"] == context["colour_letter"] and corner["size"] >= 6
        assert mm(corner["x0"], face) < 6 and mm(corner["top"], face) < 6          # top-left corner
        # the silhouette differs by state: a circle (Bézier segments), a triangle, a house (5 sides)
        outline = [c for c in pdf_page.curves if 7 < c["width"] / MM < 15]     # not the ink-saver frame
        shapes.setdefault(context["state"], set()).add(tuple(sorted("".join(op[0] for op in c["path"])
                                                                    for c in outline)))
    assert all(len(variants) == 1 for variants in shapes.values())
    outlines = {state: variants.pop() for state, variants in shapes.items()}
    assert outlines == {"permit": ("mcccch", "mcccch"), "site": ("mllh", "mllh"), "construction": ("mllllh", "mllllh")}


@pytest.mark.parametrize("ink_saver", INK, ids=["normal", "ink-saver"])
def test_coins_show_value_and_po_and_the_five_has_its_own_edge(ink_saver):
    edges = {}
    for value in (1, 5):
        face, pdf_page = drawn("coin.yaml", {"value": value}, ink_saver)
        assert pdf_page.extract_text().split() == [str(value), "PO"]
        edges[value] = ["".join(op[0] for op in c["path"]) for c in pdf_page.curves]
    milled = "m" + "l" * 39 + "h"                        # the 5's toothed edge: a 40-point polygon
    assert milled in edges[5] and milled not in edges[1]
    assert len(edges[5]) >= len(edges[1]) + 16           # and its ring of 16 beads


# --- player aid ---------------------------------------------------------------------------------------------

def test_aid_front_prints_the_rules_numbers(workbook):
    rules, normal = workbook
    for context in aid_contexts(rules, normal):
        _, pdf_page = drawn("aid-front.yaml", context)
        text = flat_text(pdf_page)
        assert "Aide de jeu" in text and f"JOUEUR {context['colour_name'].upper()}" in text
        assert f"+{rules['income']} PO" in text and f"Piochez {rules['draw_per_turn']} carte" in text
        assert build_cost(rules) in text and f"Permis {rules['sale_price_permit']} PO" in text
        assert f"Chantier {rules['sale_price_site']} PO" in text
        assert f"case {rules['rounds']}" in text and "Égalité" in text


def test_aid_front_follows_changed_rules(workbook):
    rules, normal = workbook
    changed = {**rules, "income": 3, "permit_cost": 4, "rounds": 12, "draw_per_turn": 2}
    context = {**aid_contexts(changed, normal)[0], "build_cost": "3 PO"}
    _, pdf_page = drawn("aid-front.yaml", context)
    text = flat_text(pdf_page)
    assert "+3 PO" in text and "4 PO" in text and "case 12" in text and "Piochez 2 cartes" in text


@pytest.mark.parametrize("ink_saver", INK, ids=["normal", "ink-saver"])
def test_aid_back_lists_every_normal_card_model(workbook, ink_saver):
    rules, normal = workbook
    assert sorted(n["model"] for n in normal) == sorted(MODELS)
    _, pdf_page = drawn("aid-back.yaml", aid_contexts(rules, normal)[0], ink_saver)
    text = flat_text(pdf_page)
    for card in normal:
        assert f"{card['name']} ×{card['copies']}" in text, card["name"]
    assert text.count("gratuite") == sum(1 for card in normal if card["cost"] == 0)
    assert "2 PO par parcelle" in text and "1 PO payée à la cible" in text
    assert text.count("à tout moment") == sum(1 for card in normal if card["timing"] == "any_time")


# --- score sheet --------------------------------------------------------------------------------------------

def test_score_sheet_has_three_games_with_tall_rows(workbook):
    rules, _ = workbook
    face, pdf_page = drawn("score-sheet.yaml", {"rules": rules, "title": "Build It"})
    text = flat_text(pdf_page)
    assert "Feuille de score" in text
    for label in ("Partie 1", "Partie 2", "Partie 3"):
        assert label in text
    labels = " ".join(pdf_page.crop((0, 14 * MM, 46 * MM, pdf_page.height)).extract_text().split())
    row = "Joueur Couleur (entourez) Contrats réalisés (points) Ville ({}) Total Or restant (départage) Vainqueur"
    assert labels == " ".join(f"Partie {game} {row.format('à la construction')}" for game in (1, 2, 3))
    _, end_page = drawn("score-sheet.yaml", {"rules": {**rules, "city_points_timing": "end"}, "title": "Build It"})
    assert "Ville (bâtiments debout)" in flat_text(end_page)      # the sheet follows the rule parameter
    # horizontal rules across the table: every row at least 8 mm tall
    rows = sorted({round(mm(line["top"], face), 2) for line in pdf_page.lines
                   if line["width"] / MM > 180 and abs(line["height"]) < 0.01 and line["top"] / MM > 14})
    tables = [rows[k:k + 6] for k in range(0, len(rows), 6)]
    assert len(rows) == 18
    for table in tables:
        assert all(b - a >= 8 for a, b in zip(table, table[1:]))
