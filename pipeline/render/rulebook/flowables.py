"""Rulebook blocks -> reportlab platypus flowables: headings, paragraphs, lists, tables, notes and figures."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping
from xml.sax.saxutils import escape

from reportlab.platypus import Flowable, HRFlowable, KeepTogether, Paragraph, Spacer, Table, TableStyle
from reportlab.platypus.doctemplate import FrameBreak, Indenter

from pipeline.core.units import MM
from pipeline.render.faces.primitives import smallest_text
from pipeline.render.rulebook import markdown as md
from pipeline.render.rulebook.style import ACCENT, BODY_SIZE, NOTE_FILL, RULE_GREY, Styles, chained, markup
from pipeline.render.rulebook.tables import at_top, book_table

FIGURE_GAP = 4 * MM             # between the faces of a figure row
FIGURE_MAX_HEIGHT = 0.45        # of the frame's height
SHRINK_LIMIT = 0.6             # a figure shrinks this far to fill the end of a column rather than move on
MIN_FIGURE_TEXT = 6.0          # pt: a figure is never reduced so far that its words print smaller
FACE_MAX_HEIGHT = 46 * MM       # a gallery shows cards reduced (a 88 mm card at about half size), never whole
CAPTION_GAP = 4
WIDE_WHEN_TALLER = 1.6          # a table of 3+ columns this much taller in a column than across both floats…
WIDE_GAIN = 48                  # …if that saves this many points (a short table stays with its text)
LIST_INDENT = 16                # points, per nesting level
NOTE_LEFT, NOTE_RIGHT = 12, 10  # a note's inner margins (the left one clears its 3 pt bar)


@dataclass(frozen=True)
class HeadingInfo:
    """Carried by a heading paragraph so the document can file it in the TOC, outline and running header."""
    level: int
    title: str          # without its number (running header)
    entry: str          # with its number, as paragraph markup in its TOC level's font (escaped, chained)
    key: str            # bookmark name


class FaceRow(Flowable):
    """Faces side by side at one common scale (never enlarged), centred, each clipped to its trim box, with
    an optional caption below. One flowable, so the figure and its caption never part (and a heading's
    keepWithNext holds: platypus will not chain keepWithNext into a KeepTogether)."""

    def __init__(self, faces: list, max_height: float, caption: Paragraph | None = None):
        super().__init__()
        self.faces, self.max_height, self.caption = faces, max_height, caption
        sizes = [size for face in faces if face.legible
                 for size in (smallest_text(face.primitives),) if size is not None]
        self.floor = min(1.0, MIN_FIGURE_TEXT / min(sizes)) if sizes else 0.0   # a diagram's words: ≥ 6 pt
        self.scale = 1.0
        self.row_width = self.row_height = self.caption_height = 0.0

    def wrap(self, avail_width, avail_height):
        gaps = FIGURE_GAP * (len(self.faces) - 1)
        widths = sum(face.width for face in self.faces)
        tallest = max(face.height for face in self.faces)
        reduced = FACE_MAX_HEIGHT / tallest if tallest <= 2 * FACE_MAX_HEIGHT else 1.0   # cards, not boards
        self.scale = min(1.0, max(reduced, self.floor), (avail_width - gaps) / widths, self.max_height / tallest)
        self.row_width, self.row_height = widths * self.scale + gaps, tallest * self.scale
        if self.caption is not None:
            self.caption_height = self.caption.wrap(avail_width, avail_height)[1] + CAPTION_GAP
        self.width, self.height = avail_width, self.row_height + self.caption_height
        return self.width, self.height

    def split(self, avail_width, avail_height):
        """Rather than leave a column's end empty, the faces shrink (to SHRINK_LIMIT of their scale at most)."""
        self.wrap(avail_width, 1e9)
        room = avail_height - self.caption_height - 1
        tallest = max(face.height for face in self.faces)
        if room <= 0 or room < max(SHRINK_LIMIT * self.row_height, self.floor * tallest) or not self.row_height:
            return []
        smaller = FaceRow(self.faces, min(self.max_height, room), self.caption)
        smaller.spaceBefore, smaller.spaceAfter = 0, self.spaceAfter
        return [smaller]

    def draw(self):
        if self.caption is not None:
            self.caption.drawOn(self.canv, 0, 0)
        x = (self.width - self.row_width) / 2
        for face in self.faces:
            width, height = face.width * self.scale, face.height * self.scale
            self._draw_face(face, x, self.caption_height + (self.row_height - height) / 2, width, height)
            x += width + FIGURE_GAP

    def _draw_face(self, face, x: float, y: float, width: float, height: float) -> None:
        canvas = self.canv
        canvas.saveState()
        canvas.translate(x, y)
        canvas.scale(self.scale, self.scale)
        clip = canvas.beginPath()
        clip.rect(0, 0, face.width, face.height)
        canvas.clipPath(clip, stroke=0, fill=0)
        face.draw(canvas)
        canvas.restoreState()
        canvas.saveState()
        canvas.setStrokeColor(RULE_GREY)
        canvas.setLineWidth(0.5)
        canvas.rect(x, y, width, height, stroke=1, fill=0)
        canvas.restoreState()


