"""Templates: YAML face designs read once, merged along `extends`, every string compiled once to jinja2.

A Template holds compiled Values; rendering a card only evaluates them against the card's context (no YAML
parsing, no copying of the tree). Every element remembers the file and line it came from, so a problem found
while drawing card 1,734 still points at the template line (see templates/README.md for the format).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Mapping, NamedTuple

import yaml
from jinja2 import StrictUndefined, Undefined, meta, nodes
from jinja2.exceptions import TemplateSyntaxError, UndefinedError
from jinja2.parser import Parser
from jinja2.sandbox import SandboxedEnvironment
from reportlab.lib import colors

from pipeline.errors import Problem, Severity, SourceRef
from pipeline.units import to_mm, to_points

RULE = "template"


class EvaluationError(Exception):
    """An expression or a value failed for one card; the caller adds the card and the template line."""


# --- converters: raw YAML / expression result -> the value the drawing code uses ----------------------

def length_mm(raw: Any) -> float:
    return to_mm(raw, "mm")


def length_pt(raw: Any) -> float:
    return to_points(raw, "pt")


def number(raw: Any) -> float:
    try:
        if isinstance(raw, bool):
            raise TypeError
        return float(raw)
    except (TypeError, ValueError):
        raise ValueError(f"{raw!r} is not a number") from None


def text(raw: Any) -> str:
    return "" if raw is None else str(raw)


def word(raw: Any) -> str:
    return text(raw).strip()


def truthy(raw: Any) -> bool:
    """README rule: true, yes, 1, or a non-empty string other than false/no/0."""
    if isinstance(raw, str):
        return raw.strip().lower() not in ("", "false", "no", "0", "none")
    return bool(raw)


def choice(*options: str) -> Callable[[Any], str]:
    def convert(raw: Any) -> str:
        value = word(raw).lower()
        if value not in options:
            raise ValueError(f"{raw!r} is not one of {', '.join(options)}")
        return value
    return convert


@lru_cache(maxsize=4096)
def _parse_colour(value: str) -> tuple[float, float, float] | None:
    value = value.strip().lower()
    if value in ("none", "transparent", ""):
        return None
    hex_digits = value[1:] if value.startswith("#") else None
    if hex_digits is not None and len(hex_digits) == 3:
        hex_digits = "".join(c * 2 for c in hex_digits)  # reportlab would misread #RGB as an integer
    if hex_digits is not None and re.fullmatch(r"[0-9a-f]{6}", hex_digits):
        return tuple(int(hex_digits[i:i + 2], 16) / 255.0 for i in (0, 2, 4))
    named = colors.getAllNamedColors().get(value)
    if named is None:
        raise ValueError(f"{value!r} is not a colour (use #RRGGBB, #RGB, a CSS name or none)")
    return (named.red, named.green, named.blue)


def colour(raw: Any) -> tuple[float, float, float] | None:
    return None if raw is None else _parse_colour(str(raw))


def points(raw: Any) -> tuple[tuple[float, float], ...]:
    if not isinstance(raw, (list, tuple)) or len(raw) < 2:
        raise ValueError("points must be a list of at least two [x, y] pairs")
    pairs = []
    for pair in raw:
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            raise ValueError(f"{pair!r} is not an [x, y] pair")
        pairs.append((length_mm(pair[0]), length_mm(pair[1])))
    return tuple(pairs)


def trim_size(raw: Any) -> tuple[float, float]:
    if not isinstance(raw, list) or len(raw) != 2:
        raise ValueError("size must be [width, height]")
    width, height = length_mm(raw[0]), length_mm(raw[1])
    if width <= 0 or height <= 0:
        raise ValueError("size must be positive")
    return width, height


def dash(raw: Any) -> tuple[float, ...] | None:
    if raw in (None, "", [], "none"):
        return None
    if not isinstance(raw, (list, tuple)):
        raise ValueError("dash must be a list of lengths, e.g. [1, 1]")
    return tuple(length_mm(v) for v in raw)


REQUIRED = object()
_LEN0 = (length_mm, 0.0)
_STROKE = {"stroke": (colour, None), "stroke_width": (length_pt, 0.5)}
_BOX = {"x": (length_mm, REQUIRED), "y": (length_mm, REQUIRED), "w": (length_mm, REQUIRED),
        "h": (length_mm, REQUIRED)}

# kind -> key -> (converter, default already converted, or REQUIRED). `when` is accepted everywhere.
SCHEMA: dict[str, dict[str, tuple]] = {
    "rect": {**_BOX, "r": _LEN0, "fill": (colour, None), **_STROKE, "dash": (dash, None)},
    "circle": {"cx": (length_mm, REQUIRED), "cy": (length_mm, REQUIRED), "r": (length_mm, REQUIRED),
               "fill": (colour, None), **_STROKE},
    "polygon": {"points": (points, REQUIRED), "fill": (colour, None), **_STROKE},
    "line": {"x1": (length_mm, REQUIRED), "y1": (length_mm, REQUIRED), "x2": (length_mm, REQUIRED),
             "y2": (length_mm, REQUIRED), "stroke": (colour, (0.0, 0.0, 0.0)),
             "stroke_width": (length_pt, 0.5), "dash": (dash, None)},
    "text": {**_BOX, "text": (text, REQUIRED), "font": (word, "body"), "size": (length_pt, 10.0),
             "min_size": (length_pt, 6.0), "leading": (number, 1.2),
             "align": (choice("left", "center", "right"), "left"),
             "valign": (choice("top", "middle", "bottom"), "top"), "color": (colour, (0.0, 0.0, 0.0))},
    "image": {**_BOX, "src": (word, REQUIRED), "fit": (choice("contain", "cover", "stretch"), "contain")},
    "icon": {"name": (word, REQUIRED), "x": (length_mm, REQUIRED), "y": (length_mm, REQUIRED),
             "size": (length_mm, 5.0)},
    "cells": {**_BOX, "pattern": (word, REQUIRED), "fill": (colour, (0.2, 0.2, 0.2)), "empty": (colour, None),
              "stroke": (colour, None), "stroke_width": (length_pt, 0.3)},
    "group": {"x": _LEN0, "y": _LEN0, "rotate": (number, 0.0)},
}
TOP_LEVEL_KEYS = ("extends", "size", "bleed", "safe", "vars", "elements")


# --- compiled values ------------------------------------------------------------------------------------

class Const:
    """A value with no expression in it, converted once at load time."""
    __slots__ = ("value",)

    def __init__(self, value: Any):
        self.value = value

    def evaluate(self, context: dict) -> Any:
        return self.value


class _Expression:
    """One compiled jinja2 template; `native` ones keep the expression's type (bool, int, list…)."""
    __slots__ = ("template", "native")

    def __init__(self, template, native: bool):
        self.template, self.native = template, native

    def evaluate(self, context: dict) -> Any:
        # shared=True: the per-card context already holds the environment globals, so no copy per call.
        try:
            ctx = self.template.new_context(context, shared=True)
            if not self.native:
                return "".join(self.template.root_render_func(ctx))
            for _ in self.template.root_render_func(ctx):
                pass
            result = ctx.vars["result"]
            if isinstance(result, Undefined):
                str(result)  # StrictUndefined raises here with jinja's own message
            return result
        except Exception as exc:  # any failure of user code in the sandbox is a located problem
            raise EvaluationError(str(exc) if isinstance(exc, UndefinedError) else f"{type(exc).__name__}: {exc}"
                                  ) from None


