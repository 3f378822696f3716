"""Pooled home sheets (issue 20), measured on every game's real build: card families of one size share
duplex sheets with each card's own back behind it, tokens share single-sided sheets, the A5 aid prints
2-up, the paper bill counts the pooled files instead of their members and a full home print meets its
target on both papers (issue 29); crop marks are 5 mm long on every card, token and board sheet, save the
short ones above and below a grid with no room for more (Letter's 3 × 3 poker cards); "couper ici" reads
upright on every board tile."""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from pathlib import Path

import pytest

from pipeline.core.errors import Report
from pipeline.core.units import MM, PAPERS_MM
from pipeline.guide.data import read_game_guide
from pipeline.render.sheets.plan import MARK_MAX, SHORT_EDGE, SHORT_MIN
from tests.conftest import ROOT, built_game
from tests.pdfindex import pages
from tests.render.sheets.printcheck import pdfcheck, prepare

GAMES = ("buildit", "allstar", "nba", "fightball", "challengers")
# a full home print (cards, tokens, boards, aids, score sheet, duplex rulebook; dice and what the guide
# calls optional aside): Letter as issue 29 set it, A4 as measured before it (no worse)
TARGETS = {"letter": {"buildit": 25, "allstar": 29, "nba": 52, "fightball": 33, "challengers": 63},
           "a4": {"buildit": 24, "allstar": 28, "nba": 50, "fightball": 32, "challengers": 62}}
# What issue 29 itself adds to two of the targets it set, each sheet counted from the build: All-Star prints one
# aid per manager up to six, two to a sheet (3 sheets where one aid took 1: +2); Fightball never mixes two teams on
# a sheet, so each team's 56 cards take 7 sheets of 9 where the four teams shared 25 (+3). Both rules are the
# issue's (§5 and §2); the targets of §1 were set before them.
ADDED_BY_ISSUE_29 = {"allstar": 2, "fightball": 3}
MARK_WIDTH = 0.3          # points: how crop marks are drawn (pipeline/render/sheets/decor.py)


@pytest.fixture(scope="module", params=GAMES)
def built(request, tmp_path_factory) -> Path:
    return built_game(tmp_path_factory, request.param)


def _report(built: Path) -> dict:
    return json.loads((built / "report.json").read_text())


def _pnp(built: Path, kind_prefix: str = "cards") -> list[dict]:
    return [e for e in _report(built)["outputs"] if e["format"] == "pnp" and e["kind"].startswith(kind_prefix)]


def _full_print(bill: dict, optional: set[str]) -> int:
    """Double-sided sheets of the files a full print needs: no ink-saver copy, no dice nets or stickers,
    no file the game's guide lists as optional (Fightball's mat)."""
    return sum(r["double_sided"] for r in bill["rows"] if not r["ink_saver"] and not r["kind"].startswith("dice")
               and not r.get("optional") and Path(r["path"]).stem not in optional)


def _optional_files(game: str) -> set[str]:
    guide = read_game_guide(ROOT / "templates" / game, ROOT, Report())
    return {stem for item in guide.optional for stem in item["files"]}


def _no_family_would_save_a_sheet(data: dict) -> None:
    """Card decks of one size on one paper already fill their sheets: pooling them saves nothing."""
    families: dict[tuple, list[dict]] = {}
    for e in data["outputs"]:
        if e["format"] == "pnp" and e["kind"] == "cards" and not e.get("ink_saver") and e.get("backs_mode") == "duplex":
            families.setdefault((e["paper"], tuple(e["size_mm"])), []).append(e)
    assert families
    for members in families.values():
        per_page = members[0]["cards_per_page"]
        assert sum(m["sheets"] for m in members) == math.ceil(sum(m["cards"] for m in members) / per_page)


def test_pooled_files_replace_their_members_in_the_paper_bill_and_save_paper(built):
    data = _report(built)
    if not any(e.get("pooled") for e in data["outputs"]):
        _no_family_would_save_a_sheet(data)         # NBA: its decks fill 9-card sheets on both papers
        return
    saved = 0
    for paper, bill in data["paper_bill"].items():
        pooled = [e for e in data["outputs"] if e.get("pooled") and e["paper"] == paper]
        assert pooled, paper
        members = {m for e in pooled for m in e["members"]}
        counted = {r["component"] for r in bill["rows"]}
        assert not members & counted                       # a member's own file is not counted again
        assert {r["component"] for r in bill["per_component"]} == members
        saving = bill["saved_by_pooling"]
        assert saving["saved"] == saving["members_alone"] - saving["pooled"] >= 0
        saved += saving["saved"]
    assert saved > 0 or all(e.get("group") for e in data["outputs"] if e.get("pooled"))  # groups: one file each
    for pool in {e["component"] for e in data["outputs"] if e.get("pooled")}:   # each saves on some paper;
        written = [e for e in data["outputs"] if e["component"] == pool and e.get("pooled")]
        if written[0].get("group"):         # a group's ("printed together") costs no more on any
            assert all(e["sheets"] <= e["sheets_alone"] for e in written), pool
        else:
            assert any(e["sheets"] < e["sheets_alone"] for e in written), pool


