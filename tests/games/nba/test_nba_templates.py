"""NBA Deck-Building's cards, boards, player aid and score sheet: records of the workbook's shape go through
pipeline/games/nba/components_cards.py, every face it returns is laid out with its template, drawn to a PDF and
read back with pdfplumber, so the checks see what a printer would get (text, sizes, measured rectangles)."""

from __future__ import annotations

import re

from io import BytesIO

import pdfplumber
import pypdfium2
import pytest

from pipeline import PROJECT_ROOT
from pipeline.core.errors import SourceRef
from pipeline.core.printing import PrintOptions
from pipeline.core.units import MM
from pipeline.data.schema import Record
from pipeline.data.specs import BoardSpec, CardDeck, PageSpec
from pipeline.games.nba.components.cards import card_components
from pipeline.games.nba.schema import PLAYERS, RULE_PARAMETERS, TACTICS
from pipeline.render.faces.art import natural_size
from pipeline.render.faces.renderer import FaceRenderer
from pipeline.render.fonts import default_fonts
from pipeline.render.pdf import new_canvas
from tests.render.sheets.printcheck import PDFCHECK, assert_ours

GAME_DIR = PROJECT_ROOT / "templates" / "nba"
INK = (False, True)
TOLERANCE = 0.3     # mm
POKER_CARD = (63.5, 88.9)

# --- sample records, in the workbook's shape (sheets/nba.xlsx may hold other values) -----------------------------

SKILLS = (  # id, name, kind, colour, colour name, letter, dice per player
    ("3P", "3 Points", "offence", "#2E6FD0", "bleu", "B"), ("IN", "Jeu intérieur", "offence", "#E8B823", "jaune", "J"),
    ("PE", "Pénétration", "offence", "#C8372D", "rouge", "R"), ("IT", "Interception", "defence", "#D8C3A0", "beige", "Be"),
    ("BL", "Contre", "defence", "#8C939B", "gris", "G"), ("ST", "Stop", "defence", "#7B4A25", "marron", "M"),
    ("RB", "Rebonds", "rebound", "#2E9E5B", "vert", "V"), ("GI", "Intelligence de jeu", "intelligence", "#7D4BA8",
                                                            "violet", "Vi"))
FACES = {  # §2.1 and the proposed colours of §2.2: (value, colour) per face 1..6
    "3P": [(0, None), (0, None), (0, None), (2, None), (6, None), (9, None)],
    "IN": [(0, None), (0, None), (2, None), (4, None), (6, None), (7, None)],
    "PE": [(0, None), (2, None), (3, None), (4, None), (6, None), (6, None)],
    "IT": [(0, None), (1, "yellow"), (2, "blue"), (1, "blue"), (2, "blue"), (4, "red")],
    "BL": [(0, None), (2, "red"), (2, "yellow"), (1, "red"), (2, "blue"), (3, "red")],
    "ST": [(0, None), (2, "yellow"), (3, "yellow"), (3, "blue"), (1, "red"), (1, "yellow")],
}
RATINGS = ("3P", "IN", "PE", "IT", "BL", "ST", "RB", "GI")
PLAYER_ROWS = (  # id, name, set, kind, initiation, positions, value, cost, ratings, clutch
    ("a_starter_mj_1", "Titulaire MJ 1", "A", "starter", True, "MJ", 2, None, (1, 0, 1, 1, 0, 0, 0, 2), False),
    ("b_sub_af_2", "Remplaçant AF 2", "B", "substitute", True, "AF", 1, None, (0, 1, 0, 0, 1, 1, 1, 0), False),
    ("a_sub_p_2", "Remplaçant P 2", "A", "substitute", False, "P", 1, None, (0, 1, 0, 0, 1, 0, 1, 0), False),
    ("korver", "Kyle Korver", "NBA", "nba", False, "Ar/Ai", 2, 6, (3, 0, 1, 1, 0, 1, 1, 2), False),
    ("longname", "Giannis Antetokounmpo-Smith"[:26], "NBA", "nba", False, "Ai/AF/P", 3, 10, (1, 3, 3, 2, 3, 1, 3, 2),
     True),
    ("legend", "Wilt Legend", "NBA", "nba", False, "MJ/Ar/Ai/AF/P", 4, 15, (4, 4, 4, 4, 4, 4, 4, 4), True),
)
TACTIC_ROWS = (  # id, name, set, initiation, type, value, cost, complexity, keeps (3P IN PE IT BL ST), copies
    ("a_slashing", "Base Offense Slashing", "A", True, "offence", 1, None, 3, (0, 0, 2, 0, 0, 0), 1),
    ("b_trap", "Base Defense Trap", "B", True, "defence", 1, None, 1, (0, 0, 0, 0, 1, 1), 1),
    ("kentucky", "Kentucky Offense", "market", False, "offence", 2, 5, 5, (2, 1, 0, 0, 0, 0), 3),
    ("houston", "Houston Defense", "market", False, "defence", 2, 6, 5, (0, 0, 0, 2, 1, 1), 2),
    ("longest", "Triangle Offense Championship"[:30], "market", False, "offence", 3, 12, 20, (5, 3, 4, 0, 0, 0), 1),
)
DURATIONS = (("short", "Courte", 8, 12), ("normal", "Normale", 12, 20), ("long", "Longue", 18, 32),
             ("epic", "Épique", 24, 44))
