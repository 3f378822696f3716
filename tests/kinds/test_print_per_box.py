"""Print per box, and never lose your place (issue 29 §2), read back from real builds of the five games: decks a
game declares printed together (CardDeck.group: a Fightball team) never share a pooled sheet with another
group's, and the guide offers one box (the two teams that meet) with its sheet count, equal to the PDFs' pages;
every page of every home file carries its whole header ("game · component · page n/N (recto/verso)"), a pooled
file's member list dropped before the page number is ever cut; every duplex card file of a full print has its
fold-over twin in pnp-<paper>/pli/, listed in report.json, left out of the paper bill, carried by the home zips,
and the calibration sheet and the guide say when to print it."""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from pathlib import Path

import pypdfium2
import pytest

from pipeline.core.errors import Report
from pipeline.core.printing import PrintOptions
from pipeline.guide.data import read_game_guide
from pipeline.release.bundle import bundle_entries
from pipeline.render.sheets.decor import without_lists
from pipeline.render.sheets.imposition import write_pnp
from tests.conftest import ROOT, built_game
from tests.render.sheets.test_imposition import deck

GAMES = ("buildit", "nba", "allstar", "fightball", "challengers")
PAPERS = ("a4", "letter")
TEAMS = {"eclairs": "ÉCLAIRS", "forges": "FORGES", "remparts": "REMPARTS", "mirages": "MIRAGES"}
PLACE = re.compile(r"page (\d+)/(\d+)(?: \((recto|verso)\))?|tuile \w+ \((\d+)/(\d+)\)")


@pytest.fixture(scope="module", params=GAMES)
def built(request, tmp_path_factory) -> Path:
    return built_game(tmp_path_factory, request.param)


@pytest.fixture(scope="module")
def fightball(tmp_path_factory) -> Path:
    return built_game(tmp_path_factory, "fightball")


def _data(built: Path) -> dict:
    return json.loads((built / "report.json").read_text())


def _page_lines(path: Path) -> list[list[str]]:
    document = pypdfium2.PdfDocument(path)
    try:
        return [document[i].get_textpage().get_text_range().replace("\r", "").split("\n")
                for i in range(len(document))]
    finally:
        document.close()


BAND_PT = 14 * 72 / 25.4          # a sheet's bands: 14 mm along each edge


def _header_bands(path: Path) -> list[list[str]]:
    """Each page's four edge bands (top, bottom, left, right), each as one line: on Letter the header runs along a
    side, in stretches between the crop marks (render/sheets/bandflow.py), which the text layer gives apart, in
    any order among the cards' text."""
    document = pypdfium2.PdfDocument(path)
    try:
        bands = []
        for i in range(len(document)):
            page = document[i]
            w, h = page.get_size()
            text = page.get_textpage()
            boxes = ((0, h - BAND_PT, w, h), (0, 0, w, BAND_PT), (0, 0, BAND_PT, h), (w - BAND_PT, 0, w, h))
            bands.append(["".join(text.get_text_bounded(*box).replace("\r", "").split("\n")) for box in boxes])
        return bands
    finally:
        document.close()


def _header(lines: list[str], game: str) -> list[str]:
    """The headers on a page: from the game's title to the page's place (a text line may hold face text or an
    edition mark before it, on the same baseline). On Letter the header runs in stretches between the crop marks
    (render/sheets/bandflow.py), which the text layer may give as lines of their own: read as one line then."""
    found = []
    for text in (lines, ["".join(lines)]):
        for line in text:
            for place in PLACE.finditer(line):
                start = line.rfind(f"{game} · ", 0, place.start())
                if start >= 0:
                    found.append(line[start:place.end()])
        if found:
            return found
    return found


# --- the header of every page ----------------------------------------------------------------------------------

def test_every_page_of_every_home_file_carries_its_whole_header(built):
    """Game, component (whole, or its member list left out), the variant, and the page's place: never an
    ellipsis, the right number of the right total, recto and verso alternating on a duplex card file."""
    data = _data(built)
    game, checked = data["title"], 0
    for entry in [e for e in data["outputs"] if e.get("format") == "pnp"]:
        pages = _page_lines(built.parent.parent / entry["path"])
        bands = _header_bands(built.parent.parent / entry["path"])
        assert len(pages) == entry["pages"], entry["path"]
        for index, lines in enumerate(pages):
            where = f"{entry['path']} page {index + 1}"
            if entry["kind"] == "rulebook":                  # the book's running foot; the cover has none
                assert index == 0 or any(f"page {index + 1} / {len(pages)}" in line for line in lines), where
                continue
            found = _header(lines, game) or _header(bands[index], game)
            assert len(found) == 1, (where, found)
            header = found[0]
            assert "…" not in header, (where, header)
            assert entry["title"] in header or without_lists(entry["title"]) in header, (where, header)
            place = PLACE.search(header).groups()
            number, total = (place[0], place[1]) if place[0] else (place[3], place[4])
            assert (int(number), int(total)) == (index + 1, len(pages)), (where, header)
            if entry["kind"] == "cards" and entry.get("backs_mode") == "duplex":
                assert place[2] == ("recto", "verso")[index % 2], (where, header)
            assert ("version économie d'encre" in header) == bool(entry.get("ink_saver")), (where, header)
            assert (" · à plier · " in header) == (entry.get("backs_mode") == "foldover"), (where, header)
            checked += 1
    assert checked > 20


