"""TEMPLATE: what the rulebook chapters (templates/<game>/rules/NN-name.md) and its cover (rules/cover.yaml)
see, and the rulebook added last, after the components it may show as figures (![caption](figure:<name>))."""

from __future__ import annotations

from pipeline.data.specs import Component, Records, RulebookSpec
from pipeline.games._template.components import parameters
from pipeline.games.kit import deck_figures


def with_rulebook(records: Records, parts: list[Component]) -> list[Component]:
    """The printed components and, last, the rulebook showing them: card-<id> for each card, back-<deck>."""
    figures = deck_figures(parts, lambda deck, back: f"back-{deck.id}")
    rules = parameters(records)
    return [*parts, RulebookSpec("rulebook", "Règles du jeu", "rules", rulebook_context(records, rules), figures)]


def rulebook_context(records: Records, rules: dict) -> dict:
    """The values the chapters' jinja2 sees: numbers come from the workbook, never from the text."""
    return {"game": {"title": "Template"}, "rules": rules,
            "runners": [dict(rec.values) for rec in records["runners"]]}
