"""The benchmark deck is also the example of a game without code: a CSV, a game.yaml and two templates
(templates/benchdeck/). It must validate, build through the whole pipeline with every font embedded, and
point at the exact cell when the data is wrong."""

from __future__ import annotations

import csv
import math
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pikepdf
import pytest

from pipeline import PROJECT_ROOT
from pipeline.build import build
from pipeline.core.config import BuildConfig
from tests.conftest import copy_project
from tests.render.sheets.printcheck import pdf_fonts

ROOT = PROJECT_ROOT
PNP = Path(sys.executable).parent / "pnp"
CARDS = 100
CARD_BLEED_BOX_PT = (69 * 72 / 25.4, 94 * 72 / 25.4)     # 63 x 88 mm poker card + 3 mm bleed each side


def pnp(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(PNP), *args], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_validate_benchdeck():
    result = pnp("validate", "benchdeck")
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"benchdeck: {CARDS} cards and tokens in 1 decks" in result.stdout


# --- reading the PDF back -------------------------------------------------------------------------------

def _embedded(font) -> bool:
    if font.get("/Subtype") == "/Type3":
        return True                                  # glyphs are drawn by the font's own procedures
    descriptor_owner = font["/DescendantFonts"][0] if font.get("/Subtype") == "/Type0" else font
    descriptor = descriptor_owner.get("/FontDescriptor")
    return descriptor is not None and any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3"))


def _cards_on(page) -> list:
    """The card faces a page places (by object id): form XObjects drawn with a card's bleed box size."""
    xobjects = page.Resources.get("/XObject") or {}
    placed = []
    for operands, operator in pikepdf.parse_content_stream(page):
        if str(operator) != "Do":
            continue
        xobject = xobjects.get(str(operands[0]))
        if xobject is None or xobject.get("/Subtype") != "/Form":
            continue
        x0, y0, x1, y1 = (float(v) for v in xobject.BBox)
        if abs((x1 - x0) - CARD_BLEED_BOX_PT[0]) < 0.5 and abs((y1 - y0) - CARD_BLEED_BOX_PT[1]) < 0.5:
            placed.append(xobject.objgen)
    return placed


@pytest.fixture(scope="module")
def built_pdf(tmp_path_factory) -> Path:
    """Built in a project copy (with bench/data, which the game's CSV path names), never into output/."""
    root = copy_project(tmp_path_factory.mktemp("benchdeck"))
    shutil.copytree(ROOT / "bench" / "data", root / "bench" / "data")
    config = BuildConfig(root=root, games=("benchdeck",), papers=("a4",), formats=("pnp",), backs="duplex")
    report, built = build(config)
    assert report.exit_code() == 0, [str(p) for p in report.problems]
    path = root / "output" / "benchdeck" / "pnp-a4" / "cards.pdf"
    assert path.is_file()
    return path


def _pdfcheck_cards(path: Path) -> list[int]:
    """Cards per page as the independent preflight detects them (from the crop marks)."""
    import json

    from tests.render.sheets.printcheck import PDFCHECK, assert_ours

    out = subprocess.run([sys.executable, str(PDFCHECK), "--no-tools", "--json", str(path), "--expect-card", "63x88"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout[-2000:]
    data = json.loads(out.stdout)
    report = data["files"][0] if "files" in data else data
    counts = [sum(1 for c in page["cards"]["cards"] if c["occupied"]) for page in report["pages"]]
    assert [len(cards.rects) for cards in assert_ours(path, "--expect-card", "63x88").cards] == counts   # pnp's own
    return counts


def test_build_pages_fronts_then_backs(built_pdf):
    counts = _pdfcheck_cards(built_pdf)
    per_sheet = counts[0]
    assert per_sheet >= 1
    assert len(counts) == 2 * math.ceil(CARDS / per_sheet)
    fronts, backs = counts[0::2], counts[1::2]
    assert fronts == backs                           # every front page is followed by its back page
    assert sum(fronts) == CARDS
    assert all(n == per_sheet for n in fronts[:-1]) and fronts[-1] == CARDS - per_sheet * (len(fronts) - 1)


def test_build_embeds_every_font(built_pdf):
    with pikepdf.open(built_pdf) as pdf:
        seen: set = set()
        fonts = [font for page in pdf.pages for font in pdf_fonts(page.Resources, seen)]
        assert fonts, "no fonts at all: the card text is missing"
        not_embedded = [str(f.get("/BaseFont")) for f in fonts if not _embedded(f)]
        assert not_embedded == []
        assert not any("Helvetica" in str(f.get("/BaseFont")) for f in fonts)


def test_common_back_is_drawn_once(built_pdf):
    with pikepdf.open(built_pdf) as pdf:
        backs = [form for page in list(pdf.pages)[1::2] for form in _cards_on(page)]
    assert len(backs) == CARDS and len(set(backs)) == 1


# --- a wrong cell in a data-only game ----------------------------------------------------------------------

@pytest.fixture
def scratch_game() -> Path:
    """A copy of the benchmark game under bench/results/test_tmp/ (paths must stay inside the project)."""
    folder = ROOT / "bench" / "results" / "test_tmp" / f"badcell_{uuid.uuid4().hex[:8]}"
    folder.mkdir(parents=True)
    try:
        shutil.copytree(ROOT / "bench" / "data" / "icons", folder / "icons")
        for name in ("front.yaml", "back.yaml"):
            shutil.copyfile(ROOT / "templates" / "benchdeck" / name, folder / name)
        game = (ROOT / "templates" / "benchdeck" / "game.yaml").read_text(encoding="utf-8")
        game = game.replace("id: benchdeck ", "id: benchdeck_badcell ", 1)
        game = game.replace("file: ../../bench/data/cards_100.csv", "file: cards.csv", 1)
        assert "file: cards.csv" in game and "benchdeck_badcell" in game
        (folder / "game.yaml").write_text(game, encoding="utf-8")
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        parent = folder.parent
        if parent.is_dir() and not any(parent.iterdir()):
            parent.rmdir()


def test_bad_cell_is_located(scratch_game):
    with (ROOT / "bench" / "data" / "cards_100.csv").open(newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    assert rows[0][3] == "a"
    rows[2][3] = "13"                               # spreadsheet row 3 (second card), column D (a)
    with (scratch_game / "cards.csv").open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows(rows)

    result = pnp("validate", str((scratch_game / "game.yaml").relative_to(ROOT)))
    assert result.returncode == 1, result.stdout + result.stderr
    shown = (scratch_game / "cards.csv").relative_to(ROOT)
    output = " ".join((result.stdout + result.stderr).split())      # whatever the terminal width
    assert f"{shown} › cards › D3 (a): 13 is above the maximum 12" in output
    assert "validation failed" in result.stdout
