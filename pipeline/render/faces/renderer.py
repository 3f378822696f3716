"""Faces: a compiled template + one card's values -> a FaceLayout, a flat list of drawable primitives.

layout() does all the thinking (expressions, text fitting, art lookup) and reports problems; draw() only
replays primitives onto a canvas. Identical faces share a key, so imposition can draw a common back once as
a form and reuse it.
"""

from __future__ import annotations

import hashlib
import marshal
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Mapping

from pipeline.core.errors import Problem, Severity, SourceRef
from pipeline.render.faces.art import Art, ArtError, ArtLibrary, fit_box, placeholder
from pipeline.render.faces.edition_mark import DEFAULT_ANCHOR
from pipeline.render.faces.expressions import Const
from pipeline.render.faces.layout import Dynamic, Element, EvaluationError, Template, TemplateLoader
from pipeline.render.faces.primitives import Circle, Group, Line, Polygon, Rect, Text, draw_all
from pipeline.render.fonts import FontSet

__all__ = ["FaceLayout", "FaceRenderer", "Text"]
from pipeline.core.units import MM
from pipeline.render.faces.text import TextStyle, fit_text

FALLBACK_SIZE_MM = (63.5, 88.9)
_UNSET = object()   # a broken template still yields a poker-sized blank face


@dataclass(frozen=True)
class FaceLayout:
    """A resolved face. `key` is a sha1 of the template path, trim, bleed and every evaluated element value:
    the primitives are a pure function of those (and of files on disk, fixed during a build), so equal keys
    mean identical faces, and hashing the values is much cheaper than hashing the primitives."""
    key: str
    width: float
    height: float
    bleed: float
    missing_art: tuple[str, ...]
    primitives: tuple = field(default=(), repr=False)
    project_root: Path = field(default=Path("."), repr=False, compare=False)
    legible: bool = field(default=False, compare=False)   # FaceSpec.legible: a figure never shrunk below 6 pt text
    mark_anchor: str = "bottom"     # where the build stamps the edition mark (render/faces/edition_mark.py)
    mark_inset: float = 0.0         # mm from the trim to the mark, when more than the safe zone

    def draw(self, canvas) -> None:
        """Trim box's bottom-left at (0, 0), points, y up; leaves the canvas state as found."""
        canvas.saveState()
        draw_all(canvas, self.primitives, self.project_root, {})
        canvas.restoreState()


