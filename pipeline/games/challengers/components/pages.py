"""Pages: the bench mats (one per seat, numbered like the pairing chart's rows), the round track, the pairing
chart, the player aid and the robot reference. Every page fits A4 and Letter (190 × 254 mm at most)."""

from __future__ import annotations

from pipeline.data.specs import FaceSpec, PageSpec, Records
from pipeline.games.challengers.components.cards import KEYWORDS, POKER
from pipeline.games.challengers.engine.pairing import pairings, participants_for
from pipeline.render.charts.pairing import ChartGeometry, PairingTable, chart_context

PAGE = (190.0, 250.0)
AID = (148.0, 210.0)            # A5: 2-up on a sheet, one per player
ROBOT = "Robot"
SLEEVE_MM = 2.0                 # a slot is at least its card plus this (a sleeved card, fingers to lift it)
MAT_HEADER, MAT_GAP, MAT_FOOTER_MIN = 21.0, 3.0, 20.0
SLOT = ((PAGE[0] - MAT_GAP) / 2, POKER[0] + SLEEVE_MM + 0.5)       # a card lies across: 93.5 × 66 mm
MAT_ROWS = int((PAGE[1] - MAT_HEADER - MAT_FOOTER_MIN + MAT_GAP) // (SLOT[1] + MAT_GAP))
CHART_TOP = 24.0                # the chart's heading above its blocks


def seat_name(seat: int) -> str:
    return f"J{seat}"


# --- bench mats --------------------------------------------------------------------------------------------

def bench_slots(slots: int) -> list[list[dict]]:
    """The numbered slots of a seat's mats, two columns in reading order, MAT_ROWS rows a mat (a bench of more
    slots than one mat holds goes on to a second): per mat, each slot's number and box (mm). Every slot holds
    a card lying across with SLEEVE_MM to spare."""
    per_mat = 2 * MAT_ROWS
    boxes = [{"number": i + 1, "x": round((i % 2) * (SLOT[0] + MAT_GAP), 3),
              "y": round(MAT_HEADER + (i % per_mat // 2) * (SLOT[1] + MAT_GAP), 3), "w": round(SLOT[0], 3),
              "h": round(SLOT[1], 3)} for i in range(slots)]
    return [boxes[i:i + per_mat] for i in range(0, slots, per_mat)]


def bench_mats(rules: dict, count: int) -> PageSpec:
    mats = bench_slots(rules["bench_slots"])
    footer_y = MAT_HEADER + MAT_ROWS * (SLOT[1] + MAT_GAP)
    faces = tuple(FaceSpec("bench.yaml", {"seat": seat_name(s), "slots": slots, "rules": rules, "footer_y": footer_y},
                           None, f"bench-{s}" + (f"-{m + 1}" if m else ""),
                           f"bench mat {seat_name(s)}" + (f" ({m + 1}/{len(mats)})" if len(mats) > 1 else ""))
                  for s in range(1, count + 1) for m, slots in enumerate(mats))
    return PageSpec("bench", "Bancs", faces, PAGE)


# --- round track ------------------------------------------------------------------------------------------------

def option_line(row) -> str:
    keep = row["keep"]
    return f"{row['draw']} cartes {row['level']}, gardez-en {keep}"


def track_rounds(records: Records, rules: dict) -> list[dict]:
    """Per round: its draft options (schedule sheet) and its trophies' possible values (trophies sheet)."""
    options: dict[int, list[str]] = {}
    for row in sorted(records["schedule"], key=lambda r: (r["round"], r["option"])):
        options.setdefault(row["round"], []).append(option_line(row))
    values: dict[int, list[int]] = {}
    for row in records["trophies"]:
        if row["count"]:
            values.setdefault(row["round"], []).append(row["value"])
    return [{"round": r, "options": options.get(r, []), "fans": sorted(set(values.get(r, [])))}
            for r in range(1, rules["rounds"] + 1)]


def round_track(records: Records, rules: dict) -> PageSpec:
    face = FaceSpec("track.yaml", {"rounds": track_rounds(records, rules), "rules": rules}, None, "round-track",
                    "round track")
    return PageSpec("track", "Piste des manches", (face,), PAGE)


# --- pairing chart ----------------------------------------------------------------------------------------------

def pairing_tables(rules: dict) -> list[PairingTable]:
    """One table per player count, from the engine's pairing: the robot is the last participant at odd
    counts, named and shaded where it plays."""
    tables = []
    for players in range(max(1, rules["players_min"]), rules["players_max"] + 1):
        participants = participants_for(players)
        names = tuple(seat_name(s) for s in range(1, players + 1)) + ((ROBOT,) if participants > players else ())
        robot = frozenset({participants - 1}) if participants > players else frozenset()
        rounds = tuple(tuple(pairs) for pairs in pairings(participants, rules["rounds"]))
        title = f"{players} joueur{'s' if players > 1 else ''}" + (" + le robot" if robot else "")
        tables.append(PairingTable(title, names, rounds, robot))
    return tables


def pairing_chart(rules: dict) -> PageSpec:
    geometry = ChartGeometry(name_mm=18.0, cell_mm=min(10.0, (PAGE[0] / 2 - 2.5 - 18.0) / rules["rounds"]))
    tables = pairing_tables(rules)
    width = 2 * geometry.block_width(rules["rounds"]) + geometry.gap_mm
    context = chart_context(tables, top_mm=CHART_TOP, geometry=geometry, left_mm=max(0.0, (PAGE[0] - width) / 2))
    height = min(PAGE[1], context["height"] + 12.0)
    face = FaceSpec("pairing.yaml", {**context, "rules": rules, "robot": ROBOT}, None, "pairing-chart",
                    "pairing chart", size_mm=(PAGE[0], height))
    return PageSpec("pairing", "Tableau des rencontres", (face,), (PAGE[0], height))


# --- player aid and robot reference -------------------------------------------------------------------------

def aid(rules: dict, copies: int) -> PageSpec:
    keywords = [{"id": k, "label": label} for k, label in KEYWORDS.items() if label]
    face = FaceSpec("aid.yaml", {"rules": rules, "keywords": keywords}, None, "aid", "player aid")
    return PageSpec("aid", "Aide de jeu", (face,), AID, copies)


def robot_decks(records: Records) -> dict:
    """The robot's base cards (columns, by strength), its deck per round (copies of each), its R and SOLO
    cards and its levels, as the reference prints them."""
    cards = {r["id"]: r for r in records["cards"]}
    used = {row["card"] for row in records["robot_decks"]}
    base = sorted((cards[c] for c in used), key=lambda r: (r["strength"], r["name"]))
    copies = {(row["round"], row["card"]): row["copies"] for row in records["robot_decks"]}
    rounds = sorted({row["round"] for row in records["robot_decks"]})
    solo: dict[int, list[str]] = {}
    for row in records["solo_cards"]:
        solo.setdefault(row["round"], []).append(f"{row['copies']} × {cards[row['card']]['name']}")
    return {
        "base": [{"name": r["name"], "strength": r["strength"], "level": r["level"]} for r in base],
        "rounds": [{"round": n, "copies": [copies.get((n, r["id"]), 0) for r in base],
                    "total": sum(copies.get((n, r["id"]), 0) for r in base), "solo": ", ".join(solo.get(n, []))}
                   for n in rounds],
        "reinforcements": [{"name": r["name"], "strength": r["strength"], "copies": r["copies"]}
                           for r in records["cards"] if r["level"] == "R"],
        "levels": [{"level": r["level"], "swaps": r["swaps"], "note": r["note"] or ""}
                   for r in records["robot_levels"]],
    }


def robot_reference(records: Records, looks: dict, rules: dict) -> PageSpec:
    robot = next(look for look in looks.values() if look["robot"])
    solo_kept = rules.get("solo_robot_deck") == "kept"          # the solo robot keeps its round-1 deck
    face = FaceSpec("robot-aid.yaml", {**robot_decks(records), "set": robot, "solo_kept": solo_kept}, None,
                    "robot-aid", "robot reference")
    return PageSpec("robotaid", "Référence du Robot", (face,), AID)
