"""All-Star Draft plugged into the pipeline."""

from __future__ import annotations

from pathlib import Path

from pipeline.games.allstar import checks, components
from pipeline.games.allstar.schema import (ARENAS, HOCKEY, ORDERS, PLAYOFF_POINTS, RULES, SPECIES, SYMBOLS,
                                           TIEBREAK_SIDES)
from pipeline.games.base import GameModule, staged_checks
from pipeline.manifest import COMPONENTS_SPEC


def game_module(root: Path) -> GameModule:
    from pipeline.games.allstar.play import SIMULATION

    return GameModule(
        id="allstar",
        title="All-Star Draft",
        data_files=(root / "sheets" / "allstar.xlsx",),
        sheets=(SPECIES, SYMBOLS, HOCKEY, ORDERS, TIEBREAK_SIDES, ARENAS, PLAYOFF_POINTS, RULES, COMPONENTS_SPEC),
        template_dir=root / "templates" / "allstar",
        components=_components,
        rule_checks=staged_checks(checks.check_rows, checks.check_rules),
        summary=checks.summary,
        simulation=SIMULATION,
    )


def _components(records):
    from pipeline.games.allstar.rulebook import with_rulebook

    return with_rulebook(records, components.components(records))
