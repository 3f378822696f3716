"""Printable dice: cube nets and sticker sheets measured back from the written PDFs (content streams,
pdfplumber, the shared preflight), NBA's dice faces and its dice reference page.

The dice come from a small fixture holding the face table of shared/games/nba-deck-building.md §2.1–2.2, so
these tests do not depend on the rest of the NBA workbook."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

import openpyxl
import pdfplumber
import pikepdf
import pytest

from pipeline.build import build
from pipeline.core.config import BuildConfig
from pipeline.core.errors import Report, SourceRef
from pipeline.core.printing import PrintOptions
from pipeline.core.progress import Progress
from pipeline.data.manifest import COMPONENTS_SPEC
from pipeline.data.schema import Record
from pipeline.data.specs import DiceSpec, GameModule
from pipeline.games import load_game
from pipeline.games.nba.components.dice import contrast, dice_components
from pipeline.games.nba.schema import DICE_SHEET, SKILL_SHEET
from pipeline.kinds.prepare import lay_out, plan
from pipeline.render.faces.renderer import FaceRenderer
from pipeline.render.fonts import default_fonts
from pipeline.render.sheets.dice import write_nets, write_stickers
from pipeline.render.sheets.pages import FITS_BOTH_MM, write_pages
from tests.conftest import ROOT, copy_project
from tests.render.sheets.printcheck import PDFCHECK, assert_ours

TOL = 0.2   # mm
MM = 72 / 25.4

# --- the fixture: §2.1 values and the §2.2 colour proposal ---------------------------------------------------
SKILLS = [  # id, name, kind, colour, colour name, letter
    ("3P", "3 points", "offence", "#1F5FBF", "bleu", "B"), ("IN", "Jeu intérieur", "offence", "#E8B400", "jaune", "J"),
    ("PE", "Pénétration", "offence", "#D62828", "rouge", "R"), ("IT", "Interception", "defence", "#D8C3A0", "beige", "Be"),
    ("BL", "Contre", "defence", "#8C9096", "gris", "G"), ("ST", "Stop", "defence", "#7A4A22", "marron", "M")]
FACES = {
    "3P": [0, 0, 0, 2, 6, 9], "IN": [0, 0, 2, 4, 6, 7], "PE": [0, 2, 3, 4, 6, 6],
    "IT": [0, (1, "yellow"), (2, "blue"), (1, "blue"), (2, "blue"), (4, "red")],
    "BL": [0, (2, "red"), (2, "yellow"), (1, "red"), (2, "blue"), (3, "red")],
    "ST": [0, (2, "yellow"), (3, "yellow"), (3, "blue"), (1, "red"), (1, "yellow")]}
SKILL_ROWS = [dict(zip(("id", "name", "kind", "colour", "colour_name", "letter"), s)) for s in SKILLS]
FACE_ROWS = [{"die": die, "face": n + 1, "value": f[0] if isinstance(f, tuple) else f,
              "colour": f[1] if isinstance(f, tuple) else None, "status": "seed"}
             for die, faces in FACES.items() for n, f in enumerate(faces)]


def records(per_player: int = 10, dice_total: int | None = None) -> dict:
    def rows(sheet, values):
        return [Record(sheet, SourceRef("sheets/nba.xlsx", sheet, i + 2), v, {}) for i, v in enumerate(values)]
    out = {"skills": rows("skills", [{**s, "dice_per_player": per_player, "icon": None} for s in SKILL_ROWS]),
           "dice": rows("dice", FACE_ROWS), "components": []}
    if dice_total is not None:
        out["components"] = rows("components", [{"component": "dice", "count": dice_total}])
    return out


@pytest.fixture(scope="module")
def laid():
    """The NBA dice (20 of each kind) laid out with the real templates."""
    dice, reference = dice_components(records(), {})
    renderer = FaceRenderer(ROOT, ROOT / "templates" / "nba", default_fonts())
    report = Report()
    result = lay_out(renderer, dice, False, report, Progress()), lay_out(renderer, reference, False, report, Progress())
    for laid_dice in result:
        plan(load_game("nba", ROOT), laid_dice, BuildConfig(ROOT, ("nba",)), report)
    assert not report.problems, [str(p) for p in report.problems]
    return result


def write(laid_dice, kind: str, paper: str) -> tuple[bytes, dict]:
    nets, stickers = laid_dice.plans[paper]
    buffer = io.BytesIO()
    writer, plan = (write_nets, nets) if kind == "nets" else (write_stickers, stickers)
    info = writer(buffer, laid_dice.faces.dice, plan, PrintOptions(paper, "NBA Deck-Building", "Dés"))
    return buffer.getvalue(), info


@pytest.fixture(scope="module")
def written(laid, tmp_path_factory) -> dict:
    folder = tmp_path_factory.mktemp("dice")
    out = {}
    for kind in ("nets", "stickers"):
        for paper in ("a4", "letter"):
            data, info = write(laid[0], kind, paper)
            path = folder / f"{kind}-{paper}.pdf"
            path.write_bytes(data)
            out[kind, paper] = (path, info)
    return out


# --- reading geometry back ------------------------------------------------------------------------------------
def _mul(m, n):
    (a, b, c, d, e, f), (A, B, C, D, E, F) = m, n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


def face_squares(page) -> list[tuple[str, tuple[float, float, float, float]]]:
    """Every die face placed on a page: (form name, its trim on the page in mm), from the cm operators."""
    forms = page.Resources.XObject
    stack, ctm, out = [], (1, 0, 0, 1, 0, 0), []
    for ins in pikepdf.parse_content_stream(page):
        op = str(ins.operator)
        if op == "q":
            stack.append(ctm)
        elif op == "Q":
            ctm = stack.pop()
        elif op == "cm":
            ctm = _mul(tuple(float(v) for v in ins.operands), ctm)
        elif op == "Do" and "DieFace" in str(ins.operands[0]):
            x0, y0, x1, y1 = (float(v) for v in forms[str(ins.operands[0])].BBox)
            b = -x0
            corners = [(x, y) for x in (0, x1 - b) for y in (0, y1 - b)]          # the trim, bleed left out
            pts = [(ctm[0] * x + ctm[2] * y + ctm[4], ctm[1] * x + ctm[3] * y + ctm[5]) for x, y in corners]
            xs, ys = [p[0] / MM for p in pts], [p[1] / MM for p in pts]
            out.append((str(ins.operands[0]), (min(xs), min(ys), max(xs), max(ys))))
    return out


def inside(rect, box, slack=0.05) -> bool:
    return rect[0] >= box[0] - slack and rect[1] >= box[1] - slack and rect[2] <= box[2] + slack \
        and rect[3] <= box[3] + slack


def plumber_box(obj, height) -> tuple[float, float, float, float]:
    return obj["x0"] / MM, (height - obj["bottom"]) / MM, obj["x1"] / MM, (height - obj["top"]) / MM


def outlines(page) -> list[tuple[float, float, float, float]]:
    """The nets' cut lines: solid black 0.5 pt strokes larger than a face (the calibration bar is not)."""
    solid = [plumber_box(c, page.height) for c in page.curves if abs(c["linewidth"] - 0.5) < 0.01
             and c["stroke"] and not (c["dash"] and c["dash"][0])]
    return [b for b in solid if min(b[2] - b[0], b[3] - b[1]) > 20]


