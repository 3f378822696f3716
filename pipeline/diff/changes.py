"""`pnp diff GAME [OLD]`: what changed between two versions of a game's data (pipeline/diff/versions.py).

A card (every card face with a source row) is *changed* when its front or back is drawn differently, and
listed with the cells of its row that differ (`players › H17 (cost): 6 → 7`); a card whose row changed in
columns it does not print is listed apart, with nothing to reprint. The `rules` sheet's changes are listed by
parameter, with the rulebook pages whose text differs. pipeline/diff/output.py writes the PDFs."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pipeline.data.schema import Record
from pipeline.data.specs import RulebookSpec
from pipeline.diff.versions import Card, Key, Version

RULES_SHEET = "rules"
ADDED, REMOVED, CHANGED, DATA_ONLY = "added", "removed", "changed", "data only"


@dataclass(frozen=True)
class FieldChange:
    where: str                      # "players › H17 (cost)"
    old: Any
    new: Any

    def __str__(self) -> str:
        return f"{self.where}: {shown(self.old)} → {shown(self.new)}"


@dataclass
class CardChange:
    status: str                     # ADDED, REMOVED, CHANGED or DATA_ONLY
    key: Key
    label: str
    row: str                        # "players › row 17" (the new version's row; the old one for a removed card)
    fields: list[FieldChange] = field(default_factory=list)
    old: Card | None = None
    new: Card | None = None

    @property
    def new_or_old(self) -> Card:
        return self.new or self.old

    @property
    def reprint(self) -> bool:
        return self.status in (ADDED, CHANGED)


@dataclass
class Changes:
    old_label: str
    cards: list[CardChange] = field(default_factory=list)
    rules: list[FieldChange] = field(default_factory=list)
    rulebook_pages: list[int] = field(default_factory=list)     # pages of the new rulebook whose text differs
    rules_pages: list[int] | None = None                        # those the rules' changes make (None: not known)
    rulebook_paper: str = "a4"

    @property
    def none(self) -> bool:
        return not self.cards and not self.rules and not self.rulebook_pages

    def of(self, *statuses: str) -> list[CardChange]:
        return [change for change in self.cards if change.status in statuses]

    def lines(self) -> list[str]:
        """The listing `pnp diff` prints, one card (then its cells) or one rule per line."""
        lines = []
        for change in self.cards:
            deck, _ = change.key
            where = "" if "row" in change.label else f" ({change.row})"
            lines.append(f"{change.status}: {deck} › {change.label}{where}")
            lines.extend(f"  {item}" for item in change.fields)
        paper = self.rulebook_paper.upper()
        if self.rules:
            lines.append("rules:")
            lines.extend(f"  {item}" for item in self.rules)
            if self.rules_pages:
                lines.append(f"  rulebook pages they change ({paper}): {_numbers(self.rules_pages)}")
        if self.rulebook_pages and self.rules_pages is None:
            lines.append(f"rulebook pages that changed ({paper}): {_numbers(self.rulebook_pages)}")
        elif self.rulebook_pages:
            others = [page for page in self.rulebook_pages if page not in self.rules_pages]
            if others:
                lines.append(f"rulebook pages the cards' changes make ({paper}): {_numbers(others)}")
        return lines


def _numbers(pages: list[int]) -> str:
    return ", ".join(map(str, pages))


def shown(value: Any) -> str:
    if value is None or value == "":
        return "(empty)"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def compare(old: Version, new: Version) -> Changes:
    """Cards and rules compared; the rulebook pages are pipeline/diff/output.py's (they need rendering)."""
    changes = Changes(old.label)
    old_rows, new_rows = _rows(old), _rows(new)
    for key in sorted(set(old.cards) | set(new.cards), key=_order(old, new)):
        before, after = old.cards.get(key), new.cards.get(key)
        card = after or before
        label = card.front.label or card.front.name
        if before is None:
            changes.cards.append(CardChange(ADDED, key, label, _row(after), new=after))
            continue
        if after is None:
            changes.cards.append(CardChange(REMOVED, key, label, _row(before), old=before))
            continue
        fields = record_changes(old_rows.get(_where(before)), new_rows.get(_where(after)))
        status = CHANGED if before.faces_key != after.faces_key else DATA_ONLY if fields else None
        if status:
            changes.cards.append(CardChange(status, key, label, _row(after), fields, before, after))
    changes.rules = rule_changes(old.records.get(RULES_SHEET, []), new.records.get(RULES_SHEET, []))
    return changes


def record_changes(before: Record | None, after: Record | None) -> list[FieldChange]:
    """The cells of one row that differ, named by the new version's cell (the old one's for a dropped column)."""
    if before is None or after is None:
        return []
    found = []
    for column in dict.fromkeys([*after.values, *before.values]):
        old, new = before.get(column), after.get(column)
        if old != new:
            place = after.at(column) if column in after.letters else before.at(column)
            found.append(FieldChange(_cell(place), old, new))
    return found


def rule_changes(before: list[Record], after: list[Record]) -> list[FieldChange]:
    """The `rules` sheet by parameter: a changed value (`rules › B5 (hand_size): 6 → 7`), a parameter added or
    removed, a changed description."""
    old = {r.get("parameter"): r for r in before}
    new = {r.get("parameter"): r for r in after}
    found = []
    for name in dict.fromkeys([*new, *old]):
        a, b = old.get(name), new.get(name)
        if a is None or b is None:
            place = (b or a).at("value")
            found.append(FieldChange(_cell(place, name), a.get("value") if a else None, b.get("value") if b else None))
            continue
        for column in dict.fromkeys([*b.values, *a.values]):
            if column != "parameter" and a.get(column) != b.get(column):
                label = name if column == "value" else f"{name}, {column}"
                found.append(FieldChange(_cell(b.at(column), label), a.get(column), b.get(column)))
    return found


def rulebook_of(version: Version) -> RulebookSpec | None:
    return next((c for c in version.components if isinstance(c, RulebookSpec)), None)


def _cell(ref, label: str | None = None) -> str:
    where = f"{ref.column or ''}{ref.row}" if ref.column else f"row {ref.row}"
    return f"{ref.sheet} › {where} ({label or ref.field})" if (label or ref.field) else f"{ref.sheet} › {where}"


def _where(card: Card) -> tuple[str | None, int | None]:
    return card.front.ref.sheet, card.front.ref.row


def _row(card: Card) -> str:
    return f"{card.front.ref.sheet} › row {card.front.ref.row}"


def _rows(version: Version) -> dict[tuple[str | None, int | None], Record]:
    return {(record.ref.sheet, record.ref.row): record for rows in version.records.values() for record in rows}


def _order(old: Version, new: Version):
    """Deck by deck; in a deck the new version's cards in its order, then the removed ones in the old order."""
    decks = list(dict.fromkeys(c.id for version in (new, old) for c in version.components if hasattr(c, "fronts")))
    new_places = {key: index for index, key in enumerate(new.cards)}
    old_places = {key: index for index, key in enumerate(old.cards)}

    def place(key: Key) -> tuple[int, int, int]:
        deck = decks.index(key[0]) if key[0] in decks else len(decks)
        return (deck, 0, new_places[key]) if key in new_places else (deck, 1, old_places[key])
    return place

