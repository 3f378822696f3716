"""The print guide: what a playtester reads before printing a game at home, in the game's language (French).

One guide per paper (output/<game>/guide-<paper>.md), from report.json's data only: what to print for
that paper in the standard ink mode, on which paper stock, with the sheet totals of the paper bill as they
are (never recounted), the optional files and lighter prints apart (lighter.py); the sleeves for each card size
(sleeves.py); what to buy; the duplex calibration; the order in which to cut and assemble, what every print needs
first. report.md opens with the first paper's guide and keeps the developer data last.
"""

from __future__ import annotations

import math
from pathlib import PurePosixPath

from pipeline.guide.alternatives import foldover_files, one_box
from pipeline.guide.data import STOCKS, STOCK_USES, GameGuide, num, paper_name, plural, size, stock_of
from pipeline.guide.ids import edition
from pipeline.guide.sleeves import SLEEVE_PACK, sleeve_sizes, sleeves
from pipeline.render.markup import md_escape

TOKEN_SIDE_MM = 30.0             # below this a card-kind piece is a token, cut last
DICE_FILES = {"dice-nets": "patrons de dés", "dice-stickers": "autocollants de dés"}


def guide_name(paper: str) -> str:
    return f"guide-{paper}.md"



def is_cards(entry: dict) -> bool:
    """A card-kind file: a deck, a pooled deck or a pooled token sheet ('cards-tokens')."""
    return entry.get("kind", "").split("-")[0] == "cards"


class PaperPrint:
    """One paper's home files in the standard ink mode: the paper bill's rows, each with its build entry."""

    def __init__(self, data: dict, paper: str, guide: GameGuide):
        self.data, self.paper, self.guide = data, paper, guide
        self.bill = data["paper_bill"].get(paper, {"rows": [], "totals": {}})
        self.rows = sorted((row for row in self.bill["rows"] if not row["ink_saver"]),
                           key=lambda row: bool(row.get("optional")))          # what a print needs first
        entries = {}
        for entry in data["outputs"]:
            if entry.get("format") == "pnp" and entry.get("paper") == paper:
                entries.setdefault(entry["path"], entry)
        self.entries = [entries.get(row["path"], row) for row in self.rows]
        self.game_folder = f"output/{data['game']}/"

    def link(self, path: str) -> str:
        """A link that works from the guide's folder, output/<game>/; paths are the project's."""
        if path.startswith(self.game_folder):
            return f"[{path.removeprefix(self.game_folder)}]({path.removeprefix(self.game_folder)})"
        return f"[{path}](../{path.removeprefix('output/')})"

    def members(self, entry: dict) -> list[dict]:
        """The components a file prints: its members on a pooled sheet, else its own component."""
        ids = entry.get("members") or [entry.get("component")]
        return [c for c in self.data["components"] if c["id"] in ids]

    def token_share(self, entry: dict) -> str:
        """'all', 'some' or 'none' of a card-kind file's pieces are tokens (smaller than TOKEN_SIDE_MM)."""
        if not is_cards(entry):
            return "none"
        sizes = [c["size_mm"] for c in self.members(entry) if c.get("size_mm")] or [entry.get("size_mm") or [99]]
        small = [min(size_mm) < TOKEN_SIDE_MM for size_mm in sizes]
        return "all" if all(small) else "some" if any(small) else "none"

    def is_token(self, entry: dict) -> bool:
        """A sheet of tokens (a pooled one may carry a larger piece too): cut last, with care."""
        return self.token_share(entry) != "none"

    def optional(self, row: dict) -> str | None:
        """Why a file may stay unprinted (the paper bill marks it), or None: its reason, or its members'."""
        if not row.get("optional"):
            return None
        names = [PurePosixPath(row["path"]).stem] + list(self.entry_of(row).get("members") or ())
        return " ; ".join(dict.fromkeys(r for r in map(self.guide.optional_reason, names) if r)) or "autre chose"

    def entry_of(self, row: dict) -> dict:
        return self.entries[self.rows.index(row)] if row in self.rows else row

    def required(self) -> list[tuple[dict, dict]]:
        return [(row, entry) for row, entry in zip(self.rows, self.entries) if not row.get("optional")]

    def duplex(self) -> bool:
        return any(e.get("backs_mode") == "duplex" for e in self.entries)

    def calibration_sheet(self) -> str | None:
        return next((p for p in self.data.get("calibration", []) if p.endswith(f"pnp-{self.paper}.pdf")), None)


