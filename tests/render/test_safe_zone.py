"""Every face of every game keeps its text inside the safe zone: no character closer to the trim than 3 mm,
or than 10 % of the side of a small token (under 30 mm), whichever is smaller (issue 20).

Each game's own components (cards and their backs, tokens, boards, aids, dice faces) are laid out with the
contexts the game gives them, drawn to a PDF page the size of the trim (plus bleed), and measured back with
pdfplumber: the character boxes read from the file, never the layout objects. Identical faces (same layout
key) are measured once. Write-on pages (score sheets, a PageSpec) are not cut: their trim is the paper's
edge, so they are written by the real page writer on A4 and Letter and measured against the sheet. Rulebook
figures are not faces of their own and are skipped.
"""

from __future__ import annotations

from io import BytesIO

import pdfplumber
import pytest

from pipeline import PROJECT_ROOT
from pipeline.build import edition_of
from pipeline.core.config import BuildConfig
from pipeline.core.errors import Report
from pipeline.core.printing import PrintOptions
from pipeline.core.units import MM, PAPERS_MM
from pipeline.data.specs import PageSpec
from pipeline.games import REGISTRY, load_game
from pipeline.kinds.prepare import mark_texts
from pipeline.render.faces.edition_mark import stamp
from pipeline.render.faces.renderer import FaceRenderer
from pipeline.render.fonts import default_fonts
from pipeline.render.pdf import new_canvas
from pipeline.render.sheets.pages import write_pages
from pipeline.validate import load_records

SAFE_MM = 3.0               # the print-and-play norm's safe zone
SMALL_SIDE_MM = 30.0        # under this side a face is a token: the margin shrinks to 10 % of its side
SMALL_SHARE = 0.10
TOLERANCE_MM = 0.05         # reading back through the PDF's number precision
LONG_VERSION = "v0.10-123-gabcdef0-dirty"   # as long as `git describe` makes them: the widest edition mark


def safe_margin(width_mm: float, height_mm: float) -> float:
    """The smallest distance a character may keep from the trim on a face of this size."""
    side = min(width_mm, height_mm)
    return min(SAFE_MM, SMALL_SHARE * side) if side < SMALL_SIDE_MM else SAFE_MM


def test_safe_margin_rule():
    assert safe_margin(63.5, 88.9) == SAFE_MM
    assert safe_margin(18, 18) == pytest.approx(1.8)
    assert safe_margin(10, 10) == pytest.approx(1.0)
    assert safe_margin(36, 18) == pytest.approx(1.8)
    assert safe_margin(190, 40) == SAFE_MM


def face_specs(component):
    """Every FaceSpec a component prints, whatever its kind (cards, board, pages, dice)."""
    for name in ("fronts", "backs", "faces"):
        yield from getattr(component, name, None) or ()
    face = getattr(component, "face", None)
    if face is not None:
        yield face
    for die in getattr(component, "dice", None) or ():
        yield from die.faces


def game_components(game_id: str):
    game = load_game(game_id, PROJECT_ROOT)
    report = Report()
    records = load_records(game, PROJECT_ROOT, report)
    assert records is not None, report
    return game, [c for c in game.components(records) if not hasattr(c, "figures")]    # no rulebook


def laid_out_faces(game_id: str, ink_saver: bool, pages: bool = False, marked: bool = False,
                   version: str = LONG_VERSION):
    """(face spec, face layout) for every distinct face the game prints: the cut faces, or (pages=True) the
    faces of its write-on pages; `marked`: with the edition mark a build stamps for `version`."""
    game, components = game_components(game_id)
    renderer = FaceRenderer(PROJECT_ROOT, game.template_dir, default_fonts(), ink_saver=ink_saver)
    edition = edition_of(game, components, BuildConfig(PROJECT_ROOT, (game_id,), version=version)) \
        if marked else None
    seen: set[str] = set()
    for component in components:
        if isinstance(component, PageSpec) != pages:
            continue
        backs = {id(spec) for spec in getattr(component, "backs", None) or ()}
        for spec in face_specs(component):
            face, _ = renderer.layout(spec.template, spec.context, spec.ref, spec.name, spec.data_dir,
                                      spec.size_mm)
            texts = mark_texts(edition, component, spec, id(spec) in backs)
            face = stamp(face, texts, renderer.fonts) if texts else face
            if face.key not in seen:
                seen.add(face.key)
                yield spec, face


