"""Rulebook sources: the chapter files `NN-name.md` of a folder, each rendered by jinja2 into Markdown that
remembers, line by line, which source line it came from.

jinja2 loses that mapping (a `{% for %}` repeats lines, `{% if %}` drops some), so before rendering every
source line that ends in plain text gets an invisible marker carrying its number; the markers travel through
jinja2 like any text, are read back from the output and removed. A problem found later in the Markdown (an
unknown figure) is then reported at the line of the chapter file that produced it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from pipeline.core.errors import Problem, Severity, SourceRef

RULE = "rulebook"
CHAPTER_FILE = re.compile(r"^(\d+)-.+\.md$")
IGNORED_FILES = {"readme.md"}

_MARK = "\ue000{}\ue001"                      # private-use characters: never in a real text
_MARK_RE = re.compile("\ue000(\\d+)\ue001")
_OPENER = re.compile(r"\{\{|\{%|\{#")
_CLOSER = {"{{": "}}", "{%": "%}", "{#": "#}"}


@dataclass(frozen=True)
class ChapterText:
    """One chapter file after jinja2: `text` is Markdown, `lines[i]` the source line of its line i."""

    rel: str                    # the file as problems name it (relative to the project root)
    text: str
    lines: tuple[int, ...]

    def source_line(self, index: int) -> int:
        """The 1-based source line of the 0-based rendered line `index`."""
        if not self.lines:
            return 1
        return self.lines[min(max(index, 0), len(self.lines) - 1)]

    def where(self, index: int) -> SourceRef:
        return SourceRef(self.rel, None, self.source_line(index))


def render_chapters(folder: Path, context: Mapping[str, Any],
                    project_root: Path) -> tuple[list[ChapterText], list[Problem]]:
    """Every chapter file of `folder`, in order, rendered with `context`; problems instead of exceptions."""
    files, problems = chapter_files(Path(folder), Path(project_root))
    env = _environment()
    chapters = []
    for path in files:
        chapter = _render(env, path, relative_path(path, Path(project_root)), dict(context), problems)
        if chapter is not None:
            chapters.append(chapter)
    return chapters, problems


def chapter_files(folder: Path, project_root: Path) -> tuple[list[Path], list[Problem]]:
    """`NN-name.md` files sorted by NN then name; other Markdown files are warned about (README.md aside)."""
    rel = relative_path(folder, project_root)
    if not folder.is_dir():
        return [], [Problem(rel, "the rulebook folder does not exist", RULE)]
    chapters, problems = [], []
    for path in sorted(folder.iterdir()):
        match = CHAPTER_FILE.match(path.name)
        if match and path.is_file():
            chapters.append((int(match.group(1)), path.name, path))
        elif path.suffix.lower() == ".md" and path.name.lower() not in IGNORED_FILES:
            problems.append(Problem(relative_path(path, project_root), "not a chapter file (name it NN-name.md, "
                                    "e.g. 01-apercu.md): ignored", RULE, Severity.WARNING))
    if not chapters:
        problems.append(Problem(rel, "no chapter file (NN-name.md) in the rulebook folder", RULE))
    return [path for _, _, path in sorted(chapters)], problems


def relative_path(path: Path, project_root: Path) -> str:
    path, root = path.resolve(), project_root.resolve()
    return path.relative_to(root).as_posix() if path.is_relative_to(root) else path.as_posix()


def _environment():
    from pipeline.render.faces.expressions import sandbox

    return sandbox(markdown=True)


def _render(env, path: Path, rel: str, context: dict, problems: list[Problem]) -> ChapterText | None:
    source = _read(path, rel, problems)
    if source is None:
        return None
    from jinja2.exceptions import TemplateSyntaxError, UndefinedError

    try:
        rendered = env.from_string(_mark_lines(source)).render(context)
    except TemplateSyntaxError as exc:
        problems.append(Problem(SourceRef(rel, None, exc.lineno), f"jinja2 syntax: {_clean(exc.message)}", RULE))
        return None
    except Exception as exc:    # user code in the sandbox: undefined names, unsafe access, type errors…
        message = str(exc) if isinstance(exc, UndefinedError) else f"{type(exc).__name__}: {exc}"
        problems.append(Problem(SourceRef(rel, None, _template_line(exc)), f"jinja2: {_clean(message)}", RULE))
        return None
    text, lines = _unmark(rendered)
    return ChapterText(rel, text, lines)


def _read(path: Path, rel: str, problems: list[Problem]) -> str | None:
    try:
        data = path.read_bytes()
    except OSError as exc:
        problems.append(Problem(SourceRef(rel), f"cannot read the chapter: {exc.strerror or exc}", RULE))
        return None
    try:
        return data.decode("utf-8-sig").replace("\r\n", "\n")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        problems.append(Problem(SourceRef(rel, None, line), "the chapter is not UTF-8 text", RULE))
        return None


def _template_line(exc: BaseException) -> int | None:
    """jinja2 rewrites tracebacks so that template frames carry the template's own line numbers."""
    line, tb = None, exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == "<template>":
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def _clean(message: str | None) -> str:
    return _MARK_RE.sub("", message or "")


def _mark_lines(source: str) -> str:
    """Append a line marker to every line that ends outside a jinja2 tag and not on a block tag or a `-}}`
    (trim_blocks and whitespace control must still see the newline right after them)."""
    out, waiting = [], None
    for number, line in enumerate(source.split("\n"), 1):
        waiting = _scan(line, waiting)
        ends_on_tag = line.rstrip().endswith(("%}", "#}", "-}}"))   # trim_blocks or `-}}` eat the newline
        out.append(line if waiting or ends_on_tag else line + _MARK.format(number))
    return "\n".join(out)


def _scan(line: str, waiting: str | None) -> str | None:
    """The closing delimiter still awaited at the end of `line` ("}}", "%}", "#}") or None."""
    position = 0
    while True:
        if waiting:
            end = line.find(waiting, position)
            if end < 0:
                return waiting
            position, waiting = end + 2, None
        else:
            opener = _OPENER.search(line, position)
            if opener is None:
                return None
            position, waiting = opener.end(), _CLOSER[opener.group()]


def _unmark(rendered: str) -> tuple[str, tuple[int, ...]]:
    """Strip the markers; a line without one (a value spanning lines) takes the next marked line's number."""
    texts, numbers = [], []
    for raw in rendered.split("\n"):
        found = _MARK_RE.search(raw)
        numbers.append(int(found.group(1)) if found else None)
        texts.append(_MARK_RE.sub("", raw))
    following = None
    for index in range(len(numbers) - 1, -1, -1):
        if numbers[index] is None:
            numbers[index] = following
        following = numbers[index]
    previous = 1
    for index, number in enumerate(numbers):
        numbers[index] = previous = number if number is not None else previous
    return "\n".join(texts), tuple(numbers)
