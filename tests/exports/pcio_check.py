"""The structural checker of a playingcards.io room file (EXPORTS.md §2.3), independent of the exporter:
`problems(archive_bytes)` lists what is wrong, [] when the archive passes.

- the ZIP is sound (testzip) and holds exactly `schemaVersion`, `widgets.json` and `userassets/*`;
- `schemaVersion` is "3" (pinned: another version is another format);
- `widgets.json` is an array of objects with unique ids; every `parent` is a known id;
- every card's `deck` is a cardDeck and its `cardType` a key of that deck's `cardTypes`; a dynamic template
  object reads a field every card type of its deck has;
- every `package://userassets/X` named anywhere exists in the ZIP, and every packaged asset is named;
- at most `max_widgets` widgets; every asset a PNG or JPEG below `max_asset_bytes`.
"""

from __future__ import annotations

import io
import json
import zipfile

PACKAGE = "package://"
PNG, JPEG = b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff"


def problems(archive: bytes, max_widgets: int = 1200, max_asset_bytes: int = 2 * 1024 * 1024) -> list[str]:
    try:
        zipped = zipfile.ZipFile(io.BytesIO(archive))
    except zipfile.BadZipFile as error:
        return [f"not a zip: {error}"]
    with zipped:
        bad = zipped.testzip()
        if bad is not None:
            return [f"corrupt member: {bad}"]
        names = zipped.namelist()
        found = []
        if len(set(names)) != len(names):
            found.append("a member name appears twice")
        assets = {name for name in names if name.startswith("userassets/") and len(name) > len("userassets/")}
        stray = sorted(set(names) - assets - {"schemaVersion", "widgets.json"})
        missing = sorted({"schemaVersion", "widgets.json"} - set(names))
        if stray:
            found.append(f"unexpected members: {stray}")
        if missing:
            return found + [f"missing members: {missing}"]
        version = zipped.read("schemaVersion").decode("utf-8", "replace").strip()
        if version != "3":
            found.append(f"schemaVersion is {version!r}, not '3'")
        try:
            widgets = json.loads(zipped.read("widgets.json").decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            return found + [f"widgets.json is not JSON: {error}"]
        if not isinstance(widgets, list) or not all(isinstance(widget, dict) for widget in widgets):
            return found + ["widgets.json is not an array of objects"]
        found += _widgets(widgets, max_widgets)
        referenced = set()
        _references(widgets, referenced)
        for path in sorted(referenced - assets):
            found.append(f"{PACKAGE}{path} is not in the archive")
        for path in sorted(assets - referenced):
            found.append(f"{path} is packaged but never used")
        for path in sorted(assets):
            data = zipped.read(path)
            if not (data.startswith(PNG) or data.startswith(JPEG)):
                found.append(f"{path} is neither PNG nor JPEG")
            if len(data) >= max_asset_bytes:
                found.append(f"{path} is {len(data)} bytes, not below {max_asset_bytes}")
    return found


def _widgets(widgets: list[dict], max_widgets: int) -> list[str]:
    found = []
    if len(widgets) > max_widgets:
        found.append(f"{len(widgets)} widgets, more than {max_widgets}")
    ids = [widget.get("id") for widget in widgets]
    if any(not isinstance(ident, str) or not ident for ident in ids):
        found.append("a widget without a string id")
    if len(set(ids)) != len(ids):
        found.append("widget ids are not unique")
    by_id = {widget.get("id"): widget for widget in widgets}
    for widget in widgets:
        ident, kind = widget.get("id"), widget.get("type")
        if "parent" in widget and widget["parent"] not in by_id:
            found.append(f"{ident}: parent {widget['parent']!r} is not a widget")
        if kind == "cardDeck":
            found += _deck(widget)
        if kind == "card":
            deck = by_id.get(widget.get("deck"))
            if deck is None or deck.get("type") != "cardDeck":
                found.append(f"{ident}: deck {widget.get('deck')!r} is not a cardDeck")
            elif widget.get("cardType") not in (deck.get("cardTypes") or {}):
                found.append(f"{ident}: cardType {widget.get('cardType')!r} is not one of its deck's")
    return found


def _deck(deck: dict) -> list[str]:
    found = []
    types = deck.get("cardTypes")
    if not isinstance(types, dict) or not types:
        return [f"{deck.get('id')}: no cardTypes"]
    for side in ("faceTemplate", "backTemplate"):
        template = deck.get(side)
        if not isinstance(template, dict) or not isinstance(template.get("objects"), list):
            found.append(f"{deck.get('id')}: {side} has no objects list")
            continue
        for item in template["objects"]:
            if item.get("valueType") == "dynamic":
                lacking = sorted(key for key, fields in types.items() if item.get("value") not in fields)
                if lacking:
                    found.append(f"{deck.get('id')}: {side} reads {item.get('value')!r}, missing in {lacking}")
    return found


def _references(value, into: set[str]) -> None:
    """Every `package://userassets/...` string anywhere in the widgets, without its scheme."""
    if isinstance(value, str):
        if value.startswith(PACKAGE):
            into.add(value[len(PACKAGE):])
    elif isinstance(value, dict):
        for item in value.values():
            _references(item, into)
    elif isinstance(value, list):
        for item in value:
            _references(item, into)
