"""All-Star Draft's templates and drawings: every template is laid out with the contexts the game's
components give it (sample data of the same shape: the workbook's species, arenas and orders may differ),
drawn to a PDF and read back with pdfplumber, so the checks see what a printer would get."""

from __future__ import annotations

from io import BytesIO
from pathlib import Path

import pdfplumber
import pypdfium2
import pytest

from pipeline import PROJECT_ROOT
from pipeline.core.units import MM
from pipeline.games.allstar.components import fan_track, supporter_side
from pipeline.games.allstar.schema import (ARENAS as ARENAS_SHEET, COLORADD, ICONS, RULE_PARAMETERS,
                                           SPECIES as SPECIES_SHEET, SYMBOLS as SYMBOLS_SHEET)
from pipeline.render.faces.art import ArtLibrary, natural_size
from pipeline.render.faces.renderer import FaceRenderer
from pipeline.render.fonts import default_fonts
from pipeline.render.pdf import new_canvas

GAME_DIR = PROJECT_ROOT / "templates" / "allstar"
CARD = {"index": 1, "copy": 1, "copies": 1}
INK = (False, True)
TOLERANCE = 0.3     # mm

# --- sample data, in the shapes the lead's components.py passes --------------------------------------------

SPECIES = (  # id, name, colour, ColorADD code
    ("bear", "Ours", "#7B4A25", "brown"), ("duck", "Canard", "#E8C21E", "yellow"),
    ("horse", "Cheval", "#E07B22", "orange"), ("panda", "Panda", "#2B2B2B", "black"),
    ("caribou", "Caribou", "#8C939B", "grey"), ("owl", "Hibou", "#7D4BA8", "purple"),
    ("fox", "Renard", "#C8372D", "red"), ("wolf", "Loup", "#2E6FD0", "blue"),
    ("beaver", "Castor", "#2E9E5B", "green"), ("moose", "Orignal", "#6EC1E8", "light_blue"),
    ("lynx", "Lynx", "#E889B5", "pink"), ("walrus", "Morse", "#8E1F2A", "dark_red"))
SYMBOLS = (("stick", "Crosse"), ("puck", "Palet"), ("skate", "Patin"), ("helmet", "Casque"), ("glove", "Gant"))
COLOURS = (("blue", "Bleu", "B", "#2E6FD0"), ("yellow", "Jaune", "J", "#E8B823"), ("red", "Rouge", "R", "#C8372D"),
           ("green", "Vert", "V", "#2E9E5B"), ("orange", "Orange", "O", "#E07B22"), ("black", "Noir", "N", "#333333"))
ATTRIBUTE_LABELS = {"symbol": "Symbole", "number": "Numéro", "species": "Espèce"}
ICON_WORDS = {
    "unusual_count": ("Décompte inhabituel", "Cette arène ne récompense pas les rangs dans l'ordre habituel."),
    "not_for_2": ("Pas à deux", "Retirez cette arène des parties à 2 managers."),
    "straight_beats_5": ("Suite", "Cinq numéros qui se suivent battent une équipe de puissance 5."),
    "full_house_beats_5": ("Full", "Un groupe de 3 et un groupe de 2 battent une équipe de puissance 5."),
    "all_symbols_beats_5": ("Panoplie", "Les 5 symboles différents battent une équipe de puissance 5."),
}
RULES = {"players_min": 2, "players_max": 6, "rounds": 3, "hand_size": 6, "team_size": 5, "species_per_manager": 2,
         "tickets_2": 2, "tickets_3": 1, "tickets_4plus": 0, "ticket_bonus_2": 2, "ticket_bonus_3": 3,
         "swaps_per_round": "per_team", "playoff_weakest_by": "power", "min_substitution": 2,
         "max_substitution": 4, "mode": "heritage", "duo_hand_size": 7, "duo_species": 5, "open_market_species": 6,
         "final_tiebreak_includes_ticket_bonus": True, "track_length": 50, "max_steps": 100000}


def species(k: int, **changes) -> dict:
    sid, name, colour, code = SPECIES[k]
    return {"id": sid, "name": name, "colour": colour, "coloradd_code": code, "art": None, **changes}


def hockey(k: int, number: int, symbol: int | None = None, **changes) -> dict:
    sid, sname = SYMBOLS[(k + number) % 5 if symbol is None else symbol]
    return {"id": f"{SPECIES[k][0]}_{number}", "number": number, "species": species(k, **changes),
            "symbol": {"id": sid, "name": sname}}


