"""Challengers' rulebook (templates/challengers/rules/, pipeline/games/challengers/rulebook/): the book builds for
A4 and Letter, the match it tells card by card is the engine's (every total printed, every pile drawn), every
set appears with its identity and its cards, each effect timing has an example card of the workbook, the drawn
figures keep their words at 6 pt or more, and the chapters follow the rules sheet."""

from __future__ import annotations

import re
import shutil
from dataclasses import replace
from io import BytesIO

import pdfplumber
import pytest

from pipeline.core.errors import Report
from pipeline.games import load_game
from pipeline.games.challengers import game_data
from pipeline.games.challengers.engine import tell_match
from pipeline.games.challengers.engine.scoring import lead_winner, matches_per_round, qualified, rank_key
from pipeline.games.challengers.rulebook import parameters, rulebook_context
from pipeline.games.challengers.rulebook.keywords import TIMINGS
from pipeline.render.markup import card_text
from pipeline.render.rulebook.source import render_chapters
from pipeline.render.rulebook.stackfig import StackFigure, StackLayout
from pipeline.validate import load_records
from tests.conftest import ROOT, edit_workbook, set_cell
from tests.render.rulebook.rulebooks import Book, small_words, write_book

CHAPTERS = ("Aperçu", "Matériel", "Mise en place", "Une manche", "Un match", "Un match raconté carte par carte",
            "Les effets", "Trophées, fans et fin de la partie", "Le robot et le jeu en solo", "Les sets",
            "Choix de cette édition")
MIN_PT = 6.0


@pytest.fixture(scope="module", params=["a4", "letter"])
def book(request) -> Book:
    built = write_book(load_game("challengers", ROOT), request.param)
    built.paper = request.param
    return built


@pytest.fixture(scope="module")
def a4() -> Book:
    return write_book(load_game("challengers", ROOT), "a4")


def _text(pdf: bytes) -> str:
    """The book's text in reading order: each page's left column, then its right column."""
    with pdfplumber.open(BytesIO(pdf)) as doc:
        halves = [page.crop((x0, 0, x1, page.height)) for page in doc.pages
                  for x0, x1 in ((0, page.width / 2), (page.width / 2, page.width))]
        return " ".join(" ".join((half.extract_text() or "").split()) for half in halves)


def _chapter(book: Book, title: str) -> str:
    chapters, problems = render_chapters(book.game.template_dir / book.spec.source, book.spec.context, ROOT)
    assert problems == []
    return card_text(next(ch.text for ch in chapters if ch.text.lstrip().startswith(f"# {title}\n")))


def _piles(book: Book) -> list[str]:
    return sorted((name for name in book.info["figures"] if name.startswith("match-attack-")),
                  key=lambda name: int(name.rsplit("-", 1)[1]))


def test_the_book_builds_with_its_chapters_and_figures(book):
    assert book.info["chapters"] == list(CHAPTERS)
    assert 10 <= book.info["pages"] <= 16
    match = book.spec.context["match"]
    assert match is not None and len(_piles(book)) == len(match["exchanges"]) >= 4
    assert {"bench-end-alice", "bench-end-bruno"} <= set(book.info["figures"])
    assert all(isinstance(book.figures[name], StackLayout) for name in _piles(book))


