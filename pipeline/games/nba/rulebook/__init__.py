"""What NBA Deck-Building's rulebook chapters (templates/nba/rules/*.md) see: counts, tables and the worked
example computed from the workbook (rulebook_example.py), and the figures (real faces rendered from the data,
plus the fig-*.yaml diagrams) they may show by name."""

from __future__ import annotations

from dataclasses import replace

from pipeline.data.specs import BoardSpec, CardDeck, FaceSpec, PageSpec, Records, RulebookSpec
from pipeline.games.nba.engine.rules import COLOUR_OF_DIE, DEFENCE_SKILLS, DICE, OFFENCE_SKILLS, normal_turns
from pipeline.games.nba.rulebook.diagrams import diagram_figures
from pipeline.games.nba.rulebook.example import NBA_NAMES, illustration, tactic_info, worked_example
from pipeline.render.markup import Markdown, shield

SKILL_OF_COLOUR = {colour: skill for skill, colour in COLOUR_OF_DIE.items()}   # "blue" -> "3P"
INVARIABLE = ("marron", "orange", "kaki")


def plural(word: str, n: int) -> str:
    """French plural of a colour or noun for n items: "bleu" -> "bleus", "gris" and "marron" stay."""
    if n <= 1 or word.endswith(("s", "x", "z")) or word in INVARIABLE:
        return word
    return word + "s"


def decimal(value: float, digits: int = 2) -> str:
    return f"{value:.{digits}f}".replace(".", ",")


def skills_context(records: Records) -> dict[str, dict]:
    return {rec["id"]: dict(rec.values) for rec in records["skills"]}


def dice_chart(records: Records, skills: dict[str, dict]) -> list[dict]:
    """One row per die type, faces 1–6: value, face colour (defensive dice), its French name and letter."""
    faces: dict[str, list[dict]] = {code: [] for code in DICE}
    for rec in sorted(records["dice"], key=lambda r: (r["die"], r["face"])):
        colour = rec.get("colour")
        offensive = skills.get(SKILL_OF_COLOUR.get(colour, ""), {})
        faces[rec["die"]].append({"face": rec["face"], "value": rec["value"], "colour": colour,
                                  "colour_name": offensive.get("colour_name", ""),
                                  "letter": offensive.get("letter", "")})
    chart = []
    for code in DICE:
        row = faces[code]
        total = sum(f["value"] for f in row)
        skill = skills.get(code, {})
        chart.append({"id": code, "name": skill.get("name", code), "colour_name": skill.get("colour_name", ""),
                      "letter": skill.get("letter", ""), "kind": "offence" if code in OFFENCE_SKILLS else "defence",
                      "faces": row, "sum": total, "max": max((f["value"] for f in row), default=0), "mean": decimal(total / len(row)) if row else "0",
                      "blanks": sum(1 for f in row if f["value"] == 0),
                      "by_colour": {c: sum(f["value"] for f in row if f["colour"] == c) for c in COLOUR_OF_DIE.values()},
                      "faces_of_colour": {c: sum(1 for f in row if f["colour"] == c) for c in COLOUR_OF_DIE.values()}})
    return chart


def offensive_colours(skills: dict[str, dict]) -> list[dict]:
    """blue, yellow, red: the offensive skill each colour belongs to, with its French name and letter."""
    return [{"colour": COLOUR_OF_DIE[code], "skill": code, "skill_name": skills.get(code, {}).get("name", code),
             "colour_name": skills.get(code, {}).get("colour_name", ""), "letter": skills.get(code, {}).get("letter", "")}
            for code in OFFENCE_SKILLS]


def durations(records: Records, rules: dict) -> list[dict]:
    rows = []
    for rec in records["durations"]:
        pile = rec["pile_cards"]
        source = rec.get("source_pile_cards")
        rows.append({**rec.values, "total_turns": 2 * rec["turns_per_player"],
                     "countdown_turns": normal_turns(pile, rules["track_slots"]),
                     "erratum": source is not None and source != pile, "chosen": rec["length"] == rules["length"]})
    return rows


