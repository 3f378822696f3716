"""Challengers' workbook (sheets/challengers.xlsx) and its stage-3/5 checks: the shipped data validates clean
and fits challengers.md (§1 levels and copies, §2.2 schedule, §3.4 ops, §3.5 trophies and robot, §6 guidance);
every check, on a damaged copy, names the cell and rule in one line."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType

import pytest

from pipeline.core.errors import Report
from pipeline.games.challengers import checks
from pipeline.games.challengers.engine.data import OP_TIMINGS
from tests.conftest import ROOT, copy_project, validate_game
from tests.data import workbook_damage
from tests.data.workbook_damage import cell, find, lines, where

BOOK = "sheets/challengers.xlsx"
DRAFTED = ("space", "harbour", "castle", "stadium", "forest", "circus")
IDENTITY = {"space": {"when_selected"}, "harbour": {"losing_flag"}, "castle": {"holding_flag"},
            "stadium": {"from_bench"}, "forest": {"on_attack"}, "circus": set()}


def damaged(project: Path, *changes, delete: tuple = ()) -> list[str]:
    return workbook_damage.damaged("challengers", project, BOOK, *changes, delete=delete)


def validate(root: Path) -> tuple[Report, dict | None]:
    """Stages 1–5 (and 6) on the workbook under `root`."""
    return validate_game("challengers", root)


@pytest.fixture(scope="module")
def records():
    report, records = validate(ROOT)
    assert lines(report) == []
    return records


def sheet(name: str) -> str:
    return f"{BOOK} › {name}"


def cards_of(records, set_id: str) -> list:
    return [c for c in records["cards"] if c["set"] == set_id]


def ops_by_card(records) -> dict[str, list]:
    out = defaultdict(list)
    for rec in records["card_ops"]:
        out[rec["card"]].append(rec)
    return out


# --- the shipped data ------------------------------------------------------------------------------------

def test_sets_and_their_roles(records):
    rows = {s["id"]: s for s in records["sets"]}
    assert list(rows) == ["city", *DRAFTED, "robot"]
    assert {k: s["symbol"] for k, s in rows.items()} == {
        "city": "tour", "space": "fusee", "harbour": "ancre", "castle": "couronne", "stadium": "trophee",
        "forest": "arbre", "circus": "chapiteau", "robot": "engrenage"}
    assert [k for k, s in rows.items() if s["always_used"]] == ["city"]
    assert [k for k, s in rows.items() if s["robot"]] == ["robot"]
    assert len({s["colour"] for s in rows.values()}) == 8 and all(s["identity"] for s in rows.values())


def test_each_drafted_set_fits_the_guidance(records):
    """§6: 4 A, 3 B, 2 C names at 4 copies, at most one Rare and one Common, caps, a timing identity."""
    ops = ops_by_card(records)
    for set_id in DRAFTED:
        cards = cards_of(records, set_id)
        assert Counter(c["level"] for c in cards) == {"A": 4, "B": 3, "C": 2}, set_id
        rarity = Counter(c["rarity"] for c in cards)
        assert rarity["rare"] <= 1 and rarity["common"] <= 1, set_id
        assert all(c["copies"] == 4 for c in cards if c["rarity"] == "normal")
        assert all(1 <= c["copies"] <= 2 for c in cards if c["rarity"] == "rare")
        assert all(5 <= c["copies"] <= 6 for c in cards if c["rarity"] == "common")
        assert all(c["strength"] <= {"A": 3, "B": 5, "C": 10}[c["level"]] for c in cards)
        keywords = {c["keyword"] for c in cards} - {"none"}
        assert keywords == IDENTITY[set_id], set_id
        assert all(c["id"].startswith(set_id + "_") for c in cards)
        assert sum(c["copies"] for c in cards) == 36
        for c in cards:
            assert bool(ops[c["id"]]) == bool(c["text"]), c["id"]
            assert all(c["keyword"] in OP_TIMINGS[op["op"]] for op in ops[c["id"]]), c["id"]
    circus_ops = {op["op"] for c in cards_of(records, "circus") for op in ops[c["id"]]}
    assert {"FANS", "MILL_OPPONENT", "BENCH_TO_DISCARD"} <= circus_ops
    space_ops = {op["op"] for c in cards_of(records, "space") for op in ops[c["id"]]}
    assert space_ops == {"REMOVE_FROM_DECK", "EXTRA_PICK", "FANS"}
    bench = [op for c in cards_of(records, "stadium") for op in ops[c["id"]] if c["keyword"] == "from_bench"]
    assert {op["scope"] for op in bench} == {"attack", "defence", "both"}
    used = {op["op"] for op in records["card_ops"]}
    assert used == set(OP_TIMINGS)                         # every op of §3.4 is on some card
    names = [c["name"] for c in records["cards"]]
    assert len(names) == len(set(names)) == 85


def test_starter_and_city(records):
    """CH-A4: 6 S cards per player, 2 × strength 1, 2 × strength 2, 1 × strength 3, 1 × strength 0 with FANS 1."""
    cards = {c["id"]: c for c in records["cards"]}
    starter = [(cards[r["card"]]["strength"], r["copies_per_player"]) for r in records["starter"]]
    assert sorted(starter) == [(0, 1), (1, 2), (2, 2), (3, 1)]
    zero = next(r["card"] for r in records["starter"] if cards[r["card"]]["strength"] == 0)
    assert [(o["op"], o["n"]) for o in ops_by_card(records)[zero]] == [("FANS", 1)]
    assert all(cards[r["card"]]["level"] == "S" and cards[r["card"]]["set"] == "city" for r in records["starter"])
    assert Counter(c["level"] for c in cards_of(records, "city")) == {"S": 4, "A": 2, "B": 4, "C": 6}


def test_every_selection_fills_every_pile(records):
    """CH-A21 for each of the C(6, 5) = 6 selections: A 78, B 76, C 74 cards, all ≥ 9 × 8 = 72."""
    params = {"sets_per_game": 5, "players_max": 8}
    chosen = checks.selections(records, params)
    assert len(chosen) == 6 and all(len(s) == 5 for s in chosen)
    assert {tuple(checks.pile_sizes(records, s).values()) for s in chosen} == {(78, 76, 74)}


def test_schedule_trophies_and_robot(records):
    schedule = [(r["round"], r["option"], r["level"], r["draw"], r["keep"]) for r in records["schedule"]]
    assert schedule == [(1, 1, "A", 5, 2), (2, 1, "A", 5, 2)] + [
        row for r in (3, 4, 5) for row in ((r, 1, "A", 5, 2), (r, 2, "B", 5, 1))] + [
        row for r in (6, 7) for row in ((r, 1, "B", 5, 2), (r, 2, "C", 5, 1))]
    values = defaultdict(list)
    for t in records["trophies"]:
        values[t["round"]] += [t["value"]] * t["count"]
    assert dict(values) == {1: [2, 2, 3, 3], 2: [3, 3, 4, 4], 3: [4, 4, 5, 5], 4: [6, 6, 7, 7], 5: [7, 7, 8, 8],
                            6: [8, 8, 9, 9], 7: [9, 9, 10, 10]}
    cards = {c["id"]: c for c in records["cards"]}
    decks = defaultdict(lambda: [0, 0])
    for rec in records["robot_decks"]:
        decks[rec["round"]][0] += rec["copies"]
        decks[rec["round"]][1] += rec["copies"] * cards[rec["card"]]["strength"]
    assert sorted(decks) == list(range(1, 8))
    strength = [decks[r][1] for r in range(1, 8)]
    assert strength == sorted(strength) and len(set(strength)) == 7           # stronger every round
    assert [(r["level"], r["swaps"]) for r in records["robot_levels"]] == [(1, 0), (2, 1), (3, 2), (4, 3), (5, 4)]
    assert sum(c["copies"] for c in cards.values() if c["level"] == "R") == 4
    assert all(cards[r["card"]]["level"] == "SOLO" for r in records["solo_cards"])
    assert sorted({r["round"] for r in records["solo_cards"]}) == list(range(1, 8))


def test_rules_components_and_summary(records):
    rules = {r["parameter"]: r["value"] for r in records["rules"]}
    assert rules["rounds"] == "7" and rules["hand_size"] == "5" and rules["bench_slots"] == "6"
    assert rules["sets"] == "random" and rules["lead_to_win"] == "11" and rules["capture_order"] == "losing_flag_first"
    manifest = {r["component"]: r["count"] for r in records["components"]}
    assert manifest == {"cards_city": 96, **{f"cards_{s}": 36 for s in DRAFTED}, "cards_robot": 24,
                        "card_names": 85, "trophy": 28, "flag": 4, "fan_1": 40, "fan_5": 10, "bench": 8, "aid": 8,
                        "robotaid": 1, "schedule": 1, "pairing": 1, "rulebook": 1}
    summary = checks.summary(records)
    assert summary[:3] == [
        "Ville (city): 96 cards, 16 names (S 48, A 8, B 16, C 24); keywords: none 14, on_attack 2",
        "Espace (space): 36 cards, 9 names (A 14, B 12, C 10); keywords: when_selected 7, none 2",
        "Port (harbour): 36 cards, 9 names (A 14, B 12, C 10); keywords: losing_flag 7, none 2"]
    assert summary[7] == "Robot (robot): 24 cards, 15 names (A 10, B 4, C 2, R 4, SOLO 4); keywords: none 15"
    assert summary[8:] == [
        "  strength, level A (92 cards): 1:12 2:66 3:14; mean 2.0",
        "  strength, level B (88 cards): 1:4 2:4 3:4 4:52 5:24; mean 4.0",
        "  strength, level C (84 cards): 7:4 8:52 9:28; mean 8.3",
        "  smallest level piles over 6 selections: A 78 (without circus), B 76 (without circus), C 74 (without "
        "circus); need 72 (9 × 8 players)",
        "  level piles run out when every player takes the level whenever offered: A from 7 players (round 5), B "
        "from 8 players (round 7), C never; short_pile refill"]


# --- damaged copies, stage 3 -----------------------------------------------------------------------------

def test_unknown_sets_and_cards(project, records):
    card = find(records, "cards", "id", "forest_louve")
    op = find(records, "card_ops", "card", "castle_roi")
    starter = find(records, "starter", "card", "city_recrue")
    deck = find(records, "robot_decks", "card", "robot_boulon", round=1)
    solo = find(records, "solo_cards", "card", "robot_titan", round=7)
    roi = find(records, "cards", "id", "castle_roi")
    assert damaged(project, ("cards", cell(card, "set"), "foret"), ("card_ops", cell(op, "card"), "castle_rois"),
                   ("starter", cell(starter, "card"), "city_recru"),
                   ("robot_decks", cell(deck, "card"), "robot_boulons"),
                   ("solo_cards", cell(solo, "card"), "titan")) == [
        f"{where(op, 'card')}: no card 'castle_rois' in sheet cards (did you mean 'castle_roi'?) [reference]",
        f"{where(roi, 'keyword')}: castle_roi has keyword holding_flag but no operation in sheet card_ops: the "
        "effect would do nothing [effect]",
        f"{where(card, 'set')}: no set 'foret' in sheet sets (did you mean 'forest'?) [reference]",
        f"{where(starter, 'card')}: no card 'city_recru' in sheet cards (did you mean 'city_recrue'?) [reference]",
        f"{where(find(records, 'cards', 'id', 'city_recrue'), 'id')}: starter card city_recrue is in no starting "
        "deck (sheet starter) [starter]",
        f"{where(deck, 'card')}: no card 'robot_boulons' in sheet cards (did you mean 'robot_boulon'?) [reference]",
        f"{where(solo, 'card')}: no card 'titan' in sheet cards (did you mean 'robot_titan'?) [reference]",
    ]


def test_levels_in_the_wrong_set(project, records):
    sonde = find(records, "cards", "id", "space_sonde")
    tram = find(records, "cards", "id", "city_tramway")
    boulon = find(records, "cards", "id", "robot_boulon")
    in_decks = [r for r in records["robot_decks"] if r["card"] == "robot_boulon"]
    assert damaged(project, ("cards", cell(sonde, "level"), "S"), ("cards", cell(tram, "level"), "R"),
                   ("cards", cell(boulon, "level"), "S"), ("cards", cell(tram, "id"), "ville_tramway"),
                   ("card_ops", cell(find(records, "card_ops", "card", "city_tramway"), "card"), "ville_tramway"),
                   ) == [
        f"{where(tram, 'level')}: ville_tramway is level R in set city: R cards belong to the robot's set [level]",
        f"{where(tram, 'id')}: card id 'ville_tramway' does not start with its set city_ [id]",
        f"{where(sonde, 'level')}: space_sonde is a starter card (S) in set space: starter cards belong to the set "
        "used in every game [level]",
        f"{where(boulon, 'level')}: robot_boulon is a starter card (S) in set robot: starter cards belong to the "
        "set used in every game [level]",
        f"{where(sonde, 'id')}: starter card space_sonde is in no starting deck (sheet starter) [starter]",
        f"{where(boulon, 'id')}: starter card robot_boulon is in no starting deck (sheet starter) [starter]",
    ] + [f"{where(r, 'card')}: robot_boulon (set robot, level S) is not a base card (A, B or C) of the robot's set "
         "[robot]" for r in in_decks]
    assert len(in_decks) == 7


def test_an_a_slash_b_level_is_refused_as_typed(project, records):
    """CH-A11: one level per card: the enum refuses a list at stage 2."""
    satellite = find(records, "cards", "id", "space_satellite")
    problems = damaged(project, ("cards", cell(satellite, "level"), "A/B"))
    assert len(problems) == 1 and problems[0].startswith(f"{where(satellite, 'level')}: 'A/B' is not one of")


def test_copies_against_rarity(project, records):
    docker = find(records, "cards", "id", "harbour_docker")
    meteore = find(records, "cards", "id", "space_meteore")
    meute = find(records, "cards", "id", "forest_meute")
    garde = find(records, "cards", "id", "castle_garde")
    gardien = find(records, "cards", "id", "city_gardien")
    piston = find(records, "cards", "id", "robot_piston")
    princesse = find(records, "cards", "id", "castle_princesse")
    assert damaged(project, ("cards", cell(docker, "copies"), 3), ("cards", cell(meteore, "copies"), None),
                   ("cards", cell(meute, "copies"), 8), ("cards", cell(garde, "rarity"), "rare"),
                   ("cards", cell(gardien, "copies"), 2), ("cards", cell(piston, "copies"), None)) == [
        f"{where(meteore, 'copies')}: space_meteore: a rare card needs its copies (printed on it, CH-A17) [copies]",
        f"{where(docker, 'copies')}: harbour_docker: a normal card has 4 copies, not 3; mark it rare or common to "
        "print another count (CH-T3) [copies]",
        f"{where(garde, 'copies')}: castle_garde: 4 copies for a rare card (guidance 1–2, CH-A17) [copies]",
        f"{where(meute, 'copies')}: forest_meute: 8 copies for a common card (guidance 5–6, CH-A17) [copies]",
        f"{where(piston, 'copies')}: robot_piston: a robot card needs its copies (the most its decks use) [copies]",
        f"{where(princesse, 'rarity')}: castle_princesse is a second rare card in set castle (after castle_garde); "
        "§6 allows one [rarity]",
        f"{where(gardien, 'copies')}: city_gardien: 2 copies, but each starting deck holds 1 (sheet starter) "
        "[copies]",
    ]


def test_robot_lists_use_the_right_cards_and_copies(project, records):
    deck = find(records, "robot_decks", "card", "robot_turbine", round=7)
    solo = find(records, "solo_cards", "card", "robot_drone", round=1)
    assert damaged(project, ("robot_decks", cell(deck, "copies"), 3),
                   ("solo_cards", cell(solo, "card"), "robot_laser")) == [
        f"{where(deck, 'copies')}: round 7 uses 3 robot_turbine but sheet cards prints 1 [copies]",
        f"{where(solo, 'card')}: robot_laser (set robot, level R) is not a SOLO card of the robot's set [robot]",
    ]


def test_ops_against_their_keyword(project, records):
    """§3.4: each op with its timings; from_bench STRENGTH needs a scope; When selected is the Space set's."""
    mousse = find(records, "card_ops", "card", "harbour_mousse")
    clown = find(records, "card_ops", "card", "circus_clown")
    supporter = find(records, "card_ops", "card", "stadium_supporter")
    renard = find(records, "card_ops", "card", "forest_renard")
    cerf = find(records, "cards", "id", "forest_cerf")
    cerf_op = find(records, "card_ops", "card", "forest_cerf")
    assert damaged(project, ("card_ops", cell(mousse, "op"), "MILL_OPPONENT"),
                   ("card_ops", cell(mousse, "n"), 1),
                   ("card_ops", cell(clown, "op"), "SELF_TO_DECK_BOTTOM"), ("card_ops", cell(clown, "n"), None),
                   ("card_ops", cell(supporter, "scope"), None), ("card_ops", cell(renard, "scope"), "attack"),
                   ("cards", cell(cerf, "keyword"), "when_selected")) == [
        f"{where(mousse, 'op')}: MILL_OPPONENT cannot work Losing the flag (card harbour_mousse); it works with no "
        "keyword (on reveal) (§3.4) [timing]",
        f"{where(supporter, 'scope')}: stadium_supporter: From the bench STRENGTH needs a scope: attack, defence or "
        "both (CH-A10) [scope]",
        f"{where(renard, 'scope')}: forest_renard: a scope only applies to From the bench STRENGTH; attack is "
        "ignored [scope]",
        f"{where(cerf, 'keyword')}: forest_cerf: When selected is the space set's keyword only, not forest's "
        "(§2.5) [keyword]",
        f"{where(cerf_op, 'op')}: OPP_STRENGTH cannot work When selected (card forest_cerf); it works with no "
        "keyword (on reveal), On attack, Holding the flag (§3.4) [timing]",
        f"{where(clown, 'op')}: SELF_TO_DECK_BOTTOM cannot work with no keyword (on reveal) (card circus_clown); "
        "it works Losing the flag (§3.4) [timing]",
    ]


