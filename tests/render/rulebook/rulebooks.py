"""A game's rulebook written in memory the way a build writes it: its records, its figures laid out through the
rulebook kind (legible diagrams included), the PDF bytes; and where a drawn figure is in it, with the size of
every word it prints. Shared by the rulebook tests."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from io import BytesIO
from pathlib import Path

import pdfplumber

from pipeline.core.errors import Report
from pipeline.core.printing import PrintOptions
from pipeline.core.progress import Progress
from pipeline.data.specs import GameModule, Records, RulebookSpec
from pipeline.kinds import rulebook as rulebook_kind
from pipeline.render.faces.primitives import Group, Text
from pipeline.render.faces.renderer import FaceRenderer
from pipeline.render.fonts import default_fonts
from pipeline.render.rulebook.book import write_rulebook
from pipeline.validate import load_records
from tests.conftest import ROOT


@dataclass
class Book:
    game: GameModule
    records: Records
    spec: RulebookSpec
    renderer: FaceRenderer
    figures: dict           # figure name -> laid-out face
    info: dict              # what write_rulebook returns
    pdf: bytes


def write_book(game: GameModule, paper: str = "a4", root: Path = ROOT, title: str | None = None) -> Book:
    report = Report()
    records = load_records(game, root, report)
    assert records is not None, [str(p) for p in report.errors]
    spec = next(c for c in game.components(records) if isinstance(c, RulebookSpec))
    renderer = FaceRenderer(ROOT, game.template_dir, default_fonts())
    figures = rulebook_kind.lay_out(
        spec, lambda face: renderer.layout(face.template, face.context, None, face.name, size_mm=face.size_mm)[0],
        Progress(), False, report)
    buffer = BytesIO()
    info = write_rulebook(buffer, game.template_dir / spec.source, spec.context, figures,
                          PrintOptions(paper=paper, game_title=title or game.title), ROOT)
    return Book(game, records, spec, renderer, figures, info, buffer.getvalue())


@lru_cache(maxsize=4)
def shape_rects(pdf_bytes: bytes) -> list[tuple[int, dict, list]]:
    """(page, rect, chars inside) for every rect of the book, with pdfplumber's char sizes (scale included).
    Read once per book: every figure of it is looked for in the same list (callers only read it)."""
    found = []
    with pdfplumber.open(BytesIO(pdf_bytes)) as pdf:
        for number, page in enumerate(pdf.pages):
            chars = page.chars
            for rect in page.rects:
                if rect["width"] < 40 or rect["height"] < 20:
                    continue
                inside = [c for c in chars if rect["x0"] - 0.5 <= c["x0"] and c["x1"] <= rect["x1"] + 0.5
                          and rect["top"] - 0.5 <= c["top"] and c["bottom"] <= rect["bottom"] + 0.5]
                found.append((number, rect, inside))
    return found


def face_letters(prims) -> str:
    """Every character a face writes, sorted, spaces left out: the fingerprint of a drawn diagram."""
    out = []
    for prim in prims:
        if isinstance(prim, Text):
            out += [ch for run in prim.runs for ch in run.text if not ch.isspace()]
        elif isinstance(prim, Group):
            out.append(face_letters(prim.children))
    return "".join(sorted("".join(out)))


def drawn(book: Book, name: str) -> list[tuple[int, dict, list]]:
    """Where a laid-out figure is drawn in the book: each face is framed by its background, a rect of its own
    proportions, holding the very characters the face writes. (page, rect, chars) for each place."""
    face = book.figures[name]
    ratio, letters = face.width / face.height, face_letters(face.primitives)
    return [(page, rect, chars) for page, rect, chars in shape_rects(book.pdf)
            if abs(rect["width"] / rect["height"] - ratio) < 0.01 * ratio
            and "".join(sorted(c["text"] for c in chars if not c["text"].isspace())) == letters]


def small_words(book: Book, names, floor: float = 6.0) -> list[str]:
    """Problems of the named figures: not found in the book, or printing characters under `floor` points."""
    problems = []
    for name in names:
        hits = drawn(book, name)
        if not hits:
            problems.append(f"{name}: not found in the book by its proportions and words")
        for page, _, chars in hits:
            small = sorted({round(c["size"], 2) for c in chars if c["size"] < floor})
            if small:
                problems.append(f"{name} (page {page + 1}): characters of {small} pt")
    return problems
