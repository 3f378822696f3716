"""output/<game>/report.{json,md} and the print guides guide-<paper>.md: what was built, from which inputs,
with which checks, and how to print it. No timestamps, so the report is as reproducible as the PDFs.

report.md is for the playtester first: it opens with the print guide of the first paper built (French, like
the games) and keeps the developer data (inputs, validation, bot games, every file of every format, the
whole paper bill) last."""

from __future__ import annotations

import json

from pipeline.core.config import BuildConfig
from pipeline.core.errors import Report
from pipeline.core.output import atomic_write, sha256_file
from pipeline.guide.data import SLEEVED_SIDES_MM
from pipeline.guide.paperbill import paper_bill
from pipeline.guide.print_guide import TOKEN_SIDE_MM, guide_lines, guide_markdown, guide_name
from pipeline.kinds import kind_of
from pipeline.render.markup import md_escape


def write_game_report(item, config: BuildConfig, report: Report, outputs: list[dict],
                      calibration: list[str] = (), cache=None) -> None:
    """`cache` (pipeline.cache.BuildCache): the paper bill's ink measure is taken from it per file sha256."""
    game = item.game
    inputs = [{"path": str(p.relative_to(config.root)), "sha256": sha256_file(p)} for p in game.data_files]
    missing = sorted({art for laid in item.laid for art in laid.missing_art})
    data = {
        "game": game.id, "title": game.title, "inputs": inputs,
        "options": {"papers": list(config.papers), "formats": list(config.formats), "backs": config.backs,
                    "back_offset_mm": list(config.back_offset_mm), "ink_saver": config.ink_saver},
        "validation": {"errors": 0, "warnings": [p.to_dict() for p in report.warnings
                                                   if str(p.where).startswith(tuple(i["path"] for i in inputs))]},
        "summary": item.summary,
        "components": [{"id": c.id, "title": c.title, **kind_of(c).describe(c)} for c in item.components],
        "play": _play_summary(item.play),
        "missing_art": missing,
        "outputs": outputs,
        "paper_bill": paper_bill(outputs, config.root, **({"measure": cached_ink(cache)} if cache else {}),
                                 optional=item.guide.optional_files() if item.guide else ()),
        "settings": _settings(item),
        "glossary": _glossary(item, outputs, config.root, cache),
        "calibration": list(calibration),
        "edition": item.edition_file,                      # the edition marks' version and ids (build.py)
    }
    out = config.output / game.id
    guide = item.guide                                     # read while the build prepared (build.py)
    data["guides"] = [{"paper": paper, "path": str((out / guide_name(paper)).relative_to(config.root)),
                       "sha256": atomic_write(out / guide_name(paper), guide_markdown(data, paper, guide).encode())}
                      for paper in data["paper_bill"]]
    markdown = out / "report.md"                           # first, so that report.json lists it with its sha256
    data["report_md"] = {"path": str(markdown.relative_to(config.root)),
                         "sha256": atomic_write(markdown, _markdown(data, guide).encode())}
    atomic_write(out / "report.json", (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode())


def cached_ink(cache):
    """paperbill.ink_coverage, measured once per file content (and code fingerprint)."""
    from pipeline.cache import code_fingerprint, key_of
    from pipeline.guide.paperbill import ink_coverage

    def measure(path):
        key = key_of(code_fingerprint(), "ink", sha256_file(path))   # the file's content, not the templates
        found = cache.get(key)
        if found is None:
            found = ink_coverage(path)
            cache.put(key, found)
        return found
    return measure


def _glossary(item, outputs: list[dict], root, cache) -> list[dict]:
    """Every word of the game's glossary's `avoid` lists printed in a home file: {path, term, found, context}.
    A file's text is read once per content (and code fingerprint) when the build has a cache."""
    terms = item.guide.glossary if item.guide else ()
    if not terms:
        return []
    return [{"path": entry["path"], **m} for entry in outputs if entry.get("format") == "pnp"
            for m in _misuses(root / entry["path"], terms, cache)]


def _misuses(path, terms, cache) -> list[dict]:
    from pipeline.guide.glossary import file_misuses

    if cache is None:
        return file_misuses(path, terms)
    from pipeline.cache import code_fingerprint, key_of

    key = key_of(code_fingerprint(), "glossary", repr(terms), sha256_file(path))
    misused = cache.get(key)
    if misused is None:
        misused = file_misuses(path, terms)
        cache.put(key, misused)
    return misused


def measure_written(cache, entries: list[dict] | None, root, terms=()) -> None:
    """What the report reads of a write step's home files (their ink, the glossary's words in their text),
    measured in the step's own process right after it drew them and kept in `cache`: the report then finds
    it there, and the measuring is spread over the build's processes with the drawing rather than left to
    the report at the end."""
    if cache is None:
        return
    ink = cached_ink(cache)
    for entry in entries or ():
        if entry.get("format") == "pnp" and str(entry.get("path", "")).endswith(".pdf"):
            ink(root / entry["path"])
            if terms:
                _misuses(root / entry["path"], terms, cache)


def _settings(item) -> list[dict]:
    """The rulebook's choices (guide.yaml `settings`) with the `rules` cells behind them, as the workbook has them."""
    values = {str(rec.get("parameter")): rec.get("value") for rec in item.records.get("rules", ())}
    return [{"point": s["point"], "sheets": s["sheets"],
             "parameters": [{"name": name, "value": _cell(values.get(name))} for name in s["parameters"]]}
            for s in (item.guide.settings if item.guide else ())]


def _cell(value) -> str:
    """A rules cell as the designer types it: yes/no, 2 (not 2.0), a word."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "—"
    return f"{value:g}" if isinstance(value, float) else str(value)


def _play_summary(result) -> list[str]:
    """Stage 6 in a few French lines (the full statistics, charts included, come from `pnp simulate`)."""
    if result is None:
        return []
    lines = [f"{result.games} parties à {result.players} joueurs (graine {result.seed}, robots "
             f"{', '.join(dict.fromkeys(result.bots))}) : {result.finished} terminées par les règles, "
             f"{len(result.flagged)} signalées",
             "victoires par place : " + ", ".join(f"{s.seat + 1} : {_fr(s.rate * 100, 0)} %" for s in result.seats),
             "fins de partie : " + ", ".join(f"`{reason}` {count}" for reason, count in result.end_reasons)]
    if result.scores and result.rounds:
        lines.append(f"scores : moyenne {_fr(result.scores.mean, 1)}, de {result.scores.low:g} à "
                     f"{result.scores.high:g} ; manches : moyenne {_fr(result.rounds.mean, 1)}")
    lines += [f"`{row.name}` : attendu {_fr(row.nominal, 3)}, joué {_fr(row.simulated, 3)}" for row in result.nominal
              if row.simulated is not None]
    return lines


def _fr(value: float, places: int) -> str:
    """A number as French prints it: a decimal comma."""
    return f"{value:.{places}f}".replace(".", ",")


def _markdown(data: dict, guide) -> str:
    """The first paper's print guide, then the developer data."""
    if data["paper_bill"]:
        lines = guide_lines(data, next(iter(data["paper_bill"])), guide)
    else:
        lines = [f"# {md_escape(data['title'])} — rapport de construction", "",
                 f"Cette construction n'a produit aucun fichier à imprimer chez soi : `pnp build {data['game']} "
                 f"--format pnp` les écrit, avec leur guide d'impression.", ""]
    return "\n".join(lines + _developer_data(data, guide)) + "\n"


def _developer_data(data: dict, guide=None) -> list[str]:
    lines = ["---", "", "## Données de développement", "", "### Entrées", ""]
    lines += [f"- `{i['path']}` (sha256 `{i['sha256'][:16]}…`)" for i in data["inputs"]]
    lines += ["", "### Validation", "", f"- erreurs : {data['validation']['errors']}",
              f"- avertissements : {len(data['validation']['warnings'])}", ""]
    log = [f"{w['where']}: {w['message']} [{w['rule']}]" for w in data["validation"]["warnings"]] + data["summary"]
    if log:
        lines += ["**Journal du développeur**, en anglais : les messages et le bilan de `pnp validate` recopiés tels "
                  "que la ligne de commande les écrit. Ils ne s'adressent pas aux joueurs.", "", "````text"]
        lines += [line.replace("`" * 4, "'" * 4) for line in log] + ["````"]
    if data.get("play"):
        lines += ["", "### Parties de robots (étape 6 de la validation)", ""] + [f"- {line}" for line in data["play"]]
    lines += _settings_lines(data) + _glossary_lines(data)
    kinds = getattr(guide, "kinds", None) or {}
    lines += ["", "### Composants", "", "| composant | sorte | nombre | format (mm) | dos |", "|---|---|---|---|---|"]
    for c in data["components"]:
        size = f"{c['size_mm'][0]:g} × {c['size_mm'][1]:g}" if c.get("size_mm") else ""
        count = f"{c['count'] or ''}" + (f" pages × {c['copies']}" if c.get("copies", 1) > 1 else "")
        lines.append(f"| {md_escape(c['title'])} (`{c['id']}`) | {md_escape(kind_word(c, kinds))} | {count} | {size} | "
                     f"{'oui' if c['backs'] else 'non'} |")
    lines += ["", "### Tous les fichiers, tous formats", "", "| fichier | format | papier | pages | sha256 |",
              "|---|---|---|---:|---|"]
    for entry in data["outputs"]:
        pages = entry.get("pages", entry.get("images", ""))
        saver = " (économie d’encre)" if entry.get("ink_saver") else ""
        lines.append(f"| `{entry['path']}` | {entry['format']}{saver} | {entry.get('paper') or ''} | {pages} | "
                     f"`{entry.get('sha256', '')[:16]}` |")
    lines += _paper_bill(data["paper_bill"])
    if data["missing_art"]:
        lines += ["", "### Illustrations manquantes (remplacées par un cadre)", ""]
        lines += [f"- {md_escape(a)}" for a in data["missing_art"]]
    return lines


KIND_WORDS = {"board": "plateau", "pages": "feuilles", "dice": "dés", "rulebook": "livret de règles"}


def kind_word(component: dict, words: dict[str, str]) -> str:
    """What a component is, in French: the game's word for it (guide.yaml `kinds`), else from its kind and
    size: a card-kind piece under TOKEN_SIDE_MM is a token, one over the largest card a hand holds a board."""
    if component["id"] in words:
        return words[component["id"]]
    kind = component.get("kind", "")
    if kind != "cards":
        return KIND_WORDS.get(kind, kind)
    sides = component.get("size_mm") or [63.5, 88.9]
    if min(sides) < TOKEN_SIDE_MM:
        return "jetons"
    return "plateau" if max(sides) > SLEEVED_SIDES_MM[1] else "cartes"


def _glossary_lines(data: dict) -> list[str]:
    if "glossary" not in data:
        return []
    found = data["glossary"]
    lines = ["", "### Glossaire du jeu", "",
             "Chaque chose porte un seul mot sur les cartes, les aides, les plateaux et dans les règles : le glossaire "
             "de `templates/" + data["game"] + "/guide/guide.yaml` donne les autres mots à éviter, cherchés dans le "
             "texte de chaque fichier à imprimer."]
    if not found:
        return lines + ["", "Aucun mot à éviter dans les fichiers imprimés."]
    lines += ["", "| fichier | mot du glossaire | trouvé | contexte |", "|---|---|---|---|"]
    return lines + [f"| `{f['path']}` | {md_escape(f['term'])} | {md_escape(f['found'])} | {md_escape(f['context'])} |"
                    for f in found]


def _settings_lines(data: dict) -> list[str]:
    """The workbook cells behind the rulebook's "Choix de cette édition", and how to compare the readings."""
    if not data.get("settings"):
        return []
    lines = ["", "### Choix de cette édition : les réglages du classeur", "",
             "Les règles disent aux joueurs ce que cette édition a retenu ; chaque choix se règle ici. Changez la "
             "valeur dans le classeur et reconstruisez : les règles imprimées suivent. "
             f"`pnp simulate {data['game']}` rejoue les mêmes parties avec l'autre lecture de chaque réglage et dit "
             "combien de fois le vainqueur change.", "",
             "| choix | réglages de la feuille `rules` (valeur actuelle) | feuilles du classeur |", "|---|---|---|"]
    for setting in data["settings"]:
        cells = " ; ".join(f"`{p['name']}` = `{p['value']}`" for p in setting["parameters"])
        sheets = ", ".join(f"`{sheet}`" for sheet in setting["sheets"])
        lines.append(f"| {md_escape(setting['point'])} | {cells} | {sheets} |")
    return lines


def _paper_bill(bill: dict) -> list[str]:
    """report.json's paper bill as it is: every home file of every paper, and its totals."""
    if not bill:
        return []
    lines = ["", "### Bilan papier : une impression complète", "",
             "Feuilles par fichier, imprimées en recto verso (retournement bord long) ou en recto seul (rectos et "
             "versos sur des feuilles à part). Encre en pages couvertes à 5 % (ISO/IEC 24711), mesurée sur les "
             "fichiers (un long fichier sur 16 pages), la couleur comptée par sa clarté. Une impression complète "
             "laisse de côté les fichiers facultatifs, comptés à part : le guide d'impression donne les mêmes totaux."]
    names = {"standard": "**impression complète**", "ink_saver": "**impression complète, économie d’encre**",
             "optional": "**fichiers facultatifs, en plus**"}
    for paper, part in bill.items():
        lines += ["", f"#### {paper.upper()}", "",
                  "| fichier | feuilles recto verso | feuilles recto seul | encre (pages à 5 %) |",
                  "|---|---:|---:|---:|"]
        lines += [f"| `{r['path']}`{' (facultatif)' if r.get('optional') else ''} | {r['double_sided']} | "
                  f"{r['single_sided']} | {r['ink_pages_5pc']:g} |" for r in part["rows"]]
        for variant, total in part["totals"].items():
            lines.append(f"| {names.get(variant, variant)} | **{total['double_sided']}** | "
                         f"**{total['single_sided']}** | **{total['ink_pages_5pc']:g}** |")
    return lines
