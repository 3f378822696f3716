"""Challengers' test fixture: a small workbook that follows the sheets contract (schema.py) and the proposals of
challengers.md (the City set with the starter deck of CH-A4, six sets of 4 A, 3 B and 2 C names built on their
timings, a rare and a common card, the robot's set with base, R and SOLO cards, the draft schedule of §2.2, the
trophy values of §3.5), plus the test cards of §4.2 (ids t_<name>, in the robot's set at level SOLO: never in a
pile or a robot deck) so the engine's tests do not wait for sheets/challengers.xlsx; workbook_data() reads the
real one when it exists."""

from __future__ import annotations

from pipeline import PROJECT_ROOT
from pipeline.games.challengers.engine import GameData

WORKBOOK = PROJECT_ROOT / "sheets" / "challengers.xlsx"

PARAMS = {
    "players_min": 1, "players_max": 8, "rounds": 7, "hand_size": 5, "bench_slots": 6, "sets_per_game": 5,
    "lead_to_win": 11, "redraws_per_round": 1, "redraw_window": "any_time", "min_deck_size": 1,
    "short_pile": "refill", "robot_level": 2, "solo_challenge": False, "solo_robot_deck": "kept",
    "sets": "random", "fans_from_trophies": "values", "capture_order": "losing_flag_first",
    "opening_triggers_on_attack": False, "duo_tie_rule": "draw", "max_reveals_per_match": 2000,
}

SETS = [("city", "Ville", "tour", True, False), ("space", "Espace", "fusee", False, False),
        ("harbour", "Port", "ancre", False, False), ("castle", "Château", "couronne", False, False),
        ("stadium", "Stade", "trophee", False, False), ("forest", "Forêt", "arbre", False, False),
        ("circus", "Cirque", "chapiteau", False, False), ("robot", "Robot", "engrenage", False, True)]