def test_a_header_too_long_for_its_band_drops_the_list_then_cuts_the_title_never_the_page(tmp_path):
    fronts, backs = deck(10)
    listed = ", ".join(f"Paquet numéro {i} de la grande boîte" for i in range(40))
    cases = {"list": f"Cartes 63,5 × 88,9 mm : 40 paquets ({listed})",
             "long": "Cartes d'un titre " + "vraiment " * 40 + "long"}
    for name, title in cases.items():
        path = tmp_path / f"{name}.pdf"
        write_pnp(path, fronts, backs, PrintOptions(game_title="Jeu", component_title=title, ink_saver=True))
        for index, lines in enumerate(_page_lines(path)):
            header = _header(lines, "Jeu")[0]
            side = ("recto", "verso")[index % 2]
            assert f" · version économie d'encre · page {index + 1}/4 ({side})" in header, header
            if name == "list":
                assert "Cartes 63,5 × 88,9 mm : 40 paquets · version" in header and "…" not in header
            else:
                assert header.startswith("Jeu · Cartes d'un titre vraiment") and "… · version" in header


# --- groups printed together -----------------------------------------------------------------------------------

def test_no_pooled_sheet_mixes_two_groups(built):
    data = _data(built)
    groups = {c["id"]: c.get("group") for c in data["components"]}
    for entry in [e for e in data["outputs"] if e.get("pooled")]:
        found = {groups[m] for m in entry["members"]}
        assert len(found) == 1, (entry["path"], found)
        assert entry.get("group") == next(iter(found)), entry["path"]


