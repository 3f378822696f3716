"""Untrusted YAML in bounded time and memory (issue 19): every hostile YAML file is refused in ≤ 1 s at ≤ 100
MiB peak, through the door that reads it (a card template, a game.yaml, a fonts.yaml). Each file is measured
in a fresh process: the time is the door's call alone, the peak its maximum resident set (imports included)
and, beside it, what the call added to it.

The worst case is the largest file the door parses (just under the size limit, full of small values) with
the alias bomb on its last lines: every event before the bomb is walked once.

    python bench/hostile_yaml.py
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGETS = {"seconds": 1.0, "mib": 100.0}

MEASURE = """
import json, resource, sys, time
from pathlib import Path
from pipeline.core.errors import PipelineError
from pipeline.games.datagame import load_data_game
from pipeline.render.fonts import default_fonts
from pipeline.render.faces.layout import TemplateLoader
door, path = sys.argv[1], Path(sys.argv[2])
fonts = default_fonts()
loader = TemplateLoader(path.parent, (path.parent,))
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
start = time.perf_counter()
try:
    if door == "template":
        template, problems = loader.load(path)
        outcome = f"refused: {problems[0]}" if template is None else "loaded"
    elif door == "game":
        load_data_game(path, path.parent)
        outcome = "loaded"
    else:
        fonts.with_game_fonts(path.parent, path.parent)
        outcome = "loaded"
except PipelineError as exc:
    outcome = f"refused: {exc.problems[0]}"
seconds = time.perf_counter() - start
mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"seconds": seconds, "mib": mib, "added": mib - before, "outcome": outcome}))
"""


def bomb(levels: int = 9, width: int = 9) -> str:
    lines = [f"lol0: &lol0 [{', '.join(['lol'] * width)}]"]
    lines += [f"lol{n}: &lol{n} [{', '.join([f'*lol{n - 1}'] * width)}]" for n in range(1, levels + 1)]
    return "\n".join(lines) + "\n"


def merge_bomb(levels: int = 9, width: int = 9) -> str:
    lines = [f"lol0: &lol0 {{{', '.join(f'k{i}: lol' for i in range(width))}}}"]
    lines += [f"lol{n}: &lol{n} {{<<: *lol{n - 1}, {', '.join(f'k{i}: *lol{n - 1}' for i in range(width))}}}"
              for n in range(1, levels + 1)]
    return "\n".join(lines) + "\n"


def files(folder: Path) -> list[tuple[str, str, Path]]:
    """(label, door, path) of every hostile file, written under `folder`."""
    from pipeline.core.safe_yaml import MAX_BYTES

    tail = bomb()
    values = "size: [63, 88]\npad: [" + "1," * ((MAX_BYTES - len(tail) - 40) // 2) + "1]\n"
    cases = {
        "billion laughs (10 lines)": ("template", "front.yaml", "size: [63, 88]\n" + bomb()),
        "merge-key bomb": ("template", "front.yaml", "size: [63, 88]\n" + merge_bomb()),
        "alias inside its own anchor": ("template", "front.yaml", "loop: &loop [1, [2, *loop]]\n"),
        "worst: 256 KiB of values, then the bomb": ("template", "front.yaml", values + tail),
        "nesting 130,000 deep": ("template", "front.yaml", "x: " + "[" * 130_000 + "]" * 130_000 + "\n"),
        "game.yaml bomb": ("game", "game.yaml", bomb()),
        "fonts.yaml bomb": ("fonts", "fonts.yaml", "fallback: []\n" + bomb()),
    }
    written = []
    for index, (label, (door, name, text)) in enumerate(cases.items()):
        path = folder / str(index) / name
        path.parent.mkdir()
        path.write_text(text, encoding="utf-8")
        written.append((label, door, path))
    huge = folder / "huge" / "front.yaml"
    huge.parent.mkdir()
    with open(huge, "wb") as handle:        # 1 GB, sparse: only what the door reads is ever read
        handle.write(b"size: [63, 88]\n")
        handle.truncate(1 << 30)
    written.append(("a 1 GB file", "template", huge))
    return written


def measure(door: str, path: Path) -> dict:
    result = subprocess.run([sys.executable, "-c", MEASURE, door, str(path)], capture_output=True, text=True,
                            cwd=ROOT, check=True)
    return json.loads(result.stdout)


def main() -> int:
    failed = False
    with tempfile.TemporaryDirectory() as temp:
        for label, door, path in files(Path(temp)):
            got = measure(door, path)
            refused = got["outcome"].startswith("refused")
            ok = refused and got["seconds"] <= TARGETS["seconds"] and got["mib"] <= TARGETS["mib"]
            failed |= not ok
            print(f"{label} ({door}, {path.stat().st_size / 1024:,.1f} KiB): {got['seconds'] * 1000:.1f} ms "
                  f"(target ≤ {TARGETS['seconds']:g} s), peak {got['mib']:.0f} MiB (+{got['added']:.1f}; target "
                  f"≤ {TARGETS['mib']:g}): {got['outcome'][:140]} {'met' if ok else 'NOT met'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