# --- 1. what to print ---------------------------------------------------------------------------------------------

def _title(pp: PaperPrint, entry: dict) -> str:
    if entry.get("members"):
        return ", ".join(md_escape(c["title"]) for c in pp.members(entry))
    return md_escape(entry.get("title", entry.get("component", "")))


def _contents(pp: PaperPrint, entry: dict) -> str:
    title = _title(pp, entry)
    kind = entry.get("kind", "")
    if is_cards(entry) and entry.get("cards"):
        word = {"all": "jeton", "some": "élément", "none": "carte"}[pp.token_share(entry)]
        return f"{title} ({plural(entry['cards'], word)})"
    if kind == "board" and entry.get("tiles"):
        return f"{title} ({plural(math.prod(entry['tiles']), 'tuile')})"
    if kind == "dice-nets":
        return f"{title} ({entry.get('nets', '')} patrons de dés)"
    if kind == "dice-stickers":
        return f"{title} ({entry.get('stickers', '')} autocollants)"
    if entry.get("up", 1) > 1:
        return f"{title} ({entry['up']} par feuille)"
    return title


def _sides(entry: dict) -> str:
    kind, backs = entry.get("kind", ""), entry.get("backs_mode")
    if kind == "rulebook":
        sides = "recto verso (ou recto seul)"
    elif backs == "duplex":
        sides = "recto verso, bord long"
    elif is_cards(entry) and (backs == "foldover" or entry.get("fold_pairs")):
        sides = "recto seul, à plier"
    else:
        sides = "recto seul"
    copies = entry.get("copies", 1)
    return sides + (f", **{copies} exemplaires**" if copies > 1 else "")


def what_to_print(pp: PaperPrint) -> list[str]:
    name = paper_name(pp.paper)
    lines = [f"## 1. À imprimer sur {name}", "",
             "Imprimez à **100 %** (« taille réelle », jamais « ajuster à la page ») : la barre en bas de "
             "chaque feuille doit mesurer 50 mm.", "",
             "| à imprimer | fichier | pages | impression | papier | feuilles |", "|---|---|---:|---|---|---:|"]
    for row, entry in zip(pp.rows, pp.entries):
        reason = pp.optional(row)
        what = _contents(pp, entry) + (" — *facultatif*" if reason else "")
        lines.append(f"| {what} | {pp.link(row['path'])} | {entry.get('pages', '')} | {_sides(entry)} | "
                     f"{STOCKS[stock_of(row['kind'])]} | {row['double_sided']} |")
    from pipeline.guide.lighter import lighter_prints, optional_files

    lines += [""] + sheet_totals(pp) + optional_files(pp) + lighter_prints(pp) + ink_saver_note(pp)
    if any(e.get("format") == "print" for e in pp.data["outputs"]):
        lines += ["Chez un imprimeur : les fichiers du dossier `print/` (une face par page, 3 mm de fond perdu) "
                  "remplacent ceux-ci.", ""]
    return lines


def stock_subtotals(pp: PaperPrint, optional: bool = False) -> dict[str, dict]:
    """Sheets by paper stock, in the order of STOCKS: double- and single-sided, and what prints on it; the files
    of the headline total, or (optional) the files a print may leave out."""
    found: dict[str, dict] = {}
    for row, entry in zip(pp.rows, pp.entries):
        if bool(row.get("optional")) != optional:
            continue
        stock = found.setdefault(stock_of(row["kind"]), {"double": 0, "single": 0, "titles": []})
        stock["double"] += row["double_sided"]
        stock["single"] += row["single_sided"]
        stock["titles"].append(DICE_FILES.get(row["kind"]) or _title(pp, entry))
    return {key: found[key] for key in STOCKS if key in found}


