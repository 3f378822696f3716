"""TEMPLATE for a fourth game: copy this folder to pipeline/games/<game>/, rename `template` and register
game_module in pipeline/games/__init__.py (REGISTRY). The rooms are the same in every game
(tests/test_game_rooms.py): this file holds the game record and the simulation record; schema.py the
sheets and rule parameters; checks, components, rulebook and bots; engine/ the pure rules. The example
game is a dice race, so the skeleton runs and its tests pass from the first copy."""

from __future__ import annotations

from pathlib import Path

from pipeline.data.specs import GameModule, Records
from pipeline.games._template.bots import BOTS
from pipeline.games.kit import staged_checks
from pipeline.play.contract import Simulation, blame_rows, other_readings

GAME_ID = "template"


def game_module(root: Path) -> GameModule:
    from pipeline.data.manifest import COMPONENTS_SPEC
    from pipeline.games._template import checks, components, schema
    from pipeline.games._template.schema import RULES

    return GameModule(
        id=GAME_ID,
        title="Template",
        data_files=(root / "sheets" / f"{GAME_ID}.xlsx",),
        sheets=(RULES, COMPONENTS_SPEC),
        template_dir=root / "templates" / GAME_ID,
        components=components.components,
        rule_checks=staged_checks(checks.check_rows, checks.check_rules),
        summary=checks.summary,
        simulation=SIMULATION,
        rule_parameters=schema.RULE_PARAMETERS,
        author="",                  # the designers' names, every PDF's Author (empty: "Auteurs de <title>")
        keywords=(),                # what the game is, in its language: first in every PDF's Keywords
    )


def new_game(records: Records, players: int):
    from pipeline.games._template import engine
    from pipeline.games._template.components import parameters

    return engine.new_game(parameters(records), players)


# the points the rulebook leaves open: (rules parameter, its readings); `pnp simulate` compares them
READINGS = other_readings(("end_rule", ("after_round", "at_once")))

SIMULATION = Simulation(new_game=new_game, bots=BOTS, players=(2, 4), default_players=2, blame=blame_rows,
                        readings=READINGS)