RULES = {"length": "normal", "end_rule": "countdown6", "river_when_pile_empty": "shift_all",
         "market_sort_key": "cost", "cost_window_min": 3, "cost_window_max": 5, "cost_window_required": 4,
         "track_slots": 6, "market_slots": 6, "dice_cap": 10, "dice_cap_scope": "per_skill", "reroll_divisor": 3,
         "keep_mode": "up_to", "negative_score": "clamp0", "fatigue_removed_to": "supply",
         "fatigue_per_substitution": 1, "allow_free_tactic_discard": False, "hand_size": 6, "offence_slots": 3,
         "defence_slots": 3, "first_player": "random", "overtime_enabled": True, "overtime_turns": 6,
         "overtime_max": 3, "variant_team_selection": False, "variant_draft": False, "variant_money_time": False,
         "draft_rounds": 4, "draft_mini_market": 1, "draft_common": 2, "draft_box": 1, "team_min_substitutes": 5,
         "team_min_tactics": 3, "team_deck_size": 12, "money_time_turns": 6, "money_time_free_def_rerolls": 2,
         "clutch_players": False, "max_steps": 100000}


def record(sheet: str, row: int, **values) -> Record:
    return Record(sheet, SourceRef("sheets/nba.xlsx", sheet, row), values, {})


def sample_records(players=PLAYER_ROWS, tactics=TACTIC_ROWS) -> dict[str, list[Record]]:
    return {
        "skills": [record("skills", r, id=s[0], name=s[1], kind=s[2], colour=s[3], colour_name=s[4], letter=s[5],
                          dice_per_player=10 if s[2] in ("offence", "defence") else 0, icon=None)
                   for r, s in enumerate(SKILLS, start=2)],
        "dice": [record("dice", 2 + 6 * d + f, die=die, face=f + 1, value=value, colour=colour, status="seed")
                 for d, (die, faces) in enumerate(FACES.items()) for f, (value, colour) in enumerate(faces)],
        "players": [record("players", r, id=p[0], name=p[1], set=p[2], kind=p[3], initiation=p[4], positions=p[5],
                           value=p[6], cost=p[7], **dict(zip(RATINGS, p[8])), legendary=max(p[8]) > 3,
                           clutch=p[9], art=None, status="proposed", notes=None)
                    for r, p in enumerate(players, start=2)],
        "tactics": [record("tactics", r, id=t[0], name=t[1], set=t[2], initiation=t[3], type=t[4], value=t[5],
                           cost=t[6], complexity=t[7], **{f"keep_{s}": k for s, k in zip(RATINGS, t[8])},
                           copies=t[9], alias=None, status="proposed", notes=None)
                    for r, t in enumerate(tactics, start=2)],
        "fatigue": [record("fatigue", 2, id="fatigue", name="Fatigue", copies=9,
                           text="Carte morte : elle ne paie rien. Un remplacement permet de s’en débarrasser.")],
        "durations": [record("durations", r, length=d[0], label=d[1], turns_per_player=d[2], pile_cards=d[3],
                             source_pile_cards=None, status="seed") for r, d in enumerate(DURATIONS, start=2)],
    }


def components(rules_changes: dict | None = None, **records_changes) -> dict:
    parts = card_components(sample_records(**records_changes), {**RULES, **(rules_changes or {})})
    return {part.id: part for part in parts}


# --- rendering and measuring ---------------------------------------------------------------------------------

_RENDERERS: dict[bool, FaceRenderer] = {}


def renderer(ink_saver: bool = False) -> FaceRenderer:
    if ink_saver not in _RENDERERS:
        _RENDERERS[ink_saver] = FaceRenderer(PROJECT_ROOT, GAME_DIR, default_fonts(), ink_saver=ink_saver)
    return _RENDERERS[ink_saver]


def layout(spec, ink_saver: bool = False):
    return renderer(ink_saver).layout(spec.template, spec.context, spec.ref, spec.name, size_mm=spec.size_mm)


def pdf_of(face) -> bytes:
    buffer = BytesIO()
    canvas = new_canvas(buffer, (face.width + 2 * face.bleed, face.height + 2 * face.bleed), default_fonts())
    canvas.translate(face.bleed, face.bleed)
    face.draw(canvas)
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def drawn(spec, ink_saver: bool = False):
    face, problems = layout(spec, ink_saver)
    assert problems == [], problems
    assert face.missing_art == (), face.missing_art
    return face, pdfplumber.open(BytesIO(pdf_of(face))).pages[0]


def mm(points: float, face) -> float:
    return (points - face.bleed) / MM


def box(obj, face) -> tuple[float, float, float, float]:
    """(x0, top, x1, bottom) of a pdfplumber object, in template mm."""
    return tuple(mm(obj[key], face) for key in ("x0", "top", "x1", "bottom"))


def font_size(char) -> float:
    """pdfplumber's `size` of a character turned 90° is its advance; its font size is then the box's width."""
    return char["size"] if char["upright"] else char["x1"] - char["x0"]


def flat_text(pdf_page) -> str:
    return " ".join(pdf_page.extract_text().split())


def turned_text(chars) -> str:
    """Text turned 90° clockwise: lines run down the page, each next line to the left of the previous one."""
    lines: dict[int, list[dict]] = {}
    for char in chars:
        lines.setdefault(round(char["x0"]), []).append(char)
    return " ".join("".join(c["text"] for c in sorted(line, key=lambda c: c["top"]))
                    for _, line in sorted(lines.items(), reverse=True))


