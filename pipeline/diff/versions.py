"""The two versions `pnp diff` compares: the game's data files as they are now, and as they were at a git
revision (`git show REV:path`) or in another workbook. Both go through the normal loader (validation stages
1–5) with the same templates, fonts and code, and every card face with a source row is laid out."""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field, replace
from pathlib import Path

from pipeline.core import git
from pipeline.core.errors import PipelineError, Problem, Report
from pipeline.data.specs import CardDeck, Component, FaceSpec, GameModule, Records

Key = tuple[str, str]       # (deck id, face name): a card's identity across versions


@dataclass(frozen=True)
class Card:
    """One card of one version: its deck, its front and back specs and their laid-out faces."""

    deck: CardDeck
    front: FaceSpec
    back: FaceSpec | None
    front_face: object
    back_face: object | None

    @property
    def key(self) -> Key:
        return self.deck.id, self.front.name

    @property
    def faces_key(self) -> tuple[str, str | None]:
        return self.front_face.key, self.back_face.key if self.back_face is not None else None


@dataclass
class Version:
    """A game's records, components and card faces in one version of its data; `label` names it."""

    label: str
    game: GameModule
    records: Records
    components: list[Component]
    cards: dict[Key, Card] = field(default_factory=dict)
    renderer: object | None = None


def old_data_files(game: GameModule, root: Path, old: str, workdir: Path) -> tuple[tuple[Path, ...], str]:
    """The game's data files of the old version, copied into `workdir`, and the version's label. `old` is a
    workbook file (a game with one data file) or a git revision of the project."""
    given = Path(old)
    if not given.is_absolute():
        given = Path.cwd() / given
    if given.is_file():
        if len(game.data_files) != 1:
            raise PipelineError(Problem(old, f"{game.id} reads {len(game.data_files)} data files: compare with a "
                                        "git revision rather than one file", "usage"))
        target = workdir / game.data_files[0].name
        shutil.copyfile(given, target)
        return (target,), old
    files = []
    for path in game.data_files:
        relative = in_repository(path, root)
        shown, why = git.show(root, old, relative)
        if shown is None:
            raise PipelineError(Problem(f"{old}:{relative}", "neither a file nor a git revision holding it"
                                        + (f" (git: {why})" if why else ""), "usage"))
        target = workdir / path.name
        target.write_bytes(shown)
        files.append(target)
    return tuple(files), old


def in_repository(path: Path, root: Path) -> str:
    """The path git knows the file by (relative to the repository's top, which may be above the project)."""
    top = git.toplevel(root)
    if top is None:
        raise PipelineError(Problem(str(root), "is not in a git repository: give the old workbook as a file",
                                    "usage"))
    return path.resolve().relative_to(top).as_posix()


def load_version(game: GameModule, root: Path, label: str, report: Report) -> Version | None:
    """Stages 1–5 on this version's data, then every card face with a source row laid out (None when the data
    has errors: they are in `report`)."""
    from pipeline.render.faces.renderer import FaceRenderer
    from pipeline.render.fonts import default_fonts
    from pipeline.validate import load_records

    records = load_records(game, root, report)
    if records is None:
        return None
    components = game.components(records)
    fonts = default_fonts().with_game_fonts(game.template_dir, root)
    renderer = FaceRenderer(root, game.template_dir, fonts)
    version = Version(label, game, records, components, renderer=renderer)
    for deck in (c for c in components if isinstance(c, CardDeck)):
        backs = deck.backs or (None,) * len(deck.fronts)
        for front, back in zip(deck.fronts, backs):
            if front.ref is None:
                continue
            card = Card(deck, front, back, lay_out(renderer, front, report),
                        lay_out(renderer, back, report) if back is not None else None)
            version.cards[card.key] = card
    return version


def lay_out(renderer, face: FaceSpec, report: Report):
    layout, problems = renderer.layout(face.template, face.context, face.ref, face.label or face.name,
                                       face.data_dir, face.size_mm)
    report.extend(problems)
    return layout


def with_data_files(game: GameModule, files: tuple[Path, ...]) -> GameModule:
    """The same game reading other data files (the old version's copies)."""
    return replace(game, data_files=files)


def relabel(problems: list[Problem], workdir: Path, label: str, data_files: tuple[Path, ...], root: Path
            ) -> list[Problem]:
    """Problems of the old version name `label:path` (HEAD:sheets/nba.xlsx) rather than the scratch copy."""
    from pipeline.data.sheets import display_path

    names = {path.name: display_path(path, root) for path in data_files}
    out = []
    for problem in problems:
        where = problem.where
        if hasattr(where, "file") and workdir.name in where.file:
            name = Path(where.file).name
            where = replace(where, file=f"{label}:{names.get(name, name)}")
        elif isinstance(where, str) and workdir.name in where:
            where = f"{label}:{names.get(Path(where).name, Path(where).name)}"
        out.append(replace(problem, where=where))
    return out
