"""What `pnp preflight` prints: one line per problem (`FILE: page N: problem`), a short summary of each file
that passed, and the same as JSON for machines."""

from __future__ import annotations

from collections import Counter

from pipeline.preflight.model import FileResult
from pipeline.preflight.geometry import mm, size_mm, size_text


def problem_lines(results: list[FileResult]) -> list[str]:
    return [problem.line(result.path) for result in results for problem in result.problems]


def summary_line(result: FileResult) -> str:
    """FILE: 16 pages, 130 cards (63.50 × 88.90 mm), 8 duplex pairs (backs within 0.01 mm), lowest image
    312 dpi, 4 fonts embedded."""
    parts = [f"{len(result.pages)} page{'s' if len(result.pages) != 1 else ''}"]
    sizes = card_sizes(result)
    if sizes:
        count = sum(sizes.values())
        listed = ", ".join(size_text(*size) + (f" × {n}" if len(sizes) > 1 else "") for size, n in sizes.items())
        parts.append(f"{count} card{'s' if count != 1 else ''} ({listed})")
    if result.duplex:
        parts.append(f"{len(result.duplex)} duplex pair{'s' if len(result.duplex) != 1 else ''} (backs within "
                     f"{max(w for _, _, w in result.duplex):.2f} mm)")
    rasters = [r.dpi for page in result.pages for r in page.rasters]
    if rasters:
        parts.append(f"lowest image {min(rasters):.0f} dpi")
    fonts = {name for page in result.pages for name in page.fonts}
    if fonts:
        parts.append(f"{len(fonts)} font{'s' if len(fonts) != 1 else ''} embedded")
    return f"{result.path}: " + ", ".join(parts)


def card_sizes(result: FileResult) -> Counter:
    """How many cards of each size (mm, rounded to 0.01) the file holds, most common first."""
    sizes = Counter((round(w, 2), round(h, 2)) for cards in result.cards for w, h in map(size_mm, cards.rects))
    return Counter(dict(sizes.most_common()))


def as_json(results: list[FileResult]) -> dict:
    return {"ok": not any(r.errors for r in results), "files": [_file(r) for r in results]}


def _file(result: FileResult) -> dict:
    return {
        "path": str(result.path),
        "ok": not result.errors,
        "pages": [_page(page, cards) for page, cards in zip(result.pages, result.cards)],
        "duplex": [{"front": f, "back": b, "worst_mm": round(w, 3)} for f, b, w in result.duplex],
        "problems": [{"page": p.page, "severity": p.severity, "rule": p.rule, "message": p.message}
                     for p in result.problems],
    }


def _page(page, cards) -> dict:
    media = page.media
    return {
        "page": page.number,
        "size_mm": [round(mm(media[2] - media[0]), 2), round(mm(media[3] - media[1]), 2)],
        "boxes": sorted(name for name, box in page.boxes.items() if box is not None),
        "cards": {"method": cards.method,
                  "rects_mm": [[round(mm(r[0] - media[0]), 2), round(mm(r[1] - media[1]), 2),
                                round(mm(r[2] - r[0]), 2), round(mm(r[3] - r[1]), 2)] for r in cards.rects]},
        "marks": len(page.strokes),
        "fonts": {name: embedded for name, embedded in sorted(page.fonts.items())},
        "images": [{"pixels": list(r.pixels), "dpi": round(r.dpi, 1)} for r in page.rasters],
    }