def keep_words(tactic: dict, skills: dict[str, dict]) -> str:
    """"2 gris (Contre) + 1 marron (Stop)": the dice a tactic keeps, by colour, with the skill's name."""
    parts = []
    for code, n in tactic["keep"].items():
        skill = skills.get(code, {})
        parts.append(f"{n} {plural(skill.get('colour_name', code), n)} ({skill.get('name', code)})")
    return " + ".join(parts)


def tactic_index(records: Records, skills: dict[str, dict]) -> list[dict]:
    """Set A's base tactics (set B is the same) then the market models, offence first, by complexity."""
    rows = []
    for rec in records["tactics"]:
        if rec["set"] == "B":
            continue
        info = tactic_info(rec)
        rows.append({**info, "base": rec["set"] != "market", "keep_words": keep_words(info, skills),
                     "dice_kept": sum(info["keep"].values()),
                     "skill_names": [skills.get(code, {}).get("name", code) for code in info["skills"]]})
    rows.sort(key=lambda r: (not r["base"], r["type"] != "offence", r["complexity"], r.get("cost") or 0, r["name"]))
    return rows


def counts(records: Records, rules: dict) -> dict:
    players, tactics = records["players"], records["tactics"]
    manifest = {r["component"]: r["count"] for r in records["components"]}
    set_a = [r for r in players if r["set"] == "A"]
    base_a = [r for r in tactics if r["set"] == "A"]
    market = [r for r in tactics if r["set"] == "market"]
    copies = lambda rows: sum(int(r.get("copies") or 0) for r in rows)  # noqa: E731
    dice_per_player = sum(int(r.get("dice_per_player") or 0) for r in records["skills"])
    sets = len({r["set"] for r in players if r["set"] != "NBA"}) or 2
    out = {
        "players": len(players), "starting_sets": sets, "starting_per_set": len(set_a),
        "starters": sum(1 for r in set_a if r["kind"] == "starter"),
        "substitutes": sum(1 for r in set_a if r["kind"] == "substitute"),
        "init_starters": sum(1 for r in set_a if r["kind"] == "starter" and r.get("initiation")),
        "init_substitutes": sum(1 for r in set_a if r["kind"] == "substitute" and r.get("initiation")),
        "nba": sum(1 for r in players if r["set"] == "NBA"),
        "tactics": copies(tactics), "base_per_set": copies(base_a),
        "base_offence": copies([r for r in base_a if r["type"] == "offence"]),
        "base_defence": copies([r for r in base_a if r["type"] == "defence"]),
        "init_offence": copies([r for r in base_a if r["type"] == "offence" and r.get("initiation")]),
        "init_defence": copies([r for r in base_a if r["type"] == "defence" and r.get("initiation")]),
        "market": copies(market), "market_models": len(market),
        "fatigue": copies(records["fatigue"]),
        "dice_per_player": dice_per_player,
        "dice_per_skill": {r["id"]: int(r.get("dice_per_player") or 0) for r in records["skills"]},
        "dice": manifest.get("dice", dice_per_player * 2),
        "court": manifest.get("court_board", 2), "markets": manifest.get("markets_board", 1),
        "aids": manifest.get("player_aid", 2),
    }
    out["init_cards"] = out["init_starters"] + out["init_substitutes"] + out["init_offence"] + out["init_defence"]
    out["init_deck"] = out["init_cards"] - out["init_starters"]
    out["cards"] = out["players"] + out["tactics"] + out["fatigue"]
    return out


def lengths(rows: list[dict], rules: dict, track_slots: int) -> dict:
    """The chosen length's numbers: pile, normal turns, the turn revealing the last card, Money-time."""
    chosen = next((r for r in rows if r["chosen"]), rows[0] if rows else None)
    pile = chosen["pile_cards"] if chosen else 20
    turns = normal_turns(pile, track_slots)
    last_reveal = pile - 1
    return {"row": chosen, "pile": pile, "turns": turns, "per_player": turns // 2, "last_reveal": last_reveal,
            "final_turns": turns - last_reveal + 1,
            "money_first": turns - rules["money_time_turns"] + 1, "money_last": turns}