# set -> [(slug, name, level, strength, keyword, [(op, n, scope)], rarity, copies)]
N = "none"
CARDS = {
    "city": [("recrue", "Recrue", "S", 1, N, []), ("passant", "Passant", "S", 2, N, []),
             ("vigile", "Vigile", "S", 3, N, []), ("fanfare", "Fanfare", "S", 0, N, [("FANS", 1, None)]),
             ("agent", "Agent", "A", 2, N, []), ("maire", "Maire", "A", 3, N, []),
             ("tramway", "Tramway", "B", 4, N, []), ("beffroi", "Beffroi", "C", 7, N, [])],
    "space": [("comete", "Comète", "A", 1, "when_selected", [("FANS", 1, None)]),
              ("satellite", "Satellite", "A", 2, "when_selected", [("EXTRA_PICK", 1, None)]),
              ("sonde", "Sonde", "A", 2, "when_selected", [("REMOVE_FROM_DECK", 2, None)]),
              ("pilote", "Pilote", "A", 3, N, []),
              ("fusee", "Fusée", "B", 4, "when_selected", [("FANS", 2, None)]), ("station", "Station", "B", 5, N, []),
              ("astronaute", "Astronaute", "B", 3, "when_selected", [("EXTRA_PICK", 1, None)]),
              ("navette", "Navette", "C", 8, N, []),
              ("galaxie", "Galaxie", "C", 6, "when_selected", [("FANS", 3, None)])],
    "harbour": [("mousse", "Mousse", "A", 1, "losing_flag", [("FANS", 1, None)]),
                ("docker", "Docker", "A", 2, "losing_flag", [("BENCH_TO_DISCARD", 1, None)]),
                ("mouette", "Mouette", "A", 2, "losing_flag", [("SELF_TO_DECK_BOTTOM", None, None)]),
                ("marin", "Marin", "A", 3, N, []),
                ("capitaine", "Capitaine", "B", 4, "losing_flag", [("FANS", 2, None)]),
                ("phare", "Phare", "B", 5, N, []),
                ("corsaire", "Corsaire", "B", 3, "losing_flag", [("BENCH_TO_DISCARD", 2, None)]),
                ("paquebot", "Paquebot", "C", 8, N, []),
                ("kraken", "Kraken", "C", 7, "losing_flag", [("FANS", 3, None)])],
    "castle": [("page", "Page", "A", 1, "holding_flag", [("STRENGTH", 2, None)]),
               ("archer", "Archer", "A", 2, "holding_flag", [("OPP_STRENGTH", -1, None)]),
               ("ecuyer", "Écuyer", "A", 2, N, []), ("herault", "Héraut", "A", 3, N, []),
               ("chevalier", "Chevalier", "B", 3, "holding_flag", [("STRENGTH", 2, None)]),
               ("reine", "Reine", "B", 5, N, []),
               ("muraille", "Muraille", "B", 2, "holding_flag", [("STRENGTH", 3, None)]),
               ("roi", "Roi", "C", 7, "holding_flag", [("OPP_STRENGTH", -2, None)]),
               ("dragon", "Dragon", "C", 9, N, [])],
    "stadium": [("fan", "Fan", "A", 1, "from_bench", [("STRENGTH", 1, "defence")], "common", 6),
                ("mascotte", "Mascotte", "A", 1, "from_bench", [("STRENGTH", 1, "attack")]),
                ("coach", "Coach", "A", 2, "from_bench", [("STRENGTH", 1, "both")], "rare", 2),
                ("sprinteur", "Sprinteur", "A", 3, N, []),
                ("ultra", "Ultra", "B", 2, "from_bench", [("STRENGTH", 1, "both")]),
                ("arbitre", "Arbitre", "B", 4, N, []),
                ("star", "Star", "B", 5, N, []), ("champion", "Champion", "C", 8, N, []),
                ("legende", "Légende", "C", 6, "from_bench", [("STRENGTH", 2, "both")])],
    "forest": [("loup", "Loup", "A", 1, "on_attack", [("STRENGTH", 2, None)]),
               ("renard", "Renard", "A", 2, "on_attack", [("OPP_STRENGTH", -1, None)]),
               ("hibou", "Hibou", "A", 2, N, [("MILL_OPPONENT", 1, None)]), ("cerf", "Cerf", "A", 3, N, []),
               ("ours", "Ours", "B", 3, "on_attack", [("STRENGTH", 2, None)]), ("sanglier", "Sanglier", "B", 5, N, []),
               ("lynx", "Lynx", "B", 2, "on_attack", [("STRENGTH", 3, None)]), ("chene", "Chêne", "C", 8, N, []),
               ("druide", "Druide", "C", 6, "on_attack", [("STRENGTH", 3, None)])],
    "circus": [("clown", "Clown", "A", 1, N, [("FANS", 1, None)], "common", 6),
               ("jongleur", "Jongleur", "A", 2, N, [("BENCH_TO_DISCARD", 1, None)]),
               ("acrobate", "Acrobate", "A", 2, N, [("MILL_OPPONENT", 1, None)]),
               ("dompteur", "Dompteur", "A", 3, N, [], "rare", 2),
               ("magicien", "Magicien", "B", 3, N, [("FANS", 2, None)]), ("lion", "Lion", "B", 5, N, []),
               ("funambule", "Funambule", "B", 4, N, [("BENCH_TO_DISCARD", 2, None)]),
               ("ecuyere", "Écuyère", "C", 7, N, [("FANS", 2, None)]), ("elephant", "Éléphant", "C", 8, N, [])],
    "robot": [("bras", "Bras", "A", 2, N, []), ("pince", "Pince", "A", 3, N, []), ("laser", "Laser", "B", 4, N, []),
              ("turbo", "Turbo", "R", 5, N, []),
              ("blindage", "Blindage", "R", 4, "holding_flag", [("STRENGTH", 2, None)]),
              ("titan", "Titan", "SOLO", 8, N, [])],
}
STARTER = [("city_recrue", 2), ("city_passant", 2), ("city_vigile", 1), ("city_fanfare", 1)]

# §4.2's cards: Name(strength) without effect, and the five with one
TEST_PLAIN = {"guard": 3, "runner": 1, "scout": 2, "page": 2, "squire": 2, "knight": 4, "giant": 9, "wall": 3,
              "tower": 1, "p": 2, "q": 2, "r": 1, "s": 1, "u": 2, "v": 1, "three": 3,
              **{f"n{i}": 1 for i in range(1, 10)}, **{f"b{i}": 1 for i in range(1, 7)}}