def test_op_numbers(project, records):
    fans = find(records, "card_ops", "card", "city_mascotte")
    hibou = find(records, "card_ops", "card", "forest_hibou")
    chalutier = find(records, "card_ops", "card", "harbour_chalutier", op="SELF_TO_DECK_BOTTOM")
    navette = find(records, "card_ops", "card", "space_navette")
    assert damaged(project, ("card_ops", cell(fans, "n"), 0), ("card_ops", cell(hibou, "n"), 0),
                   ("card_ops", cell(chalutier, "n"), 2), ("card_ops", cell(navette, "n"), None)) == [
        f"{where(fans, 'n')}: FANS 0: the number of fans must be at least 1 [n]",
        f"{where(navette, 'n')}: REMOVE_FROM_DECK needs a number [n]",
        f"{where(chalutier, 'n')}: SELF_TO_DECK_BOTTOM takes no number; 2 is ignored [n]",
        f"{where(hibou, 'n')}: OPP_STRENGTH 0 changes nothing [n]",
    ]


def test_effects_text_and_ops_go_together(project, records):
    """A keyword or a printed text without ops does nothing; ops without a text are invisible."""
    clown = find(records, "cards", "id", "circus_magicien")
    princesse = find(records, "cards", "id", "castle_princesse")
    sonde = find(records, "cards", "id", "space_sonde")
    clown_op = find(records, "card_ops", "card", "circus_magicien")
    princesse_op = find(records, "card_ops", "card", "castle_princesse")
    assert damaged(project, ("card_ops", cell(clown_op, "card"), "circus_acrobate"),
                   ("card_ops", cell(clown_op, "order"), 2),
                   ("card_ops", cell(princesse_op, "card"), "castle_archere"),
                   ("card_ops", cell(princesse_op, "order"), 2), ("cards", cell(sonde, "text"), None)) == [
        f"{where(sonde, 'text')}: space_sonde has 1 operation(s) in sheet card_ops but no printed text: players "
        "could not know [effect]",
        f"{where(princesse, 'keyword')}: castle_princesse has keyword holding_flag but no operation in sheet card_ops: "
        "the effect would do nothing [effect]",
        f"{where(clown, 'text')}: circus_magicien prints an effect but has no operation in sheet card_ops: it would "
        "do nothing [effect]",
    ]


