"""Component kinds (pipeline/kinds/): one module of one shape per kind of printed thing, one table from spec
to kind, and every kind's sheets planned for every paper before anything is written."""

from __future__ import annotations

import dataclasses
import re
from types import ModuleType

import pipeline.data.specs as base
from pipeline.build import build
from pipeline.core.config import BuildConfig
from pipeline.kinds import KINDS, kind_named, kind_of
from tests.conftest import copy_project

SHAPE = {"SPEC": type, "NAME": str, "INK_VARIANT": bool, "PRINT_BLEED": bool}
FUNCTIONS = ("lay_out", "faces_of", "spec_faces", "plan", "write", "describe", "how_to_print")


def component_specs() -> set[type]:
    """Every spec a game can return from components(): the members of games.base.Component."""
    return set(base.Component.__args__)


def test_every_component_spec_has_exactly_one_kind():
    assert set(KINDS) == component_specs()
    assert len({kind.NAME for kind in KINDS.values()}) == len(KINDS)


def test_every_kind_has_the_same_shape():
    for spec, kind in KINDS.items():
        assert isinstance(kind, ModuleType) and kind.SPEC is spec
        for name, type_ in SHAPE.items():
            assert isinstance(getattr(kind, name), type_), f"{kind.__name__}.{name}"
        for name in FUNCTIONS:
            assert callable(getattr(kind, name, None)), f"{kind.__name__}.{name}"


def test_report_entries_find_the_kind_that_wrote_them():
    assert kind_named("dice-nets").NAME == kind_named("dice-stickers").NAME == "dice"
    assert kind_named("board").NAME == "board" and kind_named("cards").NAME == "cards"


def test_an_unknown_component_is_a_type_error():
    @dataclasses.dataclass
    class Sculpture:
        id: str = "statue"

    try:
        kind_of(Sculpture())
    except TypeError as exc:
        assert "Sculpture" in str(exc)
    else:
        raise AssertionError("an unknown kind was accepted")


def _resize(path, size: str) -> None:
    text = path.read_text(encoding="utf-8")
    path.write_text(re.sub(r"^size: \[[^\]]*\]", f"size: {size}", text, count=1, flags=re.M), encoding="utf-8")


def test_what_no_paper_takes_is_found_before_anything_is_written(tmp_path):
    """A card too large for the paper and a write-on page too large for it: both errors, located at their
    templates, in one run, and no file on disk (cards were planned while writing, after other files)."""
    root = copy_project(tmp_path)
    templates = root / "templates" / "buildit"
    for name in ("aid-front.yaml", "aid-back.yaml"):
        _resize(templates / name, "[205, 290]")
    _resize(templates / "score-sheet.yaml", "[250, 300]")
    report, written = build(BuildConfig(root, ("buildit",), papers=("a4", "letter")))
    errors = [str(p) for p in report.errors]
    assert written == [] and not (root / "output").exists()
    cards = [e for e in errors if "card does not fit" in e]
    assert len(cards) == 2 and all(e.startswith("templates/buildit/aid-front.yaml: a 205×290 mm card") for e in cards)
    assert {"a4", "letter"} == {e.split(" paper")[0].split()[-1] for e in cards}
    pages = [e for e in errors if "does not fit, either way up" in e]
    assert len(pages) == 2 and all(e.startswith("templates/buildit/score-sheet.yaml: page 1 is 250.0×300.0 mm")
                                   for e in pages)
    assert len(errors) == 4, errors