def colour(k: int) -> dict:
    cid, name, letter, hex_ = COLOURS[k]
    return {"id": cid, "name": name, "letter": letter, "hex": hex_}


def arena(points=(13, 10, 7, 5, 3, 1), icons=(), name="Patinoire du Lac", text=None) -> dict:
    return {"id": "lac", "name": name, "points": list(points), "icons": list(icons), "text": text}


def values(attribute: str) -> list[dict]:
    if attribute == "symbol":
        return [{"value": sid, "label": name, "icon": sid, "coloradd": None} for sid, name in SYMBOLS]
    if attribute == "number":
        return [{"value": n, "label": str(n), "icon": None, "coloradd": None} for n in range(9, 0, -1)]
    return [{"value": s[0], "label": s[1], "icon": None, "coloradd": s[3]} for s in SPECIES]


def tiebreak(side: str) -> dict:
    order = ("symbol", "number", "species") if side == "2-4" else ("symbol", "species", "number")
    criteria = [{"medal": medal, "rank": rank, "attribute": attribute, "label": ATTRIBUTE_LABELS[attribute],
                 "values": values(attribute)}
                for rank, (medal, attribute) in enumerate(zip(("or", "argent", "bronze"), order), start=1)]
    return {"side": side, "managers_label": "2 à 4 managers" if side == "2-4" else "5 à 6 managers",
            "criteria": criteria}


def playoff() -> dict:
    return {"table": [{"managers": n, "points": [11 + 4 * (n - rank) for rank in range(1, n + 1)]}
                      for n in range(2, 7)], "bonus": {2: 2, 3: 3}}


def aid(**rule_changes) -> dict:
    return {"rules": {**RULES, **rule_changes},
            "tiebreak": {"2-4": ["Symbole", "Numéro", "Espèce"], "5-6": ["Symbole", "Espèce", "Numéro"]},
            "icons": [{"id": icon, "label": ICON_WORDS[icon][0], "text": ICON_WORDS[icon][1]} for icon in ICONS]}


def fanzone(colour_: dict, length: int) -> dict:
    return {"colour": colour_, "track_length": length, "track": fan_track(length)}


def supporter(colour_: dict) -> dict:
    return {"colour": colour_, "side": supporter_side(fan_track(50))}


def every_context() -> dict[str, list[dict]]:
    return {
        "hockey.yaml": [hockey(k, n) for k in range(len(SPECIES)) for n in (1, 9)]
                       + [hockey(0, 6, s) for s in range(5)],
        "back-hockey.yaml": [{}],
        "arena.yaml": [arena(), arena(icons=ICONS, text="Ici, la foule chante même quand on perd.")]
                      + [arena((8, 12, 6, 3, 2, 0), (icon,), "Colisée des Glaces Boréales du Grand Nord")
                         for icon in ICONS]
                      + [arena(icons=("unusual_count", "not_for_2")), arena(icons=ICONS[2:])],
        "back-arena.yaml": [{}],
        "fanzone.yaml": [fanzone(colour(k), 50) for k in range(len(COLOURS))]
                        + [fanzone(colour(0), 100), fanzone(colour(1), 23)],
        "busstation.yaml": [{}],
        "tiebreak.yaml": [tiebreak("2-4"), tiebreak("5-6")],
        "playoff.yaml": [playoff()],
        "back-large.yaml": [{}],
        "back-playoff.yaml": [{}],
        "bus.yaml": [{"colour": colour(k), "value": v} for k in range(len(COLOURS)) for v in (1, 2, 3)],
        "back-bus.yaml": [{}],
        "supporter.yaml": [{"colour": colour(k)} for k in range(len(COLOURS))],
        "supporter-small.yaml": [supporter(colour(k)) for k in range(len(COLOURS))],
        "ticket.yaml": [{}],
        "aid.yaml": [aid(), aid(playoff_weakest_by="full_key", swaps_per_round="one_total",
                                final_tiebreak_includes_ticket_bonus=False, rounds=4)],
        "aid-back.yaml": [aid(), aid(playoff_weakest_by="full_key", swaps_per_round="one_total",
                                     final_tiebreak_includes_ticket_bonus=False, rounds=4)],
    }


