"""Fightball's checks that need no engine: rows together (stage 3), the game's invariants (stage 5), and the
lines `pnp validate fightball` prints (per team: cards, mean attack, best play per colour, effects).

References are to shared/games/fightball.md (§ sections, FB-A… resolutions). Every problem is located on its
cell; nothing here raises.
"""

from __future__ import annotations

from collections import Counter, defaultdict

from pipeline.core.errors import Report, SourceRef
from pipeline.data.params import rules
from pipeline.data.schema import Record, suggest
from pipeline.data.specs import Records
from pipeline.games.fightball.schema import COLOURS, RULE_PARAMETERS

COLOUR_NAMES = {"B": "blue", "R": "red", "G": "green"}
# what the rulebook fixes for every team (§1.1): 3 balls of each colour, one BUZZ, 12 field cards 5/3/4
SEED_COUNTS = {"balls_B": 3, "balls_R": 3, "balls_G": 3, "buzz": 1, "field_B": 5, "field_R": 3, "field_G": 4}
DECK_SIZE = 44                # this edition's deck: 16 players, 10 Shot cards, 8 effects, 9 balls, 1 BUZZ (FB-A1)
OP_PHASES = {"ADD_TOTAL": "TOTAL", "IGNORE_DEFENDERS": "TOTAL", "USE_COLOUR": "TOTAL", "ADD_POINTS": "POINTS",
             "MULTIPLY_POINTS": "POINTS", "SET_POINTS": "POINTS", "MOVE_PLAY": "POINTS", "STEAL": "POINTS",
             "CANCEL_EFFECTS_BELOW": "BOTH", "FOUL": "POINTS"}                 # §3.3
FOUL_SIDES = ("attacking", "defending")
DEFAULTS = {"threshold": 10, "ball_match_bonus": 2}


# --- arguments of the ops (§3.3) --------------------------------------------------------------------------

def _int(text: str) -> int | None:
    try:
        return int(text)
    except ValueError:
        return None


def arg_problem(op: str, arg: str | None) -> str | None:
    """Why `arg` is not an argument of `op` (None when it is)."""
    text = (arg or "").strip()
    if op in ("ADD_TOTAL", "ADD_POINTS", "SET_POINTS", "MULTIPLY_POINTS"):
        n = _int(text)
        if n is None:
            return f"{op} needs a whole number, not {text!r}" if text else f"{op} needs a whole number"
        if op == "MULTIPLY_POINTS" and n < 1 or op == "SET_POINTS" and n < 0:
            return f"{op} {n}: the number must be at least {1 if op == 'MULTIPLY_POINTS' else 0}"
        return None
    if op == "USE_COLOUR":
        return None if text in COLOURS else f"USE_COLOUR needs a colour B, R or G, not {text!r}"
    if op == "MOVE_PLAY":
        return None if text == "best" or text in COLOURS else f"MOVE_PLAY needs best or a colour B, R or G, " \
                                                               f"not {text!r}"
    if op == "FOUL":
        parts = text.split()
        if len(parts) != 2 or _int(parts[0]) is None or _int(parts[0]) < 1 or parts[1] not in FOUL_SIDES:
            return f"FOUL needs '<points> attacking' or '<points> defending' (e.g. '1 attacking'), not {text!r}"
        return None
    return f"{op} takes no argument, not {text!r}" if text else None


# --- stage 3: rows together ------------------------------------------------------------------------------

