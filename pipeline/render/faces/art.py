"""Art: images and icons, located safely, loaded once per process, drawn once per document as a form.

A path written in a template or a cell is data from other people: it is resolved (symlinks included) and
refused if it lands outside the project. Missing files are not fatal: a labelled placeholder is drawn so the
proof still shows where the art goes, and the path is listed in the build report.
"""

from __future__ import annotations

import hashlib
import logging
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

from reportlab.lib.rl_accel import fp_str
from reportlab.lib.utils import ImageReader

from pipeline.core.paths import path_problem, resolve_inside
from pipeline.render.faces.text import Run, add_run, unit_width

FORMS_ATTRIBUTE = "_pnp_art_forms"      # set on each canvas: rel path -> (form name, natural w, h)
VECTOR_SUFFIXES = (".svg",)
ICON_SUFFIXES = (".svg", ".png")
MAX_PIXELS = 89_478_485                 # Pillow's own decompression-bomb bound (Image.MAX_IMAGE_PIXELS)


class ArtError(Exception):
    """A file exists but cannot be read as an image."""


class Located(NamedTuple):
    status: str        # "ok", "missing" or "outside"
    rel: str           # project-relative posix path ("ok", "missing"); the path as written ("outside")
    why: str = ""      # "outside": why it is refused (pipeline/core/paths.py)


class Art(NamedTuple):
    """A placed image or icon: its form is scaled into (x, y, width, height); `clip` limits a `cover` fit."""
    rel: str
    font: str          # a registered font, so an SVG never makes reportlab reference Helvetica
    x: float
    y: float
    width: float
    height: float
    clip: tuple[float, float, float, float] | None = None


class Placeholder(NamedTuple):
    x: float
    y: float
    width: float
    height: float
    label: tuple[Run, ...]      # one run per font: a file name may need the fallback chain


class ArtLibrary:
    """Where art and icons live for one game, with the lookups cached (2,000 cards, 4 distinct files)."""

    def __init__(self, project_root: Path, templates_root: Path, game_dir: Path):
        self.project_root = Path(project_root).resolve()
        self.icon_dirs = (Path(game_dir).resolve() / "icons", Path(templates_root).resolve() / "common" / "icons")
        self._located: dict[tuple[str, tuple[Path, ...]], Located] = {}
        self._icons: dict[str, tuple[str, float] | None] = {}

    def locate(self, src: str, bases: tuple[Path, ...]) -> Located:
        key = (src, bases)
        found = self._located.get(key)
        if found is None:
            try:
                found = self._locate(src, bases)
            except OSError as exc:             # a name too long, a loop of links: not a usable path
                found = Located("outside", src, f"{src!r} is not a usable path ({exc.strerror or exc})")
            self._located[key] = found
        return found

    def _locate(self, src: str, bases: tuple[Path, ...]) -> Located:
        why = path_problem(src) if src else "the path is empty"
        if why:
            return Located("outside", src, why)
        try:
            found, first = resolve_inside(self.project_root, bases, src)
        except ValueError as exc:
            return Located("outside", src, str(exc))
        if found is not None:
            return Located("ok", found.relative_to(self.project_root).as_posix())
        return Located("missing", first.relative_to(self.project_root).as_posix() if first else src)

    def natural_size(self, rel: str) -> tuple[float, float]:
        return natural_size(str(self.project_root / rel))

    def icon(self, name: str) -> tuple[str, float] | None:
        """(rel path, width / height) of the icon, the game's own first, else the common one."""
        if name not in self._icons:
            self._icons[name] = self._find_icon(name)
        return self._icons[name]

    def _find_icon(self, name: str) -> tuple[str, float] | None:
        if "/" in name or "\\" in name or name.startswith("."):
            return None
        for folder in self.icon_dirs:
            for suffix in ICON_SUFFIXES:
                path = folder / f"{name}{suffix}"
                if path.is_file() and path.resolve().is_relative_to(self.project_root):
                    width, height = natural_size(str(path.resolve()))
                    return path.resolve().relative_to(self.project_root).as_posix(), width / height
        return None

    def aspect(self, name: str) -> float | None:
        found = self.icon(name)
        return None if found is None else found[1]


# --- loading (per process) --------------------------------------------------------------------------------

@lru_cache(maxsize=256)
def _raster(path: str) -> ImageReader:
    """The image, decoded once whole before it is trusted: a file cut short fails here, at validation, with
    its place, not in the middle of a build's drawing. reportlab then reads the file itself (a JPEG goes into
    the PDF as it is)."""
    try:
        _decode(path)
        reader = ImageReader(path)
        reader.getSize()
        return reader
    except ArtError:
        raise
    except Exception as exc:  # PIL raises many types for a damaged or unknown file
        raise ArtError(f"cannot read image {Path(path).name}: {' '.join(str(exc).split()) or type(exc).__name__}") \
            from None


