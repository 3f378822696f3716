"""The glossary check on its own (issue 29): a game declares one word per thing and the other words for it, and a
printed text that uses one of those is found, whatever the case and the line breaks, with the words around it."""

from __future__ import annotations

from pipeline.core.errors import Report
from pipeline.guide.data import read_game_guide
from pipeline.guide.glossary import Term, misuses, read_terms

ACTION = Term("action", "une pile posée sur une case", ("tir réussi", "le tir réussit"))
CARD = Term("carte Tir", "la carte qui ferme une action", ("SHOT",))


def test_another_word_for_a_thing_is_found_across_lines_and_cases():
    text = "Posez la carte Shot.\nSi le tir\nréussit, il rapporte 5 points. Un Tir réussi vaut 3 points."
    found = misuses(text, (ACTION, CARD))
    assert [(f["term"], f["found"]) for f in found] == [("action", "le tir réussit"), ("action", "Tir réussi"),
                                                        ("carte Tir", "Shot")]
    assert "Si le tir réussit, il rapporte" in found[0]["context"]


def test_the_words_of_the_glossary_itself_and_longer_words_pass():
    text = "La carte Tir ferme l'action : un tir précipité est une faute. Tir double, tireur, SHOTGUN, réussite."
    assert misuses(text, (ACTION, CARD)) == []


def test_a_glossary_that_does_not_read_is_a_located_warning(tmp_path):
    problems: list[str] = []
    terms = read_terms({"glossary": [{"term": "action", "avoid": ["tir réussi"]}, {"term": "x"},
                                     {"avoid": ["y"]}, "z"]}, problems)
    assert [t.word for t in terms] == ["action", "x"] and len(problems) == 2      # a term alone is a word to keep
    folder = tmp_path / "templates" / "g" / "guide"
    folder.mkdir(parents=True)
    (folder / "guide.yaml").write_text("glossary:\n  - {term: action, avoid: tir}\n", encoding="utf-8")
    report = Report()
    guide = read_game_guide(tmp_path / "templates" / "g", tmp_path, report)
    assert guide.glossary == () and str(report.warnings[0].where) == "templates/g/guide/guide.yaml"
