"""The print guide (issue 20): report.md and guide-<paper>.md are what a playtester follows, in French,
opening with what to print on one paper, with the paper bill's totals, sleeves, calibration, assembly order and
shopping list; the developer data last. Read back from real builds of the three games."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

from pipeline.core.errors import Report
from pipeline.guide.data import STOCKS, read_game_guide, sleeve_for, takes_a_sleeve
from pipeline.guide.print_guide import guide_markdown, paper_name
from tests.conftest import ROOT, built_game

GAMES = ("buildit", "nba", "allstar", "fightball", "challengers")
PAPERS = ("a4", "letter")
# words that would give an English heading away (none of them is French)
ENGLISH = {"the", "and", "what", "which", "how", "to", "of", "files", "file", "print", "report", "build", "bill",
           "paper", "inputs", "components", "missing", "bot", "games", "cut", "sheets"}


@pytest.fixture(scope="module", params=GAMES)
def built(request, tmp_path_factory) -> Path:
    return built_game(tmp_path_factory, request.param)


def _data(built: Path) -> dict:
    return json.loads((built / "report.json").read_text())


def _section(text: str, number: int) -> str:
    """The body of '## <number>. …' up to the next '## '."""
    start = text.index(f"\n## {number}. ")
    end = text.find("\n## ", start + 1)
    return text[start:end if end > 0 else None]


def _table(section: str) -> list[list[str]]:
    rows = [line.strip("|").split(" | ") for line in section.splitlines() if line.startswith("| ")]
    return [[cell.strip() for cell in row] for row in rows[1:]]         # header row left out


def _home_rows(data: dict, paper: str) -> list[dict]:
    return [row for row in data["paper_bill"][paper]["rows"] if not row["ink_saver"]]


def test_a_guide_per_paper_is_written_and_listed_with_its_sha256(built):
    data = _data(built)
    assert [g["paper"] for g in data["guides"]] == list(PAPERS)
    for guide in data["guides"]:
        path = built.parent.parent / guide["path"]
        assert path.name == f"guide-{guide['paper']}.md"
        assert hashlib.sha256(path.read_bytes()).hexdigest() == guide["sha256"]
    report_md = data["report_md"]
    assert report_md["path"] == f"output/{data['game']}/report.md"
    assert hashlib.sha256((built / "report.md").read_bytes()).hexdigest() == report_md["sha256"]


def test_the_guides_and_the_report_are_french(built):
    title = _data(built)["title"]
    for name in ("report.md", "guide-a4.md", "guide-letter.md"):
        text = (built / name).read_text()
        headings = [line for line in text.splitlines() if line.startswith("#")]
        assert headings
        for heading in headings:
            words = set(re.findall(r"[a-zà-ÿ]+", heading.replace(title, "").lower()))
            assert not words & ENGLISH, (name, heading)
        for phrase in ("À imprimer sur", "Manchons", "À acheter ou à réunir", "Découpe et assemblage"):
            assert phrase in text, (name, phrase)


@pytest.mark.parametrize("paper", PAPERS)
def test_the_guide_opens_with_what_to_print_on_one_paper(built, paper):
    text = (built / f"guide-{paper}.md").read_text()
    first = next(line for line in text.splitlines() if line.startswith("## "))
    assert first == f"## 1. À imprimer sur {paper_name(paper)}"
    what = _section(text, 1)
    other = next(p for p in PAPERS if p != paper)
    assert f"pnp-{paper}/" in what and f"pnp-{other}/" not in what and "-ink-saver.pdf]" not in what


def test_the_report_opens_with_the_first_papers_guide_and_ends_with_the_developer_data(built):
    data = _data(built)
    text = (built / "report.md").read_text()
    guide = (built / "guide-a4.md").read_text()
    assert text.startswith(guide.rstrip("\n"))                # the whole A4 guide first, word for word
    developer = text.index("## Données de développement")
    assert developer > text.index("## 5. Découpe et assemblage")
    assert all(text.index(i["sha256"][:16]) > developer for i in data["inputs"])
    assert text.index("pnp-letter/") > developer               # the other paper's files only in the developer data


@pytest.mark.parametrize("paper", PAPERS)
def test_every_home_file_is_listed_with_pages_paper_and_the_bills_sheets(built, paper):
    data = _data(built)
    what = _section((built / f"guide-{paper}.md").read_text(), 1)
    table = [row for row in _table(what) if len(row) == 6]
    bill = _home_rows(data, paper)
    pages = {e["path"]: e["pages"] for e in data["outputs"] if e.get("format") == "pnp"}
    listed = {}
    for row in table:
        link = re.search(r"\[([^\]]+)\]\(([^)]+)\)", row[1])
        listed[f"output/{data['game']}/{link.group(2)}"] = row
    assert set(listed) == {r["path"] for r in bill}
    for r in bill:
        row = listed[r["path"]]
        assert int(row[2]) == pages[r["path"]], r["path"]
        assert row[4] in STOCKS.values(), row
        assert int(row[5]) == r["double_sided"], r["path"]
    total = data["paper_bill"][paper]["totals"]["standard"]
    required = {r["path"] for r in bill if not r.get("optional")}       # the headline leaves the optional files out
    assert sum(int(row[5]) for path, row in listed.items() if path in required) == total["double_sided"]
    assert all(("*facultatif*" in row[0]) == (path not in required) for path, row in listed.items())
    stated = re.search(r"\*\*En tout : (\d+) feuilles? [^*]+\*\*(?: si votre imprimante imprime en recto "
                       r"verso ; (\d+) sinon)?", what)
    single = int(stated.group(2) or stated.group(1))
    assert (int(stated.group(1)), single) == (total["double_sided"], total["single_sided"])
    by_stock = [int(n) for n in re.findall(r"^- [^:\n]+ : \*\*(\d+) feuilles?\*\*", what, re.M)]
    assert len(by_stock) >= 2 and sum(by_stock) == total["double_sided"]      # card stock and 80 g at least


def test_every_card_size_names_its_sleeve(built):
    data = _data(built)
    sleeves = _section((built / "guide-a4.md").read_text(), 2)
    rows = _table(sleeves)
    sleeved = [c for c in data["components"] if takes_a_sleeve(c)]
    assert sleeved
    for component in sleeved:
        short, long = sorted(component["size_mm"])
        size = f"{short:g} × {long:g} mm".replace(".", ",")
        row = next(r for r in rows if component["title"] in r[0])
        assert row[1] == size
        known = sleeve_for(component["size_mm"])
        assert (f"« {known[1]} »" in row[3]) if known else ("au moins" in row[3])
    poker = [c for c in sleeved if sorted(c["size_mm"]) == [63.5, 88.9]]
    assert poker and "« Standard Card Game »" in sleeves
    count = next(r for r in rows if poker[0]["title"] in r[0])[2]
    assert int(count) == sum(c["count"] for c in poker)


@pytest.mark.parametrize("paper", PAPERS)
def test_the_calibration_sheet_comes_before_the_first_duplex_print(built, paper):
    data = _data(built)
    sheet = next(p for p in data["calibration"] if p.endswith(f"pnp-{paper}.pdf"))
    assert (built.parent.parent / sheet).is_file()
    section = _section((built / f"guide-{paper}.md").read_text(), 4)
    assert f"Imprimez [{sheet}](../calibration/pnp-{paper}.pdf) en recto verso" in section
    assert f"--paper {paper} --back-offset X,Y" in section and "sans décalage" in section


def test_boards_are_assembled_first_and_tokens_cut_after_the_cards(built):
    data = _data(built)
    steps = _section((built / "guide-a4.md").read_text(), 5)
    cards = steps.index("**Cartes**")
    required_boards = [r for r in data["paper_bill"]["a4"]["rows"] if r["kind"] == "board" and not r.get("optional")]
    if required_boards:
        assert steps.index("**Plateaux d'abord**") < cards
        assert "recouvrement de 10 mm" in steps and "cibles" in steps
    if "**Jetons et pions**" in steps:
        assert cards < steps.index("**Jetons et pions**")
    assert steps.index("**Règles**") > cards


def test_nba_says_ordinary_d6_replace_the_paper_dice(tmp_path_factory):
    built = built_game(tmp_path_factory, "nba", "--paper", "a4", "--format", "pnp")
    data = _data(built)
    text = (built / "guide-a4.md").read_text()
    dice = next(c for c in data["components"] if c["id"] == "dice")
    shopping = _section(text, 3)
    row = next(r for r in _table(shopping) if r[0].startswith("Dés à six faces ordinaires"))
    assert row[1].startswith(f"{dice['count']} : ")
    assert [int(n) for n in re.findall(r"(\d+) [a-z]+", row[1])] == list(dice["dice"].values())
    assert "Référence des dés" in row[2]
    what = _section(text, 1)
    optional = [r for r in _home_rows(data, "a4") if Path(r["path"]).stem in ("dice-nets", "dice-stickers")]
    assert len(optional) == 2 and all(f"{Path(r['path']).name}) | " in what for r in optional)
    # the headline is the print with ordinary dice; each dice file is an option with its own count (issue 29)
    headline = re.search(r"\*\*En tout : (\d+) feuilles", what)
    totals = data["paper_bill"]["a4"]["totals"]
    assert int(headline.group(1)) == totals["standard"]["double_sided"]
    assert totals["optional"]["double_sided"] == sum(r["double_sided"] for r in optional)
    for r in optional:
        assert f"{Path(r['path']).name}), **{r['double_sided']} feuille" in what, r["path"]


# --- fast: the parts, on their own ---------------------------------------------------------------------------------

@pytest.mark.parametrize("size, name", [((63.5, 88.9), "Standard Card Game"), ((88.9, 63.5), "Standard Card Game"),
                                        ((63, 88), "Standard Card Game"), ((59, 92), "Standard European"),
                                        ((57.15, 88.9), "Chimera"), ((44, 68), "Mini European"),
                                        ((41, 63), "Mini American"), ((70, 70), "Square"), ((88, 126), None)])
def test_a_card_size_finds_the_sleeve_sold_for_it(size, name):
    found = sleeve_for(size)
    assert (found[1] if found else None) == name


@pytest.mark.parametrize("game", GAMES)
def test_each_games_guide_data_reads_cleanly(game):
    report = Report()
    guide = read_game_guide(ROOT / "templates" / game, ROOT, report)
    assert not report.problems and guide.shopping and guide.assembly


def test_a_broken_guide_file_is_a_located_warning_and_the_guide_goes_on(tmp_path):
    folder = tmp_path / "templates" / "g" / "guide"
    folder.mkdir(parents=True)
    (folder / "guide.yaml").write_text("shopping:\n  - {item: Dés}\n  - 3\nassembly: [\"ok\", {a: 1}]\n"
                                       "optional:\n  - {files: dice-nets}\n")
    report = Report()
    guide = read_game_guide(tmp_path / "templates" / "g", tmp_path, report)
    assert [g["item"] for g in guide.shopping] == ["Dés"] and guide.assembly == ["ok"] and guide.optional == []
    messages = [p.message for p in report.warnings]
    assert len(messages) == 3 and all(str(p.where) == "templates/g/guide/guide.yaml" for p in report.warnings)
    (folder / "guide.yaml").write_text("shopping: [\n")
    report = Report()
    assert read_game_guide(tmp_path / "templates" / "g", tmp_path, report).shopping == []
    assert "line" in str(report.warnings[0].where)


def _tiny_report(**options) -> dict:
    entry = {"path": "output/g/pnp-a4/tokens.pdf", "format": "pnp", "paper": "a4", "kind": "cards", "pages": 1,
             "component": "tokens", "title": "Jetons | ronds", "cards": 40, "size_mm": [18, 18],
             "backs_mode": "foldover", "copies": 1}
    row = {"component": "tokens", "path": entry["path"], "kind": "cards", "ink_saver": False, "double_sided": 1,
           "single_sided": 1, "ink_pages_5pc": 2.0}
    return {"game": "g", "title": "Jeu", "components": [{"id": "tokens", "title": "Jetons | ronds", "kind": "cards",
                                                         "count": 40, "size_mm": [18, 18], "backs": True}],
            "outputs": [entry], "calibration": [],
            "options": {"back_offset_mm": [0.0, 0.0], **options},
            "paper_bill": {"a4": {"rows": [row], "totals": {"standard": {"double_sided": 1, "single_sided": 1,
                                                                         "ink_pages_5pc": 2.0}}}}}


def test_a_fold_over_token_sheet_is_folded_and_glued_before_it_is_cut():
    from pipeline.guide.data import GameGuide

    text = guide_markdown(_tiny_report(), "a4", GameGuide())
    assert "recto seul, à plier" in text and "Colle en bâton" in text
    assert "se plie sur sa ligne de pli et se colle" in _section(text, 5)
    assert "Jetons \\| ronds (40 jetons)" in text                 # a '|' in a title stays in its cell
    assert "rien à calibrer" in _section(text, 4)                  # no duplex file, no calibration
    assert "Aucune carte de ce jeu ne se met en manchon" in _section(text, 2)


def test_pooled_fold_over_tokens_and_two_up_aids_say_how_to_cut_them():
    from pipeline.guide.data import GameGuide

    data = _tiny_report()
    tokens = data["outputs"][0]
    tokens.update(kind="cards-tokens", backs_mode="none", fold_pairs=12, members=["tokens"], title="Jetons")
    aid = {"path": "output/g/pnp-a4/aid.pdf", "format": "pnp", "paper": "a4", "kind": "pages", "pages": 2, "up": 2,
           "backs_mode": "duplex", "component": "aid", "title": "Aide", "copies": 1}
    data["outputs"].append(aid)
    data["paper_bill"]["a4"]["rows"].append({"component": "aid", "path": aid["path"], "kind": "pages",
                                             "ink_saver": False, "double_sided": 1, "single_sided": 2,
                                             "ink_pages_5pc": 1.0})
    data["paper_bill"]["a4"]["totals"]["standard"].update(double_sided=2, single_sided=3)
    text = guide_markdown(data, "a4", GameGuide())
    assert "| Jetons \\| ronds (40 jetons) | [pnp-a4/tokens.pdf](pnp-a4/tokens.pdf) | 1 | recto seul, à plier |" in text
    assert "| Aide (2 par feuille) | [pnp-a4/aid.pdf](pnp-a4/aid.pdf) | 2 | recto verso, bord long | papier 80 g | 1 |" \
        in text
    steps = _section(text, 5)
    assert "pliez-la sur sa ligne pointillée" in steps and "**Aide** : 2 exemplaires par feuille" in steps
    assert "**En tout : 2 feuilles A4**" in text and "calibrer" in text and "pnp-a4.pdf" not in _section(text, 4)


@pytest.mark.slow
def test_a_broken_guide_file_fails_a_strict_build_before_any_file_is_written(tmp_path):
    from tests.conftest import copy_project, run_cli

    root = copy_project(tmp_path / "project")
    (root / "templates" / "allstar" / "guide" / "guide.yaml").write_text("shopping: [\n", encoding="utf-8")
    result = run_cli("build", "allstar", "--paper", "a4", "--strict", root=root)
    assert result.returncode == 1
    assert re.search(r"^warning templates/allstar/guide/guide\.yaml › line \d+: print guide data not read",
                     result.stderr, re.M), result.stderr
    assert not (root / "output" / "allstar").exists()
