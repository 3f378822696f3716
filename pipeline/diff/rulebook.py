"""The rulebook pages a change of the data touches (`pnp diff`): both versions' books rendered, their text read
back page by page (pypdfium2), and the lines compared over the whole book (difflib), so a paragraph pushed to
the next page does not mark every page after it. When the chapters after jinja2, the cover and the figures
are the same in both versions, the books are the same and nothing is rendered."""

from __future__ import annotations

import io
import re
from difflib import SequenceMatcher
from pathlib import Path

from pipeline.core.errors import PipelineError, Report
from pipeline.diff.changes import RULES_SHEET, rulebook_of
from pipeline.diff.versions import Version, lay_out

_FOLIO = re.compile(r"^page \d+\s*/\s*\d+$", re.IGNORECASE)    # "page 3 / 15": changes with the page count


def changed_pages(before: Version, after: Version, paper: str, root: Path, report: Report, rules_changed: bool,
                  cards_changed: bool) -> tuple[list[int], list[int] | None]:
    """Pages of the new rulebook holding lines that differ from the old one's, and those of them the `rules`
    sheet's changes make (None when that cannot be told apart); none when either book cannot be rendered (why
    is a warning in `report`, as `pnp build` would make it an error).

    When both the rules and the cards changed, a third book is made from the old data with the new rules
    sheet: a changed line it already holds comes from the rules."""
    old_book, new_book = _Book(before, root), _Book(after, root)
    if old_book.spec is None or new_book.spec is None or old_book.source() == new_book.source():
        return [], []
    old_pages, new_pages = old_book.texts(paper, report), new_book.texts(paper, report)
    if not old_pages or not new_pages:
        return [], []
    placed = [(number, line) for number, text in enumerate(new_pages, 1) for line in _lines(text)]
    changed = _changed(old_pages, placed)
    pages = sorted({placed[j][0] for j in changed})
    if not (rules_changed and cards_changed):
        return pages, pages if rules_changed else []
    mixed = _with_new_rules(before, after)
    mixed_pages = _Book(mixed, root).texts(paper, Report()) if mixed is not None else []
    if not mixed_pages:
        return pages, None
    from_cards = _changed(mixed_pages, placed)
    return pages, sorted({placed[j][0] for j in changed - from_cards})


def _changed(old_pages: list[str], placed: list[tuple[int, str]]) -> set[int]:
    """The indices of the new book's lines (page, line) that the old book's lines do not hold in order."""
    old_lines = [line for text in old_pages for line in _lines(text)]
    new_lines = [line for _, line in placed]
    found: set[int] = set()
    for tag, _, _, j1, j2 in SequenceMatcher(None, old_lines, new_lines, autojunk=False).get_opcodes():
        if tag != "equal" and placed:
            found.update(min(j, len(placed) - 1) for j in range(j1, max(j2, j1 + 1)))
    return found


def _with_new_rules(before: Version, after: Version) -> Version | None:
    """The old data with the new `rules` sheet; None when the game's components cannot be made of that mix
    (a new rule may name a row only the new data has: any error of the game's own code means just that)."""
    records = {**before.records, RULES_SHEET: after.records.get(RULES_SHEET, [])}
    try:
        components = before.game.components(records)
    except Exception:       # noqa: BLE001 — the mix is not a version anyone wrote; the attribution is then unknown
        return None
    return Version(f"{before.label} + rules", before.game, records, components, renderer=after.renderer)


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip() and not _FOLIO.match(line.strip())]


class _Book:
    """One version's rulebook: its spec and laid-out figures, what it is made from, its pages' text."""

    def __init__(self, version: Version, root: Path):
        from pipeline.core.progress import Progress
        from pipeline.kinds import rulebook as kind

        self.version, self.root = version, root
        self.spec = rulebook_of(version)
        self.figures = {} if self.spec is None else kind.lay_out(
            self.spec, lambda face: lay_out(version.renderer, face, Report()), Progress(), False, Report())

    @property
    def folder(self) -> Path:
        return self.version.game.template_dir / self.spec.source

    def source(self) -> tuple:
        """The chapters' Markdown after jinja2, the cover and the figures' keys: equal sources, equal books."""
        from pipeline.render.rulebook.cover import read_cover
        from pipeline.render.rulebook.source import render_chapters

        chapters, _ = render_chapters(self.folder, self.spec.context, self.root)
        cover, _ = read_cover(self.folder, self.spec.context, self.figures, self.root)
        return [(c.rel, c.text) for c in chapters], repr(cover), {n: _key(f) for n, f in self.figures.items()}

    def texts(self, paper: str, report: Report) -> list[str]:
        import pypdfium2 as pdfium

        from pipeline.core.printing import PrintOptions
        from pipeline.render.fonts import default_fonts
        from pipeline.render.rulebook.book import write_rulebook

        buffer = io.BytesIO()
        try:
            write_rulebook(buffer, self.folder, self.spec.context, self.figures,
                           PrintOptions(paper=paper, game_title=self.version.game.title, fonts=default_fonts()),
                           self.root)
        except PipelineError as exc:
            for problem in exc.problems:
                report.warning(problem.where, f"the rulebook of {self.version.label} cannot be rendered, so its "
                               f"changed pages are not known: {problem.message}", "diff")
            return []
        pdf = pdfium.PdfDocument(buffer.getvalue())
        try:
            texts = []
            for page in pdf:
                textpage = page.get_textpage()
                texts.append(textpage.get_text_range())
                textpage.close()
                page.close()
            return texts
        finally:
            pdf.close()


def _key(figure) -> object:
    """A laid-out figure's identity (a FaceLayout's or a pile's StackLayout's key)."""
    return getattr(figure, "key", None) or repr(figure)
