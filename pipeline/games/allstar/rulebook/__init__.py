"""What All-Star Draft's rulebook chapters (templates/allstar/rules/*.md) see, and the figures they may show."""

from __future__ import annotations

from pipeline.data.specs import CardDeck, FaceSpec, PageSpec, Records, RulebookSpec
from pipeline.games.allstar.components import (COLOURS, MEDALS, arena_context, colours, icon_list, parameters,
                                               playoff_table, tiebreak_context)
from pipeline.games.allstar.rulebook.diagrams import diagram_figures

COLOUR_WORDS = {"yellow": "jaune", "blue": "bleu", "red": "rouge", "green": "vert", "orange": "orange",
                "purple": "violet", "brown": "marron", "grey": "gris", "black": "noir", "white": "blanc",
                "pink": "rose"}


def coloradd_words(code: str) -> str:
    """"dark_blue" -> "bleu foncé": the ColorADD code in words, for the rulebook's species table."""
    shade, _, base = code.rpartition("_")
    words = COLOUR_WORDS.get(base, base)
    return {"light": f"{words} clair", "dark": f"{words} foncé"}.get(shade, words)


def rulebook_context(records: Records, rules: dict) -> dict:
    species = [{**rec.values, "coloradd_name": coloradd_words(rec["coloradd_code"])} for rec in records["species"]]
    arenas = [arena_context(rec) for rec in records["arenas"]]
    orders = {}
    for side in ("2-4", "5-6"):
        criteria = tiebreak_context(records, side)["criteria"]
        orders[side] = {c["attribute"]: [v["label"] for v in c["values"]] for c in criteria}
    tiebreak = {side: [{"medal": medal, "attribute": c["attribute"], "label": c["label"]}
                       for medal, c in zip(MEDALS, tiebreak_context(records, side)["criteria"])]
                for side in ("2-4", "5-6")}
    tickets = []
    for n in range(rules["players_min"], rules["players_max"] + 1):
        per = rules["tickets_2"] if n == 2 else rules["tickets_3"] if n == 3 else rules["tickets_4plus"]
        bonus = rules["ticket_bonus_2"] if n == 2 else rules["ticket_bonus_3"] if n == 3 else 0
        tickets.append({"managers": n, "per_manager": per, "bonus": bonus})
    per_species = 9
    decks = [{"managers": n, "species": rules["species_per_manager"] * n,
              "cards": rules["species_per_manager"] * n * per_species}
             for n in range(rules["players_min"], rules["players_max"] + 1)]
    modes = {"heritage": {"species": rules["duo_species"], "cards": rules["duo_species"] * per_species,
                          "hand": rules["duo_hand_size"]},
             "duel": {"species": rules["duo_species"], "cards": rules["duo_species"] * per_species,
                      "hand": rules["duo_hand_size"]},
             "open_market": {"species": rules["open_market_species"],
                             "cards": rules["open_market_species"] * per_species}}
    manifest = {r["component"]: r["count"] for r in records["components"]}
    counts = {"hockey": len(records["hockey"]), "species": len(species), "symbols": len(records["symbols"]),
              "numbers": per_species, "arenas": len(arenas),
              "arenas_for_2": sum(1 for a in arenas if "not_for_2" not in a["icons"]),
              "fanzones": manifest.get("fanzone", len(COLOURS)), "busstation": manifest.get("busstation", 1),
              "tiebreak": manifest.get("tiebreak", 6), "playoffpts": manifest.get("playoffpts", 2),
              "bus": manifest.get("bus", 18), "supporter": manifest.get("supporter", 12),
              "ticket": manifest.get("ticket", 4)}
    return {"game": {"title": "All-Star Draft"}, "rules": rules, "counts": counts, "species": species,
            "symbols": [dict(r.values) for r in records["symbols"]], "colours": colours(), "orders": orders,
            "tiebreak": tiebreak, "arenas": arenas, "icons": icon_list(), "playoff_points": playoff_table(records),
            "tickets": tickets, "decks": decks, "modes": modes}


def rulebook_figures(parts: list) -> dict[str, FaceSpec]:
    figures: dict[str, FaceSpec] = {}
    for part in parts:
        if isinstance(part, PageSpec):
            figures[part.id] = part.faces[0]
            continue
        if not isinstance(part, CardDeck):
            continue
        for index, face in enumerate(part.fronts):
            back = part.backs[index] if part.backs else None
            if part.id == "hockey":
                figures[f"card-hockey-{face.name}"] = face
                figures.setdefault("back-hockey", back)
            elif part.id == "arenas":
                figures[f"card-arena-{face.name}"] = face
                figures.setdefault("back-arena", back)
            elif part.id == "tiebreak":
                figures.setdefault("tiebreak-2-4", face)
                figures.setdefault("tiebreak-5-6", back)
            elif part.id == "playoff":
                figures.setdefault("playoff", face)
            elif part.id == "buses":
                figures[face.name] = face
            elif part.id == "supporters":
                figures.setdefault(face.name.rsplit("-", 1)[0], face)
            elif part.id == "tickets":
                figures.setdefault("ticket", face)
            else:                                  # fanzone-<colour>, busstation
                figures[face.name] = face
    return figures


def with_rulebook(records: Records, parts: list) -> list:
    """The printed components and, last, the rulebook showing them."""
    rules = parameters(records)
    context = rulebook_context(records, rules)
    figures = rulebook_figures(parts) | diagram_figures(rules, context)
    return [*parts, RulebookSpec("rulebook", "Règles du jeu", "rules", context, figures)]
