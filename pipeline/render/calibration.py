"""The duplex calibration sheet: how a user measures the `--back-offset` of their own printer.

A duplex printer puts the back page's artwork a little off from where the file says: call the error
(ex, ey), in millimetres, in the back page's own coordinates (x to the right, y up, as the back page is
drawn). The cards' backs are placed at their mirrored front position plus the back offset
(SheetPlan.duplex_back_slot), so the offset that cancels the error is (-ex, -ey).

The back page carries a long red cross at its centre (W/2, H/2). After a long-edge flip, a back point
(x, y) lies behind the front point (W - x, y); with the error, the cross lands behind the front point
(W/2 - ex, H/2 + ey). The front carries two graduated axes through its centre, numbered so that what is
read is the offset to pass: the horizontal scale reads +d at d mm right of the centre (-ex there),
the vertical scale reads -d at d mm above it (-ey there). The rulers sit 30 mm off the centre, crossed by
the cross's long arms, so that neither ruler's numbers get in the other's way. Corner targets show whether the printer also
turns or scales the back, which no offset corrects.
"""

from __future__ import annotations

from pathlib import Path

from pipeline.render.fonts import FontSet, default_fonts
from pipeline.render.pdf import new_canvas
from pipeline.units import MM, PAPERS_MM

SCALE_MM = 15                  # the scales run from -15 to +15 mm
SCALE_GAP_MM = 30              # each ruler's distance from the centre
CROSS_MM = 55                  # half-length of the back's cross: it reaches past both rulers
TARGET_INSET_MM = 20           # corner targets, from the paper edges
TARGET_R_MM = 4
INK = (0, 0, 0)
RED = (0.85, 0.1, 0.1)

TITLE = "Calibrage du recto verso"
STEPS = (
    "1. Imprimer cette feuille en recto verso, retournement sur le bord long, à 100 % (taille réelle, sans "
    "«\u00a0ajuster à la page\u00a0»), sur le papier des cartes.",
    "2. Tenir la feuille devant une fenêtre ou une lampe, ce côté face à soi : la croix rouge du verso "
    "apparaît par transparence.",
    "3. X : lire sur l'échelle horizontale le nombre où passe la ligne rouge verticale. Y : lire sur "
    "l'échelle verticale le nombre où passe la ligne rouge horizontale (en mm, une demi-graduation près).",
    "4. Les nombres lus sont déjà la correction : les passer tels quels, signe compris, à chaque construction "
    "pour cette imprimante :",
)
COMMAND = "pnp build <jeu> --paper {paper} --back-offset X,Y"
EXAMPLE = ("Exemple : la ligne verticale passe sur +1,5 et l'horizontale sur −1 : passer "
           "--back-offset 1.5,-1")
ZERO = "Croix rouge au centre (0 ; 0) : l'imprimante est juste, rien à passer."
CORNERS = ("Coins : si les cercles rouges du verso s'écartent des cibles noires différemment d'un coin à "
           "l'autre, l'imprimante tourne ou agrandit le verso ; le décalage ne corrige que le centre.")
BACK_LABEL = "verso — regarder par transparence depuis le recto"


def write_calibration(target, paper: str, fonts: FontSet | None = None) -> dict:
    """Write the two-page sheet for `paper` ("a4" or "letter") to a path or a binary file object; return
    what the build report states."""
    fonts = fonts or default_fonts()
    width, height = PAPERS_MM[paper]
    if isinstance(target, (str, Path)):
        target = Path(target)
        target.parent.mkdir(parents=True, exist_ok=True)
        target = str(target)
    canvas = new_canvas(target, (width * MM, height * MM), fonts, title=f"pnp — {TITLE} ({paper.upper()})")
    centre = (width / 2, height / 2)
    _front(canvas, fonts, paper, width, height, centre)
    canvas.showPage()
    _back(canvas, fonts, width, height, centre)
    canvas.showPage()
    canvas.save()
    return {"kind": "calibration", "paper": paper, "pages": 2, "centre_mm": list(centre),
            "scale_mm": [-SCALE_MM, SCALE_MM]}


def _targets(width: float, height: float) -> list[tuple[float, float]]:
    i = TARGET_INSET_MM
    return [(i, i), (width - i, i), (i, height - i), (width - i, height - i)]


def _line(canvas, x0, y0, x1, y1) -> None:
    canvas.line(x0 * MM, y0 * MM, x1 * MM, y1 * MM)


def _front(canvas, fonts: FontSet, paper: str, width: float, height: float, centre) -> None:
    cx, cy = centre
    canvas.setStrokeColorRGB(*INK)
    canvas.setFillColorRGB(*INK)
    canvas.setLineWidth(0.3)                        # a small cross marks the centre
    _line(canvas, cx - 3, cy, cx + 3, cy)
    _line(canvas, cx, cy - 3, cx, cy + 3)
    _scales(canvas, fonts, cx, cy)
    for x, y in _targets(width, height):
        _target(canvas, x, y)
    _instructions(canvas, fonts, paper, width, height)


