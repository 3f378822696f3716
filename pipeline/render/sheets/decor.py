"""What a card sheet carries besides the cards: crop marks, the header, the calibration bar, the fold line.

Positions come from a SheetPlan (millimetres); drawing is in points. Header and footer are drawn in a
band's own coordinates (u along the band, v across it), so a band turned into a side margin needs no
second layout. A windowed band (crossed by crop marks) carries them as one line the marks interrupt,
laid out by pipeline/render/sheets/bandflow.py.
"""

from __future__ import annotations

import re
from contextlib import contextmanager

from reportlab.pdfbase.pdfmetrics import stringWidth

from pipeline.core.units import MM
from pipeline.render.faces.edition_mark import SIZE as MARK_SIZE, draw_page_mark
from pipeline.render.fonts import FontSet
from pipeline.render.glyphs import draw_string, string_width
from pipeline.render.pdf import page_mark
from pipeline.render.sheets.bandflow import Piece, flow
from pipeline.render.sheets.plan import (BAR_LABEL_GAP_MM, BAR_MM, Band, FOOTER_SPACING, LINE, SheetPlan,
                                         footer_pieces)

TEXT_SIZE = 7.0
MIN_TEXT_SIZE = 6.0                # the smallest printed text the design allows
MARK_WIDTH = 0.3                   # points: thin enough to cut through, thick enough to see
CALIBRATION_LABEL = "50 mm — imprimer à 100 % (taille réelle)"
FOOTER_NOTES = {"duplex": ("recto verso : retourner sur le bord long",),
                "foldover": ("recto seul : plier la feuille sur le pointillé, coller, puis découper",),
                "tokens": ("recto seul ; jeton recto verso : plier sur le pointillé, coller",)}
FOLD_LABEL = "plier ici"
MARK_GAP_MM = 3.0                  # between the header's title and the edition mark at the band's end
HEADER_SEPARATOR = " · "           # between a header's parts: game, component, variant, page
_LISTED = re.compile(r" \([^()]*, [^()]*\)")      # " (A, B, C)": the members a pooled sheet lists


def footer_items(fonts: FontSet, mode: str) -> tuple[float, ...]:
    """Length in mm of each footer item (calibration bar with its label, then the notes)."""
    font = fonts.name("body")
    bar = BAR_MM + BAR_LABEL_GAP_MM + stringWidth(CALIBRATION_LABEL, font, TEXT_SIZE) / MM
    return (bar, *(stringWidth(note, font, TEXT_SIZE) / MM for note in FOOTER_NOTES.get(mode, ())))


def draw_marks(canvas, segments) -> None:
    if not segments:
        return
    canvas.saveState()
    canvas.setStrokeColorRGB(0, 0, 0)
    canvas.setLineWidth(MARK_WIDTH)
    canvas.setLineCap(0)  # butt ends: a mark stops exactly where it is measured to stop
    canvas.lines([(x0 * MM, y0 * MM, x1 * MM, y1 * MM) for (x0, y0), (x1, y1) in segments])
    canvas.restoreState()


@contextmanager
def _band_space(canvas, band: Band):
    """Local coordinates of a band, in points: u from 0 to its length, v from 0 to its thickness.
    Side bands are turned 90° counter-clockwise, so their text reads bottom to top."""
    canvas.saveState()
    if band.vertical:
        canvas.translate(band.rect.x1 * MM, band.rect.y0 * MM)
        canvas.rotate(90)
    else:
        canvas.translate(band.rect.x0 * MM, band.rect.y0 * MM)
    try:
        yield band.length * MM, band.thickness * MM
    finally:
        canvas.restoreState()


def _baseline(fonts: FontSet, size: float, line_bottom: float) -> float:
    """The baseline that centres the glyphs' full height (ascent + descent) on a LINE-high slice."""
    ascent, descent = fonts.ascent("body") * size, fonts.descent("body") * size
    return line_bottom + (LINE * MM - ascent - descent) / 2 + descent


def _fit_text(text: str, font: str, room: float, fallbacks: tuple[str, ...]) -> tuple[str, float]:
    """A header never leaves its band, and never loses its last part (the page: "page 3/14 (recto)"). In
    order: shrink down to the minimum size; drop the lists in parentheses that name a pool's members
    ("Cartes 63,5 × 88,9 mm : 8 paquets (Cartes Ville, …)" keeps "… : 8 paquets"); cut the longest part
    before the last with an ellipsis, again and again; the last part is cut only when nothing else is left."""
    for candidate in dict.fromkeys((text, without_lists(text))):
        size = _fitting_size(candidate, font, room, fallbacks)
        if size is not None:
            return candidate, size
    parts = without_lists(text).split(HEADER_SEPARATOR)
    while len(parts) > 1 and string_width(HEADER_SEPARATOR.join(parts), font, MIN_TEXT_SIZE, fallbacks) > room:
        longest = max(range(len(parts) - 1), key=lambda i: len(parts[i]))
        if len(parts[longest]) <= 2:
            break
        parts[longest] = parts[longest].removesuffix("…")[:-1].rstrip() + "…"
    text = HEADER_SEPARATOR.join(parts)
    while string_width(text, font, MIN_TEXT_SIZE, fallbacks) > room and len(text) > 1:
        text = text[:-2] + "…"
    return text, MIN_TEXT_SIZE


