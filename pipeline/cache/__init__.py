"""Incremental builds: what a build can take from the cache, .pnp-cache/ at the project's root
(pipeline/cache/location.py: PNP_CACHE_DIR moves it), instead of computing it again.

Three things are cached, each under a key made of everything it is computed from (pipeline/cache/store.py):
- a face (FaceRenderer.layout's FaceLayout and problems), keyed by the code fingerprint, the content of
  templates/, fonts/, the game's own folder and the face's art folder, the ink variant and the face's
  template name, context, source reference, name, label and size;
- the files of one write step (one component in one ink variant, or a game's pooled sheets), keyed by the
  code fingerprint, the same folders, the build options, the game's title and credits and the pickled
  component with its faces' keys: the report entries and each file's sha256, so files still on disk with
  those checksums are kept, never drawn again (pipeline/cache/writes.py);
- what a build measures on files it did not change: the paper bill's ink per file sha256, a kind's sheet
  plans and checks (the rulebook's chapters) per component.

A key never depends on a path's modification time, only on content, so the cache cannot make a file that a
clean build would make differently; deleting the cache (`pnp clean --cache-only`) only makes the next build
slower, and `pnp build --no-cache` neither reads nor writes it.

May import: core and render (the faces it stores).
"""

from __future__ import annotations

import contextlib
import hashlib
import pickle
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Iterator

from pipeline.cache.fingerprint import code_fingerprint, tree_digest
from pipeline.cache.location import cache_folder, entries, mark
from pipeline.cache.store import Store, key_of
from pipeline.core.errors import Report

__all__ = ["BuildCache", "BuildStats", "ComponentStats", "code_fingerprint", "key_of", "with_problems"]

@dataclass
class ComponentStats:
    """What one build did for one component (or one pooled sheet) of one game, both ink variants."""

    faces: int = 0                   # faces the component has
    faces_laid_out: int = 0          # of which laid out anew (not found in the cache)
    files_written: int = 0           # files drawn anew and written
    files_reused: int = 0            # files kept: on disk with the checksum the cache holds for them
    seconds: float = 0.0             # layout and writing time
    built: bool = True               # False: left out by --only and not current in the cache: no file

    def add(self, other: "ComponentStats") -> None:
        """Another part of the same component's work (a write step run elsewhere) counted in."""
        for key, value in asdict(other).items():
            setattr(self, key, (getattr(self, key) and value) if key == "built" else getattr(self, key) + value)


@dataclass
class BuildStats:
    """Filled by build(config, progress, stats=BuildStats()): games[game id][component id]."""

    games: dict[str, dict[str, ComponentStats]] = field(default_factory=dict)

    def of(self, game: str, component: str) -> ComponentStats:
        return self.games.setdefault(game, {}).setdefault(component, ComponentStats())

    def total(self, game: str | None = None) -> ComponentStats:
        total = ComponentStats()
        for name, components in self.games.items():
            for part in components.values() if game in (None, name) else ():
                for key, value in asdict(part).items():
                    if key != "built":
                        setattr(total, key, getattr(total, key) + value)
        return total


