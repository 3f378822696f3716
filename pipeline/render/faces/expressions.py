"""Expressions in template values, compiled once per template and evaluated once per card.

`"{{ name }}"` alone, the common case, is a plain dictionary lookup with jinja2's strict semantics. Anything
else goes through jinja2's sandbox (StrictUndefined, no autoescape). jinja2 is imported, and its
environment built, only when a template first needs it: a deck whose templates only name columns never
pays for it (about 0.1 s of start-up).
"""

from __future__ import annotations

import functools
import re
from typing import Any, Callable


class EvaluationError(Exception):
    """An expression or a value failed for one card; the caller adds the card and the template line."""


class TemplateSyntax(Exception):
    """A jinja2 syntax error, with jinja's own message."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class Const:
    """A value with no expression in it, converted once at load time."""
    __slots__ = ("value",)

    def __init__(self, value: Any):
        self.value = value

    def evaluate(self, context: dict) -> Any:
        return self.value


class _Name:
    """`{{ name }}` alone: a dictionary lookup, without building a jinja Context for each card."""
    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def evaluate(self, context: dict) -> Any:
        try:
            return context[self.name]
        except KeyError:
            raise EvaluationError(f"'{self.name}' is undefined") from None


class _Expression:
    """One compiled jinja2 template; `native` ones keep the expression's type (bool, int, list…)."""
    __slots__ = ("template", "native", "undefined", "undefined_error")

    def __init__(self, template, native: bool):
        from jinja2 import Undefined
        from jinja2.exceptions import UndefinedError

        self.template, self.native = template, native
        self.undefined, self.undefined_error = Undefined, UndefinedError

    def evaluate(self, context: dict) -> Any:
        # shared=True: the per-card context already holds the environment globals, so no copy per call.
        try:
            ctx = self.template.new_context(context, shared=True)
            if not self.native:
                return "".join(self.template.root_render_func(ctx))
            for _ in self.template.root_render_func(ctx):
                pass
            result = ctx.vars["result"]
            if isinstance(result, self.undefined):
                str(result)  # StrictUndefined raises here with jinja's own message
            return result
        except Exception as exc:  # any failure of user code in the sandbox is a located problem
            raise EvaluationError(str(exc) if isinstance(exc, self.undefined_error)
                                  else f"{type(exc).__name__}: {exc}") from None


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


_WHOLE_EXPRESSION = re.compile(r"^\s*\{\{(.*)\}\}\s*$", re.S)
_PLAIN_NAME = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*")
_JINJA_WORDS = {"true", "false", "none", "True", "False", "None", "and", "or", "not", "in", "is", "if", "else"}


def _plain_name(source: str) -> str | None:
    """`name` when `source` is exactly "{{ name }}" (a column or a var), else None."""
    whole = _WHOLE_EXPRESSION.match(source)
    plain = _PLAIN_NAME.fullmatch(whole.group(1)) if whole else None
    return plain.group(1) if plain and plain.group(1) not in _JINJA_WORDS else None


_COMPILED: dict[str, "_Expression"] = {}       # source -> its compiled expression (Compiler._jinja)


@functools.cache
def _face_env():
    """The faces' environment, made once per process (it holds no per-template state)."""
    return sandbox()


def sandbox(markdown: bool = False):
    """The one jinja2 environment the pipeline renders untrusted templates with: sandboxed, strict about
    unknown names, no autoescape (faces draw characters and rulebooks escape for reportlab themselves; `&`
    stays `&`), None prints as nothing. markdown (rulebook chapters): block tags leave no blank lines, and
    every value is shielded from Markdown (pipeline/render/markup.py) unless written `{{ value|markdown }}`.
    Faces get the colour filters `readable` and `ink_on` (pipeline/render/colours.py)."""
    from jinja2 import StrictUndefined
    from jinja2.sandbox import SandboxedEnvironment

    from pipeline.render.colours import ink_on, readable

    if not markdown:
        env = SandboxedEnvironment(undefined=StrictUndefined, autoescape=False,
                                   finalize=lambda value: "" if value is None else value)
        env.filters.update(readable=readable, ink_on=ink_on)      # colours that read (render/colours.py)
        return env
    from jinja2.runtime import Macro

    from pipeline.render.markup import Markdown, shield

    class MarkdownEnvironment(SandboxedEnvironment):
        """A macro's output is template text (its values already shielded inside it): printed as Markdown."""

        def call(self, __context, __obj, *args, **kwargs):
            result = super().call(__context, __obj, *args, **kwargs)
            return Markdown(result) if isinstance(__obj, Macro) and isinstance(result, str) else result

    env = MarkdownEnvironment(undefined=StrictUndefined, autoescape=False, trim_blocks=True, lstrip_blocks=True,
                              finalize=shield)
    env.filters["markdown"] = Markdown
    return env


