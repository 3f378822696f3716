"""The one door for YAML (templates, game.yaml, fonts.yaml): bounded before it is built, strings in NFC.

YAML files come from other people. Anchors and aliases are kept (a template may draw one group twice with
`*index`), but what they repeat is counted before anything is built: nested aliases ("billion laughs") make
ten lines worth a billion values, and an alias inside its own anchor makes a loop. A file is read only up
to MAX_BYTES, nested at most MAX_DEPTH deep, and its aliases may repeat at most MAX_ALIAS_NODES values in
all. Every refusal is a YamlRefused with the line it was found at, in well under a second.

Strings (keys and values) are normalised to NFC, so an accent typed as `e` + U+0301 (macOS, web forms) is
the same text, and the same glyph, as a precomposed `é`.
"""

from __future__ import annotations

import unicodedata
from pathlib import Path
from typing import Any

import yaml

MAX_BYTES = 256 * 1024          # 256 KiB: the largest shipped template is 14 KB; parsed in 0.1 s at worst
MAX_DEPTH = 64                  # mappings and lists inside each other; the deepest shipped template has 16
MAX_ALIAS_NODES = 10_000        # values that aliases repeat, nested ones expanded; `*index` in hockey.yaml: 97

_BASE = getattr(yaml, "CSafeLoader", yaml.SafeLoader)   # libyaml when the wheel has it: ~10x faster


class YamlRefused(Exception):
    """A YAML file pnp will not read: what is wrong, and the line (1-based) where it was found."""

    def __init__(self, message: str, line: int | None = None):
        super().__init__(message)
        self.message, self.line = message, line


class SafeLoader(_BASE):
    """A safe loader (no Python objects) whose strings come out NFC-normalised."""


def _nfc_string(loader: SafeLoader, node) -> str:
    return unicodedata.normalize("NFC", loader.construct_scalar(node))


SafeLoader.add_constructor("tag:yaml.org,2002:str", _nfc_string)


def read_yaml(path: Path, loader: type = SafeLoader) -> Any:
    """The YAML file at `path`, checked then built. OSError (missing, unreadable) goes to the caller."""
    with open(path, "rb") as handle:
        data = handle.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise YamlRefused(_too_large(), data[:MAX_BYTES].count(b"\n") + 1)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise YamlRefused("the file is not UTF-8 text: save it as UTF-8", data[:exc.start].count(b"\n") + 1) \
            from None
    return load_yaml(text, loader)


def load_yaml(text: str, loader: type = SafeLoader) -> Any:
    """YAML text, checked then built (the same bounds as a file)."""
    if len(text) > MAX_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise YamlRefused(_too_large(), text[:MAX_BYTES].count("\n") + 1)
    try:
        _check_events(text, loader)
        return yaml.load(text, Loader=loader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        problem = getattr(exc, "problem", None) or str(exc)
        raise YamlRefused(f"YAML error: {problem}", mark.line + 1 if mark is not None else None) from None


def _too_large() -> str:
    return (f"the file is larger than {MAX_BYTES // 1024} KiB (the limit is passed at this line); a "
            "template, game.yaml or fonts.yaml is a few kilobytes: is it the right file?")


def _check_events(text: str, loader: type) -> None:
    """Walk the parser's events once, before anything is built: depth, and what each alias repeats.

    `sizes` holds, for every finished anchor, how many values its node stands for (aliases inside it
    expanded) and how deep it goes, so an alias costs what it would cost written out, counted in one pass.
    """
    sizes: dict[str, tuple[int, int]] = {}
    open_anchors: set[str] = set()
    stack: list[list] = []                  # per open collection: [anchor, values inside, depth below]
    repeated = 0
    for event in yaml.parse(text, Loader=loader):
        if isinstance(event, yaml.ScalarEvent):                  # the most frequent first
            _add(stack, sizes, event.anchor, 1, 0)
        elif isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            if len(stack) >= MAX_DEPTH:
                raise YamlRefused(f"lists and mappings are nested more than {MAX_DEPTH} deep here", _line(event))
            if event.anchor:
                open_anchors.add(event.anchor)
            stack.append([event.anchor, 0, 0])
        elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
            anchor, count, below = stack.pop()
            _add(stack, sizes, anchor, count + 1, below + 1)
            open_anchors.discard(anchor)
        elif isinstance(event, yaml.AliasEvent):
            if event.anchor in open_anchors:
                raise YamlRefused(f"the alias *{event.anchor} is inside its own anchor &{event.anchor}: it "
                                  "would repeat itself forever", _line(event))
            if event.anchor not in sizes:
                continue                    # an unknown anchor: the loader says so, with its line
            count, height = sizes[event.anchor]
            repeated += count
            if repeated > MAX_ALIAS_NODES:
                raise YamlRefused(f"aliases repeat more than {MAX_ALIAS_NODES:,} values by this line (*"
                                  f"{event.anchor} alone stands for {count:,}; nested aliases multiply): write "
                                  "the part out, or repeat it fewer times", _line(event))
            if len(stack) + height > MAX_DEPTH:
                raise YamlRefused(f"the alias *{event.anchor} nests lists and mappings more than {MAX_DEPTH} "
                                  "deep here", _line(event))
            _add(stack, sizes, None, count, height)


def _line(event) -> int:
    return event.start_mark.line + 1


def _add(stack: list[list], sizes: dict, anchor: str | None, count: int, height: int) -> None:
    """A finished value: counted in its parent, remembered under its anchor."""
    if anchor:
        sizes[anchor] = (count, height)
    if stack:
        stack[-1][1] += count
        stack[-1][2] = max(stack[-1][2], height)
