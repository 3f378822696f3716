"""Build It's sheets (shared/games/build-it.md §6): column specs, rule parameters, typed records."""

from __future__ import annotations

from pipeline.params import RULES_SHEET, parameter
from pipeline.schema import Column, SheetSpec

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
_p = parameter


RULE_PARAMETERS = (
    _p("board_size", "int", "Plots per side of the square board.", min=3, max=20),
    _p("rounds", "int", "Rounds before the game ends (calendar steps).", min=1, max=40),
    _p("players_min", "int", "Fewest players.", min=1, max=8),
    _p("players_max", "int", "Most players.", min=1, max=8),
    _p("start_gold", "int", "Gold each player starts with.", min=0, max=100),
    _p("income", "int", "Gold taken at the start of each turn.", min=0, max=20),
    _p("start_hand", "int", "Normal cards dealt to each player at setup.", min=0, max=10),
    _p("draw_per_turn", "int", "Cards drawn each turn.", min=0, max=5),
    _p("permit_cost", "int", "Gold to buy a Permit.", min=0, max=20),
    _p("site_cost", "int", "Gold to turn a Permit into a Site.", min=0, max=20),
    _p("build_cost_mode", "enum", "per_plot (2 × plots, default) or flat (3 per build).",
       choices=("per_plot", "flat")),
    _p("build_cost_per_plot", "int", "Gold per plot when building (per_plot mode).", min=0, max=20),
    _p("build_cost_flat", "int", "Gold per build (flat mode).", min=0, max=50),
    _p("sale_price_permit", "int", "Gold for a Permit sold.", min=0, max=20),
    _p("sale_price_site", "int", "Gold for a Site sold.", min=0, max=20),
    _p("pawns_per_state", "int", "Pawns of each state (Permit, Site, Construction) per player.", min=1, max=64),
    _p("coins", "int", "Gold coins in the box (the bank is unlimited in play).", min=0, max=500),
    _p("city_points_timing", "enum", "on_build (won when a building is built: the rulebook, l.91) or end (on the "
       "buildings still standing at the end).", choices=("on_build", "end")),
    _p("build_target", "enum", "maximal (whole group of Sites) or any_connected_subset.",
       choices=("maximal", "any_connected_subset")),
    _p("contract_match", "enum", "exact (the whole building has the plan) or contains.",
       choices=("exact", "contains")),
    _p("allow_rotation", "bool", "Plans match when rotated."),
    _p("allow_reflection", "bool", "Plans match when mirrored."),
    _p("variant_auctions", "bool", "Variant: pawn sales to players at a negotiated price."),
    _p("variant_contractual", "bool", "Variant: the calendar no longer ends the game."),
    _p("variant_high_density", "bool", "Variant: the game ends when no plot is free."),
    _p("end_when", "enum", "When two end variants are on: refuse (default) or all (both conditions).",
       choices=("refuse", "all")),
    _p("max_actions_per_turn", "int", "Safety cap: actions in one turn.", min=10, max=10000),
    _p("max_rounds", "int", "Safety cap: rounds in variants without a calendar.", min=1, max=1000),
)
