"""Build It's records -> what to print (card decks and their templates). No drawing here."""

from __future__ import annotations

from pipeline.games.base import CardDeck, FaceSpec, Records
from pipeline.schema import expand

POKER = (63.5, 88.9)


def _faces(records, quantity, front: str, back: str, context_of) -> tuple[tuple, tuple]:
    fronts, backs = [], []
    for index, (rec, copy, copies) in enumerate(expand(records, quantity), start=1):
        card = {"index": index, "copy": copy, "copies": copies}
        name = f"{rec['id']}-{copy}" if copies > 1 else rec["id"]
        label = f"{rec['name']} ({rec.ref.sheet} row {rec.ref.row}, copy {copy}/{copies})"
        fronts.append(FaceSpec(front, {**context_of(rec), "card": card}, rec.ref, name, label))
        backs.append(FaceSpec(back, {"card": card}, rec.ref, f"{name}-back", f"back of {label}"))
    return tuple(fronts), tuple(backs)


def components(records: Records) -> list[CardDeck]:
    names = {r["model"]: r["name"] for r in records["normal_cards"]}

    def contract(rec):
        return {**rec.values, "immune_name": names.get(rec["immune_to"], "")}

    decks = []
    for deck_id, title, sheet, front, back, ctx in (
        ("cities", "Cartes Ville", "cities", "city.yaml", "back-city.yaml", lambda r: dict(r.values)),
        ("contracts", "Contrats", "contracts", "contract.yaml", "back-contract.yaml", contract),
        ("normal", "Cartes Normales", "normal_cards", "normal.yaml", "back-normal.yaml", lambda r: dict(r.values)),
    ):
        quantity = "copies" if sheet != "cities" else None
        fronts, backs = _faces(records[sheet], quantity, front, back, ctx)
        decks.append(CardDeck(deck_id, title, fronts, backs, POKER))
    return decks