def sheet_totals(pp: PaperPrint) -> list[str]:
    total = pp.bill.get("totals", {}).get("standard")
    if not total:
        return []
    stated = f"**En tout : {plural(total['double_sided'], 'feuille')} {paper_name(pp.paper)}**"
    if total["single_sided"] != total["double_sided"]:
        stated += (f" si votre imprimante imprime en recto verso ; {total['single_sided']} sinon (les versos sur "
                   f"des feuilles à part, collées dos à dos)")
    if any(row.get("optional") for row in pp.rows):
        stated += ", sans les fichiers facultatifs (ci-dessous)"
    lines = [stated + ". Par papier :", ""]
    for key, stock in stock_subtotals(pp).items():
        lines.append(f"- {STOCKS[key]} : **{plural(stock['double'], 'feuille')}**"
                     + (f" ({stock['single']} en recto seul)" if stock["single"] != stock["double"] else "")
                     + f" — {', '.join(dict.fromkeys(stock['titles']))}")
    return lines + [""]


def ink_saver_note(pp: PaperPrint) -> list[str]:
    totals = pp.bill.get("totals", {})
    if "ink_saver" not in totals:
        return [f"Ces fichiers sont en couleurs. Pour économiser l'encre : `pnp build {pp.data['game']} --ink-saver` "
                f"écrit aussi des versions à fond blanc (`…-ink-saver.pdf`) des cartes et plateaux.", ""]
    standard, saver = totals["standard"], totals["ink_saver"]
    return [f"Ces fichiers sont en couleurs. Pour économiser l'encre, les cartes et plateaux existent aussi en "
            f"version `…-ink-saver.pdf` (fond blanc, contours) : imprimées à la place, elles prennent autant de "
            f"feuilles et environ {num(round(saver['ink_pages_5pc']))} pages d'encre au lieu de "
            f"{num(round(standard['ink_pages_5pc']))} (en pages couvertes à 5 %, l'unité des rendements de "
            f"cartouche).", ""]


# --- 3. what to buy (2. sleeves: pipeline/guide/sleeves.py) ----------------------------------------------------------------------------------

def shopping(pp: PaperPrint) -> list[str]:
    lines = ["## 3. À acheter ou à réunir", "", "| quoi | combien | pour quoi |", "|---|---:|---|"]
    name = paper_name(pp.paper)
    needed, extra = stock_subtotals(pp), stock_subtotals(pp, optional=True)
    for key in [k for k in STOCKS if k in needed or k in extra]:
        more = extra.get(key, {}).get("double", 0)
        count = (f"{plural(needed[key]['double'], 'feuille')}" + (f" (+ {more} pour le facultatif)" if more else "")
                 if key in needed else plural(more, 'feuille'))
        lines.append(f"| {STOCKS[key].capitalize()}, format {name}{'' if key in needed else ' (facultatif)'} | "
                     f"{count} | {STOCK_USES[key]} |")
    for row in sleeve_sizes(pp.data):
        packs = math.ceil(row["count"] / SLEEVE_PACK)
        what = row["sleeve"][1] if row["sleeve"] else f"au moins {size(row['size_mm'])}"
        lines.append(f"| Manchons {what} (facultatif) | {row['count']} (≈ {plural(packs, 'paquet')} de "
                     f"{SLEEVE_PACK}) | {', '.join(md_escape(t) for t in row['titles'])} |")
    for item in pp.guide.shopping:
        lines.append(f"| {md_escape(item['item'])} | {md_escape(item.get('quantity', ''))} | "
                     f"{md_escape(item.get('note', ''))} |")
    kinds = {entry.get("kind") for entry in pp.entries}
    lines.append("| Cutter, règle métallique, tapis de coupe (ou un massicot) | 1 | découper sur les traits |")
    glued = [not row.get("optional") for row, e in zip(pp.rows, pp.entries) if e.get("kind") in ("board", "dice-nets")
             or e.get("backs_mode") == "foldover" or e.get("fold_pairs")]
    if glued:
        lines.append(f"| Colle en bâton{'' if any(glued) else ' (facultatif)'} | 1 | assembler les plateaux, les dés "
                     f"ou les jetons pliés |")
    if "rulebook" in kinds:
        lines.append("| Agrafeuse ou classeur | 1 | tenir les règles |")
    return lines + [""] + ([f"- {md_escape(note)}" for note in pp.guide.notes] + [""] if pp.guide.notes else [])


# --- 4. calibration, 5. cutting and assembly -------------------------------------------------------------------

