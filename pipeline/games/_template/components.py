"""TEMPLATE: what is printed, as specs the generic layer lays out and writes (CardDeck, BoardSpec, PageSpec,
DiceSpec); the rulebook is added after them (rulebook.with_rulebook)."""

from __future__ import annotations

from pipeline.games._template.schema import RULE_PARAMETERS
from pipeline.games.base import Component, Records
from pipeline.params import read_parameters


def parameters(records: Records) -> dict:
    """The rules sheet, typed (stage 2 has reported its problems already)."""
    from pipeline.errors import Report

    return dict(read_parameters(records["rules"], RULE_PARAMETERS, Report()).values)


def components(records: Records) -> list[Component]:
    return []
