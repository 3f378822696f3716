"""Exports beyond paper (issue 28): the Tabletop Simulator export and The Game Crafter preset, timed.

    .venv/bin/python bench/exports.py

In a temporary copy of the project's inputs, each a fresh `pnp` process, medians of 3 runs after a warm-up:

- `pnp build nba --paper a4 --format tts` with no cache (`pnp clean --cache-only` first: every face laid out anew);
- the same after an unchanged `pnp build nba --paper a4 --format pnp,tts`: the faces come from the cache
  (the build's stats say how many were laid out: 0 is the target) and the export's files are kept;
- `pnp build nba --paper a4 --format pnp` then `--format pnp,tts`: adding the export to a build whose faces are
  cached (what a designer does after `make`);
- every game's TTS export, and every game's TGC preset, from the cache.

Prints a table; exit 1 when an export after an unchanged build lays out a face again.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PNP = Path(sys.executable).parent / "pnp"
GAMES = ("buildit", "nba", "allstar", "fightball", "challengers")
RUNS = 3


def pnp(root: Path, *args: str) -> float:
    start = time.perf_counter()
    subprocess.run([str(PNP), *args], cwd=root, check=True, env={**os.environ, "PNP_ROOT": str(root)},
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def median(root: Path, *args: str, clean: bool = False) -> float:
    times = []
    for _ in range(RUNS + 1):
        if clean:
            subprocess.run([str(PNP), "clean", "--cache-only"], cwd=root, check=True, stdout=subprocess.DEVNULL,
                           env={**os.environ, "PNP_ROOT": str(root)})
        times.append(pnp(root, *args))
    return statistics.median(times[1:])


def laid_out_again(root: Path) -> tuple[int, int]:
    """(faces laid out anew, files drawn anew) by an NBA pnp+TTS build after an unchanged one, in this process."""
    from pipeline.build import build
    from pipeline.cache import BuildStats
    from pipeline.core.config import BuildConfig

    stats = BuildStats()
    report, built = build(BuildConfig(root, ("nba",), papers=("a4",), formats=("pnp", "tts")), stats=stats)
    assert built == ["nba"], report.problems
    parts = stats.games["nba"].values()
    return sum(p.faces_laid_out for p in parts), sum(p.files_written for p in parts)


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="pnp-exports-") as temp:
        root = Path(temp)
        for name in ("sheets", "templates", "fonts"):
            shutil.copytree(ROOT / name, root / name)
        rows = [("NBA TTS export, no cache", median(root, "build", "nba", "--paper", "a4", "--format", "tts",
                                                     clean=True))]
        pnp(root, "build", "nba", "--paper", "a4", "--format", "pnp,tts")
        rows.append(("NBA pnp+TTS after an unchanged build", median(root, "build", "nba", "--paper", "a4",
                                                                     "--format", "pnp,tts")))
        adding = []
        for _ in range(RUNS):
            pnp(root, "build", "nba", "--paper", "a4", "--format", "pnp")
            adding.append(pnp(root, "build", "nba", "--paper", "a4", "--format", "pnp,tts"))
        rows.append(("NBA: TTS added to a cached pnp build", statistics.median(adding)))
        pnp(root, "build", *GAMES, "--paper", "a4", "--format", "pnp")
        for target in ("tts", "tgc"):
            start = time.perf_counter()
            pnp(root, "build", *GAMES, "--paper", "a4", "--format", f"pnp,{target}")
            rows.append((f"five games: {target} added to a cached pnp build", time.perf_counter() - start))
        pnp(root, "build", "nba", "--paper", "a4", "--format", "pnp,tts")
        faces, files = laid_out_again(root)
        print("| what | seconds |\n|---|---:|")
        for what, seconds in rows:
            print(f"| {what} | {seconds:.2f} |")
        print(f"\nNBA pnp+TTS after an unchanged build: {faces} faces laid out anew, {files} files drawn anew "
              "(target 0 and 0)")
    return 1 if faces or files else 0


if __name__ == "__main__":
    sys.exit(main())