def test_two_cards_with_one_name(project, records):
    cerf = find(records, "cards", "id", "forest_cerf")
    roi = find(records, "cards", "id", "castle_roi")
    assert damaged(project, ("cards", cell(cerf, "name"), "Roi")) == [
        f"{where(cerf, 'name')}: forest_cerf is named 'Roi' like castle_roi (row {roi.ref.row}): they would share "
        "a bench slot [unique]"]


# --- damaged copies, stage 5 -----------------------------------------------------------------------------

def test_strength_caps(project, records):
    """CH-T2: A 4 invalid, B 5 valid, C 11 refused as typed (column max), S ≤ 3."""
    satellite = find(records, "cards", "id", "space_satellite")
    capitaine = find(records, "cards", "id", "harbour_capitaine")
    baronne = find(records, "cards", "id", "castle_baronne")
    gardien = find(records, "cards", "id", "city_gardien")
    assert damaged(project, ("cards", cell(satellite, "strength"), 4), ("cards", cell(capitaine, "strength"), 5),
                   ("cards", cell(baronne, "strength"), 6), ("cards", cell(gardien, "strength"), 4)) == [
        f"{where(gardien, 'strength')}: city_gardien: strength 4 is above level S's cap 3 (A ≤ 3, B ≤ 5, C ≤ 10, "
        "S ≤ 3; CH-T2) [cap]",
        f"{where(satellite, 'strength')}: space_satellite: strength 4 is above level A's cap 3 (A ≤ 3, B ≤ 5, "
        "C ≤ 10, S ≤ 3; CH-T2) [cap]",
        f"{where(baronne, 'strength')}: castle_baronne: strength 6 is above level B's cap 5 (A ≤ 3, B ≤ 5, "
        "C ≤ 10, S ≤ 3; CH-T2) [cap]",
    ]
    fusee = find(records, "cards", "id", "space_fusee")
    assert damaged(project, ("cards", cell(fusee, "strength"), 11)) == [
        f"{where(fusee, 'strength')}: 11 is above the maximum 10 [range]"]