def words(pdf_page, face, x0=-99.0, top=-99.0, x1=9999.0, bottom=9999.0, min_size=0.0) -> list[dict]:
    """Upright words inside a template rectangle (mm), with their size, top to bottom then left to right."""
    found = [w for w in pdf_page.extract_words(extra_attrs=["size", "upright"])
             if w["upright"] and w["size"] >= min_size and x0 - TOLERANCE <= mm(w["x0"], face)
             and mm(w["x1"], face) <= x1 + TOLERANCE and top - TOLERANCE <= mm(w["top"], face)
             and mm(w["bottom"], face) <= bottom + TOLERANCE]
    return sorted(found, key=lambda w: (round(mm(w["top"], face)), w["x0"]))


def art_paths(primitives) -> list[str]:
    out = []
    for primitive in primitives:
        if hasattr(primitive, "rel"):
            out.append(primitive.rel)
        out.extend(art_paths(getattr(primitive, "children", ()) or ()))
        out.extend(icon.rel for icon in getattr(primitive, "icons", ()) or ())
    return out


def text_runs(primitives) -> list:
    out = []
    for primitive in primitives:
        out.extend(getattr(primitive, "runs", ()) or ())
        out.extend(text_runs(getattr(primitive, "children", ()) or ()))
    return out


def every_face(parts: dict) -> list[tuple[str, object]]:
    """(template, FaceSpec) for every face the components give, boards with their data-driven size."""
    faces = []
    for part in parts.values():
        if isinstance(part, CardDeck):
            faces += list(part.fronts) + list(part.backs[:1])
        elif isinstance(part, BoardSpec):
            faces.append(part.face)
        elif isinstance(part, PageSpec):
            faces += list(part.faces)
    return faces


# (width, height, bleed, safe) in mm of every template this test owns
SIZES = {"player.yaml": (63.5, 88.9, 3, 3), "tactic.yaml": (63.5, 88.9, 3, 3), "fatigue.yaml": (63.5, 88.9, 3, 3),
         "back.yaml": (63.5, 88.9, 3, 3), "court.yaml": (None, None, 3, 3), "markets.yaml": (None, None, 3, 3),
         "aid-front.yaml": (148, 210, 0, 4), "aid-back.yaml": (148, 210, 0, 4), "score-sheet.yaml": (190, 254, 0, 0)}
OTHER_HELPERS = ("die-face", "dice-reference",     # the dice templates are drawn and tested elsewhere,
                 "fig-")                            # the rulebook's diagrams in test_rulebook_diagrams.py
VARIANTS = ({}, {"track_slots": 5, "market_slots": 4, "offence_slots": 2, "defence_slots": 4, "length": "epic",
                 "overtime_max": 1, "dice_cap_scope": "per_tactic", "keep_mode": "exactly",
                 "negative_score": "allow_negative", "end_rule": "market_empty_literal"})


# --- every face, every variant: no problem, text ≥ 6 pt inside the safe area, every glyph in its font -------------

@pytest.mark.parametrize("ink_saver", INK, ids=["normal", "ink-saver"])
@pytest.mark.parametrize("changes", VARIANTS, ids=["defaults", "other-rules"])
def test_every_face_lays_out_cleanly(changes, ink_saver):
    from reportlab.pdfbase import pdfmetrics

    for spec in every_face(components(changes)):
        face, pdf_page = drawn(spec, ink_saver)
        width, height, _, safe = SIZES[spec.template]
        width, height = width or face.width / MM, height or face.height / MM
        assert pdf_page.chars, spec.name
        for char in pdf_page.chars:
            assert font_size(char) >= 6 - 1e-3, (spec.name, char["text"], font_size(char))
            if char["text"].strip():
                x0, top, x1, bottom = box(char, face)
                where = (spec.name, char["text"], round(x0, 2), round(top, 2))
                assert x0 >= safe - TOLERANCE and x1 <= width - safe + TOLERANCE, where
                assert top >= safe - TOLERANCE and bottom <= height - safe + TOLERANCE, where
        for run in text_runs(face.primitives):       # the fonts have no arrow, no Σ: such a glyph would be blank
            glyphs = pdfmetrics.getFont(run.font).face.charToGlyph
            missing = {ch for ch in run.text if ord(ch) not in glyphs}
            assert not missing, (spec.name, run.text, missing)


def test_sizes_and_bleeds():
    parts = components()
    seen = set()
    for spec in every_face(parts):
        face, _ = layout(spec)
        width, height, bleed, _ = SIZES[spec.template]
        if width is None:
            width, height = spec.size_mm
        assert (round(face.width / MM, 3), round(face.height / MM, 3), round(face.bleed / MM, 3)) == \
            (width, height, bleed), spec.template
        seen.add(spec.template)
    assert seen == set(SIZES)
    assert parts["aid"].size_mm == (148.0, 210.0) and parts["score-sheet"].size_mm == (190.0, 254.0)
    for deck in ("players", "tactics", "fatigue"):
        assert parts[deck].size_mm == POKER_CARD


def test_the_templates_folder_holds_only_what_is_tested():
    yaml_files = {path.name for path in GAME_DIR.glob("*.yaml") if not path.stem.startswith(OTHER_HELPERS)}
    assert yaml_files == set(SIZES) | {"board-slots.yaml"}      # the boards' shared frame


# --- the components' contract (the rulebook picks figures by these names) -------------------------------------------

