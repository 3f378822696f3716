"""NBA Deck-Building's records -> what to print (shared/games/nba-deck-building.md §1, App. C): the cards,
boards and sheets (cards.py), the dice (dice.py) and the rulebook (../rulebook/)."""

from __future__ import annotations

from pipeline.data.specs import Component, Records
from pipeline.games.kit import parameters_from_rules
from pipeline.games.nba.schema import RULE_PARAMETERS


parameters = parameters_from_rules(RULE_PARAMETERS)     # parameters(records): the rules sheet, typed, as a dict


def components(records: Records) -> list[Component]:
    from pipeline.games.nba.components.cards import card_components
    from pipeline.games.nba.components.dice import dice_components
    from pipeline.games.nba.rulebook import rulebook

    rules = parameters(records)
    parts = card_components(records, rules) + dice_components(records, rules)
    return parts + [rulebook(records, rules, parts)]
