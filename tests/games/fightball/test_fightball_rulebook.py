"""Fightball's rulebook (templates/fightball/rules/, pipeline/games/fightball/rulebook/): the book builds for A4
and Letter, its piles of real cards show the examples' cards in the examples' order (read back from the
PDF), the 9-or-14 example's points are the engine's scorer's, every effect card of the workbook is explained,
the drawn figures keep their words at 6 pt or more, and no page but the last is under a quarter full."""

from __future__ import annotations

import shutil
from dataclasses import replace
from io import BytesIO

import pdfplumber
import pytest

from pipeline.core.errors import Report
from pipeline.data.specs import RulebookSpec
from pipeline.games import load_game
from pipeline.games.fightball.rulebook import parameters, rulebook_context
from pipeline.games.fightball.rulebook.examples import nine_stacks, scorer
from pipeline.render.fonts import default_fonts
from pipeline.render.markup import unshield
from pipeline.render.pdf import new_canvas
from pipeline.render.rulebook.source import render_chapters
from pipeline.render.rulebook.stackfig import StackFigure, StackLayout
from pipeline.validate import load_records
from tests.conftest import ROOT, edit_workbook, set_cell
from tests.render.rulebook.rulebooks import Book, small_words, write_book

STACKS = ("stack-play", "stack-defence", "stack-new-attacker", "stack-nine-a", "stack-nine-b", "stack-false-start", "stack-too-late",
          "stack-hurried")
MIN_PT = 6.0


@pytest.fixture(scope="module", params=["a4", "letter"])
def book(request) -> Book:
    return write_book(load_game("fightball", ROOT), request.param)


@pytest.fixture(scope="module")
def a4() -> Book:
    return write_book(load_game("fightball", ROOT), "a4")


def _words(pdf: bytes) -> list[dict]:
    with pdfplumber.open(BytesIO(pdf)) as doc:
        return [dict(w, page=n) for n, page in enumerate(doc.pages) for w in page.extract_words(extra_attrs=["size"])]


def _text(pdf: bytes) -> str:
    with pdfplumber.open(BytesIO(pdf)) as doc:
        return " ".join(" ".join((page.extract_text() or "").split()) for page in doc.pages)


def test_the_book_builds_with_its_chapters_and_figures(book):
    chapters = ("Aperçu", "Matériel", "Mise en place", "Le tour rapide", "L'ordre d'une action", "Le total",
                "Les effets spéciaux", "Les fautes", "Le tour de score", "Les équipes", "Choix de cette édition")
    assert book.info["chapters"] == list(chapters)
    assert set(STACKS) | {"field-plan"} <= set(book.info["figures"])
    assert all(isinstance(book.figures[name], StackLayout) for name in STACKS)
    assert 8 <= book.info["pages"] <= 14
    text = _text(book.pdf)
    for team in book.records["teams"]:                                   # les équipes, with their profiles
        assert team["name"] in text and " ".join(team["profile"].split()[:6]) in text


def _expected_ids(context: dict) -> dict[str, list[str]]:
    """Each pile's cards, bottom first, from the examples the chapters print."""
    green, nine, fouls = context["ex"]["green"], context["ex"]["nine"], context["ex"]["fouls"]
    play = [green["attacker"]["id"], green["ball"], green["shot"]["id"]]
    piles = nine_stacks(nine, "north")
    return {
        "stack-play": play,
        "stack-defence": [play[0], *(d["id"] for d in green["defenders"]), play[1], play[2]],
        "stack-new-attacker": [green["first"]["id"], green["defenders"][0]["id"], *play],
        "stack-nine-a": [card for card, _ in piles["times_first"]],
        "stack-nine-b": [card for card, _ in piles["add_first"]],
        "stack-false-start": [fouls["false_start"]["ball"], fouls["false_start"]["attacker"]["id"]],
        "stack-too-late": [*play, fouls["too_late"]["late"]["id"], fouls["too_late"]["other"]],
        "stack-hurried": [play[0], fouls["hurried"]["shot"]["id"], play[1], play[2]],
    }


