"""What Challengers' rulebook chapters (templates/challengers/rules/*.md) see: the box and the workbook's tables
(material.py), the effects' timings with a real card each (keywords.py), a match told card by card and played
by the engine (told_match.py), the end of a game by the engine's scoring rules (endings.py), and the figures
they may show by name: the real faces (card-<id>, back-<id>) and the drawn figures (figures.py: the told
match's piles and benches)."""

from __future__ import annotations

from pipeline.data.specs import FaceSpec, Records, RulebookSpec
from pipeline.games.challengers.components import parameters
from pipeline.games.challengers.rulebook import material
from pipeline.games.challengers.rulebook.endings import final_example, lead_example
from pipeline.games.challengers.rulebook.figures import match_figures
from pipeline.games.challengers.rulebook.keywords import timings
from pipeline.games.challengers.rulebook.told_match import told_match
from pipeline.games.kit import deck_figures
from pipeline.render.markup import Markdown, shield


def samples(records: Records) -> dict:
    """Ids of the cards the cover and the chapters show: a starter card, and for each level (A, B, C) the
    strongest card with a keyword of a set not shown yet (sets in sheet order, City and robot aside)."""
    city = {rec["id"] for rec in records["sets"] if rec["always_used"]}
    robot = {rec["id"] for rec in records["sets"] if rec["robot"]}
    cards = [rec for rec in records["cards"] if rec["set"] not in robot]
    best, shown = {}, set()
    for level in ("A", "B", "C"):
        mine = [rec for rec in cards if rec["level"] == level and rec["set"] not in city | shown
                and rec["keyword"] != "none"]
        mine = mine or [rec for rec in cards if rec["level"] == level]
        pick = max(mine, key=lambda rec: rec["strength"]) if mine else None
        best[level] = pick["id"] if pick else ""
        shown |= {pick["set"]} if pick else set()
    starters = [rec["card"] for rec in records["starter"]]
    per_set = {}
    for rec in records["cards"]:
        per_set.setdefault(rec["set"], rec["id"])
    return {"starter": starters[-1] if starters else "", "starters": starters, "A": best["A"], "B": best["B"],
            "C": best["C"], "per_set": per_set}


def rulebook_context(records: Records, rules: dict, figure_names: set[str] | frozenset[str] = frozenset()) -> dict:
    names = frozenset(figure_names)

    def figure(caption: str, *wanted: str) -> Markdown | str:
        """The Markdown of a figure row, or nothing when one of its faces does not exist (yet)."""
        if not wanted or any(name not in names for name in wanted):
            return ""
        return Markdown(f"![{shield(caption)}](figure:{shield(','.join(wanted))})")

    return {"game": {"title": "Challengers"}, "rules": rules, "counts": material.counts(records, rules),
            "sets": material.sets(records, rules["players_max"]), "starter": material.starter(records),
            "schedule": material.schedule(records), "trophies": material.trophies(records),
            "robot": material.robot(records), "components": material.components(records),
            "lead": lead_example(rules), "final": final_example(material.trophies(records), rules),
            "timing": {item["keyword"]: item for item in timings(records)}, "match": told_match(records, rules),
            "samples": samples(records),
            "figures": sorted(names), "figure": figure}


def rulebook_figures(parts: list) -> dict[str, FaceSpec]:
    """card-<name> for the first copy of every card or token (card-city_recrue, card-trophies-r7, card-flag,
    card-fan1) and back-<name> for every distinct back (back-A, back-robot-R, back-trophies-r7-public). Pages
    (bench mat, track, pairing chart) are not shown: drawn in a column their words would print at 4 pt."""
    return deck_figures(parts, lambda deck, back: back.name if back.name.startswith("back-") else f"back-{back.name}")


def rulebook(records: Records, parts: list) -> RulebookSpec:
    rules = parameters(records)
    figures: dict = rulebook_figures(parts)
    context = rulebook_context(records, rules, set(figures))
    figures.update(match_figures(figures, context["match"], rules))
    context = rulebook_context(records, rules, set(figures))
    return RulebookSpec("rulebook", "Règles du jeu", "rules", context, figures)


def with_rulebook(records: Records, parts: list) -> list:
    """The printed components and, last, the rulebook showing them."""
    return [*parts, rulebook(records, parts)]