def calibration(pp: PaperPrint) -> list[str]:
    lines = ["## 4. Avant le premier recto verso : calibrer l'imprimante", ""]
    sheet = pp.calibration_sheet()
    if not pp.duplex():
        return lines + ["Aucun fichier de cette construction ne s'imprime en recto verso : rien à calibrer.", ""]
    if sheet is None:
        return lines + [f"Relancez `pnp build {pp.data['game']} --paper {pp.paper}` pour obtenir la feuille de "
                        f"calibrage avant d'imprimer en recto verso.", ""]
    x, y = pp.data["options"]["back_offset_mm"]
    used = (f"Ces fichiers ont été faits avec `--back-offset {x:g},{y:g}`." if (x, y) != (0, 0)
            else "Ces fichiers ont été faits sans décalage.")
    return lines + [
        "Sur beaucoup d'imprimantes, le verso ne tombe pas exactement derrière le recto. Une fois par "
        "imprimante :", "",
        f"1. Imprimez {pp.link(sheet)} en recto verso (retournement bord long), à 100 %.",
        "2. Regardez la feuille à contre-jour : la croix rouge du verso croise les deux règles graduées du recto. "
        "Lisez les deux nombres, X puis Y, en mm et avec leur signe.",
        f"3. Refaites les fichiers avec ce décalage : `pnp build {pp.data['game']} --paper {pp.paper} "
        f"--back-offset X,Y`. Les repères des coins disent si l'imprimante tourne ou agrandit aussi le verso, "
        f"ce qu'un décalage ne corrige pas.", "", used, ""]


def _titles(pp: PaperPrint, entries: list[dict]) -> str:
    return ", ".join(dict.fromkeys(_title(pp, e) for e in entries))


def _board_step(pp: PaperPrint, boards: list[dict], first: bool = True) -> str:
    listed = ", ".join(f"{md_escape(b.get('title', ''))} ({pp.link(b['path'])}"
                       + (f", {plural(math.prod(b['tiles']), 'tuile')}" if b.get("tiles") else "")
                       + (f", à monter **{b['copies']} fois**" if b.get("copies", 1) > 1 else "") + ")"
                       for b in boards)
    head = "**Plateaux d'abord**, la colle sèche pendant que vous découpez le reste" if first else "**Plateaux**"
    return (f"{head} : {listed}. Coupez chaque tuile sur sa ligne pointillée, posez-la sur la bande hachurée de sa "
            f"voisine (recouvrement de {num(boards[0].get('overlap_mm', 10))} mm) en faisant coïncider les cibles, dans l'ordre du plan de "
            f"montage, et collez. Laissez sécher à plat sous des livres.")


def _card_step(pp: PaperPrint, cards: list[dict]) -> str:
    shared = any(e.get("bleed_mode") == "shared-cut" for e in cards)
    text = f"**Cartes** ({_titles(pp, cards)}) : "
    if any(e.get("backs_mode") == "foldover" for e in cards):
        text += ("pliez d'abord chaque feuille sur sa ligne de pli, collez-la sur toute sa surface et laissez-la "
                 "sécher sous un livre (recto et verso restent alignés) ; ensuite ")
    text += ("coupez les longs traits qui traversent toute la feuille, puis les courts ; les cartes se touchent, "
             "un trait en sépare deux." if shared else "coupez chaque carte sur ses traits.")
    if any(e.get("backs_mode") == "duplex" for e in cards):
        text += (" Avant de couper une feuille recto verso, regardez-la à contre-jour : un verso décalé de plus "
                 "d'un millimètre demande un calibrage (section 4).")
    return text + (" Puis glissez-les dans leurs manchons (section 2)." if sleeve_sizes(pp.data) else "")


def _token_step(pp: PaperPrint, tokens: list[dict]) -> str:
    text = (f"**Jetons et pions** ({_titles(pp, tokens)}) ensuite, les plus petits : coupez la feuille en bandes, "
            "puis chaque bande en carrés, au cutter et à la règle métallique.")
    if any(e.get("fold_pairs") for e in tokens):
        text += (" Un jeton à deux faces est imprimé à côté de son dos : découpez la paire d'un seul tenant, pliez-la "
                 "sur sa ligne pointillée (les petits triangles gris la montrent) et collez les deux moitiés "
                 "l'une contre l'autre ; le dos tombe juste derrière sa face, quelle que soit l'imprimante.")
    if any(e.get("backs_mode") == "foldover" for e in tokens):
        text += (" Une feuille à plier se plie sur sa ligne de pli et se colle, toute la surface, avant d'être "
                 "découpée : recto et verso restent alignés.")
    if any(e.get("backs_mode") == "duplex" for e in tokens):
        text += " Un jeton recto verso se vérifie à contre-jour avant la découpe."
    return text


