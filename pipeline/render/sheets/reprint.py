"""A reprint sheet: a few cards of a game, imposed with their backs by the card sheet writer exactly as its
home sheets are (pipeline/render/sheets/imposition.py write_pnp), cards of one size sharing sheets (each keeps its
own back), one run of sheets per size, the runs joined into one PDF."""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Sequence

from pipeline.core.printing import PrintOptions


@dataclass(frozen=True)
class ReprintCard:
    front: object                   # a laid-out face (FaceLayout)
    back: object | None
    title: str                      # its deck's title
    keep_bleed: bool = False


def write_reprint(target, cards: Sequence[ReprintCard], paper: str, game_title: str, backs: str = "duplex",
                  back_offset_mm: tuple[float, float] = (0.0, 0.0)) -> dict:
    """The cards grouped by trim size (and by having a back), in their order; each group imposed as a card
    sheet. Returns the pages and sheets written."""
    from pipeline.render.sheets.imposition import write_pnp

    groups: dict[tuple, list[ReprintCard]] = {}
    for card in cards:
        key = (round(card.front.width, 2), round(card.front.height, 2), card.back is not None, card.keep_bleed)
        groups.setdefault(key, []).append(card)
    parts, pages, sheets = [], 0, 0
    for (_, _, has_backs, keep_bleed), group in groups.items():
        titles = list(dict.fromkeys(card.title for card in group))
        options = PrintOptions(paper=paper, backs=backs if has_backs else "none", back_offset_mm=back_offset_mm,
                               game_title=game_title, component_title=f"réimpression : {', '.join(titles)}",
                               keep_bleed=keep_bleed)
        buffer = io.BytesIO()
        info = write_pnp(buffer, [c.front for c in group], [c.back for c in group] if has_backs else None, options)
        parts.append(buffer.getvalue())
        pages += info["pages"]
        sheets += info["sheets"]
    data = parts[0] if len(parts) == 1 else _joined(parts)
    target.write(data)
    return {"pages": pages, "sheets": sheets, "cards": len(cards)}


def _joined(parts: list[bytes]) -> bytes:
    """The runs as one PDF: the first run's document (its properties: title, author, keywords) with the
    others' pages appended by pikepdf, saved with an /ID computed from the file's content (deterministic_id),
    so the same cards give the same bytes."""
    import pikepdf

    opened = [pikepdf.Pdf.open(io.BytesIO(part)) for part in parts]
    try:
        for document in opened[1:]:
            opened[0].pages.extend(document.pages)
        out = io.BytesIO()
        opened[0].save(out, deterministic_id=True)
    finally:
        for document in opened:
            document.close()
    return out.getvalue()
