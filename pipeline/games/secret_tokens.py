"""Secret-backed tokens (a generic component shape): a family of two-sided tokens sorted into groups, where
every token of a group shows the same public side (face up on the table: a trophy's round) and carries its own
hidden value on the other side (face down until it is revealed: the trophy's fans).

The public side is drawn from the group's context alone, never from a token's: the hidden value cannot reach
it, so the public sides of a group are one drawing (one layout key, the same bytes) and a player learns
nothing by looking at them. As a CardDeck the hidden sides are the fronts and the public sides the backs, as
with cards: the back is the side that all the cards of a pile share, and it lies up. Each hidden side's own
context gets the group's too (a trophy's value side may repeat its round, small).

public_sides_differ() is the check a game's tests (or a build) run on the laid-out faces: within a group the
public sides must be identical, across groups different."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from pipeline.core.errors import SourceRef
from pipeline.data.specs import CardDeck, FaceSpec


@dataclass(frozen=True)
class SecretGroup:
    """One group: its id (file-safe), what its public side shows, and one context per token for the hidden
    side (its value), with where each came from."""

    id: str
    public: Mapping[str, Any]
    secrets: tuple[Mapping[str, Any], ...]
    refs: tuple[SourceRef | None, ...] = ()
    label: str = ""

    def __post_init__(self):
        if self.refs and len(self.refs) != len(self.secrets):
            raise ValueError(f"secret group {self.id}: {len(self.refs)} refs for {len(self.secrets)} tokens")


def secret_tokens(id: str, title: str, groups: Sequence[SecretGroup], hidden_template: str,
                  public_template: str, size_mm: tuple[float, float], group_key: str = "group") -> CardDeck:
    """The family as a CardDeck: hidden sides as fronts, each with its group's public side as its back.
    Both templates see the group's public context under `group_key`; the hidden side also sees its own values
    and `card` (index, copy, copies within the group)."""
    fronts, backs = [], []
    for group in groups:
        label = group.label or group.id
        back = FaceSpec(public_template, {group_key: dict(group.public)}, None, f"{id}-{group.id}-public",
                        f"{label}, public side")
        for copy, secret in enumerate(group.secrets, start=1):
            ref = group.refs[copy - 1] if group.refs else None
            card = {"index": len(fronts) + 1, "copy": copy, "copies": len(group.secrets)}
            fronts.append(FaceSpec(hidden_template, {**secret, group_key: dict(group.public), "card": card}, ref,
                                   f"{id}-{group.id}-{copy}", f"{label}, token {copy}/{len(group.secrets)}"))
            backs.append(back)
    return CardDeck(id, title, tuple(fronts), tuple(backs), size_mm)


def public_sides_differ(deck: CardDeck, layout: Callable[[FaceSpec], Any], group_of: Callable[[FaceSpec], str]
                        ) -> list[str]:
    """What is wrong with a secret-backed family once laid out (`layout(spec)` -> a face with a `key`): a
    group whose public sides are not one drawing, or two groups that share one. Empty when sound."""
    keys: dict[str, set[str]] = {}
    for front, back in zip(deck.fronts, deck.backs or ()):
        keys.setdefault(group_of(front), set()).add(layout(back).key)
    found = [f"{deck.id}: the public sides of group {group} are {len(ks)} different drawings"
             for group, ks in keys.items() if len(ks) != 1]
    owners: dict[str, list[str]] = {}
    for group, ks in keys.items():
        for key in ks:
            owners.setdefault(key, []).append(group)
    found += [f"{deck.id}: groups {', '.join(map(str, groups))} share one public side"
              for groups in owners.values() if len(groups) > 1]
    return found