# --- NBA's dice from the data ----------------------------------------------------------------------------------
def test_each_die_kind_comes_from_the_workbook_with_its_count():
    dice, reference = dice_components(records(), {})
    assert isinstance(dice, DiceSpec) and (dice.face_mm, dice.sticker_mm) == (16.0, 13.0)
    assert [(d.label, d.count, len(d.faces)) for d in dice.dice] == [(s[0], 20, 6) for s in SKILLS]
    assert [f.name for f in dice.dice[3].faces] == [f"it-{n}" for n in range(1, 7)]
    # the components sheet's "dice" row decides how many sets: 180 dice of 6 × 10 per player = 3 sets
    assert {d.count for d in dice_components(records(10, 180), {})[0].dice} == {30}
    assert {d.count for d in dice_components(records(10, 125), {})[0].dice} == {20}   # not a whole number of sets
    assert reference.id == "dice-reference" and reference.title == "Référence des dés"
    assert reference.size_mm[0] <= FITS_BOTH_MM[0] and reference.size_mm[1] <= FITS_BOTH_MM[1]


def test_faces_carry_colour_letter_and_icon_and_stay_legible():
    dice = dice_components(records(), {})[0]
    by = {(d.label, f.context["face"]): f.context for d in dice.dice for f in d.faces}
    assert by["IT", 2]["value"] == 1 and by["IT", 2]["counter_letter"] == "J"
    assert by["IT", 2]["counter_icon"] == "icons/IN.svg" and by["IT", 2]["counter_hex"] == "#E8B400"
    assert by["ST", 4]["counter_letter"] == "B" and by["BL", 6]["counter_letter"] == "R"
    assert by["3P", 6]["underline"] and by["PE", 5]["underline"] and not by["IN", 4]["underline"]
    for (die, face), ctx in by.items():
        if face == 1:                                    # the blank face: no value, no colour
            assert ctx["blank"] and ctx["counter"] == "" and ctx["value"] == 0
        elif ctx["counter"]:                             # a coloured number on its disc
            assert contrast(ctx["counter_hex"], ctx["disc"]) >= 3.0, (die, face)
        else:                                            # an offensive number on the die's body
            assert contrast(ctx["ink"], ctx["body"]) >= 3.0, (die, face)
    letters = {s[0]: s[5] for s in SKILLS}
    assert {ctx["counter_letter"] for ctx in by.values() if ctx["counter"]} == {letters[s] for s in ("3P", "IN", "PE")}


