"""All-Star Draft's checks that need no engine: rows together (stage 3) and the game's invariants (stage 5),
plus the lines `pnp validate allstar` prints (deck sizes, symbol totals, arenas, icons).

References are to shared/games/all-star-draft.md (ASD-A… resolutions, ASD-T… worked examples).
"""

from __future__ import annotations

from collections import Counter, defaultdict

from pipeline.core.errors import Report, SourceRef
from pipeline.data.params import Parameters, rules
from pipeline.data.schema import Record, suggest
from pipeline.data.specs import Records
from pipeline.games.allstar.schema import ATTRIBUTES, ICONS, RULE_PARAMETERS, SIDES

NUMBERS = tuple(range(1, 10))           # every species has one card of each number (§1)
MEDALS = ("gold", "silver", "bronze")
SPECIAL_ICONS = ("straight_beats_5", "full_house_beats_5", "all_symbols_beats_5")
DEFAULT_TICKETS = 4                      # the box's playoff tickets when the manifest has no `ticket` row


def parse_icons(text: str | None) -> list[str]:
    """An arena's `icons` cell: comma-separated icon ids, blanks ignored."""
    return [part.strip() for part in (text or "").split(",") if part.strip()]


def attribute_values(records: Records) -> dict[str, list[str]]:
    """The values each attribute can take, as the `orders` sheet writes them (numbers as text)."""
    return {"symbol": [r["id"] for r in records["symbols"]],
            "number": [str(n) for n in NUMBERS],
            "species": [r["id"] for r in records["species"]]}


# --- stage 3: rows together ------------------------------------------------------------------------------

def check_rows(records: Records, report: Report) -> None:
    """Hockey cards name real species and symbols; every order value exists for its attribute."""
    values = attribute_values(records)
    for rec in records["hockey"]:
        for column, sheet in (("species", "species"), ("symbol", "symbols")):
            _reference(rec, column, values[column], sheet, report)
    for rec in records["orders"]:
        attr, value = rec["attribute"], rec["value"]
        if attr not in values or value is None or value in values[attr]:
            continue
        if attr == "number":
            report.error(rec.at("value"), f"{value!r} is not a number 1–9", "reference")
        else:
            _reference(rec, "value", values[attr], "symbols" if attr == "symbol" else "species", report,
                       what=attr)


def _reference(rec: Record, column: str, known: list[str], sheet: str, report: Report, what: str = "") -> None:
    value = rec[column]
    if value is not None and value not in known:
        report.error(rec.at(column), f"no {what or column} {value!r} in sheet {sheet}"
                                     f"{suggest(str(value), tuple(known))}", "reference")


# --- stage 5: the game's invariants ----------------------------------------------------------------------

def check_rules(records: Records, report: Report) -> None:
    params = rules(records, RULE_PARAMETERS)
    low, high = _players(params)
    _check_species(records, report)
    _check_symbol_totals(records, report)
    _check_orders(records, report)
    _check_tiebreak_sides(records, report)
    _check_arenas(records, params, low, high, report)
    _check_playoff_points(records, low, high, report)
    _check_parameters(records, params, report)


def _players(params: Parameters) -> tuple[int, int]:
    low, high = params.values.get("players_min", 2), params.values.get("players_max", 6)
    return (low, high) if low <= high else (high, low)


def _sheet_ref(records: Records, sheet: str) -> SourceRef:
    """The whole sheet (all sheets live in one workbook, so any record gives the file)."""
    for recs in records.values():
        if recs:
            return SourceRef(recs[0].ref.file, sheet)
    return SourceRef("", sheet)


