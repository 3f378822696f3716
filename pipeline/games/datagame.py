"""A game without code: a workbook or CSV files, templates, and a small `game.yaml` manifest.

It gets the same stages as a coded game except rule checks and simulation: structure, cells, rows,
manifest, then every print output.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pipeline.core.errors import PipelineError, Problem, SourceRef
from pipeline.core.paths import inside
from pipeline.core.safe_yaml import YamlRefused, read_yaml
from pipeline.data.schema import expand, spec_from_mapping
from pipeline.data.specs import CardDeck, FaceSpec, GameModule, Records


def _inside(base: Path, text: str, root: Path, shown: str) -> Path:
    """A data file named in game.yaml, checked like every path from other people (pipeline/core/paths.py)."""
    try:
        return inside(root, base, text, "the folder of game.yaml, with / between folders (data/cards.csv)",
                      climb=True)
    except ValueError as exc:
        raise PipelineError(Problem(shown, f"data file {exc}", "path")) from None


FORM = "see templates/benchdeck/game.yaml for its form"
SHAPE_ERRORS = (TypeError, KeyError, AttributeError, IndexError, ValueError, StopIteration)


def load_data_game(manifest: Path, root: Path) -> GameModule:
    """A game.yaml from anyone: any part not in the form pnp reads (a list where a mapping goes, an unknown
    column type, a deck naming no sheet) is one located line, never a traceback."""
    shown = str(manifest.resolve().relative_to(root.resolve())) if manifest.resolve().is_relative_to(root.resolve()) else str(manifest)
    try:
        return _load(manifest, root, shown)
    except SHAPE_ERRORS as exc:
        raise PipelineError(misshapen(shown, exc)) from None


def misshapen(shown: str, exc: Exception) -> Problem:
    """The line of a game.yaml whose content is not in the form pnp reads."""
    what = str(exc) if isinstance(exc, ValueError) else f"{type(exc).__name__}: {' '.join(str(exc).split())[:120]}"
    return Problem(shown, f"is not in the form pnp reads ({what}); {FORM}", "game")


def _load(manifest: Path, root: Path, shown: str) -> GameModule:
    try:
        data = read_yaml(manifest) or {}
    except OSError as exc:
        raise PipelineError(Problem(shown, f"cannot read game manifest: {exc.strerror or exc}", "game")) from None
    except YamlRefused as exc:
        raise PipelineError(Problem(SourceRef(shown, None, exc.line), exc.message, "game")) from None
    for key in ("id", "title", "data", "sheets", "components"):
        if key not in data:
            raise PipelineError(Problem(shown, f"missing key {key!r}", "game"))
    base = manifest.parent
    files, csv_names = [], {}
    for entry in data["data"]:
        path = _inside(base, str(entry["file"]), root, shown)
        files.append(path)
        if path.suffix.lower() == ".csv":
            csv_names[path.name] = entry.get("sheet", path.stem)
    sheets = tuple(spec_from_mapping(name, spec) for name, spec in data["sheets"].items())
    decks = tuple(data["components"])
    data_dirs = {csv_names.get(p.name, ""): p.parent for p in files}
    return GameModule(
        id=str(data["id"]), title=str(data["title"]), data_files=tuple(files), sheets=sheets,
        template_dir=base, components=lambda records: _decks(decks, records, sheets, data_dirs, shown),
        manifest_sheet=None if data.get("manifest") else "components",
        inline_manifest=tuple(data.get("manifest") or ()), csv_sheet_names=csv_names,
        author=str(data.get("author") or ""), keywords=_keywords(data.get("keywords"), shown),
        version=str(data.get("version") or ""))


def _decks(decks, records: Records, sheets, data_dirs, shown: str) -> list[CardDeck]:
    try:
        return [_deck(d, records, sheets, data_dirs) for d in decks]
    except SHAPE_ERRORS as exc:
        raise PipelineError(misshapen(shown, exc)) from None


def _keywords(value, shown: str) -> tuple[str, ...]:
    """`keywords:` of game.yaml: a list of words, or one string of words separated by commas."""
    if value is None:
        return ()
    if isinstance(value, str):
        value = value.split(",")
    if not isinstance(value, list):
        raise PipelineError(Problem(shown, "`keywords` must be a list of words", "game"))
    return tuple(word for word in (str(item).strip() for item in value) if word)


def _deck(entry: dict[str, Any], records: Records, sheets, data_dirs) -> CardDeck:
    spec = next(s for s in sheets if s.name == entry["sheet"])
    fronts, backs = [], []
    name_column = entry.get("name", spec.id_column)
    copies = expand(records[spec.name], spec.quantity_column)
    for index, (rec, copy, n) in enumerate(copies, start=1):
        card = {"index": index, "copy": copy, "copies": n}
        ident = str(rec.get(name_column) if name_column else index)
        suffix = f"-{copy}" if n > 1 else ""
        context = {**rec.values, "card": card}
        fronts.append(FaceSpec(entry["front"], context, rec.ref, f"{ident}{suffix}", f"{ident} ({spec.name} row {rec.ref.row})",
                               data_dirs.get(spec.name)))
        if entry.get("back"):
            backs.append(FaceSpec(entry["back"], {"card": card}, rec.ref, f"{ident}{suffix}-back", "back"))
    size = tuple(float(v) for v in entry.get("size", (63.5, 88.9)))
    return CardDeck(entry["id"], entry.get("title", entry["id"]), tuple(fronts),
                    tuple(backs) if backs else None, size, keep_bleed=entry.get("sheet_layout") == "bleed")
