"""What the print guide knows that is not in a build's entries: the paper each kind of file prints on, the
sleeves sold for each card size, and a game's own shopping list and assembly notes
(templates/<game>/guide/guide.yaml, data rather than code).

guide.yaml (every key optional; the texts are printed as written, in the game's language):

    shopping:                     # what to buy or gather besides paper, sleeves and tools
      - {item: "Dés à six faces ordinaires", quantity: "120", note: "…"}
    optional:                     # files a playtester may leave unprinted, and what replaces them
      - {files: [dice-nets, dice-stickers], instead: "des dés ordinaires et la référence des dés"}
    assembly: ["Triez les pions par couleur…"]     # steps only this game has, after the common ones
    notes: ["…"]                  # anything else worth knowing before printing
    box:                          # a box is `groups` of the groups its decks are printed in (CardDeck.group)
      {groups: 2, group: "équipe", title: "Une seule boîte : les deux équipes qui s'affrontent"}
    write_on: [score-sheet]       # pages written on during a game: keep an original to photocopy
    kinds: {pawns: pions}         # what report.md calls a component, where its size does not say it
    prints:                       # lighter prints than the full one, each with its own sheet count
      - {name: "À 2 joueurs", note: "…", without: [cards-robot, robotaid], pages: {bench: 2}, copies: {aid: 1}}
    settings:                     # the rulebook's "Choix de cette édition": the workbook cells behind each choice,
      - {point: "Coût d'une construction", parameters: [build_cost_mode]}    # listed in report.md's developer part
    glossary:                     # one word per thing on every printed page (pipeline/guide/glossary.py)
      - {term: action, means: "…", avoid: ["tir réussi", "SHOT"]}
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pipeline.core.errors import Report, SourceRef
from pipeline.core.safe_yaml import YamlRefused, read_yaml
from pipeline.guide.glossary import Term, read_terms

GUIDE_FILE = Path("guide") / "guide.yaml"

# paper stocks, cheapest reading first; the key is what a file's kind prints on
STOCKS = {
    "card": "bristol 200–250 g",
    "thin-card": "bristol fin 160–200 g",
    "paper": "papier 80 g",
    "label": "papier autocollant",
}
STOCK_USES = {"card": "cartes, jetons, plateaux", "thin-card": "patrons de dés à plier",
              "paper": "règles, aides de jeu, feuilles de marque", "label": "autocollants de dés"}
_STOCK_OF_KIND = {"cards": "card", "board": "card", "dice-nets": "thin-card", "dice-stickers": "label",
                  "pages": "paper", "rulebook": "paper"}

# sleeves are sold by the card size they take (mm, short side first), under these usual shop names
SLEEVES = (
    ((63.5, 88.0), "Standard Card Game"),
    ((59.0, 92.0), "Standard European"),
    ((56.0, 87.0), "Standard American"),
    ((57.5, 89.0), "Chimera"),
    ((44.0, 68.0), "Mini European"),
    ((41.0, 63.0), "Mini American"),
    ((70.0, 70.0), "Square"),
    ((70.0, 120.0), "Tarot"),
    ((80.0, 120.0), "Dixit"),
)
SLEEVE_FIT_MM = 1.0              # a sleeve sold for 63.5 × 88 takes a 63.5 × 88.9 card
SLEEVED_SIDES_MM = (35.0, 130.0)  # smaller pieces are tokens; larger ones are boards or calendars


PAPER_NAMES = {"a4": "A4", "letter": "US Letter"}


def paper_name(paper: str) -> str:
    return PAPER_NAMES.get(paper, paper.upper())


def num(value: float) -> str:
    """A number as French prints it: 63,5 and 88,9."""
    return f"{value:g}".replace(".", ",")


def size(size_mm) -> str:
    return f"{num(size_mm[0])} × {num(size_mm[1])} mm"


def plural(count: int, word: str, many: str | None = None) -> str:
    return f"{count} {word if count == 1 else (many or word + 's')}"


def stock_of(kind: str) -> str:
    """The paper stock a file of this kind prints on; a kind the table does not know is a component."""
    return _STOCK_OF_KIND.get(kind, _STOCK_OF_KIND.get(kind.split("-")[0], "card"))


def sleeve_for(size_mm) -> tuple[tuple[float, float], str] | None:
    """The sleeve sold for a card of this size (either orientation), or None if no usual size fits."""
    short, long = sorted(float(v) for v in size_mm)
    for (width, height), name in SLEEVES:
        if abs(width - short) <= SLEEVE_FIT_MM and abs(height - long) <= SLEEVE_FIT_MM:
            return (width, height), name
    return None


def takes_a_sleeve(component: dict) -> bool:
    """A card with a back, of a size one holds in hand: the pieces a playtester shuffles."""
    if component.get("kind") != "cards" or not component.get("backs") or not component.get("size_mm"):
        return False
    low, high = SLEEVED_SIDES_MM
    return low <= min(component["size_mm"]) and max(component["size_mm"]) <= high


@dataclass(frozen=True)
class GameGuide:
    shopping: list[dict] = field(default_factory=list)
    optional: list[dict] = field(default_factory=list)
    assembly: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    box: dict = field(default_factory=dict)      # {"groups": 2, "group": "équipe", "title": "…"} or {}
    write_on: list[str] = field(default_factory=list)
    kinds: dict[str, str] = field(default_factory=dict)
    prints: list[dict] = field(default_factory=list)
    settings: list[dict] = field(default_factory=list)
    glossary: tuple[Term, ...] = ()

    def optional_reason(self, file_stem: str) -> str | None:
        return next((o["instead"] for o in self.optional if file_stem in o["files"]), None)

    def optional_files(self) -> frozenset[str]:
        """The names of the files a print can leave out (the paper bill counts them apart)."""
        return frozenset(name for o in self.optional for name in o["files"])


def read_game_guide(template_dir: Path, root: Path, report: Report) -> GameGuide:
    """The game's guide.yaml, or an empty guide; a file pnp cannot read is a warning at its line (read while
    the build prepares, so `--strict` refuses before any file is written), and the guide goes without it."""
    path = template_dir / GUIDE_FILE
    if not path.is_file():
        return GameGuide()
    where = str(path.relative_to(root)) if path.is_relative_to(root) else str(path)
    try:
        data = read_yaml(path)
    except (YamlRefused, OSError) as exc:
        line = exc.line if isinstance(exc, YamlRefused) else None
        report.warning(SourceRef(where, None, line), f"print guide data not read: {getattr(exc, 'message', exc)}",
                       "guide")
        return GameGuide()
    problems: list[str] = []
    guide = GameGuide(shopping=_records(data, "shopping", ("item",), ("quantity", "note"), problems),
                      optional=_optional(data, problems), assembly=_texts(data, "assembly", problems),
                      notes=_texts(data, "notes", problems), write_on=_names(data, "write_on", problems),
                      kinds=_words(data, problems), prints=_prints(data, problems),
                      settings=_settings(data, problems), glossary=read_terms(data, problems), box=_box(data, problems))
    for problem in problems:
        report.warning(where, problem, "guide")
    return guide


def _section(data, key: str, problems: list[str]) -> list:
    if not isinstance(data, dict):
        if data is not None and key == "shopping":
            problems.append("the file must be a mapping (shopping, optional, assembly, notes)")
        return []
    value = data.get(key, [])
    if not isinstance(value, list):
        problems.append(f"'{key}' must be a list")
        return []
    return value


def _texts(data, key: str, problems: list[str]) -> list[str]:
    texts = []
    for index, value in enumerate(_section(data, key, problems), 1):
        if isinstance(value, str) and value.strip():
            texts.append(value.strip())
        else:
            problems.append(f"'{key}' item {index} must be a text")
    return texts


def _records(data, key: str, required: tuple, optional: tuple, problems: list[str]) -> list[dict]:
    records = []
    for index, value in enumerate(_section(data, key, problems), 1):
        if not isinstance(value, dict) or any(not isinstance(value.get(k), str) for k in required):
            problems.append(f"'{key}' item {index} needs {', '.join(required)} as text")
            continue
        unknown = set(value) - set(required) - set(optional)
        if unknown:
            problems.append(f"'{key}' item {index}: unknown key(s) {', '.join(sorted(unknown))}")
        records.append({k: str(value[k]).strip() for k in required + optional if value.get(k) is not None})
    return records


def _optional(data, problems: list[str]) -> list[dict]:
    found = []
    for index, value in enumerate(_section(data, "optional", problems), 1):
        files = value.get("files") if isinstance(value, dict) else None
        if not (isinstance(files, list) and files and all(isinstance(f, str) for f in files)
                and isinstance(value.get("instead"), str)):
            problems.append(f"'optional' item {index} needs files (a list of file names) and instead (a text)")
            continue
        found.append({"files": [f.removesuffix(".pdf") for f in files], "instead": value["instead"].strip()})
    return found


def _box(data, problems: list[str]) -> dict:
    value = data.get("box") if isinstance(data, dict) else None
    if value is None:
        return {}
    if not (isinstance(value, dict) and isinstance(value.get("groups"), int) and value["groups"] > 0
            and all(isinstance(value.get(k), str) and value[k].strip() for k in ("group", "title"))):
        problems.append("'box' needs groups (a whole number), group and title (texts)")
        return {}
    unknown = set(value) - {"groups", "group", "title"}
    if unknown:
        problems.append(f"'box': unknown key(s) {', '.join(sorted(unknown))}")
    return {"groups": value["groups"], "group": value["group"].strip(), "title": value["title"].strip()}
def _names(data, key: str, problems: list[str]) -> list[str]:
    names = []
    for index, value in enumerate(_section(data, key, problems), 1):
        if isinstance(value, str) and value.strip():
            names.append(value.strip().removesuffix(".pdf"))
        else:
            problems.append(f"'{key}' item {index} must be a file name")
    return names


def _words(data, problems: list[str]) -> dict[str, str]:
    value = data.get("kinds", {}) if isinstance(data, dict) else {}
    if not isinstance(value, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
        problems.append("'kinds' must map component ids to words")
        return {}
    return {k: v.strip() for k, v in value.items()}


def _prints(data, problems: list[str]) -> list[dict]:
    """Lighter prints: a name, a note, the files left out, and files printed in part (pages) or in fewer
    copies: {name, note, without: [file], pages: {file: n}, copies: {file: n}}."""
    found = []
    for index, value in enumerate(_section(data, "prints", problems), 1):
        ok = isinstance(value, dict) and isinstance(value.get("name"), str)
        without = value.get("without", []) if ok else None
        parts = {key: value.get(key, {}) if ok else None for key in ("pages", "copies")}
        ok = ok and isinstance(without, list) and all(isinstance(f, str) for f in without) and all(
            isinstance(part, dict) and all(isinstance(k, str) and isinstance(n, int) and n >= 0 for k, n in part.items())
            for part in parts.values())
        if not ok:
            problems.append(f"'prints' item {index} needs a name, and without (file names), pages and copies "
                            f"(file name: whole number)")
            continue
        found.append({"name": value["name"].strip(), "note": str(value.get("note") or "").strip(),
                      "without": [f.removesuffix(".pdf") for f in without],
                      **{key: {k.removesuffix(".pdf"): n for k, n in part.items()} for key, part in parts.items()}})
    return found


def _settings(data, problems: list[str]) -> list[dict]:
    """The edition's choices and the workbook cells behind them: {point, parameters: [name], sheets: [name]}."""
    found = []
    for index, value in enumerate(_section(data, "settings", problems), 1):
        lists = [value.get(key, []) for key in ("parameters", "sheets")] if isinstance(value, dict) else None
        if not (lists and isinstance(value.get("point"), str)
                and all(isinstance(v, list) and all(isinstance(n, str) for n in v) for v in lists)):
            problems.append(f"'settings' item {index} needs a point (a text) and parameters or sheets (names)")
            continue
        found.append({"point": value["point"].strip(), "parameters": lists[0], "sheets": lists[1]})
    return found
