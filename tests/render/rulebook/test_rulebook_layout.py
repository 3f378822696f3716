"""The three games' rulebooks laid out like a published game's (issue 20), measured from the PDFs: a cover with
the game's faces and its facts, two columns of body text at 9 pt or more and at most ~80 characters a line,
chapters running on (the books about half their old length), no page but the last under a quarter full, no
heading as the last line of a column, and every table inside the page."""

from __future__ import annotations

import ctypes

import pypdfium2
import pypdfium2.raw as pdfium
import pytest

from pipeline.core.units import MM, PAPERS_MM
from pipeline.games import load_game
from pipeline.render.rulebook.book import MARGIN_BOTTOM, MARGIN_SIDE, MARGIN_TOP
from pipeline.render.rulebook.cover import read_cover
from tests.conftest import ROOT
from tests.render.rulebook.rulebooks import write_book

pytestmark = pytest.mark.slow      # six whole books; tests/render/rulebook/test_rulebook.py checks the same rules on a small one

GAMES = ("buildit", "allstar", "nba", "fightball", "challengers")
OLD_PAGES = {"buildit": 33, "allstar": 19, "nba": 32}       # one column, a page per chapter (main bf57372)
MAX_LINE = 80               # characters on one line of a column
MIN_FILL = 0.25             # of a page's two columns, for every page but the last
MERGE_GAP = 16              # points: objects closer than this count as one block of the page


def _build(game_id: str, paper: str) -> dict:
    book = write_book(load_game(game_id, ROOT), paper)
    cover, problems = read_cover(book.game.template_dir / book.spec.source, book.spec.context, book.figures, ROOT)
    return {"pdf": book.pdf, "info": book.info, "cover": cover, "cover_problems": problems}


@pytest.fixture(scope="module", params=[(g, p) for g in GAMES for p in ("a4", "letter")], ids=lambda v: "-".join(v))
def book(request) -> dict:
    game_id, paper = request.param
    built = _build(game_id, paper)
    built["game"], built["paper"] = game_id, paper
    built["pages"] = _measure(built["pdf"], paper)
    return built


def _measure(pdf: bytes, paper: str) -> list[dict]:
    """Per page: its text lines (chars with size and box) and the vertical extent of what is drawn in each
    column of the body (between the running header and the footer)."""
    document = pypdfium2.PdfDocument(pdf)
    width, height = (side * MM for side in PAPERS_MM[paper])
    top, bottom = height - MARGIN_TOP + 1, MARGIN_BOTTOM - 1
    middle = width / 2
    pages = []
    for index in range(len(document)):
        page = document[index]
        text = page.get_textpage()
        chars = []
        for i in range(text.count_chars()):
            char = chr(pdfium.FPDFText_GetUnicode(text, i))
            left, low, right, high = text.get_charbox(i)
            if not char.strip() or high > top or low < bottom:
                continue
            font = ctypes.create_string_buffer(128)
            pdfium.FPDFText_GetFontInfo(text, i, font, 128, None)
            x, y = ctypes.c_double(), ctypes.c_double()
            pdfium.FPDFText_GetCharOrigin(text, i, x, y)            # the baseline: a 'p' and an 'a' share it
            chars.append({"c": char, "x0": left, "x1": right, "y0": y.value, "y1": high,
                          "size": pdfium.FPDFText_GetFontSize(text, i), "font": font.value.decode("latin-1")})
        columns: list[list[tuple[float, float]]] = [[], []]
        for obj in page.get_objects(max_depth=8):
            if obj.type == pdfium.FPDF_PAGEOBJ_FORM:
                continue
            left, low, right, high = obj.get_bounds()
            low, high = max(low, bottom), min(high, top)
            if high <= low or right - left > width * 0.98 and high - low > (top - bottom) * 0.98:
                continue        # outside the body, or a page-sized background
            for column, (x0, x1) in enumerate(((MARGIN_SIDE, middle), (middle, width - MARGIN_SIDE))):
                if right > x0 + 2 and left < x1 - 2:
                    columns[column].append((low, high))
        pages.append({"chars": chars, "columns": [_merged(c) for c in columns], "body": top - bottom,
                      "middle": middle})
    return pages


