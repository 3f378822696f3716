"""All-Star Draft end to end, as a user runs it: `pnp build allstar` on a project copy, measured from the files."""

from __future__ import annotations

import re
import json
from pathlib import Path

import pdfplumber
import pytest

from tests.conftest import built_game
from tests.render.rulebook.test_rulebook import reading_text
from tests.render.sheets.printcheck import check_every_pdf, pdfcheck


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    return built_game(tmp_path_factory, "allstar")


def test_every_component_is_built_with_its_count(built):
    data = json.loads((built / "report.json").read_text())
    counts = {c["id"]: (c["kind"], c["count"]) for c in data["components"]}
    assert counts == {
        "hockey": ("cards", 108), "arenas": ("cards", 15), "fanzones": ("cards", 7), "tiebreak": ("cards", 6),
        "playoff": ("cards", 2), "buses": ("cards", 18), "supporters": ("cards", 12), "tickets": ("cards", 4),
        "aid": ("pages", 2), "rulebook": ("rulebook", 1)}
    aid = next(c for c in data["components"] if c["id"] == "aid")
    assert aid["copies"] == 6 and aid["size_mm"] == [148, 210]       # an A5 aid per manager, up to six
    assert any(line.startswith("20 parties à 4 joueurs") for line in data["play"])


def test_tie_breaker_backs_are_the_other_side(built):
    """The 2–4 side prints on the fronts, the 5–6 side on their duplex backs."""
    with pdfplumber.open(built / "pnp-a4" / "tiebreak.pdf") as pdf:
        front, back = (pdf.pages[0].extract_text(), pdf.pages[1].extract_text())
    assert "2 à 4 managers" in front and "5 à 6 managers" not in front
    assert "5 à 6 managers" in back and "2 à 4 managers" not in back


def test_a_face_down_bus_reveals_nothing(built):
    """Every bus back is the same word: no value, no colour letter (buses are placed face down)."""
    with pdfplumber.open(built / "pnp-a4" / "buses.pdf") as pdf:
        words = pdf.pages[1].extract_words(extra_attrs=["upright"])
    on_cards = [w["text"] for w in words if w["upright"]]   # header and footer run up the side bands
    assert set(on_cards) == {"BUS"} and len(on_cards) == 18


def test_pdfcheck_passes_on_every_pdf(built):
    kinds = check_every_pdf(built)
    assert {("cards", "pnp"), ("pages", "pnp"), ("rulebook", "pnp")} <= kinds


def test_hockey_cards_measure_poker_and_backs_mirror(built):
    checked = pdfcheck(built / "pnp-a4" / "hockey.pdf", "--expect-card", "63.5x88.9", "--paper", "a4")
    pages = checked["report"]["pages"]
    assert len(pages) == 2 * 12                  # 108 cards, 9 per A4 page, duplex
    total = 0
    for front, back in zip(pages[0::2], pages[1::2]):
        fronts = [c for c in front["cards"]["cards"] if c["occupied"]]
        backs = [c for c in back["cards"]["cards"] if c["occupied"]]
        total += len(fronts)
        mirrored = sorted((round(210 - c["x_mm"] - c["w_mm"], 1), round(c["y_mm"], 1)) for c in fronts)
        assert mirrored == sorted((round(c["x_mm"], 1), round(c["y_mm"], 1)) for c in backs)
    assert total == 108


def test_the_paper_bill_counts_sheets_and_measures_the_ink_saver(built):
    """108 hockey cards at 9 a page on both papers (short marks above and below on Letter, issue 29): they
    take 12 sheets double-sided (24 single-sided); with the 2 Play-Off cards of their size they fill 13
    sheets, pooled or not, so no pooled file is written and the bill counts each deck's own file; the
    ink-saver files take the same paper and measurably less ink; the totals are the sums of their rows."""
    data = json.loads((built / "report.json").read_text())
    for paper in ("a4", "letter"):
        bill = data["paper_bill"][paper]
        rows = {Path(r["path"]).name: r for r in bill["rows"]}
        hockey, saver = rows["hockey.pdf"], rows["hockey-ink-saver.pdf"]
        assert (hockey["double_sided"], hockey["single_sided"]) == (12, 24)
        assert (saver["double_sided"], saver["single_sided"]) == (12, 24)
        assert "cartes-63.5x88.9.pdf" not in rows and rows["playoff.pdf"]["double_sided"] == 1   # 12 + 1 = 13
        assert 0 < saver["ink_pages_5pc"] < 0.8 * hockey["ink_pages_5pc"]
        standard = [r for r in bill["rows"] if not r["ink_saver"]]
        total = bill["totals"]["standard"]
        assert total["double_sided"] == sum(r["double_sided"] for r in standard)
        assert total["single_sided"] == sum(r["single_sided"] for r in standard)
        assert bill["totals"]["ink_saver"]["double_sided"] == total["double_sided"]
        assert bill["totals"]["ink_saver"]["ink_pages_5pc"] < total["ink_pages_5pc"]
    text = (built / "report.md").read_text()
    assert "### Bilan papier : une impression complète" in text                  # report.md is French
    line = next(l for l in text.splitlines() if l.startswith("| **impression complète** |"))
    assert f"**{data['paper_bill']['a4']['totals']['standard']['double_sided']}**" in line


def test_the_rulebook_ends_with_this_editions_readings(built):
    with pdfplumber.open(built / "pnp-a4" / "rulebook.pdf") as pdf:
        text = " ".join(" ".join(reading_text(page) for page in pdf.pages[1:]).split())   # column by column
    heading = list(re.finditer(r"\d+\. Choix de cette édition", text))[-1]           # not the contents' line
    chapter = text[heading.start():]
    for phrase in ("une carte au plus par équipe", "le mode Héritage", "L'autre façon de jouer",
                   "le draft en passe est réservé aux parties de trois managers ou plus"):
        assert phrase in chapter, phrase
    developer = (built / "report.md").read_text().split("## Données de développement")[1]
    for name in ("swaps_per_round", "playoff_weakest_by", "final_tiebreak_includes_ticket_bonus"):    # not the players'
        assert f"`{name}`" in developer and f" {name} " not in f" {chapter} ", name