def test_set_roles(project, records):
    space = find(records, "sets", "id", "space")
    city = find(records, "sets", "id", "city")
    assert damaged(project, ("sets", cell(space, "always_used"), "yes"), ("sets", cell(city, "robot"), "yes")) == [
        f"{where(space, 'always_used')}: space: a second set marked always_used (after city); the game has one "
        "[sets]",
        f"{where(find(records, 'sets', 'id', 'robot'), 'robot')}: robot: a second set marked robot (after city); "
        "the game has one [sets]",
        f"{where(city, 'robot')}: city is both always used and the robot's set [sets]",
    ]


def test_too_few_sets_to_draw_from(project, records):
    per_game = find(records, "rules", "parameter", "sets_per_game")
    space = find(records, "sets", "id", "space")
    assert damaged(project, ("rules", cell(per_game, "value"), 6), ("sets", cell(space, "always_used"), "yes")) == [
        f"{where(space, 'always_used')}: space: a second set marked always_used (after city); the game has one "
        "[sets]",
        f"{where(per_game, 'value')}: sets_per_game is 6 but sheet sets has 5 sets to draw from (harbour, castle, "
        "stadium, forest, circus) [sets]"]


def test_the_sets_rule(project, records):
    chosen = find(records, "rules", "parameter", "sets")
    at = where(chosen, "value")
    for value, expected in (
            ("space, harbour, castle, stadium, forest", []),
            ("space,harbour,castle", [f"{at}: sets: 3 sets named, sets_per_game is 5 (or write random) [rules]"]),
            ("space,city,castle,forest,circus", [f"{at}: sets: 'city' is always used or the robot's: name only "
                                                 "sets drawn from [rules]"]),
            ("espace,harbour,castle,forest,forest", [
                f"{at}: sets: 'espace' is not in sheet sets (did you mean 'space'?) [rules]",
                f"{at}: sets: 'espace,harbour,castle,forest,forest' names a set twice [rules]"])):
        assert damaged(project, ("rules", cell(chosen, "value"), value)) == expected, value


