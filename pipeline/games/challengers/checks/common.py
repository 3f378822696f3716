"""What the checks of both stages share: the sets by role, a sheet-wide location, the rule parameters."""

from __future__ import annotations

from pipeline.core.errors import SourceRef
from pipeline.data.params import rules
from pipeline.data.schema import Record, suggest
from pipeline.data.specs import Records
from pipeline.games.challengers.schema import RULE_PARAMETERS

WHEN_SELECTED_SET = "space"          # the one set built on *When selected* (§2.5, §3.4)
PILE_PER_PLAYER = 9                  # CH-A21: a level pile holds at least 9 cards per player
DEFAULTS = {"players_max": 8, "rounds": 7, "sets_per_game": 5, "hand_size": 5}


def params(records: Records) -> dict:
    """The typed rule parameters over this edition's defaults (a rules sheet that does not read is stage 2's)."""
    try:
        return {**DEFAULTS, **rules(records, RULE_PARAMETERS).values}
    except (ValueError, KeyError):
        return dict(DEFAULTS)


def param_ref(records: Records, name: str) -> SourceRef:
    try:
        ref = rules(records, RULE_PARAMETERS).at(name)
    except (ValueError, KeyError):
        ref = None
    return ref or sheet_ref(records, "rules")


def sheet_ref(records: Records, sheet: str) -> SourceRef:
    """The whole sheet, for a problem no single cell holds (a missing round)."""
    for recs in records.values():
        if recs:
            return SourceRef(recs[0].ref.file, sheet)
    return SourceRef("", sheet)


def city_sets(records: Records) -> list[Record]:
    return [s for s in records["sets"] if s["always_used"]]


def robot_sets(records: Records) -> list[Record]:
    return [s for s in records["sets"] if s["robot"]]


def drafted_sets(records: Records) -> list[Record]:
    """The sets a game draws sets_per_game of: neither always used nor the robot's."""
    return [s for s in records["sets"] if not s["always_used"] and not s["robot"]]


def reference(rec: Record, column: str, known, sheet: str, report, what: str | None = None) -> bool:
    """An id that must name a row of `sheet`: error on its cell with the closest id; True when it does."""
    value = rec[column]
    if value is None or value in known:
        return value is not None
    report.error(rec.at(column), f"no {what or column} {value!r} in sheet {sheet}{suggest(str(value), tuple(known))}",
                 "reference")
    return False