class KeepHeading(KeepTogether):
    """What platypus groups for keepWithNext: heading(s) and the flowable after them. They move to the next
    page only when the start of that flowable (a paragraph's first lines, a table's first rows, a whole
    figure) does not fit under the headings; a long paragraph or table is not pushed whole to the next page."""

    def split(self, avail_width, avail_height):
        *heads, last = self._content
        if at_top(self) or not heads:
            return list(self._content)
        used = sum(head.wrap(avail_width, avail_height)[1] + head.getSpaceBefore() + head.getSpaceAfter()
                   for head in heads)
        room = avail_height - used - last.getSpaceBefore()
        last._frame = self._frame
        if room > 0 and (last.wrap(avail_width, room)[1] <= room or last.split(avail_width, room)):
            return list(self._content)
        return [FrameBreak(), *self._content]


class WideBlock(Flowable):
    """A table too wide for a column, with the headings that introduce it: it floats to the top of the next
    page, across both columns (as LaTeX's figure* does), while the text flows on. Zero-size in the column;
    the document draws `content` when it begins the next page (RulebookDocument.defer)."""

    def __init__(self, content: list):
        super().__init__()
        self.content = content

    def wrap(self, avail_width, avail_height):
        return 0, 0

    def draw(self):
        self.canv._doctemplate.defer(self.content)


class NoteBox(Table):
    """A tinted note: moves whole to the next page; splits only when it is taller than a page."""

    def split(self, avail_width, avail_height):
        return super().split(avail_width, avail_height) if at_top(self) else []