def test_schedule(project, records):
    """CH-A3: rounds 1–2 level A only, C only in rounds 6–7, keep ≤ draw, a row per round."""
    two = find(records, "schedule", "round", 2)
    five_b = find(records, "schedule", "round", 5, option=2)
    four_a = find(records, "schedule", "round", 4, option=1)
    sevens = [r.ref.row for r in records["schedule"] if r["round"] == 7]
    assert damaged(project, ("schedule", cell(two, "level"), "B"), ("schedule", cell(five_b, "level"), "C"),
                   ("schedule", cell(four_a, "draw"), 1), delete=[("schedule", row) for row in sevens]) == [
        f"{where(two, 'level')}: round 2 offers level B: rounds 1–2 offer level A only (§2.2) [schedule]",
        f"{where(four_a, 'keep')}: round 4 option 1 keeps 2 of 1 cards drawn [schedule]",
        f"{where(five_b, 'level')}: round 5 offers level C: only the last two rounds (6, 7) do (§2.2) [schedule]",
        f"{sheet('schedule')}: round 7 has no draft option [schedule]",
    ]


def test_trophies(project, records, tmp_path):
    """CH-T5, CH-A2: round 1 ⊂ {2, 3}, round 7 ⊂ {9, 10}, values never fall, 4 tokens a round for 8 players."""
    first = find(records, "trophies", "round", 1, value=3)
    last = find(records, "trophies", "round", 7, value=9)
    four = find(records, "trophies", "round", 4, value=6)
    five_high = find(records, "trophies", "round", 5, value=8)
    six_high = find(records, "trophies", "round", 6, value=9)
    assert damaged(project, ("trophies", cell(first, "value"), 4), ("trophies", cell(last, "value"), 8),
                   ("trophies", cell(four, "value"), 3), ("trophies", cell(five_high, "count"), 1),
                   ("trophies", cell(six_high, "count"), 3)) == [
        f"{where(first, 'value')}: a round 1 trophy worth 4: round 1's are worth 2 or 3 (§2.6) [trophies]",
        f"{where(last, 'value')}: a round 7 trophy worth 8: round 7's are worth 9 or 10 (§2.6) [trophies]",
        f"{where(four, 'value')}: round 4's trophies (3–7) are worth less than round 3's (4–5): values never fall "
        "(CH-A2) [trophies]",
        f"{where(five_high, 'count')}: round 5 has 3 trophies for 4 matches at 8 players (CH-A2) [trophies]",
    ]
    rows = [r.ref.row for r in records["trophies"] if r["round"] == 3]
    manifest = find(records, "components", "component", "trophy")
    assert damaged(copy_project(tmp_path / "again"), ("components", cell(manifest, "count"), 24),
                   delete=[("trophies", row) for row in rows]) == [
        f"{sheet('trophies')}: round 3 has no trophy [trophies]"]


