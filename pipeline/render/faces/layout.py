"""Templates: YAML face designs read once, merged along `extends`, every string compiled once.

A Template holds compiled Values; rendering a card only evaluates them against the card's context (no YAML
parsing, no copying of the tree). Every element remembers the file and line it came from, so a problem found
while drawing card 1,734 still points at the template line (see templates/README.md for the format).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Mapping, NamedTuple

from pipeline.core.errors import Problem, Severity, SourceRef
from pipeline.core.paths import path_problem
from pipeline.core.safe_yaml import SafeLoader, YamlRefused, read_yaml
from pipeline.render.faces.edition_mark import ANCHORS, DEFAULT_ANCHOR
from pipeline.render.faces.expressions import Compiler, Const, Dynamic, EvaluationError, TemplateSyntax, Value
from pipeline.render.faces.values import REQUIRED, SCHEMA, TOP_LEVEL_KEYS, length_mm, trim_size, truthy

__all__ = ["Dynamic", "Element", "EvaluationError", "Template", "TemplateLoader"]

RULE = "template"


# --- YAML with line numbers -------------------------------------------------------------------------------

class YamlMap(dict):
    """A mapping that remembers the line (1-based) where it starts."""
    line: int | None = None


class _LineLoader(SafeLoader):
    """The bounded, NFC loader of pipeline/core/safe_yaml.py, whose mappings remember their line."""


def _construct_map(loader, node):
    data = YamlMap()
    data.line = node.start_mark.line + 1
    yield data
    data.update(loader.construct_mapping(node))


_LineLoader.add_constructor("tag:yaml.org,2002:map", _construct_map)


# --- the compiled template ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Element:
    kind: str
    where: SourceRef
    when: Value | None
    props: Mapping[str, Value]          # every key of the kind's schema, defaults filled in
    children: tuple["Element", ...] = ()
    # props split once, so that each card only evaluates what can change
    fixed: Mapping[str, Any] = field(init=False, repr=False, compare=False)
    varying: tuple[tuple[str, Dynamic], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        fixed = {key: value.value for key, value in self.props.items() if isinstance(value, Const)}
        varying = tuple((key, value) for key, value in self.props.items() if not isinstance(value, Const))
        object.__setattr__(self, "fixed", fixed)
        object.__setattr__(self, "varying", varying)


class Var(NamedTuple):
    name: str
    value: Value
    where: SourceRef
    uses: frozenset[str]        # the names its expressions read (to evaluate vars in dependency order)


@dataclass(frozen=True)
class Template:
    rel: str                                    # "templates/<game>/x.yaml", for messages
    size: tuple[float, float] | None            # trim (w, h) in mm; None = inherited / abstract parent
    bleed: float | None                         # mm; None = inherited (0 at the end of the chain)
    safe: float | None
    vars: tuple[Var, ...]
    elements: tuple[Element, ...]
    mark: tuple[str, float] | None = None       # `edition_mark: {anchor, inset}`; None = inherited / the default


class TemplateLoader:
    """Loads templates once per path (parents included) and keeps the load-time problems with them."""

    def __init__(self, project_root: Path, roots: tuple[Path, ...], font_roles: tuple[str, ...] = ()):
        """`roots`: the folders templates may be read from (templates/ and the game's own folder)."""
        self.project_root = Path(project_root).resolve()
        self.roots = tuple(Path(root).resolve() for root in roots)
        self.font_roles = tuple(font_roles)
        self.compiler = Compiler()
        self._cache: dict[Path, tuple[Template | None, tuple[Problem, ...]]] = {}
        self._loaded: dict[Path, tuple[Template | None, tuple[Problem, ...]]] = {}

    def new_context(self, values: Mapping[str, Any]) -> dict:
        """The per-card evaluation context: jinja globals + the card's values (shared by every expression)."""
        context = dict(self.compiler.globals)
        context.update(values)
        return context

    def relative(self, path: Path) -> str:
        return path.relative_to(self.project_root).as_posix() if path.is_relative_to(self.project_root) \
            else path.as_posix()

    def allowed(self, path: Path) -> bool:
        return any(path.is_relative_to(root) for root in self.roots)

    def load(self, path: Path) -> tuple[Template | None, tuple[Problem, ...]]:
        """A drawable template (size known) or None, with every problem found on the way (once per path asked:
        files are fixed while a build runs)."""
        if path not in self._loaded:
            self._loaded[path] = self._load_drawable(Path(path).resolve())
        return self._loaded[path]

    def _load_drawable(self, path: Path) -> tuple[Template | None, tuple[Problem, ...]]:
        if not self.allowed(path):
            return None, (Problem(self.relative(path), "the template is outside the templates folders", RULE),)
        template, problems = self._load(path, ())
        if template is not None and template.size is None:
            where = SourceRef(template.rel, None, 1)
            return None, problems + (Problem(where, "size: [w, h] is missing (here and in its parents)", RULE),)
        if template is not None:
            found: list[Problem] = []
            template = replace(template, vars=_dependency_order(template.vars, found))
            problems += tuple(found)
        return template, problems

    def _load(self, path: Path, chain: tuple[Path, ...]) -> tuple[Template | None, tuple[Problem, ...]]:
        if path not in self._cache:
            problems: list[Problem] = []
            template = self._build(path, chain, problems)
            self._cache[path] = (template, tuple(problems))
        return self._cache[path]

    def _build(self, path: Path, chain: tuple[Path, ...], problems: list[Problem]) -> Template | None:
        rel = self.relative(path)
        doc = self._read(path, rel, problems)
        if doc is None:
            return None
        top = SourceRef(rel, None, doc.line)
        for key in doc:
            if key not in TOP_LEVEL_KEYS:
                problems.append(_warning(top, f"unknown top-level key {key!r} (ignored; known: "
                                              f"{', '.join(TOP_LEVEL_KEYS)})"))
        parent = self._parent(path, doc, chain, top, problems) if doc.get("extends") is not None else None
        own = Template(rel, self._constant(doc, "size", trim_size, top, problems),
                       self._constant(doc, "bleed", length_mm, top, problems),
                       self._constant(doc, "safe", length_mm, top, problems), self._vars(doc, rel, problems),
                       self._elements(doc.get("elements") or [], rel, top, problems),
                       self._mark(doc, top, problems))
        return own if parent is None else _merge(parent, own)

    def _read(self, path: Path, rel: str, problems: list[Problem]) -> YamlMap | None:
        try:
            doc = read_yaml(path, _LineLoader)
        except OSError as exc:
            problems.append(Problem(SourceRef(rel), f"cannot read template: {exc.strerror or exc}", RULE))
            return None
        except YamlRefused as exc:
            problems.append(Problem(SourceRef(rel, None, exc.line), exc.message, RULE))
            return None
        if not isinstance(doc, YamlMap):
            problems.append(Problem(SourceRef(rel, None, 1), "a template must be a mapping (size, elements…)", RULE))
            return None
        return doc

    def _parent(self, path: Path, doc: YamlMap, chain: tuple[Path, ...], top: SourceRef,
                problems: list[Problem]) -> Template | None:
        target = (path.parent / str(doc["extends"])).resolve()
        if not self.allowed(target):
            problems.append(Problem(top, f"extends {doc['extends']!r} leaves the templates folder", RULE))
            return None
        if target == path or target in chain:
            problems.append(Problem(top, f"extends {doc['extends']!r} makes a cycle", RULE))
            return None
        parent, parent_problems = self._load(target, chain + (path,))
        problems.extend(parent_problems)
        return parent

    def _constant(self, doc: YamlMap, key: str, convert, top: SourceRef, problems: list[Problem]) -> Any:
        """size, bleed, safe: plain values (no expressions: a face has one size for the whole deck)."""
        if doc.get(key) is None:
            return None
        try:
            return convert(doc[key])
        except (ValueError, TypeError) as exc:
            problems.append(Problem(top, f"{key}: {exc}", RULE))
            return None

    def _mark(self, doc: YamlMap, top: SourceRef, problems: list[Problem]) -> tuple[str, float] | None:
        """`edition_mark: {anchor: bottom-left, inset: 5}`: where the edition mark goes on this design's faces
        (render/faces/edition_mark.py); `inset` (mm from the trim, optional) moves it further in than the safe zone."""
        raw = doc.get("edition_mark")
        if raw is None:
            return None
        where = SourceRef(top.file, None, getattr(raw, "line", top.row))
        try:
            if not isinstance(raw, dict) or set(raw) - {"anchor", "inset"}:
                raise ValueError("expected a mapping with anchor and inset")
            anchor = raw.get("anchor", DEFAULT_ANCHOR)
            if anchor not in ANCHORS:
                raise ValueError(f"anchor {anchor!r} is not one of {', '.join(ANCHORS)}")
            return anchor, length_mm(raw.get("inset", 0))
        except (ValueError, TypeError) as exc:
            problems.append(Problem(where, f"edition_mark: {exc}", RULE))
            return None

    def _vars(self, doc: YamlMap, rel: str, problems: list[Problem]) -> tuple:
        raw = doc.get("vars") or {}
        where = SourceRef(rel, None, getattr(raw, "line", doc.line))
        if not isinstance(raw, dict):
            problems.append(Problem(where, "vars must be a mapping of name: value", RULE))
            return ()
        compiled = []
        for name, value in raw.items():
            try:
                uses = frozenset(self.compiler.names_used(value)) - {str(name)}   # `x: "{{ x | upper }}"` is the column
                compiled.append(Var(str(name), self.compiler.value(value, lambda v: v), where, uses))
            except TemplateSyntax as exc:
                problems.append(Problem(where, f"vars.{name}: jinja syntax error: {exc.message}", RULE))
        return tuple(compiled)

    def _elements(self, raw: Any, rel: str, parent: SourceRef, problems: list[Problem]) -> tuple[Element, ...]:
        if not isinstance(raw, list):
            problems.append(Problem(parent, "elements must be a list of `- kind: {…}` entries", RULE))
            return ()
        compiled = (self._element(item, rel, parent, problems) for item in raw)
        return tuple(element for element in compiled if element is not None)

    def _element(self, raw: Any, rel: str, parent: SourceRef, problems: list[Problem]) -> Element | None:
        where = SourceRef(rel, None, getattr(raw, "line", parent.row))
        if not isinstance(raw, dict) or len(raw) != 1:
            problems.append(Problem(where, "an element is a one-key mapping such as `- rect: {x: 0, …}`", RULE))
            return None
        (kind, props), = raw.items()
        if kind not in SCHEMA:
            problems.append(Problem(where, f"unknown element kind {kind!r} (known: {', '.join(SCHEMA)})", RULE))
            return None
        props = props if props is not None else {}
        if not isinstance(props, dict):
            problems.append(Problem(where, f"{kind}: expected a mapping of keys", RULE))
            return None
        schema = SCHEMA[kind]
        extra = ("when", "elements") if kind == "group" else ("when",)
        for key in props:
            if key not in schema and key not in extra:
                problems.append(_warning(where, f"{kind}: unknown key {key!r} ignored (known: "
                                                f"{', '.join([*schema, *extra])})"))
        values = self._props(kind, props, schema, where, problems)
        when = self._value(kind, "when", props["when"], truthy, where, problems) if "when" in props else None
        if values is None or ("when" in props and when is None):
            return None
        children = self._elements(props.get("elements") or [], rel, where, problems) if kind == "group" else ()
        return Element(kind, where, when, values, children)

    def _props(self, kind: str, props: dict, schema: dict, where: SourceRef,
               problems: list[Problem]) -> dict[str, Value] | None:
        values: dict[str, Value] = {}
        for key, (convert, default) in schema.items():
            if key in props:
                values[key] = self._value(kind, key, props[key], convert, where, problems)
            elif default is REQUIRED:
                problems.append(Problem(where, f"{kind}: {key} is required", RULE))
                values[key] = None
            else:
                values[key] = Const(default)
        if kind == "text" and isinstance(values.get("font"), Const) and self.font_roles:
            role = values["font"].value
            if role not in self.font_roles:
                problems.append(Problem(where, f"text: unknown font role {role!r} (known: "
                                               f"{', '.join(self.font_roles)})", RULE))
                return None
        src = values.get("src") if kind == "image" else None
        if isinstance(src, Const) and src.value and (why := path_problem(str(src.value))):
            problems.append(Problem(where, f"image: {why}", "path"))    # once here, not once per card drawn
            return None
        return None if any(v is None for v in values.values()) else values

    def _value(self, kind: str, key: str, raw: Any, convert, where: SourceRef,
               problems: list[Problem]) -> Value | None:
        try:
            return self.compiler.value(raw, convert)
        except TemplateSyntax as exc:
            problems.append(Problem(where, f"{kind}.{key}: jinja syntax error: {exc.message}", RULE))
        except (ValueError, TypeError) as exc:
            problems.append(Problem(where, f"{kind}.{key}: {exc}", RULE))
        return None


def _warning(where: SourceRef, message: str) -> Problem:
    return Problem(where, message, RULE, Severity.WARNING)


def _merge(parent: Template, child: Template) -> Template:
    """README: scalars inherited unless set again, vars merged (child wins), child elements drawn after."""
    merged_vars = {var.name: var for var in parent.vars}
    merged_vars.update({var.name: var for var in child.vars})
    return Template(
        rel=child.rel,
        size=child.size if child.size is not None else parent.size,
        bleed=child.bleed if child.bleed is not None else parent.bleed,
        safe=child.safe if child.safe is not None else parent.safe,
        vars=tuple(merged_vars.values()),
        elements=parent.elements + child.elements,
        mark=child.mark if child.mark is not None else parent.mark,
    )


def _dependency_order(variables: tuple[Var, ...], problems: list[Problem]) -> tuple[Var, ...]:
    """Vars in an order where each comes after the vars it uses: a frame may use a value its child defines
    (a theme colour) and a child a value of its frame. Otherwise the written order is kept."""
    pending = list(variables)
    names = {var.name for var in pending}
    done: set[str] = set()
    ordered: list[Var] = []
    while pending:
        ready = [var for var in pending if (var.uses & names) <= done]
        if not ready:
            cycle = ", ".join(var.name for var in pending)
            problems.append(Problem(pending[0].where, f"vars use each other in a cycle: {cycle}", RULE))
            ready = pending[:1]
        for var in ready:
            ordered.append(var)
            done.add(var.name)
            pending.remove(var)
    return tuple(ordered)
