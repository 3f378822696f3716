"""output/<game>/report.{json,md}: what was built, from which inputs, with which checks. No timestamps,
so the report is as reproducible as the PDFs."""

from __future__ import annotations

import json

from pipeline.config import BuildConfig
from pipeline.errors import Report
from pipeline.kinds import kind_named, kind_of
from pipeline.output import atomic_write, sha256_file
from pipeline.paperbill import bill_markdown, paper_bill
from pipeline.render.markup import md_escape


def _how_to_print(entry: dict) -> str:
    """Paper, sides and what to cut: the components page a playtester reads before printing."""
    if entry["format"] == "print":
        return "print service: one face per page, 3 mm bleed, TrimBox/BleedBox set"
    if entry["format"] == "png":
        return "one PNG per face, 300 dpi, with bleed"
    return kind_named(entry.get("kind", "cards")).how_to_print(entry)


def write_game_report(item, config: BuildConfig, report: Report, outputs: list[dict],
                      calibration: list[str] = ()) -> None:
    game = item.game
    inputs = [{"path": str(p.relative_to(config.root)), "sha256": sha256_file(p)} for p in game.data_files]
    missing = sorted({art for laid in item.laid for art in laid.missing_art})
    data = {
        "game": game.id, "title": game.title, "inputs": inputs,
        "options": {"papers": list(config.papers), "formats": list(config.formats), "backs": config.backs,
                    "back_offset_mm": list(config.back_offset_mm), "ink_saver": config.ink_saver},
        "validation": {"errors": 0, "warnings": [p.to_dict() for p in report.warnings
                                                   if str(p.where).startswith(tuple(i["path"] for i in inputs))]},
        "summary": item.summary,
        "components": [{"id": c.id, "title": c.title, **kind_of(c).describe(c)} for c in item.components],
        "play": _play_summary(item.play),
        "missing_art": missing,
        "outputs": outputs,
        "paper_bill": paper_bill(outputs, config.root),
        "calibration": list(calibration),
    }
    out = config.output / game.id
    atomic_write(out / "report.json", (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode())
    atomic_write(out / "report.md", _markdown(data).encode())


def _play_summary(result) -> list[str]:
    """Stage 6 in a few lines (the full statistics, charts included, come from `pnp simulate`)."""
    if result is None:
        return []
    lines = [f"{result.games} games of {result.players} players (seed {result.seed}, bots "
             f"{', '.join(dict.fromkeys(result.bots))}): {result.finished} finished by the rules, "
             f"{len(result.flagged)} flagged",
             "win rate by seat: " + ", ".join(f"{s.seat + 1}: {s.rate:.0%}" for s in result.seats),
             "end: " + ", ".join(f"{reason} {count}" for reason, count in result.end_reasons)]
    if result.scores and result.rounds:
        lines.append(f"scores: mean {result.scores.mean:.1f}, from {result.scores.low:g} to "
                     f"{result.scores.high:g}; rounds: mean {result.rounds.mean:.1f}")
    lines += [f"{row.name}: nominal {row.nominal:.3f}, played {row.simulated:.3f}" for row in result.nominal
              if row.simulated is not None]
    return lines


def _calibration_note(data: dict) -> list[str]:
    if not data.get("calibration"):
        return []
    sheets = " or ".join(f"`{path}`" for path in data["calibration"])
    x, y = data["options"]["back_offset_mm"]
    used = f"this build used `--back-offset {x:g},{y:g}`" if (x, y) != (0, 0) else "this build used no offset"
    return [f"Before the first double-sided print on a printer, print {sheets} double-sided: it shows how "
            f"far that printer moves the backs and gives the `--back-offset X,Y` to pass ({used}).", ""]


def _markdown(data: dict) -> str:
    lines = [f"# {md_escape(data['title'])} — build report", "", "## Inputs", ""]
    lines += [f"- `{i['path']}` (sha256 `{i['sha256'][:16]}…`)" for i in data["inputs"]]
    lines += ["", "## Validation", "", f"- errors: {data['validation']['errors']}",
              f"- warnings: {len(data['validation']['warnings'])}"]
    lines += [f"  - {md_escape(w['where'])}: {md_escape(w['message'])} [{w['rule']}]"
              for w in data["validation"]["warnings"]]
    lines += [f"- {s}" for s in data["summary"]]
    if data.get("play"):
        lines += ["", "## Bot games (validation stage 6)", ""] + [f"- {line}" for line in data["play"]]
    lines += ["", "## Components", "", "| component | kind | count | size (mm) | backs |", "|---|---|---|---|---|"]
    for c in data["components"]:
        size = f"{c['size_mm'][0]:g} × {c['size_mm'][1]:g}" if c.get("size_mm") else ""
        count = f"{c['count'] or ''}" + (f" pages × {c['copies']}" if c.get("copies", 1) > 1 else "")
        lines.append(f"| {md_escape(c['title'])} (`{c['id']}`) | {c['kind']} | {count} | {size} | "
                     f"{'yes' if c['backs'] else 'no'} |")
    lines += ["", "## Files: what to print, on which paper, and what to cut", ""]
    lines += _calibration_note(data)
    lines += ["| file | pages | how to print |", "|---|---|---|"]
    for entry in data["outputs"]:
        pages = entry.get("pages", entry.get("images", ""))
        lines.append(f"| `{entry['path']}` | {pages} | {_how_to_print(entry)} |")
    lines += bill_markdown(data["paper_bill"])
    if data["missing_art"]:
        lines += ["", "## Missing art (placeholders drawn)", ""] + [f"- {md_escape(a)}" for a in data["missing_art"]]
    return "\n".join(lines) + "\n"