def _check_species(records: Records, report: Report) -> None:
    """One card per species and number 1–9 (§1, ASD-A3); colours and ColorADD codes unique (ASD-A16)."""
    cards = defaultdict(list)
    for rec in records["hockey"]:
        cards[rec["species"]].append(rec)
    for sp in records["species"]:
        rows = defaultdict(list)
        for card in cards.get(sp["id"], ()):
            rows[card["number"]].append(card.ref.row)
        parts = [f"{len(r)} cards numbered {n} (rows {', '.join(map(str, r))})"
                 for n, r in sorted(rows.items()) if len(r) > 1]
        missing = [str(n) for n in NUMBERS if n not in rows]
        if missing:
            parts.append(f"no card numbered {', '.join(missing)}")
        if parts:
            report.error(sp.at("id"), f"species {sp['id']}: {'; '.join(parts)} (one card per number 1–9)",
                         "hockey")
    for column, what in (("colour", "colour"), ("coloradd_code", "ColorADD code")):
        first: dict[str, Record] = {}
        for sp in records["species"]:
            value = sp[column]
            key = value.upper() if column == "colour" else value
            if key in first:
                other = first[key]
                report.error(sp.at(column), f"{what} {value!r} is already {other['id']}'s (row {other.ref.row}); "
                                            "each species needs its own (ASD-A16)", "unique")
            else:
                first[key] = sp


def _check_symbol_totals(records: Records, report: Report) -> None:
    """ASD-A3: the symbols are spread evenly over the deck (21 or 22 each for 108 cards and 5 symbols)."""
    symbols = records["symbols"]
    if not symbols:
        return
    totals = Counter(rec["symbol"] for rec in records["hockey"])
    cards = len(records["hockey"])
    low, high = cards // len(symbols), -(-cards // len(symbols))
    for sym in symbols:
        n = totals.get(sym["id"], 0)
        if not low <= n <= high:
            even = f"{low}" if low == high else f"{low} or {high}"
            report.warning(sym.at("id"), f"symbol {sym['id']} is on {n} hockey cards; spread evenly the "
                                         f"{len(symbols)} symbols would be on {even} each of the {cards} "
                                         "(ASD-A3)", "distribution")


def _check_orders(records: Records, report: Report) -> None:
    """Each side orders each attribute: every value once, positions 1..n (ASD-A2); Caribou above Horse on
    every species order (seed); Puck above Skate so that ASD-T4 (Isa's Pucks beat Nathan's Skates) holds."""
    values = attribute_values(records)
    groups: dict[tuple[str, str], list[Record]] = defaultdict(list)
    for rec in records["orders"]:
        groups[(rec["side"], rec["attribute"])].append(rec)
    for side in SIDES:
        for attr in ATTRIBUTES:
            recs = groups.get((side, attr))
            if not recs:
                report.error(_sheet_ref(records, "orders"), f"side {side} has no {attr} order (rows with side "
                                                            f"{side}, attribute {attr})", "order")
                continue
            expected = values[attr]
            seen: dict[str, Record] = {}
            for rec in recs:
                value = rec["value"]
                if value in seen:
                    report.error(rec.at("value"), f"{value!r} appears twice in the {attr} order of side {side} "
                                                  f"(first at row {seen[value].ref.row})", "order")
                else:
                    seen[value] = rec
                if rec["position"] > len(expected):
                    report.error(rec.at("position"), f"position {rec['position']}, but the {attr} order has "
                                                     f"{len(expected)} values (positions 1–{len(expected)})",
                                 "order")
            missing = [v for v in expected if v not in seen]
            if missing:
                report.error(recs[0].at("attribute"), f"the {attr} order of side {side} does not name "
                                                      f"{', '.join(map(repr, missing))}", "order")
            if attr == "species":
                _above(seen, "caribou", "horse", side, attr, report, warning=False,
                       why="the rulebook ranks Caribou above Horse (ASD-A2, ASD-T10)")
            if attr == "symbol":
                _above(seen, "puck", "skate", side, attr, report, warning=True,
                       why="the example ASD-T4 (Isa's three Pucks beat Nathan's three Skates) needs puck "
                           "above skate")


def _above(seen: dict[str, Record], high: str, low: str, side: str, attr: str, report: Report, warning: bool,
           why: str) -> None:
    if high not in seen or low not in seen:
        return
    up, down = seen[high], seen[low]
    if down["position"] < up["position"]:
        message = (f"{low} (row {down.ref.row}, position {down['position']}) is above {high} "
                   f"(row {up.ref.row}, position {up['position']}) in the {attr} order of side {side}; {why}")
        (report.warning if warning else report.error)(down.at("value"), message, "order")


