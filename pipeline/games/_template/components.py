"""TEMPLATE: what is printed, as specs the generic layer lays out and writes (CardDeck, BoardSpec, PageSpec,
DiceSpec); the rulebook is added after them (rulebook.with_rulebook). Each face names its template under
templates/<game>/ and the values it is drawn with; its ref points at the row, so a problem found while
drawing (a text that overflows) names the cell."""

from __future__ import annotations

from pipeline.data.specs import CardDeck, Component, FaceSpec, Records
from pipeline.games._template.schema import RULE_PARAMETERS
from pipeline.games.kit import parameters_from_rules

POKER = (63.5, 88.9)
TRACK_SQUARES = 30          # the runner card's track: five squares a row, six rows fit above the flavour text

parameters = parameters_from_rules(RULE_PARAMETERS)     # parameters(records): the rules sheet, typed, as a dict


def components(records: Records) -> list[Component]:
    """Everything printed but the rulebook, which shows these (rulebook.with_rulebook adds it)."""
    return [runner_cards(records, parameters(records))]


def runner_cards(records: Records, rules: dict) -> CardDeck:
    """One card per row of the runners sheet, all with the same back."""
    fronts, backs = [], []
    rows = records["runners"]
    for index, rec in enumerate(rows, start=1):
        card = {"index": index, "copy": 1, "copies": 1}
        label = f"{rec['name']} ({rec.ref.sheet} row {rec.ref.row})"
        fronts.append(FaceSpec("runner.yaml", {**rec.values, "rules": rules, "card": card}, rec.ref, rec["id"], label))
        backs.append(FaceSpec("back.yaml", {"card": card}, rec.ref, f"{rec['id']}-back", f"back of {label}"))
    return CardDeck("runners", "Cartes Coureur", tuple(fronts), tuple(backs), POKER)