class FaceRenderer:
    def __init__(self, project_root: Path, game_dir: Path, fonts: FontSet, ink_saver: bool = False):
        self.project_root = Path(project_root).resolve()
        self.game_dir = Path(game_dir).resolve()
        # templates/ holds the shared frames and icons even for a game kept elsewhere (a game.yaml by path)
        templates_root = self.project_root / "templates"
        self.fonts = fonts
        self.ink_saver = ink_saver
        self.loader = TemplateLoader(self.project_root, (templates_root, self.game_dir), tuple(fonts.names))
        self.art = ArtLibrary(self.project_root, templates_root, self.game_dir)
        self._templates: dict[str, tuple] = {}  # name -> (Template | None, load problems)
        self._folders: dict[Path, Path] = {}
        self._styles: dict[tuple, TextStyle | None] = {}
        self._static: dict[str, tuple] = {}     # template -> (data_dir, face) for templates without expressions

    def layout(self, template: str, context: Mapping[str, Any], ref: SourceRef | None, name: str,
               data_dir: Path | None = None, size_mm: tuple[float, float] | None = None
               ) -> tuple[FaceLayout, list[Problem]]:
        """Evaluate every expression, fit every text (measure only) and return the drawable face + problems.
        Load-time problems of a template are returned once, with the first card that uses it."""
        compiled, problems = self._template(template, name)
        if compiled is None:
            return self._blank(template), problems
        static = self._static.get(template) if size_mm is None else None
        if static is not None and data_dir == static[0]:
            return static[1], []        # no expression reads the card: every card gets the same face
        if size_mm is not None:     # a face sized by the data (a board of board_size plots)
            compiled = replace(compiled, size=tuple(float(v) for v in size_mm))
        resolver = _Resolver(self, compiled, context, _card_label(name, ref), data_dir, problems)
        primitives = resolver.resolve()
        width, height = compiled.size
        bleed = compiled.bleed or 0.0
        face = FaceLayout(resolver.key(), width * MM, height * MM, bleed * MM,
                          tuple(dict.fromkeys(resolver.missing_art)), primitives, self.project_root,
                          mark_anchor=compiled.mark[0] if compiled.mark else DEFAULT_ANCHOR,
                          mark_inset=compiled.mark[1] if compiled.mark else 0.0)
        if size_mm is None and _is_static(compiled):
            self._static[template] = (data_dir, face)
        return face, problems

    def _template(self, template: str, name: str) -> tuple[Template | None, list[Problem]]:
        """The compiled template; its load problems come back once, with the first card that uses it."""
        if template in self._templates:
            return self._templates[template][0], []
        compiled, load_problems = self.loader.load(self.game_dir / template)
        self._templates[template] = (compiled, load_problems)
        return compiled, [Problem(p.where, f"card {name}: {p.message}", p.rule, p.severity) for p in load_problems]

    def loaded(self, template: str) -> Template | None:
        """A template already compiled by layout() (None if it failed to load)."""
        entry = self._templates.get(template)
        return entry[0] if entry else None

    def text_style(self, role: str, *rest) -> TextStyle | None:
        """One TextStyle per distinct setting (hashable: it keys the text-fitting cache)."""
        key = (role, *rest)
        if key not in self._styles:
            known = role in self.fonts.names
            self._styles[key] = TextStyle(self.fonts.name(role), self.fonts.bold(role), *rest,
                                          fallbacks=self.fonts.behind(self.fonts.name(role))) if known else None
        return self._styles[key]

    def resolved(self, folder: Path | None) -> Path | None:
        """Resolve a data folder once per renderer (resolve() costs system calls)."""
        if folder is None:
            return None
        if folder not in self._folders:
            self._folders[folder] = Path(folder).resolve()
        return self._folders[folder]

    def _blank(self, template: str) -> FaceLayout:
        width, height = FALLBACK_SIZE_MM
        key = hashlib.sha1(f"broken:{template}".encode("utf-8")).hexdigest()
        return FaceLayout(key, width * MM, height * MM, 0.0, (), (), self.project_root)


def _card_label(name: str, ref: SourceRef | None) -> tuple[str, str]:
    """(prefix, suffix) of every per-card message: "card X: …" and, when known, where its data row is."""
    return f"card {name}: ", (f" (data: {ref})" if ref is not None else "")