def test_face_template_prints_letter_and_code_fallback(tmp_path):
    from pipeline.render.sheets.imposition import write_print

    dice = dice_components(records(), {})[0]
    it, three = dice.dice[3], dice.dice[0]
    no_icon = replace(it.faces[1], context={**it.faces[1].context, "has_icon": False, "counter_has_icon": False})
    renderer = FaceRenderer(ROOT, ROOT / "templates" / "nba", default_fonts())
    faces = [renderer.layout(f.template, f.context, f.ref, f.name)[0] for f in (it.faces[1], three.faces[0], no_icon)]
    write_print(tmp_path / "faces.pdf", faces, "faces")
    with pdfplumber.open(tmp_path / "faces.pdf") as pdf:
        words = [sorted(w["text"] for w in page.extract_words()) for page in pdf.pages]
        sizes = [c["size"] for page in pdf.pages for c in page.chars]
    assert words[0] == ["1", "J"]                          # IT face 2: a yellow 1, with its letter
    assert words[1] == []                                  # 3P face 1: blank, icon only
    assert words[2] == ["1", "IN", "IT", "J"]              # no icon files: the skills' codes instead
    assert min(sizes) * dice.sticker_mm / dice.face_mm >= 6.0 - 0.01   # still 6 pt once shrunk to a sticker