def test_components_ids_titles_and_face_names():
    parts = components()
    assert [(p.id, p.title, type(p).__name__) for p in parts.values()] == [
        ("players", "Joueurs", "CardDeck"), ("tactics", "Tactiques", "CardDeck"), ("fatigue", "Fatigue", "CardDeck"),
        ("court", "Terrain", "BoardSpec"), ("markets", "Marchés", "BoardSpec"), ("aid", "Aide de jeu", "PageSpec"),
        ("score-sheet", "Feuille de marque", "PageSpec")]
    assert [f.name for f in parts["players"].fronts] == [p[0] for p in PLAYER_ROWS]
    assert [f.name for f in parts["tactics"].fronts] == [f"{t[0]}-{c}" for t in TACTIC_ROWS for c in range(1, t[9] + 1)]
    assert [f.name for f in parts["fatigue"].fronts] == [f"fatigue-{c}" for c in range(1, 10)]
    assert [f.name for f in parts["aid"].faces] == ["aid-front", "aid-back"]
    assert parts["court"].face.name == "court" and parts["markets"].face.name == "markets"


def test_one_common_back_for_every_card():
    parts = components()
    backs = [back for deck in ("players", "tactics", "fatigue") for back in parts[deck].backs]
    assert len(backs) == len(PLAYER_ROWS) + sum(t[9] for t in TACTIC_ROWS) + 9
    assert {(b.template, b.name) for b in backs} == {("back.yaml", "back")}
    for ink_saver in INK:
        assert len({layout(b, ink_saver)[0].key for b in backs}) == 1
    _, pdf_page = drawn(backs[0])
    assert flat_text(pdf_page).count("DECK-BUILDING") == 1            # the other one is upside down
    assert sorted(c["text"] for c in pdf_page.chars if c["matrix"][0] < 0 and c["text"].strip()) == \
        sorted("DECK-BUILDINGNBA")


# --- Player cards ------------------------------------------------------------------------------------------------

def player_spec(name: str, parts=None):
    parts = parts or components()
    return next(f for f in parts["players"].fronts if f.name == name)


@pytest.mark.parametrize("ink_saver", INK, ids=["normal", "ink-saver"])
@pytest.mark.parametrize("row", PLAYER_ROWS, ids=[p[0] for p in PLAYER_ROWS])
def test_player_card_prints_value_cost_and_the_eight_ratings_in_order(row, ink_saver):
    face, pdf_page = drawn(player_spec(row[0]), ink_saver)
    value = words(pdf_page, face, 3, 3, 15, 15, min_size=16)
    assert [w["text"] for w in value] == [str(row[6])]                         # top-left
    cost = words(pdf_page, face, 49, 76, 60.5, 86, min_size=14)
    assert [w["text"] for w in cost] == [str(row[7]) if row[7] else "–"]       # bottom-right
    ratings = words(pdf_page, face, 4, 38, 60, 76, min_size=14)
    rows: dict[int, list[str]] = {}
    for w in ratings:
        rows.setdefault(round(mm(w["top"], face) / 3), []).append(w["text"])
    assert [v for line in rows.values() for v in line] == [str(v) for v in row[8]]
    assert [len(line) for line in rows.values()] == [3, 3, 2]                  # offence, defence, RB + GI
    # issue 20: each tile names its skill under its number, as the aid and the rulebook do
    labels = " ".join(w["text"] for w in words(pdf_page, face, 4, 38, 60, 76) if w["size"] < 8)
    assert labels == "3 Points Jeu intérieur Pénétration Interception Contre Stop Rebonds Intelligence"
    icons = [rel.rsplit("/", 1)[-1] for rel in art_paths(face.primitives) if "/icons/" in rel]
    assert [i for i in icons if i[:-4] in RATINGS] == [f"{s}.svg" for s in RATINGS]
    assert icons.count("medal.svg") == (1 if row[9] else 0)                      # clutch: medal top-right


def test_player_card_names_positions_kind_and_set_marker():
    parts = components()
    expectations = {
        "a_starter_mj_1": ("Titulaire MJ 1", ["MJ"], "TITULAIRE", "A · Initiation", "Meneur de jeu"),
        "b_sub_af_2": ("Remplaçant AF 2", ["AF"], "REMPLAÇANT", "B · Initiation", "Ailier fort"),
        "a_sub_p_2": ("Remplaçant P 2", ["P"], "REMPLAÇANT", "A", "Pivot"),
        "korver": ("Kyle Korver", ["Ar", "Ai"], None, None, "Arrière · Ailier"),
    }
    for name, (title, positions, ribbon, marker, words_) in expectations.items():
        face, pdf_page = drawn(player_spec(name, parts))
        top = " ".join(w["text"] for w in words(pdf_page, face, 15, 3, 48.5, 11.2))
        assert top == title
        assert [w["text"] for w in words(pdf_page, face, 4, 11, 60, 16)] == positions
        text = flat_text(pdf_page)
        assert words_ in text
        assert ("TITULAIRE" in text) == (ribbon == "TITULAIRE") and ("REMPLAÇANT" in text) == (ribbon == "REMPLAÇANT")
        bottom_left = " ".join(w["text"] for w in words(pdf_page, face, 3, 76, 30, 86))
        assert bottom_left == (marker or "")
        art = [rel for rel in art_paths(face.primitives) if "/art/" in rel]
        assert art == [f"templates/nba/art/position_{positions[0].lower()}.svg"]


def test_player_card_art_cell_overrides_the_position_drawing():
    spec = player_spec("korver")
    face, _ = drawn(type(spec)(spec.template, {**spec.context, "art_src": "art/position_p.svg"}, None, "x"))
    assert [rel for rel in art_paths(face.primitives) if "/art/" in rel] == ["templates/nba/art/position_p.svg"]
    records = sample_records()
    records["players"][3] = record("players", 5, **{**records["players"][3].values, "art": "art/position_ai.svg"})
    parts = {p.id: p for p in card_components(records, RULES)}
    face, _ = drawn(player_spec("korver", parts))
    assert [rel for rel in art_paths(face.primitives) if "/art/" in rel] == ["templates/nba/art/position_ai.svg"]


