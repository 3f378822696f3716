"""Crop marks of a card sheet, in millimetres, with no drawing: where each cut line of a SheetPlan
(pipeline/render/sheets/plan.py) gets its marks, outside the cards and inside the paper, collinear marks
merged into one. A plan's short marks (`short_y`) start where the print ends and stop SHORT_EDGE from the
top and bottom edges."""

from __future__ import annotations

import math

from pipeline.render.sheets.plan import (EPS, FOLD_CLEAR, MARK_EDGE, MARK_GAP, MARK_MIN, SHORT_EDGE, Rect, Segment,
                                         SheetPlan)


def crop_marks(plan: SheetPlan, blocks: list[list[Rect]]) -> list[Segment]:
    """Crop marks for the placed cards (one list of trim rects per block; fold-over has two blocks).

    Every cut line gets a mark at both of its ends, outside its block. In bleed mode each card also gets
    short marks at its corners inside the gutters. Never on a card: marks start MARK_GAP off the trim.
    Overlapping marks on one line are merged, which joins the two halves' marks across a fold gap.
    Nothing is drawn within MARK_EDGE of the paper edge (SHORT_EDGE of the top and bottom edges beside
    short marks): the marks of backs moved by a per-printer offset are shortened there.
    """
    segments: list[Segment] = []
    for rects in blocks:
        if rects:
            segments.extend(_outer_marks(plan, rects))
            if plan.bleed_mode:
                segments.extend(_gutter_marks(plan, rects))
    return _inside_paper(plan.paper, _merge_collinear(segments), SHORT_EDGE if plan.short_y else MARK_EDGE)


def _inside_paper(paper: tuple[float, float], segments: list[Segment], edge_y: float) -> list[Segment]:
    """Each axis-aligned segment cut to the paper less MARK_EDGE at the sides and `edge_y` at the top and
    bottom; what is left shorter than 0.5 mm goes."""
    lo_x, lo_y, hi_x, hi_y = MARK_EDGE, edge_y, paper[0] - MARK_EDGE, paper[1] - edge_y
    kept: list[Segment] = []
    for (x0, y0), (x1, y1) in segments:
        if not (lo_x - EPS <= x0 <= hi_x + EPS and lo_y - EPS <= y0 <= hi_y + EPS) and \
                not (lo_x - EPS <= x1 <= hi_x + EPS and lo_y - EPS <= y1 <= hi_y + EPS):
            continue
        a = (min(max(x0, lo_x), hi_x), min(max(y0, lo_y), hi_y))
        b = (min(max(x1, lo_x), hi_x), min(max(y1, lo_y), hi_y))
        if abs(a[0] - b[0]) + abs(a[1] - b[1]) >= 0.5:
            kept.append((a, b))
    return kept


def _edges(values) -> list[float]:
    return sorted({round(v, 6) for v in values})


def _outer_marks(plan: SheetPlan, rects: list[Rect]) -> list[Segment]:
    xs = _edges([r.x0 for r in rects] + [r.x1 for r in rects])
    ys = _edges([r.y0 for r in rects] + [r.y1 for r in rects])
    left, right, bottom, top = xs[0], xs[-1], ys[0], ys[-1]
    near, near_y = plan.mark_offset, plan.mark_offset_y
    far_x, far_y = near + plan.mark_x, near_y + plan.mark_y
    # across a fold the two halves' marks meet in the gap between their offsets, and stop there
    fold = near_y + min(plan.mark_y, FOLD_CLEAR) if plan.foldover else far_y
    far_top = fold if plan.foldover and top < plan.fold_y else far_y
    far_bottom = fold if plan.foldover and bottom > plan.fold_y else far_y
    marks: list[Segment] = []
    for x in xs:
        marks.append(((x, top + near_y), (x, top + far_top)))
        marks.append(((x, bottom - far_bottom), (x, bottom - near_y)))
    for y in ys:
        marks.append(((left - far_x, y), (left - near, y)))
        marks.append(((right + near, y), (right + far_x, y)))
    return marks


def _gutter_marks(plan: SheetPlan, rects: list[Rect]) -> list[Segment]:
    """Each corner's edges extended into the gutter, where the gutter lies inside the block (the outer
    sides already have their marks). Half a gutter at most, so neighbours' marks do not overlap; none when
    that is under MARK_MIN (the outer marks already run along every cut line)."""
    length = min(plan.mark_x if plan.short_y else plan.mark_len, plan.gutter / 2 - MARK_GAP)
    if length < MARK_MIN - EPS:
        return []
    left = min(r.x0 for r in rects) + EPS
    right = max(r.x1 for r in rects) - EPS
    bottom = min(r.y0 for r in rects) + EPS
    top = max(r.y1 for r in rects) - EPS
    near, far = MARK_GAP, MARK_GAP + length
    marks: list[Segment] = []
    for r in rects:
        for y in (r.y0, r.y1):
            if r.x0 > left:
                marks.append(((r.x0 - far, y), (r.x0 - near, y)))
            if r.x1 < right:
                marks.append(((r.x1 + near, y), (r.x1 + far, y)))
        for x in (r.x0, r.x1):
            if r.y0 > bottom:
                marks.append(((x, r.y0 - far), (x, r.y0 - near)))
            if r.y1 < top:
                marks.append(((x, r.y1 + near), (x, r.y1 + far)))
    return marks


def _merge_collinear(segments: list[Segment]) -> list[Segment]:
    """Union of overlapping or touching segments on the same horizontal or vertical line, in a stable
    order (so the PDF bytes do not depend on set iteration)."""
    lines: dict[tuple[str, float], list[tuple[float, float]]] = {}
    for (x0, y0), (x1, y1) in segments:
        if abs(x0 - x1) < EPS:
            lines.setdefault(("v", round(x0, 6)), []).append((min(y0, y1), max(y0, y1)))
        else:
            lines.setdefault(("h", round(y0, 6)), []).append((min(x0, x1), max(x0, x1)))
    merged: list[Segment] = []
    for (kind, at), spans in sorted(lines.items()):
        spans.sort()
        start, end = spans[0]
        for a, b in spans[1:] + [(math.inf, math.inf)]:
            if a <= end + EPS:
                end = max(end, b)
                continue
            merged.append(((at, start), (at, end)) if kind == "v" else ((start, at), (end, at)))
            start, end = a, b
    return merged