def test_robot_decks_and_levels(project, records, tmp_path):
    five = find(records, "robot_levels", "level", 5)
    three = find(records, "robot_levels", "level", 3)
    laser = find(records, "cards", "id", "robot_laser")
    manifest = find(records, "components", "component", "cards_robot")
    ressort = find(records, "robot_decks", "card", "robot_ressort", round=2)
    aimant = find(records, "robot_decks", "card", "robot_aimant", round=2)
    assert damaged(project, ("robot_levels", cell(three, "swaps"), 0), ("cards", cell(laser, "copies"), 1),
                   ("components", cell(manifest, "count"), 23), ("robot_decks", cell(ressort, "copies"), 1),
                   ("robot_decks", cell(aimant, "copies"), 1)) == [
        f"{where(find(records, 'robot_decks', 'round', 2), 'round')}: the robot's round 2 deck (total strength "
        "14) is weaker than round 1's (16) [robot]",
        f"{where(three, 'swaps')}: level 3 swaps 0 cards, fewer than a lower level (1) [robot]",
        f"{where(five, 'swaps')}: level 5 swaps 4 cards for R cards, but the robot's set prints 3 R cards [robot]",
    ]
    sixes = [r.ref.row for r in records["robot_decks"] if r["round"] == 6]
    assert damaged(copy_project(tmp_path / "again"), delete=[("robot_decks", row) for row in sixes]) == [
        f"{sheet('robot_decks')}: round 6 has no robot deck [robot]"]


