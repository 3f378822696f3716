"""The rulebook engine: a folder of Markdown + jinja2 chapters -> an A4 or Letter booklet PDF.

It knows nothing of any game: a game gives the folder, the values its chapters read and the faces its
figures show. The source format (source.py, markdown.py):

- chapter files `NN-name.md`, in NN order, each rendered by jinja2 (sandboxed, StrictUndefined, trim_blocks
  and lstrip_blocks) with the context, then read as CommonMark + pipe tables;
- `#` a chapter ("1." in the TOC), `##` a section ("1.1"), `###` a subsection (not in the TOC);
- **bold**, *italic*, `code`, bullet and numbered lists, tables, `> ` notes, `---` rules;
- a paragraph made only of `![Caption](figure:name)` (or `figure:a,b,c` for a row) draws figures.

The book: a cover (title, subtitle, the faces and facts of `cover.yaml`, see cover.py), then the
contents and the chapters in two columns, running on from one chapter to the next; a heading never ends a
column (KeepHeading), a paragraph leaves no widow or orphan line, and a table too wide for a column floats to
the top of the next page across both (WideBlock). Every page after the cover has a running header (game ·
chapter) and a footer "page i / n". Headings, the table of contents and "n" settle over a few passes
(platypus multiBuild); the PDF is written once, at the end.

The last sheet is not wasted: a book of an odd page count whose last page is less than half full is set again a
few per cent tighter (DENSITIES: the leading and the space between blocks, never the type size), and the first
setting that saves that page, or else fills the last page to half at least, is kept.
"""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path
from typing import Any, BinaryIO, Mapping

from reportlab.platypus import NextPageTemplate, PageBreak, Paragraph, Spacer, TableStyle
from reportlab.platypus.doctemplate import BaseDocTemplate, LayoutError, PageTemplate
from reportlab.platypus.flowables import Flowable
from reportlab.platypus.frames import Frame
from reportlab.platypus.tableofcontents import TableOfContents

from pipeline.core.errors import PipelineError, Problem, Severity
from pipeline.core.output import deliver
from pipeline.core.printing import PrintOptions
from pipeline.core.units import MM, PAPERS_MM
from pipeline.render.faces.edition_mark import draw_page_mark
from pipeline.render.fonts import default_fonts
from pipeline.render.glyphs import draw_string, string_width
from pipeline.render.pdf import StreamingCanvas, page_mark
from pipeline.render.rulebook.cover import Cover, FactsLine, FanArt, read_cover
from pipeline.render.rulebook.flowables import FlowableBuilder, HeadingInfo, KeepHeading
from pipeline.render.rulebook.markdown import Heading, parse_rulebook
from pipeline.render.rulebook.source import RULE, relative_path, render_chapters
from pipeline.render.rulebook.style import MUTED, RULE_GREY, Styles, chained, register_families

MARGIN_SIDE = 15 * MM
MARGIN_TOP = 20 * MM            # the running header sits in it
MARGIN_BOTTOM = 19 * MM         # the footer sits in it
GUTTER = 7 * MM                 # between the two columns
FLOAT_GAP = 5 * MM              # under a block floated across both columns
MIN_COLUMN = 60                 # points of column a page keeps under its floats
CONTENTS_TITLE = "Sommaire"
COVER_FIGURE = "cover"
MAX_PASSES = 8
LAST_PAGE_FILL = 0.5            # an odd book's last page, printed alone on its sheet, is at least this full
DENSITIES = (0.97, 0.94, 1.04, 1.08)     # tried in this order, tighter (a page saved) before airier


def check_rulebook(folder: Path, context: Mapping[str, Any], figures: Mapping[str, Any],
                   project_root: Path) -> list[Problem]:
    """Every problem writing this rulebook would meet (files, jinja2, figures), located; nothing is drawn."""
    chapters, problems = render_chapters(Path(folder), context, Path(project_root))
    _, found = parse_rulebook(chapters, figures)
    _, cover_problems = read_cover(Path(folder), context, figures, Path(project_root))
    return problems + found + cover_problems