class FlowableBuilder:
    """Turns blocks into flowables; remembers which figures it drew, in order."""

    def __init__(self, styles: Styles, figures: Mapping[str, Any], frame_height: float, wide_width: float = 0.0):
        self.styles, self.figures = styles, figures
        self.max_figure_height = frame_height * FIGURE_MAX_HEIGHT
        self.wide_width = wide_width        # both columns: where a table too wide for one floats
        self.used_figures: list[str] = []
        self._depth = 0                     # inside a list item or a note: nothing floats

    def story(self, blocks, width: float) -> list[Flowable]:
        out: list[Flowable] = []
        self._depth += 1
        for block in blocks:
            made = getattr(self, "_" + type(block).__name__.lower())(block, width)
            if made and isinstance(made[0], WideBlock):
                while out and out[-1].getKeepWithNext():      # its headings go with it
                    made[0].content.insert(0, out.pop())
            out.extend(made)
        self._depth -= 1
        return out

    def face_row(self, names, max_height: float | None = None, caption: Paragraph | None = None) -> FaceRow:
        for name in names:
            if name not in self.used_figures:
                self.used_figures.append(name)
        return FaceRow([self.figures[name] for name in names], max_height or self.max_figure_height, caption)

    def paragraph(self, runs, style) -> Paragraph:
        return Paragraph(markup(runs, self.styles, style.fontName), style)

    def _heading(self, block: md.Heading, width: float) -> list[Flowable]:
        prefix = f"{block.number}. " if block.level == 1 else f"{block.number} " if block.number else ""
        style = self.styles.headings[block.level]
        para = Paragraph(escape(prefix) + markup(block.runs, self.styles, style.fontName), style)
        title = block.text
        if block.number:
            entry = chained(prefix + title, self.styles.toc[block.level - 1].fontName, self.styles)
            para.rulebook_heading = HeadingInfo(block.level, title, entry, f"h{block.number}")
        if block.level != 1:
            return [para]
        rule = HRFlowable(width="100%", thickness=1.2, color=ACCENT, spaceBefore=0, spaceAfter=8)
        rule.keepWithNext = 1
        return [para, rule]

    def _paragraph(self, block: md.Paragraph, width: float) -> list[Flowable]:
        return [self.paragraph(block.runs, self.styles.body)]

    def _listblock(self, block: md.ListBlock, width: float, depth: int = 0) -> list[Flowable]:
        out: list[Flowable] = []
        for index, item in enumerate(block.items):
            bullet = f"{block.start + index}." if block.ordered else ("•" if depth == 0 else "–")
            out.extend(self._item(item, bullet, width, depth))
        if depth == 0:
            out.append(Spacer(1, 4))
        return out

    def _item(self, blocks, bullet: str, width: float, depth: int) -> list[Flowable]:
        out: list[Flowable] = []
        for position, block in enumerate(blocks):
            if isinstance(block, md.Paragraph):
                out.append(Paragraph(markup(block.runs, self.styles, self.styles.item.fontName), self.styles.item,
                                     bulletText=bullet if position == 0 else None))
            elif isinstance(block, md.ListBlock):
                out += [Indenter(left=LIST_INDENT), *self._listblock(block, width - LIST_INDENT, depth + 1),
                        Indenter(left=-LIST_INDENT)]
            else:
                out += [Indenter(left=LIST_INDENT), *self.story([block], width - LIST_INDENT),
                        Indenter(left=-LIST_INDENT)]
        return out

    def _table(self, block: md.Table, width: float) -> list[Flowable]:
        table = book_table(block, self.styles, width)
        if self._depth > 1 or self.wide_width <= width:
            return [table]
        wide = book_table(block, self.styles, self.wide_width)
        narrow, across = table.wrap(width, 1e6)[1], wide.wrap(self.wide_width, 1e6)[1]
        squeezed = len(block.header) >= 3 and narrow > WIDE_WHEN_TALLER * across and narrow - across > WIDE_GAIN
        return [WideBlock([wide])] if table.min_width > width + 0.5 or squeezed else [table]

    def _note(self, block: md.Note, width: float) -> list[Flowable]:
        content = self.story(block.blocks, width - NOTE_LEFT - NOTE_RIGHT) or [Spacer(1, 0)]
        box = NoteBox([[content]], colWidths=[width], hAlign="LEFT", splitInRow=1, style=TableStyle([
            ("FONT", (0, 0), (-1, -1), self.styles.font("body"), BODY_SIZE),
            ("BACKGROUND", (0, 0), (-1, -1), NOTE_FILL),
            ("LINEBEFORE", (0, 0), (0, -1), 3, ACCENT),
            ("LEFTPADDING", (0, 0), (-1, -1), NOTE_LEFT), ("RIGHTPADDING", (0, 0), (-1, -1), NOTE_RIGHT),
            ("TOPPADDING", (0, 0), (-1, -1), 8), ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
        ]))
        box.spaceBefore, box.spaceAfter = 4, 10
        return [box]

    def _rule(self, block: md.Rule, width: float) -> list[Flowable]:
        return [HRFlowable(width="100%", thickness=0.6, color=RULE_GREY, spaceBefore=6, spaceAfter=12)]

    def _code(self, block: md.Code, width: float) -> list[Flowable]:
        font = self.styles.code.fontName
        lines = [chained(line, font, self.styles, _spaced) for line in block.text.split("\n")]
        return [Paragraph("<br/>".join(lines), self.styles.code)]

    def _figure(self, block: md.Figure, width: float) -> list[Flowable]:
        style = self.styles.caption
        caption = Paragraph(chained(block.caption, style.fontName, self.styles), style) if block.caption.strip() else None
        row = self.face_row(block.names, caption=caption)
        row.spaceBefore, row.spaceAfter = 8, 12
        return [row]


def _spaced(text: str) -> str:
    """Escaped, every space kept (a code block's indentation)."""
    return escape(text).replace(" ", "&nbsp;")
