"""Fightball, a real-time card game for two coaches (shared/games/fightball.md): the game record the registry
loads (game_module) and the simulation record (SIMULATION) that plugs its rules engine into `pnp simulate`
and validation stage 6.

Rooms, as in every game (games/_template/): schema.py, checks.py, components.py, rulebook/, bots.py,
play.py (records -> engine), engine/ (the pure rules: the stack scorer and the fast-round race)."""

from __future__ import annotations

from pathlib import Path

from pipeline.games.base import GameModule, Sides, Simulation, Sweep, staged_checks
from pipeline.games.fightball.bots import BOTS
from pipeline.games.fightball.play import READINGS, new_game, nominal
from pipeline.games.kit import blame_rows

GAME_ID = "fightball"


def game_module(root: Path) -> GameModule:
    from pipeline.games.fightball import checks, schema
    from pipeline.manifest import COMPONENTS_SPEC

    return GameModule(
        id=GAME_ID,
        title="Fightball",
        data_files=(root / "sheets" / f"{GAME_ID}.xlsx",),
        sheets=(schema.TEAMS, schema.PLAYERS, schema.SHOTS, schema.EFFECTS, schema.EFFECT_OPS, schema.RULES,
                COMPONENTS_SPEC),
        template_dir=root / "templates" / GAME_ID,
        components=_components,
        rule_checks=staged_checks(checks.check_rows, checks.check_rules),
        summary=checks.summary,
        simulation=SIMULATION,
        rule_parameters=schema.RULE_PARAMETERS,
        author="Auteurs de Fightball (règles originales en français), prototype pnp",   # placeholder
        keywords=("jeu de cartes", "temps réel", "sport", "2 joueurs"),
    )


def _components(records):
    from pipeline.games.fightball import components
    from pipeline.games.fightball.rulebook import with_rulebook

    return with_rulebook(records, components.components(records))


# the two decks a game matches (`pnp simulate fightball --teams eclairs,remparts`, `--matchups`); what raw
# speed buys (north's share of the race 0.4 / 0.5 / 0.6); each card played on the field vs thrown away
SIDES = Sides(("team_north", "team_south"), lambda records: [rec["id"] for rec in records["teams"]])
SPEED = Sweep(("speed_north", "speed_south"), ((40, 60), (50, 50), (60, 40)), "north's speed share",
              lambda setting: setting[0] / (setting[0] + setting[1]))
SIMULATION = Simulation(new_game=new_game, bots=BOTS, players=(2, 2), default_players=2, blame=blame_rows,
                        nominal=nominal, readings=READINGS, sides=SIDES, sweeps=(SPEED,),
                        paired=(("played", "discarded"),))
