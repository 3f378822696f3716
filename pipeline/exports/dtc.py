"""DriveThruCards: one PDF per deck, one card a page, and its PDF/X-1a:2003 twin when Ghostscript can make it.

Facts from ../shared/EXPORTS.md §6.1 (DTC's help page, first-party):
- a poker card's page is 2.75 × 3.75 in (198 × 270 pt): the 2.5 × 3.5 in trim and 1/8 in of bleed each side,
  built into the page; TrimBox [9 9 189 261], BleedBox = MediaBox; no crop marks (the page is the bleed box,
  there is no room for them); fonts embedded (reportlab TrueType subsets, FontFile2);
- the file DTC asks for is PDF/X-1a:2003 (pipeline/exports/pdfx.py, Ghostscript >= 10.05 run as a separate
  program). Without it only the RGB PDF is written and the notes say what the conversion needs: never a
  non-X file passed off as X.
- Page order: front, back, front, back… Squib's DTC layout alternates back/front and another note says
  "strict face/back page order": which side comes first is uncertain [U]; check DTC's template.

Each face is drawn at its true size, trim centred, over an enlarged copy of itself where the 1/8 in bleed
(3.175 mm) reaches past the face's own (3 mm): pipeline/exports/raster.draw_centred. A face repeated in a
deck (a shared back, a card's copies) is drawn once as a form and placed on each of its pages.

Faces are vector; art images placed on them may carry alpha, which PDF/X-1a conversion flattens by turning
the whole page into one raster [U: how that prints]. Those pages are reported in the notes, not changed.
"""

from __future__ import annotations

import io
from collections import Counter

from pipeline.core.units import MM
from pipeline.exports import pdfx, raster, shops
from pipeline.exports.pieces import Piece
from pipeline.exports.presets import file_safe
from pipeline.exports.result import Export
from pipeline.render.fonts import default_fonts
from pipeline.render.pdf import new_canvas

PDFX_RULE = "pdfx"          # a Ghostscript conversion that failed: a real problem, never acknowledged

TARGET = shops.DTC


def export(game_id: str, title: str, pieces: list[Piece], gs: str | None = None) -> Export:
    """`<component>.pdf` for every deck (or token set) of a game that matches a DTC product, and
    `<component>-x1a.pdf` too when `gs` is a Ghostscript >= 10.05. Pure: returns the files as bytes."""
    result = Export(TARGET)
    version = pdfx.gs_version(gs) if gs else None
    convert = pdfx.can_convert(version)
    written, transparent = {}, []
    pairs, skipped = shops.taken(TARGET, pieces, result)
    for piece, product in pairs:
        name = file_safe(piece.id, "composant")
        pdf, pages = deck_pdf(piece, product, f"{title} — {piece.title}")
        result.add(f"{name}.pdf", pdf)
        facts = {"component": piece.id, "title": piece.title, "identity": product.identity, "pages": pages,
                 "page_pt": [round(side, 3) for side in product.file_pt], "trim_box": list(_trim_box(product))}
        alpha = pdfx.transparent_pages(pdf)
        if alpha:
            transparent.append(f"{name}.pdf ({len(alpha)} of {pages} pages)")
            facts["transparent_pages"] = alpha
        if convert:
            try:
                x1a = pdfx.convert(pdf, gs)
            except pdfx.ConversionError as error:
                result.warn(piece.id, f"no PDF/X-1a: {error}; the RGB PDF was written", rule=PDFX_RULE)
            else:
                result.add(f"{name}-x1a.pdf", x1a)
                facts["pdfx"] = pdfx.PDFX_VERSION
                failed = pdfx.preflight(x1a, (0, 0, *product.file_pt), _trim_box(product))
                if failed:
                    facts["preflight"] = failed
                    result.warn(piece.id, f"{name}-x1a.pdf fails the PDF/X-1a checks: {'; '.join(failed[:3])}"
                                + (f" (and {len(failed) - 3} more)" if len(failed) > 3 else ""), rule=PDFX_RULE)
        written[name] = facts
    result.info = {"game": game_id, "title": title, "shop": shops.SHOP_NAMES[TARGET], "files": written,
                   "ghostscript": pdfx.version_text(version), "page_order": "front, back [U]",
                   "not_card_products": skipped}
    if written and not convert:
        result.notes.append(f"PDF/X-1a for DriveThruCards needs Ghostscript ≥ "
                            f"{pdfx.version_text(pdfx.MIN_VERSION)} on PATH (found: {pdfx.version_text(version)}); "
                            f"the RGB PDF was written")
    if transparent:
        result.notes.append("DriveThruCards: pages with transparency (art with alpha), flattened to one image "
                            f"each by PDF/X-1a [U]: {', '.join(transparent)}")
    if skipped:
        result.notes.append(f"DriveThruCards: not card products, left out: {', '.join(skipped)}")
    return result


def deck_pdf(piece: Piece, product: shops.Product, title: str) -> tuple[bytes, int]:
    """The deck as DTC's card file: a page a face (front, back, front, back…; fronts only when no card has
    a back, a blank page for a missing back), each page the bleed box. Returns the bytes and the page count."""
    width, height = product.file_pt
    sides = [(card.front, card.back) if piece.two_sided else (card.front,)
             for card in piece.cards for _ in range(piece.copies)]
    faces = [face for pair in sides for face in pair]
    uses = Counter(face.key for face in faces if face is not None)
    forms: dict[str, str] = {}
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, (width, height), default_fonts(), title=title)
    for face in faces:
        canvas.setPageSize((width, height))
        canvas.setTrimBox(_trim_box(product))
        canvas.setBleedBox((0, 0, width, height))
        if face is not None and uses[face.key] > 1:
            name = forms.get(face.key)
            if name is None:
                name = forms[face.key] = f"DtcFace{len(forms)}"
                canvas.beginForm(name, 0, 0, width, height)
                raster.draw_centred(canvas, face, width, height)
                canvas.endForm()
            canvas.doForm(name)
        elif face is not None:
            raster.draw_centred(canvas, face, width, height)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue(), len(faces)


def _trim_box(product: shops.Product) -> tuple[float, float, float, float]:
    """[9 9 189 261] for poker: the trim centred on the page, in points, rounded to a thousandth."""
    width, height = product.file_pt
    trim_w, trim_h = (side * MM for side in product.trim_mm)
    left, bottom = (width - trim_w) / 2, (height - trim_h) / 2
    return tuple(round(v, 3) for v in (left, bottom, left + trim_w, bottom + trim_h))
