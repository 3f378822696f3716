"""Build It plugged into the pipeline."""

from __future__ import annotations

from pathlib import Path

from pipeline.games.base import GameModule, staged_checks
from pipeline.games.buildit import checks, components
from pipeline.games.buildit.schema import CITIES, CONTRACTS, NORMAL_CARDS, RULES
from pipeline.manifest import COMPONENTS_SPEC


def game_module(root: Path) -> GameModule:
    return GameModule(
        id="buildit",
        title="Build It",
        data_files=(root / "sheets" / "buildit.xlsx",),
        sheets=(CITIES, CONTRACTS, NORMAL_CARDS, RULES, COMPONENTS_SPEC),
        template_dir=root / "templates" / "buildit",
        components=_components,
        rule_checks=staged_checks(checks.check_rows, checks.check_rules),
        summary=checks.summary,
        simulation=_simulation(),
    )


def _components(records):
    from pipeline.games.buildit.rulebook import with_rulebook

    return with_rulebook(records, components.components(records))


def _simulation():
    from pipeline.games.buildit.play import SIMULATION

    return SIMULATION