class Compiler:
    """Compiles template values. One per template loader; jinja2 comes in on first need."""

    def __init__(self):
        self._env = None

    @property
    def env(self):
        if self._env is None:
            self._env = _face_env()
        return self._env

    @property
    def globals(self) -> dict:
        """jinja's globals (range, dict…) for the per-card context; none until jinja is in use."""
        return self._env.globals if self._env is not None else {}

    def value(self, raw: Any, convert: Callable[[Any], Any]) -> Value:
        """Raises TemplateSyntax or (for constants) ValueError, both reported at load time."""
        tree, dynamic = self._tree(raw)
        return Dynamic(tree, convert) if dynamic else Const(convert(raw))

    def names_used(self, raw: Any) -> set[str]:
        """The names an expression reads (to evaluate vars in dependency order)."""
        if isinstance(raw, list):
            return set().union(*(self.names_used(item) for item in raw))
        if not isinstance(raw, str) or "{" not in raw:
            return set()
        name = _plain_name(raw)
        if name is not None:
            return {name}
        from jinja2 import meta
        from jinja2.exceptions import TemplateSyntaxError

        try:
            return meta.find_undeclared_variables(self.env.parse(raw))
        except TemplateSyntaxError as exc:
            raise TemplateSyntax(exc.message) from None

    def _tree(self, raw: Any) -> tuple[Any, bool]:
        """-> (tree, has_expressions). Mappings are not values in this format, so they stay as they are."""
        if isinstance(raw, str):
            compiled = self._string(raw)
            return compiled, isinstance(compiled, (_Name, _Expression))
        if isinstance(raw, list):
            items = [self._tree(item) for item in raw]
            return [tree for tree, _ in items], any(dynamic for _, dynamic in items)
        return raw, False

    def _string(self, source: str) -> Any:
        """A plain string stays a string; "{{ expr }}" keeps its native type; anything else renders to text."""
        if "{" not in source:
            return source
        name = _plain_name(source)
        if name is not None:
            return _Name(name)
        if not any(mark in source for mark in ("{{", "{%", "{#")):
            return source
        from jinja2.exceptions import TemplateSyntaxError

        try:
            return self._jinja(source)
        except TemplateSyntaxError as exc:
            raise TemplateSyntax(exc.message) from None

    def _jinja(self, source: str) -> Any:
        """Compiled once per process: every template of every game and ink variant shares the one face
        environment, and an _Expression holds no state between evaluations."""
        found = _COMPILED.get(source)
        if found is None:
            found = _COMPILED[source] = self._compile(source)
        return found

    def _compile(self, source: str) -> Any:
        from jinja2 import nodes
        from jinja2.exceptions import TemplateSyntaxError
        from jinja2.parser import Parser

        whole = _WHOLE_EXPRESSION.match(source)
        if whole and "{{" not in whole.group(1) and "}}" not in whole.group(1) and "{%" not in source:
            parser = Parser(self.env, whole.group(1), state="variable")
            expression = parser.parse_expression()
            if not parser.stream.eos:
                raise TemplateSyntaxError("unexpected text after the expression", 1)
            body = nodes.Template([nodes.Assign(nodes.Name("result", "store"), expression, lineno=1)], lineno=1)
            return _Expression(self.env.from_string(body), native=True)
        return _Expression(self.env.from_string(source), native=False)
