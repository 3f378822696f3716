"""Lay out every face of every component, then plan its sheets for every paper, before anything is
written: a text that overflows, a template mistake, a card or board no paper takes, or a broken rulebook
chapter is a validation problem found here, with nothing on disk yet. What to do per kind is in
pipeline/kinds/."""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field, replace
from typing import Any

from pipeline.config import BuildConfig
from pipeline.errors import Report, SourceRef
from pipeline.games.base import Component, FaceSpec
from pipeline.kinds import kind_of
from pipeline.progress import Progress
from pipeline.units import PRINT_BLEED_MM


@dataclass
class Laid:
    """A component with its faces laid out (in the shape its kind's lay_out gives) for one ink variant, and
    its kind's plans by paper. `pool` is every Laid of the same game and ink variant, in order (the same
    list object for all of them): what pooled home sheets (pipeline/kinds/pooled.py) put together."""

    component: Component
    ink: bool
    faces: Any
    plans: dict = field(default_factory=dict)
    pool: list = field(default_factory=list, repr=False, compare=False)

    @property
    def missing_art(self) -> set[str]:
        return {art for face in kind_of(self.component).faces_of(self.faces) for art in face.missing_art}


def has_ink_variant(component: Component) -> bool:
    """Card sheets and boards get an ink-saver variant; write-on pages and rulebooks are ink-light already."""
    return kind_of(component).INK_VARIANT


# One renderer lays out one game in one ink variant (pipeline/build.py): its components' Laid, in order.
_POOLS: "weakref.WeakKeyDictionary[Any, list[Laid]]" = weakref.WeakKeyDictionary()


def lay_out(renderer, component: Component, ink: bool, report: Report, progress: Progress) -> Laid:
    repeats: dict[tuple, list] = {}
    faces = kind_of(component).lay_out(component, lambda face: _layout_one(renderer, face, repeats), progress, ink,
                                       report)
    report.extend(_collapse(repeats))
    pool = _POOLS.setdefault(renderer, [])
    laid = Laid(component, ink, faces, pool=pool)
    pool.append(laid)
    return laid


def plan(game, laid: Laid, config: BuildConfig, report: Report) -> None:
    """The kind's plans of every paper, kept on `laid` for the writer; what does not fit goes to `report`."""
    laid.plans = kind_of(laid.component).plan(game, laid.component, laid.faces, config, report)


def check_bleed(renderer, component: Component, report: Report) -> None:
    """Every card, token and board face goes to print services with 3 mm of artwork beyond its trim
    (after lay_out, which compiles the templates)."""
    kind = kind_of(component)
    if not kind.PRINT_BLEED:
        return
    for template in dict.fromkeys(face.template for face in kind.spec_faces(component)):
        compiled = renderer.loaded(template)
        if compiled is None or (compiled.bleed or 0.0) >= PRINT_BLEED_MM - 1e-9:
            continue
        path = renderer.game_dir / template
        shown = path.relative_to(renderer.project_root) if path.is_relative_to(renderer.project_root) else path
        report.error(SourceRef(str(shown)), f"{component.id}: bleed is {compiled.bleed or 0:g} mm; card, token "
                     f"and board faces need {PRINT_BLEED_MM:g} mm for print services (`bleed: 3`, with the "
                     "background drawn out to it)", "template")


def _layout_one(renderer, face: FaceSpec, repeats: dict[tuple, list]):
    layout, problems = renderer.layout(face.template, face.context, face.ref, face.label or face.name,
                                       face.data_dir, face.size_mm)
    for problem in problems:
        # A template mistake shows on every card drawn with it: one line, with a count, is the problem.
        # Data-dependent problems (a text that overflows on one card) stay one line per card.
        what = problem.message.split("): ", 1)[-1].split(" (data: ")[0] if problem.rule == "template" else problem
        repeats.setdefault((str(problem.where), problem.rule, what), []).append(problem)
    return layout


def _collapse(repeats: dict[tuple, list]) -> list:
    collapsed = []
    for same in repeats.values():
        first = same[0]
        if len(same) > 1:
            first = replace(first, message=f"{first.message} (and {len(same) - 1} more card(s))")
        collapsed.append(first)
    return collapsed
