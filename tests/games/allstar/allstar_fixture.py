"""All-Star Draft's test fixture: a small data set that follows the workbook's conventions (species ids bear,
duck, horse, panda, caribou, owl, fox, wolf + 4; symbols stick > puck > skate > helmet > glove; numbers 9..1;
Caribou above Horse; gold symbol / silver number / bronze species on the 2-4 side, gold symbol / silver
species / bronze number on the 5-6 side; playoff points 11 + 4 x (N - rank)), so that the engine's tests do not
wait for sheets/allstar.xlsx; workbook_data() reads the real one."""

from __future__ import annotations

from pipeline import PROJECT_ROOT
from pipeline.games.allstar.engine import GameData
from pipeline.games.allstar.schema import RULE_PARAMETERS

WORKBOOK = PROJECT_ROOT / "sheets" / "allstar.xlsx"

SPECIES = ("bear", "duck", "horse", "panda", "caribou", "owl", "fox", "wolf", "lynx", "moose", "seal", "hare")
SPECIES_ORDER = ("caribou", "bear", "duck", "panda", "horse", "owl", "fox", "wolf", "lynx", "moose", "seal", "hare")
SYMBOLS = ("stick", "puck", "skate", "helmet", "glove")           # strongest first
# The cards the worked examples name, with the symbols they give them (ASD-T1 gives caribou_2 a Stick, ASD-T10
# a Puck: the fixture follows T10, T1's scenario overrides it).
NAMED = {
    "bear_4": "stick", "duck_4": "puck", "horse_4": "skate", "panda_7": "helmet", "duck_9": "glove",
    "duck_1": "stick", "duck_3": "puck", "duck_5": "skate", "duck_6": "helmet", "duck_8": "glove",
    "bear_1": "puck", "horse_2": "puck", "owl_5": "puck", "fox_7": "stick", "wolf_9": "glove",
    "bear_2": "stick", "bear_3": "skate", "bear_6": "glove", "panda_8": "helmet",
    "horse_9": "puck", "caribou_2": "puck",
}
ARENAS = [  # id, p1..p6, icons
    ("centre_bell", 13, 10, 7, 5, 3, 1, ""), ("glace_nord", 12, 9, 6, 4, 2, 1, ""),
    ("patinoire_ouest", 10, 8, 6, 4, 2, 0, ""), ("forum", 9, 7, 5, 3, 2, 1, ""),
    ("pingouins", 8, 6, 4, 3, 2, 1, ""), ("lac_gele", 11, 8, 5, 3, 1, 0, ""),
    ("dome_bleu", 14, 10, 6, 3, 1, 0, ""), ("aurore", 10, 7, 5, 3, 2, 1, "straight_beats_5"),
    ("chalet", 10, 7, 5, 3, 2, 1, "full_house_beats_5"), ("arc_en_ciel", 10, 7, 5, 3, 2, 1, "all_symbols_beats_5"),
    ("igloo", 9, 6, 4, 2, 1, 0, ""),
    ("vieux_port", 6, 9, 7, 4, 2, 1, "unusual_count,not_for_2"),
    ("brise_glace", 5, 6, 8, 3, 2, 1, "unusual_count,not_for_2"),
    ("grand_nord", 12, 8, 6, 4, 2, 1, "not_for_2"), ("toundra", 9, 7, 6, 5, 4, 3, "not_for_2"),
]
PARAMS = {
    "players_min": 2, "players_max": 6, "rounds": 3, "hand_size": 6, "team_size": 5, "species_per_manager": 2,
    "tickets_2": 2, "tickets_3": 1, "tickets_4plus": 0, "ticket_bonus_2": 2, "ticket_bonus_3": 3,
    "swaps_per_round": "per_team", "playoff_weakest_by": "power", "min_substitution": 2, "max_substitution": 4,
    "mode": "heritage", "duo_hand_size": 7, "duo_species": 5, "open_market_species": 6,
    "final_tiebreak_includes_ticket_bonus": True, "track_length": 50, "max_steps": 10_000,
}