def _check_tiebreak_sides(records: Records, report: Report) -> None:
    """Both sides of the Tie-Breakers card exist; gold, silver, bronze are the 3 attributes once each (ASD-A1)."""
    sides = set()
    for rec in records["tiebreak_sides"]:
        sides.add(rec["side"])
        seen: dict[str, str] = {}
        for medal in MEDALS:
            attr = rec[medal]
            if attr in seen:
                absent = [a for a in ATTRIBUTES if a not in (rec[m] for m in MEDALS)]
                report.error(rec.at(medal), f"{medal} repeats {attr!r} (already {seen[attr]}) and "
                                            f"{', '.join(absent)} is missing; gold, silver and bronze are "
                                            f"{', '.join(ATTRIBUTES)} in some order", "tiebreak")
            else:
                seen[attr] = medal
    for side in SIDES:
        if side not in sides:
            report.error(_sheet_ref(records, "tiebreak_sides"), f"no row for side {side}: the Tie-Breakers "
                                                                "cards are printed on both sides", "tiebreak")


def _check_arenas(records: Records, params: Parameters, low: int, high: int, report: Report) -> None:
    """Icons are known; unusual_count is printed iff some player count in the game's range uses a prefix
    p1..pN that is not non-increasing (ASD-A4); an arena that pays the loser more at 2 managers should carry
    not_for_2 (guidance, §6); enough arenas remain for the arenas a game reveals (ASD-A6)."""
    arenas = records["arenas"]
    playable_with_2 = 0
    for rec in arenas:
        icons = parse_icons(rec["icons"])
        for i, icon in enumerate(icons):
            if icon not in ICONS:
                report.error(rec.at("icons"), f"{icon!r} is not one of {', '.join(ICONS)}"
                                              f"{suggest(icon, ICONS)}", "enum")
            elif icon in icons[:i]:
                report.error(rec.at("icons"), f"{icon!r} is listed twice", "arena")
        if "not_for_2" not in icons:
            playable_with_2 += 1
        points = [rec[f"p{rank}"] for rank in range(1, 7)]
        first_rise = first_increase(points, low, high)
        if first_rise and "unusual_count" not in icons:
            n = first_rise
            report.error(rec.at("icons"), f"with {n} managers rank {n} scores {points[n - 1]}, more than rank "
                                          f"{n - 1} ({points[n - 2]}): list unusual_count in icons", "arena")
        elif not first_rise and "unusual_count" in icons:
            shown = "/".join(str(p) for p in points[:high])
            report.error(rec.at("icons"), f"unusual_count, but the points {shown} never increase with rank for "
                                          f"{low}–{high} managers: remove the icon", "arena")
        if low <= 2 and points[1] > points[0] and "not_for_2" not in icons:
            report.warning(rec.at("icons"), f"with 2 managers the loser scores more (p2 {points[1]} > p1 "
                                            f"{points[0]}): add not_for_2", "arena")
    rounds = params.values.get("rounds")
    if not rounds:
        return
    revealed = rounds * (rounds + 1) // 2
    shown = " + ".join(str(r) for r in range(1, rounds + 1))
    if len(arenas) < revealed:
        report.error(_sheet_ref(records, "arenas"), f"only {len(arenas)} arenas, but a game reveals "
                                                    f"{shown} = {revealed}", "arena")
    elif low <= 2 and playable_with_2 < revealed:
        report.error(_sheet_ref(records, "arenas"), f"only {playable_with_2} arenas lack not_for_2, but a "
                                                    f"2-manager game reveals {shown} = {revealed} (ASD-A6)",
                     "arena")


def first_increase(points: list[int], low: int = 2, high: int = 6) -> int | None:
    """The smallest N in low..high whose ranks 1..N are not paid in non-increasing order, else None."""
    for n in range(max(2, low), high + 1):
        if any(points[i] > points[i - 1] for i in range(1, n)):
            return n
    return None