def write_rulebook(target: str | Path | BinaryIO, folder: Path, context: Mapping[str, Any],
                   figures: Mapping[str, Any], options: PrintOptions, project_root: Path) -> dict:
    """Write the rulebook PDF to `target` (a path or a binary file object). Raises PipelineError when the
    sources have errors (run check_rulebook first to report them with everything else).
    Returns {"pages": n, "chapters": [titles], "figures": [names drawn, in order]}."""
    if options.fonts is None:
        options = replace(options, fonts=default_fonts())
    chapters, problems = render_chapters(Path(folder), context, Path(project_root))
    blocks, found = parse_rulebook(chapters, figures)
    cover, cover_problems = read_cover(Path(folder), context, figures, Path(project_root))
    errors = [p for p in problems + found + cover_problems if p.severity is Severity.ERROR]
    if errors:
        raise PipelineError(errors)
    register_families(options.fonts)
    where = relative_path(Path(folder), Path(project_root))
    doc, builder = _set(options, figures, blocks, cover, 1.0, where)
    if not _spends_its_last_sheet(doc):
        for density in DENSITIES:
            tried = _set(options, figures, blocks, cover, density, where)
            if tried[0].page_total.pages < doc.page_total.pages or _spends_its_last_sheet(tried[0]):
                doc, builder = tried
                break
    deliver(target, doc.buffer.getvalue())
    return {"pages": doc.page_total.pages, "last_page_fill": round(doc.last_fill, 3),
            "chapters": [b.text for b in blocks if isinstance(b, Heading) and b.level == 1],
            "figures": list(builder.used_figures)}


def _set(options: PrintOptions, figures, blocks, cover: Cover, density: float, where: str):
    """The book laid out at one density: (document, flowable builder)."""
    doc = RulebookDocument(options)
    builder = FlowableBuilder(Styles(options.fonts, density), figures, doc.frame_height, doc.frame_width)
    story = _story(doc, builder, blocks, cover)
    _seed_contents(story)
    try:
        doc.multiBuild(story, maxPasses=MAX_PASSES)
    except LayoutError as exc:     # something platypus cannot place even on an empty page
        raise PipelineError(Problem(where, f"cannot lay the rulebook out: {exc}", RULE)) from None
    return doc, builder


def _seed_contents(story: list[Flowable]) -> None:
    """The contents filled with every numbered heading before the first pass, at page 0: the first pass then
    lays the contents out at their real height (not reportlab's one-line placeholder), so its pages are the
    final ones and the second pass, with the real numbers, is the last (three passes become two). Only a
    guess: a heading missed or out of order costs the pass it saved, never a wrong page number."""
    toc = next((f for f in story if isinstance(f, TableOfContents)), None)
    if toc is not None:
        toc._entries = [(info.level - 1, info.entry, 0, info.key) for info in _headings(story) if info.key]


def _headings(flowables) -> list[HeadingInfo]:
    """The HeadingInfo of every heading in story order, inside floated and kept-together blocks too."""
    found = []
    for flowable in flowables:
        info = getattr(flowable, "rulebook_heading", None)
        if info is not None:
            found.append(info)
        inner = getattr(flowable, "content", None) or getattr(flowable, "_content", None)
        if isinstance(inner, list):
            found += _headings(inner)
    return found


def _spends_its_last_sheet(doc: "RulebookDocument") -> bool:
    """An even page count, or an odd one whose last page (alone on its sheet) is at least half full."""
    return doc.page_total.pages % 2 == 0 or doc.page_total.pages < 3 or doc.last_fill >= LAST_PAGE_FILL


def _story(doc: "RulebookDocument", builder: FlowableBuilder, blocks, cover: Cover) -> list[Flowable]:
    styles = builder.styles
    contents_title = Paragraph(CONTENTS_TITLE, styles.headings[1])
    contents_title.rulebook_heading = HeadingInfo(1, CONTENTS_TITLE, "", "")   # header only, no TOC entry
    contents_title.keepWithNext = 1
    toc = TableOfContents(levelStyles=styles.toc, dotsMinLevel=0, rightColumnWidth=22, tableStyle=TableStyle([
        ("FONT", (0, 0), (-1, -1), styles.font("body"), 9),       # else platypus sets Helvetica per cell
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LEFTPADDING", (0, 0), (-1, -1), 0), ("RIGHTPADDING", (0, 0), (-1, -1), 0),
        ("TOPPADDING", (0, 0), (-1, -1), 0), ("BOTTOMPADDING", (0, 0), (-1, -1), 0)]))
    return [doc.page_total, *_title_page(doc, builder, cover), NextPageTemplate("body"), PageBreak(),
            contents_title, toc, Spacer(1, 6), *builder.story(blocks, doc.column_width), FlushFloats(), FlushFloats()]


def _title_page(doc: "RulebookDocument", builder: FlowableBuilder, cover: Cover) -> list[Flowable]:
    styles, options, fonts = builder.styles, doc.options, doc.options.fonts
    art = list(cover.art) or ([COVER_FIGURE] if COVER_FIGURE in builder.figures else [])
    parts: list[Flowable] = [Spacer(1, doc.frame_height * (0.08 if art else 0.3)),
                             Paragraph(chained(options.game_title, styles.title.fontName, styles), styles.title),
                             Paragraph(chained(options.subtitle, styles.subtitle.fontName, styles), styles.subtitle)]
    if cover.tagline:
        parts.append(Paragraph(chained(cover.tagline, styles.tagline.fontName, styles), styles.tagline))
    if art:
        for name in art:
            if name not in builder.used_figures:
                builder.used_figures.append(name)
        share = 0.56 if cover.credits else 0.6            # the fan leaves the credits line room on the cover
        parts.append(FanArt([builder.figures[name] for name in art], doc.frame_height * share))
    if cover.facts:
        bold = fonts.name("bold")
        parts += [Spacer(1, 18), FactsLine(cover.facts, bold, fonts.behind(bold))]
    if cover.credits:
        parts += [Spacer(1, 12), Paragraph(chained(cover.credits, styles.credits.fontName, styles), styles.credits)]
    return parts