def test_a_full_home_print_meets_the_target(built):
    data = _report(built)
    game = built.name
    optional = _optional_files(game)
    assert set(data["paper_bill"]) == {"a4", "letter"}
    totals = {paper: _full_print(bill, optional) for paper, bill in data["paper_bill"].items()}
    assert all(totals[paper] <= TARGETS[paper][game] + ADDED_BY_ISSUE_29.get(game, 0) for paper in totals), totals


def _card_args(paper: str, size) -> tuple[str, ...]:
    return "--expect-card", "x".join(f"{v:g}" for v in size), "--paper", paper


def _cards(path: Path, paper: str, size) -> list[list[dict]]:
    pages = pdfcheck(path, *_card_args(paper, size))
    return [[c for c in page["cards"]["cards"] if c["occupied"]] for page in pages["report"]["pages"]]


def _words_in(page, card: dict, paper: str) -> str:
    """The words printed inside one card's trim (pdfcheck's mm, origin bottom-left)."""
    ph = PAPERS_MM[paper][1]
    x0, x1 = card["x_mm"] * MM, (card["x_mm"] + card["w_mm"]) * MM
    top, bottom = (ph - card["y_mm"] - card["h_mm"]) * MM, (ph - card["y_mm"]) * MM
    return " ".join(page.words((x0 + 0.5, top + 0.5, x1 - 0.5, bottom - 0.5)))


def _pairs(path: Path, paper: str, size) -> Counter:
    """(front words, words of the back mirrored behind it) for every card of a duplex card file."""
    pw = PAPERS_MM[paper][0]
    found: Counter = Counter()
    cards = _cards(path, paper, size)
    read = pages(path)
    for index in range(0, len(read), 2):
        fronts, backs = cards[index], cards[index + 1]
        for card in fronts:
            mirrored = pw - card["x_mm"] - card["w_mm"]
            behind = [b for b in backs if abs(b["x_mm"] - mirrored) <= 0.1 and abs(b["y_mm"] - card["y_mm"]) <= 0.1]
            assert len(behind) == 1, (path.name, index, card)
            found[(_words_in(read[index], card, paper), _words_in(read[index + 1], behind[0], paper))] += 1
    return found


def test_every_card_of_a_pooled_sheet_is_there_once_with_its_own_back_behind_it(built):
    """The pooled file holds exactly the cards of its members' own files, each front with the back its
    own deck prints behind it (words read inside each card's trim), backs mirrored to 0.1 mm."""
    root = built.parent.parent
    entries = {(e["component"], e["paper"]): e for e in _pnp(built)
               if not e.get("ink_saver") and not e.get("foldover_of")}      # not a fold-over twin (pli/)
    pools = [e for e in entries.values() if e.get("pooled") and e["kind"] == "cards"]
    if not pools:
        pytest.skip(f"{built.name}: no pooled card family")
    files = [*pools, *(entries[(member, pool["paper"])] for pool in pools for member in pool["members"])]
    prepare([(root / e["path"], _card_args(e["paper"], e["size_mm"])) for e in files])    # one preflight run
    for pool in pools:
        alone: Counter = Counter()
        for member in pool["members"]:
            own = entries[(member, pool["paper"])]
            alone += _pairs(root / own["path"], pool["paper"], own["size_mm"])
        together = _pairs(root / pool["path"], pool["paper"], pool["size_mm"])
        assert together == alone, pool["path"]
        assert sum(together.values()) == pool["cards"]


def _marks(page) -> list[tuple[float, float, float, float]]:
    """Crop marks (x0, top, x1, bottom) in mm from the page's top-left."""
    return [(ln["x0"] / MM, ln["top"] / MM, ln["x1"] / MM, ln["bottom"] / MM) for ln in page.lines
            if abs(ln["linewidth"] - MARK_WIDTH) < 0.01]


