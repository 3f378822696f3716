"""A deck's new faces laid out on two processes (pipeline/kinds/ahead.py) are those one process lays out: the
same faces with the same edition marks, the same problems in the same order (a template's load warning once,
with the first card, as on one worker; a card whose text does not fit, at that card), the same cache entries (equal values),
and the workers really ran."""

from __future__ import annotations

import csv
import pickle
import shutil
from pathlib import Path

import pytest

import pipeline.kinds.ahead as ahead
from pipeline.build import validate
from pipeline.core.config import BuildConfig
from pipeline.core.pool import can_fork
from tests.conftest import PROJECT_ROOT

GAME = "aheaddeck"
CARDS = 120                     # past ahead.MIN_FACES: the deck goes to the workers
LONG = {7, 70}                  # rows whose title cannot fit on one line, down to the smallest size


def _project(folder: Path) -> Path:
    game = folder / "templates" / GAME
    game.mkdir(parents=True)
    front = (PROJECT_ROOT / "templates" / "benchdeck" / "front.yaml").read_text(encoding="utf-8")
    # a template warning told when the template loads: once, with the first card drawn with it
    (game / "front.yaml").write_text(front.replace("font: bold, size: 11,", "font: bold, size: 11, bogus_key: 1,"),
                                     encoding="utf-8")
    shutil.copy(PROJECT_ROOT / "templates" / "benchdeck" / "back.yaml", game / "back.yaml")
    shutil.copytree(PROJECT_ROOT / "bench" / "data" / "icons", folder / "data" / "icons")
    with open(PROJECT_ROOT / "bench" / "data" / "cards_2000.csv", newline="", encoding="utf-8") as source:
        rows = list(csv.reader(source))[: CARDS + 1]
    for index in LONG:
        rows[index][1] = " ".join(["Interminable"] * 12)
    with open(folder / "data" / "cards.csv", "w", newline="", encoding="utf-8") as out:
        csv.writer(out).writerows(rows)
    manifest = (PROJECT_ROOT / "templates" / "benchdeck" / "game.yaml").read_text(encoding="utf-8")
    (game / "game.yaml").write_text(manifest.replace("id: benchdeck", f"id: {GAME}")
                                    .replace("../../bench/data/cards_100.csv", "../../data/cards.csv")
                                    .replace("count: 100", f"count: {CARDS}"), encoding="utf-8")
    return folder


def _validated(root: Path, jobs: int) -> tuple[list[str], list, dict]:
    """The report's lines, every laid-out face (key and primitives, edition mark included) and the entries the
    cache would keep (validation writes none of them)."""
    report, prepared = validate(BuildConfig(root=root, games=(GAME,), jobs=jobs))
    lines = [f"{p.severity.value} {p.where} {p.message} [{p.rule}]" for p in report.problems]
    faces = [(face.key, face.primitives) for laid in prepared[0].laid
             for face in [*laid.faces[0], *(laid.faces[1] or ())]]
    return lines, faces, dict(prepared[0].cache._pending)


@pytest.mark.skipif(not can_fork(), reason="one process only where the system cannot fork")
def test_two_workers_lay_out_the_faces_problems_and_cache_entries_of_one(tmp_path, monkeypatch):
    parts = []
    real_run_all = ahead.run_all
    monkeypatch.setattr(ahead, "run_all", lambda tasks, jobs: parts.append(len(tasks)) or real_run_all(tasks, jobs))
    root = _project(tmp_path)
    one = _validated(root, jobs=1)                          # validation keeps nothing: both start cold
    assert parts == []
    two = _validated(root, jobs=2)
    assert parts == [2 * ahead.CHUNKS_PER_WORKER]           # the deck's fronts, in parts, on two workers

    lines, faces, pending = one
    assert len(faces) == 2 * CARDS                          # a front and a back per card
    warnings = [line for line in lines if "bogus_key" in line]
    assert len(warnings) == 1 and "card 1" in warnings[0], lines
    overflows = [line for line in lines if line.startswith("error")]
    assert len(overflows) == len(LONG), lines
    assert two[0] == lines
    assert two[1] == faces
    assert two[2].keys() == pending.keys()                  # the same entries, holding equal values (their
    assert all(pickle.loads(two[2][key]) == pickle.loads(pending[key]) for key in pending)   # pickles share less)