def fixture_rows(symbols: dict | None = None) -> dict:
    """The fixture's rows by sheet; `symbols` overrides the symbol of named cards."""
    named = {**NAMED, **(symbols or {})}
    hockey = [{"id": f"{s}_{n}", "species": s, "number": n,
               "symbol": named.get(f"{s}_{n}", SYMBOLS[(2 * i + n) % 5])}
              for i, s in enumerate(SPECIES) for n in range(1, 10)]
    orders = [{"side": side, "attribute": attr, "position": p, "value": v}
              for side in ("2-4", "5-6")
              for attr, values in (("symbol", SYMBOLS), ("number", [str(n) for n in range(9, 0, -1)]),
                                   ("species", SPECIES_ORDER))
              for p, v in enumerate(values, 1)]
    return {
        "species": [{"id": s, "name": s.title(), "colour": "#808080", "coloradd_code": "grey"} for s in SPECIES],
        "symbols": [{"id": s, "name": s.title()} for s in SYMBOLS],
        "hockey": hockey, "orders": orders,
        "tiebreak_sides": [{"side": "2-4", "gold": "symbol", "silver": "number", "bronze": "species"},
                           {"side": "5-6", "gold": "symbol", "silver": "species", "bronze": "number"}],
        "arenas": [{"id": a[0], "name": a[0].replace("_", " ").title(), **{f"p{r}": a[r] for r in range(1, 7)},
                    "icons": a[7] or None} for a in ARENAS],
        "playoff_points": [{"managers": n, "rank": r, "points": 11 + 4 * (n - r)}
                           for n in range(2, 7) for r in range(1, n + 1)],
    }


def fixture_data(symbols: dict | None = None, **params) -> GameData:
    rows = fixture_rows(symbols)
    return GameData.from_rows(rows["species"], rows["symbols"], rows["hockey"], rows["orders"],
                              rows["tiebreak_sides"], rows["arenas"], rows["playoff_points"], {**PARAMS, **params})


def workbook_data() -> GameData | None:
    """The real workbook through the pipeline's loaders (stages 1-5 when the game is registered, else the
    sheets read and typed with the schema); None if sheets/allstar.xlsx does not exist yet. ValueError with
    the problems when it does not load."""
    if not WORKBOOK.exists():
        return None
    from pipeline.core.errors import Report
    from pipeline.data.params import read_parameters
    from pipeline.games import REGISTRY
    from pipeline.games.allstar import schema
    report = Report()
    if "allstar" in REGISTRY:
        from pipeline.games import load_game
        from pipeline.validate import load_records
        records = load_records(load_game("allstar", PROJECT_ROOT), PROJECT_ROOT, report)
    else:
        from pipeline.data.schema import check_structure, validate_sheet
        from pipeline.data.sheets import read_workbook
        raw = read_workbook(WORKBOOK, PROJECT_ROOT, report)
        specs = (schema.SPECIES, schema.SYMBOLS, schema.HOCKEY, schema.ORDERS, schema.TIEBREAK_SIDES,
                 schema.ARENAS, schema.PLAYOFF_POINTS, schema.RULES)
        records = {}
        for spec in specs:
            if spec.name in raw and check_structure(spec, raw[spec.name], report):
                records[spec.name] = validate_sheet(spec, raw[spec.name], report)
            else:
                report.error("sheets/allstar.xlsx", f"sheet {spec.name} missing or malformed", "structure")
    if report.errors or records is None:
        raise ValueError(f"sheets/allstar.xlsx does not load: {[str(e) for e in report.errors][:5]}")
    rows = {name: [dict(r.values) for r in records[name]] for name in records}
    params = dict(read_parameters(records["rules"], RULE_PARAMETERS, report).values)
    if report.errors:
        raise ValueError(f"sheets/allstar.xlsx rules do not load: {[str(e) for e in report.errors][:5]}")
    return GameData.from_rows(rows["species"], rows["symbols"], rows["hockey"], rows["orders"],
                              rows["tiebreak_sides"], rows["arenas"], rows["playoff_points"], params)
