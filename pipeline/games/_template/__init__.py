"""TEMPLATE for a new game: a small dice race that validates, plays, builds and prints from the first copy, so
a new game starts from something that works and changes it room by room.

The Python rooms are this folder, the same in every game (tests/games/test_game_rooms.py): this file holds the
game record (game_module, wired by pipeline/games/kit.py game_record) and the simulation record (SIMULATION);
schema.py the sheets and rule parameters; checks.py stages 3 and 5; components.py what is printed;
rulebook.py what the chapters see; bots.py the players; engine/ the pure rules, with the phase-table idiom.

The designer's files are in skeleton/, laid out as the project root is: skeleton/sheets/template.xlsx (the
workbook: the runners sheet, `rules`, `balance` and the `components` manifest) and skeleton/templates/template/
(a card front and back, the rulebook's cover and one chapter, in French). They live here, not in sheets/ and
templates/, so they travel with the code that reads them and the skeleton is never a game of the project:
it is not in REGISTRY, `pnp list` and `pnp build` do not see it. tests/games/test_template_skeleton.py builds it
in a scratch project.

A new game <id> (lower-case letters, digits, _):
1. cp -r pipeline/games/_template pipeline/games/<id>
   mv pipeline/games/<id>/skeleton/sheets/template.xlsx sheets/<id>.xlsx
   mv pipeline/games/<id>/skeleton/templates/template templates/<id>
   rm -r pipeline/games/<id>/skeleton
2. In pipeline/games/<id>/: `pipeline.games._template` becomes `pipeline.games.<id>` in every import
   (grep -rl games._template pipeline/games/<id> | xargs sed -i 's/games\\._template/games.<id>/g'), GAME_ID
   and TITLE below become the game's, as does the title in rulebook.py; each "TEMPLATE:" docstring says what
   the room holds.
3. Register it in pipeline/games/__init__.py: a loader `_<id>(root)` like the others, and "<id>": _<id> in
   REGISTRY. `pnp validate <id>` and `pnp build <id>` then work; tests/games/test_template_skeleton.py is a start
   for the game's own tests."""

from __future__ import annotations

from pathlib import Path

from pipeline.data.specs import GameModule, Records
from pipeline.games._template.bots import BOTS
from pipeline.games._template.schema import RULE_PARAMETERS
from pipeline.games.kit import game_record, players_from_rules
from pipeline.play.contract import Simulation, blame_rows, other_readings

GAME_ID = "template"        # sheets/<GAME_ID>.xlsx, templates/<GAME_ID>/, output/<GAME_ID>/
TITLE = "Template"


def game_module(root: Path) -> GameModule:
    from pipeline.games._template import checks
    from pipeline.games._template.schema import BALANCE, RULES, RUNNERS

    return game_record(GAME_ID, TITLE, root, (RUNNERS, RULES, BALANCE),
                       checks=checks, components=_components, simulation=SIMULATION,
                       rule_parameters=RULE_PARAMETERS,
                       author="",           # the designers' names, every PDF's Author (empty: "Auteurs de <title>")
                       keywords=())         # what the game is, in its language: first in every PDF's Keywords


def _components(records: Records) -> list:
    from pipeline.games._template import components
    from pipeline.games._template.rulebook import with_rulebook

    return with_rulebook(records, components.components(records))


# --- the simulation record ----------------------------------------------------------------------------------

def new_game(records: Records, players: int):
    from pipeline.games._template import engine
    from pipeline.games._template.components import parameters

    return engine.new_game(parameters(records), players)


# the points the rulebook leaves open: (rules parameter, its readings); `pnp simulate` compares them
READINGS = other_readings(("end_rule", ("after_round", "at_once")))

SIMULATION = Simulation(new_game=new_game, bots=BOTS, players=players_from_rules(RULE_PARAMETERS),
                        default_players=2, blame=blame_rows, readings=READINGS)
