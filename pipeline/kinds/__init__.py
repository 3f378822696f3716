"""Component kinds: one small module per kind of printed thing, all of one shape, and one table from a
game's component spec to its kind. Adding a kind is one module and one line in KINDS.

A kind module has:
    SPEC            the component spec it prints (pipeline/data/specs.py)
    NAME            its name in the build report ("cards"); the report entries it writes start with it
    INK_VARIANT     whether `--ink-saver` makes a second set of its files
    PRINT_BLEED     whether its faces go to print services, so their templates need 3 mm of bleed
    lay_out(spec, layout, progress, ink, report) -> faces       every face laid out with `layout(face_spec)`
    faces_of(faces) / spec_faces(spec) -> list                   the faces laid out / their specs
    plan(game, spec, faces, config, report) -> {paper: plan}     before anything is written, for every paper
    write(game, laid, config, progress) -> [report entry]       the files, from the faces and plans
    describe(spec) -> dict                                       its row in the report's components table
    how_to_print(entry) -> str                                   paper, sides and cuts of a home-printing file

Also here: laying out every face of every component and planning its sheets before anything is written
(prepare), and the pooled sheets that print several decks together (pooled).

May import: core, data, render and cache.
"""

from __future__ import annotations

from types import ModuleType

from pipeline.kinds import boards, cards, dice, pages, rulebook

KINDS: dict[type, ModuleType] = {kind.SPEC: kind for kind in (cards, boards, pages, dice, rulebook)}


def kind_of(component) -> ModuleType:
    try:
        return KINDS[type(component)]
    except KeyError:
        raise TypeError(f"unknown component kind {type(component).__name__}") from None


def kind_named(entry_kind: str) -> ModuleType:
    """The kind that wrote a report entry ("dice-nets" -> dice)."""
    return next(kind for kind in KINDS.values() if entry_kind.split("-")[0] == kind.NAME)
