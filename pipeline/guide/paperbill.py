"""The paper bill: what a full home print of a game costs, in sheets of paper and in ink, per paper.

Sheets come from the build's own entries (pages, sheets, how the backs are printed, copies). Ink is measured
on the written PDFs: each page is rendered in grey at a coarse resolution and its mean darkness taken
(0 = blank, 1 = solid black), then stated in the unit cartridge yields are rated in, pages of 5 % coverage
(ISO/IEC 24711). A colour page counts by its luminance, so the figure compares files and variants
(the ink-saver files against the full-colour ones) rather than predicting a given printer's use.

A file the game's guide data marks optional (templates/<game>/guide/guide.yaml: NBA's dice nets and stickers,
Fightball's mat) is a row marked `optional` and stays out of the headline totals: `standard` (and `ink_saver`)
is the full print without them, what the print guide states first, and `optional` adds them up on their own.
"""

from __future__ import annotations

import math
from pathlib import Path

COVERAGE_DPI = 12          # enough for an average over a page; 1–3 ms a page
SAMPLED_PAGES = 16         # a 2,000-card deck (446 pages) is measured on 16 of them
RATED_COVERAGE = 0.05      # ISO/IEC 24711 rates a cartridge in pages of 5 % coverage
SINGLE_SIDED_KINDS = {"board", "pages", "dice-nets", "dice-stickers"}


def ink_coverage(path: Path) -> float:
    """Sum over the pages of their mean darkness: how many solid-black pages the file's ink would cover.
    Long files are sampled: at most SAMPLED_PAGES pages, spread evenly (fronts and backs alike), with the
    first and the last page; the sum is the sampled mean times the page count."""
    import pypdfium2 as pdfium
    from PIL import ImageStat

    pdf = pdfium.PdfDocument(str(path))
    try:
        count = len(pdf)
        if count == 0:
            return 0.0
        chosen = _sample(count)
        total = 0.0
        for index in chosen:
            image = pdf[index].render(scale=COVERAGE_DPI / 72, grayscale=True).to_pil().convert("L")
            total += 1.0 - ImageStat.Stat(image).mean[0] / 255.0
        return total * count / len(chosen)
    finally:
        pdf.close()


def _sample(count: int) -> list[int]:
    """Page indexes to measure: all of a short file; pairs (front, back) spread evenly over a long one."""
    if count <= SAMPLED_PAGES:
        return list(range(count))
    pairs = SAMPLED_PAGES // 2
    starts = sorted({round(i * (count - 2) / (pairs - 1) / 2) * 2 for i in range(pairs)})
    return sorted({page for start in starts for page in (start, min(start + 1, count - 1))} | {count - 1})


def sheets(entry: dict) -> tuple[int, int]:
    """(sheets printed double-sided, sheets printed single-sided) for one file, copies included.
    A duplex card file printed on a single-sided printer takes one sheet per page (fronts and backs on
    separate sheets, glued back to back); boards, write-on pages and dice are single-sided already."""
    pages, copies = entry.get("pages", 0), entry.get("copies", 1)
    kind = entry.get("kind", "cards")
    if kind == "cards" and entry.get("backs_mode") == "duplex":
        double = entry.get("sheets", math.ceil(pages / 2))
    elif kind == "pages" and entry.get("backs_mode") == "duplex":      # a 2-up aid, recto verso
        double = math.ceil(pages / 2)
    elif kind == "rulebook":
        double = math.ceil(pages / 2)
    else:
        double = pages
    return double * copies, pages * copies


def file_stem(path: str) -> str:
    """A home file's name without its folder, its suffix and its ink variant: 'dice-nets', 'field-mat'."""
    return Path(path).stem.removesuffix("-ink-saver")


def is_optional(entry: dict, optional: frozenset[str]) -> bool:
    """A file a print can leave out: its name is optional (guide.yaml names files: 'dice-nets'), or, for a
    pooled file, the file of every one of its members (a member's own file is named after its component)."""
    if not optional:
        return False
    if file_stem(entry["path"]) in optional:
        return True
    return bool(entry.get("members")) and all(member in optional for member in entry["members"])


def paper_bill(outputs: list[dict], root: Path, measure=ink_coverage, optional=frozenset()) -> dict:
    """Per paper: a row per home-print file and the totals of a full print, with the standard files and
    with the ink-saver files in their place wherever they were built; `optional`: the component ids whose
    files a print can leave out (their rows are marked, and counted apart in the `optional` total).

    Pooled sheets (pipeline/kinds/pooled.py) take their members' place: a member's own file is listed
    under `per_component` with the pooled file it is in, and is not counted in the totals. The fold-over
    twin of a duplex card file (`foldover_of`, pipeline/kinds/cards.py) is printed instead of it, never with
    it: listed under `foldover`, never counted."""
    optional = frozenset(optional)
    pooled_in = {(e["paper"], bool(e.get("ink_saver")), member): e["path"] for e in outputs
                 if e.get("format") == "pnp" and e.get("pooled") and not e.get("foldover_of")
                 for member in e.get("members", ())}
    bill: dict = {}
    for entry in outputs:
        if entry.get("format") != "pnp":
            continue
        double, single = sheets(entry)
        ink = measure(root / entry["path"]) * entry.get("copies", 1) / RATED_COVERAGE
        row = {"component": entry["component"], "path": entry["path"], "kind": entry.get("kind", "cards"),
               "ink_saver": bool(entry.get("ink_saver")), "double_sided": double, "single_sided": single,
               "ink_pages_5pc": round(ink, 1)}
        if is_optional(entry, optional):
            row["optional"] = True
        paper = bill.setdefault(entry["paper"], {"rows": [], "per_component": []})
        if entry.get("foldover_of"):
            paper.setdefault("foldover", []).append({**row, "foldover_of": entry["foldover_of"]})
            continue
        pool = pooled_in.get((entry["paper"], row["ink_saver"], entry["component"]))
        if pool:
            paper["per_component"].append({**row, "pooled_in": pool})
        else:
            paper["rows"].append(row)
    for paper in bill.values():
        paper["saved_by_pooling"] = _saving(paper)
        required = [r for r in paper["rows"] if not r.get("optional")]
        paper["totals"] = {"standard": _total(required, ink_saver=False)}
        if any(r["ink_saver"] for r in required):
            paper["totals"]["ink_saver"] = _total(required, ink_saver=True)
        extras = [r for r in paper["rows"] if r.get("optional")]
        if extras:
            paper["totals"]["optional"] = _total(extras, ink_saver=False)
    return bill


def _saving(paper: dict) -> dict:
    """Double-sided sheets the standard pooled files save against their members' own files."""
    alone = sum(r["double_sided"] for r in paper["per_component"] if not r["ink_saver"])
    pooled = {r["pooled_in"] for r in paper["per_component"] if not r["ink_saver"]}
    together = sum(r["double_sided"] for r in paper["rows"] if r["path"] in pooled)
    return {"members_alone": alone, "pooled": together, "saved": alone - together}


def _total(rows: list[dict], ink_saver: bool) -> dict:
    saver = {r["component"] for r in rows if r["ink_saver"]} if ink_saver else set()
    chosen = [r for r in rows if r["ink_saver"] == (r["component"] in saver)]
    return {"double_sided": sum(r["double_sided"] for r in chosen),
            "single_sided": sum(r["single_sided"] for r in chosen),
            "ink_pages_5pc": round(sum(r["ink_pages_5pc"] for r in chosen), 1)}