def check_rows(records: Records, report: Report) -> None:
    """Team and effect references, op phases and arguments, effects with no op, player names across teams."""
    teams = tuple(r["id"] for r in records["teams"])
    for sheet in ("players", "shots", "effects"):
        for rec in records[sheet]:
            _reference(rec, "team", teams, "teams", report)
    effects = tuple(r["id"] for r in records["effects"])
    ops_of: dict[str, list[Record]] = defaultdict(list)
    for rec in records["effect_ops"]:
        _reference(rec, "effect", effects, "effects", report)
        ops_of[rec["effect"]].append(rec)
        op, phase = rec["op"], rec["phase"]
        if op not in OP_PHASES:            # empty or refused at stage 2
            continue
        if phase is not None and phase != OP_PHASES[op]:
            report.error(rec.at("phase"), f"{op} acts in phase {OP_PHASES[op]}, not {phase} (§3.3)", "phase")
        if why := arg_problem(op, rec["arg"]):
            report.error(rec.at("arg"), why, "arg")
    for rec in records["effects"]:
        if not ops_of.get(rec["id"]):
            report.error(rec.at("id"), f"effect {rec['id']} has no operation in sheet effect_ops: the card would "
                                       "do nothing", "effect")
    first: dict[str, Record] = {}
    for rec in records["players"]:
        name = rec["name"]
        if name in first and first[name]["team"] != rec["team"]:
            other = first[name]
            report.error(rec.at("name"), f"{name!r} also plays for {other['team']} (row {other.ref.row}); player "
                                         "names are unique across teams", "unique")
        first.setdefault(name, rec)


def _reference(rec: Record, column: str, known: tuple[str, ...], sheet: str, report: Report) -> None:
    value = rec[column]
    if value is not None and value not in known:
        report.error(rec.at(column), f"no {column} {value!r} in sheet {sheet}{suggest(str(value), known)}",
                     "reference")


# --- stage 5: the game's invariants ----------------------------------------------------------------------

def check_rules(records: Records, report: Report) -> None:
    params = _params(records)
    _check_seed_counts(records, report)
    _check_decks(records, report)
    _check_shot_colours(records, report)
    _check_scoring(records, params, report)
    _check_matchup(records, report)


def _params(records: Records) -> dict:
    try:
        return {**DEFAULTS, **rules(records, RULE_PARAMETERS).values}
    except (ValueError, KeyError):
        return dict(DEFAULTS)


def by_team(records: Records, sheet: str) -> dict[str, list[Record]]:
    out: dict[str, list[Record]] = defaultdict(list)
    for rec in records[sheet]:
        out[rec["team"]].append(rec)
    return out


def deck(records: Records, team: Record) -> dict[str, int]:
    """A team's deck by kind of card (field cards are not in the deck)."""
    tid = team["id"]
    copies = {sheet: sum(r["copies"] or 0 for r in records[sheet] if r["team"] == tid)
              for sheet in ("players", "shots", "effects")}
    return {**copies, "balls": sum(team[f"balls_{c}"] or 0 for c in COLOURS), "buzz": team["buzz"] or 0}


def _check_seed_counts(records: Records, report: Report) -> None:
    """Balls 3/3/3, one BUZZ, field cards 5 blue, 3 red, 4 green for every team (§1.1, the seed)."""
    for team in records["teams"]:
        for column, expected in SEED_COUNTS.items():
            if team[column] is not None and team[column] != expected:
                report.error(team.at(column), f"{team['id']}: {column} is {team[column]}, the rulebook fixes "
                                              f"{expected} for every team (§1.1)", "rulebook")


def _check_decks(records: Records, report: Report) -> None:
    """A deck has players and Shot cards (error) and as many cards as the other teams' (warning, FB-A1)."""
    sizes = {}
    for team in records["teams"]:
        cards = deck(records, team)
        for sheet, what in (("players", "player"), ("shots", "Shot card")):
            if not cards[sheet]:
                report.error(team.at("id"), f"team {team['id']} has no {what} (sheet {sheet}): its deck cannot "
                                            "score", "deck")
        sizes[team["id"]] = sum(cards.values())
    if len(sizes) < 2:
        return
    usual = Counter(sizes.values()).most_common()
    common = DECK_SIZE if len(usual) > 1 and usual[0][1] == usual[1][1] else usual[0][0]
    for team in records["teams"]:
        size = sizes[team["id"]]
        if size != common:
            cards = deck(records, team)
            shown = ", ".join(f"{n} {k}" for k, n in cards.items())
            report.warning(team.at("id"), f"team {team['id']} has a deck of {size} cards ({shown}), the other "
                                          f"teams {common} (this edition: {DECK_SIZE}, FB-A1)", "deck")


def best_colours(values: dict[str, int]) -> list[str]:
    top = max(values.values())
    return [c for c in COLOURS if values[c] == top]