def _scales(canvas, fonts: FontSet, cx: float, cy: float) -> None:
    """Two rulers, a tick every mm (longer every 5, numbered every 5): the horizontal one SCALE_GAP_MM
    above the centre, read where the back's vertical line crosses it; the vertical one SCALE_GAP_MM to
    the right, read where the back's horizontal line crosses it."""
    top, side = cy + SCALE_GAP_MM, cx + SCALE_GAP_MM
    canvas.setLineWidth(0.4)
    _line(canvas, cx - SCALE_MM - 1, top, cx + SCALE_MM + 1, top)
    _line(canvas, side, cy - SCALE_MM - 1, side, cy + SCALE_MM + 1)
    canvas.setLineWidth(0.25)
    canvas.setFont(fonts.name("body"), 7)
    for d in range(-SCALE_MM, SCALE_MM + 1):
        tick = 3.0 if d % 5 == 0 else 1.5
        _line(canvas, cx + d, top, cx + d, top + tick)          # ticks above the horizontal ruler
        _line(canvas, side, cy + d, side + tick, cy + d)        # ticks right of the vertical ruler
        if d % 5 == 0:
            canvas.drawCentredString((cx + d) * MM, (top + 4.5) * MM, _signed(d))     # X reads +d
            canvas.drawString((side + 4.5) * MM, (cy + d - 0.9) * MM, _signed(-d))   # Y reads -d
    canvas.setFont(fonts.name("bold"), 8)
    canvas.drawRightString((cx - SCALE_MM - 3) * MM, (top - 1) * MM, "X (mm)")
    canvas.drawCentredString((side + 1) * MM, (cy - SCALE_MM - 6) * MM, "Y (mm)")


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else f"−{-value}" if value < 0 else "0"


def _target(canvas, x: float, y: float) -> None:
    """Two rings and a dot: the back's red ring should sit on the outer one."""
    canvas.setLineWidth(0.3)
    canvas.circle(x * MM, y * MM, TARGET_R_MM * MM, stroke=1, fill=0)
    canvas.circle(x * MM, y * MM, TARGET_R_MM / 2 * MM, stroke=1, fill=0)
    canvas.circle(x * MM, y * MM, 0.5 * MM, stroke=0, fill=1)


def _instructions(canvas, fonts: FontSet, paper: str, width: float, height: float) -> None:
    left, right = 25.0, width - 25.0
    canvas.setFont(fonts.name("title"), 18)
    canvas.drawCentredString(width / 2 * MM, (height - 22) * MM, TITLE)
    canvas.setFont(fonts.name("body"), 8.5)
    canvas.drawCentredString(width / 2 * MM, (height - 28) * MM,
                             f"feuille {paper.upper()} — mesure le décalage du verso de votre imprimante")
    y = height - 40
    for step in STEPS:
        y = _paragraph(canvas, fonts.name("body"), 9, step, left, right, y)
        y -= 1.5
    canvas.setFont(fonts.name("bold"), 10)
    canvas.drawCentredString(width / 2 * MM, y * MM, COMMAND.format(paper=paper))
    y -= 6
    for note in (EXAMPLE, ZERO):
        y = _paragraph(canvas, fonts.name("italic"), 8.5, note, left, right, y) - 1
    _paragraph(canvas, fonts.name("body"), 8.5, CORNERS, left, right, TARGET_INSET_MM + 16)


def _paragraph(canvas, font: str, size: float, text: str, left: float, right: float, y: float) -> float:
    """Left-aligned lines wrapped at words; returns the baseline below the last line."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    canvas.setFont(font, size)
    line, step = "", size * 1.3 / MM
    for word in text.replace(" :", "\u00a0:").split(" "):     # French: no break before a colon
        trial = f"{line} {word}".strip()
        if line and stringWidth(trial, font, size) > (right - left) * MM:
            canvas.drawString(left * MM, y * MM, line)
            y -= step
            trial = word
        line = trial
    if line:
        canvas.drawString(left * MM, y * MM, line)
        y -= step
    return y


def _back(canvas, fonts: FontSet, width: float, height: float, centre) -> None:
    """Drawn in the back page's coordinates; the long-edge flip puts (x, y) behind (W - x, y)."""
    cx, cy = width - centre[0], centre[1]           # the centre's mirror: the centre itself
    canvas.setStrokeColorRGB(*RED)
    canvas.setLineWidth(1.0)
    _line(canvas, cx - CROSS_MM, cy, cx + CROSS_MM, cy)
    _line(canvas, cx, cy - CROSS_MM, cx, cy + CROSS_MM)
    canvas.setLineWidth(0.8)
    for x, y in _targets(width, height):
        canvas.circle((width - x) * MM, y * MM, TARGET_R_MM * MM, stroke=1, fill=0)
    canvas.setFillColorRGB(*RED)
    canvas.setFont(fonts.name("body"), 9)
    canvas.drawCentredString(width / 2 * MM, (height - 22) * MM, BACK_LABEL)