def samples(records: Records) -> dict:
    """Ids of the cards the chapters show: Kyle Korver (or the first NBA card), set A's first offensive and
    defensive initiation base tactics, the first market model, and the figure names of set A's initiation
    Starters."""
    def first(rows, **match) -> str:
        found = [r for r in rows if all(r.get(k) == v for k, v in match.items())]
        return found[0]["id"] if found else ""

    players, tactics = records["players"], records["tactics"]
    korver = [r["id"] for r in players if r["set"] == "NBA" and "korver" in str(r["name"]).lower()]
    return {"nba": korver[0] if korver else first(players, set="NBA"),
            "base_offence": first(tactics, set="A", type="offence", initiation=True),
            "base_defence": first(tactics, set="A", type="defence", initiation=True),
            "market": first(tactics, set="market"),
            "init_starters": [f"player-{r['id']}" for r in players
                              if r["set"] == "A" and r["kind"] == "starter" and r.get("initiation")]}


def rulebook_context(records: Records, rules: dict, figure_names: set[str] | frozenset[str] = frozenset()) -> dict:
    skills = skills_context(records)
    rows = durations(records, rules)
    names = frozenset(figure_names)

    def figure(caption: str, *wanted: str) -> Markdown | str:
        """The Markdown of a figure row, or nothing when one of its faces does not exist (yet)."""
        if not wanted or any(name not in names for name in wanted):
            return ""
        return Markdown(f"![{shield(caption)}](figure:{shield(','.join(wanted))})")   # Markdown made here

    colours = offensive_colours(skills)
    return {
        "game": {"title": "NBA Deck-Building"}, "rules": rules, "counts": counts(records, rules),
        "colour_names": {c["colour"]: c["colour_name"] for c in colours}, "samples": samples(records),
        "skills": skills, "skill_list": list(skills.values()),
        "offence_skills": list(OFFENCE_SKILLS), "defence_skills": list(DEFENCE_SKILLS),
        "colours": colours, "dice": dice_chart(records, skills),
        "durations": rows, "length": lengths(rows, rules, rules["track_slots"]),
        "tactics": tactic_index(records, skills), "example": worked_example(records, rules),
        "illustration": illustration(records, rules), "figures": sorted(names), "figure": figure,
        "plural": plural, "keep_words": lambda tactic: keep_words(tactic, skills),
    }


def rulebook_figures(parts: list) -> dict[str, FaceSpec]:
    """Figure name -> face: player-<id>, tactic-<model id> (first copy), fatigue, back, court, markets,
    aid-front, aid-back, score-sheet, dice-reference and any other page by its face name."""
    figures: dict[str, FaceSpec] = {}
    for part in parts:
        if isinstance(part, CardDeck):
            for index, face in enumerate(part.fronts):
                if part.id == "players":
                    figures.setdefault(f"player-{face.name}", face)
                elif part.id == "tactics":
                    figures.setdefault(f"tactic-{face.name.rsplit('-', 1)[0]}", face)
                elif part.id == "fatigue":
                    figures.setdefault("fatigue", face)
                if part.backs:
                    figures.setdefault("back", part.backs[index])
        elif isinstance(part, BoardSpec):
            figures[part.id] = replace(part.face, size_mm=part.size_mm)
        elif isinstance(part, PageSpec):
            for face in part.faces:
                figures.setdefault(face.name, face)
            figures.setdefault(part.id, part.faces[0])
    return figures


def shown_cards(records: Records) -> set[str]:
    """The cards the chapters may show: set A's Player cards and base tactics (set B is the same), the market
    models, and the NBA cards of the worked example (laying out all 140 Player faces again would be wasted)."""
    named = tuple(name.lower() for name in NBA_NAMES.values())
    players = {f"player-{r['id']}" for r in records["players"]
               if r["set"] == "A" or (r["set"] == "NBA" and any(n in str(r["name"]).lower() for n in named))}
    return players | {f"tactic-{r['id']}" for r in records["tactics"] if r["set"] != "B"}


def rulebook(records: Records, rules: dict, parts: list) -> RulebookSpec:
    wanted = shown_cards(records)
    figures = {name: face for name, face in rulebook_figures(parts).items()
               if not name.startswith(("player-", "tactic-")) or name in wanted}
    # the drawn diagrams read the context (the worked example, the counts); the context then names them
    figures.update(diagram_figures(parts, records, rulebook_context(records, rules, set(figures))))
    context = rulebook_context(records, rules, set(figures))
    return RulebookSpec("rulebook", "Règles du jeu", "rules", context, figures)
