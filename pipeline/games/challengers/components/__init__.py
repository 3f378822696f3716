"""Challengers' records -> what to print (shared/games/challengers.md §1.2): the cards of every set and the
robot's (cards.py), the trophies, flags and fan tokens (tokens.py), the bench mats, the round track, the
pairing chart, the player aids and the robot reference (pages.py); the rulebook is added after them
(rulebook.with_rulebook). No drawing here: templates/challengers/*.yaml draw, and every number or word they
print comes from the workbook, the rules sheet or the engine's pairing.

Counts the workbook holds no rows for (flags, fan tokens, mats, aids) come from the components sheet, so the
printed material is the material the rulebook announces."""

from __future__ import annotations

from pipeline.data.specs import Component, Records
from pipeline.games.challengers.components.cards import card_decks, set_looks
from pipeline.games.challengers.components.pages import aid, bench_mats, pairing_chart, robot_reference, round_track
from pipeline.games.challengers.components.tokens import fan_tokens, flags, trophies
from pipeline.games.challengers.schema import RULE_PARAMETERS
from pipeline.games.kit import parameters_from_rules

__all__ = ["announced", "components", "parameters"]


parameters = parameters_from_rules(RULE_PARAMETERS)     # parameters(records): the rules sheet, typed, as a dict


def announced(records: Records) -> dict[str, int]:
    """The components sheet's counts (component id -> count)."""
    return {r["component"]: r["count"] for r in records.get("components", ())}


def components(records: Records) -> list[Component]:
    """Everything printed but the rulebook, which shows these (rulebook.with_rulebook adds it)."""
    rules = parameters(records)
    counts = announced(records)
    looks = set_looks(records)
    return [*card_decks(records, rules, looks),
            trophies(records), flags(counts.get("flag", 4)),
            *fan_tokens({1: counts.get("fan_1", 40), 5: counts.get("fan_5", 10)}),
            bench_mats(rules, counts.get("bench", rules["players_max"])),
            round_track(records, rules), pairing_chart(rules), aid(rules, counts.get("aid", rules["players_max"])),
            robot_reference(records, looks, rules)]
