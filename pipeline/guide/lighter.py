"""What a print can leave out, in section 1 of the print guide: the optional files, each with its own sheet
count beside the headline total (which never counts them, as the paper bill does not), and the lighter prints a
game declares in its guide data (templates/<game>/guide/guide.yaml `prints`: what a table of two needs, a first
game's set), each with the files it takes and its sheet total, counted from the build's own entries like the
paper bill (pipeline/guide/paperbill.py sheets). Its functions take print_guide.py's PaperPrint (which calls
them: this module does not import it)."""

from __future__ import annotations

from pipeline.guide.data import STOCKS, paper_name, plural, stock_of
from pipeline.guide.paperbill import file_stem, sheets
from pipeline.render.markup import md_escape


def optional_files(pp: PaperPrint) -> list[str]:
    """Each optional file with its sheets and paper, grouped by what replaces it."""
    reasons: dict[str, list[dict]] = {}
    for row in pp.rows:
        if pp.optional(row):
            reasons.setdefault(pp.optional(row), []).append(row)
    if not reasons:
        return []
    total = pp.bill["totals"]["standard"]["double_sided"]
    lines = [f"Facultatif, en plus de ces {plural(total, 'feuille')} :", ""]
    for reason, rows in reasons.items():
        files = " ; ".join(f"{pp.link(row['path'])}, **{plural(row['double_sided'], 'feuille')}** de "
                           f"{STOCKS[stock_of(row['kind'])]}" for row in rows)
        lines.append(f"- {files} : {'inutiles' if len(rows) > 1 else 'inutile'} si vous utilisez {md_escape(reason)}.")
    return lines + [""]


def _own_files(pp: PaperPrint) -> dict[str, tuple[dict, dict]]:
    """Every home file of this paper in the standard ink, pooled or a member's own: name -> (bill row, entry)."""
    entries = {e["path"]: e for e in pp.data["outputs"] if e.get("format") == "pnp" and e.get("paper") == pp.paper}
    rows = [r for r in pp.bill["rows"] + pp.bill.get("per_component", []) if not r["ink_saver"]]
    return {file_stem(r["path"]): (r, entries.get(r["path"], r)) for r in rows}


def print_files(pp: PaperPrint, spec: dict) -> list[dict]:
    """The files a lighter print takes, in the guide's order: {path, pages (None: all), copies, sheets}.
    A pooled file one of whose members is left out gives way to its other members' own files."""
    own, chosen = _own_files(pp), []
    for row, entry in pp.required():
        members = entry.get("members") or []
        names = [m for m in members if m in own] if set(members) & set(spec["without"]) else [file_stem(row["path"])]
        for name in names:
            if name in spec["without"] or name not in own:
                continue
            part_row, part = own[name]
            pages, copies = spec["pages"].get(name), spec["copies"].get(name, part.get("copies", 1))
            counted = {k: v for k, v in part.items() if k != "sheets" or pages is None}
            counted.update(pages=min(pages, part.get("pages", 0)) if pages is not None else part.get("pages", 0),
                           copies=copies, kind=part_row["kind"])
            cards = part.get("cards", 0) if pages is None else 0     # a part of a card file: counted in pages
            chosen.append({"path": part_row["path"], "pages": pages, "copies": copies,
                           "sheets": sheets(counted)[0], "cards": cards * copies})
    return chosen


def _file_text(pp: PaperPrint, found: dict, usual: dict) -> str:
    text = pp.link(found["path"])
    if found["pages"] is not None:
        text += f" (page{'s 1 à ' if found['pages'] > 1 else ' '}{found['pages']})"
    if found["copies"] != usual.get("copies", 1):
        text += f" ({plural(found['copies'], 'exemplaire')})"
    return text


def lighter_prints(pp: PaperPrint) -> list[str]:
    """The game's lighter prints, a table row each: its name, its sheets, what it prints, what it leaves out."""
    if not pp.guide.prints:
        return []
    total = pp.bill["totals"]["standard"]["double_sided"]
    own = _own_files(pp)
    cards = sum(e.get("cards", 0) * e.get("copies", 1) for _, e in pp.required() if e.get("cards"))
    lines = ["Impressions plus légères : pas besoin de tout imprimer pour jouer. Chaque ligne dit les fichiers à "
             f"imprimer, ses feuilles en recto verso et ses pièces à découper, à comparer aux {total} feuilles et "
             f"{cards} pièces de l'impression complète.", "",
             f"| impression | feuilles {paper_name(pp.paper)} | cartes et jetons à découper | fichiers à imprimer | "
             "à laisser de côté |", "|---|---:|---:|---|---|"]
    for spec in pp.guide.prints:
        files = print_files(pp, spec)
        printed = ", ".join(_file_text(pp, f, own[file_stem(f["path"])][1]) for f in files)
        left = ", ".join(f"`{name}.pdf`" for name in spec["without"] if name in own) or "rien"
        name = md_escape(spec["name"]) + (f" — {md_escape(spec['note'])}" if spec["note"] else "")
        lines.append(f"| {name} | {sum(f['sheets'] for f in files)} | {sum(f['cards'] for f in files)} | {printed} | "
                     f"{left} |")
    return lines + [""]
