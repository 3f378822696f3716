"""Register the fonts named in fonts/fonts.yaml with reportlab, by role.

Fonts are TrueType files shipped in Python packages (font-lato, font-fjallaone), so reportlab embeds
and subsets them; no base-14 font is used anywhere.
"""

from __future__ import annotations

import hashlib
import importlib.util
import struct
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path, PurePath

from reportlab.pdfbase import pdfdoc, pdfmetrics
from reportlab.pdfbase.ttfonts import TTFError, TTFont, makeToUnicodeCMap

from pipeline.core.errors import PipelineError, Problem, SourceRef
from pipeline.core.paths import PROJECT_FOLDER, inside
from pipeline.core.safe_yaml import YamlRefused, read_yaml


@dataclass(frozen=True)
class FontSet:
    """Role -> registered reportlab font name."""

    names: dict
    bold_roles: dict
    licences: dict
    files: dict = field(default_factory=dict)     # font name -> TrueType file, registered on first use
    fallbacks: tuple[str, ...] = ()                # tried glyph by glyph behind every role (render/glyphs.py)
    families: dict = field(default_factory=dict)  # font name -> family, as messages name it ("Noto Sans")

    def name(self, role: str) -> str:
        try:
            font_name = self.names[role]
        except KeyError:
            raise KeyError(f"unknown font role {role!r} (known: {', '.join(sorted(self.names))})") from None
        if font_name not in _REGISTERED:
            _register(font_name, self.files[font_name])
        return font_name

    def bold(self, role: str) -> str:
        return self.name(self.bold_roles.get(role, role))

    def ascent(self, role: str) -> float:
        """Cap-ish height as a fraction of the size (used to place baselines and inline icons)."""
        face = pdfmetrics.getFont(self.name(role)).face
        return face.ascent / 1000.0

    def descent(self, role: str) -> float:
        face = pdfmetrics.getFont(self.name(role)).face
        return -face.descent / 1000.0

    def chain(self, role: str = "body") -> tuple[str, ...]:
        """The role's font, then the fallbacks: what validation checks a text cell against. Every role's
        drawing chain (`behind`) covers at least what the body's chain covers."""
        return (self.name(role), *self.fallbacks)

    def behind(self, font: str) -> tuple[str, ...]:
        """What is tried, glyph by glyph, behind the registered font `font`: the fallback families, then
        the body font (Lato has signs such as ≤ ≥ ∞ that neither Fjalla One nor Noto Sans has)."""
        body = self.names.get("body")
        return self.fallbacks if body is None or font == body else (*self.fallbacks, body)

    def family_names(self, fonts: tuple[str, ...]) -> tuple[str, ...]:
        """Font names as a designer knows them ("Lato", "Noto Sans"), each once, in order."""
        return tuple(dict.fromkeys(self.families.get(font, font) for font in fonts))

    def with_game_fonts(self, game_dir: Path, root: Path) -> "FontSet":
        """This set plus the fallback families a game names in templates/<game>/fonts.yaml (if any)."""
        extra = Path(game_dir) / "fonts.yaml"
        if not extra.is_file():
            return self
        names, licences, files, families = _families(extra, root, "fallback")
        return FontSet(self.names, self.bold_roles, {**self.licences, **licences}, {**self.files, **files},
                       self.fallbacks + tuple(n for n in names if n not in self.fallbacks),
                       {**self.families, **families})


