"""output/<game>/report.{json,md}: what was built, from which inputs, with which checks. No timestamps,
so the report is as reproducible as the PDFs."""

from __future__ import annotations

import json

from pipeline.config import BuildConfig
from pipeline.errors import Report
from pipeline.output import atomic_write, sha256_file


def _how_to_print(entry: dict) -> str:
    if entry["format"] == "print":
        return "print service: one face per page, 3 mm bleed, TrimBox/BleedBox set"
    if entry["format"] == "png":
        return "one PNG per face, 300 dpi, with bleed"
    sided = {"duplex": "double-sided, flip on the long edge", "foldover": "single-sided, fold along the line",
             "none": "single-sided"}.get(entry.get("backs_mode", "none"), "")
    return f"{entry['paper'].upper()} at 100 %, {sided}; cut along the marks"


def write_game_report(item, config: BuildConfig, report: Report, outputs: list[dict]) -> None:
    game = item.game
    inputs = [{"path": str(p.relative_to(config.root)), "sha256": sha256_file(p)} for p in game.data_files]
    missing = sorted({art for layouts in item.faces.values() for group in layouts if group
                      for layout in group for art in layout.missing_art})
    data = {
        "game": game.id, "title": game.title, "inputs": inputs,
        "options": {"papers": list(config.papers), "formats": list(config.formats), "backs": config.backs,
                    "back_offset_mm": list(config.back_offset_mm), "ink_saver": config.ink_saver},
        "validation": {"errors": 0, "warnings": [p.to_dict() for p in report.warnings
                                                   if str(p.where).startswith(tuple(i["path"] for i in inputs))]},
        "summary": item.summary,
        "components": [{"id": d.id, "title": d.title, "cards": len(d.fronts),
                        "size_mm": list(d.size_mm)} for d in item.decks],
        "missing_art": missing,
        "outputs": outputs,
    }
    out = config.output / game.id
    atomic_write(out / "report.json", (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode())
    atomic_write(out / "report.md", _markdown(data).encode())


def _markdown(data: dict) -> str:
    lines = [f"# {data['title']} — build report", "", "## Inputs", ""]
    lines += [f"- `{i['path']}` (sha256 `{i['sha256'][:16]}…`)" for i in data["inputs"]]
    lines += ["", "## Validation", "", f"- errors: {data['validation']['errors']}",
              f"- warnings: {len(data['validation']['warnings'])}"]
    lines += [f"  - {w['where']}: {w['message']} [{w['rule']}]" for w in data["validation"]["warnings"]]
    lines += [f"- {s}" for s in data["summary"]]
    lines += ["", "## Components", "", "| component | cards | size (mm) |", "|---|---|---|"]
    lines += [f"| {c['title']} (`{c['id']}`) | {c['cards']} | {c['size_mm'][0]} × {c['size_mm'][1]} |"
              for c in data["components"]]
    lines += ["", "## Files", "", "| file | pages | how to print |", "|---|---|---|"]
    for entry in data["outputs"]:
        pages = entry.get("pages", entry.get("images", ""))
        lines.append(f"| `{entry['path']}` | {pages} | {_how_to_print(entry)} |")
    if data["missing_art"]:
        lines += ["", "## Missing art (placeholders drawn)", ""] + [f"- `{a}`" for a in data["missing_art"]]
    return "\n".join(lines) + "\n"
