"""What every game engine shares, pure like them (standard library only): rule parameters checked against a
table of (kind, …) specs mirrored from the game's schema."""

from __future__ import annotations

from typing import Mapping


def check_typed_params(specs: Mapping[str, tuple], params: dict) -> None:
    """Every parameter present, typed and in range, ValueError naming the first that is not. A spec is
    ("bool",), ("enum", choice, …) or ("int", low, high)."""
    for name, spec in specs.items():
        if name not in params:
            raise ValueError(f"missing rule parameter {name}")
        value, kind = params[name], spec[0]
        if kind == "bool":
            ok = isinstance(value, bool)
        elif kind == "enum":
            ok = value in spec[1:]
        else:
            ok = isinstance(value, int) and not isinstance(value, bool) and spec[1] <= value <= spec[2]
        if not ok:
            allowed = ("true or false" if kind == "bool" else " | ".join(spec[1:]) if kind == "enum"
                       else f"an integer {spec[1]}..{spec[2]}")
            raise ValueError(f"rule parameter {name} = {value!r} is not {allowed}")
