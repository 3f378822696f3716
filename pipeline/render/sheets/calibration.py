"""The duplex calibration sheet: how a user measures the `--back-offset` of their own printer.

The sign convention, from the code that applies the offset (SheetPlan.duplex_back_slot): a back card is
drawn at its front's rectangle mirrored about the page's vertical centre line (x -> W - x), then shifted by
(+X, +Y) mm in the back page's own coordinates (x to the right, y up, as the back page is drawn).

The math. Call the printer's error (ex, ey): it prints the back page's artwork that far off, in the same
back-page coordinates. A card's back then lands at mirror + offset + error, so the offset that cancels
the error is (X, Y) = (-ex, -ey). After a long-edge flip a back point (x, y) lies behind the front point
(W - x, y); the back's red cross, drawn at the centre (W/2, H/2), therefore shows through the front at
(W/2 - ex, H/2 + ey). The front's horizontal ruler is numbered +d at d mm right of the centre (the red
vertical line crosses it at d = -ex: it reads -ex = X); the vertical ruler is numbered -d at d mm above
the centre (the red horizontal line crosses it at d = ey: it reads -ey = Y). What is read is what to pass.
In words: +X moves the back's print to the right and +Y up, as the back is seen facing you; held to the
light from the front, +X moves it to the left.

The rulers sit SCALE_GAP_MM off the centre and the back's cross has long arms that cross them at right
angles, so no red line ever lies along a black one and neither ruler's numbers get in the other's way.
Corner targets show whether the printer also turns or scales the back, which no offset corrects; the
"verso" label at the top of the back shows a short-edge flip (it then appears at the bottom, upside down).
"""

from __future__ import annotations

import io
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import stringWidth

from pipeline.core.errors import PipelineError, Problem
from pipeline.core.output import atomic_write
from pipeline.core.units import MM, PAPERS_MM
from pipeline.render.fonts import FontSet, default_fonts
from pipeline.render.pdf import new_canvas

SCALE_MM = 15                  # the rulers run from -15 to +15 mm
SCALE_GAP_MM = 30              # each ruler's distance from the centre
TICK_MM, TICK_FIVE_MM = 1.5, 3.0
CROSS_MM = 55                  # half-length of the back's cross: it reaches past both rulers
TARGET_INSET_MM = 15           # corner targets' centres, from the paper edges
TARGET_R_MM = 4
TEXT_MARGIN_MM = 25            # left and right edges of the instructions
INK = (0, 0, 0)
RED = (0.85, 0.1, 0.1)

TITLE = "Calibrage du recto verso"
STEPS = (
    "1. Imprimer cette feuille en recto verso, retournement sur le bord long, à 100 % (taille réelle, sans "
    "« ajuster à la page »), sur le papier des cartes.",
    "2. Tenir la feuille devant une fenêtre ou une lampe, ce côté face à soi : la croix rouge du verso "
    "apparaît par transparence.",
    "3. X : lire sur l'échelle horizontale le nombre où passe la ligne rouge verticale. Y : lire sur "
    "l'échelle verticale le nombre où passe la ligne rouge horizontale (en mm, à une demi-graduation près).",
    "4. Les nombres lus sont déjà la correction : les passer tels quels, signe compris, à chaque construction "
    "pour cette imprimante :",
)
COMMAND = "pnp build <jeu> --paper {paper} --back-offset X,Y"
FOLDOVER_NOTE = ("Plus de 1 mm d'écart et pas moyen de refaire les fichiers (vous n'avez que les PDF) ? Imprimer "
                 "plutôt, en recto seul, les versions à plier des cartes (dossier pli/, fichiers …-pli.pdf) : plier "
                 "chaque feuille sur « plier ici », la coller, puis découper ; le dos tombe juste derrière la face.")
NOTES = (
    "Exemple : la ligne rouge verticale passe sur +1,5 et l'horizontale sur −1 : "
    "pnp build <jeu> --paper {paper} --back-offset 1.5,-1 (point décimal, pas d'espace).",
    "Croix rouge sur la petite croix noire du centre (0 ; 0) : l'imprimante est juste, rien à passer.",
    "Sens des signes : X positif pousse l'impression du verso vers la droite et Y positif vers le haut, "
    "verso posé face à soi ; vu d'ici par transparence, X positif la pousse vers la gauche.",
    "Coins : si les cercles rouges du verso s'écartent des cibles noires différemment d'un coin à l'autre, "
    "l'imprimante tourne ou agrandit le verso ; le décalage ne corrige que le centre.",
    "Le mot « verso » doit apparaître en haut, en miroir. En bas et tête-bêche : l'imprimante a retourné "
    "sur le bord court, choisir « bord long » et recommencer.",
    FOLDOVER_NOTE,
)
BACK_LABEL = "verso — regarder par transparence depuis le recto"
BACK_LABEL_FROM_TOP_MM = 12