def _check_playoff_points(records: Records, low: int, high: int, report: Report) -> None:
    """A row for every (managers, rank ≤ managers) the game can meet, none beyond; points never increase with
    rank (ASD-A8); the seed's only value, 11 for the 4th of 4 managers (ASD-T9), as a warning."""
    table: dict[int, dict[int, Record]] = defaultdict(dict)
    for rec in records["playoff_points"]:
        managers, rank = rec["managers"], rec["rank"]
        if rank > managers:
            report.error(rec.at("rank"), f"rank {rank} with {managers} managers: ranks go from 1 to {managers}",
                         "playoff")
        else:
            table[managers][rank] = rec
    for managers in range(low, high + 1):
        missing = [str(r) for r in range(1, managers + 1) if r not in table[managers]]
        if missing:
            report.error(_sheet_ref(records, "playoff_points"), f"no points for rank {', '.join(missing)} with "
                                                                f"{managers} managers", "playoff")
    for managers, ranks in sorted(table.items()):
        previous = None
        for rank, rec in sorted(ranks.items()):
            if previous is not None and rec["points"] > previous["points"]:
                report.error(rec.at("points"), f"{rec['points']} supporters for rank {rank} with {managers} "
                                               f"managers is more than {previous['points']} for rank "
                                               f"{previous['rank']}: playoff points never increase with rank",
                             "playoff")
            previous = rec
    fourth = table.get(4, {}).get(4)
    if fourth is not None and fourth["points"] != 11:
        report.warning(fourth.at("points"), f"{fourth['points']} supporters for the 4th of 4 managers; the "
                                            "rulebook's example gives 11 (ASD-T9)", "playoff")


def box_tickets(records: Records) -> int:
    """Playoff tickets in the box: the manifest's `ticket` row, else 4."""
    for rec in records.get("components", ()):
        if rec["component"] == "ticket":
            return rec["count"]
    return DEFAULT_TICKETS


def _check_parameters(records: Records, params: Parameters, report: Report) -> None:
    v = params.values
    species = len(records["species"])
    per_species = len(NUMBERS)

    def has(*names: str) -> bool:
        return all(name in v for name in names)

    # the player range must be a range
    if has("players_min", "players_max") and v["players_min"] > v["players_max"]:
        report.error(params.at("players_min"), f"players_min {v['players_min']} is above players_max "
                                               f"{v['players_max']}", "range")
    # a substitution replaces between min and max cards of the team: min ≤ max ≤ team size
    if has("min_substitution", "max_substitution") and v["min_substitution"] > v["max_substitution"]:
        report.error(params.at("min_substitution"), f"min_substitution {v['min_substitution']} is above "
                                                    f"max_substitution {v['max_substitution']}", "range")
    if has("max_substitution", "team_size") and v["max_substitution"] > v["team_size"]:
        report.error(params.at("max_substitution"), f"max_substitution {v['max_substitution']} replaces more "
                                                    f"cards than a team has (team_size {v['team_size']})", "range")
    # round 1's team is built from that round's draft alone
    if has("team_size", "hand_size") and v["team_size"] > v["hand_size"]:
        report.error(params.at("team_size"), f"team_size {v['team_size']} is more than the {v['hand_size']} "
                                             "cards drafted in round 1 (hand_size)", "rules")
    # standard draft: the 2N species (18N cards) are dealt out exactly, hand_size × rounds per manager (ASD-T14)
    if has("species_per_manager", "hand_size", "rounds"):
        deck, dealt = v["species_per_manager"] * per_species, v["hand_size"] * v["rounds"]
        if deck < dealt:
            report.error(params.at("species_per_manager"), f"{v['species_per_manager']} species per manager "
                         f"give {deck} cards per manager, but {v['rounds']} rounds deal {dealt} "
                         f"(hand_size {v['hand_size']})", "rules")
        elif deck > dealt:
            report.warning(params.at("species_per_manager"), f"{v['species_per_manager']} species per manager "
                           f"give {deck} cards per manager, but {v['rounds']} rounds deal only {dealt}: "
                           f"{deck - dealt} per manager are never dealt", "rules")
    # the most managers must find their species in the box
    if has("species_per_manager", "players_max") and v["species_per_manager"] * v["players_max"] > species:
        report.error(params.at("species_per_manager"), f"{v['players_max']} managers × "
                     f"{v['species_per_manager']} species need {v['species_per_manager'] * v['players_max']} "
                     f"species, but the box has {species}", "rules")
    # tickets per manager never exceed the box: tickets_N × N ≤ tickets in the box (ASD-A7)
    tickets = box_tickets(records)
    low, high = _players(params)
    for name, counts in (("tickets_2", (2,)), ("tickets_3", (3,)), ("tickets_4plus", tuple(range(4, 7)))):
        counts = [n for n in counts if low <= n <= high]
        if name in v and counts and v[name] * max(counts) > tickets:
            n = max(counts)
            report.error(params.at(name), f"{name} = {v[name]} per manager needs {v[name] * n} tickets with {n} "
                                          f"managers, but the box has {tickets} (components › ticket)", "rules")
    # Heritage and Duel (2 managers): the deck holds both hands of every round; each keeps hand − 1 ≥ a team
    if has("duo_species", "duo_hand_size", "rounds"):
        used = 2 * v["duo_hand_size"] * v["rounds"]
        _mode_deck(report, params, "duo_species", species, per_species,
                   f"Heritage and Duel deal {used} ({v['rounds']} rounds × 2 hands of {v['duo_hand_size']})", used)
    if has("duo_hand_size", "team_size") and v["duo_hand_size"] - 1 < v["team_size"]:
        report.error(params.at("duo_hand_size"), f"in Heritage and Duel each manager keeps duo_hand_size − 1 = "
                     f"{v['duo_hand_size'] - 1} cards a round, fewer than a team ({v['team_size']})", "rules")
    # Open Market (2 managers): each round reveals hand_size triples, 3 × hand_size cards
    if has("open_market_species", "hand_size", "rounds"):
        used = 3 * v["hand_size"] * v["rounds"]
        _mode_deck(report, params, "open_market_species", species, per_species,
                   f"Open Market reveals {used} ({v['rounds']} rounds × {v['hand_size']} triples)", used)


