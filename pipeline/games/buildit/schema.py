"""Build It's sheets (shared/games/build-it.md §6): column specs, rule parameters, typed records."""

from __future__ import annotations

from pipeline.data.balance import BALANCE_SHEET
from pipeline.data.params import RULES_SHEET, rule_parameters
from pipeline.data.schema import Column, SheetSpec
from pipeline.games.buildit.engine.data import PARAMETERS

REWARD_TYPES = ("gold", "points", "immunity")
COST_RULES = ("fixed", "per_plot", "paid_to_target")
TIMINGS = ("own_turn", "any_time")
TARGETS = ("self", "other", "none")
IMMUNE_TARGETS = ("shoddy_tools", "pass_a38")

_ID = "Identifier: lower-case letters, digits and _ (used in logs, tests and PNG file names)."
_ART = "Optional art file, relative to templates/buildit/art/ (PNG, JPEG or SVG); empty = no art."

CONTRACTS = SheetSpec(
    name="contracts", id_column="id", quantity_column="copies",
    doc="Contract cards: a plan to build and the reward for building it.",
    columns=(
        Column("id", doc=_ID),
        Column("name", doc="Name printed on the card (French).", max_length=40),
        Column("plots", "int", min=1, max=64, doc="Number of plots of the plan (1–64)."),
        Column("plan", "plan", doc="The plan: rows of # (plot) and . (empty) separated by /, e.g. #./.# "
                                  "for the diagonal domino. Rotations and reflections count as the same plan."),
        Column("reward_type", "enum", choices=REWARD_TYPES,
               doc="gold (paid when built), points (counted at the end) or immunity (to one card)."),
        Column("reward_value", "int", required=False, min=1, max=99,
               doc="Gold or points of the reward; empty for immunity."),
        Column("immune_to", "enum", required=False, choices=IMMUNE_TARGETS,
               doc="For immunity: the Normal card id it protects against (shoddy_tools or pass_a38)."),
        Column("copies", "int", min=0, max=99, doc="Number of copies of this card in the deck."),
        Column("text", required=False, max_length=160, doc="Flavour or rule reminder printed on the card (French)."),
        Column("art", "path", required=False, doc=_ART),
    ),
)

CITIES = SheetSpec(
    name="cities", id_column="id",
    doc="City cards: three plans worth 3, 2 and 1 stars at the end of the game.",
    columns=(
        Column("id", doc=_ID),
        Column("name", doc="City name printed on the card (French).", max_length=40),
        Column("plan3", "plan", doc="Plan worth 3 points (rows of # and . separated by /)."),
        Column("plan2", "plan", doc="Plan worth 2 points."),
        Column("plan1", "plan", doc="Plan worth 1 point."),
        Column("text", required=False, max_length=160, doc="Flavour text printed on the card (French)."),
        Column("art", "path", required=False, doc=_ART),
    ),
)

NORMAL_CARDS = SheetSpec(
    name="normal_cards", id_column="id", quantity_column="copies",
    doc="The Normal deck: actions, attacks, cost modifiers and Coin Gains.",
    columns=(
        Column("id", doc=_ID + " Coin Gain rows are one per value (coin_gain_1 …)."),
        Column("model", doc="Card model id shared by the rows of one model (e.g. coin_gain); the rules "
                           "engine acts on it."),
        Column("name", doc="Name printed on the card (French).", max_length=40),
        Column("copies", "int", min=0, max=99, doc="Number of copies in the deck."),
        Column("cost", "int", min=0, max=20, doc="Gold paid to play it (per plot when cost_rule is per_plot)."),
        Column("cost_rule", "enum", choices=COST_RULES,
               doc="fixed (paid to the bank), per_plot (× plots of the target building) or paid_to_target."),
        Column("timing", "enum", choices=TIMINGS, doc="own_turn, or any_time (even in another player's turn)."),
        Column("target", "enum", choices=TARGETS, doc="self (kept in front of you), other (another player) or none."),
        Column("persistent", "bool", doc="yes if the card stays in front of a player until used."),
        Column("value", "int", required=False, min=1, max=20, doc="Gold gained (Coin Gain only)."),
        Column("effect", max_length=220, doc="Effect text printed on the card (French). :coin: draws a gold "
                                             "icon inline."),
        Column("art", "path", required=False, doc=_ART),
    ),
)

RULES = RULES_SHEET
BALANCE = BALANCE_SHEET          # the designer's balance gates (pipeline/play/gates.py)


RULE_PARAMETERS = rule_parameters(PARAMETERS, {    # names, types, ranges: engine/data.py
    "board_size": "Plots per side of the square board.",
    "rounds": "Rounds before the game ends (calendar steps).",
    "players_min": "Fewest players.",
    "players_max": "Most players.",
    "start_gold": "Gold each player starts with.",
    "income": "Gold taken at the start of each turn.",
    "start_hand": "Normal cards dealt to each player at setup.",
    "draw_per_turn": "Cards drawn each turn.",
    "permit_cost": "Gold to buy a Permit.",
    "site_cost": "Gold to turn a Permit into a Site.",
    "build_cost_mode": "per_plot (2 × plots, default) or flat (3 per build).",
    "build_cost_per_plot": "Gold per plot when building (per_plot mode).",
    "build_cost_flat": "Gold per build (flat mode).",
    "sale_price_permit": "Gold for a Permit sold.",
    "sale_price_site": "Gold for a Site sold.",
    "pawns_per_state": "Pawns of each state (Permit, Site, Construction) per player.",
    "coins": "Gold coins in the box (the bank is unlimited in play).",
    "city_points_timing": "on_build (won when a building is built: the rulebook, l.91) or end (on the buildings still "
        "standing at the end).",
    "build_target": "maximal (whole group of Sites) or any_connected_subset.",
    "contract_match": "exact (the whole building has the plan) or contains.",
    "allow_rotation": "Plans match when rotated.",
    "allow_reflection": "Plans match when mirrored.",
    "variant_auctions": "Variant: pawn sales to players at a negotiated price.",
    "variant_contractual": "Variant: the calendar no longer ends the game.",
    "variant_high_density": "Variant: the game ends when no plot is free.",
    "variant_contractual_players_min": "Fewest players the Contractual variant suits: every Contract must be "
        "built, so players × pawns_per_state Construction pawns must cover the plots of all Contracts (stage 5 "
        "counts it; the rulebook prints it).",
    "end_when": "When two end variants are on: refuse (default) or all (both conditions).",
    "max_actions_per_turn": "Safety cap: actions in one turn.",
    "max_rounds": "Safety cap: rounds in variants without a calendar.",
})
