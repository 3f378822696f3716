"""Build It end to end, as a user runs it: the CLI on a project copy, outputs measured from the files."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pikepdf
import pytest
from PIL import Image

from tests.conftest import ROOT, built_game, edit_workbook, run_cli
from tests.render.sheets.printcheck import check_every_pdf, pdfcheck
DECKS = {"cities": 5, "contracts": 20, "normal": 65}


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    return built_game(tmp_path_factory, "buildit")


def card_pdfs(out: Path) -> list[Path]:
    return sorted(out.glob("pnp-*/*.pdf"))


def test_pdfcheck_passes_on_every_pdf(built):
    """Every card sheet, tile, page and rulebook of the report, with the card size it must find."""
    kinds = check_every_pdf(built)
    assert {("cards", "pnp"), ("cards", "print"), ("board", "pnp"), ("board", "print"), ("pages", "pnp"),
            ("rulebook", "pnp")} <= kinds


def test_measured_cards_and_duplex_mirror(built):
    """Card rectangles read back from the A4 contract sheets: 63.5 × 88.9 mm, ≥ 5 mm from the edge,
    and each back page's cards at the mirror positions of its front page."""
    checked = pdfcheck(built / "pnp-a4" / "contracts.pdf", "--expect-card", "63.5x88.9", "--paper", "a4")
    pages = checked["report"]["pages"]
    assert len(pages) == 6                      # 20 cards, 9 per A4 page, duplex
    total = 0
    for front, back in zip(pages[0::2], pages[1::2]):
        fronts = [c for c in front["cards"]["cards"] if c["occupied"]]
        backs = [c for c in back["cards"]["cards"] if c["occupied"]]
        assert len(fronts) == len(backs)
        total += len(fronts)
        for card in fronts + backs:
            w, h = card["w_mm"], card["h_mm"]
            assert sorted((round(w, 1), round(h, 1))) == [63.5, 88.9]
            assert card["x_mm"] >= 5 and card["y_mm"] >= 5 and card["x_mm"] + w <= 205 and card["y_mm"] + h <= 292
        mirrored = sorted((round(210 - c["x_mm"] - c["w_mm"], 1), round(c["y_mm"], 1)) for c in fronts)
        assert mirrored == sorted((round(c["x_mm"], 1), round(c["y_mm"], 1)) for c in backs)
    assert total == 20


def test_every_font_is_embedded_and_subset(built):
    for path in card_pdfs(built) + sorted(built.glob("print/*.pdf")):
        with pikepdf.open(path) as pdf:
            for obj in pdf.objects:
                if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/Font":
                    name = str(obj.get("/BaseFont"))
                    assert "Helvetica" not in name and "Times" not in name, (path, name)
                    descendants = obj.get("/DescendantFonts")
                    font = descendants[0] if descendants is not None else obj
                    descriptor = font.get("/FontDescriptor")
                    assert descriptor is not None and "/FontFile2" in descriptor, (path, name)
                    assert name[7] == "+", (path, name)        # subset prefix ABCDEF+


def test_print_pages_have_trim_and_bleed_boxes(built):
    with pikepdf.open(built / "print" / "normal.pdf") as pdf:
        assert len(pdf.pages) == 65 + 1                       # every front, then the common back once
        for page in pdf.pages:
            trim = [float(v) for v in page.TrimBox]
            bleed = [float(v) for v in page.BleedBox]
            mm = 72 / 25.4
            assert round((trim[2] - trim[0]) / mm, 2) == 63.5 and round((trim[3] - trim[1]) / mm, 2) == 88.9
            assert round((bleed[2] - bleed[0]) / mm, 2) == 69.5 and round((bleed[3] - bleed[1]) / mm, 2) == 94.9


def test_pngs_one_per_face_at_300_dpi(built):
    for deck, count in DECKS.items():
        files = sorted((built / "png" / deck).glob("*.png"))
        assert len(files) == count + 1                        # fronts + the deck's back
        with Image.open(files[0]) as image:
            assert image.size == (821, 1121)
            assert round(image.info["dpi"][0]) == 300


def test_report_lists_what_was_built(built):
    data = json.loads((built / "report.json").read_text())
    components = {c["id"]: c for c in data["components"]}
    assert [components[deck]["count"] for deck in ("cities", "contracts", "normal")] == [5, 20, 65]
    assert all(components[deck]["kind"] == "cards" and components[deck]["backs"] for deck in DECKS)
    paths = {entry["path"] for entry in data["outputs"]}
    assert "output/buildit/pnp-letter/normal-ink-saver.pdf" in paths
    assert any(line.startswith("expected gold per contracts card drawn: 15/20") for line in data["summary"])


def test_rebuild_is_byte_identical(built, tmp_path):
    import shutil

    for name in ("sheets", "templates", "fonts"):
        shutil.copytree(ROOT / name, tmp_path / name)
    result = run_cli("build", "buildit", "--paper", "a4", "--format", "all", root=tmp_path)
    assert result.returncode == 0, result.stderr
    again = tmp_path / "output" / "buildit"
    for path in sorted(again.rglob("*.pdf")) + sorted(again.rglob("*.png")):
        first = built / path.relative_to(again)
        assert hashlib.sha256(path.read_bytes()).digest() == hashlib.sha256(first.read_bytes()).digest(), path


def test_bad_data_writes_nothing_and_exits_1(project):
    def change(wb):
        ws = wb["contracts"]
        ws["C4"] = "deux"
        ws["H5"] = 120
    edit_workbook(project / "sheets" / "buildit.xlsx", change)
    result = run_cli("build", "buildit", root=project)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert "sheets/buildit.xlsx › contracts › C4 (plots): 'deux' is not a whole number [type]" in result.stderr
    assert "sheets/buildit.xlsx › contracts › H5 (copies): 120 is above the maximum 99 [range]" in result.stderr
    assert not (project / "output").exists()


def test_template_overflow_is_a_located_validation_problem(project):
    def change(wb):
        ws = wb["normal_cards"]
        ws["C6"] = "Superanticonstitutionnellementissimement"   # 40 letters: a valid cell, no room to wrap
    edit_workbook(project / "sheets" / "buildit.xlsx", change)
    result = run_cli("validate", "buildit", root=project)
    assert result.returncode == 1
    lines = [l for l in result.stderr.splitlines() if "[text-overflow]" in l]
    assert lines and all("templates/buildit/frame.yaml" in l for l in lines)
    assert any("Superanticonstitutionnellementissimement" in l and "normal_cards row 6" in l for l in lines)



def test_a_token_template_without_the_print_bleed_is_a_located_problem(project):
    """print/ files go to print services, which need 3 mm of artwork beyond every trim."""
    coin = project / "templates" / "buildit" / "coin.yaml"
    coin.write_text(coin.read_text().replace("bleed: 3", "bleed: 1.5"))
    result = run_cli("build", "buildit", "--ink-saver", root=project)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    lines = [l for l in result.stderr.splitlines() if "bleed is 1.5 mm" in l]
    assert lines == ["error templates/buildit/coin.yaml: coins: bleed is 1.5 mm; card, token and board faces "
                     "need 3 mm for print services (`bleed: 3`, with the background drawn out to it) [template]"]
    assert not (project / "output").exists()

def test_usage_errors_exit_2_without_traceback():
    for args in (["build", "buildit", "--paper", "a5"], ["build", "nosuchgame"], ["build", "--back-offset", "x"]):
        result = run_cli(*args)
        assert result.returncode == 2, (args, result.stderr)
        assert "Traceback" not in result.stderr
