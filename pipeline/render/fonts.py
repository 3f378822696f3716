"""Register the fonts named in fonts/fonts.yaml with reportlab, by role.

Fonts are TrueType files shipped in Python packages (font-lato, font-fjallaone), so reportlab embeds
and subsets them; no base-14 font is used anywhere.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import yaml
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from pipeline.errors import PipelineError, Problem


@dataclass(frozen=True)
class FontSet:
    """Role -> registered reportlab font name."""

    names: dict
    bold_roles: dict
    licences: dict

    def name(self, role: str) -> str:
        try:
            return self.names[role]
        except KeyError:
            raise KeyError(f"unknown font role {role!r} (known: {', '.join(sorted(self.names))})") from None

    def bold(self, role: str) -> str:
        return self.name(self.bold_roles.get(role, role))

    def ascent(self, role: str) -> float:
        """Cap-ish height as a fraction of the size (used to place baselines and inline icons)."""
        face = pdfmetrics.getFont(self.name(role)).face
        return face.ascent / 1000.0

    def descent(self, role: str) -> float:
        face = pdfmetrics.getFont(self.name(role)).face
        return -face.descent / 1000.0


def _package_dir(package: str) -> Path:
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise PipelineError(Problem("fonts/fonts.yaml", f"font package {package!r} is not installed "
                                    "(run `make` to set up the environment)", "font"))
    return Path(list(spec.submodule_search_locations)[0])


@lru_cache(maxsize=None)
def load_fonts(manifest: Path) -> FontSet:
    data = yaml.safe_load(Path(manifest).read_text(encoding="utf-8"))
    names, licences = {}, {}
    for role, entry in data["roles"].items():
        path = _package_dir(entry["package"]) / "files" / entry["file"]
        if not path.is_file():
            raise PipelineError(Problem("fonts/fonts.yaml", f"font file {entry['file']} not found in "
                                        f"package {entry['package']}", "font"))
        font_name = Path(entry["file"]).stem
        if font_name not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(TTFont(font_name, str(path)))
        names[role] = font_name
        licences[font_name] = f"{entry['family']} ({entry['licence']})"
    return FontSet(names=names, bold_roles=dict(data.get("bold_of", {})), licences=licences)


def default_fonts() -> FontSet:
    from pipeline import PROJECT_ROOT

    return load_fonts(PROJECT_ROOT / "fonts" / "fonts.yaml")
