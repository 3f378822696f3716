"""The preflight's rules on what each page declares and draws: page boxes, bleed, paper, fonts, rasters. Each
takes the file's pages (reading.PageFacts) and the Options and returns its problems; RULES lists them in the
order their lines print. The rules on the cards themselves are in sheets.py."""

from __future__ import annotations

from pipeline.preflight.model import Options, Problem
from pipeline.preflight.geometry import PAPERS_MM, contains, height, mm, pt, size_text, width
from pipeline.preflight.reading import PageFacts

NESTED = pt(0.05)                               # a box may stick out of its parent by this
BLEED_SLACK_MM = 0.01                           # 2.99 mm of bleed is 3 mm
PAPER_SLACK_MM = 0.5
STANDARD_14 = {"Courier", "Courier-Bold", "Courier-Oblique", "Courier-BoldOblique", "Helvetica",
               "Helvetica-Bold", "Helvetica-Oblique", "Helvetica-BoldOblique", "Times-Roman", "Times-Bold",
               "Times-Italic", "Times-BoldItalic", "Symbol", "ZapfDingbats"}
SIDES = ("left", "bottom", "right", "top")


def boxes(pages: list[PageFacts], options: Options) -> list[Problem]:
    """Every box the page declares lies inside the one it is cut from (ArtBox aside); a BleedBox comes with a
    TrimBox; a file some of whose pages say where to cut says it on every page, and the same size."""
    found = []
    trimmed = [p for p in pages if p.boxes["TrimBox"] is not None]
    for page in pages:
        b = page.boxes
        if b["MediaBox"] is None:
            found.append(Problem(page.number, "error", "boxes", "has no MediaBox (the paper size is unknown)"))
            continue
        crop = b["CropBox"] or b["MediaBox"]
        bleed = b["BleedBox"] or crop
        for name, box, parent, parent_name in (("CropBox", b["CropBox"], b["MediaBox"], "MediaBox"),
                                               ("BleedBox", b["BleedBox"], crop, "CropBox"),
                                               ("TrimBox", b["TrimBox"], bleed, "BleedBox")):
            if box is not None and not contains(parent, box, NESTED):
                found.append(Problem(page.number, "error", "boxes", f"its {name} ({_box(box)}) is not inside its "
                                     f"{parent_name if b[parent_name] else 'MediaBox'} ({_box(parent)})"))
        if b["TrimBox"] is None and b["BleedBox"] is not None:
            found.append(Problem(page.number, "error", "boxes", "has a BleedBox but no TrimBox: where to cut is "
                                                                "not said"))
        elif b["TrimBox"] is None and trimmed:
            found.append(Problem(page.number, "error", "boxes",
                                 f"has no TrimBox, where page {trimmed[0].number} of the same file has one"))
    if trimmed:
        first = trimmed[0]
        size = (width(first.boxes["TrimBox"]), height(first.boxes["TrimBox"]))
        for page in trimmed[1:]:
            trim = page.boxes["TrimBox"]
            if max(abs(width(trim) - size[0]), abs(height(trim) - size[1])) > NESTED:
                found.append(Problem(page.number, "error", "boxes",
                                     f"its TrimBox is {size_text(mm(width(trim)), mm(height(trim)))}, page "
                                     f"{first.number}'s {size_text(mm(size[0]), mm(size[1]))}: one trim a file"))
    return found


def bleed(pages: list[PageFacts], options: Options) -> list[Problem]:
    """Around a TrimBox, at least options.bleed_mm of page (BleedBox, else CropBox, else MediaBox) each side."""
    found = []
    for page in pages:
        b = page.boxes
        trim = b["TrimBox"]
        if trim is None or b["MediaBox"] is None:
            continue
        outer = b["BleedBox"] or b["CropBox"] or b["MediaBox"]
        margins = [mm(trim[0] - outer[0]), mm(trim[1] - outer[1]), mm(outer[2] - trim[2]), mm(outer[3] - trim[3])]
        short = [(m, side) for m, side in zip(margins, SIDES) if m < options.bleed_mm - BLEED_SLACK_MM]
        if short:
            least = min(m for m, _ in short)
            found.append(Problem(page.number, "error", "bleed",
                                 f"bleed is {max(least, 0):.2f} mm on the {', '.join(s for _, s in short)}, under "
                                 f"{options.bleed_mm:g} mm (TrimBox to {_outer_name(b)})"))
    return found


def paper(pages: list[PageFacts], options: Options) -> list[Problem]:
    if options.paper is None:
        return []
    want = PAPERS_MM[options.paper]
    found = []
    for page in pages:
        w, h = mm(width(page.media)), mm(height(page.media))
        if not any(abs(w - a) <= PAPER_SLACK_MM and abs(h - b) <= PAPER_SLACK_MM for a, b in (want, want[::-1])):
            found.append(Problem(page.number, "error", "paper", f"is {size_text(w, h)}, not "
                                 f"{options.paper.upper() if options.paper != 'letter' else 'US Letter'} "
                                 f"({want[0]:g} × {want[1]:g} mm)"))
    return found


def fonts(pages: list[PageFacts], options: Options) -> list[Problem]:
    """A font the text uses and the file does not carry: one line, on the first page using it."""
    used: dict[str, list[int]] = {}
    for page in pages:
        for name, embedded in page.fonts.items():
            if not embedded:
                used.setdefault(name, []).append(page.number)
    found = []
    for name, numbers in used.items():
        base = name.split("+", 1)[-1]
        what = " (one of the 14 standard PDF fonts: each printer substitutes its own)" if base in STANDARD_14 else ""
        also = f", used on {len(numbers)} pages" if len(numbers) > 1 else ""
        found.append(Problem(numbers[0], "error", "fonts", f"font {name} is not embedded{what}{also}"))
    return found


def images(pages: list[PageFacts], options: Options) -> list[Problem]:
    """The lowest effective resolution on each page, when under options.min_dpi (an error under error_dpi).
    A raster of 2 × 2 pixels or fewer is a flat colour, not a picture."""
    found = []
    for page in pages:
        low = sorted((r for r in page.rasters if r.dpi < options.min_dpi and max(r.pixels) > 2), key=lambda r: r.dpi)
        if not low:
            continue
        worst = low[0]
        severity = "error" if worst.dpi < options.error_dpi else "warning"
        limit = options.error_dpi if severity == "error" else options.min_dpi
        more = f" (and {len(low) - 1} more under {options.min_dpi:g} dpi)" if len(low) > 1 else ""
        w, h = mm(width(worst.bounds)), mm(height(worst.bounds))
        found.append(Problem(page.number, severity, "images",
                             f"image of {worst.pixels[0]} × {worst.pixels[1]} px placed at {size_text(w, h)} is "
                             f"{worst.dpi:.0f} dpi, under {limit:g}{more}"))
    return found


def _box(r) -> str:
    return f"{mm(r[0]):.1f} {mm(r[1]):.1f} {mm(r[2]):.1f} {mm(r[3]):.1f} mm"


def _outer_name(b: dict) -> str:
    return "BleedBox" if b["BleedBox"] else "CropBox" if b["CropBox"] else "page edge"


RULES = (boxes, bleed, paper, fonts, images)