class UsedGlyphsTTFont(TTFont):
    """A TrueType font that embeds only the glyphs a document draws.

    reportlab keeps printable ASCII at its own codes in the first subset (so content streams stay
    readable and compress well) and therefore embeds all 95 ASCII glyphs of every font, used or not:
    about 11 KiB per font. Here the ASCII codes no page used point at glyph 0 (.notdef) when the font
    is written, so they cost nothing; the codes that were used are unchanged.
    """

    def splitString(self, text, doc, encoding="utf-8"):
        # Fast path: every character already has a code in the first subset (after the first few cards,
        # nearly always), so the chunk is one C-speed translate. reportlab loops in Python per character.
        state = self.state.get(doc)
        fast = state.__dict__.get("pnp_fast") if state is not None else None
        if fast is not None and text and fast[0].issuperset(text):
            return [(0, text.translate(fast[1]).encode("latin-1"))]
        chunks = super().splitString(text, doc, encoding)
        state = self.state[doc]
        known, table = state.__dict__.setdefault("pnp_fast", (set(), {}))
        used = state.__dict__.setdefault("pnp_used", set())
        for subset, data in chunks:
            if subset == 0:
                used.update(data)
        for char in set(text):
            code = 32 if char == "\xa0" else state.assignments.get(ord(char))
            if code is not None and code < 256:
                known.add(char)
                table[ord(char)] = code
        return chunks

    def addObjects(self, doc):
        state = self.state.get(doc)
        if state is not None and state.subsets:
            used = state.__dict__.get("pnp_used", set())
            first = state.subsets[0]
            for code in range(33, min(128, len(first))):
                if code not in used:
                    first[code] = 0
        self._add_subsets(doc)

    def _add_subsets(self, doc):
        """reportlab's TTFont.addObjects with one change: the subset tag. reportlab numbers a font's subsets
        AAAAAA, AAAAAB… in every font of every file (invariant mode included), so files merged by a print
        shop hold different glyph sets under one name. Here the tag is derived from the font and the
        subset's characters: the same tag always means the same subset, and a rebuild is byte-identical."""
        try:
            state = self.state[doc]
        except KeyError:
            state = self.state[doc] = TTFont.State(self._asciiReadable)
        state.frozen = 1
        for n, subset in enumerate(state.subsets):
            internal_name = self.getSubsetInternalName(n, doc)[1:]
            base_font = f"{subset_tag(self.fontName, n, subset)}+{self.face.name.decode('pdfdoc')}" \
                        f"{self.face.subfontNameX.decode('pdfdoc')}"
            font = pdfdoc.PDFTrueTypeFont()
            font.__Comment__ = f"Font {self.fontName} subset {n}"
            font.Name = internal_name
            font.BaseFont = base_font
            font.FirstChar = 0
            font.LastChar = len(subset) - 1
            font.Widths = pdfdoc.PDFArray(list(map(self.face.getCharWidth, subset)))
            cmap = pdfdoc.PDFStream()
            cmap.content = makeToUnicodeCMap(base_font, subset)
            if doc.compression:
                cmap.filters = [pdfdoc.PDFZCompress]
            font.ToUnicode = doc.Reference(cmap, "toUnicodeCMap:" + base_font)
            font.FontDescriptor = self.face.addSubsetObjects(doc, base_font, subset)
            doc.Reference(font, internal_name)
            doc.idToObject["BasicFonts"].dict[internal_name] = font
        del self.state[doc]


def subset_tag(font_name: str, index: int, subset) -> str:
    """Six capital letters naming one subset of one font (PDF 32000 9.6.4): a hash of the font's name, the
    subset's place and the characters it holds."""
    digest = hashlib.sha256(f"{font_name}\0{index}\0{','.join(map(str, subset))}".encode()).digest()
    number = int.from_bytes(digest[:8], "big")
    letters = []
    for _ in range(6):
        number, letter = divmod(number, 26)
        letters.append(chr(ord("A") + letter))
    return "".join(letters)


def _package_dir(package: str, where: str = "fonts/fonts.yaml") -> Path:
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise PipelineError(Problem(where, f"font package {package!r} is not installed "
                                    "(run `make` to set up the environment)", "font"))
    return Path(list(spec.submodule_search_locations)[0])


_REGISTERED: set[str] = set()


_FILES: dict[str, Path] = {}      # every font name a FontSet knows -> its file


def _register(font_name: str, path: Path) -> None:
    """Parsing a TrueType file costs ~5 ms: only the fonts a build draws with are read."""
    if font_name not in pdfmetrics.getRegisteredFontNames():
        try:
            font = UsedGlyphsTTFont(font_name, str(path))
        except (TTFError, OSError, ValueError, KeyError, IndexError, struct.error) as exc:
            # a game's own .ttf is data from other people: a located problem, never a traceback
            raise PipelineError(Problem(_shown(path), f"cannot read the font: {exc}", "font")) from None
        except Exception as exc:    # reportlab trips on damage it does not check for (a name table with no names)
            raise PipelineError(Problem(_shown(path), f"cannot read the font: it is damaged ({type(exc).__name__})",
                                        "font")) from None
        pdfmetrics.registerFont(font)
    _REGISTERED.add(font_name)


def _shown(path: Path) -> str:
    from pipeline import PROJECT_ROOT

    return str(path.relative_to(PROJECT_ROOT)) if path.is_relative_to(PROJECT_ROOT) else path.name


def ensure_registered(font_name: str) -> None:
    """Register a font of a loaded FontSet on first use (fallback fonts are read only when needed)."""
    if font_name not in _REGISTERED and font_name in _FILES:
        _register(font_name, _FILES[font_name])


def _inside(where: str, entry: dict, text: str, root: Path) -> Path:
    """A game's font file, checked like every path from other people (pipeline/core/paths.py)."""
    try:
        return inside(root, root, text, PROJECT_FOLDER)
    except ValueError as exc:
        raise PipelineError(Problem(where, f"family {entry['family']!r}: font path {exc}", "font")) from None