def write_calibration(target, paper: str, fonts: FontSet | None = None) -> dict:
    """Write the two-page sheet for `paper` ("a4" or "letter") to a path (replaced atomically) or a binary
    file object; return what the build report states about it."""
    if paper not in PAPERS_MM:
        raise PipelineError(Problem(_where(target), f"unknown paper {paper!r} (known: "
                                    f"{', '.join(sorted(PAPERS_MM))})", "calibration"))
    fonts = fonts or default_fonts()
    width, height = PAPERS_MM[paper]
    centre = (width / 2, height / 2)
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, (width * MM, height * MM), fonts, title=f"pnp — {TITLE} ({paper.upper()})")
    _front(canvas, fonts, paper, width, height, centre)
    canvas.showPage()
    _back(canvas, fonts, width, height, centre)
    canvas.showPage()
    canvas.save()
    if hasattr(target, "write"):
        target.write(buffer.getvalue())
    else:
        atomic_write(Path(target), buffer.getvalue())
    return {"kind": "calibration", "paper": paper, "pages": 2,
            "path": None if hasattr(target, "write") else str(target),
            "page_mm": [width, height], "centre_mm": list(centre), "scale_mm": [-SCALE_MM, SCALE_MM],
            "flip": "long-edge", "command": COMMAND.format(paper=paper)}


def _where(target) -> str:
    return "calibration sheet" if hasattr(target, "write") else str(target)


def _targets(width: float, height: float) -> list[tuple[float, float]]:
    i = TARGET_INSET_MM
    return [(i, i), (width - i, i), (i, height - i), (width - i, height - i)]


def _line(canvas, x0: float, y0: float, x1: float, y1: float) -> None:
    canvas.line(x0 * MM, y0 * MM, x1 * MM, y1 * MM)


# ----------------------------------------------------------------------------------------------- front
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
    left, right = TEXT_MARGIN_MM, width - TEXT_MARGIN_MM
    y = cy - CROSS_MM - 6                            # the notes, below the reach of the back's cross
    for note in NOTES:
        y = _paragraph(canvas, fonts.name("body"), 8.5, note.format(paper=paper), left, right, y) - 1.2


def _scales(canvas, fonts: FontSet, cx: float, cy: float) -> None:
    """Two rulers, a tick every mm (longer every 5, numbered every 5): the horizontal one SCALE_GAP_MM
    above the centre, read where the back's vertical line crosses it; the vertical one SCALE_GAP_MM to
    the right, read where the back's horizontal line crosses it. The numbers are in the condensed title
    face: five millimetres apart, "−10" and "−15" in the body face would touch."""
    top, side = cy + SCALE_GAP_MM, cx + SCALE_GAP_MM
    canvas.setLineWidth(0.4)
    _line(canvas, cx - SCALE_MM - 1, top, cx + SCALE_MM + 1, top)
    _line(canvas, side, cy - SCALE_MM - 1, side, cy + SCALE_MM + 1)
    canvas.setLineWidth(0.25)
    face, size = fonts.name("title"), 7
    canvas.setFont(face, size)
    half_digit = pdfmetrics.getFont(face).face.capHeight / 1000 * size / MM / 2   # digits centred on a tick
    for d in range(-SCALE_MM, SCALE_MM + 1):
        tick = TICK_FIVE_MM if d % 5 == 0 else TICK_MM
        _line(canvas, cx + d, top, cx + d, top + tick)          # ticks above the horizontal ruler
        _line(canvas, side, cy + d, side + tick, cy + d)        # ticks right of the vertical ruler
        if d % 5 == 0:
            canvas.drawCentredString((cx + d) * MM, (top + 4.5) * MM, _signed(d))     # X reads +d
            canvas.drawString((side + 4.5) * MM, (cy + d - half_digit) * MM, _signed(-d))   # Y reads -d
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
    left, right = TEXT_MARGIN_MM, width - TEXT_MARGIN_MM
    canvas.setFont(fonts.name("title"), 18)
    canvas.drawCentredString(width / 2 * MM, (height - 24) * MM, TITLE)
    canvas.setFont(fonts.name("body"), 8.5)
    canvas.drawCentredString(width / 2 * MM, (height - 30) * MM,
                             f"feuille {paper.upper()} — mesure le décalage du verso de votre imprimante")
    y = height - 41
    for step in STEPS:
        y = _paragraph(canvas, fonts.name("body"), 9, step, left, right, y) - 1.5
    canvas.setFont(fonts.name("bold"), 10)
    canvas.drawCentredString(width / 2 * MM, (y - 1) * MM, COMMAND.format(paper=paper))


def _paragraph(canvas, font: str, size: float, text: str, left: float, right: float, y: float) -> float:
    """Left-aligned lines wrapped at words; returns the baseline below the last line."""
    canvas.setFont(font, size)
    line, step = "", size * 1.3 / MM
    for word in _french_spaces(text).split(" "):
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


def _french_spaces(text: str) -> str:
    """No line break before : ; % » nor after «, as French typesetting has it."""
    for plain, tied in ((" :", "\u00a0:"), (" ;", "\u00a0;"), (" %", "\u00a0%"), (" »", "\u00a0»"),
                        ("« ", "«\u00a0")):
        text = text.replace(plain, tied)
    return text


# ------------------------------------------------------------------------------------------------ back
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
    canvas.setFont(fonts.name("bold"), 9)
    canvas.drawCentredString(width / 2 * MM, (height - BACK_LABEL_FROM_TOP_MM) * MM, BACK_LABEL)