def test_the_longest_names_the_sheets_allow_fit_on_one_card():
    def longest(spec, column):
        return next(c.max_length for c in spec.columns if c.name == column)
    name = "WWWWWWWWWWWW MMMMMMMMMMMMMMMMMMMM"[:longest(PLAYERS, "name")]
    tactic = "Mmmmmmmmmm Wwwwwwwww Offense Moyen"[:longest(TACTICS, "name")]
    players = [(*PLAYER_ROWS[4][:1], name, *PLAYER_ROWS[4][2:])]
    tactics = [(*TACTIC_ROWS[4][:1], tactic, *TACTIC_ROWS[4][2:])]
    for ink_saver in INK:
        parts = components(players=players, tactics=tactics)
        face, pdf_page = drawn(parts["players"].fronts[0], ink_saver)
        inside = words(pdf_page, face, 15, 3, 48.5, 11.2)
        assert "".join(w["text"] for w in inside) == name.replace(" ", "")
        face, pdf_page = drawn(parts["tactics"].fronts[0], ink_saver)
        upright = words(pdf_page, face, 15, 3, 60, 11.2)
        assert "".join(w["text"] for w in upright) == tactic.replace(" ", "")


# --- Tactic cards: two orientations ------------------------------------------------------------------------------------

@pytest.mark.parametrize("ink_saver", INK, ids=["normal", "ink-saver"])
@pytest.mark.parametrize("row", TACTIC_ROWS, ids=[t[0] for t in TACTIC_ROWS])
def test_tactic_card_reads_upright_in_the_market_and_sideways_on_the_court(row, ink_saver):
    spec = next(f for f in components()["tactics"].fronts if f.name == f"{row[0]}-1")
    face, pdf_page = drawn(spec, ink_saver)
    chars = [c for c in pdf_page.chars if c["text"].strip()]
    upright, turned = [c for c in chars if c["upright"]], [c for c in chars if not c["upright"]]
    assert upright and turned
    for char in upright:                                     # market side: only above and below the panel
        x0, top, x1, bottom = box(char, face)
        assert bottom <= 16.5 + TOLERANCE or top >= 74.5 - TOLERANCE, (char["text"], top)
    for char in turned:                                      # court side: only inside the panel
        x0, top, x1, bottom = box(char, face)
        assert 4 - TOLERANCE <= x0 and x1 <= 59.5 + TOLERANCE and 16.5 - TOLERANCE <= top and bottom <= 74.5 + TOLERANCE
        assert char["matrix"][1] < 0                          # turned a quarter clockwise: read with the right edge up
    value = words(pdf_page, face, 3, 3, 15, 15, min_size=16)
    assert [w["text"] for w in value] == [str(row[5])]
    cost = words(pdf_page, face, 49, 76, 60.5, 86, min_size=14)
    assert [w["text"] for w in cost] == [str(row[6]) if row[6] else "–"]
    label = "Offensive" if row[4] == "offence" else "Défensive"
    upright_text = flat_text(pdf_page)
    assert row[1] in upright_text and f"TACTIQUE {label.upper()}" in upright_text
    assert (f"{row[2]} · Initiation" in upright_text) == (row[2] in "AB" and row[3])
    sideways = turned_text(turned)
    for fact in (row[1].replace(" ", ""), label.upper(), "COMPLEXITÉ", str(row[7]), "DÉSÀGARDER"):
        assert fact in sideways.replace(" ", ""), (fact, sideways)
    skills = dict(zip(RATINGS, (s[1] for s in SKILLS)))
    for code, keep in zip(RATINGS, row[8]):
        if keep:
            # issue 20: skill first, then the count in dice: "3 points (bleu) : 2 dés", never "2 3 points"
            assert re.search(re.escape(skills[code].replace(" ", "")) + r"\([a-z]+\):" + f"{keep}dés?(?![0-9])",
                             sideways.replace(" ", "")), (code, keep, sideways)
            assert f"{keep}{skills[code]}".replace(" ", "") not in sideways.replace(" ", "")
    icons = [rel.rsplit("/", 1)[-1][:-4] for rel in art_paths(face.primitives) if "/icons/" in rel]
    assert {code: icons.count(code) for code in RATINGS[:6]} == dict(zip(RATINGS[:6], row[8]))   # a square per die
    assert icons.count("arrow_up" if row[4] == "offence" else "arrow_down") == 1


# --- Fatigue -------------------------------------------------------------------------------------------------------

def test_fatigue_card_has_no_value_no_cost_and_prints_its_text():
    face, pdf_page = drawn(components()["fatigue"].fronts[0])
    text = flat_text(pdf_page)
    assert text.startswith("FATIGUE") and "Un remplacement permet" in text and "ni valeur, ni coût" in text
    assert not [c for c in pdf_page.chars if c["text"].isdigit()]
    assert "templates/nba/icons/fatigue.svg" in art_paths(face.primitives)


# --- boards: slots measured on the drawn PDF -------------------------------------------------------------------------

def slots(pdf_page, face) -> list[tuple[float, float, float, float]]:
    """Every card slot outline (stroked 1.2 pt) as (x, y, w, h) mm."""
    found = []
    for curve in pdf_page.curves:
        if abs(curve["linewidth"] - 1.2) < 0.01:
            x0, top, x1, bottom = box(curve, face)
            found.append((round(x0, 2), round(top, 2), round(x1 - x0, 2), round(bottom - top, 2)))
    return found


