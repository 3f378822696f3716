"""The rulebook's worked examples, chosen from the workbook's own cards and computed from the rules sheet:
a play on a green cell and the defenders that answer it, the seed's 9-or-14 example (a *pyramide* and a
*tir double* in both orders, points from the engine's scorer), and one foul of each kind.

The two coaches of the examples play one match throughout: Alice the rules sheet's team_north, Bruno its
team_south, unless only another team can play the 9-or-14 example: then Bruno plays that team in every example,
so that no example changes his team halfway (issue 29). Each
example is a list of cards (bottom first: the card id, who placed it, what the figure says beside it) and its
numbers; rulebook/diagrams.py draws the piles from it."""

from __future__ import annotations

from pipeline.data.specs import Records
from pipeline.games.fightball.components import ZONE_COLOURS
from pipeline.games.fightball.engine.cards import GameData
from pipeline.games.fightball.engine.data import COLOURS
from pipeline.games.fightball.engine.scoring import evaluate_stack
from pipeline.games.fightball.schema import ENGINE_SHEETS, RULE_PARAMETERS
from pipeline.games.kit import engine_rows

ALICE, BRUNO = "Alice", "Bruno"


def colour_words(code: str) -> dict:
    """A zone colour as the cards print it: its letter (V for vert), its French names, its ink."""
    letter, name, feminine, ink, _ = ZONE_COLOURS[code]
    return {"code": code, "letter": letter, "name": name, "feminine": feminine, "hex": ink}


def _team_rows(records: Records, sheet: str, team: str) -> list:
    return [rec for rec in records[sheet] if rec["team"] == team]


def _best(rows: list, column: str):
    """The row with the highest value in `column` (the first one on a tie)."""
    return max(rows, key=lambda rec: rec[column]) if rows else None


def _card(card_id: str, coach: str, label: str, mark: str = "") -> dict:
    return {"id": card_id, "coach": coach, "label": label, "mark": mark}


def _player(rec) -> dict:
    return {"id": rec["id"], "name": rec["name"], "position": rec["position"],
            "atk": {c: rec[f"atk_{c}"] for c in COLOURS}, "def": {c: rec[f"def_{c}"] for c in COLOURS}}


def _shot(rec) -> dict:
    return {"id": rec["id"], "value": {c: rec[f"shot_{c}"] for c in COLOURS}}


def green_play(records: Records, rules: dict, north: str, south: str) -> dict | None:
    """Alice attacks on a green cell with her best green attacker, a green ball and her best green Shot
    card; Bruno answers with his two best green defenders, one after the other."""
    attacker = _best(_team_rows(records, "players", north), "atk_G")
    shot = _best(_team_rows(records, "shots", north), "shot_G")
    defenders = sorted(_team_rows(records, "players", south), key=lambda rec: -rec["def_G"])[:2]
    if attacker is None or shot is None or len(defenders) < 2:
        return None
    bonus, threshold = rules["ball_match_bonus"], rules["threshold"]
    total = attacker["atk_G"] + bonus + shot["shot_G"]
    after_one = total - defenders[0]["def_G"]
    after_two = after_one - defenders[1]["def_G"]
    others = [rec for rec in _team_rows(records, "players", north) if rec["name"] != attacker["name"]]
    first = min(others, key=lambda rec: rec["atk_G"]) if others else None
    return {"colour": colour_words("G"), "points": rules["zone_points_g"], "attacker": _player(attacker),
            "first": _player(first) if first else None,
            "shot": _shot(shot), "ball": f"{north}_ball_G", "bonus": bonus, "threshold": threshold,
            "total": total, "scores": total >= threshold,
            "defenders": [_player(rec) for rec in defenders],
            "after_one": after_one, "scores_one": after_one >= threshold,
            "after_two": after_two, "scores_two": after_two >= threshold}


def _effects_with(records: Records, team: str, op: str) -> list:
    ids = {rec["effect"] for rec in records["effect_ops"] if rec["op"] == op}
    single = {rec["effect"] for rec in records["effect_ops"]
              if sum(1 for other in records["effect_ops"] if other["effect"] == rec["effect"]) == 1}
    return [rec for rec in _team_rows(records, "effects", team) if rec["id"] in ids & single]


def _op_arg(records: Records, effect_id: str) -> int:
    return int(float(next(rec["arg"] for rec in records["effect_ops"] if rec["effect"] == effect_id)))


def pyramid_team(records: Records, prefer: list[str]) -> str | None:
    """The first team (the sheet's north, then south, then the others) with an effect that only adds points
    and one that only multiplies them: the seed's *human pyramid* and *double shot*."""
    teams = prefer + [rec["id"] for rec in records["teams"] if rec["id"] not in prefer]
    for team in teams:
        if _effects_with(records, team, "ADD_POINTS") and _effects_with(records, team, "MULTIPLY_POINTS"):
            return team
    return None