# (width, height, bleed, safe) in mm
SIZES = {"hockey.yaml": (63.5, 88.9, 3, 3), "back-hockey.yaml": (63.5, 88.9, 3, 3),
         "arena.yaml": (88, 126, 3, 3), "back-arena.yaml": (88, 126, 3, 3), "fanzone.yaml": (88, 126, 3, 3),
         "busstation.yaml": (88, 126, 3, 3), "tiebreak.yaml": (88, 126, 3, 3), "playoff.yaml": (63.5, 88.9, 3, 3),
         "back-large.yaml": (88, 126, 3, 3), "back-playoff.yaml": (63.5, 88.9, 3, 3),
         "bus.yaml": (18, 18, 3, 3), "back-bus.yaml": (18, 18, 3, 3), "supporter.yaml": (18, 18, 3, 3),
         "supporter-small.yaml": (7, 7, 3, 0.7), "ticket.yaml": (36, 18, 3, 2.5), "aid.yaml": (148, 210, 0, 3),
         "aid-back.yaml": (148, 210, 0, 3)}                 # an A5 aid per manager, two a sheet (issue 29)


# --- rendering and measuring ---------------------------------------------------------------------------------

_RENDERERS: dict[bool, FaceRenderer] = {}


def renderer(ink_saver: bool = False) -> FaceRenderer:
    if ink_saver not in _RENDERERS:
        _RENDERERS[ink_saver] = FaceRenderer(PROJECT_ROOT, GAME_DIR, default_fonts(), ink_saver=ink_saver)
    return _RENDERERS[ink_saver]


def layout(template: str, context: dict, ink_saver: bool = False):
    return renderer(ink_saver).layout(template, {**context, "card": CARD}, None, template)


def pdf_of(face) -> bytes:
    buffer = BytesIO()
    canvas = new_canvas(buffer, (face.width + 2 * face.bleed, face.height + 2 * face.bleed), default_fonts())
    canvas.translate(face.bleed, face.bleed)
    face.draw(canvas)
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def drawn(template: str, context: dict, ink_saver: bool = False):
    face, problems = layout(template, context, ink_saver)
    assert problems == [], problems
    assert face.missing_art == (), face.missing_art
    return face, pdfplumber.open(BytesIO(pdf_of(face))).pages[0]


def mm(points: float, face) -> float:
    return (points - face.bleed) / MM


def font_size(char) -> float:
    """pdfplumber's `size` of a character turned 90° is its advance; its font size is then the box's width."""
    return char["size"] if char["upright"] else char["x1"] - char["x0"]


def flat_text(pdf_page) -> str:
    return " ".join(pdf_page.extract_text().split())


def turned_text(pdf_page, chars=None) -> str:
    """The text of a face whose content is turned 90° clockwise: lines run down the page, the next line to the
    left of the previous one."""
    lines: dict[int, list[dict]] = {}
    for char in chars if chars is not None else pdf_page.chars:
        lines.setdefault(round(char["x0"]), []).append(char)
    return " ".join("".join(c["text"] for c in sorted(line, key=lambda c: c["top"]))
                    for _, line in sorted(lines.items(), reverse=True))


def lines_of_words(pdf_page) -> list[list[dict]]:
    """Upright words grouped into lines (same top within 1 pt), each line sorted left to right."""
    lines: list[list[dict]] = []
    for word in sorted(pdf_page.extract_words(), key=lambda w: (round(w["top"]), w["x0"])):
        if lines and abs(lines[-1][0]["top"] - word["top"]) < 1.5:
            lines[-1].append(word)
        else:
            lines.append([word])
    return [sorted(line, key=lambda w: w["x0"]) for line in lines]


# --- every template, every variant: no problem, no text under 6 pt, text inside the safe area -----------------

@pytest.mark.parametrize("ink_saver", INK, ids=["normal", "ink-saver"])
@pytest.mark.parametrize("template", sorted(SIZES))
def test_every_variant_lays_out_cleanly(template, ink_saver):
    width, height, _, safe = SIZES[template]
    for context in every_context()[template]:
        face, pdf_page = drawn(template, context, ink_saver)
        assert pdf_page.chars, template
        for char in pdf_page.chars:
            assert font_size(char) >= 6 - 1e-3, (template, char["text"], font_size(char))
            if char["text"].strip():
                x0, x1, top, bottom = (mm(char[key], face) for key in ("x0", "x1", "top", "bottom"))
                where = (template, char["text"], round(x0, 2), round(top, 2))
                assert x0 >= safe - TOLERANCE and x1 <= width - safe + TOLERANCE, where
                assert top >= safe - TOLERANCE and bottom <= height - safe + TOLERANCE, where