# --- `pnp validate allstar` ------------------------------------------------------------------------------

def summary(records: Records) -> list[str]:
    v = rules(records, RULE_PARAMETERS).values
    low, high = sorted((v.get("players_min", 2), v.get("players_max", 6)))
    spm, hand, rounds = v.get("species_per_manager", 2), v.get("hand_size", 6), v.get("rounds", 3)
    per_species = len(NUMBERS)
    decks = "; ".join(f"N={n}: {spm * n} species, {spm * n * per_species} cards" for n in range(low, high + 1))
    lines = [f"standard draft deck: {decks} ({hand} cards per manager per round, {hand * rounds} each at the "
             "playoffs)"]
    if low <= 2:
        duo, duo_hand, om = v.get("duo_species", 5), v.get("duo_hand_size", 7), v.get("open_market_species", 6)
        lines.append(f"2 managers ({v.get('mode', 'heritage')} in the rules): Heritage/Duel {duo} species = "
                     f"{duo * per_species} cards, {2 * duo_hand * rounds} dealt; Open Market {om} species = "
                     f"{om * per_species} cards, {3 * hand * rounds} revealed")
    totals = Counter(rec["symbol"] for rec in records["hockey"])
    spread = ", ".join(f"{sym['name']} {totals.get(sym['id'], 0)}" for sym in records["symbols"])
    lines.append(f"symbols over {len(records['hockey'])} hockey cards: {spread}")
    icons = Counter(icon for rec in records["arenas"] for icon in parse_icons(rec["icons"]))
    arenas = len(records["arenas"])
    revealed = rounds * (rounds + 1) // 2
    for_2 = sum(1 for rec in records["arenas"] if "not_for_2" not in parse_icons(rec["icons"]))
    lines.append(f"arenas: {arenas}, {for_2} playable with 2 managers "
                 f"({revealed} revealed per game), {icons.get('unusual_count', 0)} with unusual points")
    lines.append("arena icons: " + ", ".join(f"{icon} {icons.get(icon, 0)}" for icon in ICONS))
    return lines


def _mode_deck(report: Report, params, name: str, species: int, per_species: int, need: str, used: int) -> None:
    """A 2-manager mode's deck (`name` species of the box) must exist and hold the cards the mode uses."""
    count = params.values[name]
    if count > species:
        report.error(params.at(name), f"{name} {count} is more than the {species} species in the box", "rules")
    elif count * per_species < used:
        report.error(params.at(name), f"{count} species give {count * per_species} cards, but {need}", "rules")
