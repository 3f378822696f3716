"""The stack figure (pipeline/render/rulebook/stackfig.py): a pile of real card faces drawn as a cascade, bottom card
first, each next card one band lower and over it; labels, marks and a caption from templates/common/
fig-stack.yaml. Measured back from the PDF: where each card is (its background rect and its name), which card
covers which (rendered pixels), what is hidden (not drawn at all), and the words' sizes in a rulebook."""

from __future__ import annotations

import shutil
import textwrap
from io import BytesIO
from pathlib import Path

import pdfplumber
import pypdfium2
import pytest

from pipeline import PROJECT_ROOT
from pipeline.core.errors import Report
from pipeline.core.printing import PrintOptions
from pipeline.core.progress import Progress
from pipeline.core.units import MM
from pipeline.data.specs import FaceSpec, RulebookSpec
from pipeline.kinds import rulebook as rulebook_kind
from pipeline.render.faces.primitives import Group, Line, Rect, Text, smallest_text
from pipeline.render.faces.renderer import FaceRenderer
from pipeline.render.fonts import default_fonts
from pipeline.render.pdf import new_canvas
from pipeline.render.rulebook.book import write_rulebook
from pipeline.render.rulebook.stackfig import OVERLAY, StackCard, StackFigure, StackLayout, lay_out_stack

CARD_W, CARD_H, BLEED = 63.5, 88.9, 3.0
COLOURS = ["#D03030", "#30A040", "#3050D0", "#E0A020", "#8040A0"]
CARD = """\
    size: [63.5, 88.9]
    bleed: 3
    elements:
      - rect: {x: -3, y: -3, w: 69.5, h: 94.9, fill: "{{ colour }}"}
      - text: {x: 4, y: 3, w: 40, h: 6, text: "{{ name }}", font: bold, size: 9, valign: middle, color: "#FFFFFF"}
      - text: {x: 46, y: 3, w: 13, h: 6, text: "{{ value }}", font: bold, size: 9, align: right, color: "#FFFFFF"}
      - text: {x: 4, y: 40, w: 55, h: 10, text: "dessous-{{ name }}", size: 9, color: "#FFFFFF"}
    """


@pytest.fixture
def proj(tmp_path: Path) -> Path:
    """A scratch project: a card template, the real overlay (templates/common/fig-stack.yaml)."""
    root = tmp_path / "proj"
    (root / "templates" / "game").mkdir(parents=True)
    (root / "templates" / "common").mkdir()
    shutil.copy(PROJECT_ROOT / "templates" / "common" / "fig-stack.yaml", root / "templates" / "common")
    (root / "templates" / "game" / "card.yaml").write_text(textwrap.dedent(CARD), encoding="utf-8")
    return root


def card(index: int, label: str = "", mark: str = "") -> StackCard:
    context = {"name": f"CARTE{index}", "value": str(index), "colour": COLOURS[index]}
    return StackCard(FaceSpec("card.yaml", context, None, f"card-{index}"), label, mark)


def lay_out(root: Path, stack: StackFigure) -> tuple[StackLayout, list]:
    renderer, problems = FaceRenderer(root, root / "templates" / "game", default_fonts()), []

    def layout(face: FaceSpec):
        laid, found = renderer.layout(face.template, face.context, None, face.name, size_mm=face.size_mm)
        problems.extend(found)
        return laid

    return lay_out_stack(stack, layout), problems


def to_pdf(figure: StackLayout) -> bytes:
    buffer = BytesIO()
    canvas = new_canvas(buffer, (figure.width, figure.height), default_fonts())
    figure.draw(canvas)
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def words(pdf: bytes) -> list[dict]:
    with pdfplumber.open(BytesIO(pdf)) as doc:
        return [dict(w) for page in doc.pages for w in page.extract_words(extra_attrs=["size"])]


def flat(primitives, dx: float = 0.0, dy: float = 0.0) -> list:
    """Lines and rects out of their (unrotated) groups, moved to the figure's coordinates."""
    out = []
    for item in primitives:
        if isinstance(item, Group):
            out += flat(item.children, dx + item.x, dy + item.y)
        elif isinstance(item, Line):
            out.append(item._replace(x1=item.x1 + dx, y1=item.y1 + dy, x2=item.x2 + dx, y2=item.y2 + dy))
        elif isinstance(item, Rect):
            out.append(item._replace(x=item.x + dx, y=item.y + dy))
    return out


