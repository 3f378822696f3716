"""TEMPLATE: validation stages 3 (rows together) and 5 (the game's invariants), and the lines
`pnp validate <game>` prints. Report every problem on its cell (record.at(column)), never raise."""

from __future__ import annotations

from pipeline.core.errors import Report
from pipeline.data.params import rules
from pipeline.data.specs import Records
from pipeline.games._template.components import TRACK_SQUARES
from pipeline.games._template.schema import RULE_PARAMETERS


def check_rows(records: Records, report: Report) -> None:
    """Stage 3: references between sheets, fields that belong together. Here: two runners never share a
    colour or a symbol, or two players could not tell their runners apart."""
    for column in ("colour", "symbol"):
        seen: dict[str, str] = {}
        for rec in records["runners"]:
            key = str(rec[column]).upper()
            if key in seen:
                report.error(rec.at(column), f"{rec['id']} has the {column} {rec[column]} of {seen[key]}", "unique")
            seen.setdefault(key, rec["id"])


def check_rules(records: Records, report: Report) -> None:
    """Stage 5: invariants of the game (counts the rulebook announces, plans that fit the board…). Here: a
    runner card for every seat, a player range that reads the right way round, a track the card can print."""
    params = rules(records, RULE_PARAMETERS)
    if params["target"] > TRACK_SQUARES:
        report.error(params.at("target"), f"target {params['target']}: the runner card's track prints "
                                          f"{TRACK_SQUARES} squares at most", "rules")
    if params["players_min"] > params["players_max"]:
        report.error(params.at("players_min"), f"players_min {params['players_min']} is above players_max "
                                               f"{params['players_max']}", "rules")
    if len(records["runners"]) < params["players_max"]:
        report.error(params.at("players_max"), f"{params['players_max']} players need as many runner cards; "
                                               f"the runners sheet has {len(records['runners'])}", "rules")


def summary(records: Records) -> list[str]:
    params = rules(records, RULE_PARAMETERS)
    return [f"{len(records['runners'])} runners race to square {params['target']} "
            f"({params['players_min']} to {params['players_max']} players)"]