def check_slots(found, face) -> tuple[int, int]:
    """Every slot holds a poker card with 1 mm to spare each side, inside the trim, none overlapping; returns
    the (portrait, landscape) counts."""
    portrait = [s for s in found if s[2] >= POKER_CARD[0] + 2 and s[3] >= POKER_CARD[1] + 2]
    landscape = [s for s in found if s[2] >= POKER_CARD[1] + 2 and s[3] >= POKER_CARD[0] + 2]
    assert len(portrait) + len(landscape) == len(found), found
    width, height = face.width / MM, face.height / MM
    for x, y, w, h in found:
        assert x >= 3 and y >= 3 and x + w <= width - 3 and y + h <= height - 3
    for a, b in ((a, b) for i, a in enumerate(found) for b in found[i + 1:]):
        assert a[0] + a[2] <= b[0] or b[0] + b[2] <= a[0] or a[1] + a[3] <= b[1] or b[1] + b[3] <= a[1], (a, b)
    return len(portrait), len(landscape)


@pytest.mark.parametrize("changes", VARIANTS, ids=["defaults", "other-rules"])
def test_court_board_slots_follow_the_rules(changes):
    rules = {**RULES, **changes}
    part = components(changes)["court"]
    face, pdf_page = drawn(part.face)
    assert (round(face.width / MM, 3), round(face.height / MM, 3)) == part.size_mm
    portrait, landscape = check_slots(slots(pdf_page, face), face)
    assert (portrait, landscape) == (5 + 2, rules["offence_slots"] + rules["defence_slots"])
    text = flat_text(pdf_page)
    for label in ("MJ · Meneur de jeu", "Ar · Arrière", "Ai · Ailier", "AF · Ailier fort", "P · Pivot", "Dés offensifs",
                  "Dés défensifs", "Pioche", "Défausse", "TERRAIN"):
        assert label in text, label
    assert [f"Tactique offensive {k}" in text for k in range(1, 7)] == [k <= rules["offence_slots"] for k in range(1, 7)]
    assert [f"Tactique défensive {k}" in text for k in range(1, 7)] == [k <= rules["defence_slots"] for k in range(1, 7)]


@pytest.mark.parametrize("changes", VARIANTS, ids=["defaults", "other-rules"])
def test_markets_board_slots_follow_the_rules(changes):
    rules = {**RULES, **changes}
    part = components(changes)["markets"]
    face, pdf_page = drawn(part.face)
    portrait, landscape = check_slots(slots(pdf_page, face), face)
    assert (portrait, landscape) == (rules["track_slots"] + rules["market_slots"] + 5, 0)
    text = flat_text(pdf_page)
    for label in ("Pioche Joueur", "Défausse Joueur", "Pioche Fatigue", "Pioche Tactique", "Défausse Tactique",
                  f"pousse les autres vers Joueur {rules['track_slots']}", "vers la défausse", "MARCHÉS"):
        assert label in text, label
    assert [f"Joueur {k}" in text.replace("Joueur 1 et", "") for k in range(1, 8)] == \
        [k <= rules["track_slots"] for k in range(1, 8)]
    assert [f"Marché Tactique {k}" in text for k in range(1, 8)] == [k <= rules["market_slots"] for k in range(1, 8)]
    # the 1 -> n arrow: one long shaft above the track, its head past the last slot's middle
    shafts = [ln for ln in pdf_page.lines if abs(ln["linewidth"] - 3 * 1) < 0.01 and ln["width"] / MM > 100]
    track = sorted(s for s in slots(pdf_page, face) if s[1] < 30)
    assert len(shafts) == 1 and len(track) == rules["track_slots"]
    assert mm(shafts[0]["x0"], face) < track[0][0] + 5
    assert mm(shafts[0]["x1"], face) > track[-1][0] + track[-1][2] / 2


@pytest.mark.parametrize("track, market", [(6, 6), (5, 8), (1, 1), (10, 3), (3, 7)])
def test_markets_layout_never_overlaps_for_any_slot_counts(track, market):
    from pipeline.games.nba.components.boards import markets_layout

    board = markets_layout(track, market)
    boxes = [(s["x"], s["band_y"], s["x"] + s["w"], s["y"] + s["h"]) for s in board["slots"]]
    title = board["title"]
    boxes.append((title["x"], title["y"], title["x"] + title["w"], title["y"] + title["h"]))
    assert len(board["slots"]) == track + market + 5
    for a, b in ((a, b) for i, a in enumerate(boxes) for b in boxes[i + 1:]):
        assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)
    assert all(0 < x0 and x1 < board["size"][0] and 0 < y0 and y1 < board["size"][1] for x0, y0, x1, y1 in boxes)


def test_both_boards_tile_on_four_pages_of_either_paper():
    from pipeline.core.units import PAPERS_MM
    from pipeline.render.fonts import default_fonts as fonts
    from pipeline.render.sheets.decor import footer_items
    from pipeline.render.sheets.plan import PAGE_MARGIN as MARGIN, footer_line_count
    from pipeline.render.sheets.tiling import _map_group, plan_tiles

    for part in (components()["court"], components()["markets"]):
        for paper in ("a4", "letter"):
            size = PAPERS_MM[paper]
            lines = footer_line_count(footer_items(fonts(), ""), min(size) - 2 * MARGIN)
            plan = plan_tiles(size, part.size_mm, 3, 10.0, lambda long: _map_group(fonts(), part.size_mm, long), lines)
            assert (plan.cols, plan.rows) == (2, 2), (part.id, paper)