def test_sizes_and_bleeds():
    contexts = every_context()
    assert set(contexts) == set(SIZES)
    for template, (width, height, bleed, _) in SIZES.items():
        face, _ = layout(template, contexts[template][0])
        assert (round(face.width / MM, 3), round(face.height / MM, 3), round(face.bleed / MM, 3)) == \
            (width, height, bleed), template


def test_the_templates_folder_holds_only_what_is_tested():
    yaml_files = {path.name for path in GAME_DIR.glob("*.yaml") if not path.name.startswith("fig-")}
    assert yaml_files == set(SIZES)        # the rulebook's fig-*.yaml diagrams: test_rulebook_diagrams.py


# --- hockey cards ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("ink_saver", INK, ids=["normal", "ink-saver"])
@pytest.mark.parametrize("k", range(len(SPECIES)), ids=[s[0] for s in SPECIES])
def test_hockey_card_shows_number_twice_species_and_symbol(k, ink_saver):
    for number in (1, 9):
        context = hockey(k, number)
        face, pdf_page = drawn("hockey.yaml", context, ink_saver)
        big = [c for c in pdf_page.chars if c["size"] >= 20]
        assert sorted(c["text"] for c in big) == [str(number)] * 2
        upright = [c for c in big if c["matrix"][0] > 0]
        turned = [c for c in big if c["matrix"][0] < 0]
        assert len(upright) == len(turned) == 1
        assert mm(upright[0]["x0"], face) < 16 and mm(upright[0]["top"], face) < 16          # top-left corner
        assert mm(turned[0]["x0"], face) > 47 and mm(turned[0]["bottom"], face) > 72         # bottom-right, 180°
        text = flat_text(pdf_page)
        assert context["species"]["name"].upper() in text and context["symbol"]["name"] in text
        assert face.missing_art == ()


def test_six_and_nine_are_underlined_both_ways():
    def bars(number):
        _, pdf_page = drawn("hockey.yaml", hockey(0, number))
        return [line for line in pdf_page.lines if abs(line["width"] / MM - 4.7) < 0.05]
    assert len(bars(6)) == len(bars(9)) == 2
    assert bars(8) == []


def test_hockey_card_draws_every_species_art_and_every_coloradd_code():
    for k in range(len(SPECIES)):
        face, _ = drawn("hockey.yaml", hockey(k, 5))
        assert face.missing_art == ()
    for code in COLORADD:
        drawn("hockey.yaml", hockey(0, 5, coloradd_code=code))      # an unknown icon would be a problem


def test_hockey_card_uses_the_art_column_when_set():
    face, _ = drawn("hockey.yaml", hockey(0, 3, art="art/moose.svg"))
    assert "templates/allstar/art/moose.svg" in _art_paths(face.primitives)
    face, problems = layout("hockey.yaml", hockey(0, 3, art="art/nobody.svg"))
    assert face.missing_art == ("templates/allstar/art/nobody.svg",)


def test_the_longest_names_the_sheets_allow_still_fit():
    def longest(spec, column):
        return next(c.max_length for c in spec.columns if c.name == column)
    name = "Grand Tatou des Glaciers du Nord"[:longest(SPECIES_SHEET, "name")]
    context = hockey(0, 8, name=name)
    context["symbol"]["name"] = "Jambières de gardien de but"[:longest(SYMBOLS_SHEET, "name")]
    for ink_saver in INK:
        drawn("hockey.yaml", context, ink_saver)
        flavour = ("Une arène mythique où la foule chante sans relâche, même quand son équipe encaisse dix buts "
                   "de suite en plein hiver.")[:longest(ARENAS_SHEET, "text")]
        arena_name = "Le Grand Colisée Royal des Glaces"[:longest(ARENAS_SHEET, "name")]
        drawn("arena.yaml", arena(icons=ICONS, name=arena_name, text=flavour), ink_saver)
        sides = tiebreak("5-6")
        sides["criteria"][1]["values"][0]["label"] = name
        sides["criteria"][0]["values"][0]["label"] = context["symbol"]["name"]
        drawn("tiebreak.yaml", sides, ink_saver)


# --- arenas -----------------------------------------------------------------------------------------------------