# --- cube nets --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_die_gets_one_net_of_six_faces_tabs_folds_and_a_cut(written, paper):
    path, info = written["nets", paper]
    assert info["nets"] == 120 and info["nets_per_page"] >= 10 and info["pages"] == -(-120 // info["nets_per_page"])
    labels, total_faces = [], 0
    with pdfplumber.open(path) as pdf, pikepdf.open(path) as raw:
        assert len(pdf.pages) == info["pages"]
        for page, raw_page in zip(pdf.pages, raw.pages):
            h = page.height
            squares = [sq for _, sq in face_squares(raw_page)]
            total_faces += len(squares)
            cuts = outlines(page)
            regular = [c for c in page.chars if "Lato-Regular" in c["fontname"]]
            folds = [c for c in page.curves if c["dash"] and c["dash"][0] and abs(c["linewidth"] - 0.4) < 0.01]
            tabs = [plumber_box(c, h) for c in page.curves if c["fill"] and not c["stroke"]
                    and c["non_stroking_color"] in ((0.88,), [0.88], 0.88)]
            assert len(cuts) <= info["nets_per_page"]
            for outline in cuts:
                w, hh = outline[2] - outline[0], outline[3] - outline[1]
                assert sorted((w, hh)) == pytest.approx(sorted((4 * 16 + info["tab_mm"], 3 * 16)), abs=TOL)
                mine = [sq for sq in squares if inside(sq, outline)]
                assert len(mine) == 6
                assert all(abs(sq[2] - sq[0] - 16) <= TOL and abs(sq[3] - sq[1] - 16) <= TOL for sq in mine)
                assert _is_cross(mine)
                assert sum(1 for t in tabs if inside(t, outline)) == 7
                fold_boxes = [plumber_box(f, h) for f in folds]
                mine_folds = [f for f in fold_boxes if inside(f, outline)]
                assert len(mine_folds) == 12                   # every cube edge: 5 between faces, 7 at tabs
                assert all(max(f[2] - f[0], f[3] - f[1]) == pytest.approx(16, abs=TOL) for f in mine_folds)
                labels.append(tab_label(regular, h, outline))
            assert len(squares) == 6 * len(cuts)
    assert total_faces == 720
    assert sorted(labels) == sorted(f"{s[0]} {k}/20" for s in SKILLS for k in range(1, 21))   # each die once


def tab_label(regular_chars, height, outline) -> str:
    """The label on a net's tab (the only Lato Regular text in the net), read along its direction: left to
    right on an upright net, bottom to top on a turned one."""
    chars = [c for c in regular_chars if inside(plumber_box(c, height), outline)]
    upright = all(c["upright"] for c in chars)
    chars.sort(key=lambda c: c["x0"] if upright else -c["top"])
    return "".join(c["text"] for c in chars)


def _is_cross(squares) -> bool:
    """Four faces in a line, touching, and one on each side of the second one (the cross net)."""
    centres = [((a + c) / 2, (b + d) / 2) for a, b, c, d in squares]
    for axis in (0, 1):
        other = 1 - axis
        lines = Counter(round(c[other], 1) for c in centres)
        line, count = lines.most_common(1)[0]
        if count != 4:
            continue
        belt = sorted(c[axis] for c in centres if round(c[other], 1) == line)
        lids = [c for c in centres if round(c[other], 1) != line]
        touching = all(abs(b - a - 16) <= TOL for a, b in zip(belt, belt[1:]))
        sides = sorted(round(c[other] - line) for c in lids)
        same_column = len({round(c[axis], 1) for c in lids}) == 1 and round(lids[0][axis], 1) in \
            {round(belt[1], 1), round(belt[2], 1)}
        return touching and sides == [-16, 16] and same_column
    return False


def test_nets_turned_or_not_all_lie_inside_the_margins_and_apart(written):
    path, _ = written["nets", "a4"]
    with pdfplumber.open(path) as pdf:
        cuts = outlines(pdf.pages[0])
    assert len({round(b[2] - b[0], 1) for b in cuts}) == 2            # both orientations on one sheet
    for a in cuts:
        assert a[0] >= 10 - 0.3 and a[1] >= 10 and a[2] <= 200 + 0.3 and a[3] <= 287
    for i, a in enumerate(cuts):
        for b in cuts[i + 1:]:
            apart = max(b[0] - a[2], a[0] - b[2], b[1] - a[3], a[1] - b[3])
            assert apart >= 2.0 - 0.05                                  # room for the scissors


# --- stickers ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_six_stickers_per_die_in_labelled_rows_with_marks_outside(written, paper):
    path, info = written["stickers", paper]
    assert info["stickers"] == 720
    per_label, total = Counter(), 0
    with pdfplumber.open(path) as pdf, pikepdf.open(path) as raw:
        for page, raw_page in zip(pdf.pages, raw.pages):
            h = page.height
            squares = [sq for _, sq in face_squares(raw_page)]
            total += len(squares)
            assert all(abs(s[2] - s[0] - 13) <= TOL and abs(s[3] - s[1] - 13) <= TOL for s in squares)
            marks = [plumber_box(ln, h) for ln in page.lines if abs(ln["linewidth"] - 0.3) < 0.01]
            for m in marks:                                            # never on a sticker
                assert not any(m[0] < s[2] - 0.05 and m[2] > s[0] + 0.05 and m[1] < s[3] - 0.05
                               and m[3] > s[1] + 0.05 for s in squares)
            top, bottom = max(s[3] for s in squares), min(s[1] for s in squares)
            for x in {round(v, 2) for s in squares for v in (s[0], s[2])}:    # every column cut marked twice
                vertical = [m for m in marks if abs(m[0] - x) < 0.05 and abs(m[2] - x) < 0.05]
                assert any(m[1] > top for m in vertical) and any(m[3] < bottom for m in vertical)
            left, right = min(s[0] for s in squares), max(s[2] for s in squares)
            for y in {round(v, 2) for s in squares for v in (s[1], s[3])}:    # every row cut marked twice
                across = [m for m in marks if abs(m[1] - y) < 0.05 and abs(m[3] - y) < 0.05]
                assert any(m[2] < left for m in across) and any(m[0] > right for m in across)
            for word in page.extract_words():                          # the row labels, left of the rows
                box = plumber_box(word, h)
                if word["text"] in FACES and box[2] < left:
                    row = [s for s in squares if s[1] - 0.1 < (box[1] + box[3]) / 2 < s[3] + 0.1]
                    per_label[word["text"]] += len(row)
            assert min(c["size"] for c in page.chars) >= 6.0 - 0.01
    assert total == 720 and per_label == {s[0]: 6 * 20 for s in SKILLS}


# --- determinism, preflight, refusals -------------------------------------------------------------------------
def test_same_input_gives_byte_identical_pdfs(laid, written):
    for kind in ("nets", "stickers"):
        assert write(laid[0], kind, "a4")[0] == written[kind, "a4"][0].read_bytes()


@pytest.mark.parametrize("kind,paper", [("nets", "a4"), ("nets", "letter"), ("stickers", "a4"), ("stickers", "letter")])
def test_pdfcheck_passes(written, kind, paper):
    """For stickers the preflight must also find the 13 mm grid from the crop marks alone."""
    path, _ = written[kind, paper]
    expect = ["--expect-card", "13x13"] if kind == "stickers" else []
    result = subprocess.run([sys.executable, str(PDFCHECK), "--no-tools", "--json", str(path), "--paper", paper,
                             "--duplex", "off", *expect], capture_output=True, text=True, timeout=300)
    data = json.loads(result.stdout)
    report = data["files"][0] if "files" in data else data
    assert result.returncode == 0, [f for f in report["findings"] if f["severity"] == "error"]
    ours = assert_ours(path, "--paper", paper, "--duplex", "off", *expect)    # pnp's own preflight too
    if kind == "stickers":
        cards = [page["cards"] for page in report["pages"]]
        assert all(c["method"] == "crop-marks" for c in cards)
        assert sum(1 for c in cards for card in c["cards"] if card["occupied"]) == 720
        assert sum(len(c.rects) for c in ours.cards) == 720


@pytest.mark.parametrize("change,words", [({"face_mm": 70.0}, "cube net of 70 mm faces"),
                                          ({"sticker_mm": 40.0}, "six 40 mm stickers")])
def test_a_die_too_large_for_the_paper_is_a_located_problem(change, words):
    spec = replace(dice_components(records(1), {})[0], **change)
    renderer = FaceRenderer(ROOT, ROOT / "templates" / "nba", default_fonts())
    report = Report()
    laid_dice = lay_out(renderer, spec, False, report, Progress())
    assert report.errors == []                  # laid out fine: the paper is what refuses it, when planned
    plan(load_game("nba", ROOT), laid_dice, BuildConfig(ROOT, ("nba",)), report)
    errors = report.errors
    assert {p.rule for p in errors} == {"imposition"} and len(errors) == 2          # A4 and Letter
    assert all(str(p.where) == "sheets/nba.xlsx › dice" and words in p.message for p in errors)
    assert {"a4", "letter"} == {p.message.split(" paper")[0].split()[-1] for p in errors}


# --- the reference page ---------------------------------------------------------------------------------------
def test_reference_page_reads_every_face_and_what_defence_cancels(laid, tmp_path):
    path = tmp_path / "reference.pdf"
    write_pages(path, laid[1].faces, PrintOptions("letter", "NBA Deck-Building", "Référence des dés"))
    with pdfplumber.open(path) as pdf:
        page = pdf.pages[0]
        text, words = page.extract_text(), page.extract_words()
    assert "RÉFÉRENCE DES DÉS" in text and "Face 6" in text
    heads = {w["text"]: (w["x0"] + w["x1"]) / 2 for w in words if w["text"] in ("Total", "Moyenne")}
    columns = [(w["x0"] + w["x1"]) / 2 + 2 for w in words if w["text"] == "Face"]     # "Face k" centres
    assert len(columns) == 6
    for die, faces in FACES.items():            # each row, read column by column under its headers
        values = [f[0] if isinstance(f, tuple) else f for f in faces]
        code = min((w for w in words if w["text"] == die), key=lambda w: w["top"])   # "3P · dé bleu", row middle
        band = [w for w in words if code["top"] - 8.5 * MM < w["top"] < code["top"] + 10 * MM]

        def under(x):
            return [w["text"] for w in band if abs((w["x0"] + w["x1"]) / 2 - x) < 7 * MM and w["text"][0].isdigit()]
        assert [under(x) for x in columns] == [[str(v)] for v in values]
        assert under(heads["Total"]) == [str(sum(values))]
        assert under(heads["Moyenne"]) == [f"{sum(values) / 6:.2f}".replace(".", ",")]
    for die in ("IT", "BL", "ST"):
        per_colour = [sum(f[0] for f in FACES[die][1:] if f[1] == c) for c in ("blue", "yellow", "red")]
        name = next(s[1] for s in SKILLS if s[0] == die)
        line = next(line for line in text.splitlines() if line.startswith(name) and "sur ses faces" in line)
        assert [line.count(f"sur ses faces {letter}") for letter in "BJR"] == [1, 1, 1] and ("1 point " in line) == (1 in per_colour)
        assert [int(w) for w in line.split() if w.isdigit()] == per_colour


# --- end to end: `build` writes the sheets and the report lists them ----------------------------------------
def _dice_game(root: Path, change: dict | None = None) -> GameModule:
    book = openpyxl.Workbook()
    book.remove(book.active)
    for spec, rows in ((SKILL_SHEET, [{**s, "dice_per_player": 10} for s in SKILL_ROWS]), (DICE_SHEET, FACE_ROWS),
                       (COMPONENTS_SPEC, [{"component": "dice", "label": "dés", "count": 120}])):
        sheet = book.create_sheet(spec.name)
        names = [c.name for c in spec.columns]
        sheet.append(names)
        for row in rows:
            sheet.append([row.get(n) for n in names])
    data = root / "sheets" / "dice-only.xlsx"
    book.save(data)

    def components(recs):
        dice, reference = dice_components(recs, {})
        return [replace(dice, **(change or {})), reference]
    return GameModule("nba", "NBA Deck-Building", (data,), (SKILL_SHEET, DICE_SHEET, COMPONENTS_SPEC),
                      root / "templates" / "nba", components)


def test_build_writes_nets_stickers_pngs_and_reports_them(tmp_path, monkeypatch):
    root = copy_project(tmp_path)
    monkeypatch.setattr("pipeline.build.load_game", lambda name, where: _dice_game(root))
    report, built = build(BuildConfig(root=root, games=("nba",), formats=("pnp", "png")))
    assert built == ["nba"], [str(p) for p in report.problems]
    out = root / "output" / "nba"
    data = json.loads((out / "report.json").read_text())
    dice = next(c for c in data["components"] if c["id"] == "dice")
    assert (dice["kind"], dice["count"], dice["dice"]) == ("dice", 120, {s[0]: 20 for s in SKILLS})
    entries = {(e["kind"], e.get("paper")): e for e in data["outputs"]}
    for paper in ("a4", "letter"):
        nets, stickers = entries["dice-nets", paper], entries["dice-stickers", paper]
        assert (out / f"pnp-{paper}" / "dice-nets.pdf").is_file() and nets["nets"] == 120
        assert stickers["stickers"] == 720 and (out / f"pnp-{paper}" / "dice-stickers.pdf").is_file()
    pngs = sorted((out / "png" / "dice").glob("*.png"))
    assert len(pngs) == 36 and entries["png", None]["images"] == 36
    from PIL import Image
    with Image.open(pngs[0]) as image:
        assert image.size == (round(18 / 25.4 * 300), round(18 / 25.4 * 300))    # 16 mm + 1 mm bleed each side
    md = (out / "report.md").read_text()
    assert "| Dés (`dice`) | dés | 120 | 16 × 16 | non |" in md                   # the French print guide
    assert f"120 patrons de dés de 16 mm, {entries['dice-nets', 'a4']['nets_per_page']} par page" in md
    assert "720 autocollants de 13 mm" in md


def test_build_refuses_a_face_too_large_and_writes_nothing(tmp_path, monkeypatch):
    root = copy_project(tmp_path)
    monkeypatch.setattr("pipeline.build.load_game", lambda name, where: _dice_game(root, {"face_mm": 75.0}))
    report, built = build(BuildConfig(root=root, games=("nba",)))
    assert built == [] and not (root / "output").exists()
    assert any(p.rule == "imposition" and "dice-only.xlsx › dice" in str(p.where) for p in report.errors)
