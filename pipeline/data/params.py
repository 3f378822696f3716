"""A `rules` sheet of parameter/value rows, typed by a list of Column specs (one per parameter)."""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Mapping

from pipeline.core.errors import Report, SourceRef
from pipeline.data.schema import Column, Record, SheetSpec, coerce, is_blank, suggest

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


def rule_parameters(specs: Mapping[str, tuple], docs: Mapping[str, str]) -> tuple[Column, ...]:
    """The `rules` sheet's parameters from the one declaration of their names, types and ranges, the
    engine's table (it must refuse bad values on its own, with the standard library only), and the
    designer's documentation of each, in `docs` order. A spec is ("bool",), ("enum", choice, …),
    ("int", low, high) or ("str",): a text the game's own checks resolve (a team id)."""
    if set(specs) != set(docs):
        raise ValueError(f"rule parameters without a doc: {sorted(set(specs) - set(docs))}; docs without a "
                         f"parameter: {sorted(set(docs) - set(specs))}")
    columns = []
    for name, doc in docs.items():
        kind, *rest = specs[name]
        if kind == "int":
            columns.append(parameter(name, "int", doc, min=rest[0], max=rest[1]))
        elif kind == "enum":
            columns.append(parameter(name, "enum", doc, choices=tuple(rest)))
        else:
            columns.append(parameter(name, kind, doc))
    return tuple(columns)


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
                                                f"{suggest(str(name), tuple(sorted(by_name)))}", "rules")
            continue
        raw = rec.get("value")
        if is_blank(raw):
            report.error(ref, f"{name}: value is empty", "required")
            continue
        value, message, rule = coerce(by_name[name], raw)
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


# --- read once: stage 2 reads the rules sheet with the build's report; everything after asks rules() -------

_READ: list[tuple[list, tuple, Parameters]] = []     # (rules rows, specs, reading), the latest few
_KEEP = 16


def read_rules(records: Mapping[str, list[Record]], specs: tuple[Column, ...], report: Report) -> Parameters | None:
    """Validation stage 2: the `rules` sheet typed with the game's parameters, every problem in `report`.
    A clean reading is kept for rules(); None when there is no rules sheet."""
    rows = records.get("rules")
    if rows is None:
        return None
    errors = len(report.errors)
    params = read_parameters(rows, specs, report)
    if len(report.errors) == errors:
        _keep(rows, specs, params)
    return params


def rules(records: Mapping[str, list[Record]], specs: tuple[Column, ...]) -> Parameters:
    """The typed rule parameters of these records: stage 2's reading of the same rows, or (rows stage 2
    never saw: a `--rule` override, a variant, records a test built) read now. ValueError when they do not
    read cleanly: stage 2 reports such rows with their cells, nothing later may use them."""
    rows = records["rules"]
    for seen, seen_specs, params in reversed(_READ):
        if seen is rows and seen_specs is specs:
            return params
    report = Report()
    params = read_parameters(rows, specs, report)
    if report.errors:
        raise ValueError(f"the rules sheet does not read: {report.errors[0]}")
    _keep(rows, specs, params)
    return params


def _keep(rows: list, specs: tuple, params: Parameters) -> None:
    _READ.append((rows, specs, params))
    del _READ[:-_KEEP]
