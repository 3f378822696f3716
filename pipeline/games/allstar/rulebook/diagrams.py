"""All-Star Draft's drawn rulebook figures, at print size in a rulebook column (80 mm): the Station de Bus
during the chapter's three-manager match, a manager's buses sending his teams to the Arenas, and a score
past one lap of the Fan Zone's track. Positions
follow the data: the columns from the rules' team size, the tie order from the Tie-Breakers card, the colours
from the tokens'."""

from __future__ import annotations

from pipeline.data.specs import FaceSpec
from pipeline.games.allstar.components import colours, fan_track, supporter_side

WIDTH = 80.0


def _ink(hex_colour: str) -> str:
    """bus.yaml's ink: the colour itself, or a dark gold when it is too light to read on white."""
    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    return "#7A5A00" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else hex_colour


def station_match(rules: dict, tiebreak: dict) -> FaceSpec:
    """Aline (Puissance team_size), Éric and Magalie (Puissance 3 each, the Tie-Breakers' order for 2-4
    managers between Symbole and Espèce): chapter « La Puissance », « La Station de Bus en action »."""
    by_id = {c["id"]: c for c in colours()}
    columns = list(range(rules["team_size"], 0, -1))
    criteria = [c["attribute"] for c in tiebreak["2-4"]]
    eric_first = criteria.index("symbol") < criteria.index("species")
    tied = [("Éric", "yellow"), ("Magalie", "red")]
    if not eric_first:
        tied.reverse()
    placed = [("Aline", "blue", rules["team_size"], 0)] + [(name, colour, 3, k) for k, (name, colour) in enumerate(tied)]
    buses = []
    for place, (name, colour, power, slot) in enumerate(placed, start=1):
        hex_colour = by_id[colour]["hex"]
        buses.append({"column": columns.index(power), "slot": slot, "hex": hex_colour,
                      "ink": _ink(hex_colour), "value": 1, "name": name, "place": f"{place}{'re' if place == 1 else 'e'}"})
    size = (WIDTH, 42.0)
    return FaceSpec("fig-station.yaml", {"size": list(size), "columns": columns, "buses": buses}, None,
                    "station-match", size_mm=size, legible=True)


def thierry_buses(rules: dict, round_number: int = 3) -> FaceSpec:
    """Round `round_number`: the bus in front of each of Thierry's teams, oldest first, and its Arena."""
    colour = next(c for c in colours() if c["id"] == "green")
    teams = [{"label": f"De la manche {k}" if k < round_number else "Nouvelle équipe",
              "bus": round_number + 1 - k, "arena": round_number + 1 - k} for k in range(1, round_number + 1)]
    size = (WIDTH, 35.0)
    return FaceSpec("fig-buses.yaml", {"size": list(size), "team_size": rules["team_size"], "teams": teams,
                                       "hex": colour["hex"], "ink": _ink(colour["hex"])}, None, "buses-round",
                    size_mm=size, legible=True)


def fanzone_lap(rules: dict) -> FaceSpec:
    """A score past one lap of the Fan Zone track (its length + 7): the token on space 7, the second on +N."""
    track, length = fan_track(rules["track_length"]), rules["track_length"]
    colour = next(c for c in colours() if c["id"] == "blue")
    size = (4 + track["cols"] * track["cell_w"], 2 + track["rows"] * track["cell_h"] + 1.5 + 9 + 2)
    context = {"size": list(size), "track": track, "track_length": length, "score": length + 7,
               "token": supporter_side(track), "hex": colour["hex"], "ink": _ink(colour["hex"])}
    return FaceSpec("fig-fanzone.yaml", context, None, "fanzone-lap", size_mm=size, legible=True)


def diagram_figures(rules: dict, context: dict) -> dict[str, FaceSpec]:
    return {"station-match": station_match(rules, context["tiebreak"]), "buses-round": thierry_buses(rules),
            "fanzone-lap": fanzone_lap(rules)}
