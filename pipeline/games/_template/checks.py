"""TEMPLATE: validation stages 3 (rows together) and 5 (the game's invariants), and the lines
`pnp validate <game>` prints. Report every problem on its cell (record.at(column)), never raise."""

from __future__ import annotations

from pipeline.core.errors import Report
from pipeline.data.specs import Records


def check_rows(records: Records, report: Report) -> None:
    """Stage 3: references between sheets, fields that belong together."""


def check_rules(records: Records, report: Report) -> None:
    """Stage 5: invariants of the game (counts the rulebook announces, plans that fit the board…)."""


def summary(records: Records) -> list[str]:
    return []