# --- score sheet ------------------------------------------------------------------------------------------------

def score_rows(pdf_page, face, x0, x1, top=42) -> list[str]:
    """The row numbers printed in a column of the sheet, top to bottom (the game's table starts under its
    15.5 mm header at y 42.5; the overtime blocks start at y 27)."""
    return [w["text"] for w in words(pdf_page, face, x0, top, x1, 254) if w["text"].isdigit()]


@pytest.mark.parametrize("length, turns", [(d[0], d[2]) for d in DURATIONS])
def test_score_sheet_has_a_row_per_turn_of_the_chosen_length(length, turns):
    face, pdf_page = drawn(components({"length": length})["score-sheet"].faces[0])
    assert score_rows(pdf_page, face, 0, 24) == [str(n) for n in range(1, turns + 1)]
    text = flat_text(pdf_page)
    assert f"{turns} tours chacun" in text and text.count("TOTAL") == 1 + RULES["overtime_max"]
    assert text.count("Dernier tour") == 1 + RULES["overtime_max"]
    rows = sorted({round(mm(w["top"], face), 1) for w in words(pdf_page, face, 0, 42, 24, 254) if w["text"].isdigit()})
    assert min(b - a for a, b in zip(rows, rows[1:])) >= 7.5              # room to write


@pytest.mark.parametrize("overtimes, per_player", [(3, 3), (2, 4), (0, 3)])
def test_score_sheet_overtime_blocks_follow_the_rules(overtimes, per_player):
    changes = {"overtime_max": overtimes, "overtime_turns": 2 * per_player}
    face, pdf_page = drawn(components(changes)["score-sheet"].faces[0])
    text = flat_text(pdf_page)
    assert [f"PROLONGATION {k}" in text for k in range(1, 5)] == [k <= overtimes for k in range(1, 5)]
    assert score_rows(pdf_page, face, 122, 140, top=27) == [str(n) for n in range(1, per_player + 1)] * overtimes
    face, pdf_page = drawn(components({"overtime_enabled": False})["score-sheet"].faces[0])
    assert "PROLONGATION" not in flat_text(pdf_page) and "match nul" in flat_text(pdf_page)


# --- player aid ------------------------------------------------------------------------------------------------------

def aid_text(changes=None, side=0) -> str:
    """The aid's text in reading order: on the front, the formulas (left) before the rerolls table (right)."""
    face, pdf_page = drawn(components(changes)["aid"].faces[side])
    if side == 1:
        return flat_text(pdf_page)
    boxes = ((0, 0, 148, 127), (0, 127, 95, 186), (95, 127, 148, 186), (0, 186, 148, 210))
    return " ".join(flat_text(pdf_page.crop(tuple(face.bleed + v * MM for v in b))) for b in boxes)


def test_aid_front_prints_the_rules_numbers():
    text = aid_text()
    for fact in ("Complétez votre main à 6 cartes", "au plus 10 par compétence", "÷ 3, arrondi au-dessus",
                 "au plus 3 offensives (en haut) et 3 défensives (en bas)", "sort de Joueur 6",
                 "d’éliminer 1 carte Fatigue", "(dans la Pioche Fatigue)", "jamais moins de 0", "Garder au plus",
                 "toutes les cartes de la piste avancent", "MJ Meneur de jeu", "Intelligence de jeu"):
        assert fact in text, fact


