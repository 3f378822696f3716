"""The six validation stages over a game's data: structure, cells, rows together, manifest, rules, and play
(a short seeded batch of bot games on the game's reference engine, with its variants). Stage 2 also types the
balance gates; pipeline/simulation.check_balance plays them, only when asked (`pnp validate --balance`).

Each stage runs only if the ones before found no error, so an error is never drowned in its
consequences; every problem of a stage is collected before deciding.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from pipeline.cache import BuildCache, with_problems
from pipeline.core.errors import PipelineError, Report, SourceRef
from pipeline.core.paths import resolve_inside
from pipeline.core.progress import Progress
from pipeline.data.manifest import COMPONENTS_SPEC, check_manifest
from pipeline.data.meta import GAME_SHEET
from pipeline.data.params import read_rules
from pipeline.data.schema import RawSheet, SheetSpec, check_rows, check_structure, validate_sheet
from pipeline.data.sheets import MAX_FILE_BYTES, display_path, read_csv, read_workbook
from pipeline.data.specs import GameModule, Records
from pipeline.play import gates as balance
from pipeline.play.contract import Simulation, blame_rows, with_rules
from pipeline.play.driver import DEFAULT_MAX_STEPS, SimulationResult, simulate

STAGES = ("structure", "cells", "rows", "manifest", "rules", "play")
PLAY_STAGE_GAMES = 20      # stage 6: a short seeded batch of bot games (shared/DESIGN.md)
PLAY_STAGE_SEED = 2026
OPTIONAL_SHEETS = (GAME_SHEET,)   # read and checked when a workbook has them, whatever the game declares


def validate_game(game: GameModule, root: Path, report: Report, progress: Progress | None = None,
                  cache: BuildCache | None = None) -> tuple[Records | None, SimulationResult | None]:
    """Stages 1–6: the typed records (None when a stage failed) and stage 6's result (None without engine).
    With a `cache` (pipeline/cache), a workbook is parsed again only when its bytes change, and stage 6's
    games are played again only when the records they play (or the code) do."""
    records = load_records(game, root, report, cache)
    if records is None or game.simulation is None:
        return records, None
    progress = progress or Progress()
    progress.start(f"{game.id}: {PLAY_STAGE_GAMES} bot games", 1)
    errors_before = len(report.errors)
    key = cache.key("play", game.id, records, PLAY_STAGE_GAMES, PLAY_STAGE_SEED) if cache else None
    result = with_problems(cache, key, report, lambda own: check_play(game.simulation, records, own,
                                                                games=PLAY_STAGE_GAMES, seed=PLAY_STAGE_SEED))
    progress.advance()
    return (None if len(report.errors) > errors_before else records), result


def read_raw(game: GameModule, root: Path, report: Report, cache: BuildCache | None = None) -> dict[str, RawSheet]:
    raw: dict[str, RawSheet] = {}
    for path in game.data_files:
        try:
            if path.suffix.lower() == ".csv":
                name = game.csv_sheet_names.get(path.name, path.stem)
                raw[name] = read_csv(path, root, name)
            else:
                raw.update(with_problems(cache, _content_key(cache, "workbook", path, root), report,
                                         lambda own, path=path: read_workbook(path, root, own)))
        except PipelineError as exc:
            report.extend(exc.problems)
    return raw


def _content_key(cache: BuildCache | None, what: str, path: Path, root: Path) -> str | None:
    """A key of a file's bytes and its name as shown (problems name it); None for no file, or one too big to
    read whole (the reader refuses it, located)."""
    try:
        if cache is None or not path.is_file() or path.stat().st_size > MAX_FILE_BYTES:
            return None
        return cache.key(what, hashlib.sha256(path.read_bytes()).hexdigest(), display_path(path, root))
    except OSError:
        return None


def load_records(game: GameModule, root: Path, report: Report, cache: BuildCache | None = None) -> Records | None:
    """Run stages 1–5; return the typed records, or None when a stage failed."""
    raw = read_raw(game, root, report, cache)
    if report.errors:
        return None
    specs = {s.name: s for s in game.sheets}
    shown = ", ".join(display_path(p, root) for p in game.data_files)
    for name in specs:                                                   # stage 1
        if name not in raw:
            report.error(SourceRef(shown, name), f"missing sheet {name!r} (sheets found: "
                                                 f"{', '.join(raw) or 'none'})", "structure")
    specs.update({s.name: s for s in OPTIONAL_SHEETS if s.name in raw and s.name not in specs})
    for name, spec in specs.items():
        if name in raw:
            check_structure(spec, raw[name], report)
    if report.errors:
        return None
    records = {name: validate_sheet(spec, raw[name], report) for name, spec in specs.items()}   # stage 2
    if game.rule_parameters:
        read_rules(records, game.rule_parameters, report)       # typed once; later stages ask params.rules
    if not report.errors and game.simulation is not None and balance.SHEET in records:
        balance.read_gates(game.simulation, records, report)    # the gates typed; played only when asked
    if report.errors:
        return None
    check_glyphs(game, records, root, report)
    check_path_cells(game, records, specs, root, report)
    if report.errors:
        return None
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


def check_path_cells(game: GameModule, records: Records, specs: dict[str, SheetSpec], root: Path,
                     report: Report) -> None:
    """Stage 2, path cells on disk: the text was checked as it was read (pipeline/core/paths.py); here a path that
    leads out of the project through a link is refused at its cell, looked up in each folder art is found in
    (the data file's folder, the game's template folder)."""
    project = root.resolve()
    verdicts: dict[tuple, str | None] = {}              # 2,000 cards name a few icons: resolve each once
    for name, rows in records.items():
        columns = [c.name for c in specs[name].columns if c.type == "path"] if name in specs else []
        for record in (r for r in rows if columns):
            bases = ((root / record.ref.file).parent, game.template_dir)
            for column in columns:
                text = record.get(column)
                if not text:
                    continue
                key = (text, bases)
                if key not in verdicts:
                    verdicts[key] = _path_verdict(project, bases, text)
                if verdicts[key]:
                    report.error(record.at(column), verdicts[key], "path")


def _path_verdict(project: Path, bases: tuple[Path, ...], text: str) -> str | None:
    """Why this path may not be read (it leads out, or is no usable path), or None."""
    try:
        resolve_inside(project, bases, text)
    except ValueError as exc:
        return str(exc)
    except OSError as exc:
        return f"{text!r} is not a usable path ({exc.strerror or exc})"
    return None


# --- stage 6: play -------------------------------------------------------------------------------------------

def check_play(sim: Simulation | None, records: Records, report: Report, games: int = 20, seed: int = 0,
               players: int | None = None, *, max_steps: int = DEFAULT_MAX_STEPS,
               data_file: str | SourceRef | None = None) -> SimulationResult | None:
    """Stage 6: a short seeded batch by the game's default bots. Each game that got stuck, hit a safety cap
    or raised is one error [play], located at the rows sim.blame() names (else at the game's data file).
    The game's own play checks (Simulation.play_checks) run first."""
    if sim is None:
        return None
    sim.play_checks(records, report, sim)
    if report.errors:
        return None
    result = simulate(sim, records, games, seed, players or sim.default_players, max_steps=max_steps)
    # games that failed the same way at the same rows are one problem, with their seeds to replay
    same: dict[tuple, list] = {}
    for flagged in result.flagged:
        refs = _blame(sim, records, result.outcomes[flagged.index])
        same.setdefault((tuple(map(str, refs)), flagged.message), []).append((flagged, refs))
    for (_, message), group in same.items():
        refs = group[0][1]
        where = refs[0] if refs else (data_file or _data_file(records))
        also = "".join(f"; also {ref}" for ref in refs[1:4]) + ("; …" if len(refs) > 4 else "")
        seeds = ", ".join(str(flagged.seed) for flagged, _ in group[:3]) + (", …" if len(group) > 3 else "")
        who = f"game with seed {seeds}" if len(group) == 1 else f"{len(group)} of {games} games (seeds {seeds})"
        report.error(where, f"{who} {message}{also}", "play")
    report.note(f"play: {result.finished} of {games} games by bots finished (seed {seed}, {result.players} players)")
    for overrides in sim.variants(records):
        _variant_stage(sim, records, report, overrides, max(6, games // 2), seed, players, max_steps)
    return result


def _variant_stage(sim: Simulation, records: Records, report: Report, overrides: tuple[tuple[str, str], ...],
                   games: int, seed: int, players: int | None, max_steps: int) -> None:
    """A variant that does not reach its own end: an error at its `rules` row when most games stop at a
    safety cap (a few such games are the variant's, not a defect)."""
    variant = with_rules(records, overrides)
    result = simulate(sim, variant, games, seed, players or sim.default_players, max_steps=max_steps)
    named = ", ".join(f"{name}={value}" for name, value in overrides)
    capped = sum(1 for flagged in result.flagged if "cap" in flagged.message)
    if 2 * capped > games:
        where = next((ref for ref in blame_rows(records, {"blame": [["rules", overrides[0][0]]]})), None)
        report.error(where or _data_file(records), f"with {named}, {capped} of {games} games by bots stopped at a "
                     "safety cap instead of the variant's own end", "play")
    report.note(f"play ({named}): {result.finished} of {games} games finished by the rules")


def _blame(sim: Simulation, records: Records, outcome: dict) -> list:
    try:
        return list(sim.blame(records, outcome) or ())
    except Exception:  # noqa: BLE001 - a failing blame must not hide the game's own problem
        return []


def _data_file(records: Records) -> str:
    for rows in records.values():
        for row in rows:
            return row.ref.file
    return "game data"
