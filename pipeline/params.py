"""A `rules` sheet of parameter/value rows, typed by a list of Column specs (one per parameter)."""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Mapping

from pipeline.errors import Report, SourceRef
from pipeline.schema import Column, Record, SheetSpec, _blank, _coerce, _suggest

RULES_SHEET = SheetSpec(
    name="rules", id_column="parameter",
    doc="Rule parameters: change a value here to change the game.",
    columns=(
        Column("parameter", doc="Parameter name (fixed list; see the description column)."),
        Column("value", doc="Value: a number, yes/no, or one of the listed words."),
        Column("description", required=False, doc="What the parameter means (free text)."),
    ),
)


def parameter(name: str, type_: str, doc: str, **kw) -> Column:
    """One rule parameter: typed and bounded like a column, documented for the designer."""
    return Column(name, type_, doc=doc, **kw)


@dataclass(frozen=True)
class Parameters:
    values: Mapping[str, Any]
    refs: Mapping[str, SourceRef]

    def __getitem__(self, name: str) -> Any:
        return self.values[name]

    def at(self, name: str) -> SourceRef | None:
        return self.refs.get(name)


def read_parameters(records: list[Record], specs: tuple[Column, ...], report: Report) -> Parameters:
    by_name = {c.name: c for c in specs}
    values, refs = {}, {}
    for rec in records:
        name = rec.get("parameter")
        ref = rec.at("value")
        if name not in by_name:
            report.warning(rec.at("parameter"), f"unknown rule parameter {name!r} is ignored"
                                                f"{_suggest(str(name), tuple(sorted(by_name)))}", "rules")
            continue
        raw = rec.get("value")
        if _blank(raw):
            report.error(ref, f"{name}: value is empty", "required")
            continue
        value, message, rule = _coerce(by_name[name], raw)
        if message:
            report.error(ref, f"{name}: {message}", rule)
            continue
        values[name], refs[name] = value, ref
    if records:
        sheet_ref = SourceRef(records[0].ref.file, records[0].sheet)
        for name in by_name:
            if name not in values and not any(r.get("parameter") == name for r in records):
                report.error(sheet_ref, f"rule parameter {name!r} is missing ({by_name[name].doc})", "rules")
    return Parameters(MappingProxyType(values), MappingProxyType(refs))