def _dice_step(pp: PaperPrint, entry: dict) -> str:
    if entry["kind"] == "dice-nets":
        return (f"**Dés à plier** ({pp.link(entry['path'])}) : {entry.get('nets', '')} patrons de dés de "
                f"{num(entry.get('face_mm', 16))} mm, {entry.get('nets_per_page', '')} par page ; découpez le "
                "contour plein, marquez les pointillés à la règle, pliez et collez les languettes grises à "
                "l'intérieur.")
    return (f"**Autocollants de dés** ({pp.link(entry['path'])}) : {entry.get('stickers', '')} "
            f"autocollants de {num(entry.get('sticker_mm', 13))} mm pour des dés vierges de 16 mm ; coupez les "
            "bandes entre les repères, puis les carrés. Faces opposées : 1 et 6, 2 et 5, 3 et 4.")


def _steps(pp: PaperPrint, entries: list[dict], first: bool = True) -> list[str]:
    """Boards (first: their glue dries meanwhile), cards, tokens (the smallest), dice, pages, rules."""
    steps, pages = [], [e for e in entries if e.get("kind") == "pages"]
    boards = [e for e in entries if e.get("kind") == "board"]
    cards = [e for e in entries if is_cards(e) and not pp.is_token(e)]
    tokens = [e for e in entries if pp.is_token(e)]
    steps += [_board_step(pp, boards, first)] if boards else []
    steps += [_card_step(pp, cards)] if cards else []
    steps += [_token_step(pp, tokens)] if tokens else []
    steps += [_dice_step(pp, e) for e in entries if e.get("kind") in DICE_FILES]
    halves = [e for e in pages if e.get("up", 1) > 1]
    if halves:
        steps.append(f"**{_titles(pp, halves)}** : {halves[0]['up']} exemplaires par feuille, coupez-la en deux.")
    written = [e for e in pages if e.get("up", 1) == 1 and e.get("component") in pp.guide.write_on]
    if written:
        steps.append(f"**{_titles(pp, written)}** : rien à couper. On y écrit pendant la partie : gardez un "
                     "original de chaque feuille pour la photocopier.")
    whole = [e for e in pages if e.get("up", 1) == 1 and e not in written]
    steps += [f"**{_titles(pp, whole)}** : rien à couper."] if whole else []
    if any(e.get("kind") == "rulebook" for e in entries):
        steps.append("**Règles** : agrafez-les ou rangez-les dans un classeur.")
    return steps


def assembly(pp: PaperPrint) -> list[str]:
    """What every print needs first, with the game's own steps; then the files a print may leave out."""
    optional = [e for row, e in zip(pp.rows, pp.entries) if row.get("optional")]
    steps = _steps(pp, [e for _, e in pp.required()]) + [md_escape(step) for step in pp.guide.assembly]
    steps += [f"*Facultatif, si vous l'avez imprimé* : {step}" for step in _steps(pp, optional, first=False)]
    return ["## 5. Découpe et assemblage, dans l'ordre", ""] + [f"{i}. {s}" for i, s in enumerate(steps, 1)] + [""]


# --- the whole guide -------------------------------------------------------------------------------------------

def guide_lines(data: dict, paper: str, guide: GameGuide) -> list[str]:
    """The guide of one paper, headings and all."""
    pp = PaperPrint(data, paper, guide)
    others = [p for p in data["paper_bill"] if p != paper]
    lines = [f"# {md_escape(data['title'])} — guide d'impression, papier {paper_name(paper)}", "",
             "Tout ce qu'il faut pour imprimer, découper et monter ce prototype chez soi, dans l'ordre."]
    lines += [f"Vous imprimez sur {paper_name(p)} ? Ouvrez [{guide_name(p)}]({guide_name(p)})." for p in others]
    lines.append("")
    return (lines + what_to_print(pp) + one_box(pp) + sleeves(data) + shopping(pp)
            + calibration(pp) + foldover_files(pp) + assembly(pp) + edition(data))


def guide_markdown(data: dict, paper: str, guide: GameGuide) -> str:
    return "\n".join(guide_lines(data, paper, guide)) + "\n"