def table_rows(pdf_page) -> dict[int, list[str]]:
    """Row "N managers" -> the words printed after its label on the same line."""
    rows = {}
    for line in lines_of_words(pdf_page):
        texts = [w["text"] for w in line]
        if len(texts) >= 2 and texts[1] == "managers" and texts[0].isdigit():
            rows[int(texts[0])] = texts[2:]
    return rows


@pytest.mark.parametrize("ink_saver", INK, ids=["normal", "ink-saver"])
def test_arena_table_prints_p1_to_pN_for_N_managers(ink_saver):
    points = (14, 11, 8, 6, 4, 2)
    for icons in ((), ("straight_beats_5",), ICONS[2:]):
        _, pdf_page = drawn("arena.yaml", arena(points, icons), ink_saver)
        rows = table_rows(pdf_page)
        assert rows == {n: [str(p) for p in points[:n]] for n in range(2, 7)}


def test_arena_without_2_managers_says_so_in_words():
    points = (8, 12, 6, 3, 2, 0)
    _, pdf_page = drawn("arena.yaml", arena(points, ("unusual_count", "not_for_2")))
    rows = table_rows(pdf_page)
    assert rows[2] == ["Pas", "à", "deux", ":", "Arène", "retirée"]
    assert {n: rows[n] for n in range(3, 7)} == {n: [str(p) for p in points[:n]] for n in range(3, 7)}
    text = flat_text(pdf_page)
    assert "retirez cette Arène du paquet dans une partie à 2 managers" in text
    assert "Décompte inhabituel" in text


@pytest.mark.parametrize("icon", ICONS)
def test_arena_explains_each_special_icon(icon):
    face, pdf_page = drawn("arena.yaml", arena(icons=(icon,)))
    words = {"unusual_count": "Décompte inhabituel :", "not_for_2": "Pas à deux :", "straight_beats_5": "Suite :",
             "full_house_beats_5": "Full :", "all_symbols_beats_5": "Panoplie :"}
    assert words[icon] in flat_text(pdf_page)
    icon_art = [rel for rel in _art_paths(face.primitives) if rel.endswith(f"icons/{icon}.svg")]
    # in the band's corner and beside its explanation (and in the 2-manager row of the table for not_for_2)
    assert len(icon_art) == (3 if icon == "not_for_2" else 2)


def test_arena_names_and_flavour_text():
    _, pdf_page = drawn("arena.yaml", arena(name="Forum", text="Un vieux temple du hockey."))
    text = flat_text(pdf_page)
    assert "Forum" in text and "Un vieux temple du hockey." in text and "SUPPORTERS PAR PLACE" in text
    assert "Pas d’icône spéciale" in text


# --- tie-breakers ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("ink_saver", INK, ids=["normal", "ink-saver"])
@pytest.mark.parametrize("side", ("2-4", "5-6"))
def test_tiebreak_lists_every_value_in_order(side, ink_saver):
    context = tiebreak(side)
    face, pdf_page = drawn("tiebreak.yaml", context, ink_saver)
    for c, criterion in enumerate(context["criteria"]):
        left = 4 + c * 26.8
        inside = [w for w in pdf_page.extract_words(extra_attrs=["fontname"]) if "Italic" not in w["fontname"]
                  and left + 4.2 <= mm(w["x0"], face) and mm(w["x1"], face) <= left + 26.4
                  and 39 <= mm(w["top"], face) and mm(w["bottom"], face) <= 110]
        assert [w["text"] for w in sorted(inside, key=lambda w: w["top"])] == [v["label"] for v in criterion["values"]]
        head = flat_text(pdf_page.crop(((face.bleed + left * MM), face.bleed + 20 * MM,
                                        face.bleed + (left + 26.4) * MM, face.bleed + 36 * MM)))
        assert {"or": "OR", "argent": "ARGENT", "bronze": "BRONZE"}[criterion["medal"]] in head
        assert criterion["label"] in head
    text = flat_text(pdf_page)
    assert context["managers_label"] in text and side.replace("-", "–") in text
    assert "DÉPARTAGE" in text and "TIE" not in text.upper()      # the card's French name, as the aid and rulebook
    icons = [rel for rel in _art_paths(face.primitives) if "/icons/coloradd_" in rel]
    assert sorted(icons) == sorted(f"templates/allstar/icons/coloradd_{s[3]}.svg" for s in SPECIES)


def _art_paths(primitives) -> list[str]:
    out = []
    for primitive in primitives:
        if hasattr(primitive, "rel"):
            out.append(primitive.rel)
        for child in getattr(primitive, "children", ()) or ():
            out.extend(_art_paths((child,)))
        for icon in getattr(primitive, "icons", ()) or ():
            out.append(icon.rel)
    return out