def test_the_cards_cascade_one_band_apart_bottom_card_highest(proj):
    stack = StackFigure("pile", tuple(card(i) for i in range(4)), band_mm=12.0)
    figure, problems = lay_out(proj, stack)
    assert problems == []
    assert figure.width == pytest.approx(CARD_W * MM, abs=0.01)             # no label: no label column
    assert figure.height == pytest.approx((3 * 12.0 + CARD_H) * MM, abs=0.01)
    pdf = to_pdf(figure)
    with pdfplumber.open(BytesIO(pdf)) as doc:
        page = doc.pages[0]
        backgrounds = sorted((r for r in page.rects if r["width"] > CARD_W * MM), key=lambda r: r["top"])
        assert len(backgrounds) == 4                                        # one per card
        tops = [r["top"] / MM for r in backgrounds]                         # the bleed starts 3 mm above the trim
        assert tops == pytest.approx([i * 12.0 - BLEED for i in range(4)], abs=0.05)
        colours = [tuple(round(c, 2) for c in r["non_stroking_color"]) for r in backgrounds]
    expected = [tuple(round(int(h[k:k + 2], 16) / 255, 2) for k in (1, 3, 5)) for h in COLOURS[:4]]
    assert colours == expected                                              # bottom card at the top
    names = [w for w in words(pdf) if w["text"].startswith("CARTE")]
    assert [w["text"] for w in sorted(names, key=lambda w: w["top"])] == ["CARTE0", "CARTE1", "CARTE2", "CARTE3"]
    gaps = [(b["top"] - a["top"]) / MM for a, b in zip(names, names[1:])]
    assert gaps == pytest.approx([12.0] * 3, abs=0.05)


def test_each_card_covers_the_one_under_it_and_the_hidden_part_is_not_drawn(proj):
    figure, _ = lay_out(proj, StackFigure("pile", tuple(card(i) for i in range(4)), band_mm=12.0))
    pdf = to_pdf(figure)
    image = pypdfium2.PdfDocument(pdf)[0].render(scale=4 / MM).to_pil()
    per_mm = image.width / CARD_W
    for index in range(4):                          # the middle of card i's band shows card i's colour
        pixel = image.getpixel((int(2 * per_mm), int((index * 12 + 10) * per_mm)))[:3]
        wanted = tuple(int(COLOURS[index][k:k + 2], 16) for k in (1, 3, 5))
        assert max(abs(a - b) for a, b in zip(pixel, wanted)) < 8, (index, pixel, wanted)
    hidden = [w["text"] for w in words(pdf) if w["text"].startswith("dessous")]
    assert hidden == ["dessous-CARTE3"]                                     # only the top card's body shows
    assert smallest_text(figure.primitives) == pytest.approx(9.0)


def test_a_card_may_show_a_band_of_its_own(proj):
    cards = (card(0), StackCard(card(1).face, "plus haute", band_mm=25.0), card(2), card(3))
    figure, _ = lay_out(proj, StackFigure("pile", cards, band_mm=12.0, top_mm=16.0))
    assert figure.height == pytest.approx((12 + 25 + 12 + 16) * MM, abs=0.01)
    names = sorted((w for w in words(to_pdf(figure)) if w["text"].startswith("CARTE")), key=lambda w: w["top"])
    assert [w["text"] for w in names] == ["CARTE0", "CARTE1", "CARTE2", "CARTE3"]
    assert [(b["top"] - a["top"]) / MM for a, b in zip(names, names[1:])] == pytest.approx([12, 25, 12], abs=0.05)
    assert [clip[3] / MM for clip in figure.clips] == pytest.approx([12, 25, 12, 16], abs=0.01)


def test_a_cropped_top_card_labels_marks_and_caption(proj):
    cards = (card(0, "attaquant"), card(1, "faute", "foul"), card(2, "ignorée", "cross"), card(3, "tir : 12"))
    stack = StackFigure("pile", cards, band_mm=12.0, top_mm=20.0, label_mm=21.0, caption="Total 12 : 2 points")
    figure, problems = lay_out(proj, stack)
    assert problems == []
    assert figure.width == pytest.approx((CARD_W + 2 + 21) * MM, abs=0.01)
    assert figure.height == pytest.approx((3 * 12 + 20 + 8) * MM, abs=0.01)
    found = words(to_pdf(figure))
    labels = {w["text"]: w for w in found if w["x0"] > CARD_W * MM}
    assert {"attaquant", "faute", "ignorée", "tir", "12"} <= set(labels)
    for index, text in enumerate(("attaquant", "faute", "ignorée")):       # beside its own band
        middle = (labels[text]["top"] + labels[text]["bottom"]) / 2 / MM
        assert index * 12 < middle < (index + 1) * 12, (text, middle)
    assert not [w for w in found if w["text"].startswith("dessous")]       # the top card shows 20 mm only
    caption = [w for w in found if w["top"] > (3 * 12 + 20) * MM]
    assert " ".join(w["text"] for w in caption) == "Total 12 : 2 points"
    overlay = flat(figure.primitives[len(figure.clips):])
    height = figure.height / MM
    crossed = [p for p in overlay if isinstance(p, Line)]
    assert len(crossed) == 2 and all(height - 36 < p.y1 / MM < height - 24 for p in crossed)   # card 2's band
    framed = [p for p in overlay if isinstance(p, Rect) and p.stroke is not None]
    assert len(framed) == 1 and height - 24 < framed[0].y / MM < height - 12                  # card 1's band
    assert min(w["size"] for w in found) >= 7.0