def _font_file(where: str, entry: dict, root: Path | None) -> Path:
    """A family's TrueType file: from an installed package (`package`, `file`) or, for a game's own
    family, a file inside the project (`path`)."""
    if "path" in entry and root is not None:
        path = _inside(where, entry, str(entry["path"]), root)
    else:
        package, file = str(entry.get("package", "")), str(entry.get("file", ""))
        # a top-level package and a plain file name: nothing is imported, nothing read outside the package
        if not package.isidentifier() or not file or PurePath(file).name != file or file in (".", ".."):
            raise PipelineError(Problem(where, f"family {entry['family']!r}: give `package` (an installed "
                                        "font package) and `file` (a file name in its files/ folder), or "
                                        "`path` (a .ttf inside the project)", "font"))
        path = _package_dir(package, where) / "files" / file
    try:
        found = path.is_file()
    except OSError:                     # a name too long for the file system, among others
        found = False
    if not found:
        raise PipelineError(Problem(where, f"font file {entry.get('path') or entry['file']} not found", "font"))
    if path.suffix.lower() not in (".ttf", ".otf"):
        raise PipelineError(Problem(where, f"font file {path.name} is not TrueType (.ttf)", "font"))
    return path


def _families(manifest: Path, root: Path | None, key: str, where: str | None = None) -> tuple[list[str], dict, dict, dict]:
    """The fallback families of a fonts.yaml (named `where` in problems): their font names (in order), licences,
    files and families."""
    if where is None:
        where = str(manifest.relative_to(root)) if root is not None and manifest.is_relative_to(root) else str(manifest)
    data = _manifest(manifest, where)
    entries = (data.get(key) or []) if isinstance(data, dict) else None
    if not isinstance(entries, list) or not all(isinstance(e, dict) and "family" in e for e in entries):
        raise PipelineError(Problem(where, f"`{key}:` must be a list of families ({{family, package, file}} "
                                    "or {family, path})", "font"))
    names, licences, files, families = [], {}, {}, {}
    for entry in entries:
        path = _font_file(where, entry, root)
        font_name = path.stem.replace("[", "-").replace("]", "").replace(",", "-")
        names.append(font_name)
        files[font_name] = path
        families[font_name] = str(entry["family"])
        licences[font_name] = f"{entry['family']} ({entry.get('licence', 'licence not stated')})"
    _FILES.update(files)
    return names, licences, files, families


def _manifest(manifest: Path, where: str):
    """A fonts.yaml read through the bounded YAML door; a refusal names its line."""
    try:
        return read_yaml(manifest) or {}
    except OSError as exc:
        raise PipelineError(Problem(where, f"cannot read the font manifest: {exc.strerror or exc}", "font")) \
            from None
    except YamlRefused as exc:
        raise PipelineError(Problem(SourceRef(where, None, exc.line), exc.message, "font")) from None


ROLES_NEEDED = ("title", "body", "bold", "italic")     # what the pipeline itself draws with (rulebook, faces)
MANIFEST = "fonts/fonts.yaml"


@lru_cache(maxsize=None)
def load_fonts(manifest: Path) -> FontSet:
    data = _manifest(Path(manifest), MANIFEST)
    roles, bold_of = _roles(data)
    names, licences, files, families = {}, {}, {}, {}
    for role, entry in roles.items():
        path = _font_file(MANIFEST, entry, None)
        font_name = path.stem
        files[font_name] = path
        names[role] = font_name
        families[font_name] = str(entry["family"])
        licences[font_name] = f"{entry['family']} ({entry.get('licence', 'licence not stated')})"
    _FILES.update(files)
    fallback_names, fallback_licences, fallback_files, fallback_families = _families(Path(manifest), None, "fallback",
                                                                                     MANIFEST)
    return FontSet(names=names, bold_roles=bold_of, licences={**licences, **fallback_licences},
                   files={**files, **fallback_files}, fallbacks=tuple(fallback_names),
                   families={**families, **fallback_families})


def _roles(data) -> tuple[dict, dict]:
    """fonts.yaml's `roles:` (each a {family, package, file}) and `bold_of:` (role -> role), checked: a
    manifest from elsewhere is a located problem, never a traceback."""
    roles = data.get("roles") if isinstance(data, dict) else None
    if not isinstance(roles, dict) or not all(isinstance(k, str) and isinstance(e, dict) and "family" in e
                                              for k, e in roles.items()):
        raise PipelineError(Problem(MANIFEST, "`roles:` must map each role to {family, package, file}", "font"))
    missing = [role for role in ROLES_NEEDED if role not in roles]
    if missing:
        raise PipelineError(Problem(MANIFEST, f"`roles:` lacks {', '.join(missing)} (needed: "
                                    f"{', '.join(ROLES_NEEDED)})", "font"))
    bold_of = data.get("bold_of") or {}
    if not isinstance(bold_of, dict) or not all(k in roles and v in roles for k, v in bold_of.items()):
        raise PipelineError(Problem(MANIFEST, f"`bold_of:` must map roles to roles (roles: {', '.join(map(str, roles))})",
                                    "font"))
    return roles, dict(bold_of)


def default_fonts() -> FontSet:
    from pipeline import PROJECT_ROOT

    return load_fonts(PROJECT_ROOT / "fonts" / "fonts.yaml")
