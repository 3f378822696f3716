"""What every kind's writer shares: writing a file with its build-report entry, the PNG folder of a
print-service PDF, and the one-file-per-paper loop of simple home-printing files."""

from __future__ import annotations

import io
from pathlib import Path

from pipeline.core.config import BuildConfig
from pipeline.core.errors import SourceRef
from pipeline.core.output import atomic_write, scratch_folder


def template_ref(game, faces, root: Path) -> SourceRef:
    """Where a component's layout problem is told: the template of its first face (the game's folder for
    a component without faces)."""
    path = game.template_dir / faces[0].template if faces else game.template_dir
    return SourceRef(str(path.relative_to(root) if path.is_relative_to(root) else path))


def suffix(laid) -> str:
    return "-ink-saver" if laid.ink else ""


def entry(config: BuildConfig, path: Path, data: bytes, component, info: dict, **fields) -> dict:
    """Write the file; its report entry = what the writer measured (info), then our fields."""
    digest = atomic_write(path, data)
    return {**_plain(info), "component": component.id, "title": component.title,
            "path": str(path.relative_to(config.root)), "sha256": digest, "copies": getattr(component, "copies", 1),
            **fields}


def png(config: BuildConfig, game, component, pdf: bytes, names: list[str], keys: list[str] | None = None) -> dict:
    """png/<component>/<name>.png at 300 dpi from a print-service PDF (one face per page; `keys`, the faces'
    keys, let a face drawn twice be rasterised once)."""
    from pipeline.render.sheets.imposition import write_png

    folder = config.output / game.id / "png" / component.id
    with scratch_folder(config.output) as temp:        # output/.pnp-tmp/, never the system's /tmp
        source = temp / "print.pdf"
        source.write_bytes(pdf)
        files = write_png(source, folder, names, keys=keys)
    return {"component": component.id, "title": component.title, "kind": "png", "format": "png",
            "path": str(folder.relative_to(config.root)), "images": len(files)}


def per_paper(game, spec, config: BuildConfig, progress, kind: str, write) -> list[dict]:
    """Home-printing files that are neither card sheets nor boards: one per paper, `write(buffer, paper)`."""
    written = []
    if "pnp" in config.formats:
        progress.start(f"{game.id}: {spec.id}", 1)
        for paper in config.papers:
            buffer = io.BytesIO()
            info = write(buffer, paper)
            path = config.output / game.id / f"pnp-{paper}" / f"{spec.id}.pdf"
            written.append(entry(config, path, buffer.getvalue(), spec, info, kind=kind, format="pnp", paper=paper))
        progress.advance()
    return written


def paper_line(entry: dict) -> str:
    """"A4 at 100 %[, N copies]": how every home-printing file starts its printing instructions."""
    paper = f"{entry['paper'].upper()} at 100 %"
    if entry.get("copies", 1) > 1:
        paper += f", {entry['copies']} copies"
    return paper


def _plain(info: dict) -> dict:
    return {k: (list(v) if isinstance(v, tuple) else v) for k, v in (info or {}).items()
            if isinstance(v, (int, float, str, bool, tuple, list))}
