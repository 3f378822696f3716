"""The effects chapter: when each kind of effect works (no keyword: on reveal; the five bold keywords), with a
real card of the workbook as the example of each timing, what its operations (sheet card_ops, the closed
vocabulary of shared/games/challengers.md §3.4) do in French, and a worked number from its own values."""

from __future__ import annotations

from pipeline.data.specs import Records
from pipeline.games.challengers.rulebook.material import KEYWORD_WORDS, card_row

TIMINGS = ("none", "on_attack", "from_bench", "holding_flag", "losing_flag", "when_selected")
PREFERRED = {       # the operation that shows a timing best, first choice first
    "none": ("STRENGTH", "FANS", "MILL_OPPONENT", "BENCH_TO_DISCARD", "OPP_STRENGTH"),
    "on_attack": ("STRENGTH", "OPP_STRENGTH"),
    "from_bench": ("STRENGTH",),
    "holding_flag": ("STRENGTH", "OPP_STRENGTH"),
    "losing_flag": ("BENCH_TO_DISCARD", "SELF_TO_DECK_BOTTOM", "FANS"),
    "when_selected": ("REMOVE_FROM_DECK", "EXTRA_PICK", "FANS"),
}
SCOPE_WORDS = {"attack": "à votre attaque", "defence": "à votre carte drapeau",
               "both": "à votre attaque comme à votre carte drapeau"}


def _cards(n: int) -> str:
    return f"{n} carte{'s' if abs(n) > 1 else ''}"


def _fans(n: int) -> str:
    return f"{n} fan{'s' if abs(n) > 1 else ''}"


def explain(op: str, n, scope: str | None) -> str:
    """One operation in French (what it does, not when)."""
    n = 0 if n in (None, "") else int(n)
    if op == "STRENGTH":
        if scope:
            return f"chaque exemplaire posé sur votre banc ajoute {n} {SCOPE_WORDS[scope]}"
        return f"{'+' if n >= 0 else '−'}{abs(n)} à sa force"
    if op == "OPP_STRENGTH":
        return f"{'+' if n >= 0 else '−'}{abs(n)} au total de l'adversaire"
    if op == "FANS":
        return f"vous prenez {_fans(n)} (des jetons, visibles de tous)"
    if op == "BENCH_TO_DISCARD":
        return f"vous pouvez mettre jusqu'à {_cards(n)} de votre banc dans votre défausse"
    if op == "MILL_OPPONENT":
        return f"l'adversaire met les {_cards(n)} du dessus de son paquet dans sa défausse"
    if op == "SELF_TO_DECK_BOTTOM":
        return "la carte repart sous votre paquet au lieu d'aller sur votre banc"
    if op == "REMOVE_FROM_DECK":
        return f"vous pouvez retirer du jeu jusqu'à {_cards(n)} de votre paquet"
    if op == "EXTRA_PICK":
        return f"vous gardez {_cards(n)} de plus de la main que vous regardez"
    raise ValueError(f"unknown card op {op!r}")


def card_ops(records: Records) -> dict[str, list[dict]]:
    """card id -> its operations in order: op, n, scope."""
    out: dict[str, list[dict]] = {}
    for rec in sorted(records["card_ops"], key=lambda r: (r["card"], r["order"])):
        out.setdefault(rec["card"], []).append({"op": rec["op"], "n": rec["n"], "scope": rec["scope"] or None})
    return out


def explained(card: dict, ops: list[dict]) -> str:
    """A card's operations as one French clause with a full stop (it follows a colon in the chapter)."""
    text = " ; ".join(explain(o["op"], o["n"], o["scope"]) for o in ops)
    return text + "." if text else ""


def _pick(cards: list[dict], ops: dict, keyword: str) -> dict | None:
    """The example of a timing: a card whose first operation is the most telling one (PREFERRED), then the
    lowest level, then sheet order."""
    candidates = [c for c in cards if c["keyword"] == keyword and ops.get(c["id"])
                  and (keyword != "none" or c["level"] != "S")]
    order = PREFERRED[keyword]

    def rank(card: dict) -> tuple[int, int]:
        first = ops[card["id"]][0]["op"]
        return (order.index(first) if first in order else len(order),
                "SABC".find(card["level"]) if card["level"] in "SABC" else 9)

    return min(candidates, key=rank) if candidates else None


def worked(card: dict, ops: list[dict]) -> dict:
    """The numbers of the example: its strength with a STRENGTH bonus where it counts (attacking,
    defending), or with two copies on the bench."""
    s = card["strength"]
    first = ops[0]
    n = 0 if first["n"] in (None, "") else int(first["n"])
    out = {"op": first["op"], "n": n, "scope": first["scope"], "strength": s}
    if first["op"] == "STRENGTH":
        kw = card["keyword"]
        out["attack"] = s + n if kw in ("none", "on_attack") else s
        out["defence"] = s + n if kw in ("none", "holding_flag") else s
        out["bench_two"] = 2 * n             # two copies on the bench
        out["bench_three"] = 3 * n
    return out


def timings(records: Records) -> list[dict]:
    """Each timing: its bold word (none for on-reveal), its example card (or None when no card of the
    workbook has it), the card's operations explained and its worked numbers."""
    cards = [card_row(rec) for rec in records["cards"]
             if not any(s["id"] == rec["set"] and s["robot"] for s in records["sets"])]
    ops = card_ops(records)
    sets = {rec["id"]: rec["name"] for rec in records["sets"]}
    out = []
    for keyword in TIMINGS:
        card = _pick(cards, ops, keyword)
        example = None
        if card is not None:
            example = dict(card, set_name=sets.get(card["set"], card["set"]),
                           explained=explained(card, ops[card["id"]]), worked=worked(card, ops[card["id"]]))
        out.append({"keyword": keyword, "word": KEYWORD_WORDS[keyword], "example": example,
                    "count": sum(1 for c in cards if c["keyword"] == keyword and (keyword != "none" or c["text"]))})
    return out
