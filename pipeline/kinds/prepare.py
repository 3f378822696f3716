"""Lay out every face of every component, then plan its sheets for every paper, before anything is
written: a text that overflows, a template mistake, a card or board no paper takes, or a broken rulebook
chapter is a validation problem found here, with nothing on disk yet. What to do per kind is in
pipeline/kinds/."""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field, replace
from types import SimpleNamespace
from typing import Any

from pipeline.cache import BuildCache, with_problems
from pipeline.core.config import BuildConfig
from pipeline.core.errors import Report, SourceRef
from pipeline.core.printing import PAPER_FORMATS
from pipeline.core.progress import Progress
from pipeline.core.units import PRINT_BLEED_MM
from pipeline.data.specs import BoardSpec, CardDeck, Component, FaceSpec, PageSpec
from pipeline.kinds import kind_of
from pipeline.kinds.ahead import lay_ahead, layout_of
from pipeline.render.faces.edition_mark import Edition, SMALL_SIDE_MM, stamp

# The components whose faces carry an edition mark. Dice faces (16 mm, 13 mm stickers) have no room: their
# sheets carry the page mark. Rulebook figures are pictures in the text, whose pages carry the page mark.
MARKED = (CardDeck, BoardSpec, PageSpec)


@dataclass
class Laid:
    """A component with its faces laid out (in the shape its kind's lay_out gives) for one ink variant, and
    its kind's plans by paper. `pool` is every Laid of the same game and ink variant, in order (the same
    list object for all of them): what pooled home sheets (pipeline/kinds/pooled.py) put together."""

    component: Component
    ink: bool
    faces: Any
    plans: dict = field(default_factory=dict)
    pool: list = field(default_factory=list, repr=False, compare=False)
    digest: str | None = field(default=None, repr=False, compare=False)   # its cache key (pipeline/cache)
    chosen: bool = field(default=True, repr=False, compare=False)        # False: left out by --only

    @property
    def missing_art(self) -> set[str]:
        return {art for face in kind_of(self.component).faces_of(self.faces) for art in face.missing_art}


def identified(component: Component) -> list[FaceSpec]:
    """The faces whose edition mark carries their own data's id: a deck's fronts (its backs are the deck's, and
    identical backs stay one face), a board's face, a write-on page's faces; none of other components."""
    if isinstance(component, CardDeck):
        return list(component.fronts)
    return list(kind_of(component).spec_faces(component)) if isinstance(component, MARKED) else []


def mark_texts(edition: Edition | None, component: Component, face: FaceSpec, back: bool) -> tuple[str, ...]:
    """The edition mark of one face, longest form first (render/faces/edition_mark.py stamps the first that fits):
    a front, board or page is one card's and carries its id; a `back` is the deck's, with the game and version
    only; a token (a deck under SMALL_SIDE_MM) its id alone. None for dice faces and rulebook figures."""
    if edition is None or not isinstance(component, MARKED):
        return ()
    token = isinstance(component, CardDeck) and min(component.size_mm) < SMALL_SIDE_MM
    return edition.texts(None if back else face.context, token)


def has_ink_variant(component: Component) -> bool:
    """Card sheets and boards get an ink-saver variant; write-on pages and rulebooks are ink-light already."""
    return kind_of(component).INK_VARIANT


# One renderer lays out one game in one ink variant (pipeline/build.py): its components' Laid, in order.
_POOLS: "weakref.WeakKeyDictionary[Any, list[Laid]]" = weakref.WeakKeyDictionary()


class NotCached(Exception):
    """A face of a component left out by --only is not in the cache: the component is not built."""


@dataclass
class FaceCount:
    faces: int = 0
    laid_out: int = 0                # not found in the cache
    keys: list = field(default_factory=list)   # each face's cache key, in order (None: not cacheable)