class _Resolver:
    """Turns one template into primitives for one card; collects problems instead of stopping."""

    def __init__(self, renderer: FaceRenderer, template: Template, context: Mapping[str, Any],
                 label: tuple[str, str], data_dir: Path | None, problems: list[Problem]):
        self.renderer, self.template, self.label, self.problems = renderer, template, label, problems
        self.fonts, self.art = renderer.fonts, renderer.art
        self.data_dir = renderer.resolved(data_dir)
        self.missing_art: list[str] = []
        self.context = renderer.loader.new_context(context)
        self.context["ink_saver"] = renderer.ink_saver
        card = self.context.get("card")
        if isinstance(card, Mapping):
            # jinja reads card.copy as dict.copy (attributes win over items): give it plain attributes.
            self.context["card"] = SimpleNamespace(**card)
        # Every evaluated element's values, in order: the face is a pure function of them (and of the
        # files on disk, fixed during a build), so hashing them is the cheap way to key identical faces.
        folder = self.data_dir
        if folder is not None and folder.is_relative_to(renderer.project_root):
            folder = folder.relative_to(renderer.project_root)      # the same face wherever the project is
        self.signature: list = [template.rel, template.size, template.bleed, str(folder)]

    def key(self) -> str:
        # marshal version 2: no object references, so equal values always give equal bytes
        return hashlib.sha1(marshal.dumps(tuple(self.signature), 2)).hexdigest()

    def problem(self, where: SourceRef, message: str, rule: str = "template",
                severity: Severity = Severity.ERROR) -> None:
        prefix, suffix = self.label
        self.problems.append(Problem(where, f"{prefix}{message}{suffix}", rule, severity))

    def resolve(self) -> tuple:
        for name, value, where, _ in self.template.vars:
            try:
                self.context[name] = value.evaluate(self.context)
            except EvaluationError as exc:
                self.problem(where, f"vars.{name}: {exc}")
        return self.elements(self.template.elements, self.template.size[1])

    def elements(self, elements: tuple[Element, ...], top: float) -> tuple:
        """`top`: the frame's y origin in mm, so a template y maps to (top - y) * MM (top = H, or 0 in a group)."""
        out: list = []
        for element in elements:
            values = self.evaluate(element)
            if values is not None:
                getattr(self, "_" + element.kind)(element, values, top, out)
        return tuple(out)

    def evaluate(self, element: Element) -> dict | None:
        key = "when"
        try:
            if element.when is not None and not element.when.evaluate(self.context):
                self.signature.append(None)
                return None
            values = dict(element.fixed)
            for key, value in element.varying:
                values[key] = value.evaluate(self.context)
            self.signature.append(tuple(values.values()))
            return values
        except EvaluationError as exc:
            self.problem(element.where, f"{element.kind}.{key}: {exc}")
            self.signature.append(False)
            return None

    # one method per element kind -------------------------------------------------------------------------

    def _rect(self, element: Element, v: dict, top: float, out: list) -> None:
        dash = tuple(d * MM for d in v["dash"]) if v["dash"] else None
        out.append(Rect(v["x"] * MM, (top - v["y"] - v["h"]) * MM, v["w"] * MM, v["h"] * MM, v["r"] * MM,
                        v["fill"], v["stroke"], v["stroke_width"], dash))

    def _circle(self, element: Element, v: dict, top: float, out: list) -> None:
        out.append(Circle(v["cx"] * MM, (top - v["cy"]) * MM, v["r"] * MM, v["fill"], v["stroke"],
                          v["stroke_width"]))

    def _polygon(self, element: Element, v: dict, top: float, out: list) -> None:
        points = tuple((x * MM, (top - y) * MM) for x, y in v["points"])
        out.append(Polygon(points, v["fill"], v["stroke"], v["stroke_width"]))

    def _line(self, element: Element, v: dict, top: float, out: list) -> None:
        dash = tuple(d * MM for d in v["dash"]) if v["dash"] else None
        out.append(Line(v["x1"] * MM, (top - v["y1"]) * MM, v["x2"] * MM, (top - v["y2"]) * MM, v["stroke"],
                        v["stroke_width"], dash))

    def _group(self, element: Element, v: dict, top: float, out: list) -> None:
        """`repeat` copies: copy k is shifted by k × (dx, dy) and its children see `var` = k (0-based)."""
        var, saved = v["var"], self.context.get(v["var"], _UNSET)
        repeats = _repeats(element)
        for k in range(v["repeat"]):
            if repeats:             # a plain group leaves a column that happens to be called `i` alone
                self.context[var] = k
            children = self.elements(element.children, 0.0)
            if children:
                out.append(Group((v["x"] + k * v["dx"]) * MM, (top - v["y"] - k * v["dy"]) * MM, -v["rotate"],
                                 children))
        if saved is _UNSET:
            self.context.pop(var, None)
        else:
            self.context[var] = saved

    def _text(self, element: Element, v: dict, top: float, out: list) -> None:
        style = self.renderer.text_style(v["font"], v["size"], v["min_size"], v["leading"], v["align"],
                                         v["valign"])
        if style is None:
            self.problem(element.where, f"text: unknown font role {v['font']!r}")
            return
        box = (v["x"] * MM, (top - v["y"]) * MM, v["w"] * MM, v["h"] * MM)
        fitted = fit_text(v["text"], box, style, self.art.aspect)
        for icon in fitted.unknown_icons:
            self.problem(element.where, f"text: unknown icon :{icon}: (no icons/{icon}.svg or .png)", "icon")
        if not fitted.fits:
            excerpt = v["text"] if len(v["text"]) <= 40 else v["text"][:37] + "…"
            self.problem(element.where, f"text does not fit in {v['w']:g}×{v['h']:g} mm even at "
                                        f"{style.min_size:g} pt: {excerpt!r}", "text-overflow")
        font = self.fonts.name("body")
        icons = tuple(Art(self.art.icon(i.name)[0], font, i.x, i.y, i.width, i.height)
                      for i in fitted.icons if self.art.icon(i.name) is not None)
        if fitted.runs or icons:
            out.append(Text(v["color"], fitted.runs, icons, fitted.line_step))

    def _icon(self, element: Element, v: dict, top: float, out: list) -> None:
        found = self.art.icon(v["name"])
        if found is None:
            self.problem(element.where, f"icon: unknown icon {v['name']!r} (no icons/{v['name']}.svg or .png "
                                        "in the game's or the common templates)", "icon")
            return
        rel, aspect = found
        height = v["size"] * MM
        out.append(Art(rel, self.fonts.name("body"), v["x"] * MM, (top - v["y"]) * MM - height,
                       aspect * height, height))

    def _image(self, element: Element, v: dict, top: float, out: list) -> None:
        box = (v["x"] * MM, (top - v["y"] - v["h"]) * MM, v["w"] * MM, v["h"] * MM)
        if not v["src"]:
            self.problem(element.where, "image: src is empty", "art", Severity.WARNING)
            out.append(placeholder(box, "no image", self.fonts.name("body"), self.fonts.fallbacks))
            return
        from_data = isinstance(element.props["src"], Dynamic) and self.data_dir is not None
        bases = (self.data_dir, self.renderer.game_dir) if from_data else (self.renderer.game_dir,)
        found = self.art.locate(v["src"], bases)
        font = self.fonts.name("body")
        if found.status == "outside":
            self.problem(element.where, f"image: {found.why}", "path")
            out.append(placeholder(box, f"refused: {Path(found.rel).name}", font, self.fonts.fallbacks))
        elif found.status == "missing":
            self.missing_art.append(found.rel)
            out.append(placeholder(box, Path(found.rel).name, font, self.fonts.fallbacks))
        else:
            try:
                natural = self.art.natural_size(found.rel)
            except ArtError as exc:
                self.problem(element.where, f"image: {exc}", "art")
                out.append(placeholder(box, Path(found.rel).name, font, self.fonts.fallbacks))
                return
            x, y, width, height, clip = fit_box(natural, box, v["fit"])
            out.append(Art(found.rel, font, x, y, width, height, clip))

    def _cells(self, element: Element, v: dict, top: float, out: list) -> None:
        rows = [row.strip() for row in v["pattern"].split("/")]
        columns = max((len(row) for row in rows), default=0)
        if not columns:
            return
        cell = min(v["w"] / columns, v["h"] / len(rows))
        left = v["x"] + (v["w"] - cell * columns) / 2
        upper = v["y"] + (v["h"] - cell * len(rows)) / 2
        for r, row in enumerate(rows):
            for c in range(columns):
                fill = v["fill"] if c < len(row) and row[c] == "#" else v["empty"]
                if fill is not None or v["stroke"] is not None:
                    out.append(Rect((left + c * cell) * MM, (top - upper - (r + 1) * cell) * MM, cell * MM,
                                    cell * MM, 0.0, fill, v["stroke"], v["stroke_width"], None))


def _repeats(element: Element) -> bool:
    props = element.props
    return not (isinstance(props["repeat"], Const) and props["repeat"].value == 1
                and isinstance(props["var"], Const) and props["var"].value == "i")


def _is_static(template: Template) -> bool:
    """True when nothing in the template depends on the card (typically a common back)."""
    def static(elements) -> bool:
        return all(not isinstance(element.when, Dynamic) and not element.varying and static(element.children)
                   for element in elements)
    return not any(isinstance(var.value, Dynamic) for var in template.vars) and static(template.elements)