def test_the_told_match_is_the_engines(a4):
    """The decks the chapter prints, played again by the engine's tell_match: every reveal's total and the
    defence it faced, every flag card's defence, the loser, the fans and both benches are the chapter's."""
    match, records = a4.spec.context["match"], a4.records
    rules = parameters(records)
    decks = [[card["id"] for card in deck] for deck in match["decks"]]
    result = tell_match(game_data(records), decks[0], decks[1], rules)
    engine_reveals = [(e["card"], e["attack"], e["defence"]) for e in result["events"]
                      if e["event"] == "reveal" and "attack" in e]
    told_reveals = [(r["card"]["id"], r["attack"], r["defence"]) for x in match["exchanges"] for r in x["reveals"]]
    assert told_reveals == engine_reveals
    flags = [(e["card"], e["defence"]) for e in result["events"] if e["event"] == "flag"]
    assert [(x["capture"]["card"]["id"], x["capture"]["defence"]) for x in match["exchanges"] if x["capture"]] == flags
    opening = result["events"][0]
    assert (match["opening"]["card"]["id"], match["opening"]["defence"]) == (opening["card"], opening["defence"])
    assert match["winner"] == ("Alice", "Bruno")[result["winner"]] and match["end"] == result["end"]
    assert match["fans"] == result["fans"]
    counts = [[slot["count"] for slot in bench] for bench in match["benches"]]
    assert counts == [[len(slot) for slot in bench] for bench in result["benches"]]
    # the chapter prints those totals, in that order
    chapter = _chapter(a4, "Un match raconté carte par carte")
    printed = [int(n) for n in re.findall(r"(?:total|=) \*\*(\d+)\*\*", chapter)]
    assert printed == [attack for _, attack, _ in engine_reveals]
    defences = [int(n) for n in re.findall(r"Défense : \*\*(\d+)\*\*", chapter)]
    assert defences == [defence for _, defence in flags]


def test_the_told_match_shows_what_it_promises(a4):
    """Each kept card is revealed, a bench bonus lifts a flag card's defence, and each pile holds its attack's
    cards in the order they were revealed."""
    match = a4.spec.context["match"]
    revealed = {r["card"]["id"] for x in match["exchanges"] for r in x["reveals"]} | {match["opening"]["card"]["id"]}
    assert {card["id"] for deck in match["kept"] for card in deck} <= revealed
    assert any(x["capture"] and x["capture"]["others"] > 0 for x in match["exchanges"])
    for name, exchange in zip(_piles(a4), match["exchanges"]):
        stack: StackFigure = a4.spec.figures[name]
        reveals = exchange["reveals"]
        assert [card.face.name.rsplit("-", 1)[0] for card in stack.cards] == [r["card"]["id"] for r in reveals]
        assert [card.label.split("\n")[-1].split()[-1] for card in stack.cards] == [str(r["attack"]) for r in reveals]


def test_every_set_appears_with_its_identity_and_cards(a4):
    text = _text(a4.pdf)
    chapter = _chapter(a4, "Les sets")
    for rec in a4.records["sets"]:
        assert f"## {rec['name']}\n" in chapter, rec["id"]
        assert rec["identity"] in chapter and " ".join(rec["identity"].split()[:6]) in text, rec["id"]
        section = chapter.split(f"## {rec['name']}\n", 1)[1].split("\n## ", 1)[0]
        for card in a4.records["cards"]:
            if card["set"] == rec["id"]:
                assert f"**{card['name']}** ({card['level']}, force {card['strength']}," in section, card["id"]
                if card["text"]:
                    assert card_text(card["text"]) in section, card["id"]


def test_every_effect_timing_has_an_example_card_of_the_workbook(a4):
    chapter = _chapter(a4, "Les effets")
    cards = {rec["id"]: rec for rec in a4.records["cards"]}
    timing = a4.spec.context["timing"]
    assert set(timing) == set(TIMINGS)
    for keyword in TIMINGS:
        example = timing[keyword]["example"]
        assert example is not None, keyword
        assert (cards[example["id"]]["keyword"] or "none") == keyword
        assert f"*Exemple* : **{example['name']}** ({example['set_name']}, force {example['strength']}" in chapter
        assert f"card-{example['id']}" in a4.info["figures"]
    bench = timing["from_bench"]["example"]["worked"]
    assert bench["op"] != "STRENGTH" or f"le bonus est de {bench['bench_two']}" in chapter
    data = game_data(a4.records)                # the worked numbers are the engine's strengths by role
    for keyword in ("none", "on_attack", "holding_flag"):
        worked, card = timing[keyword]["example"]["worked"], data.cards[data.index[timing[keyword]["example"]["id"]]]
        if worked["op"] == "STRENGTH":
            assert (worked["attack"], worked["defence"]) == (card.attack, card.flag), keyword
    card = data.cards[data.index[timing["from_bench"]["example"]["id"]]]
    assert bench["bench_two"] == 2 * max(card.bench_attack, card.bench_defence)