def test_the_piles_hold_the_examples_cards_in_order_and_print_them_top_to_bottom(a4):
    spec = a4.spec
    expected = _expected_ids(spec.context)
    records = a4.records
    names = {rec["id"]: rec["name"] for sheet in ("players", "effects") for rec in records[sheet]}
    teams = {rec["id"]: rec["name"].upper() for rec in records["teams"]}
    for name in STACKS:
        stack: StackFigure = spec.figures[name]
        assert [card.face.name.rsplit("-", 1)[0] for card in stack.cards] == expected[name], name
        # drawn alone, the pile prints each card's team (its header) and its label from top to bottom
        figure = a4.figures[name]
        buffer = BytesIO()
        canvas = new_canvas(buffer, (figure.width, figure.height), default_fonts())
        figure.draw(canvas)
        canvas.showPage()
        canvas.save()
        words = sorted(_words(buffer.getvalue()), key=lambda w: (round(w["top"]), w["x0"]))
        # the card's kind in its header band (small); the big TIR of a Tir card's face is not a header
        headers = [w for w in words if w["text"] in ("JOUEUR", "BALLE", "TIR", "EFFET") and w["size"] < 20]
        assert len(headers) == len(stack.cards), name
        tops = [w["top"] for w in headers]
        assert tops == sorted(tops) and len(set(round(t) for t in tops)) == len(tops)
        kinds = {"player": "JOUEUR", "ball": "BALLE", "shot": "TIR", "effect": "EFFET"}
        wanted = [kinds[_kind(card_id, records)] for card_id in expected[name]]
        assert [w["text"] for w in headers] == wanted, name
        label_text = " ".join(w["text"] for w in words if w["x0"] > 63.5 * 72 / 25.4)
        found = [card_id for card_id in expected[name] if card_id in names]
        positions = [label_text.find(names[card_id].split()[0]) for card_id in found]
        assert -1 not in positions and positions == sorted(positions), (name, label_text)
        team_words = {teams[tid].split()[-1]: tid for tid in teams}              # "ÉCLAIRS" -> eclairs
        printed = [team_words[w["text"]] for w in words if w["text"] in team_words and w["x0"] < 63.5 * 72 / 25.4]
        assert printed == [_team(card_id, records) for card_id in expected[name]], name


def _kind(card_id: str, records) -> str:
    for sheet, kind in (("players", "player"), ("shots", "shot"), ("effects", "effect")):
        if any(rec["id"] == card_id for rec in records[sheet]):
            return kind
    return "ball" if "_ball_" in card_id else "buzz"


def _team(card_id: str, records) -> str:
    for sheet in ("players", "shots", "effects"):
        for rec in records[sheet]:
            if rec["id"] == card_id:
                return rec["team"]
    return card_id.split("_ball_")[0]


def test_the_nine_or_fourteen_example_is_the_engines(a4):
    """The seed's example: the same cards, the two effects in both orders; the engine's scorer gives the
    points the chapter prints (2 × 2 + 5 and (2 + 5) × 2 with the workbook's effects)."""
    nine = a4.spec.context["ex"]["nine"]
    score = scorer(a4.records, parameters(a4.records))
    coach = "north" if nine["team"] == a4.spec.context["ex"]["north"] else "south"
    other = "south" if coach == "north" else "north"
    for key, stack in nine_stacks(nine, coach).items():
        awards = score(stack, "R", other)
        assert [(who, kind) for who, _, kind in awards] == [(coach, "play")]
        assert awards[0][1] == nine[key]
    zone, plus, factor = nine["zone"], nine["add"]["n"], nine["times"]["k"]
    assert (nine["times_first"], nine["add_first"]) == (zone * factor + plus, (zone + plus) * factor)
    if (zone, plus, factor) == (2, 5, 2):
        assert (nine["times_first"], nine["add_first"]) == (9, 14)
    text = _text(a4.pdf)
    assert f"{nine['times_first']} points" in text and f"{nine['add_first']} points" in text


def test_every_effect_card_of_the_workbook_is_explained(a4):
    chapters, problems = render_chapters(a4.game.template_dir / a4.spec.source, a4.spec.context, ROOT)
    assert problems == []
    effects = unshield(next(ch.text for ch in chapters if "# Les effets spéciaux" in ch.text))
    text = _text(a4.pdf)
    for rec in a4.records["effects"]:
        assert f"**{rec['name']}** ({rec['copies']} carte" in effects, rec["id"]
        assert rec["text"] in effects, rec["id"]                         # the card's own words, markup kept
        assert rec["name"] in text
    explained = [card for team in a4.spec.context["effects"] for card in team["cards"]]
    assert len(explained) == len(a4.records["effects"]) and all(card["explained"] for card in explained)
    ops = {rec["effect"]: rec for rec in a4.records["effect_ops"] if rec["op"] == "ADD_TOTAL"}
    for card in explained:                                               # numbers follow the op rows
        if card["id"] in ops:
            assert str(abs(int(ops[card["id"]]["arg"]))) in card["explained"]


