"""Editions: which printing a card belongs to. Every face carries an edition mark (game, version, and a short
id of that face's own data) so a playtester holding two printings can tell them apart and report "card 3f2a".

- `version_of` is the release's version: the one asked for, else the game's record (GameModule.version), else
  `git describe --tags --always --dirty` of the project, else "dev". Never the clock.
- `data_id` is a sha256 of the values a face is drawn with (FaceSpec.context) and nothing else: it changes when
  and only when the card's data changes, not when a template or the version does.
- `short_ids` shortens every id of a game to the fewest hex digits (at least 4) that keep distinct data apart.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from collections.abc import Iterable, Mapping
from typing import Any

from pipeline.core import git

SHORT = 4                   # hex digits of a short id ("3f2a"); more only when a game's ids would collide
DEV = "dev"


def version_of(record_version: str, root: Path, asked: str | None = None) -> str:
    """The version printed in the marks and naming the release."""
    for candidate in (asked, record_version):
        if candidate and candidate.strip():
            return candidate.strip()
    return described(root) or DEV


def described(root: Path) -> str | None:
    """`git describe --tags --always --dirty` of the project at `root` (None outside a git work tree)."""
    return git.line(root, "describe", "--tags", "--always", "--dirty")


def data_id(context: Mapping[str, Any]) -> str:
    """The full sha256 (hex) of a face's values, in a canonical JSON (sorted keys; paths and other values as
    text), so the same data gives the same id on any machine."""
    text = json.dumps(_plain(context), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


POSITION = ("index", "copy")    # where a copy sits in its deck (a FaceSpec context's "card"): not its data


def card_id(context: Mapping[str, Any]) -> str:
    """The data id of a card: `data_id` of its face's values without its place in the deck (the "card" entry's
    index and copy number), so a card's copies share one id and a card added before it changes no other id."""
    card = context.get("card")
    if isinstance(card, Mapping):
        context = {**context, "card": {k: v for k, v in card.items() if k not in POSITION}}
    return data_id(context)


def short_ids(full: Iterable[str]) -> dict[str, str]:
    """Each distinct full id -> its prefix, SHORT hex digits or as many more as keep every distinct id apart."""
    distinct = sorted(set(full))
    length = SHORT
    while len({i[:length] for i in distinct}) < len(distinct):
        length += 1
    return {i: i[:length] for i in distinct}


def mark_text(game_title: str, version: str, short: str | None) -> str:
    """'NBA Deck-Building · v0.1 · 3f2a' (no id on a page that is not one card's)."""
    parts = [game_title, version] + ([short] if short else [])
    return " · ".join(parts)


def _plain(value: Any) -> Any:
    kind = type(value)                  # the plain types first: a game's contexts hold thousands of them
    if kind is str or kind is int or kind is bool or value is None:
        return value
    if kind is dict:
        return {str(k): _plain(v) for k, v in value.items()}
    if kind is list or kind is tuple:
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return repr(value)
    return str(value)
