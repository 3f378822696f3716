"""Stages 1–5 over a game's data: structure, cells, rows together, manifest, rules.

Each stage runs only if the ones before found no error, so an error is never drowned in its
consequences; every problem of a stage is collected before deciding.
"""

from __future__ import annotations

from pathlib import Path

from pipeline.errors import PipelineError, Report, SourceRef
from pipeline.games.base import GameModule, Records
from pipeline.manifest import COMPONENTS_SPEC, check_manifest
from pipeline.schema import RawSheet, SheetSpec, check_rows, check_structure, validate_sheet
from pipeline.sheets import display_path, read_csv, read_workbook

STAGES = ("structure", "cells", "rows", "manifest", "rules")


def read_raw(game: GameModule, root: Path, report: Report) -> dict[str, RawSheet]:
    raw: dict[str, RawSheet] = {}
    for path in game.data_files:
        try:
            if path.suffix.lower() == ".csv":
                name = game.csv_sheet_names.get(path.name, path.stem)
                raw[name] = read_csv(path, root, name)
            else:
                raw.update(read_workbook(path, root, report))
        except PipelineError as exc:
            report.extend(exc.problems)
    return raw


def load_records(game: GameModule, root: Path, report: Report) -> Records | None:
    """Run stages 1–5; return the typed records, or None when a stage failed."""
    raw = read_raw(game, root, report)
    if report.errors:
        return None
    specs = {s.name: s for s in game.sheets}
    shown = ", ".join(display_path(p, root) for p in game.data_files)
    for name in specs:                                                   # stage 1
        if name not in raw:
            report.error(SourceRef(shown, name), f"missing sheet {name!r} (sheets found: "
                                                 f"{', '.join(raw) or 'none'})", "structure")
    for name, spec in specs.items():
        if name in raw:
            check_structure(spec, raw[name], report)
    if report.errors:
        return None
    records = {name: validate_sheet(spec, raw[name], report) for name, spec in specs.items()}   # stage 2
    if report.errors:
        return None
    check_glyphs(game, records, root, report)
    for name, spec in specs.items():                                     # stage 3
        check_rows(spec, records[name], report)
    if report.errors:
        return None
    _manifest(game, records, specs, root, report)                       # stage 4
    if report.errors:
        return None
    game.rule_checks(records, report)                                    # stage 5
    return None if report.errors else records


def _manifest(game: GameModule, records: Records, specs: dict[str, SheetSpec], root: Path, report: Report) -> None:
    if game.inline_manifest:
        rows = list(game.inline_manifest)
        shown = display_path(game.template_dir / "game.yaml", root)
        refs = [SourceRef(shown, "manifest", i + 1) for i in range(len(rows))]
        check_manifest(rows, refs, records, specs, report)
    elif game.manifest_sheet and game.manifest_sheet in records:
        manifest = records[game.manifest_sheet]
        check_manifest([r.values for r in manifest], [r.at("count") for r in manifest], records,
                       {k: v for k, v in specs.items() if k != COMPONENTS_SPEC.name}, report)


def check_glyphs(game: GameModule, records: Records, root: Path, report: Report) -> None:
    """Stage 2, text cells: a character no font of the chain has, or of a script pnp cannot lay out
    (right-to-left, shaped), is a warning on its cell (an error with --strict): never silently dropped."""
    from pipeline.render.fonts import default_fonts
    from pipeline.render.glyphs import char_name, problems_in

    fonts = default_fonts().with_game_fonts(game.template_dir, root)
    chain = fonts.chain("body")
    families = fonts.family_names(chain)
    for rows in records.values():
        for record in rows:
            for column, value in record.values.items():
                if not isinstance(value, str) or not value:
                    continue
                problems = problems_in(value, chain, families)
                for problem in (p for p in problems if not p.layout):
                    report.warning(record.at(column), f"character {problem.char!r} ({char_name(problem.char)}) "
                                   f"{problem.why}", "glyph")
                scripts: dict[str, list[str]] = {}              # a word of Arabic: one line, not five
                for problem in (p for p in problems if p.layout):
                    scripts.setdefault(problem.why, []).append(problem.char)
                for why, chars in scripts.items():
                    more = f" (and {len(chars) - 1} more of this cell)" if len(chars) > 1 else ""
                    report.warning(record.at(column), f"character {chars[0]!r} ({char_name(chars[0])}){more} {why}",
                                   "glyph")