def _decode(path: str) -> None:
    """Refuse an image of more pixels than Pillow's decompression-bomb bound before decoding it, then decode
    it whole (and forget the pixels)."""
    import warnings

    from PIL import Image

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)     # refused below, located
        with Image.open(path) as image:
            width, height = image.size
            if width * height > MAX_PIXELS:
                raise ArtError(f"image {Path(path).name} is {width}×{height} pixels, above the "
                               f"{MAX_PIXELS // 1_000_000} million pixels an image may have (a print at 300 dpi "
                               "of a 60 cm square has 50 million)")
            image.load()


@lru_cache(maxsize=256)
def _vector(path: str):
    from svglib.svglib import svg2rlg

    logging.getLogger("svglib").setLevel(logging.ERROR)  # svglib logs every unsupported attribute
    try:
        drawing = svg2rlg(path)
    except Exception as exc:
        raise ArtError(f"cannot read SVG {Path(path).name}: {exc}") from None
    if drawing is None or not drawing.width or not drawing.height:
        raise ArtError(f"cannot read SVG {Path(path).name}")
    return drawing


@lru_cache(maxsize=256)
def natural_size(path: str) -> tuple[float, float]:
    if path.lower().endswith(VECTOR_SUFFIXES):
        drawing = _vector(path)
        return float(drawing.width), float(drawing.height)
    width, height = _raster(path).getSize()
    return float(width), float(height)


def fit_box(natural: tuple[float, float], box: tuple[float, float, float, float], fit: str):
    """-> (x, y, w, h, clip) placing art of `natural` size in `box` = (x, y, w, h) (PDF, y up)."""
    x, y, width, height = box
    if fit == "stretch":
        return x, y, width, height, None
    scales = (width / natural[0], height / natural[1])
    scale = max(scales) if fit == "cover" else min(scales)
    placed_w, placed_h = natural[0] * scale, natural[1] * scale
    placed = (x + (width - placed_w) / 2, y + (height - placed_h) / 2, placed_w, placed_h)
    return (*placed, box if fit == "cover" else None)


def placeholder(box: tuple[float, float, float, float], label: str, font: str,
                fallbacks: tuple[str, ...] = ()) -> Placeholder:
    x, y, width, height = box
    label = "".join(ch for ch in label if ch.isprintable())
    natural = unit_width(label, font, fallbacks) or 1.0
    size = max(3.0, min(6.0, 0.9 * width / natural))
    runs: list[Run] = []
    add_run(runs, font, size, x + (width - natural * size) / 2, y + height / 2 - size * 0.35, label, fallbacks)
    return Placeholder(x, y, width, height, tuple(runs))


# --- drawing (per document) -------------------------------------------------------------------------------

def _form(canvas, root: Path, rel: str, font: str) -> tuple[str, float, float]:
    """The form XObject holding this art in `canvas`'s document, made on first use."""
    forms = canvas.__dict__.setdefault(FORMS_ATTRIBUTE, {})
    entry = forms.get(rel)
    if entry is None:
        path = str(root / rel)
        name = "pnpArt" + hashlib.sha1(rel.encode("utf-8")).hexdigest()[:16]
        width, height = natural_size(path)
        canvas.beginForm(name, 0, 0, width, height)
        if path.lower().endswith(VECTOR_SUFFIXES):
            drawing = _vector(path)
            drawing.initialFontName = font   # reportlab's default state would otherwise pull in Helvetica
            from reportlab.graphics import renderPDF   # heavy (pulls in platypus): only when SVG art is drawn
            renderPDF.draw(drawing, canvas, 0, 0)
        else:
            canvas.drawImage(_raster(path), 0, 0, width, height, mask="auto")
        canvas.endForm()
        entry = forms[rel] = (name, width, height)
    return entry


def pdf_number(value: float) -> str:
    """A PDF number as reportlab writes it (fp_str: C-accelerated by rl_accel, a dependency)."""
    return fp_str(value)


def pdf_numbers(*values: float) -> str:
    return fp_str(*values)


def draw_art(canvas, root: Path, art: Art) -> None:
    """Place the art's form (q, optional clip, cm, Do, Q); doForm also records the form in the resources."""
    name, width, height = _form(canvas, root, art.rel, art.font)
    clip = f"{pdf_numbers(*art.clip)} re W n " if art.clip is not None else ""
    canvas.addLiteral(f"q {clip}{pdf_numbers(art.width / width, 0, 0, art.height / height, art.x, art.y)} cm")
    canvas.doForm(name)
    canvas.addLiteral("Q")


def draw_placeholder(canvas, box: Placeholder) -> None:
    canvas.saveState()
    canvas.setFillColorRGB(0.88, 0.88, 0.88)
    canvas.setStrokeColorRGB(0.55, 0.55, 0.55)
    canvas.setLineWidth(0.5)
    canvas.setDash()
    canvas.rect(box.x, box.y, box.width, box.height, stroke=1, fill=1)
    canvas.line(box.x, box.y, box.x + box.width, box.y + box.height)
    canvas.line(box.x, box.y + box.height, box.x + box.width, box.y)
    canvas.setFillColorRGB(0.25, 0.25, 0.25)
    for run in box.label:
        canvas.setFont(run.font, run.size)
        canvas.drawString(run.x, run.y, run.text)
    canvas.restoreState()