def test_a_short_pile_warns_for_every_selection(project, records):
    """CH-A21: City's C cards 3 fewer: each of the six selections holds 71 C cards, below 9 × 8 = 72."""
    grue = find(records, "cards", "id", "city_grue")
    manifest = find(records, "components", "component", "cards_city")
    assert damaged(project, ("cards", cell(grue, "rarity"), "rare"), ("cards", cell(grue, "copies"), 1),
                   ("components", cell(manifest, "count"), 93)) == [
        f"{where(find(records, 'sets', 'id', left_out), 'id')}: without {left_out}: the level C pile holds 71 cards, "
        "fewer than 9 × 8 players = 72 (CH-A21) [piles]" for left_out in reversed(DRAFTED)]
    report, back = validate(project)
    assert back is not None and not report.errors                      # warnings only


def test_the_pile_need_follows_players_max(project, records):
    grue = find(records, "cards", "id", "city_grue")
    manifest = find(records, "components", "component", "cards_city")
    players = find(records, "rules", "parameter", "players_max")
    assert damaged(project, ("cards", cell(grue, "rarity"), "rare"), ("cards", cell(grue, "copies"), 1),
                   ("components", cell(manifest, "count"), 87), ("rules", cell(players, "value"), 7)) == []
    # 6 × 7 starter cards + City's A 8, B 16, C 21; the pile need is 9 × 7 = 63 ≤ 71


