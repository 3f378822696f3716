"""A game's exports beyond paper as one write step (pipeline/kinds/steps.py): every component laid out for
paper, seen as exports see it (pipeline/exports/pieces.py), goes to each export target asked for, and each
target's files land in output/<game>/<target>/ with one report entry listing them and their sha256.

Targets (`--format`): tts (Tabletop Simulator's Saved Object), pcio (a playingcards.io room), tgc and mpc (The
Game Crafter's and MakePlayingCards' exact-size PNGs), dtc (DriveThruCards' one-card-a-page PDF, and its
PDF/X-1a conversion when Ghostscript ≥ 10.05 is on PATH). What a target cannot take is a located warning in
the entry (`problems`), which the build adds to its report."""

from __future__ import annotations

import functools
from pathlib import Path

from pipeline.core.config import BuildConfig
from pipeline.core.errors import Problem, Report, Severity
from pipeline.core.output import atomic_write

TARGETS = ("tts", "pcio", "tgc", "mpc", "dtc")
NOTE = "export: "           # how the build's notes from exports start (the command line prints them)


def asked(config: BuildConfig) -> tuple[str, ...]:
    return tuple(target for target in TARGETS if target in config.formats)


def tts_base_url(config: BuildConfig, game_id: str) -> str:
    """Where the Saved Object finds its images: <--base-url>/<game>/ (upload output/<game>/tts/ there), else
    the export folder itself as a file:/// address (this computer only)."""
    if config.base_url:
        return f"{config.base_url.rstrip('/')}/{game_id}/"
    return (config.output / game_id / "tts").resolve().as_uri() + "/"


@functools.cache
def ghostscript() -> tuple[str, tuple[int, ...]] | None:
    """gs on PATH and its version (None: not found), looked up once per process."""
    from pipeline.exports.pdfx import find_gs

    return find_gs()


def key_options(config: BuildConfig, game_id: str, target: str) -> tuple:
    """What one export's files depend on beyond the faces: the image addresses (tts), Ghostscript (dtc)."""
    return (target, tts_base_url(config, game_id) if target == "tts" else None,
            ghostscript() if target == "dtc" else None)


def write(game, laid, config: BuildConfig, progress, edition=None, target: str = "tts") -> list[dict]:
    """The one report entry of `target`'s export, from every non-ink component of the game (`laid.pool`)."""
    from pipeline.exports.pieces import pieces_of

    pieces = pieces_of([one for one in laid.pool if not one.ink], edition)
    progress.start(f"{game.id}: {target}", 1)
    written = [_entry(config, game, _export(target, game, pieces, config, edition))]
    progress.advance()
    return written


def _export(target: str, game, pieces, config: BuildConfig, edition):
    if target == "tts":
        from pipeline.exports import tts
        return tts.export(game.id, game.title, edition.version if edition else "", pieces,
                          tts_base_url(config, game.id))
    if target == "pcio":
        from pipeline.exports import pcio
        return pcio.export(game.id, game.title, pieces)
    if target in ("tgc", "mpc"):
        from pipeline.exports import presets
        return presets.export(target, game.id, game.title, pieces)
    from pipeline.exports import dtc
    found = ghostscript()
    return dtc.export(game.id, game.title, pieces, gs=found[0] if found else None)


def _entry(config: BuildConfig, game, export) -> dict:
    folder = config.output / game.id / export.target
    files = []
    for name in sorted(export.files):
        path = folder / name
        files.append({"path": _relative(path, config.root), "sha256": atomic_write(path, export.files[name])})
    return {"component": export.target, "title": game.title, "kind": export.target, "format": export.target,
            "path": _relative(folder, config.root), "images": sum(f["path"].endswith(".png") for f in files),
            "files": files, "info": export.info, "notes": list(export.notes),
            "problems": [_located(problem, game.id).to_dict() for problem in export.problems]}


def _located(problem: Problem, game_id: str) -> Problem:
    """A problem an export found at a component ("pawns"), told as the game's ("buildit › pawns")."""
    return Problem(f"{game_id} › {problem.where}", problem.message, problem.rule, problem.severity)


def _relative(path: Path, root: Path) -> str:
    return str(path.relative_to(root)) if path.is_relative_to(root) else str(path)


def refusals(game_id: str, laid, edition, config: BuildConfig) -> list[Problem]:
    """Before anything is written: each component a print-shop preset asked for cannot take (a size no product
    of that shop has), located at the component."""
    from pipeline.exports import shops
    from pipeline.exports.pieces import pieces_of

    targets = [target for target in asked(config) if target in shops.SHOPS]
    if not targets:
        return []
    pieces = pieces_of([one for one in laid if not one.ink], edition)
    return [_located(problem, game_id) for target in targets for problem in shops.refusals(target, pieces)]


def tell(done: dict, report: Report) -> None:
    """The exports' problems (each once: those `refusals` found are already there) and notes into the report."""
    seen = {(str(p.where), p.message) for p in report.problems}
    for results in done.values():
        for result in results:
            for entry in result.entries or []:
                for problem in entry.get("problems", ()):
                    if (problem["where"], problem["message"]) not in seen:
                        seen.add((problem["where"], problem["message"]))
                        report.extend([Problem(problem["where"], problem["message"], problem["rule"],
                                               Severity(problem["severity"]))])
                for note in entry.get("notes", ()):
                    report.note(f"{NOTE}{entry['path']}: {note}")


def install_tts(config: BuildConfig, game_id: str) -> Path:
    """Copy the game's Saved Object and thumbnail into Tabletop Simulator's Saved Objects folder; returns it."""
    from pipeline.exports.tts.chest import chest_folder, install

    folder = config.output / game_id / "tts"
    saved = sorted(folder.glob("*.json"))
    if not saved:
        raise FileNotFoundError(f"no Saved Object in {folder}")
    destination = chest_folder()
    install(saved[0], saved[0].with_suffix(".png"), destination)
    return destination