def test_in_a_rulebook_column_it_is_scaled_to_the_column_and_its_words_stay_at_6_pt_or_more(proj):
    """A pile wider than a column (its labels) is reduced at least to the column's width, and (a legible
    figure) never below 6 pt words. (The figure row's height cap, 45 % of a column, is not held back by that
    floor: a game sizes its piles to fit it, ~108 mm on Letter.)"""
    cards = tuple(card(i, "carte") for i in range(5))
    figure, _ = lay_out(proj, StackFigure("pile", cards, band_mm=12.0, top_mm=14.0, label_mm=30.0))
    folder = proj / "templates" / "game" / "rules"
    folder.mkdir()
    (folder / "01-pile.md").write_text("# Une pile\n\nLe texte.\n\n![Une pile](figure:pile)\n", encoding="utf-8")
    buffer = BytesIO()
    info = write_rulebook(buffer, folder, {}, {"pile": figure}, PrintOptions(paper="a4", game_title="Essai"), proj)
    assert info["figures"] == ["pile"]
    found = [w for w in words(buffer.getvalue()) if w["text"].startswith("CARTE") or w["text"] == "carte"]
    assert len(found) == 10 and min(w["size"] for w in found) >= 6.0
    scale = min(w["size"] for w in found if w["text"] == "carte") / 9       # the labels are set at 9 pt
    column = (210 - 2 * 15 - 7) / 2 * MM
    assert 6 / 9 - 0.01 <= scale <= column / figure.width + 0.01            # in the column, words at 6 pt or more
    names = sorted((w for w in found if w["text"].startswith("CARTE")), key=lambda w: w["top"])
    assert [w["text"] for w in names] == [f"CARTE{i}" for i in range(5)]
    assert [w["size"] for w in names] == pytest.approx([9 * scale] * 5, abs=0.05)   # one scale for all
    assert [(b["top"] - a["top"]) / MM for a, b in zip(names, names[1:])] == pytest.approx([12 * scale] * 4, abs=0.05)


def test_the_rulebook_kind_lays_a_pile_out_and_lists_its_cards(proj):
    stack = StackFigure("pile", (card(0), card(1)))
    plain = FaceSpec("card.yaml", {"name": "SEULE", "value": "1", "colour": COLOURS[0]}, None, "seule")
    spec = RulebookSpec("rulebook", "Règles", "rules", {}, {"pile": stack, "seule": plain})
    renderer = FaceRenderer(proj, proj / "templates" / "game", default_fonts())
    laid = rulebook_kind.lay_out(spec, lambda face: renderer.layout(face.template, face.context, None, face.name,
                                                                     size_mm=face.size_mm)[0],
                                 Progress(), False, Report())
    assert isinstance(laid["pile"], StackLayout) and laid["pile"].legible and not laid["seule"].legible
    assert [face.name for face in rulebook_kind.spec_faces(spec)] == ["card-0", "card-1", "seule"]
    assert rulebook_kind.faces_of(laid)[0].missing_art == ()


def test_a_bad_mark_or_an_empty_pile_is_refused():
    with pytest.raises(ValueError, match="mark"):
        StackCard(FaceSpec("card.yaml", {}, None, "x"), "ignorée", "strike")
    with pytest.raises(ValueError, match="band_mm"):
        StackCard(FaceSpec("card.yaml", {}, None, "x"), band_mm=0)
    with pytest.raises(ValueError, match="no card"):
        StackFigure("pile", ())
    assert OVERLAY.endswith("common/fig-stack.yaml")


def test_what_shows_of_a_card_is_what_reaches_its_band():
    """visible(): shapes reaching into the band stay (the clip cuts them); a text run stays only when its
    letters lie wholly inside the band, in a rotated group too."""
    from pipeline.render.faces.text import Run
    from pipeline.render.rulebook.stackfig import visible

    def text(y: float, word: str, size: float = 9.0) -> Text:
        return Text(None, (Run("Lato", size, 10.0, y, word),), (), size * 1.2)

    band = (0.0, 200.0, 180.0, 250.0)                               # the top 50 pt of a 250 pt card
    shown = visible((text(230, "dedans"), text(199, "coupé"), text(100, "caché"),
                     Rect(0, 0, 180, 250, 0, (1, 1, 1), None, 0, None), Rect(0, 0, 180, 150, 0, (1, 0, 0), None, 0, None),
                     Group(150, 205, 90.0, (text(0, "tourné", 6),)),        # turned a quarter: reads upwards
                     Group(150, 100, 90.0, (text(0, "bas", 6),))), band)
    words = [run.text for item in shown if isinstance(item, Text) for run in item.runs]
    words += [run.text for item in shown if isinstance(item, Group) for child in item.children for run in child.runs]
    assert words == ["dedans", "tourné"]
    assert [item.height for item in shown if isinstance(item, Rect)] == [250]
