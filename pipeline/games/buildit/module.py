"""Build It plugged into the pipeline."""

from __future__ import annotations

from pathlib import Path

from pipeline.errors import Report
from pipeline.games.base import GameModule, Records
from pipeline.games.buildit import checks, components
from pipeline.games.buildit.schema import CITIES, CONTRACTS, NORMAL_CARDS, RULES
from pipeline.manifest import COMPONENTS_SPEC


def _rule_checks(records: Records, report: Report) -> None:
    checks.check_rows(records, report)
    if not report.errors:
        checks.check_rules(records, report)


def game_module(root: Path) -> GameModule:
    return GameModule(
        id="buildit",
        title="Build It",
        data_files=(root / "sheets" / "buildit.xlsx",),
        sheets=(CITIES, CONTRACTS, NORMAL_CARDS, RULES, COMPONENTS_SPEC),
        template_dir=root / "templates" / "buildit",
        components=components.components,
        rule_checks=_rule_checks,
        summary=checks.summary,
        simulation=_simulation(),
    )


def _simulation():
    from pipeline.games.buildit.play import SIMULATION

    return SIMULATION