# --- fan zone, bus station, play-off points ---------------------------------------------------------------------

@pytest.mark.parametrize("length", (50, 23, 100))
def test_fanzone_track_numbers_every_space_and_emphasises_fives(length):
    face, pdf_page = drawn("fanzone.yaml", fanzone(colour(2), length))
    words = pdf_page.extract_words(extra_attrs=["fontname", "size"])
    track = [w for w in words if w["text"].isdigit() and mm(w["top"], face) > 20 and mm(w["bottom"], face) < 120
             and mm(w["x1"], face) < 54]
    assert sorted(int(w["text"]) for w in track) == list(range(length))
    for w in track:
        assert ("Black" in w["fontname"]) == (int(w["text"]) % 5 == 0), w
    text = flat_text(pdf_page)
    assert "Rouge" in text and "R" in text.split() and "BANC" in text and f"+{length}" in text
    assert "2e jeton supporter" in text


@pytest.mark.parametrize("ink_saver", INK, ids=["normal", "ink-saver"])
def test_bus_station_columns_run_special_then_5_to_1(ink_saver):
    face, pdf_page = drawn("busstation.yaml", {}, ink_saver)
    big = sorted((c for c in pdf_page.chars if font_size(c) >= 40), key=lambda c: c["top"])
    assert [c["text"] for c in big] == ["5", "4", "3", "2", "1"]          # turned 90°: left to right = down
    text = " ".join(turned_text(pdf_page).split())
    assert "SPÉCIAL" in text and text.count("PUISSANCE") == 5 and "Puissance" in text
    assert "le même symbole" in text and "la même espèce" in text


def test_playoff_card_prints_points_per_managers_and_the_ticket_bonus():
    context = playoff()
    _, pdf_page = drawn("playoff.yaml", context)
    # turned 90°: one line of table numbers per number of managers, read from the card's top
    numbers = [c for c in pdf_page.chars if "Black" in c["fontname"] and c["text"].strip()]
    printed = turned_text(pdf_page, numbers).split()
    assert printed == ["".join(str(p) for p in row["points"]) for row in context["table"]]
    text = " ".join(turned_text(pdf_page).split())
    assert all(f"{row['managers']} managers" in text for row in context["table"])
    assert "+2 à 2 managers" in text and "+3 à 3 managers" in text and "POINTS DE PLAY-OFF" in text


# --- tokens -----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("ink_saver", INK, ids=["normal", "ink-saver"])
def test_bus_shows_value_and_letter_and_its_back_shows_neither(ink_saver):
    for k in range(len(COLOURS)):
        for value in (1, 2, 3):
            _, pdf_page = drawn("bus.yaml", {"colour": colour(k), "value": value}, ink_saver)
            assert sorted(c["text"] for c in pdf_page.chars) == sorted([str(value), COLOURS[k][2]])
    backs = {layout("back-bus.yaml", {"colour": colour(k), "value": v}, ink_saver)[0].key
             for k in range(len(COLOURS)) for v in (1, 2, 3)}
    assert len(backs) == 1
    _, pdf_page = drawn("back-bus.yaml", {}, ink_saver)
    assert flat_text(pdf_page) == "BUS"


def test_supporters_and_ticket():
    for template in ("supporter.yaml", "supporter-small.yaml"):
        for k in range(len(COLOURS)):
            _, pdf_page = drawn(template, supporter(colour(k)) if template == "supporter-small.yaml"
                                else {"colour": colour(k)})
            assert flat_text(pdf_page) == COLOURS[k][2]
    _, pdf_page = drawn("ticket.yaml", {})
    assert flat_text(pdf_page).startswith("TICKET PLAY-OFF")


# --- player aid -------------------------------------------------------------------------------------------------

def aid_pages(context: dict) -> tuple:
    """The aid's two A5 pages, front and back, drawn from the same context."""
    return drawn("aid.yaml", context)[1], drawn("aid-back.yaml", context)[1]


def aid_text(pages) -> str:
    """The aid's front then its back, each read top to bottom."""
    return " ".join(flat_text(page) for page in pages)


