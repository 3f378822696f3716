"""NBA Deck-Building's records -> what to print (shared/games/nba-deck-building.md §1, App. C): the cards,
boards and sheets (cards.py), the dice (dice.py) and the rulebook (../rulebook/)."""

from __future__ import annotations

from pipeline.data.params import rules
from pipeline.data.specs import Component, Records
from pipeline.games.nba.schema import RULE_PARAMETERS


def parameters(records: Records) -> dict:
    return dict(rules(records, RULE_PARAMETERS).values)


def components(records: Records) -> list[Component]:
    from pipeline.games.nba.components.cards import card_components
    from pipeline.games.nba.components.dice import dice_components
    from pipeline.games.nba.rulebook import rulebook

    rules = parameters(records)
    parts = card_components(records, rules) + dice_components(records, rules)
    return parts + [rulebook(records, rules, parts)]