class _Name:
    """`{{ name }}` alone, the most common expression: a dictionary lookup with jinja's strict semantics,
    without building a jinja Context for each card."""
    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def evaluate(self, context: dict) -> Any:
        try:
            return context[self.name]
        except KeyError:
            raise EvaluationError(f"'{self.name}' is undefined") from None


class Dynamic:
    """A value containing expressions: evaluated, then converted, for each card."""
    __slots__ = ("tree", "convert")

    def __init__(self, tree: Any, convert: Callable[[Any], Any]):
        self.tree, self.convert = tree, convert

    def evaluate(self, context: dict) -> Any:
        raw = _evaluate_tree(self.tree, context)
        try:
            return self.convert(raw)
        except (ValueError, TypeError) as exc:
            raise EvaluationError(str(exc)) from None


Value = Const | Dynamic


def _evaluate_tree(tree: Any, context: dict) -> Any:
    if isinstance(tree, (_Name, _Expression)):
        return tree.evaluate(context)
    if isinstance(tree, list):
        return [_evaluate_tree(item, context) for item in tree]
    return tree


def make_environment() -> SandboxedEnvironment:
    # autoescape off: our text engine draws characters, it never parses markup, so `&` must stay `&`.
    return SandboxedEnvironment(undefined=StrictUndefined, autoescape=False,
                                finalize=lambda v: "" if v is None else v)


_WHOLE_EXPRESSION = re.compile(r"^\s*\{\{(.*)\}\}\s*$", re.S)
_PLAIN_NAME = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*")
_JINJA_WORDS = {"true", "false", "none", "True", "False", "None", "and", "or", "not", "in", "is", "if", "else"}


def _compile_string(env: SandboxedEnvironment, source: str) -> Any:
    """A plain string stays a string; "{{ expr }}" keeps its native type; anything else renders to text."""
    if "{" not in source:
        return source
    whole = _WHOLE_EXPRESSION.match(source)
    if whole and "{{" not in whole.group(1) and "}}" not in whole.group(1) and "{%" not in source:
        parser = Parser(env, whole.group(1), state="variable")
        expression = parser.parse_expression()
        if not parser.stream.eos:
            raise TemplateSyntaxError("unexpected text after the expression", 1)
        plain = _PLAIN_NAME.fullmatch(whole.group(1))
        if plain and plain.group(1) not in _JINJA_WORDS:
            return _Name(plain.group(1))
        body = nodes.Template([nodes.Assign(nodes.Name("result", "store"), expression, lineno=1)], lineno=1)
        return _Expression(env.from_string(body), native=True)
    if any(mark in source for mark in ("{{", "{%", "{#")):
        return _Expression(env.from_string(source), native=False)
    return source


