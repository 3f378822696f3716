"""NBA Deck-Building's rulebook: the worked example computed from the workbook, the book built for A4 and Letter,
its numbers following the cells they come from, and its figures resolving to real faces."""

from __future__ import annotations

import re
from dataclasses import replace
from io import BytesIO
from pathlib import Path

import pypdfium2
import pytest

from pipeline.core.errors import Report, Severity
from pipeline.core.printing import PrintOptions
from pipeline.core.units import MM, PAPERS_MM
from pipeline.data.specs import RulebookSpec
from pipeline.games import load_game
from pipeline.games.nba.components import parameters
from pipeline.games.nba.rulebook import rulebook, rulebook_context
from pipeline.games.nba.rulebook.example import illustration, worked_example
from pipeline.render.faces.renderer import FaceRenderer
from pipeline.render.fonts import default_fonts
from pipeline.render.rulebook import markdown as md
from pipeline.render.rulebook.book import check_rulebook, write_rulebook
from pipeline.render.rulebook.source import render_chapters
from pipeline.validate import load_records
from tests.conftest import ROOT, copy_project, edit_workbook
from tests.render.sheets.printcheck import pdfcheck

CHAPTERS = ("Aperçu du jeu", "Matériel", "Mise en place", "Le tour de jeu", "Activer une tactique", "Les dés",
            "Fin de partie", "Durée de la partie", "Variantes expertes", "Un exemple de deux tours",
            "Précisions et cas particuliers", "Index des tactiques", "Choix de cette édition")


def load(root: Path, checks: bool = True):
    """The records of root's workbook. checks=False skips the game's own checks (stages 3 and 5), so a test may
    feed the rulebook data that no longer reproduces the example and see it print what the data gives."""
    game = replace(load_game("nba", ROOT), data_files=(root / "sheets" / "nba.xlsx",))
    if not checks:
        game = replace(game, rule_checks=lambda records, report: None)
    report = Report()
    records = load_records(game, root, report)
    assert records is not None, "\n".join(str(p) for p in report.errors)
    return game, records


def build(root: Path, paper: str, checks: bool = True) -> dict:
    game, records = load(root, checks)
    spec = next(c for c in game.components(records) if isinstance(c, RulebookSpec))
    renderer = FaceRenderer(ROOT, game.template_dir, default_fonts())
    figures = {name: renderer.layout(face.template, face.context, None, name, size_mm=face.size_mm)[0]
               for name, face in spec.figures.items()}
    folder = game.template_dir / spec.source
    problems = check_rulebook(folder, spec.context, figures, ROOT)
    buffer = BytesIO()
    info = write_rulebook(buffer, folder, spec.context, figures, PrintOptions(paper=paper, game_title=game.title),
                          ROOT)
    pdf = pypdfium2.PdfDocument(buffer.getvalue())    # pdfplumber would take seconds per page of board figures
    pages = [pdf[i].get_textpage().get_text_range().replace("\r\n", "\n") for i in range(len(pdf))]
    sizes = [tuple(pdf[i].get_size()) for i in range(len(pdf))]
    return {"spec": spec, "info": info, "pages": pages, "sizes": sizes, "problems": problems, "pdf": buffer.getvalue(),
            "text": " ".join(" ".join(pages).split())}


@pytest.fixture(scope="module")
def real():
    return load(ROOT)


@pytest.fixture(scope="module")
def books() -> dict:
    return {paper: build(ROOT, paper) for paper in ("a4", "letter")}


def _set_cells(path: Path, rules: dict | None = None, players: dict | None = None) -> None:
    """rules: parameter -> value; players: (player name, column) -> value, on every set's row of that name."""
    def change(workbook):
        if rules:
            for row in workbook["rules"].iter_rows(min_row=2):
                if row[0].value in rules:
                    row[1].value = rules[row[0].value]
        if players:
            sheet = workbook["players"]
            header = [cell.value for cell in sheet[1]]
            for row in sheet.iter_rows(min_row=2):
                for (name, column), value in players.items():
                    if row[header.index("name")].value == name:
                        row[header.index(column)].value = value
    edit_workbook(path, change)


# --- the worked example, computed ------------------------------------------------------------------------------

def test_the_example_lineups_are_built_from_the_set_a_rows(real):
    _, records = real
    example = worked_example(records, parameters(records))
    lineups = example["lineups"]
    assert [c["name"] for c in lineups["S"]["cards"]] == [f"Titulaire {p} 1" for p in ("MJ", "Ar", "Ai", "AF", "P")]
    assert [c["id"] for c in lineups["F2"]["cards"]][1] == example["nba"]["korver"]["id"]
    assert (lineups["S"]["collective"], lineups["So"]["collective"], lineups["F2"]["collective"]) == (6, 4, 5)
    assert (lineups["S"]["levels"]["RB"], lineups["So"]["levels"]["RB"], lineups["F2"]["levels"]["RB"]) == (4, 3, 5)
    # and they are sums of the rows, not constants: one rating less, one level less
    rows = {r["id"]: r for r in records["players"]}
    assert lineups["So"]["levels"]["IN"] == sum(rows[c["id"]]["IN"] for c in lineups["So"]["cards"]) == 4