def _fitting_size(text: str, font: str, room: float, fallbacks: tuple[str, ...]) -> float | None:
    """The largest size from TEXT_SIZE down to MIN_TEXT_SIZE (by quarter points) at which `text` fits."""
    size = TEXT_SIZE
    while string_width(text, font, size, fallbacks) > room:
        if size <= MIN_TEXT_SIZE:
            return None
        size = max(MIN_TEXT_SIZE, size - 0.25)
    return size


def without_lists(text: str) -> str:
    """The header with every list in parentheses ("(A, B, C)": a comma inside) left out."""
    return _LISTED.sub("", text)


def draw_header(canvas, fonts: FontSet, band: Band, text: str) -> None:
    """Game and component titles are the designer's: drawn with the fallback chain. The page's edition mark,
    when the build gives one, ends the band; the centred title keeps clear of it on both sides."""
    font = fonts.name("body")
    mark = page_mark()
    if band.stops:
        _flow_header(canvas, fonts, band, text, mark)
        return
    with _band_space(canvas, band) as (length, thickness):
        bottom = thickness - LINE * MM
        clear = string_width(mark, font, MARK_SIZE, fonts.fallbacks) + MARK_GAP_MM * MM if mark else 0.0
        text, size = _fit_text(text, font, length - 2 * clear, fonts.fallbacks)
        canvas.setFillColorRGB(0, 0, 0)
        draw_string(canvas, length / 2, _baseline(fonts, size, bottom), text, font, size,
                    fonts.fallbacks, align="centre")
        draw_page_mark(canvas, fonts, length, _baseline(fonts, MARK_SIZE, bottom), mark)


def draw_footer(canvas, fonts: FontSet, band: Band, lines: int, notes: tuple[str, ...]) -> None:
    """The calibration bar and its label, then the notes: side by side on one line, or one per line."""
    font = fonts.name("body")
    if band.stops:
        _flow_footer(canvas, fonts, band, notes)
        return
    widths = [w * MM for w in footer_items(fonts, "")] + [stringWidth(n, font, TEXT_SIZE) for n in notes]
    items = [None, *notes]  # None stands for the calibration bar
    with _band_space(canvas, band) as (length, thickness):
        canvas.setFillColorRGB(0, 0, 0)
        canvas.setStrokeColorRGB(0, 0, 0)
        canvas.setFont(font, TEXT_SIZE)
        if lines == 1:
            total = sum(widths) + FOOTER_SPACING * MM * (len(widths) - 1)
            u = (length - total) / 2
            for item, width in zip(items, widths):
                _footer_item(canvas, fonts, item, u, thickness - LINE * MM)
                u += width + FOOTER_SPACING * MM
        else:
            for index, (item, width) in enumerate(zip(items, widths)):
                _footer_item(canvas, fonts, item, (length - width) / 2, thickness - (index + 1) * LINE * MM)


def _footer_item(canvas, fonts: FontSet, item: str | None, u: float, line_bottom: float) -> None:
    baseline = _baseline(fonts, TEXT_SIZE, line_bottom)
    if item is not None:
        canvas.drawString(u, baseline, item)
        return
    _calibration_bar(canvas, u, line_bottom + LINE * MM / 2)
    canvas.drawString(u + (BAR_MM + BAR_LABEL_GAP_MM) * MM, baseline, CALIBRATION_LABEL)


HEADER_JOINERS = (HEADER_SEPARATOR, ", ")   # where a windowed band's header may break, the stronger first
ELLIPSIS = " …"


def _header_parts(fonts: FontSet, text: str, room: float) -> list[list[str]]:
    """The header's parts (cut at each " · "), each as its words: a part longer than `room` (mm) cut at
    its commas, each comma kept with the word before it; a word still too long cut with an ellipsis."""
    font, fallbacks = fonts.name("body"), fonts.fallbacks
    parts = []
    for part in text.split(HEADER_JOINERS[0]):
        words = [part]
        if string_width(part, font, TEXT_SIZE, fallbacks) > room * MM:
            cut = part.split(HEADER_JOINERS[1])
            words = [w + HEADER_JOINERS[1].strip() for w in cut[:-1]] + cut[-1:]
        for index, word in enumerate(words):
            while string_width(word, font, TEXT_SIZE, fallbacks) > room * MM and len(word) > 1:
                word = word[:-2] + "…"
            words[index] = word
        parts.append(words)
    return parts


