"""NBA Deck-Building plugged into the pipeline."""

from __future__ import annotations

from pathlib import Path

from pipeline.games.base import GameModule, staged_checks
from pipeline.games.nba import checks, checks_rules, components
from pipeline.games.nba.schema import DICE_SHEET, DURATIONS, FATIGUE, PLAYERS, RULES, SKILL_SHEET, TACTICS
from pipeline.manifest import COMPONENTS_SPEC


def game_module(root: Path) -> GameModule:
    from pipeline.games.nba.play import SIMULATION

    return GameModule(
        id="nba",
        title="NBA Deck-Building",
        data_files=(root / "sheets" / "nba.xlsx",),
        sheets=(SKILL_SHEET, DICE_SHEET, PLAYERS, TACTICS, FATIGUE, DURATIONS, RULES, COMPONENTS_SPEC),
        template_dir=root / "templates" / "nba",
        components=components.components,
        rule_checks=staged_checks(checks.check_rows, checks_rules.check_rules),
        summary=checks_rules.summary,
        simulation=SIMULATION,
    )