def test_aid_front_rerolls_table_is_computed_from_the_divisor():
    for divisor in (3, 2, 4):
        face, pdf_page = drawn(components({"reroll_divisor": divisor})["aid"].faces[0])
        table = [w["text"] for w in words(pdf_page, face, 97, 143, 140, 184)]
        assert table == [t for d in range(1, 10) for t in (str(d), str(-(-d // divisor)))]


def test_aid_front_follows_changed_rules():
    text = aid_text({"hand_size": 5, "dice_cap": 8, "dice_cap_scope": "per_tactic", "keep_mode": "exactly",
                     "negative_score": "allow_negative", "fatigue_per_substitution": 2, "fatigue_removed_to": "box",
                     "offence_slots": 2, "defence_slots": 4, "river_when_pile_empty": "static", "track_slots": 5,
                     "allow_free_tactic_discard": True})
    for fact in ("main à 5 cartes", "au plus 8 pour toute la tactique", "Garder exactement", "peut être négatif",
                 "2 cartes Fatigue", "(dans la boîte)", "au plus 2 offensives (en haut) et 4 défensives",
                 "la piste ne bouge plus", "sort de Joueur 5", "sans les remplacer"):
        assert fact in text, fact


def test_aid_back_lists_every_die_face_from_the_dice_sheet():
    face, pdf_page = drawn(components()["aid"].faces[1])
    names = dict(zip(RATINGS, (s[1] for s in SKILLS)))
    letters = {"blue": "B", "yellow": "J", "red": "R"}
    for d, (die, faces) in enumerate(FACES.items()):
        top = 24.5 + 10.4 * d
        row = words(pdf_page, face, 5, top, 143, top + 10.4)
        text = " ".join(w["text"] for w in row)
        assert names[die] in text
        values = [w["text"] for w in row if w["size"] >= 12]
        assert values == [str(v) if v else "–" for v, _ in faces]
        small = [w["text"] for w in row if w["size"] < 6.5 and w["text"] in "BJR"]
        assert small == [letters[c] for _, c in faces if c]          # the colour a defensive face cancels


def test_aid_back_end_of_game_follows_the_rules():
    text = aid_text(side=1)
    for fact in ("Partie normale : 20 cartes dans la Pioche Joueur, 12 tours chacun", "le premier des 6 derniers tours",
                 "posez 6 cartes face cachée", "Jouez 6 tours (3 chacun) sans aucun achat", "3 au plus, puis match nul",
                 "premier joueur", "tactiques défensives"):
        assert fact in text, fact
    text = aid_text({"length": "short", "end_rule": "market_empty_literal", "overtime_enabled": False}, side=1)
    assert "Partie courte : 12 cartes dans la Pioche Joueur, 8 tours chacun" in text
    assert "quand la piste Joueur est vide" in text and "Égalité : match nul." in text


def test_rule_parameters_of_the_sample_are_the_schema_s():
    assert set(RULES) == {p.name for p in RULE_PARAMETERS}


# --- every drawing: svglib reads it, the pipeline draws it, it is not blank ----------------------------------------

SVGS = sorted(GAME_DIR.glob("art/*.svg")) + sorted(GAME_DIR.glob("icons/*.svg"))


def test_every_required_drawing_exists():
    names = {path.relative_to(GAME_DIR).as_posix() for path in SVGS}
    required = ({f"icons/{code}.svg" for code in RATINGS}
                | {f"art/position_{p.lower()}.svg" for p in ("MJ", "Ar", "Ai", "AF", "P")}
                | {f"icons/{name}.svg" for name in ("medal", "fatigue", "arrow_up", "arrow_down", "arrow_right",
                                                     "ball", "collective")})
    assert required <= names, sorted(required - names)


def test_skill_icons_are_all_different():
    bodies = {(GAME_DIR / "icons" / f"{code}.svg").read_text(encoding="utf-8").split("-->", 1)[1] for code in RATINGS}
    assert len(bodies) == len(RATINGS)


@pytest.mark.parametrize("path", SVGS, ids=[p.relative_to(GAME_DIR).as_posix() for p in SVGS])
def test_every_svg_renders_through_the_pipeline(path):
    source = path.read_text(encoding="utf-8")
    for forbidden in ("<text", "<filter", "<mask", "Gradient", "class=", "<style", "<image"):
        assert forbidden not in source, forbidden
    width, height = natural_size(str(path))
    assert width > 0 and height > 0
    rel = path.relative_to(GAME_DIR).as_posix()
    spec = player_spec("korver")
    spec = type(spec)(spec.template, {**spec.context, "art_src": rel}, None, "svg")
    face, _ = drawn(spec)                                      # drawn as the card's art: no placeholder
    image = pypdfium2.PdfDocument(pdf_of(face))[0].render(scale=2).to_pil().convert("L")
    scale = 2 / MM
    window = tuple(round((v + 3) * scale) for v in (15, 18, 48, 41))
    assert image.crop(window).getextrema()[0] < 120, rel      # some dark ink in the art window


# --- the real workbook: every card of sheets/nba.xlsx lays out, and the sheets pass the print preflight --------------

@pytest.fixture(scope="module")
def workbook_parts():
    from pipeline.core.errors import Report
    from pipeline.games import load_game
    from pipeline.games.nba.components import parameters
    from pipeline.validate import load_records

    report = Report()
    records = load_records(load_game("nba", PROJECT_ROOT), PROJECT_ROOT, report)
    assert records is not None, report
    return {p.id: p for p in card_components(records, parameters(records))}


def test_every_card_of_the_workbook_lays_out_and_every_name_fits(workbook_parts):
    for deck in ("players", "tactics", "fatigue"):
        for spec in workbook_parts[deck].fronts:
            face, problems = layout(spec)
            assert problems == [] and face.missing_art == (), (spec.name, problems)
    assert len(workbook_parts["players"].fronts) == 140 and len(workbook_parts["tactics"].fronts) == 90
    assert len(workbook_parts["fatigue"].fronts) == 9


@pytest.mark.parametrize("paper", ("a4", "letter"))
def test_workbook_sheets_pass_pdfcheck(workbook_parts, paper, tmp_path):
    import subprocess
    import sys

    from pipeline.render.sheets.imposition import write_pnp
    from pipeline.render.sheets.pages import write_pages
    from pipeline.render.sheets.tiling import write_board_pnp

    def pdfcheck(path, *args):
        result = subprocess.run([sys.executable, str(PDFCHECK), "--no-tools", str(path), *args],
                                capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, result.stdout[-2000:]
        assert_ours(path, *args)                        # pnp's own preflight passes it too

    for ink_saver in INK if paper == "a4" else (False,):       # the ink-saver variant once is enough
        for deck in ("players", "tactics", "fatigue"):
            part = workbook_parts[deck]
            fronts = [layout(f, ink_saver)[0] for f in part.fronts]
            backs = [layout(b, ink_saver)[0] for b in part.backs]
            path = tmp_path / f"{deck}-{ink_saver}.pdf"
            write_pnp(path, fronts, backs, PrintOptions(paper=paper, ink_saver=ink_saver))
            pdfcheck(path, "--expect-card", "63.5x88.9", "--paper", paper)
        for board in ("court", "markets"):
            path = tmp_path / f"{board}-{ink_saver}.pdf"
            write_board_pnp(path, layout(workbook_parts[board].face, ink_saver)[0], PrintOptions(paper=paper))
            pdfcheck(path, "--duplex", "off", "--paper", paper)
    for page in ("aid", "score-sheet"):
        path = tmp_path / f"{page}.pdf"
        write_pages(path, [layout(f)[0] for f in workbook_parts[page].faces], PrintOptions(paper=paper))
        pdfcheck(path, "--duplex", "off", "--paper", paper)
