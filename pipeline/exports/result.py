"""What one export target makes of one game: its files as bytes (written by the build, which records them and
their sha256 like every other file), the located problems it found, and what the build report says of it."""

from __future__ import annotations

from dataclasses import dataclass, field

from pipeline.core.errors import Problem, Severity


@dataclass
class Export:
    target: str                                           # "tts", "pcio", "tgc", "mpc", "dtc"
    files: dict[str, bytes] = field(default_factory=dict)  # path under output/<game>/<target>/ -> bytes
    problems: list[Problem] = field(default_factory=list)  # located warnings (a face too small, a size no
                                                           # product takes) and errors
    info: dict = field(default_factory=dict)               # JSON-able facts for report.json (counts, sizes)
    notes: list[str] = field(default_factory=list)         # one line each for the terminal and report.md

    def warn(self, where: str, message: str, rule: str) -> None:
        self.problems.append(Problem(where, message, rule, Severity.WARNING))

    def add(self, path: str, data: bytes) -> str:
        if path in self.files and self.files[path] != data:
            raise ValueError(f"{self.target}: two different files named {path}")
        self.files[path] = data
        return path