def lay_out(renderer, component: Component, ink: bool, report: Report, progress: Progress,
            cache: BuildCache | None = None, new_faces: bool = True, count: FaceCount | None = None,
            edition: Edition | None = None, jobs: int = 1) -> Laid:
    """The component's faces, each from the cache when there; `new_faces=False` (a component left out by
    --only) raises NotCached rather than lay out a face anew. With an `edition`, the faces of cards, tokens,
    boards and write-on pages get their edition mark (pipeline/render/faces/edition_mark.py). A deck's new
    faces are laid out on `jobs` processes (pipeline/kinds/ahead.py), the same faces as on one."""
    repeats: dict[tuple, list] = {}
    count = count if count is not None else FaceCount()
    own = Report()                                  # told only once the whole component is laid out
    backs = {id(face) for face in component.backs or ()} if isinstance(component, CardDeck) else set()
    shelf = Shelf.of(cache, renderer, component, ink)
    keys: dict[int, str | None] = {}

    def texts_of(face: FaceSpec) -> tuple[str, ...]:
        return mark_texts(edition, component, face, id(face) in backs)

    ahead = lay_ahead(renderer, kind_of(component).spec_faces(component),
                      lambda face: shelf.entry(cache, renderer, face, keys)[1] is not None, texts_of, jobs) \
        if new_faces and isinstance(component, CardDeck) else {}
    faces = kind_of(component).lay_out(
        component, lambda face: _cached_layout(renderer, face, repeats, cache, new_faces, count, texts_of(face),
                                               shelf, keys, ahead),
        progress, ink, own)
    shelf.store(cache)
    report.extend(own.problems)
    report.extend(_collapse(repeats))
    pool = _POOLS.setdefault(renderer, [])
    laid = Laid(component, ink, faces, pool=pool)
    # what the faces are made from stands for them (a key is a pure function of its inputs); the pages'
    # edition mark is drawn by the writer, so it is part of what its files are made from
    page_mark = edition.page_text if edition else None
    laid.digest = cache.key("laid", component, ink, count.keys, page_mark) \
        if cache and None not in count.keys else None
    pool.append(laid)
    return laid


def plan(game, laid: Laid, config: BuildConfig, report: Report, cache: BuildCache | None = None) -> None:
    """The kind's plans of every paper, kept on `laid` for the writer; what does not fit goes to `report`.
    Cached with their problems per component, faces and options (the rulebook's check renders every chapter)."""
    key = cache.key("plan", game.id, game.template_dir, laid.digest, _options(config)) \
        if cache and laid.digest else None
    laid.plans = with_problems(cache, key, report,
                               lambda own: kind_of(laid.component).plan(game, laid.component, laid.faces, config, own))


def _options(config: BuildConfig) -> tuple:
    """What a plan depends on: the paper formats only (an export asked for or not changes no sheet)."""
    return (config.papers, paper_formats(config), config.backs, config.back_offset_mm, config.ink_saver,
            config.strict)


def paper_formats(config: BuildConfig) -> tuple[str, ...]:
    return tuple(f for f in config.formats if f in PAPER_FORMATS)


def check_bleed(renderer, component: Component, report: Report, cache: BuildCache | None = None) -> None:
    """Every card, token and board face goes to print services with 3 mm of artwork beyond its trim
    (after lay_out, which compiles the templates it did not find in the cache)."""
    kind = kind_of(component)
    if not kind.PRINT_BLEED:
        return
    for template in dict.fromkeys(face.template for face in kind.spec_faces(component)):
        compiled = _template(renderer, template, cache)
        if compiled is None or (compiled.bleed or 0.0) >= PRINT_BLEED_MM - 1e-9:
            continue
        path = renderer.game_dir / template
        shown = path.relative_to(renderer.project_root) if path.is_relative_to(renderer.project_root) else path
        report.error(SourceRef(str(shown)), f"{component.id}: bleed is {compiled.bleed or 0:g} mm; card, token "
                     f"and board faces need {PRINT_BLEED_MM:g} mm for print services (`bleed: 3`, with the "
                     "background drawn out to it)", "template")


def _template(renderer, template: str, cache: BuildCache | None):
    """The compiled template's bleed (as a namespace), loaded only if no face needed it and the cache lacks it."""
    compiled = renderer.loaded(template)
    if compiled is not None or cache is None:
        return compiled
    key = cache.key("bleed", renderer.game_dir, template)
    found = cache.get(key)
    if found is None:
        compiled, _ = renderer.loader.load(renderer.game_dir / template)
        found = (compiled is not None, compiled.bleed if compiled is not None else None)
        cache.put(key, found)
    loaded, bleed = found
    return SimpleNamespace(bleed=bleed) if loaded else None


