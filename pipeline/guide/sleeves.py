"""Section 2 of the print guide: the sleeves for each card size a game shuffles, under the names shops sell them by
(the sizes are pipeline/guide/data.py's SLEEVES)."""

from __future__ import annotations

import math

from pipeline.guide.data import num, size, sleeve_for, takes_a_sleeve
from pipeline.render.markup import md_escape

SLEEVE_PACK = 100                # sleeves are sold by the hundred, more or less


def sleeve_sizes(data: dict) -> list[dict]:
    """One row per card size that takes sleeves: the size, the cards, how many, the sleeve sold for it."""
    sizes: dict[tuple, dict] = {}
    for component in data["components"]:
        if takes_a_sleeve(component):
            key = tuple(sorted(component["size_mm"]))
            row = sizes.setdefault(key, {"size_mm": list(key), "titles": [], "count": 0,
                                         "sleeve": sleeve_for(key)})
            row["titles"].append(component["title"])
            row["count"] += component.get("count") or 0
    return list(sizes.values())


def sleeve_text(row: dict) -> str:
    if row["sleeve"] is None:
        short, long = row["size_mm"]
        return (f"pas de format courant pour {size(row['size_mm'])} : des manchons d'au moins "
                f"{num(math.ceil(short + 1))} × {num(math.ceil(long + 1))} mm, ou pas de manchon")
    (width, height), name = row["sleeve"]
    return f"« {name} », vendus pour des cartes de {size((width, height))}"


def sleeves(data: dict) -> list[str]:
    rows = sleeve_sizes(data)
    lines = ["## 2. Manchons", ""]
    if not rows:
        return lines + ["Aucune carte de ce jeu ne se met en manchon.", ""]
    lines += ["Facultatifs, mais des cartes en manchon se mélangent mieux et ne s'usent pas. Les manchons se "
              "vendent par la taille des cartes qu'ils reçoivent :", "",
              "| cartes | taille | nombre | manchons |", "|---|---|---:|---|"]
    for row in rows:
        lines.append(f"| {', '.join(md_escape(t) for t in row['titles'])} | {size(row['size_mm'])} | "
                     f"{row['count']} | {sleeve_text(row)} |")
    return lines + ["", "Avec des manchons, les cartes peuvent aussi s'imprimer sur du papier 80 g, glissé devant une "
                        "vieille carte à jouer : aussi rigide, moins de bristol.", ""]
