"""Register the fonts named in fonts/fonts.yaml with reportlab, by role.

Fonts are TrueType files shipped in Python packages (font-lato, font-fjallaone), so reportlab embeds
and subsets them; no base-14 font is used anywhere.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import yaml
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from pipeline.errors import PipelineError, Problem

SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)   # libyaml when the wheel has it: ~10x faster


@dataclass(frozen=True)
class FontSet:
    """Role -> registered reportlab font name."""

    names: dict
    bold_roles: dict
    licences: dict
    files: dict = field(default_factory=dict)     # font name -> TrueType file, registered on first use

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
        super().addObjects(doc)


def _package_dir(package: str) -> Path:
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise PipelineError(Problem("fonts/fonts.yaml", f"font package {package!r} is not installed "
                                    "(run `make` to set up the environment)", "font"))
    return Path(list(spec.submodule_search_locations)[0])


_REGISTERED: set[str] = set()


def _register(font_name: str, path: Path) -> None:
    """Parsing a TrueType file costs ~5 ms: only the fonts a build draws with are read."""
    if font_name not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(UsedGlyphsTTFont(font_name, str(path)))
    _REGISTERED.add(font_name)


@lru_cache(maxsize=None)
def load_fonts(manifest: Path) -> FontSet:
    data = yaml.load(Path(manifest).read_text(encoding="utf-8"), Loader=SAFE_LOADER)
    names, licences, files = {}, {}, {}
    for role, entry in data["roles"].items():
        path = _package_dir(entry["package"]) / "files" / entry["file"]
        if not path.is_file():
            raise PipelineError(Problem("fonts/fonts.yaml", f"font file {entry['file']} not found in "
                                        f"package {entry['package']}", "font"))
        font_name = Path(entry["file"]).stem
        files[font_name] = path
        names[role] = font_name
        licences[font_name] = f"{entry['family']} ({entry['licence']})"
    return FontSet(names=names, bold_roles=dict(data.get("bold_of", {})), licences=licences, files=files)


def default_fonts() -> FontSet:
    from pipeline import PROJECT_ROOT

    return load_fonts(PROJECT_ROOT / "fonts" / "fonts.yaml")