def _flow_header(canvas, fonts: FontSet, band: Band, text: str, mark: str) -> None:
    """The header, then the edition mark, along a windowed band (bandflow.flow). Words that do not all fit
    leave from the end of the longest list (its last shown word followed by "…"), so the page number and
    the mark stay."""
    font, fallbacks = fonts.name("body"), fonts.fallbacks
    windows = band.windows()
    width = lambda t, size=TEXT_SIZE: string_width(t, font, size, fallbacks) / MM  # noqa: E731
    parts = _header_parts(fonts, text, max((b - a for a, b in windows), default=0.0))
    while True:
        pieces = [(HEADER_JOINERS[0] if index == 0 else " ", word)
                  for part in parts for index, word in enumerate(part)]
        laid = [Piece(width(words), width(joiner)) for joiner, words in pieces]
        laid += [Piece(width(mark, MARK_SIZE), MARK_GAP_MM)] if mark else []
        starts = flow(laid, windows)
        longest = max(parts, key=len)
        if starts is not None or len(longest) < 2:
            break
        shown = longest[-2].removesuffix(ELLIPSIS)
        longest[-2:] = [shown + ("" if shown.endswith(",") else ",") + ELLIPSIS]
    if starts is None:              # not even one word a part fits: nothing rather than words over words
        return
    with _band_space(canvas, band) as (_, thickness):
        canvas.setFillColorRGB(0, 0, 0)
        baseline = _baseline(fonts, TEXT_SIZE, thickness - LINE * MM)
        for index, ((joiner, words), piece, (window, u)) in enumerate(zip(pieces, laid, starts)):
            if index and starts[index - 1][0] == window:
                draw_string(canvas, (u - piece.joiner) * MM, baseline, joiner, font, TEXT_SIZE, fallbacks)
            draw_string(canvas, u * MM, baseline, words, font, TEXT_SIZE, fallbacks)
        if mark:
            draw_page_mark(canvas, fonts, starts[-1][1] * MM,
                           _baseline(fonts, MARK_SIZE, thickness - LINE * MM), mark, align="left")


def _flow_footer(canvas, fonts: FontSet, band: Band, notes: tuple[str, ...]) -> None:
    """The calibration bar, its label and the notes along a windowed band (bandflow.flow)."""
    font = fonts.name("body")
    texts = [CALIBRATION_LABEL, *notes]
    items = (footer_items(fonts, "")[0], *(stringWidth(n, font, TEXT_SIZE) / MM for n in notes))
    starts = flow(footer_pieces(items), band.windows()) or []
    with _band_space(canvas, band) as (_, thickness):
        canvas.setFillColorRGB(0, 0, 0)
        canvas.setStrokeColorRGB(0, 0, 0)
        canvas.setFont(font, TEXT_SIZE)
        line_bottom = thickness - LINE * MM
        for index, (_, u) in enumerate(starts):
            if index == 0:
                _calibration_bar(canvas, u * MM, line_bottom + LINE * MM / 2)
            else:
                canvas.drawString(u * MM, _baseline(fonts, TEXT_SIZE, line_bottom), texts[index - 1])


def _calibration_bar(canvas, u: float, v: float) -> None:
    """A 50.0 mm bar between the centres of its end ticks, with a small tick every 10 mm, drawn as one
    open path so that no part of it reads as a crop mark to a preflight."""
    end, small = 1.0 * MM, 0.6 * MM
    path = canvas.beginPath()
    path.moveTo(u, v - end)
    path.lineTo(u, v + end)
    path.lineTo(u, v)
    for step in range(1, 5):
        x = u + step * 10 * MM
        path.lineTo(x, v)
        path.lineTo(x, v + small)
        path.lineTo(x, v)
    x = u + BAR_MM * MM
    path.lineTo(x, v)
    path.lineTo(x, v + end)
    path.lineTo(x, v - end)
    canvas.saveState()
    canvas.setLineWidth(0.5)
    canvas.setLineCap(0)
    canvas.drawPath(path, stroke=1, fill=0)
    canvas.restoreState()


def draw_fold_line(canvas, fonts: FontSet, plan: SheetPlan) -> None:
    """A dashed line across the sheet between the two halves, broken for its label. The label sits over
    the middle of the first column, where no cut line (and so no mark) runs."""
    font = fonts.name("body")
    y = plan.fold_y * MM
    label_w = stringWidth(FOLD_LABEL, font, TEXT_SIZE)
    centre = plan.cell(0, 0).centre[0] * MM
    block = plan.front_block
    reach = plan.mark_offset + plan.mark_x          # as far as the marks go, clear of any side band
    left, right = (block.x0 - reach) * MM, (block.x1 + reach) * MM
    pad = 1.5 * MM
    canvas.saveState()
    canvas.setStrokeColorRGB(0.45, 0.45, 0.45)  # grey: a fold, not a cut
    canvas.setLineWidth(0.4)
    canvas.setDash([2 * MM, 1.5 * MM])
    canvas.line(left, y, centre - label_w / 2 - pad, y)
    canvas.line(centre + label_w / 2 + pad, y, right, y)
    canvas.setFillColorRGB(0, 0, 0)
    canvas.setFont(font, TEXT_SIZE)
    canvas.drawCentredString(centre, _baseline(fonts, TEXT_SIZE, y - LINE * MM / 2), FOLD_LABEL)
    canvas.restoreState()
