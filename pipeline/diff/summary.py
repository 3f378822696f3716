"""`pnp diff GAME OLD --summary FILE`: what changed, as GitHub-flavoured Markdown for a CI job summary
($GITHUB_STEP_SUMMARY) or a merge request's artifact. Each run appends one game's section, so a loop over the
games builds one summary: one line for a game without change, else the counts, a table of the cards (change,
card, cells), then the rules and rulebook lines as `pnp diff` prints them. Text from the workbooks is escaped:
a `|` or a `*` in a card's name stays text.
"""

from __future__ import annotations

from pathlib import Path

from pipeline.diff.changes import ADDED, CHANGED, Changes, DATA_ONLY, REMOVED
from pipeline.render.markup import md_escape


def escape(text: str) -> str:
    """Text as itself in Markdown, on one line (a table cell or a list item); `~` too, which GitHub reads as
    strikethrough (`HEAD~2 … HEAD~3`)."""
    return md_escape(text).replace("~", "\\~")


def heading(game_id: str, old: str) -> str:
    return f"### {escape(game_id)}: changes since {escape(old)}\n\n"


def section(game_id: str, changes: Changes, written: list[str]) -> str:
    """One game's changes since `changes.old_label`; `written` names the diff's files (changes.pdf, …)."""
    if changes.none:                                        # one line: a pull request changes few games
        return f"**{escape(game_id)}**: no change since {escape(changes.old_label)}.\n\n"
    text = heading(game_id, changes.old_label) + _counts(changes) + "\n\n"
    if changes.cards:
        text += "| change | card | cells |\n|---|---|---|\n"
        for change in changes.cards:
            deck, _ = change.key
            card = f"{deck} › {change.label}" + ("" if "row" in change.label else f" ({change.row})")
            cells = "<br>".join(escape(str(item)) for item in change.fields)
            text += f"| {change.status} | {escape(card)} | {cells} |\n"
        text += "\n"
    listed = sum(1 + len(change.fields) for change in changes.cards)
    others = changes.lines()[listed:]                       # the rules, then the rulebook pages
    for line in others:
        text += f"{'  ' if line.startswith('  ') else ''}- {escape(line.strip())}\n"
    if written:
        text += ("\n" if others else "") + f"Files: {', '.join(map(escape, written))}\n"
    return text + "\n"


def failure(game_id: str, old: str, lines: list[str]) -> str:
    """A game whose diff could not be made: why, one located line each."""
    return heading(game_id, old) + "The diff failed:\n\n" + "".join(f"- {escape(line)}\n" for line in lines) + "\n"


def _counts(changes: Changes) -> str:
    parts = [f"{len(changes.of(status))} {name}" for status, name in
             ((CHANGED, "changed"), (ADDED, "added"), (REMOVED, "removed"), (DATA_ONLY, "changed in data only"))
             if changes.of(status)]
    reprint = sum(change.reprint for change in changes.cards)
    text = f"Cards: {', '.join(parts)}; {reprint} to reprint." if parts else "No card changed."
    if changes.rules:
        text += f" Rules: {len(changes.rules)} changed."
    return text


def append(path: Path, text: str) -> None:
    """Add a section to the summary file (the runner's file, or one a loop over the games fills)."""
    with path.open("a", encoding="utf-8") as summary:
        summary.write(text)