def test_aid_prints_the_rules_numbers():
    pages = aid_pages(aid())
    text, pdf_page = aid_text(pages), pages[1]
    for fact in ("Aide de jeu · 2 à 6 managers", "3 manches de draft", "chacun reçoit 6 cartes",
                 "une équipe de 5 cartes", "remplace 2 à 4", "+2 supporters chacun à 2 managers, +3 à 3",
                 "2 à 2 managers, 1 à 3, 0 à 4 et plus", "ses 18 cartes", "2 espèces par manager",
                 "Héritage", "Marché ouvert (6 espèces)", "(5 espèces, mains de 7 cartes)",
                 "tickets restants compris",
                 "chaque équipe déjà jouée", "la plus faible puissance"):
        assert fact in text, fact
    rows = {tuple(w["text"] for w in line) for line in lines_of_words(pdf_page)}
    assert ("2", "à", "4", "managers", "Symbole", "Numéro", "Espèce") in rows
    assert ("5", "à", "6", "managers", "Symbole", "Espèce", "Numéro") in rows
    for label, _ in ICON_WORDS.values():
        assert label in text


def test_aid_follows_changed_rules():
    text = aid_text(aid_pages(aid(rounds=4, hand_size=7, team_size=4, min_substitution=1, max_substitution=3,
                                  ticket_bonus_2=5, swaps_per_round="one_total",
                                  playoff_weakest_by="full_key", final_tiebreak_includes_ticket_bonus=False)))
    for fact in ("4 manches de draft", "chacun reçoit 7 cartes", "une équipe de 4 cartes", "remplace 1 à 3",
                 "+5 supporters", "ses 28 cartes", "1 seule carte", "Puissance, puis carte Départage",
                 "sans les tickets restants", "1 à 4"):
        assert fact in text, fact


# --- every drawing: svglib reads it, the pipeline draws it, it is not blank -------------------------------------

SVGS = sorted(GAME_DIR.glob("art/*.svg")) + sorted(GAME_DIR.glob("icons/*.svg"))


def test_every_required_drawing_exists():
    names = {path.relative_to(GAME_DIR).as_posix() for path in SVGS}
    required = ({f"art/{s[0]}.svg" for s in SPECIES} | {f"icons/{s[0]}.svg" for s in SYMBOLS}
                | {f"icons/{icon}.svg" for icon in ICONS} | {f"icons/coloradd_{code}.svg" for code in COLORADD}
                | {f"icons/{name}.svg" for name in ("medal_gold", "medal_silver", "medal_bronze", "bus", "ticket",
                                                     "supporter", "bench")}
                | {"art/logo.svg", "art/rink.svg"})
    assert required <= names, sorted(required - names)


def test_coloradd_glyphs_are_all_different():
    bodies = {}
    for code in COLORADD:
        body = (GAME_DIR / "icons" / f"coloradd_{code}.svg").read_text(encoding="utf-8").split("-->", 1)[1]
        bodies.setdefault(body, []).append(code)
    assert all(len(codes) == 1 for codes in bodies.values()), [c for c in bodies.values() if len(c) > 1]


@pytest.mark.parametrize("path", SVGS, ids=[p.relative_to(GAME_DIR).as_posix() for p in SVGS])
def test_every_svg_renders_through_the_pipeline(path: Path):
    source = path.read_text(encoding="utf-8")
    for forbidden in ("<text", "<filter", "<mask", "Gradient", "class=", "<style", "<image"):
        assert forbidden not in source, forbidden
    width, height = natural_size(str(path))
    assert width > 0 and height > 0
    rel = path.relative_to(GAME_DIR).as_posix()
    # drawn as a species' art (image element) on a hockey card: no placeholder, no problem
    face, problems = layout("hockey.yaml", hockey(0, 5, art=rel))
    assert problems == [] and face.missing_art == ()
    if rel.startswith("icons/"):
        assert ArtLibrary(PROJECT_ROOT, PROJECT_ROOT / "templates", GAME_DIR).icon(path.stem) is not None
    # and the drawing really paints something: render the art box and look for ink
    pdf = pypdfium2.PdfDocument(pdf_of(face))
    image = pdf[0].render(scale=2).to_pil().convert("L")
    scale = 2 / MM
    box = tuple(round((v + 3) * scale) for v in (17, 15, 58.5, 58))
    extrema = image.crop(box).getextrema()
    assert extrema[0] < 120, rel                   # some dark ink in the art window


def test_rule_parameters_used_by_the_aid_exist():
    names = {p.name for p in RULE_PARAMETERS}
    assert set(RULES) == names
