"""The edition ids a playtester names a card by: output/<game>/ids.md (every card's id with its name and
workbook row, in French), report.json's "edition" entry, and section 6 of the print guide, which explains
the mark and points to ids.md."""

from __future__ import annotations

from pathlib import Path

from pipeline.core.output import atomic_write
from pipeline.data.specs import Component, GameModule
from pipeline.kinds.prepare import identified
from pipeline.render.faces.edition_mark import Edition
from pipeline.render.markup import md_escape

IDS_NAME = "ids.md"             # output/<game>/ids.md: every card's id, the appendix the guide points to


def edition(data: dict) -> list[str]:
    """What the small grey mark on every card and page says, and how to name a card in a comment."""
    mark = data.get("edition")
    if not mark:
        return []
    example = mark["cards"][0]["id"] if mark["cards"] else "3f2a"
    return ["## 6. Marque d'édition : signaler une carte", "",
            f"Chaque carte, jeton, plateau et feuille porte, en tout petits caractères gris près d'un bord, le nom "
            f"du jeu, l'édition et l'identifiant de la carte : « {md_escape(data['title'])} · "
            f"{md_escape(mark['version'])} · {example} ». Les pages portent le nom du jeu et l'édition dans leur "
            "en-tête. L'identifiant ne change que si les données de la carte changent : deux impressions de la "
            "même carte gardent le même, une carte modifiée en reçoit un nouveau.", "",
            f"Pour un commentaire, nommez la carte par son identifiant (« carte {example} ») et l'édition. "
            f"La liste de toutes les cartes avec leur identifiant : [{IDS_NAME}]({IDS_NAME}).", ""]


def ids_markdown(title: str, version: str, rows: list[tuple[str, str, str, str]]) -> str:
    """output/<game>/ids.md: (component, card, workbook row, id) rows, in the order the build lays them out."""
    lines = [f"# {md_escape(title)} — identifiants des cartes, édition {md_escape(version)}", "",
             "L'identifiant imprimé dans la marque d'édition de chaque carte (« carte 3f2a » dans un "
             "commentaire). Il ne change que si les données de la carte changent.", "",
             "| élément | carte | ligne du classeur | identifiant |", "|---|---|---|---|"]
    lines += [f"| {md_escape(component)} | {md_escape(card)} | {md_escape(row)} | `{short}` |"
              for component, card, row, short in rows]
    return "\n".join(lines) + "\n"


def write_ids(game: GameModule, components: list[Component], edition: Edition | None, output: Path,
              root: Path) -> dict | None:
    """output/<game>/ids.md, every card's edition id (the print guide points to it), and report.json's
    "edition" entry: the version, each card's id (component, card, id) and the file. None without marks."""
    if edition is None:
        return None
    rows = []
    for component in components:
        named: dict[str, tuple[str, str]] = {}              # a card's copies share its id: listed once
        for face in identified(component):
            short = edition.short(face.context)
            named.setdefault(short, (_card_name(face, component.title, len(named) + 1), _row(face)))
        rows += [(component.title, name, row, short) for short, (name, row) in named.items()]
    path = output / game.id / IDS_NAME
    digest = atomic_write(path, ids_markdown(game.title, edition.version, rows).encode())
    return {"version": edition.version, "path": str(path.relative_to(root)), "sha256": digest,
            "cards": [{"component": c, "card": name, "row": row, "id": short} for c, name, row, short in rows]}


def _card_name(face, title: str, number: int) -> str:
    """A data row's card by its name (its label up to the provenance in brackets, "Carréville (cities row 2)"),
    any other face by its component's title and number."""
    return face.label.split(" (")[0] if " (" in face.label else f"{title} n° {number}"


def _row(face) -> str:
    """Where the card's values are, in French: "cities, ligne 2" ("" for a face made from no row)."""
    ref = face.ref
    return f"{ref.sheet}, ligne {ref.row}" if ref is not None and ref.sheet and ref.row else ""