@pytest.mark.parametrize("paper", PAPERS)
def test_each_fightball_team_prints_alone_on_its_own_sheets(fightball, paper):
    """A team's 56 cards (deck and field) in one file; every card on it, front and back, is that team's."""
    data = _data(fightball)
    for team, word in TEAMS.items():
        [entry] = [e for e in data["outputs"] if e.get("pooled") and e["paper"] == paper and not e.get("ink_saver")
                   and not e.get("foldover_of") and e.get("group") == team]
        assert entry["path"] == f"output/fightball/pnp-{paper}/cartes-63.5x88.9-{team}.pdf"
        assert entry["cards"] == 56 and entry["members"] == [f"deck-{team}", f"field-{team}"]
        pages = _page_lines(fightball.parent.parent / entry["path"])
        assert len(pages) == 2 * math.ceil(56 / entry["cards_per_page"])
        for index, lines in enumerate(pages):
            text = " ".join(line for line in lines if not line.startswith("Fightball · Cartes")).upper()
            others = [w for t, w in TEAMS.items() if t != team and w in text]
            assert not others, (entry["path"], index + 1, others)
            cards = min(entry["cards_per_page"], 56 - index // 2 * entry["cards_per_page"])
            if index % 2:                       # every back names the team, the field cards' backs too
                assert text.count(f"LES {word}") >= cards, (entry["path"], index + 1)


def test_a_box_is_read_from_the_games_guide_data_and_a_broken_one_is_a_located_warning(tmp_path):
    report = Report()
    guide = read_game_guide(ROOT / "templates" / "fightball", ROOT, report)
    assert guide.box == {"groups": 2, "group": "équipe",
                         "title": "Une seule boîte : les deux équipes qui s'affrontent"} and not report.warnings
    folder = tmp_path / "templates" / "g" / "guide"
    folder.mkdir(parents=True)
    (folder / "guide.yaml").write_text("box: {groups: deux, group: équipe, title: Une boîte}\n")
    report = Report()
    assert read_game_guide(tmp_path / "templates" / "g", tmp_path, report).box == {}
    assert [str(p.where) for p in report.warnings] == ["templates/g/guide/guide.yaml"]
    assert "'box' needs groups" in report.warnings[0].message


def _pages_of(built: Path, path: str) -> int:
    document = pypdfium2.PdfDocument(built.parent.parent / path)
    try:
        return len(document)
    finally:
        document.close()


@pytest.mark.parametrize("paper", PAPERS)
def test_the_guide_offers_one_box_with_its_sheets_counted_from_the_pdfs(fightball, paper):
    """Two teams' files and the rest of the game (aid, score sheet, rulebook; the optional mat aside): the sheet
    count the guide states is the one the PDFs' pages give, about 21 A4 sheets rather than the full print's."""
    data = _data(fightball)
    guide = (fightball / f"guide-{paper}.md").read_text()
    section = guide[guide.index("### Une seule boîte : les deux équipes qui s'affrontent"):]
    section = section[:section.index("\n## ")]
    rows = [line for line in section.splitlines() if line.startswith("| Les ")]
    assert len(rows) == 4
    for team in TEAMS:
        assert f"pnp-{paper}/cartes-63.5x88.9-{team}.pdf" in section
    team_sheets = _pages_of(fightball, f"output/fightball/pnp-{paper}/cartes-63.5x88.9-eclairs.pdf") // 2
    rest = {"aid": 2, "score-sheet": 1, "rulebook": 2}        # pages a sheet: aid and rulebook recto verso
    common = sum(math.ceil(_pages_of(fightball, f"output/fightball/pnp-{paper}/{name}.pdf") / per)
                 for name, per in rest.items())
    stated = re.search(r"\*\*(\d+) feuilles (?:A4|US Letter)\*\* en recto verso, au lieu de (\d+)", section)
    assert int(stated.group(1)) == 2 * team_sheets + common
    full = data["paper_bill"][paper]["totals"]["standard"]["double_sided"]     # the optional mat is not in it
    mat = next(r for r in data["paper_bill"][paper]["rows"] if r["component"] == "field-mat")
    assert mat["optional"] and int(stated.group(2)) == full == 4 * team_sheets + common
    if paper == "a4":
        assert int(stated.group(1)) <= 22


# --- the fold-over twins ---------------------------------------------------------------------------------------

def _ids(pages: list[list[str]], ids: set[str]) -> Counter:
    """How many times each card's edition id (report.json's edition) is printed: once per front."""
    words = Counter(re.findall(r"\b[0-9a-z]+\b", " ".join(" ".join(lines) for lines in pages)))
    return Counter({word: count for word, count in words.items() if word in ids})


def test_every_duplex_card_file_of_a_full_print_has_its_fold_over_twin(built):
    data = _data(built)
    twins = {e["foldover_of"]: e for e in data["outputs"] if e.get("foldover_of")}
    ids = {card["id"] for card in data["edition"]["cards"]}
    for paper, bill in data["paper_bill"].items():
        duplex = [r for r in bill["rows"] if not r["ink_saver"] and r["kind"] == "cards"
                  and next(e for e in data["outputs"] if e["path"] == r["path"]).get("backs_mode") == "duplex"]
        assert duplex, paper
        for row in duplex:
            twin = twins[row["path"]]
            original = Path(row["path"])
            assert twin["path"] == str(original.parent / "pli" / f"{original.stem}-pli.pdf")
            assert twin["backs_mode"] == "foldover" and twin["paper"] == paper and not twin["ink_saver"]
            folded = _page_lines(built.parent.parent / twin["path"])
            assert len(folded) == twin["pages"] and all(any("plier ici" in l for l in p) for p in folded)
            fronts = _ids(_page_lines(built.parent.parent / row["path"]), ids)
            assert sum(fronts.values()) == twin["cards"] and _ids(folded, ids) == fronts, twin["path"]
        counted = {r["path"] for r in bill["rows"]}
        assert not counted & {t["path"] for t in twins.values()}
        assert {r["path"] for r in bill["foldover"]} == {t["path"] for t in twins.values() if t["paper"] == paper}
        total = bill["totals"]["standard"]["double_sided"]
        assert total == sum(r["double_sided"] for r in bill["rows"] if not r["ink_saver"] and not r.get("optional"))


def test_the_home_zips_carry_the_twins_and_the_guide_says_when_to_print_them(built):
    data = _data(built)
    bundles = bundle_entries(built.parent, data["game"], "jeu-v1", PAPERS)
    for paper in PAPERS:
        twins = [e["path"] for e in data["outputs"] if e.get("foldover_of") and e["paper"] == paper]
        names = {name for name, _ in bundles[f"jeu-v1-home-{paper}.zip"]}
        assert twins and {"jeu-v1/" + path.removeprefix("output/") for path in twins} <= names
        guide = (built / f"guide-{paper}.md").read_text()
        part = guide[guide.index("**Le verso reste décalé"):]
        part = part[:part.index("\n## ")]
        assert "plus de 1 mm" in part and "--back-offset" in part
        for twin in [e for e in data["outputs"] if e.get("foldover_of") and e["paper"] == paper]:
            local = twin["path"].removeprefix(f"output/{data['game']}/")
            assert f"[{local}]({local})" in part and twin["foldover_of"].removeprefix(f"output/{data['game']}/") in part