def test_the_drawn_figures_keep_their_words_at_6_pt_or_more(book):
    """Each pile and the field are found in the PDF by their proportions and the very characters they write,
    and every character in them measures 6 pt or more."""
    assert small_words(book, (*STACKS, "field-plan"), MIN_PT) == []


def test_the_field_plan_follows_the_layout_and_the_rules():
    game = load_game("fightball", ROOT)
    records = load_records(game, ROOT, Report())
    rules = parameters(records)
    context = rulebook_context(records, rules)
    spec = next(c for c in game.components(records) if isinstance(c, RulebookSpec))
    plan = spec.figures["field-plan"].context
    assert len(plan["cells"]) == 24
    assert sum(1 for cell in plan["cells"] if cell["letter"] == "V") == context["counts"]["cells"]["G"] == 8
    assert sum(1 for cell in plan["cells"] if cell["owner"] == "à Alice") == 8
    assert sum(1 for cell in plan["cells"] if cell["owner"] == "à Bruno") == 8
    green = {cell["points"] for cell in plan["cells"] if cell["letter"] == "V"}
    assert green == {f"{rules['zone_points_g']} pts"}


def test_the_chapters_follow_the_workbook(tmp_path):
    """A ball bonus of 3, overtime on a tie and a pyramid worth 4: the examples, the 9-or-14 points (the
    engine's) and the sentences follow."""
    path = tmp_path / "fightball.xlsx"
    shutil.copy(ROOT / "sheets" / "fightball.xlsx", path)
    game = replace(load_game("fightball", ROOT), data_files=(path,))
    before = rulebook_context(load_records(game, ROOT, Report()), parameters(load_records(game, ROOT, Report())))
    pyramid = before["ex"]["nine"]["add"]["id"]

    def change(wb) -> None:
        set_cell(wb["rules"], "parameter", "ball_match_bonus", "value", "3")
        set_cell(wb["rules"], "parameter", "tie_rule", "value", "overtime")
        set_cell(wb["effect_ops"], "effect", pyramid, "arg", "4")

    edit_workbook(path, change)
    report = Report()
    records = load_records(game, ROOT, report)
    assert records is not None, [str(p) for p in report.errors]
    context = rulebook_context(records, parameters(records))
    assert context["ex"]["green"]["total"] == before["ex"]["green"]["total"] + 1
    nine = context["ex"]["nine"]
    assert (nine["times_first"], nine["add_first"]) == (2 * 2 + 4, (2 + 4) * 2)
    chapters, problems = render_chapters(game.template_dir / "rules", context, ROOT)
    assert problems == []
    text = unshield(" ".join(chapter.text for chapter in chapters))
    assert "balle verte (+3)" in text and "prolongations" in text and "match est **nul**" not in text
    assert f"**{nine['times_first']} points**" in text and f"**{nine['add_first']} points**" in text


def test_every_pile_scores_with_the_engine_as_the_chapters_say(a4):
    """Each drawn pile, scored by the engine's stack scorer on its cell (green; the 9-or-14 piles on a red
    cell of the other half), gives the awards the captions and the text announce."""
    context, records = a4.spec.context, a4.records
    rules = parameters(records)
    score = scorer(records, rules)
    ex, green = context["ex"], context["ex"]["green"]
    north_team = ex["north"]
    coach = lambda card_id: "north" if _team(card_id, records) == north_team else "south"  # noqa: E731
    g, late, hurried = rules["zone_points_g"], rules["too_late_points"], rules["hurried_shot_points"]
    expected = {
        "stack-play": [("north", g, "play")] if green["scores"] else [],
        "stack-defence": [("north", g, "play")] if green["scores_two"] else [],
        "stack-new-attacker": [("north", g, "play")] if green["scores"] else [],
        "stack-false-start": [("north", g, "false_start")],
        "stack-too-late": [("north", late, "too_late")] + ([("north", g, "play")] if green["scores"] else []),
        "stack-hurried": [("north", hurried, "hurried_shot")] + ([("north", g, "play")] if green["scores"] else []),
    }
    for name, ids in _expected_ids(context).items():
        if name not in expected:
            continue
        awards = score([(card_id, coach(card_id)) for card_id in ids], "G", None)
        assert sorted(awards) == sorted(expected[name]), name
