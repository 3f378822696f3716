"""Lay out every face of every component before anything is written: a text that overflows, a template
mistake or a broken rulebook chapter is a validation problem found here, with nothing on disk yet."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from pipeline.errors import Report, SourceRef
from pipeline.progress import Progress
from pipeline.games.base import BoardSpec, CardDeck, Component, DiceSpec, FaceSpec, PageSpec, RulebookSpec
from pipeline.units import MM, PAPERS_MM, PRINT_BLEED_MM


@dataclass
class Laid:
    """A component with its faces laid out, for one ink variant. `faces` by kind:
    CardDeck -> (fronts, backs | None); BoardSpec -> the face; PageSpec -> list of faces;
    DiceSpec -> LaidDice; RulebookSpec -> {figure name: face}."""

    component: Component
    ink: bool
    faces: Any

    @property
    def missing_art(self) -> set[str]:
        return {art for face in _all_faces(self.faces) for art in face.missing_art}


@dataclass
class LaidDice:
    """A DiceSpec laid out: each die's six faces (render.dice.DieFaces), their PNG names, and the net and
    sticker plans of every paper (planned here, so a face too large for the paper stops the build)."""

    dice: tuple
    names: tuple[tuple[str, ...], ...]
    plans: dict          # paper -> (NetPlan, StickerPlan)


def _all_faces(faces: Any) -> list:
    if isinstance(faces, LaidDice):
        return [face for die in faces.dice for face in die.faces]
    if isinstance(faces, dict):
        return list(faces.values())
    if isinstance(faces, tuple):
        return [face for group in faces if group for face in group]
    if isinstance(faces, list):
        return faces
    return [faces]


def has_ink_variant(component: Component) -> bool:
    """Card sheets and boards get an ink-saver variant; write-on pages and rulebooks are ink-light already."""
    return isinstance(component, (CardDeck, BoardSpec))


def lay_out(renderer, component: Component, ink: bool, report: Report, progress: Progress) -> Laid:
    repeats: dict[tuple, list] = {}
    if isinstance(component, CardDeck):
        progress.start(f"layout {component.id}{' (ink saver)' if ink else ''}", len(component.fronts))
        fronts = []
        for face in component.fronts:
            fronts.append(_layout_one(renderer, face, repeats))
            progress.advance()
        backs = [_layout_one(renderer, face, repeats) for face in component.backs] if component.backs else None
        faces: Any = (fronts, backs)
    elif isinstance(component, BoardSpec):
        faces = _layout_one(renderer, replace(component.face, size_mm=component.size_mm), repeats)
    elif isinstance(component, PageSpec):
        faces = [_layout_one(renderer, face, repeats) for face in component.faces]
    elif isinstance(component, DiceSpec):
        faces = _lay_out_dice(renderer, component, repeats, report)
    elif isinstance(component, RulebookSpec):
        faces = {name: _layout_one(renderer, face, repeats) for name, face in component.figures.items()}
    else:
        raise TypeError(f"unknown component kind {type(component).__name__}")
    report.extend(_collapse(repeats))
    return Laid(component, ink, faces)


def check_bleed(renderer, component: Component, report: Report) -> None:
    """Every card, token and board face goes to print services with 3 mm of artwork beyond its trim
    (after lay_out, which compiles the templates)."""
    if not isinstance(component, (CardDeck, BoardSpec)):
        return
    faces = [component.face] if isinstance(component, BoardSpec) else [*component.fronts, *(component.backs or ())]
    for template in dict.fromkeys(face.template for face in faces):
        compiled = renderer.loaded(template)
        if compiled is None or (compiled.bleed or 0.0) >= PRINT_BLEED_MM - 1e-9:
            continue
        path = renderer.game_dir / template
        shown = path.relative_to(renderer.project_root) if path.is_relative_to(renderer.project_root) else path
        report.error(SourceRef(str(shown)), f"{component.id}: bleed is {compiled.bleed or 0:g} mm; card, token "
                     f"and board faces need {PRINT_BLEED_MM:g} mm for print services (`bleed: 3`, with the "
                     "background drawn out to it)", "template")


def _lay_out_dice(renderer, spec: DiceSpec, repeats: dict[tuple, list], report: Report) -> LaidDice:
    from pipeline.render.dice import DieFaces, plan_problems

    dice, names, not_square = [], [], set()
    for die in spec.dice:
        faces = tuple(_layout_one(renderer, face, repeats) for face in die.faces)
        for face, layout in zip(die.faces, faces):
            if abs(layout.width - layout.height) > 0.01 and face.template not in not_square:
                not_square.add(face.template)
                report.error(face.ref or face.template, f"{spec.id}: face {face.label or face.name} is drawn "
                             f"{layout.width / MM:.1f}×{layout.height / MM:.1f} mm by {face.template}: a "
                             "die face must be square", "template")
        dice.append(DieFaces(die.label, die.caption, die.count, faces))
        names.append(tuple(face.name for face in die.faces))
    plans, where = {}, spec.ref or f"{spec.id} (dice)"
    for paper in PAPERS_MM:
        nets, stickers, messages = plan_problems(paper, spec.face_mm, spec.sticker_mm, [d.count for d in dice])
        for message in messages:
            report.error(where, f"{spec.id}: {message}", "imposition")
        plans[paper] = (nets, stickers)
    return LaidDice(tuple(dice), tuple(names), plans)


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