def _check_shot_colours(records: Records, report: Report) -> None:
    """SHOT is printed in the colour of the card's highest value (FB-A12)."""
    for rec in records["shots"]:
        values = {c: rec[f"shot_{c}"] or 0 for c in COLOURS}
        best = best_colours(values)
        if rec["text_colour"] not in best:
            shown = "/".join(f"{c} {values[c]}" for c in COLOURS)
            report.warning(rec.at("text_colour"), f"{rec['id']} is printed {rec['text_colour']} but is best on "
                                                  f"{' or '.join(best)} ({shown}) (FB-A12)", "shot")


def best_play(players: list[Record], shots: list[Record], colour: str, params: dict) -> int | None:
    """The highest total a team can build on a cell of `colour` with no defender and no effect: its best
    attacker there, a ball of that colour, its best Shot card there (None without players or shots)."""
    if not players or not shots:
        return None
    return (max(p[f"atk_{colour}"] or 0 for p in players) + params["ball_match_bonus"]
            + max(s[f"shot_{colour}"] or 0 for s in shots))


def _check_scoring(records: Records, params: dict, report: Report) -> None:
    """Every team can reach the threshold on every colour of cell (attacker + matching ball + Shot card)."""
    players, shots = by_team(records, "players"), by_team(records, "shots")
    for team in records["teams"]:
        tid = team["id"]
        for colour in COLOURS:
            total = best_play(players[tid], shots[tid], colour, params)
            if total is not None and total < params["threshold"]:
                atk = max(p[f"atk_{colour}"] or 0 for p in players[tid])
                shot = max(s[f"shot_{colour}"] or 0 for s in shots[tid])
                report.error(team.at("id"), f"team {tid} can never score on {COLOUR_NAMES[colour]}: its best "
                             f"attack {atk} + matching ball {params['ball_match_bonus']} + its best Shot card {shot} "
                             f"= {total}, below the threshold {params['threshold']}", "scoring")


def _check_matchup(records: Records, report: Report) -> None:
    """team_north and team_south (rules) are two different teams of sheet teams."""
    try:
        params = rules(records, RULE_PARAMETERS)
    except (ValueError, KeyError):
        return
    teams = tuple(r["id"] for r in records["teams"])
    chosen = {}
    for name in ("team_north", "team_south"):
        value = params.values.get(name)
        if value is None:
            continue
        if value not in teams:
            report.error(params.at(name) or _sheet(records, "rules"), f"{name}: no team {value!r} in sheet teams"
                         f"{suggest(str(value), teams)}", "reference")
        else:
            chosen[name] = value
    if len(chosen) == 2 and chosen["team_north"] == chosen["team_south"]:
        report.error(params.at("team_south") or _sheet(records, "rules"), f"team_south is {chosen['team_south']}, "
                     "the same team as team_north: a game matches two different decks", "rules")


def _sheet(records: Records, sheet: str) -> SourceRef:
    for recs in records.values():
        if recs:
            return SourceRef(recs[0].ref.file, sheet)
    return SourceRef("", sheet)


# --- `pnp validate fightball` ----------------------------------------------------------------------------

def summary(records: Records) -> list[str]:
    params = _params(records)
    players, shots, effects = by_team(records, "players"), by_team(records, "shots"), by_team(records, "effects")
    lines = []
    for team in records["teams"]:
        tid = team["id"]
        cards = deck(records, team)
        mine = [p for p in players[tid] for _ in range(p["copies"] or 0)]     # means over the printed cards
        means = " ".join(f"{c} {sum(p[f'atk_{c}'] or 0 for p in mine) / len(mine):.1f}"
                         for c in COLOURS) if mine else "-"
        best = " ".join(f"{c} {best_play(players[tid], shots[tid], c, params)}" for c in COLOURS)
        spells = ", ".join(f"{e['name']} ×{e['copies']}" for e in effects[tid]) or "none"
        lines.append(f"{team['name']} ({tid}): {sum(cards.values())} cards ({cards['players']} players, "
                     f"{cards['shots']} shots, {cards['effects']} effects, {cards['balls']} balls, "
                     f"{cards['buzz']} BUZZ); mean attack {means}; best play {best} "
                     f"(threshold {params['threshold']})")
        lines.append(f"  effects of {tid}: {spells}")
    return lines
