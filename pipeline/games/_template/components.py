"""TEMPLATE: what is printed, as specs the generic layer lays out and writes (CardDeck, BoardSpec, PageSpec,
DiceSpec); the rulebook is added after them (rulebook.with_rulebook)."""

from __future__ import annotations

from pipeline.data.params import rules
from pipeline.data.specs import Component, Records
from pipeline.games._template.schema import RULE_PARAMETERS


def parameters(records: Records) -> dict:
    """The rules sheet, typed (read once, in stage 2)."""
    return dict(rules(records, RULE_PARAMETERS).values)


def components(records: Records) -> list[Component]:
    return []
