"""A deck's new faces laid out ahead, on every core (issue 32): a cold build of a large deck spends most of
its preparation laying out and marking faces one by one, and each face is independent of the others.

`lay_ahead` lays out, in forked workers (pipeline/core/pool.py), the faces of a deck that its shelf (the
cache) does not hold, and stamps their edition marks; pipeline/kinds/prepare.py then takes each face from
what came back instead of laying it out, in the deck's order, so the faces, their problems and what the
cache keeps are those of a one-worker build. What is shared by a deck's faces is done here before the
workers start, so each inherits it: the templates are compiled once, and a template's load problems come
back with the first face laid out with it, as `FaceRenderer.layout` gives them.
"""

from __future__ import annotations

import functools
import math
import multiprocessing
from typing import Callable

from pipeline.core.pool import can_fork, run_all
from pipeline.render.faces.edition_mark import stamp

MIN_FACES = 48          # fewer new faces: forking and carrying them back costs more than it saves
CHUNKS_PER_WORKER = 2   # a worker that draws the faster faces takes another part


def lay_ahead(renderer, faces: list, known: Callable[[object], bool], texts_of: Callable[[object], tuple],
              jobs: int) -> dict[int, tuple]:
    """id(face spec) -> (layout, problems, its marked layout or None) for every face of `faces` that `known`
    (in the shelf) says is not there; {} when one worker would do it as fast (few faces, one job, no fork, or
    this process is a worker already)."""
    if jobs < 2 or not can_fork() or multiprocessing.current_process().daemon:
        return {}
    new = [face for face in faces if not known(face)]
    if len(new) < MIN_FACES:
        return {}
    # The first new face of each template is laid out here: it compiles the template (its load problems come
    # with it) and, for a template that reads no value, keeps the face every later one gets, problems told once.
    seen: set[str] = set()
    firsts = [face for face in new if face.template not in seen and not seen.add(face.template)]
    ahead = {id(face): result for face, result in zip(firsts, _lay_out_part(renderer, firsts, texts_of))}
    rest = [face for face in new if id(face) not in ahead]
    if any(face.template in renderer._static and face.data_dir != renderer._static[face.template][0]
           for face in rest) or len(rest) < MIN_FACES:
        return ahead            # (a template without values over two data folders: one by one, as ever)
    size = math.ceil(len(rest) / (jobs * CHUNKS_PER_WORKER))
    parts = [rest[start:start + size] for start in range(0, len(rest), size)]
    found = run_all([functools.partial(_lay_out_part, renderer, part, texts_of) for part in parts], jobs)
    for part, results in zip(parts, found):
        ahead.update((id(face), result) for face, result in zip(part, results))
    return ahead


def _lay_out_part(renderer, faces: list, texts_of: Callable[[object], tuple]) -> list[tuple]:
    """Each face's (layout, problems, marked layout or None), in a worker."""
    out = []
    for face in faces:
        layout, problems = layout_of(renderer, face)
        texts = texts_of(face)
        out.append((layout, problems, stamp(layout, texts, renderer.fonts) if texts else None))
    return out


def layout_of(renderer, face) -> tuple:
    """One face spec laid out anew: (its FaceLayout, the problems told)."""
    return renderer.layout(face.template, face.context, face.ref, face.label or face.name, face.data_dir,
                           face.size_mm)
