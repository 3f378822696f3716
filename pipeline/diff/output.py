"""`pnp diff`'s run: both versions loaded, compared (pipeline/diff/changes.py), the rulebook pages compared by their
text, and output/<game>/diff/ written: changes.pdf (old and new faces side by side, the changed regions
outlined) and reprint-<paper>.pdf (only the changed and added cards, with their backs). output/<game>/diff/
is not the build's (pipeline/core/output.py NOT_BUILT); a run that finds no change leaves it empty."""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.core.errors import Report
from pipeline.diff.changes import Changes, compare
from pipeline.diff.rulebook import changed_pages
from pipeline.diff.versions import load_version, old_data_files, relabel, with_data_files
from pipeline.games import load_game

FOLDER = "diff"


@dataclass
class DiffResult:
    changes: Changes | None                         # None: a version has errors (in the report)
    written: list[Path] = field(default_factory=list)


def diff_game(root: Path, game_id: str, old: str, papers: tuple[str, ...], report: Report,
              backs: str = "duplex") -> DiffResult:
    """Compare the game's data now with `old` (a git revision or a workbook file) and write the diff files."""
    from pipeline.core.output import scratch_folder

    game = load_game(game_id, root)
    output = root / "output"
    with scratch_folder(output) as workdir:
        files, label = old_data_files(game, root, old, workdir)
        old_report = Report()
        before = load_version(with_data_files(game, files), root, label, old_report)
        report.extend(relabel(old_report.errors, workdir, label, game.data_files, root))   # its warnings: now's
        after = load_version(game, root, "now", report)
        if before is None or after is None:
            return DiffResult(None)
        changes = compare(before, after)
        if changes.cards or changes.rules:
            changes.rulebook_paper = papers[0]
            changes.rulebook_pages, changes.rules_pages = changed_pages(
                before, after, papers[0], root, report, bool(changes.rules), bool(changes.cards))
    folder = output / game.id / FOLDER
    result = DiffResult(changes)
    if not changes.none:
        result.written = write_diff(folder, game, changes, papers, backs)
    _remove_others(folder, result.written)
    return result


def write_diff(folder: Path, game, changes: Changes, papers: tuple[str, ...], backs: str) -> list[Path]:
    from pipeline.core.output import atomic_write
    from pipeline.render.pdf import credits

    written = []
    with credits(game.credited_author, game.keywords):
        pages = change_pages(changes)
        if pages:
            from pipeline.render.sheets.facediff import write_changes

            buffer = io.BytesIO()
            write_changes(buffer, pages, f"{game.title} — modifications depuis {changes.old_label}")
            atomic_write(folder / "changes.pdf", buffer.getvalue())
            written.append(folder / "changes.pdf")
        cards = reprint_cards(changes)
        if cards:
            from pipeline.render.sheets.reprint import write_reprint

            for paper in papers:
                buffer = io.BytesIO()
                write_reprint(buffer, cards, paper, game.title, backs)
                atomic_write(folder / f"reprint-{paper}.pdf", buffer.getvalue())
                written.append(folder / f"reprint-{paper}.pdf")
    return written


def change_pages(changes: Changes) -> list:
    """One page per card that changed, was added or removed (not those changed in data only)."""
    from pipeline.diff.changes import ADDED, CHANGED, REMOVED, shown
    from pipeline.render.sheets.facediff import ChangePage, changed_boxes

    titles = {CHANGED: "modifiée", ADDED: "ajoutée", REMOVED: "retirée"}
    pages = []
    for change in changes.of(CHANGED, ADDED, REMOVED):
        old, new = change.old, change.new
        olds = [old.front_face] if old else []
        news = [new.front_face] if new else []
        boxes = []
        if old and new:
            boxes.append(changed_boxes(old.front_face, new.front_face))
            if old.faces_key[1] != new.faces_key[1] and old.back_face is not None and new.back_face is not None:
                olds.append(old.back_face)
                news.append(new.back_face)
                boxes.append(changed_boxes(old.back_face, new.back_face))
        lines = [f"{item.where} : était {shown(item.old)}, devient {shown(item.new)}" for item in change.fields] \
            or [f"ligne {change.new_or_old.front.ref.row} de la feuille {change.new_or_old.front.ref.sheet}"]
        pages.append(ChangePage(f"Carte {titles[change.status]} : {change.label} ({change.key[0]})",
                                changes.old_label, olds or [None], news or [None], boxes, lines))
    return pages


def reprint_cards(changes: Changes) -> list:
    from pipeline.render.sheets.reprint import ReprintCard

    return [ReprintCard(change.new.front_face, change.new.back_face, change.new.deck.title,
                        change.new.deck.keep_bleed) for change in changes.cards if change.reprint]


def _remove_others(folder: Path, written: list[Path]) -> None:
    """What an earlier diff wrote and this one did not (a reprint of cards since put back)."""
    if not folder.is_dir():
        return
    keep = {path.resolve() for path in written}
    for path in folder.glob("*.pdf"):
        if path.resolve() not in keep and not path.is_symlink():
            path.unlink(missing_ok=True)