class BuildCache:
    """One game's view of the store: the part of every key that is the same for the whole build."""

    def __init__(self, root: Path, template_dir: Path):
        root = Path(root).resolve()
        self.root = root
        self._files: dict[str, str | None] = {}
        self._pending: dict[str, bytes] = {}
        self._held: tuple[dict[str, bytes], ...] = ()     # the pending puts of the blocks `collecting` is inside
        # one folder per code fingerprint: another version's entries can never be read, and go (prune)
        self.store = Store(cache_folder(root) / code_fingerprint()[:16])
        self._trees: dict[Path, str] = {}
        template_dir = Path(template_dir).resolve()
        folders = [root / "templates", root / "fonts"]
        if not template_dir.is_relative_to(root / "templates"):
            folders.append(template_dir)
        # content, never places: the project's own paths count from its root (key_of), so a moved or cloned
        # project reuses its cache
        self.base = (code_fingerprint(), tuple(self.tree(folder) for folder in folders))

    def tree(self, folder: Path | None) -> str | None:
        """A folder's content digest, once per build (files are fixed while a build runs)."""
        if folder is None:
            return None
        if folder not in self._trees:
            resolved = Path(folder).resolve()
            if resolved not in self._trees:
                self._trees[resolved] = tree_digest(resolved)
            self._trees[folder] = self._trees[resolved]
        return self._trees[folder]

    def key(self, *parts) -> str | None:
        return key_of(self.base, *parts, root=self.root)

    def get(self, key: str | None, default=None):
        """What `put` holds for the key, in this block or around it (not yet flushed), else the store's."""
        if key is not None:
            for pending in (self._pending, *self._held):
                if key in pending:
                    return pickle.loads(pending[key])
        return self.store.get(key, default)

    def put(self, key: str | None, value) -> None:
        """Held in memory until `flush()`: a build that fails validation writes nothing under output/, not
        even here. Pickled now, so later changes to `value` are not stored."""
        if key is None:
            return
        try:
            self._pending[key] = pickle.dumps(value, protocol=5)
        except Exception:
            pass

    @contextlib.contextmanager
    def collecting(self) -> Iterator[dict[str, bytes]]:
        """The puts made inside the block, kept apart: what a task run in another process hands back to
        this build's cache (`absorb`). Those before it are held as they were, and still found by `get`."""
        outer, self._pending = self._pending, {}
        self._held = (outer, *self._held)               # still read (get), never written to
        try:
            yield self._pending
        finally:
            self._pending, self._held = outer, self._held[1:]

    def absorb(self, puts: dict[str, bytes]) -> None:
        self._pending.update(puts)

    def flush(self) -> None:
        """Write what `put` held (the build passed validation and is writing)."""
        if self._pending:
            mark(self.store.folder.parent)
        for key, data in self._pending.items():
            self.store.put_pickled(key, data)
        self._pending.clear()

    def art_of(self, layout) -> tuple[tuple[str, str | None], ...]:
        """The art files a face draws or misses, with their sha256 (None: missing). A template may reach art
        anywhere in the project (`../`), outside the folders every key holds: a found face is used only if
        these are unchanged (`art_unchanged`)."""
        rels = dict.fromkeys([*_art(layout.primitives), *layout.missing_art])
        return tuple((rel, self._sha(rel)) for rel in rels)

    def art_unchanged(self, art: tuple[tuple[str, str | None], ...]) -> bool:
        return all(self._sha(rel) == digest for rel, digest in art)

    def _sha(self, rel: str) -> str | None:
        if rel not in self._files:
            try:
                self._files[rel] = hashlib.sha256((self.root / rel).read_bytes()).hexdigest()
            except OSError:
                self._files[rel] = None
        return self._files[rel]

    def prune(self) -> None:
        """Entries of other code fingerprints, and entries unread for a month, removed."""
        import shutil

        for folder in entries(self.store.folder.parent):
            if folder.is_dir() and folder != self.store.folder:      # another fingerprint's (not the tag)
                shutil.rmtree(folder, ignore_errors=True)
        self.store.prune()

    def face_key(self, renderer, face) -> str | None:
        return self.key("face", renderer.game_dir, renderer.ink_saver, face.template, face.context, face.ref,
                        face.name, face.label, face.data_dir, self.tree(face.data_dir), face.size_mm)


def with_problems(cache: BuildCache | None, key: str | None, report, compute):
    """compute(own report)'s value, stored with the problems it told; from the cache when its key is there.
    The problems go to `report` either way, as computed (also when compute raises)."""
    found = cache.get(key) if cache and key else None
    if found is not None:
        value, problems = found
        report.extend(problems)
        return value
    own = Report()
    try:
        value = compute(own)
    finally:
        report.extend(own.problems)
    if cache and key:
        cache.put(key, (value, own.problems))
    return value


def _art(primitives) -> list[str]:
    """Every Art's project-relative path in a face's primitives (groups and text icons included)."""
    from pipeline.render.faces.art import Art
    from pipeline.render.faces.primitives import Group, Text

    found = []
    for primitive in primitives:
        if isinstance(primitive, Art):
            found.append(primitive.rel)
        elif isinstance(primitive, Group):
            found += _art(primitive.children)
        elif isinstance(primitive, Text):
            found += _art(primitive.icons)
    return found
