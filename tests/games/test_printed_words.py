"""Words (issue 29, §4), read back from the files the games print: one word per thing (each game's glossary,
checked on every home file), Fightball's "Tir" card and "action" pile, worked examples that keep their names,
rulebooks written for players (no workbook setting, no command: those are in report.md's developer part, itself
French or marked as the developer's log), Build It's plots in words, City cards that say how shapes match, reward
lines with no lone word, and the designers credited where the seed names them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pikepdf
import pytest

from pipeline import PROJECT_ROOT
from pipeline.core.errors import Report
from pipeline.games import load_game
from pipeline.guide.data import read_game_guide
from pipeline.guide.glossary import misuses
from tests.conftest import built_game, pdf_text

GAMES = ("buildit", "nba", "allstar", "fightball", "challengers")


@pytest.fixture(scope="module", params=GAMES)
def built(request, tmp_path_factory) -> Path:
    return built_game(tmp_path_factory, request.param)


def _data(built: Path) -> dict:
    return json.loads((built / "report.json").read_text())


def _plain(path: Path) -> str:
    return " ".join(pdf_text(path).split())


# --- one word per thing -------------------------------------------------------------------------------------------

def test_no_printed_file_uses_another_word_for_a_glossary_term(built):
    data = _data(built)
    guide = read_game_guide(PROJECT_ROOT / "templates" / data["game"], PROJECT_ROOT, Report())
    assert guide.glossary, data["game"]                            # every game declares its words once
    assert data["glossary"] == []                                  # the build's own check found nothing
    files = [e["path"] for e in data["outputs"] if e.get("format") == "pnp"]
    assert files
    for path in files:
        assert misuses(pdf_text(built.parent.parent / path), guide.glossary) == [], path
    assert "Aucun mot à éviter dans les fichiers imprimés." in (built / "report.md").read_text()


def test_fightball_says_tir_for_the_card_and_action_for_the_pile(tmp_path_factory):
    built = built_game(tmp_path_factory, "fightball")
    cards, aid, rulebook = (_plain(built / "pnp-a4" / name) for name in ("cartes-63.5x88.9-eclairs.pdf",
                                                                          "aid.pdf", "rulebook.pdf"))
    assert "SHOT" not in cards + aid + rulebook
    assert "Ferme l'action, après le joueur et la balle." in cards
    assert "Si l'action réussit" in cards and "le tir réussit" not in cards.lower()
    assert "UNE ACTION SE CONSTRUIT DU BAS VERS LE HAUT" in aid and "la carte Tir ferme l'action" in aid
    assert "Le mot TIR est imprimé en grand" in rulebook
    assert "« le tir » désigne toute l'action" not in rulebook


def test_fightballs_examples_keep_each_coach_in_one_team(tmp_path_factory):
    built = built_game(tmp_path_factory, "fightball")
    for paper in ("a4", "letter"):
        text = _plain(built / f"pnp-{paper}" / "rulebook.pdf")
        seats = dict(re.findall(r"(NORD|SUD) : (?:Alice|Bruno) \(([^)]+)\)", text))
        for coach, seat in (("Alice", "NORD"), ("Bruno", "SUD")):
            teams = set(re.findall(rf"{coach} \((Les [^)]+)\)", text)) | set(re.findall(rf"{coach} joue (Les \w+)", text))
            assert teams == {seats[seat]}, (paper, coach, teams)      # Bruno was Les Remparts, then Les Mirages


# --- rulebooks for players, the developer's part for the rest ----------------------------------------------------

def test_the_players_rulebook_names_no_workbook_setting_and_no_command(built):
    data = _data(built)
    game = load_game(data["game"], PROJECT_ROOT)
    names = [c.name for c in game.rule_parameters if "_" in c.name]
    for paper in ("a4", "letter"):
        text = _plain(built / f"pnp-{paper}" / "rulebook.pdf")
        assert not re.search(r"\bpnp (simulate|build|validate)\b", text), paper
        assert "feuille rules" not in text and "du classeur" not in text, paper
        assert not [name for name in names if re.search(rf"\b{name}\b", text)], paper
        assert "L'autre façon de jouer" in text or "l'autre façon de jouer" in text
    developer = (built / "report.md").read_text().split("## Données de développement")[1]
    assert f"`pnp simulate {data['game']}`" in developer
    for setting in data["settings"]:
        for parameter in setting["parameters"]:
            assert f"`{parameter['name']}` = `{parameter['value']}`" in developer, parameter


def test_the_developer_log_is_marked_as_such(built):
    data = _data(built)
    developer = (built / "report.md").read_text().split("## Données de développement")[1]
    if not data["summary"]:
        return
    start = developer.index("**Journal du développeur**, en anglais")
    fenced = developer[developer.index("````text", start):developer.index("````\n", start + 20)]
    for line in data["summary"]:                              # the English lines only inside the fenced log
        assert line in fenced and developer.count(line) == 1, line


# --- Build It -------------------------------------------------------------------------------------------------

def test_build_it_names_plots_in_words_and_cities_say_how_shapes_match(tmp_path_factory):
    built = built_game(tmp_path_factory, "buildit")
    rulebook = _plain(built / "pnp-a4" / "rulebook.pdf")
    assert not re.search(r"[{}]", rulebook)                       # no {b2, c2, d2}: "les trois parcelles b2, c2 et d2"
    assert re.search(r"les trois parcelles [a-h]\d, [a-h]\d et [a-h]\d", rulebook)
    cities = pdf_text(built / "pnp-a4" / "cities.pdf")
    data = _data(built)
    count = next(c["count"] for c in data["components"] if c["id"] == "cities")
    assert cities.count("Formes : rotation et miroir admis") == count
    assert pdf_text(built / "pnp-a4" / "contracts.pdf").count("Plan à construire (rotation et miroir admis)") == \
        next(c["count"] for c in data["components"] if c["id"] == "contracts")


def test_no_reward_line_ends_on_a_lone_word(tmp_path_factory):
    built = built_game(tmp_path_factory, "buildit")
    normal = {rec["name"] for rec in _normal_cards()}
    last_words = {name.split()[-1] for name in normal if " " in name} | {"construction", "partie"}
    for paper in ("a4", "letter"):
        lines = [line.strip() for line in pdf_text(built / f"pnp-{paper}" / "contracts.pdf").splitlines()]
        assert "Laissez-Passer A38" in lines, paper                   # the whole name on one line
        assert not [line for line in lines if line in last_words], paper


def _normal_cards():
    from tests.conftest import validate_game

    report, records = validate_game("buildit", PROJECT_ROOT)
    return records["normal_cards"]


# --- credits ------------------------------------------------------------------------------------------------------

def test_the_designers_are_credited_where_the_seed_names_them(built):
    data = _data(built)
    cover = _plain(built / "pnp-a4" / "rulebook.pdf").split("Sommaire")[0]
    files = [built.parent.parent / e["path"] for e in data["outputs"] if e.get("format") == "pnp"][:6]
    authors = set()
    for path in files:
        with pikepdf.open(path) as pdf:
            authors.add(str(pdf.docinfo.get("/Author", "")))
    if data["game"] == "fightball":                       # the seed: "de James Ernest et Mike Selinker, traduction …"
        assert "James Ernest et Mike Selinker" in cover and "Olivier Bourgeois" in cover
        assert all("James Ernest et Mike Selinker" in author for author in authors), authors
    else:                                                 # no name in the seed: a placeholder, said as one
        assert "Auteurs : à compléter" in cover
        assert all("à compléter" in author for author in authors), authors
