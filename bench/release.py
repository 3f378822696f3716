"""`pnp release` of the five games (issue 32): the whole release, timed, on every core and on one.

    .venv/bin/python bench/release.py [--jobs-one]

In a temporary git repository holding a copy of the project's inputs (one commit, no tag: every game's first
release), runs `pnp release --version bench` in a fresh process and prints its wall time; target ≤ 40 s on
every core. With --jobs-one it also runs `pnp release -j 1 --workers 1` in a second copy and checks that both
wrote the same bytes. Exit 1 when the target is missed or the bytes differ.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PNP = Path(sys.executable).parent / "pnp"
TARGET_S = 40.0


COMMIT_DATE = "2026-11-28T12:00:00+00:00"     # both repositories' one commit: the zips hold its time


def project(folder: Path) -> Path:
    for name in ("sheets", "templates", "fonts"):
        shutil.copytree(ROOT / name, folder / name)
    dated = {**os.environ, "GIT_AUTHOR_DATE": COMMIT_DATE, "GIT_COMMITTER_DATE": COMMIT_DATE}
    for args in (("init", "-q"), ("add", "-A"), ("-c", "user.name=bench", "-c", "user.email=bench@pnp", "commit",
                                                 "-qm", "bench")):
        subprocess.run(["git", *args], cwd=folder, check=True, capture_output=True, env=dated)
    return folder


def release(root: Path, *options: str) -> float:
    start = time.perf_counter()
    subprocess.run([str(PNP), "release", "--version", "bench", *options], cwd=ROOT, check=True,
                   env={**os.environ, "PNP_ROOT": str(root)}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def digests(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs-one", action="store_true", help="also release with one process and compare")
    args = parser.parse_args()
    if shutil.which("git") is None:
        print("git is not installed: the release bench needs a repository")
        return 0
    with tempfile.TemporaryDirectory(prefix="pnp-release-") as temp:
        every = project(Path(temp) / "every")
        seconds = release(every)
        ok = seconds <= TARGET_S
        print(f"pnp release of the five games, every core: {seconds:.1f} s (target ≤ {TARGET_S:g} s: "
              f"{'met' if ok else 'MISSED'})")
        if args.jobs_one:
            one = project(Path(temp) / "one")
            alone = release(one, "-j", "1", "--workers", "1")
            made, again = digests(every / "dist"), digests(one / "dist")
            same = made == again
            print(f"  one process: {alone:.1f} s; the same bytes: {'yes' if same else 'NO'}")
            for name in sorted(set(made) | set(again)):
                if made.get(name) != again.get(name):
                    print(f"    differs: {name}")
            ok = ok and same
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