def test_the_drawn_figures_keep_their_words_at_6_pt_or_more(book):
    """Each pile and bench is found in the PDF by its proportions and the very characters it writes, and every
    character in it measures 6 pt or more."""
    assert small_words(book, (*_piles(book), "bench-end-alice", "bench-end-bruno"), MIN_PT) == []


def test_the_chapters_follow_the_workbook(tmp_path):
    """The other readings of the rules sheet (capture order, trophies counted, a lead of 9) and a From the
    bench card worth 2: the sentences, the Choix chapter and the engine's told match follow."""
    path = tmp_path / "challengers.xlsx"
    shutil.copy(ROOT / "sheets" / "challengers.xlsx", path)
    game = replace(load_game("challengers", ROOT), data_files=(path,))
    before = load_records(game, ROOT, Report())
    bench_card = rulebook_context(before, parameters(before))["match"]["kept"][0][0]["id"]

    def change(wb) -> None:
        set_cell(wb["rules"], "parameter", "capture_order", "value", "bench_first")
        set_cell(wb["rules"], "parameter", "fans_from_trophies", "value", "count")
        set_cell(wb["rules"], "parameter", "lead_to_win", "value", 9)
        set_cell(wb["card_ops"], "card", bench_card, "n", 2)

    edit_workbook(path, change)
    report = Report()
    records = load_records(game, ROOT, report)
    assert records is not None, [str(p) for p in report.errors]
    context = rulebook_context(records, parameters(records))
    chapters, problems = render_chapters(game.template_dir / "rules", context, ROOT)
    assert problems == []
    text = card_text(" ".join(chapter.text for chapter in chapters))
    assert "prise du drapeau.** Cette édition : le banc d'abord, puis l'effet Perte du drapeau." in text
    assert "**au moins 9 de plus**" in text and "le **nombre de vos trophées**" in text
    assert "1. le défenseur range sur son **banc**" in text
    result = tell_match(game_data(records), *([c["id"] for c in deck] for deck in context["match"]["decks"]),
                        parameters(records))
    flags = [e["defence"] for e in result["events"] if e["event"] == "flag"]
    assert [x["capture"]["defence"] for x in context["match"]["exchanges"] if x["capture"]] == flags


def test_the_end_examples_are_the_engines_scoring(a4):
    """The lead example stops exactly at lead_to_win; the final's example: the engine's qualified() picks the
    two the chapter names, and the trophies could have been won together (a round's matches, its tokens)."""
    context = a4.spec.context
    rules, lead, final = context["rules"], context["lead"], context["final"]
    assert lead_winner(lead["stops"], lead["other"], rules["lead_to_win"]) == 0
    assert lead_winner(lead["goes_on"], lead["other"], rules["lead_to_win"]) is None
    players = final["players"]
    keys = [rank_key([(t["round"], t["value"]) for t in p["trophies"]], p["tokens"], rules["fans_from_trophies"])
            for p in players]
    sure, tied, _ = qualified(keys)
    assert tied == [] and [players[seat]["name"] for seat in sorted(sure)] == final["finalists"]
    assert keys[1][:2] == keys[2][:2] and keys[1][2] != keys[2][2]          # level on fans and trophies
    per_round: dict = {}
    for p in players:
        for t in p["trophies"]:
            per_round[t["round"]] = per_round.get(t["round"], 0) + 1
    assert max(per_round.values()) <= matches_per_round(3)
    text = _text(a4.pdf)
    assert f"À {lead['stops']} fans contre {lead['other']}" in text
    assert f"la finale oppose {' et '.join(final['finalists'])}" in text