def test_the_example_turns_follow_the_rules_and_the_story_dice(real):
    _, records = real
    ex = worked_example(records, parameters(records))
    f1, s1, f2, s2 = ex["fred1"], ex["sophie1"], ex["fred2"], ex["sophie2"]
    assert (f1["offence"]["dice"], f1["offence"]["rolled"], f1["offence"]["kept"]) == (3, [4, 2, 2], [4, 2])
    assert f1["offence"]["rerolls_allowed"] == 0 and f1["buy_player"]["ok"] and f1["buy_tactic"]["ok"]
    assert s1["defence"]["kept_flat"] == [(3, "red")] and s1["defence"]["fatigue"] == 1
    assert s1["offence"]["kept"] == [6, 6] and s1["offence"]["rerolls_allowed"] == 0
    assert f2["points"] == 3                                       # 6 − 3
    assert (f2["offence"]["rerolls_allowed"], f2["offence"]["after"]) == (1, [9, 2, 2, 0])
    assert f2["offence"]["total"] == 13
    assert f2["defence"]["kept_flat"] == [(2, "yellow")] and f2["defence"]["fatigue"] == 2
    assert s2["points"] == 10                                      # 12 − 2
    assert s2["defence"]["kept_flat"] == [(2, "blue"), (3, "blue")] and s2["defence"]["over_limit"] == 1
    assert s2["buy_player"]["total"] == 4 and s2["buy_player"]["ok"]
    assert (ex["fred3"]["points"], ex["score"]["fred"], ex["score"]["sophie"]) == (8, 3, 10)
    assert (ex["fatigue_supply"], ex["fatigue_left"]) == (9, 5)


def test_the_activation_and_scoring_examples(real):
    _, records = real
    il = illustration(records, parameters(records))
    assert il["collective"] == 6
    assert [(c["tactic"]["name"], c["can"]) for c in il["checks"]] == [
        ("Virginia Offense", False), ("Kentucky Offense", True), ("Houston Defense", True), ("Michigan Defense", True)]
    assert il["kentucky"]["dice"] == {"3P": 3} and il["michigan"]["dice"] == {"BL": 2, "ST": 2}
    assert (il["scoring"]["raw"], il["scoring"]["points"], il["negative"]) == (18, 13, 0)


def test_the_dice_chart_and_durations_come_from_their_sheets(real):
    _, records = real
    context = rulebook_context(records, parameters(records))
    sums = {d["id"]: d["sum"] for d in context["dice"]}
    assert sums == {"3P": 17, "IN": 19, "PE": 21, "IT": 10, "BL": 10, "ST": 10}
    grey = next(d for d in context["dice"] if d["id"] == "BL")
    assert grey["faces_of_colour"]["red"] == max(d["faces_of_colour"]["red"] for d in context["dice"])
    assert [(d["label"], d["turns_per_player"], d["pile_cards"]) for d in context["durations"]] == [
        ("Courte", 8, 12), ("Normale", 12, 20), ("Longue", 18, 32), ("Épique", 24, 44)]
    assert [d["length"] for d in context["durations"] if d["erratum"]] == ["normal"]
    assert (context["length"]["turns"], context["length"]["last_reveal"]) == (24, 19)
    assert len(context["tactics"]) == 30 and sum(t["copies"] for t in context["tactics"] if not t["base"]) == 70


def test_a_figure_is_offered_only_when_every_face_exists(real):
    _, records = real
    figure = rulebook_context(records, parameters(records), {"court", "back"})["figure"]
    assert figure("Le terrain", "court") == "![Le terrain](figure:court)"
    assert figure("Deux faces", "court", "back") == "![Deux faces](figure:court,back)"
    assert figure("Pas encore", "court", "markets") == ""


def test_without_any_rendered_part_the_chapters_still_check_clean(real):
    game, records = real
    spec = rulebook(records, parameters(records), [])
    assert spec.figures == {}
    assert check_rulebook(game.template_dir / spec.source, spec.context, {}, ROOT) == []


