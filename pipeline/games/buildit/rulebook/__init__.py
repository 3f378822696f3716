"""What Build It's rulebook chapters (templates/buildit/rules/*.md) see: numbers and tables from the
workbook, and the figures (real faces rendered from the data) they may show by name."""

from __future__ import annotations

from dataclasses import replace

from pipeline.data.specs import BoardSpec, CardDeck, Component, FaceSpec, PageSpec, Records, RulebookSpec
from pipeline.games.buildit.checks import contract_plots, gold_distribution
from pipeline.games.buildit.components import COLOURS, FIVE_COINS, normal_models, parameters
from pipeline.games.buildit.rulebook.diagrams import board_context, board_figures, plan_figures

DECK_FIGURES = {"cities": "city", "contracts": "contract", "normal": "normal"}
SHOWN = ("board", "calendar", "pawns", "coins", "aids", "score-sheet")      # the other components it shows


def with_rulebook(records: Records, parts: list[Component]) -> list[Component]:
    """The printed components and, last, the rulebook showing them."""
    rules = parameters(records)
    by_id = {part.id: part for part in parts}
    decks = [by_id[deck_id] for deck_id in DECK_FIGURES]
    figures = rulebook_figures(records, rules, decks, [by_id[part_id] for part_id in SHOWN])
    figures.update(board_figures(by_id["pawns"], rules["board_size"]))
    figures.update(plan_figures(records))
    return [*parts, RulebookSpec("rulebook", "Règles du jeu", "rules", rulebook_context(records, rules), figures)]


def rulebook_context(records: Records, rules: dict) -> dict:
    names = {r["model"]: r["name"] for r in records["normal_cards"]}
    contracts = [{**rec.values, "immune_name": names.get(rec["immune_to"], "")} for rec in records["contracts"]]
    counts_sheet = {r["component"]: r["count"] for r in records["components"]}
    normal = normal_models(records)
    gold = gold_distribution(records)
    counts = {
        "cities": len(records["cities"]),
        "contracts": sum(c["copies"] for c in contracts),
        "contract_models": len(contracts),
        "contract_plots": contract_plots(records),
        "normal": sum(m["copies"] for m in normal),
        "normal_models": len(normal),
        "coins": counts_sheet.get("coin", 60),
        "five_coins": FIVE_COINS,
        "pawns_per_state": rules["pawns_per_state"],
        "colours": len(COLOURS),
        "pawns": len(COLOURS) * 3 * rules["pawns_per_state"],
        "plots": rules["board_size"] ** 2,
        "aids": counts_sheet.get("aid", len(COLOURS)),
    }
    counts["cards"] = counts["cities"] + counts["contracts"] + counts["normal"]
    return {
        "game": {"title": "Build It"},
        "rules": rules,
        "counts": counts,
        "contracts": contracts,
        "cities": [dict(rec.values) for rec in records["cities"]],
        "normal": normal,
        "expected_gold": {"contract": float(gold["contracts"][1]), "normal": float(gold["normal"][1])},
        "boards": board_context(),
    }


def rulebook_figures(records: Records, rules: dict, decks: list[CardDeck], others: list) -> dict[str, FaceSpec]:
    """Figure name -> face: card-<kind>-<row id>, back-<kind>, board, calendar, pawn-<colour>-<state>,
    coin-1, coin-5, aid, score-sheet (the drawn diagrams, board-* and plan-*, are diagrams.py's)."""
    figures: dict[str, FaceSpec] = {}
    for deck in decks:
        kind = DECK_FIGURES[deck.id]
        for face in deck.fronts:
            row_id = face.name.rsplit("-", 1)[0] if face.context["card"]["copies"] > 1 else face.name
            figures.setdefault(f"card-{kind}-{row_id}", face)
        if deck.backs:
            figures[f"back-{kind}"] = deck.backs[0]
    for component in others:
        if isinstance(component, BoardSpec):
            figures[component.id] = replace(component.face, size_mm=component.size_mm)
        elif isinstance(component, PageSpec):
            figures[component.id] = component.faces[0]
        elif component.id == "calendar":
            figures["calendar"] = component.fronts[0]
        elif component.id == "pawns":
            for face in component.fronts:
                figures.setdefault(f"pawn-{face.context['colour']}-{face.context['state']}", face)
        elif component.id == "coins":
            for face in component.fronts:
                if face.template == "coin.yaml":
                    figures.setdefault(f"coin-{face.context['value']}", face)
        elif component.id == "aids":
            figures["aid"] = component.fronts[0]
    return figures
