"""TEMPLATE: what the rulebook chapters (templates/<game>/rules/NN-name.md) see, and the rulebook added last,
after the components it may show as figures."""

from __future__ import annotations

from pipeline.data.specs import Records


def rulebook_context(records: Records, rules: dict) -> dict:
    return {"rules": rules}


def with_rulebook(records: Records, parts: list) -> list:
    return parts