def _compile_tree(env: SandboxedEnvironment, raw: Any) -> tuple[Any, bool]:
    """-> (tree, has_expressions). Mappings are not values in this format, so they stay as they are."""
    if isinstance(raw, str):
        compiled = _compile_string(env, raw)
        return compiled, isinstance(compiled, (_Name, _Expression))
    if isinstance(raw, list):
        items = [_compile_tree(env, item) for item in raw]
        return [tree for tree, _ in items], any(dynamic for _, dynamic in items)
    return raw, False


def compile_value(env: SandboxedEnvironment, raw: Any, convert: Callable[[Any], Any]) -> Value:
    """Raises TemplateSyntaxError or (for constants) ValueError, both reported at load time."""
    tree, dynamic = _compile_tree(env, raw)
    return Dynamic(tree, convert) if dynamic else Const(convert(raw))


# --- YAML with line numbers -------------------------------------------------------------------------------

class YamlMap(dict):
    """A mapping that remembers the line (1-based) where it starts."""
    line: int | None = None


class _LineLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
    pass


def _construct_map(loader, node):
    data = YamlMap()
    data.line = node.start_mark.line + 1
    yield data
    data.update(loader.construct_mapping(node))


_LineLoader.add_constructor("tag:yaml.org,2002:map", _construct_map)


def parse_yaml(source: str) -> Any:
    return yaml.load(source, Loader=_LineLoader)  # a SafeLoader subclass: no arbitrary objects


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


class TemplateLoader:
    """Loads templates once per path (parents included) and keeps the load-time problems with them."""

    def __init__(self, project_root: Path, roots: tuple[Path, ...], font_roles: tuple[str, ...] = ()):
        """`roots`: the folders templates may be read from (templates/ and the game's own folder)."""
        self.project_root = Path(project_root).resolve()
        self.roots = tuple(Path(root).resolve() for root in roots)
        self.font_roles = tuple(font_roles)
        self.env = make_environment()
        self._cache: dict[Path, tuple[Template | None, tuple[Problem, ...]]] = {}

    def new_context(self, values: Mapping[str, Any]) -> dict:
        """The per-card evaluation context: jinja globals + the card's values (shared by every expression)."""
        context = dict(self.env.globals)
        context.update(values)
        return context

    def relative(self, path: Path) -> str:
        return path.relative_to(self.project_root).as_posix() if path.is_relative_to(self.project_root) \
            else path.as_posix()

    def allowed(self, path: Path) -> bool:
        return any(path.is_relative_to(root) for root in self.roots)

    def load(self, path: Path) -> tuple[Template | None, tuple[Problem, ...]]:
        """A drawable template (size known) or None, with every problem found on the way."""
        path = Path(path).resolve()
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
                       self._elements(doc.get("elements") or [], rel, top, problems))
        return own if parent is None else _merge(parent, own)

    def _read(self, path: Path, rel: str, problems: list[Problem]) -> YamlMap | None:
        try:
            doc = parse_yaml(path.read_text(encoding="utf-8"))
        except OSError as exc:
            problems.append(Problem(SourceRef(rel), f"cannot read template: {exc.strerror or exc}", RULE))
            return None
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            line = mark.line + 1 if mark is not None else None
            problems.append(Problem(SourceRef(rel, None, line), f"YAML error: {getattr(exc, 'problem', exc)}", RULE))
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

    def _vars(self, doc: YamlMap, rel: str, problems: list[Problem]) -> tuple:
        raw = doc.get("vars") or {}
        where = SourceRef(rel, None, getattr(raw, "line", doc.line))
        if not isinstance(raw, dict):
            problems.append(Problem(where, "vars must be a mapping of name: value", RULE))
            return ()
        compiled = []
        for name, value in raw.items():
            try:
                uses = frozenset(self._names_used(value)) - {str(name)}   # `x: "{{ x | upper }}"` is the column
                compiled.append(Var(str(name), compile_value(self.env, value, lambda v: v), where, uses))
            except TemplateSyntaxError as exc:
                problems.append(Problem(where, f"vars.{name}: jinja syntax error: {exc.message}", RULE))
        return tuple(compiled)

    def _names_used(self, raw: Any) -> set[str]:
        if isinstance(raw, str):
            return meta.find_undeclared_variables(self.env.parse(raw)) if "{" in raw else set()
        if isinstance(raw, list):
            return set().union(*(self._names_used(item) for item in raw))
        return set()

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
        return None if any(v is None for v in values.values()) else values

    def _value(self, kind: str, key: str, raw: Any, convert, where: SourceRef,
               problems: list[Problem]) -> Value | None:
        try:
            return compile_value(self.env, raw, convert)
        except TemplateSyntaxError as exc:
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