# --- the book ----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_book_is_built_for_both_papers_with_its_contents(books, paper):
    book = books[paper]
    assert [p for p in book["problems"] if p.severity is Severity.ERROR] == []
    width, height = (side * MM for side in PAPERS_MM[paper])
    assert all(size == pytest.approx((width, height), abs=0.5) for size in book["sizes"])
    assert book["info"]["chapters"] == list(CHAPTERS)
    contents = " ".join(book["pages"][1:3])
    assert "Sommaire" in contents
    for number, title in enumerate(CHAPTERS, 1):
        found = re.search(rf"{number}\. {re.escape(title)}[ .]*?(\d+)", contents)
        assert found, title
        page = int(found.group(1))
        assert title in book["pages"][page - 1], (title, page)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_pdfcheck_passes_on_the_book(books, paper, tmp_path):
    path = tmp_path / f"rulebook-{paper}.pdf"
    path.write_bytes(books[paper]["pdf"])
    checked = pdfcheck(path, "--duplex", "off", "--paper", paper)
    errors = [f for f in checked["report"]["findings"] if f["severity"] == "error"]
    assert checked["exit"] == 0 and not errors, errors


def test_the_printed_numbers_are_the_computed_ones(books):
    text = books["a4"]["text"]
    assert "son niveau collectif passe de 6 à 4" in text
    assert "Fred marque 6 − 3 = 3 points" in text
    assert "Sophie marque 12 − 2 = 10 points" in text
    assert "Au tour suivant, Fred marque 6 − 3 = 3 points" in text          # the attack diagram (issue 20)
    assert "9, 2 et 2 sont posés" in text and "soit 13 points en attente" in text
    assert "a droit à 1 relance" in text
    assert "8 points de plus" in text and "passée de 9 à 5 cartes" in text
    assert "Total 3 10" in text                                            # the scoreboard
    for row in ("Courte 8 16 12", "Normale 12 24 20", "Longue 18 36 32", "Épique 24 48 44"):
        assert row in text                                                # the durations table
    assert "indiquait 24 cartes" in text                                  # the AMB-01 erratum, in player terms
    assert "tiret" in text and "Kentucky Offense offensive 5 3 bleus (3 points) 1 2 4" in text


def _runs_text(blocks) -> list[str]:
    """Every text run of the parsed book (headings, paragraphs, lists, tables, notes; not code blocks)."""
    out = []
    for block in blocks:
        if isinstance(block, (md.Heading, md.Paragraph)):
            out.append(md.plain(block.runs))
        elif isinstance(block, md.ListBlock):
            out += [text for item in block.items for text in _runs_text(item)]
        elif isinstance(block, md.Note):
            out += _runs_text(block.blocks)
        elif isinstance(block, md.Table):
            out += [md.plain(cell) for row in (block.header, *block.rows) for cell in row]
    return out


def test_french_typography(books, real):
    game, _ = real
    spec = books["a4"]["spec"]
    chapters, problems = render_chapters(game.template_dir / spec.source, spec.context, ROOT)
    blocks, found = md.parse_rulebook(chapters, spec.figures)
    assert problems + found == []
    texts = _runs_text(blocks)
    joined = "\n".join(texts)
    assert joined.count(":") > 100 and joined.count("«") > 50
    for text in texts:
        assert not re.search(r"[^\xa0][:;!?»]", text), text           # a non-breaking space before : ; ! ? »
        assert not re.search(r"«[^\xa0]", text), text                   # and after «
        assert '"' not in text and "→" not in text, text                 # guillemets; no glyph the font lacks
    assert "« Dés offensifs »" in books["a4"]["text"]


def test_the_figures_resolve_to_real_faces(books):
    book = books["a4"]
    drawn = book["info"]["figures"]
    assert set(drawn) <= set(book["spec"].figures)
    # the boards and the dice reference are drawn as diagrams at print size, not as thumbnails (issue 20)
    for name in ("player-kyle_korver", "tactic-kentucky_offense", "fatigue", "back", "court-plan", "markets-plan",
                 "court-setup", "attack", "track-full", "track-hole"):
        assert name in drawn
    assert not {"court", "markets", "dice-reference", "aid-front", "score-sheet"} & set(drawn)
    assert book["spec"].figures["player-kyle_korver"].context["name"] == "Kyle Korver"


def test_changing_a_cell_changes_the_printed_number(tmp_path):
    root = copy_project(tmp_path)
    _set_cells(root / "sheets" / "nba.xlsx", rules={"dice_cap": 8, "reroll_divisor": 2},
               players={("Titulaire MJ 1", "GI"): 3})
    text = build(root, "a4", checks=False)["text"]
    assert "maximum de 8 dés par compétence" in text and "maximum de 10 dés" not in text
    assert "son niveau collectif passe de 7 à 5" in text                  # one more GI on the initiation five
    assert "Avec l'équipe d'initiation, le niveau collectif vaut 7" in text
    assert "(5 − 3) ÷ 2, arrondi à l'entier supérieur" in text
    assert "Son niveau collectif (5) suffirait pour « Virginia Tech Offense »" in text