def test_cards_per_set_in_the_manifest(project, records):
    space = find(records, "components", "component", "cards_space")
    forest = find(records, "components", "component", "cards_forest")
    assert damaged(project, ("components", cell(space, "count"), 35),
                   ("components", cell(forest, "component"), "cards_foret")) == [
        f"{where(space, 'count')}: cards_space: the rulebook announces 35 but sheet cards prints 36 cards of set "
        "space [manifest]",
        f"{where(forest, 'component')}: cards_foret: no set 'foret' in sheet sets (did you mean 'forest'?) "
        "[manifest]",
    ]


def test_checks_never_raise_on_blank_cells(records):
    """Called on rows stage 2 refused (blank cells read as None), the checks report what they can and return."""
    def blank(rec):
        keep = ("id", "parameter", "value")
        return replace(rec, values=MappingProxyType({k: v if k in keep else None for k, v in rec.values.items()}))
    hollow = {sheet: [blank(r) for r in rows[:3]] + list(rows[3:]) if sheet != "rules" else rows
              for sheet, rows in records.items()}
    report = Report()
    checks.check_rows(hollow, report)
    checks.check_rules(hollow, report)
    assert checks.summary(hollow) and report.errors
    everything = {sheet: [blank(r) for r in rows] if sheet != "rules" else rows for sheet, rows in records.items()}
    report = Report()
    checks.check_rows(everything, report)
    checks.check_rules(everything, report)
    assert checks.summary(everything) is not None and report.errors


def test_shipped_workbook_has_the_designer_comforts():
    """Written by pipeline/data/workbook.py: every header documented, the header frozen, enums as dropdowns."""
    import openpyxl

    from pipeline.data.workbook import column_note
    from pipeline.games.challengers import schema

    book = openpyxl.load_workbook(ROOT / BOOK)
    for spec in (schema.SETS, schema.CARDS, schema.CARD_OPS, schema.STARTER, schema.SCHEDULE, schema.TROPHIES,
                 schema.ROBOT_DECKS, schema.ROBOT_LEVELS, schema.SOLO_CARDS):
        ws = book[spec.name]
        assert [c.value for c in ws[1]] == [c.name for c in spec.columns] and ws.freeze_panes == "A2"
        assert all(c.comment is not None and c.comment.text.endswith(column_note(col).splitlines()[-1])
                   for c, col in zip(ws[1], spec.columns)), spec.name
        lists = {str(dv.sqref)[0] for dv in ws.data_validations.dataValidation if dv.type == "list"}
        enums = {c.column_letter for c, col in zip(ws[1], spec.columns) if col.type in ("enum", "bool")}
        assert enums <= lists, spec.name


def test_a_card_column_only_where_no_template_reads_the_rows(project, records):
    """card_ops, starter, robot_decks and solo_cards name their card in a column `card` (SheetSpec.on_faces=False:
    no template reads their rows); on the cards sheet, whose rows are card faces, `card` stays reserved."""
    from pipeline.games.challengers import schema

    assert [s.name for s in (schema.CARD_OPS, schema.STARTER, schema.ROBOT_DECKS, schema.SOLO_CARDS)
            if not s.on_faces and "card" in {c.name for c in s.columns}] == [
        "card_ops", "starter", "robot_decks", "solo_cards"]
    assert schema.CARDS.on_faces and schema.SETS.on_faces
    assert damaged(project, ("cards", "J1", "card")) == [
        f"{sheet('cards')} › J1 (card): column name 'card' is reserved for the templates (card.index, card.copy…); "
        "rename the column [structure]",
        f"{sheet('cards')} › J1 (card): unknown column 'card' is ignored (did you mean 'rarity'?) [structure]"]