def face_pdf(faces) -> bytes:
    """Each (spec, face) on a page of its own, the trim box's corner at (bleed, bleed), as a build draws it."""
    buffer = BytesIO()
    canvas = new_canvas(buffer, (100, 100), default_fonts())
    for _, face in faces:
        canvas.setPageSize((face.width + 2 * face.bleed, face.height + 2 * face.bleed))
        canvas.translate(face.bleed, face.bleed)
        face.draw(canvas)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def measured_pages(faces):
    """Draw each face on its own page (face_pdf); pdfplumber pages, in order."""
    return pdfplumber.open(BytesIO(face_pdf(faces)))


def violations(spec, face, page) -> list[str]:
    """One line per character of the face closer to the trim than its safe margin."""
    width, height, bleed = face.width / MM, face.height / MM, face.bleed / MM
    margin = safe_margin(width, height)
    found = []
    for char in page.chars:
        if not char["text"].strip():
            continue
        left, right = char["x0"] / MM - bleed, width - (char["x1"] / MM - bleed)
        top, bottom = char["top"] / MM - bleed, height - (char["bottom"] / MM - bleed)
        closest = min(left, right, top, bottom)
        if closest < margin - TOLERANCE_MM:
            found.append(f"{spec.template} {spec.name}: {char['text']!r} {closest:.2f} mm from the trim "
                         f"(margin {margin:.2f} mm on {width:g} × {height:g} mm)")
    return found


@pytest.mark.parametrize("ink_saver", (False, True), ids=["normal", "ink-saver"])
@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_no_text_closer_to_the_trim_than_the_safe_margin(game_id, ink_saver):
    faces = list(laid_out_faces(game_id, ink_saver, marked=True))
    assert faces, game_id
    found: list[str] = []
    with measured_pages(faces) as pdf:
        assert len(pdf.pages) == len(faces)
        measured = 0
        for (spec, face), page in zip(faces, pdf.pages):
            measured += len([c for c in page.chars if c["text"].strip()])
            found.extend(violations(spec, face, page))
    assert measured > 0, game_id
    # one line per face and character is enough to find it in the template
    assert not found, f"{len(found)} characters outside the safe zone:\n" + "\n".join(dict.fromkeys(found))


@pytest.mark.parametrize("paper", sorted(PAPERS_MM))
@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_write_on_pages_keep_their_text_off_the_paper_edge(game_id, paper):
    """A score sheet is not cut: written as the build writes it, no character comes within 3 mm of the
    sheet's edge (the face itself may run to its own edge: the page writer centres it inside 10 mm)."""
    faces = list(laid_out_faces(game_id, False, pages=True, marked=True))
    if not faces:
        pytest.skip(f"{game_id} has no write-on page")
    buffer = BytesIO()
    write_pages(buffer, [face for _, face in faces], PrintOptions(paper=paper, game_title=game_id))
    width, height = PAPERS_MM[paper]
    found = []
    with pdfplumber.open(BytesIO(buffer.getvalue())) as pdf:
        assert len(pdf.pages) == len(faces)
        for (spec, _), page in zip(faces, pdf.pages):
            chars = [c for c in page.chars if c["text"].strip()]
            assert chars, spec.name
            for char in chars:
                closest = min(char["x0"] / MM, width - char["x1"] / MM, char["top"] / MM,
                              height - char["bottom"] / MM)
                if closest < SAFE_MM - TOLERANCE_MM:
                    found.append(f"{spec.template}: {char['text']!r} {closest:.2f} mm from the {paper} sheet's edge")
    assert not found, "\n".join(found)
