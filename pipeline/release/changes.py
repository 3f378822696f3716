"""What a release changes since the previous one: CHANGES.md and the reprint sheets of the changed cards.

The previous release is the newest git tag reachable from the parent of HEAD (`git describe --tags
--abbrev=0 HEAD^`): a tag on HEAD names this release, not an earlier one. Its data is compared with this
version's by `pnp diff`'s machinery (pipeline/diff*.py): cards added, removed, changed (with their cells),
changed in data only, the `rules` sheet's changes and the rulebook pages they change, on each paper. Every
card is named by its edition id (pipeline/build.py edition_of: the game's short ids), the one printed in its mark:
a removed or changed card by the id of the printing the playtester holds, an added or changed one by its new
id. CHANGES.md is for playtesters, so it is French; with no previous tag it says this is the first release.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.core import git
from pipeline.core.errors import PipelineError, Report
from pipeline.data.specs import GameModule
from pipeline.diff.changes import ADDED, CHANGED, Changes, DATA_ONLY, REMOVED, compare, shown
from pipeline.diff.versions import Card, Version, in_repository, load_version, old_data_files, with_data_files
from pipeline.render.faces.edition_mark import Edition
from pipeline.render.markup import md_escape

NAME = "CHANGES.md"
PAPER_NAMES = {"a4": "A4", "letter": "US Letter"}


@dataclass
class ReleaseChanges:
    """The comparison with the previous release (`changes` None: first release, or no list; `note` says why)."""

    previous: str | None
    changes: Changes | None = None
    note: str = ""
    old_marks: Edition | None = None        # each version's edition marks (its cards' short ids), as built
    new_marks: Edition | None = None
    pages: dict[str, tuple[list[int], list[int] | None]] = field(default_factory=dict)   # paper -> changed_pages
    after: Version | None = None


def previous_tag(root: Path) -> str | None:
    """The newest tag reachable before HEAD's commit (None: no such tag, no parent, or not a git work tree)."""
    return git.line(root, "describe", "--tags", "--abbrev=0", "HEAD^")


def compare_with(game: GameModule, project: Path, built: GameModule, root: Path, previous: str | None,
                 papers: tuple[str, ...], version: str, workdir: Path, report: Report) -> ReleaseChanges:
    """This version of `built` (the game as loaded in the release's copy `root` of the project) against the
    previous tag's data, read from the git repository of `project` (the real project; `game` loaded there).
    Problems of this version go to `report`; those of the old one only make the list unknown."""
    from pipeline.build import edition_of
    from pipeline.core.config import BuildConfig
    from pipeline.diff.rulebook import changed_pages

    found = ReleaseChanges(previous)
    after = load_version(built, root, version, report)
    if after is None:
        return found
    marks = BuildConfig(root=root, games=(built.id,), mark=True, version=version)
    found.after, found.new_marks = after, edition_of(built, after.components, marks)
    if previous is None:
        return found
    missing = [path for path in game.data_files if not _in_revision(project, previous, path)]
    if missing:
        found.note = f"{previous} ne contient pas {', '.join(p.name for p in missing)} : première édition de ce jeu."
        return found
    files, label = old_data_files(game, project, previous, workdir)
    before = load_version(with_data_files(built, files), root, label, Report())
    if before is None:
        found.note = (f"les données de {previous} ne passent plus la validation de cette version : la liste des "
                      "cartes modifiées n'est pas connue.")
        return found
    found.old_marks = edition_of(built, before.components, marks)
    found.changes = compare(before, after)
    if found.changes.cards or found.changes.rules:
        for paper in papers:
            found.pages[paper] = changed_pages(before, after, paper, root, Report(), bool(found.changes.rules),
                                               bool(found.changes.cards))     # none known: none listed
    return found


def _in_revision(project: Path, revision: str, path: Path) -> bool:
    try:
        relative = in_repository(path, project)
    except PipelineError:                                     # not in a git repository
        return False
    return git.holds(project, revision, relative)


def short_id(card: Card | None, marks: Edition | None) -> str:
    return marks.short(card.front.context) if card is not None and marks is not None else ""


def changes_markdown(title: str, version: str, found: ReleaseChanges, reprints: list[str]) -> str:
    """CHANGES.md: the release, what it changes since the previous one, what to reprint."""
    lines = [f"# {md_escape(title)} — {md_escape(version)}", ""]
    if found.previous is None:
        lines += ["Première édition : aucune étiquette git ne précède ce commit, il n'y a rien à comparer.", ""]
        return "\n".join(lines)
    lines += [f"Modifications depuis {md_escape(found.previous)}, l'édition précédente (étiquette git).", ""]
    changes = found.changes
    if changes is None:
        return "\n".join(lines + [found.note, ""])
    if changes.none:
        return "\n".join(lines + ["Aucune modification : les cartes, les règles et le livret sont les mêmes.", ""])
    example = next((short_id(c.new, found.new_marks) for c in changes.cards if c.new is not None), None)
    if changes.cards:
        lines += ["Chaque carte est nommée par l'identifiant d'édition imprimé dans sa marque"
                  + (f" (« {md_escape(title)} · {md_escape(version)} · {example} »)" if example else "")
                  + " : celui de l'édition précédente pour une carte retirée, l'ancien → le nouveau pour une "
                  "carte modifiée.", ""]
    sections = ((ADDED, "Cartes ajoutées"), (REMOVED, "Cartes retirées"), (CHANGED, "Cartes modifiées"),
                (DATA_ONLY, "Modifiées dans les données seulement (rien à réimprimer)"))
    for status, heading in sections:
        listed = changes.of(status)
        if listed:
            lines += [f"## {heading} ({len(listed)})", ""]
            for change in listed:
                lines += _card_lines(change, found)
            lines.append("")
    lines += _rules_lines(changes, found.pages)
    if reprints:
        count = len(changes.of(ADDED, CHANGED))
        cards = "la carte ajoutée ou modifiée, avec son dos" if count == 1 else \
            f"les {count} cartes ajoutées ou modifiées, avec leurs dos"
        lines += ["## À réimprimer", "",
                  f"{', '.join(reprints)} : {cards}, sur des feuilles comme celles de l'édition complète.", ""]
    return "\n".join(lines)


