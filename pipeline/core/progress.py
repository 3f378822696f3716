"""What long work reports as it goes: the CLI passes rich progress bars, everything else this silent one."""

from __future__ import annotations


class Progress:
    def start(self, description: str, total: int) -> None: ...
    def advance(self, steps: int = 1) -> None: ...
