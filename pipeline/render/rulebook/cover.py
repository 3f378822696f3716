"""A rulebook's cover: the facts a box shows (players, duration, age) and the game's own faces as art.

The facts come from `cover.yaml` in the rulebook folder (beside the chapters; not a chapter file):

    art: [card-city-carreville, card-contract-picsou]     # figure names (jinja2 too), fanned like a hand of cards
    players: "{{ rules.players_min }} à {{ rules.players_max }} joueurs"
    duration: "45 à 60 minutes"
    age: "dès 10 ans"
    tagline: "Achetez, bâtissez, trahissez."             # optional, under the subtitle
    credits: "Un jeu de …"                                # optional, at the foot: who made the game

Text values and art names are jinja2 (the sandbox, with the chapters' context), so a count stays the
workbook's. An art name that is no figure of this build is left out, as chapters offer a figure only when its
face exists (a build without rendered parts still checks clean). Without the file the cover shows the title
alone.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from reportlab.platypus import Flowable

from pipeline.core.errors import Problem, Severity, SourceRef
from pipeline.render.rulebook.source import RULE, relative_path
from pipeline.render.rulebook.style import ACCENT, MUTED, NOTE_FILL, RULE_GREY

COVER_FILE = "cover.yaml"
FACTS = ("players", "duration", "age")
TEXTS = (*FACTS, "tagline", "credits")
MAX_ART = 7
FAN_DEGREES = 9.0           # between two neighbouring faces of the fan
FAN_STEP = 0.58             # horizontal step between faces, in face widths


@dataclass(frozen=True)
class Cover:
    art: tuple[str, ...] = ()
    facts: tuple[str, ...] = ()      # players, duration, age: those given, in that order
    tagline: str = ""
    credits: str = ""                # the designers (and translators), under the facts


def read_cover(folder: Path, context: Mapping[str, Any], figures: Mapping[str, Any],
               project_root: Path) -> tuple[Cover, list[Problem]]:
    """The cover of the rulebook in `folder` and the problems met reading it (none if there is no file)."""
    from pipeline.core.safe_yaml import YamlRefused, read_yaml

    path = Path(folder) / COVER_FILE
    rel = relative_path(path, Path(project_root))
    if not path.is_file():
        return Cover(), []
    try:
        data = read_yaml(path)
    except YamlRefused as exc:
        return Cover(), [Problem(SourceRef(rel, None, exc.line), exc.message, RULE)]
    except OSError as exc:
        return Cover(), [Problem(rel, f"cannot read the cover: {exc.strerror or exc}", RULE)]
    if not isinstance(data, dict):
        return Cover(), [Problem(rel, "the cover is a mapping (art, players, duration, age, tagline, credits)", RULE)]
    problems = [Problem(rel, f"unknown cover key {key!r} (known: art, {', '.join(TEXTS)}): ignored", RULE,
                        Severity.WARNING) for key in data if key not in ("art", *TEXTS)]
    art = data.get("art") or []
    if isinstance(art, str):
        art = [art]
    if not isinstance(art, list) or not all(isinstance(name, str) for name in art):
        problems.append(Problem(rel, "cover art is a list of figure names", RULE))
        art = []
    art = [_text(name, "art", context, rel, problems) for name in art]     # "player-{{ samples.nba }}"
    if len(art) > MAX_ART:
        problems.append(Problem(rel, f"cover art: {len(art)} faces, at most {MAX_ART} are drawn", RULE,
                                Severity.WARNING))
    texts = {key: _text(data.get(key), key, context, rel, problems) for key in TEXTS}
    cover = Cover(tuple(name for name in art if name in figures)[:MAX_ART],
                  tuple(texts[key] for key in FACTS if texts[key]), texts["tagline"], texts["credits"])
    return cover, problems


def _text(value, key: str, context: Mapping[str, Any], rel: str, problems: list[Problem]) -> str:
    if value is None:
        return ""
    if not isinstance(value, (str, int, float)):
        problems.append(Problem(rel, f"cover {key}: a line of text", RULE))
        return ""
    from pipeline.render.faces.expressions import sandbox

    try:
        return " ".join(sandbox().from_string(str(value)).render(dict(context)).split())
    except Exception as exc:     # user text in the sandbox: syntax, undefined names…
        problems.append(Problem(rel, f"cover {key}: jinja2: {exc}", RULE))
        return ""


class FanArt(Flowable):
    """Faces fanned like a hand of cards, at one common scale (never enlarged), on a light panel."""

    def __init__(self, faces: list, height: float):
        super().__init__()
        self.faces, self.max_height = faces, height
        self.scale = 1.0

    def _angles(self) -> list[float]:
        middle = (len(self.faces) - 1) / 2
        return [(middle - index) * FAN_DEGREES for index in range(len(self.faces))]

    def wrap(self, avail_width, avail_height):
        face_w = max(face.width for face in self.faces)
        face_h = max(face.height for face in self.faces)
        count = len(self.faces)
        spread = math.radians(FAN_DEGREES * (count - 1) / 2)
        natural_w = face_w * (1 + FAN_STEP * (count - 1)) + face_h * math.sin(spread)
        natural_h = face_h * (1 + 0.25 * math.sin(spread)) + face_w * math.sin(spread)
        self.scale = min(1.0, 0.94 * avail_width / natural_w, 0.9 * self.max_height / natural_h)
        self.width, self.height = avail_width, self.max_height
        return self.width, self.height

    def draw(self):
        canvas = self.canv
        canvas.saveState()
        canvas.setFillColor(NOTE_FILL)
        canvas.roundRect(0, 0, self.width, self.height, 8, stroke=0, fill=1)
        canvas.restoreState()
        middle = (len(self.faces) - 1) / 2
        face_w = max(face.width for face in self.faces) * self.scale
        for index, (face, angle) in enumerate(zip(self.faces, self._angles())):
            offset = index - middle
            cx = self.width / 2 + offset * face_w * FAN_STEP
            cy = self.height / 2 - abs(offset) ** 1.6 * face_w * 0.06
            self._draw_face(face, cx, cy, angle)

    def _draw_face(self, face, cx: float, cy: float, angle: float) -> None:
        canvas, scale = self.canv, self.scale
        width, height = face.width * scale, face.height * scale
        canvas.saveState()
        canvas.translate(cx, cy)
        canvas.rotate(angle)
        canvas.setFillColor(RULE_GREY)
        canvas.rect(-width / 2 + 2, -height / 2 - 2, width, height, stroke=0, fill=1)     # a soft shadow
        canvas.translate(-width / 2, -height / 2)
        canvas.saveState()
        canvas.scale(scale, scale)
        clip = canvas.beginPath()
        clip.rect(0, 0, face.width, face.height)
        canvas.clipPath(clip, stroke=0, fill=0)
        face.draw(canvas)
        canvas.restoreState()
        canvas.setStrokeColor(MUTED)
        canvas.setLineWidth(0.6)
        canvas.rect(0, 0, width, height, stroke=1, fill=0)
        canvas.restoreState()


class FactsLine(Flowable):
    """The box's facts in rounded frames, side by side, centred: "2 à 4 joueurs", "45 min", "dès 10 ans"."""

    PAD, GAP, SIZE = 9, 10, 13

    def __init__(self, facts: tuple[str, ...], font: str, fallbacks: tuple[str, ...]):
        super().__init__()
        self.facts, self.font, self.fallbacks = facts, font, fallbacks

    def _widths(self) -> list[float]:
        from pipeline.render.glyphs import string_width

        return [string_width(fact, self.font, self.SIZE, self.fallbacks) + 2 * self.PAD for fact in self.facts]

    def wrap(self, avail_width, avail_height):
        self.width, self.height = avail_width, self.SIZE + 2 * self.PAD
        return self.width, self.height

    def draw(self):
        from pipeline.render.glyphs import draw_string

        widths = self._widths()
        x = (self.width - sum(widths) - self.GAP * (len(widths) - 1)) / 2
        canvas = self.canv
        for fact, width in zip(self.facts, widths):
            canvas.saveState()
            canvas.setStrokeColor(ACCENT)
            canvas.setLineWidth(1.2)
            canvas.roundRect(x, 0, width, self.height, self.height / 2, stroke=1, fill=0)
            canvas.setFillColor(ACCENT)
            draw_string(canvas, x + self.PAD, self.PAD + 0.22 * self.SIZE, fact, self.font, self.SIZE, self.fallbacks)
            canvas.restoreState()
            x += width + self.GAP
