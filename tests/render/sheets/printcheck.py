"""Running shared/tools/pdfcheck.py (the independent print preflight) on what a build wrote."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT
from tests.pdfindex import digest, stored

PDFCHECK = ROOT.parent / "shared" / "tools" / "pdfcheck.py"
MISSING = "shared/tools/pdfcheck.py is not beside the checkout"


def pdfcheck(path: Path, *args: str) -> dict:
    """The preflight's exit code and JSON report for one file. Run once per file content and arguments in a
    test run (tests/pdfindex.py): several tests check the same built file with the same arguments."""
    tool = digest(PDFCHECK)
    return stored("pdfcheck", "\0".join((digest(path), tool, *args)), lambda: _run(path, args))


def _run(path: Path, args: tuple[str, ...]) -> dict:
    result = subprocess.run([sys.executable, str(PDFCHECK), "--no-tools", "--json", str(path), *args],
                            capture_output=True, text=True, timeout=300)
    data = json.loads(result.stdout)
    report = data["files"][0] if "files" in data else data[0] if isinstance(data, list) else data
    return {"exit": result.returncode, "report": report}


def pdfcheck_args(entry: dict, sizes: dict) -> list[str]:
    """What pdfcheck should expect of one output, from the build report's entry."""
    single = ["--duplex", "off"]
    size = "x".join(f"{v:g}" for v in entry.get("size_mm") or sizes.get(entry["component"]) or ())
    if entry["format"] == "print":            # one face a page, with the print shops' 3 mm bleed
        return single + ["--expect-card", size, "--bleed", "3"]
    if entry["kind"] == "cards":
        return ["--expect-card", size, "--paper", entry["paper"]] + (single if entry["backs_mode"] == "none" else [])
    return single + ["--paper", entry["paper"]]


def check_every_pdf(game_output: Path) -> set[tuple[str, str]]:
    """pdfcheck on every PDF of a game's report; returns the (kind, format) pairs seen. Fails on an error."""
    data = json.loads((game_output / "report.json").read_text())
    sizes = {c["id"]: c["size_mm"] for c in data["components"] if c["size_mm"]}
    pdfs = [entry for entry in data["outputs"] if entry["format"] != "png"]
    for entry in pdfs:
        checked = pdfcheck(game_output.parent.parent / entry["path"], *pdfcheck_args(entry, sizes))
        errors = [f for f in checked["report"]["findings"] if f["severity"] == "error"]
        assert checked["exit"] == 0 and not errors, (entry["path"], errors)
    return {(entry["kind"], entry["format"]) for entry in pdfs}


def pdf_fonts(resources, seen: set | None = None) -> list:
    """Every font a PDF resource dictionary reaches (pikepdf), form XObjects (card faces) included."""
    seen = set() if seen is None else seen
    found = []
    if resources is None:
        return found
    for font in (resources.get("/Font") or {}).values():
        if font.objgen not in seen:
            seen.add(font.objgen)
            found.append(font)
    for xobject in (resources.get("/XObject") or {}).values():
        if xobject.get("/Subtype") == "/Form" and xobject.objgen not in seen:
            seen.add(xobject.objgen)
            found.extend(pdf_fonts(xobject.get("/Resources"), seen))
    return found