def test_crop_marks_are_5_mm_long_on_every_card_token_and_board_sheet(built):
    """Every mark is 5 mm long (boards' tiles too: report.json's mark_length_mm says so as well), except
    the marks of a grid's vertical cuts in a top or bottom margin with no room for more: those run from the
    grid's edge outward, 2 mm or more, and end 4.2 mm or more from the paper edge (on the fronts: a
    per-printer offset may shorten the backs'). Poker cards on Letter: short marks, 9 a page."""
    root = built.parent.parent
    short_files = set()
    for entry in (e for e in _report(built)["outputs"] if e["format"] == "pnp" and not e.get("ink_saver")
                  and (e["kind"].startswith("cards") or e["kind"] == "board")):    # ink-saver files share plans
        pw, ph = PAPERS_MM[entry["paper"]]
        lengths = entry["mark_length_mm"] if isinstance(entry["mark_length_mm"], list) else [entry["mark_length_mm"]]
        assert lengths[0] == MARK_MAX and min(lengths) >= SHORT_MIN, entry["path"]
        for number, page in enumerate(pages(root / entry["path"]), 1):
            marks = _marks(page)
            assert marks, (entry["path"], number)
            grid_top = min(m[1] for m in marks if m[1] == m[3])        # the outermost horizontal cut lines
            grid_bottom = max(m[1] for m in marks if m[1] == m[3])
            for x0, top, x1, bottom in marks:
                if bottom - top + x1 - x0 >= MARK_MAX - 0.01:
                    continue
                short_files.add(entry["path"])
                assert x0 == x1 and entry["kind"].startswith("cards"), (entry["path"], number, x0, top, x1, bottom)
                assert bottom <= grid_top + 0.01 or top >= grid_bottom - 0.01, (entry["path"], number)
                assert min(top, ph - bottom) >= SHORT_EDGE - 0.01, (entry["path"], number, top, bottom)
                if number % 2 or entry.get("backs_mode") != "duplex":
                    assert bottom - top >= SHORT_MIN - 0.01, (entry["path"], number, top, bottom)
                    assert bottom == pytest.approx(grid_top, abs=0.01) or top == pytest.approx(grid_bottom, abs=0.01)
    poker = [e for e in _pnp(built) if e.get("size_mm") == [63.5, 88.9] and not e.get("ink_saver")
             and not e.get("foldover_of")]          # a fold-over twin holds fronts and backs side by side
    for entry in poker:
        assert entry["cards_per_page"] == 9, entry["path"]
        assert (entry["path"] in short_files) is (entry["paper"] == "letter"), entry["path"]


def test_token_sheets_pass_the_preflight_and_keep_every_mark_3_mm_from_the_edge(built):
    root = built.parent.parent
    tokens = [e for e in _pnp(built, "cards-tokens")]
    if not tokens:
        pytest.skip(f"{built.name}: no token sheet")
    for entry in tokens:
        checked = pdfcheck(root / entry["path"], "--paper", entry["paper"], "--duplex", "off")
        assert checked["exit"] == 0, (entry["path"], checked["report"]["findings"])
        pw, ph = PAPERS_MM[entry["paper"]]
        for page in pages(root / entry["path"]):
            for ln in page.lines:
                x0, x1 = ln["x0"] / MM, ln["x1"] / MM
                top, bottom = ln["top"] / MM, ln["bottom"] / MM
                assert min(x0, top, pw - x1, ph - bottom) >= 3 - 0.01, entry["path"]
        assert entry["pieces"] == entry["cards"]


def test_the_a5_aid_prints_2_up_recto_verso(built):
    aids = [e for e in _report(built)["outputs"] if e.get("up") == 2]
    if built.name != "nba":
        return
    assert {e["paper"] for e in aids} == {"a4", "letter"}
    root = built.parent.parent
    for entry in aids:
        assert entry["pages"] == 2 and entry["copies"] == 1 and entry["backs_mode"] == "duplex"
        assert 0.85 <= entry["scale"] <= 1
        for page in pages(root / entry["path"]):        # two copies a side: each title twice
            assert max(Counter(page.words()).values()) >= 2


def test_couper_ici_reads_upright_on_every_board_tile(built):
    """Every character of the cut labels reads left to right (0°) or bottom to top (90°), never upside
    down (180°) nor top to bottom (270°), whichever way the board is turned on the tile."""
    root = built.parent.parent
    boards = [e for e in _report(built)["outputs"] if e["kind"] == "board" and e["format"] == "pnp"]
    if not boards:
        pytest.skip(f"{built.name}: no board")
    seen = 0
    for entry in boards:
        for page in pages(root / entry["path"]):
            chars = [c for c in page.chars if c["text"].strip()]     # in drawing order
            text = "".join(c["text"] for c in chars)
            for found in re.finditer("couperici", text):
                for c in chars[found.start():found.end()]:
                    a, b = c["matrix"][0], c["matrix"][1]
                    assert a > 0.1 or b > 0.1, (entry["path"], page.number + 1, c["matrix"])
                seen += 1
    assert seen