_ROW_SUFFIX = re.compile(r"\s*\([^()]*\brow \d+(, copy \d+/\d+)?\)$")


def _card_lines(change, found: ReleaseChanges) -> list[str]:
    old, new = short_id(change.old, found.old_marks), short_id(change.new, found.new_marks)
    ids = {ADDED: new, REMOVED: old}.get(change.status, f"{old} → {new}" if old != new else new)
    card = change.new_or_old
    label = _ROW_SUFFIX.sub("", change.label)         # "Tim Duncan (players row 49)": the row told in French below
    where = f", {card.front.ref.sheet} › ligne {card.front.ref.row}" if card.front.ref else ""
    if change.status == REMOVED:
        where += f", en {found.previous}"
    lines = [f"- `{ids}` {md_escape(label)} — {md_escape(card.deck.title + where)}"]
    lines += [f"  - {md_escape(item.where)} : {md_escape(shown(item.old))} → {md_escape(shown(item.new))}"
              for item in change.fields]
    return lines


def _rules_lines(changes: Changes, pages: dict[str, tuple[list[int], list[int] | None]]) -> list[str]:
    lines = []
    if changes.rules:
        lines += ["## Règles", ""]
        lines += [f"- {md_escape(item.where)} : {md_escape(shown(item.old))} → {md_escape(shown(item.new))}"
                  for item in changes.rules]
        lines.append("")
    by_rules = {paper: found[1] for paper, found in pages.items() if found[1]}
    if by_rules:
        lines += [f"Pages du livret de règles qu'elles changent : {_pages(by_rules)}.", ""]
    others = {paper: [p for p in found[0] if found[1] is None or p not in found[1]] for paper, found in pages.items()}
    others = {paper: numbers for paper, numbers in others.items() if numbers}
    if others:
        what = "qui changent" if not changes.rules or any(f[1] is None for f in pages.values()) \
            else "que changent les cartes"
        lines += [f"Pages du livret de règles {what} : {_pages(others)}.", ""]
    return lines


def _pages(by_paper: dict[str, list[int]]) -> str:
    return " ; ".join(f"{', '.join(map(str, numbers))} ({PAPER_NAMES.get(paper, paper)})"
                      for paper, numbers in by_paper.items())


def write_changes(folder: Path, game: GameModule, version: str, found: ReleaseChanges, papers: tuple[str, ...],
                  backs: str, mark: bool) -> list[Path]:
    """CHANGES.md and reprint-<paper>.pdf (only when cards were added or changed) in `folder`."""
    written = []
    edition = found.new_marks if mark else None
    cards = _reprint_cards(found, edition)
    if cards:
        from pipeline.render.pdf import credits
        from pipeline.render.sheets.reprint import write_reprint

        with credits(game.credited_author, game.keywords, edition=edition.page_text if edition else ""):
            for paper in papers:
                buffer = io.BytesIO()
                write_reprint(buffer, cards, paper, game.title, backs)
                (folder / f"reprint-{paper}.pdf").write_bytes(buffer.getvalue())
                written.append(folder / f"reprint-{paper}.pdf")
    text = changes_markdown(game.title, version, found, [path.name for path in written])
    (folder / NAME).write_bytes(text.encode("utf-8"))
    return [folder / NAME, *written]


def _reprint_cards(found: ReleaseChanges, edition: Edition | None) -> list:
    """The added and changed cards' faces, with the edition mark the release's sheets print (none: no mark):
    as pipeline/kinds/prepare.py marks a deck, a front is its card's (its id), a back the deck's (the game and
    version), and a token's front carries its id alone, its back nothing."""
    from pipeline.render.faces.edition_mark import SMALL_SIDE_MM, stamp
    from pipeline.render.sheets.reprint import ReprintCard

    if found.changes is None or found.after is None:
        return []
    fonts = found.after.renderer.fonts

    def marked(face, context, deck):
        if edition is None or face is None:
            return face
        return stamp(face, edition.texts(context, min(deck.size_mm) < SMALL_SIDE_MM), fonts)

    return [ReprintCard(marked(c.new.front_face, c.new.front.context, c.new.deck),
                        marked(c.new.back_face, None, c.new.deck), c.new.deck.title, c.new.deck.keep_bleed)
            for c in found.changes.cards if c.reprint]