def _clipped(text: str, font: str, size: float, width: float, fallbacks: tuple[str, ...]) -> str:
    """`text`, shortened with an ellipsis if it is wider than `width` (a very long chapter title)."""
    if string_width(text, font, size, fallbacks) <= width:
        return text
    while text and string_width(text + "…", font, size, fallbacks) > width:
        text = text[:-1]
    return text.rstrip() + "…"


class PageTotal(Flowable):
    """Zero-size, first in the story: an indexing flowable (like the TOC) so that multiBuild runs one more
    pass whenever the page count changed, since every footer prints it."""

    def __init__(self):
        super().__init__()
        self.pages = 0          # what the footers of the current pass print (the previous pass's count)
        self.counted = 0
        self.settled = False

    def isIndexing(self):
        return 1

    def isSatisfied(self):
        return self.settled

    def beforeBuild(self):
        self.counted = 0

    def notify(self, kind, stuff):
        if kind == "pnp-page":
            self.counted = stuff

    def afterBuild(self):
        self.settled, self.pages = self.counted == self.pages, self.counted

    def wrap(self, avail_width, avail_height):
        return 0, 0

    def draw(self):
        pass


class FlushFloats(Flowable):
    """Last in the story (twice), for the blocks still waiting to float. When the text ends in the left column
    (the right one is empty), it draws them under it across both columns: whole if they fit, else as much as
    a quarter page or more of room holds (a table splits between rows). Whatever is left waits for the next
    page, whose beginning draws it."""

    def __init__(self):
        super().__init__()
        self.here = 0.0

    def wrap(self, avail_width, avail_height):
        doc = self.canv._doctemplate
        self.here = 0.0
        if not doc.floats:
            return 0, 0
        if doc.frame.id == "column-1":
            needed = doc.floats_height(self.canv)
            if needed <= avail_height or avail_height >= doc.height / 4:
                self.here = min(needed, avail_height)
                return avail_width, self.here
        return avail_width, avail_height + 1

    def split(self, avail_width, avail_height):
        return [PageBreak(), FlushFloats()] if self.canv._doctemplate.floats else []

    def draw(self):
        doc, top = self.canv._doctemplate, self.here
        while top > 0 and doc.floats:
            used, rest = doc._place(self.canv, doc.floats.pop(0), top, top, x=0)
            if rest:
                doc.floats.insert(0, rest)
                break
            top -= used + FLOAT_GAP


