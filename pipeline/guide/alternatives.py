"""What the print guide offers besides the full print (pipeline/guide/print_guide.py calls these with its
PaperPrint): one box of a game whose decks are printed in groups (CardDeck.group, and the `box` of the game's
guide.yaml: a Fightball box is two of its four teams), and the fold-over twins of the duplex card files for a
playtester whose backs land off and who cannot rebuild with `--back-offset` (pipeline/kinds/cards.py).
Sheet counts come from the paper bill and the build's entries, as the rest of the guide's."""

from __future__ import annotations

from pathlib import PurePosixPath

from pipeline.guide.data import num, paper_name, plural
from pipeline.render.markup import md_escape

FOLDOVER_OFFSET_MM = 1.0          # a back further off than this: print the fold-over twins


def _plural(count: int, word: str) -> str:
    """data.plural, a word ending in s or x unchanged ("2 pays")."""
    return plural(count, word, word if word.endswith(("s", "x")) else None)


def group_of(pp, entry: dict) -> tuple[str, str] | None:
    """(group id, group title) of a home file whose components are all of one "printed together" group."""
    if entry.get("group"):
        return entry["group"], entry.get("group_title") or entry["group"]
    found = {(c.get("group"), c.get("group_title") or c.get("group")) for c in pp.members(entry)}
    return next(iter(found)) if len(found) == 1 and None not in {g for g, _ in found} else None


def box_sheets(pp) -> dict | None:
    """The sheets of one box on this paper: each group's files and sheets, what every box prints (the files
    of no group, optional ones aside) and the range of a box's total; None when the game declares no box or
    has no more groups than a box holds."""
    box = pp.guide.box
    if not box:
        return None
    groups: dict[str, dict] = {}
    common = optional = 0
    titles, optional_titles = [], []
    for row, entry in zip(pp.rows, pp.entries):
        group = group_of(pp, entry)
        if group is not None:
            found = groups.setdefault(group[0], {"title": group[1], "files": [], "sheets": 0})
            found["files"].append(row["path"])
            found["sheets"] += row["double_sided"]
        elif pp.optional(row):
            optional += row["double_sided"]
            optional_titles.append(entry.get("title", entry.get("component", "")))
        else:
            common += row["double_sided"]
            titles.append(entry.get("title", entry.get("component", "")))
    if len(groups) <= box["groups"]:
        return None
    counts = sorted(g["sheets"] for g in groups.values())
    n = box["groups"]
    return {"groups": groups, "common": common, "optional": optional, "common_titles": titles,
            "optional_titles": optional_titles,
            "low": common + sum(counts[:n]), "high": common + sum(counts[-n:]),
            "all": common + sum(counts)}


def one_box(pp) -> list[str]:
    """### the box's title: each group's files with their sheets, then what one box takes in all."""
    found = box_sheets(pp)
    if found is None:
        return []
    box, word = pp.guide.box, pp.guide.box["group"]
    sheets = (f"{found['low']}" if found["low"] == found["high"] else f"de {found['low']} à {found['high']}")
    lines = [f"### {md_escape(box['title'])}", "",
             f"Une partie se joue avec {_plural(box['groups'], word)} sur {len(found['groups'])}. Chaque {word} a "
             f"son propre fichier : aucune feuille ne mêle deux {word}s.", "",
             f"| {word} | fichier | feuilles recto verso |", "|---|---|---:|"]
    for group in found["groups"].values():
        files = " + ".join(pp.link(path) for path in group["files"])
        lines.append(f"| {md_escape(group['title'])} | {files} | {group['sheets']} |")
    rest = ", ".join(md_escape(t) for t in found["common_titles"])
    extra = ", ".join(md_escape(t) for t in found["optional_titles"])
    lines += ["", f"Pour une boîte, imprimez les fichiers de vos {_plural(box['groups'], word)}"
              + (f", puis le reste du jeu ({rest})" if rest else "")
              + f" : **{sheets} feuilles {paper_name(pp.paper)}** en recto verso, au lieu de {found['all']} pour les "
              f"{_plural(len(found['groups']), word)}."
              + (f" Facultatif : {extra}, {found['optional']} feuilles de plus." if found["optional"] else ""), ""]
    return lines


def foldover_twins(pp) -> list[dict]:
    """The fold-over twins of this paper's duplex card files, in the order of the files they replace."""
    twins = {e["foldover_of"]: e for e in pp.data["outputs"]
             if e.get("foldover_of") and e.get("paper") == pp.paper and e.get("format") == "pnp"}
    return [twins[row["path"]] for row in pp.rows if row["path"] in twins]


def foldover_files(pp) -> list[str]:
    """When to print the fold-over twins, and which file each one replaces."""
    twins = foldover_twins(pp)
    if not twins:
        return []
    folder = PurePosixPath(twins[0]["path"]).parent.as_posix()
    limit = num(FOLDOVER_OFFSET_MM)
    lines = [f"**Le verso reste décalé et vous ne pouvez pas refaire les fichiers ?** Si, à contre-jour, un verso "
             f"tombe à plus de {limit} mm de son recto et que relancer `pnp build` avec `--back-offset` n'est pas "
             f"possible (vous n'avez que les PDF), imprimez à la place les versions à plier du dossier "
             f"{pp.link(folder + '/')} : en recto seul, chaque carte a son dos imprimé en face d'elle, de l'autre "
             f"côté de la ligne « plier ici ». Pliez la feuille sur cette ligne, collez-la sur toute sa surface, "
             f"laissez-la sécher sous un livre, puis découpez : le dos tombe juste derrière sa face, quelle que "
             f"soit l'imprimante.", "",
             "| au lieu de | version à plier | pages (recto seul) |", "|---|---|---:|"]
    for twin in twins:
        lines.append(f"| {pp.link(twin['foldover_of'])} | {pp.link(twin['path'])} | {twin.get('pages', '')} |")
    return lines + [""]