def nine_or_fourteen(records: Records, rules: dict, team: str, opponent: str) -> dict | None:
    """The seed's example on a red cell of the opponent's half: the team's best red attack, a red ball, the
    two effects in both orders, and its best red Shot card (the play succeeds, so the effects act)."""
    add = _effects_with(records, team, "ADD_POINTS")
    times = _effects_with(records, team, "MULTIPLY_POINTS")
    attacker = _best(_team_rows(records, "players", team), "atk_R")
    shot = _best(_team_rows(records, "shots", team), "shot_R")
    if not add or not times or attacker is None or shot is None:
        return None
    add, times = add[0], times[0]
    plus, factor, zone = _op_arg(records, add["id"]), _op_arg(records, times["id"]), rules["zone_points_rb"]
    total = attacker["atk_R"] + rules["ball_match_bonus"] + shot["shot_R"]
    return {"team": team, "opponent": opponent, "colour": colour_words("R"), "zone": zone,
            "attacker": _player(attacker), "shot": _shot(shot), "ball": f"{team}_ball_R", "total": total,
            "threshold": rules["threshold"], "scores": total >= rules["threshold"],
            "add": {"id": add["id"], "name": add["name"], "n": plus},
            "times": {"id": times["id"], "name": times["name"], "k": factor}}


def nine_stacks(nine: dict, coach: str) -> dict[str, list[tuple[str, str]]]:
    """The two piles of the 9-or-14 example, bottom first: (card id, coach)."""
    add, times = nine["add"]["id"], nine["times"]["id"]
    base = [(nine["attacker"]["id"], coach), (nine["ball"], coach)]
    return {"times_first": base + [(times, coach), (add, coach), (nine["shot"]["id"], coach)],
            "add_first": base + [(add, coach), (times, coach), (nine["shot"]["id"], coach)]}


def engine_nine(nine: dict, score, coach: str) -> dict:
    """The example's points as the engine's scorer gives them (a red cell of the other coach's half):
    times_first (the multiplier below the addition) and add_first."""
    other = "south" if coach == "north" else "north"
    out = {}
    for key, stack in nine_stacks(nine, coach).items():
        out[key] = sum(points for who, points, kind in score(stack, "R", other) if who == coach and kind == "play")
    return out


def fouls(records: Records, rules: dict, north: str, south: str, green: dict | None) -> dict:
    """One foul of each kind, on Alice's green play where there is one."""
    south_players = _team_rows(records, "players", south)
    south_shots = _team_rows(records, "shots", south)
    out = {"false_start": {"ball": f"{south}_ball_G", "attacker": _player(south_players[0]) if south_players else None,
                           "points": rules["zone_points_g"], "colour": colour_words("G")}}
    if green is not None and south_players:
        late = _player(max(south_players, key=lambda rec: rec["def_G"]))
        out["too_late"] = {"late": late, "points": rules["too_late_points"],
                           "other": f"{south}_ball_B"}
    if green is not None and south_shots:
        weak = min(south_shots, key=lambda rec: rec["shot_G"])
        out["hurried"] = {"shot": _shot(weak), "points": rules["hurried_shot_points"]}
    return out


def examples(records: Records, rules: dict) -> dict:
    north, south = rules["team_north"], rules["team_south"]
    names = {rec["id"]: rec["name"] for rec in records["teams"]}
    team = pyramid_team(records, [north, south])
    if team not in (None, north, south):
        south = team                                    # Bruno plays the team of the 9-or-14 example throughout
    green = green_play(records, rules, north, south)
    opponent = south if team == north else north
    nine = nine_or_fourteen(records, rules, team, opponent) if team else None
    if nine:
        nine.update(engine_nine(nine, scorer(records, rules), "north" if team == north else "south"))
    return {"alice": ALICE, "bruno": BRUNO, "north": north, "south": south,
            "north_name": names.get(north, north), "south_name": names.get(south, south),
            "green": green, "nine": nine, "nine_team_name": names.get(team, team) if team else "",
            "nine_coach": ALICE if team == north else BRUNO,
            "fouls": fouls(records, rules, north, south, green)}


# --- the engine's scorer --------------------------------------------------------------------------------------

def scorer(records: Records, rules: dict):
    """score(stack, colour, owner) -> [(coach, points, kind)] with the engine's stack scorer (scoring.py):
    stack = [(card id, "north" | "south")], bottom first; the cell of that colour whose owner half is `owner`
    ("north", "south" or None for green)."""
    rows, _ = engine_rows(records, ENGINE_SHEETS, RULE_PARAMETERS)
    data = GameData.from_rows(*rows, rules)
    seats = {"north": 0, "south": 1}

    def score(stack: list[tuple[str, str]], colour: str, owner: str | None) -> list:
        wanted = (COLOURS.index(colour), -1 if owner is None else seats[owner])
        cell = next(c for c in data.cells if (c.colour, c.owner) == wanted)
        placed = [(data.index[card], seats[coach]) for card, coach in stack]
        return [("north" if coach == 0 else "south", points, kind)
                for coach, points, kind in evaluate_stack(cell, placed, data.params, data)]

    return score