class RulebookDocument(BaseDocTemplate):
    """Cover and body page templates; files headings in the TOC and the PDF outline; draws header/footer."""

    def __init__(self, options: PrintOptions):
        self.options = options
        self.buffer = io.BytesIO()
        width, height = (side * MM for side in PAPERS_MM[options.paper])
        fonts = options.fonts
        # invariant + the initial font: byte-identical files with no base-14 font (see pdf.new_canvas)
        super().__init__(self.buffer, pagesize=(width, height), leftMargin=MARGIN_SIDE, rightMargin=MARGIN_SIDE,
                         topMargin=MARGIN_TOP, bottomMargin=MARGIN_BOTTOM, invariant=1, pageCompression=1,
                         initialFontName=fonts.name("body"), initialFontSize=10, title=options.game_title,
                         subject=options.subtitle, author="", creator="pnp", producer="pnp (reportlab)",
                         keepTogetherClass=KeepHeading)
        frame = Frame(self.leftMargin, self.bottomMargin, self.width, self.height, id="text",
                      leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
        self.frame_width, self.frame_height = self.width, self.height
        self.column_width = (self.width - GUTTER) / 2
        self.addPageTemplates([PageTemplate("cover", [frame], onPageEnd=self._mark),
                               PageTemplate("body", self._columns(self.height), onPage=self._begin_page,
                                            onPageEnd=self._decorate)])
        self.page_total = PageTotal()
        self.chapter = ""
        self.floats: list[list[Flowable]] = []
        self.last_fill = 1.0            # how full the last page drawn is (its columns' height used, 0 to 1)

    def build(self, flowables, **kwargs):
        self.buffer.seek(0)
        self.buffer.truncate()
        self.chapter = ""
        self.floats = []
        super().build(flowables, canvasmaker=StreamingCanvas, **kwargs)

    def defer(self, content: list[Flowable]) -> None:
        """A block to draw across both columns at the top of the next page (WideBlock)."""
        self.floats.append(list(content))

    def _columns(self, height: float) -> list[Frame]:
        return [Frame(self.leftMargin + index * (self.column_width + GUTTER), self.bottomMargin, self.column_width,
                      height, id=f"column-{index + 1}", leftPadding=0, rightPadding=0, topPadding=0,
                      bottomPadding=0) for index in range(2)]

    def _begin_page(self, canvas, doc) -> None:
        """Draw the floated blocks waiting (as many as fit), then give the columns the rest of the page."""
        top = self.bottomMargin + self.height
        room = self.height - MIN_COLUMN
        while self.floats and room > 0:
            placed, rest = self._place(canvas, self.floats[0], top, room)
            if rest:
                self.floats[0] = rest
            else:
                self.floats.pop(0)
            if placed == 0:
                break
            top -= placed + FLOAT_GAP
            room -= placed + FLOAT_GAP
            if rest:
                break
        self.pageTemplate.frames = self._columns(top - self.bottomMargin)

    def floats_height(self, canvas) -> float:
        """The height the waiting blocks take across both columns, one under the other."""
        total = 0.0
        for content in self.floats:
            for index, flowable in enumerate(content):
                total += flowable.wrapOn(canvas, self.width, self.height)[1] + flowable.getSpaceAfter()
                total += flowable.getSpaceBefore() if index else 0.0
            total += FLOAT_GAP
        return total - FLOAT_GAP

    def _place(self, canvas, content: list[Flowable], top: float, room: float,
               x: float | None = None) -> tuple[float, list[Flowable]]:
        """Draw what of `content` fits in `room` under `top`; (height used, what is left to draw)."""
        x = self.leftMargin if x is None else x
        used, waiting = 0.0, list(content)
        while waiting:
            flowable = waiting[0]
            before = flowable.getSpaceBefore() if used else 0.0
            height = flowable.wrapOn(canvas, self.width, room - used - before)[1]
            if used + before + height > room:
                parts = flowable.splitOn(canvas, self.width, room - used - before) if height > MIN_COLUMN else []
                if len(parts) < 2:
                    break
                waiting[:1] = parts
                flowable = parts[0]
                height = flowable.wrapOn(canvas, self.width, room - used - before)[1]
            flowable.drawOn(canvas, x, top - used - before - height)
            used += before + height + flowable.getSpaceAfter()
            self.afterFlowable(flowable)
            waiting.pop(0)
        return used, waiting

    def afterFlowable(self, flowable):
        info = getattr(flowable, "rulebook_heading", None)
        if info is None:
            return
        if info.level == 1:
            self.chapter = info.title
        if info.key:
            self.canv.bookmarkPage(info.key)
            self.canv.addOutlineEntry(info.title, info.key, info.level - 1, closed=True)
            self.notify("TOCEntry", (info.level - 1, info.entry, self.page, info.key))

    def afterPage(self):
        self.notify("pnp-page", self.page)

    def _decorate(self, canvas, doc) -> None:
        """Running header and footer, drawn once the page's text is laid out (so the chapter is known)."""
        free = sum(max(0.0, frame._y - frame._y1) for frame in self.pageTemplate.frames)
        self.last_fill = 1.0 - free / (len(self.pageTemplate.frames) * self.height)
        fonts, width, height = self.options.fonts, self.pagesize[0], self.pagesize[1]
        left, right = self.leftMargin, width - self.rightMargin
        header_y = height - MARGIN_TOP + 9 * MM
        canvas.saveState()
        canvas.setFillColor(MUTED)
        body, chain = fonts.name("body"), fonts.behind(fonts.name("body"))
        header = self.options.game_title + (f" · {self.chapter}" if self.chapter else "")
        draw_string(canvas, left, header_y, _clipped(header, body, 8.5, right - left, chain), body, 8.5, chain)
        if canvas._fontname != body:     # the header ended in a fallback font: the footer is in the body's
            canvas.setFont(body, 8.5)
        total = self.page_total.pages or self.page
        canvas.drawCentredString(width / 2, MARGIN_BOTTOM - 12 * MM, f"page {self.page} / {total}")
        canvas.setStrokeColor(RULE_GREY)
        canvas.setLineWidth(0.5)
        canvas.line(left, header_y - 2.5 * MM, right, header_y - 2.5 * MM)
        canvas.restoreState()
        self._mark(canvas, doc)

    def _mark(self, canvas, doc) -> None:
        """The edition mark of the build (none outside one), at the right end of the footer's line."""
        draw_page_mark(canvas, self.options.fonts, self.pagesize[0] - self.rightMargin, MARGIN_BOTTOM - 12 * MM,
                       page_mark())