def _merged(intervals: list[tuple[float, float]]) -> list[tuple[float, float]]:
    out: list[list[float]] = []
    for low, high in sorted(intervals):
        if out and low <= out[-1][1] + MERGE_GAP:
            out[-1][1] = max(out[-1][1], high)
        else:
            out.append([low, high])
    return [tuple(span) for span in out]


def _lines(chars: list[dict], middle: float) -> list[list[dict]]:
    """Chars grouped into lines: same column, same baseline; a line breaks at a gap wider than a space
    (table cells, the two columns)."""
    rows: dict[tuple, list[dict]] = {}
    for char in chars:
        rows.setdefault((char["x0"] >= middle, round(char["y0"])), []).append(char)
    lines = []
    for row in rows.values():
        row.sort(key=lambda c: c["x0"])
        line = [row[0]]
        for char in row[1:]:
            if char["x0"] - line[-1]["x1"] > 1.2 * char["size"]:
                lines.append(line)
                line = []
            line.append(char)
        lines.append(line)
    return lines


def _length(line: list[dict]) -> int:
    """Characters of a line, spaces counted (pdfium keeps no space glyph: a gap between words is one)."""
    gaps = sum(1 for a, b in zip(line, line[1:]) if b["x0"] - a["x1"] > 0.15 * b["size"])
    return len(line) + gaps


def _fill(page: dict) -> float:
    return sum(high - low for column in page["columns"] for low, high in column) / (2 * page["body"])


def test_the_books_are_about_half_their_old_length(book):
    pages = book["info"]["pages"]
    assert pages == len(book["pages"])
    if book["game"] not in OLD_PAGES:           # born after issue 20: no one-column book to compare with
        return
    assert pages <= OLD_PAGES[book["game"]] * 0.65, f"{book['game']} {book['paper']}: {pages} pages"


def test_no_page_but_the_last_is_under_a_quarter_full(book):
    body = book["pages"][1:-1]             # the cover is a page of its own; the last page may be short
    fills = {number: round(_fill(page), 2) for number, page in enumerate(body, start=2)}
    assert all(fill >= MIN_FILL for fill in fills.values()), fills


def test_body_text_is_9_points_or_more_and_lines_stay_under_80_characters(book):
    sizes: dict[float, int] = {}
    longest = 0
    for page in book["pages"][1:]:
        for line in _lines(page["chars"], page["middle"]):
            size = round(line[0]["size"], 1)
            sizes[size] = sizes.get(size, 0) + len(line)
            if size >= 8.5 and "Lato" in line[0]["font"]:          # the text, not a card's face in a figure
                text = "".join(c["c"] for c in line)
                if text.count(".") < len(text) / 3:                 # a contents line's dot leader aside
                    longest = max(longest, _length(line))
    body = max(sizes, key=sizes.get)
    assert body >= 9, sizes
    assert 35 <= longest <= MAX_LINE


def test_no_heading_is_the_last_line_of_a_column(book):
    title_sizes = {19.0, 13.0, 10.5}           # chapter, section and subsection headings (render/rulebook/style.py)
    for number, page in enumerate(book["pages"][1:], start=2):
        for right in (False, True):
            lines = [line for line in _lines(page["chars"], page["middle"]) if (line[0]["x0"] >= page["middle"]) == right]
            if not lines:
                continue
            lowest = min(lines, key=lambda line: line[0]["y0"])
            heading = "Fjalla" in lowest[0]["font"] and round(lowest[0]["size"], 1) in title_sizes
            assert not heading, f"page {number}: {''.join(c['c'] for c in lowest)!r} ends a column"


def test_the_cover_shows_the_game_faces_and_its_facts(book):
    cover, problems = book["cover"], book["cover_problems"]
    assert problems == [] and len(cover.art) >= 3 and len(cover.facts) == 3
    assert set(cover.art) <= set(book["info"]["figures"])                  # drawn, as figures are
    text = "".join(c["c"] for c in book["pages"][0]["chars"])
    for fact in cover.facts:
        assert fact.replace(" ", "") in text, fact
    drawn = sum(high - low for low, high in book["pages"][0]["columns"][0])
    assert drawn > 0.4 * book["pages"][0]["body"]                          # art, not a bare title