TEST_EFFECTS = [("fan_club", "Fan Club", 1, "from_bench", [("STRENGTH", 1, "defence")]),
                ("sprinter", "Sprinter", 1, N, [("STRENGTH", 2, None)]),
                ("charger", "Charger", 1, "on_attack", [("STRENGTH", 2, None)]),
                ("escape", "Escape Artist", 2, "losing_flag", [("BENCH_TO_DISCARD", 1, None)])]


def fixture_rows() -> dict:
    sets = [{"id": i, "name": name, "symbol": sym, "colour": "#336699", "always_used": always, "robot": robot}
            for i, name, sym, always, robot in SETS]
    cards, ops = [], []

    def add(cid, name, set_, level, strength, keyword, card_ops, rarity="normal", copies=None):
        if copies is None and level in ("A", "B", "C"):
            copies = 4
        cards.append({"id": cid, "name": name, "set": set_, "level": level, "strength": strength, "rarity": rarity,
                      "copies": copies, "keyword": keyword, "text": name})
        ops.extend({"card": cid, "order": k, "op": op, "n": n, "scope": scope}
                   for k, (op, n, scope) in enumerate(card_ops, 1))

    for set_, rows in CARDS.items():
        for slug, name, level, strength, keyword, card_ops, *rarity in rows:
            add(f"{set_}_{slug}", name, set_, level, strength, keyword, card_ops, *rarity)
    for slug, strength in TEST_PLAIN.items():
        add(f"t_{slug}", slug.capitalize(), "robot", "SOLO", strength, N, [])
    for slug, name, strength, keyword, card_ops in TEST_EFFECTS:
        add(f"t_{slug}", name, "robot", "SOLO", strength, keyword, card_ops)
    schedule = [{"round": r, "option": 1, "level": "A", "draw": 5, "keep": 2} for r in (1, 2)]
    schedule += [{"round": r, "option": k, "level": lv, "draw": 5, "keep": keep}
                 for r in (3, 4, 5) for k, lv, keep in ((1, "A", 2), (2, "B", 1))]
    schedule += [{"round": r, "option": k, "level": lv, "draw": 5, "keep": keep}
                 for r in (6, 7) for k, lv, keep in ((1, "B", 2), (2, "C", 1))]
    lows = {1: 2, 2: 3, 3: 4, 4: 6, 5: 7, 6: 8, 7: 9}            # round_half_up(2 + 7 (r − 1) / 6)
    trophies = [{"round": r, "value": low + k, "count": 2} for r, low in lows.items() for k in (0, 1)]
    robot_decks = [{"round": r, "card": card, "copies": copies}
                   for r in range(1, 8) for card, copies in (("robot_bras", 3), ("robot_pince", 2 + r // 3),
                                                             ("robot_laser", 1 + r // 2))]
    robot_levels = [{"level": lv, "swaps": lv - 1, "note": None} for lv in range(1, 6)]
    solo_cards = [{"round": r, "card": "robot_titan", "copies": 1} for r in (5, 6, 7)]
    for row in cards:
        if row["set"] == "robot" and row["level"] in ("A", "B", "R"):
            row["copies"] = 3
    return {"sets": sets, "cards": cards, "card_ops": ops,
            "starter": [{"card": c, "copies_per_player": n} for c, n in STARTER], "schedule": schedule,
            "trophies": trophies, "robot_decks": robot_decks, "robot_levels": robot_levels, "solo_cards": solo_cards}


SHEETS = ("sets", "cards", "card_ops", "starter", "schedule", "trophies", "robot_decks", "robot_levels",
          "solo_cards")


def fixture_data(rows: dict | None = None, **params) -> GameData:
    rows = rows or fixture_rows()
    return GameData.from_rows(*(rows[s] for s in SHEETS), {**PARAMS, **params})


def workbook_records():
    """The validated records of sheets/challengers.xlsx, or None while the workbook does not exist."""
    if not WORKBOOK.exists():
        return None
    from pipeline.simulation.run import load_simulation
    return load_simulation("challengers", str(PROJECT_ROOT), ())