@dataclass
class Shelf:
    """One component's laid-out faces in one ink variant, kept as one cache entry ({face key: (layout, problems,
    art, {mark texts: the face with that edition mark})}) rather than a file per face: a build reads a few entries, not thousands. Its own key names the
    component, not its content; what it holds is found by each face's content key, so an entry of an
    earlier build serves the faces that have not changed, and a changed one is laid out anew."""

    key: str | None = None
    found: dict = field(default_factory=dict)
    made: dict = field(default_factory=dict)
    fresh: bool = False             # a face laid out anew

    @classmethod
    def of(cls, cache: BuildCache | None, renderer, component: Component, ink: bool) -> "Shelf":
        key = cache.key("faces of", renderer.game_dir, type(component).__name__, component.id, ink) if cache else None
        found = cache.get(key) if key else None
        return cls(key, found if isinstance(found, dict) else {})

    def entry(self, cache: BuildCache | None, renderer, face: FaceSpec, keys: dict) -> tuple[str | None, tuple | None]:
        """The face's cache key (worked out once, kept in `keys`) and its entry on the shelf when it can serve:
        there, with its art unchanged (else None)."""
        if id(face) not in keys:
            keys[id(face)] = cache.face_key(renderer, face) if cache else None
        key = keys[id(face)]
        found = self.found.get(key) if key else None
        return key, found if found is not None and cache.art_unchanged(found[2]) else None

    def store(self, cache: BuildCache | None) -> None:
        """Kept for the next build when it differs from what was found (a face laid out anew, one gone)."""
        if cache and self.key and (self.fresh or self.made.keys() != self.found.keys()):
            cache.put(self.key, self.made)


def _cached_layout(renderer, face: FaceSpec, repeats: dict[tuple, list], cache: BuildCache | None, new_faces: bool,
                   count: FaceCount, texts: tuple[str, ...], shelf: Shelf, keys: dict, ahead: dict):
    count.faces += 1
    key, found = shelf.entry(cache, renderer, face, keys)
    if found is not None:
        layout, problems, art, marks = found
        shelf.made[key] = found
        if layout.project_root != renderer.project_root:       # stored by the same project elsewhere
            layout = replace(layout, project_root=renderer.project_root)
        _register_fonts(renderer)
    elif not new_faces:                             # (a face whose art changed counts as not found)
        raise NotCached(face.name)
    else:
        count.laid_out += 1
        early = ahead.pop(id(face), None)           # laid out by a worker (a face met twice: the second here)
        layout, problems = early[:2] if early else layout_of(renderer, face)
        art, marks = cache.art_of(layout) if cache else (), {}
        if early:
            _register_fonts(renderer)               # the worker's layout registered them in the worker only
            if early[2] is not None:
                marks[texts], shelf.fresh = early[2], True
        # A template's load problems come once, with the first card laid out with it: none of its faces is
        # cached, so they keep coming with the card a clean build would name.
        if key and not renderer.loader.load(renderer.game_dir / face.template)[1]:
            shelf.made[key], shelf.fresh = (layout, problems, art, marks), True
    # the art it draws and its edition mark are part of what its files are made from
    count.keys.append((key, art, texts) if key else None)
    return _record(_marked(layout, texts, marks, renderer, shelf) if texts else layout, problems, repeats)


def _marked(layout, texts: tuple[str, ...], marks: dict, renderer, shelf: Shelf):
    """The face with its edition mark: placing it measures the face's text, so it is kept on the shelf too."""
    found = marks.get(texts)
    if found is None:
        found = stamp(layout, texts, renderer.fonts)     # placed once for many cards (a deck's back): stamp's cache
        marks[texts] = found
        shelf.fresh = True
    elif found.project_root != renderer.project_root:
        found = replace(found, project_root=renderer.project_root)
    return found


_FONTS_READY: "weakref.WeakSet[Any]" = weakref.WeakSet()


def _register_fonts(renderer) -> None:
    """Fonts register when a layout first uses them: a face from the cache needs them registered to draw."""
    from pipeline.render.fonts import ensure_registered

    if renderer not in _FONTS_READY:
        for name in renderer.fonts.files:
            ensure_registered(name)
        _FONTS_READY.add(renderer)


def _record(layout, problems, repeats: dict[tuple, list]):
    for problem in problems:
        # A template mistake shows on every card drawn with it: one line, with a count, is the problem.
        # Data-dependent problems (a text that overflows on one card) stay one line per card.
        what = problem.message.split("): ", 1)[-1].split(" (data: ")[0] if problem.rule == "template" else problem
        repeats.setdefault((str(problem.where), problem.rule, what), []).append(problem)
    return layout


def _collapse(repeats: dict[tuple, list]) -> list:
    collapsed = []
    for same in repeats.values():
        first = same[0]
        if len(same) > 1:
            first = replace(first, message=f"{first.message} (and {len(same) - 1} more card(s))")
        collapsed.append(first)
    return collapsed
