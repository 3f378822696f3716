"""Running the print preflights on what a build wrote: pnp's own (`pnp preflight`, pipeline/preflight/, in
process) and pdfcheck, the independent one (shared/tools/pdfcheck.py, kept unchanged as tests/tools/pdfcheck.py
so a clone anywhere runs it). Wherever pdfcheck passes a file, pnp's preflight must pass it too, given the
same expectations (`ours`)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT
from tests.pdfindex import digest, is_stored, stored

PDFCHECK = ROOT / "tests" / "tools" / "pdfcheck.py"


def pdfcheck(path: Path, *args: str) -> dict:
    """The preflight's exit code and JSON report for one file. Run once per file content and arguments in a
    test run (tests/pdfindex.py): several tests check the same built file with the same arguments. When
    pdfcheck passes the file, pnp's own preflight is asserted to pass it as well."""
    checked = stored("pdfcheck", _key(path, args), lambda: _run(path, args))
    if checked["exit"] == 0:
        assert_ours(path, *args)
    return checked


def run_pdfcheck(*args) -> subprocess.CompletedProcess:
    """pdfcheck itself on a file (the path, then pdfcheck's arguments), its text report in stdout; where it
    passes, pnp's own preflight must pass the file too."""
    result = subprocess.run([sys.executable, str(PDFCHECK), "--no-tools", *map(str, args)],
                            capture_output=True, text=True, timeout=300)
    if result.returncode == 0:
        assert_ours(*map(str, args))
    return result


def ours(path: Path, *args: str):
    """pnp's own preflight (pipeline/preflight/) on one file, told what pdfcheck's arguments tell pdfcheck:
    --expect-card, --bleed, --paper, --duplex; --strict makes its warnings count. Returns the FileResult and
    the problems that fail it."""
    from pipeline.preflight import Options, check_file
    from pipeline.preflight.geometry import parse_size

    given = dict(zip(args, args[1:]))          # each flag and the word after it
    options = Options(card=parse_size(given["--expect-card"]) if "--expect-card" in given else None,
                      bleed_mm=float(given.get("--bleed", 3)), paper=given.get("--paper"),
                      duplex=given.get("--duplex", "auto"))
    result = check_file(path, options)
    return result, result.errors + (result.warnings if "--strict" in args else [])


def assert_ours(path: Path, *args: str):
    """pnp's own preflight passes the file (see ours); its FileResult."""
    result, failing = ours(path, *args)
    assert not failing, [problem.line(path) for problem in failing]
    return result


def _key(path: Path, args) -> str:
    return "\0".join((digest(path), digest(PDFCHECK), *args))


def _run(path: Path, args: tuple[str, ...]) -> dict:
    result = subprocess.run([sys.executable, str(PDFCHECK), "--no-tools", "--json", str(path), *args],
                            capture_output=True, text=True, timeout=300)
    data = json.loads(result.stdout)
    report = data["files"][0] if "files" in data else data[0] if isinstance(data, list) else data
    return {"exit": result.returncode, "report": report}


def prepare(jobs: list[tuple[Path, tuple[str, ...]]]) -> None:
    """Run the preflight once for all the files given the same arguments (of those not checked yet in this
    run), and keep each file's own result as pdfcheck(path, *args) would have it: the preflight checks each
    file on its own, and its exit status is 1 when a file has an error (a warning too with --strict), as
    each file's "ok" says; 0 otherwise. Saves starting Python and pikepdf once per file. A run that does not
    answer file by file (bad arguments, a crash) keeps nothing: pdfcheck() then runs each file alone."""
    groups: dict[tuple[str, ...], list[Path]] = {}
    for path, args in jobs:
        if not is_stored("pdfcheck", _key(path, args)):
            groups.setdefault(tuple(args), []).append(path)
    for args, paths in groups.items():
        paths = list(dict.fromkeys(paths))
        if len(paths) < 2:
            continue
        result = subprocess.run([sys.executable, str(PDFCHECK), "--no-tools", "--json", *map(str, paths), *args],
                                capture_output=True, text=True, timeout=600)
        try:
            files = json.loads(result.stdout)["files"]
        except (ValueError, KeyError, TypeError):
            continue
        if result.returncode not in (0, 1) or len(files) != len(paths) or \
                result.returncode != (0 if all(f["ok"] for f in files) else 1):
            continue
        for path, report in zip(paths, files):
            stored("pdfcheck", _key(path, args), lambda report=report: {"exit": 0 if report["ok"] else 1,
                                                                         "report": report})


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
    pdfs = [entry for entry in data["outputs"] if entry["format"] in ("pnp", "print")]
    checks = [(entry["path"], tuple(pdfcheck_args(entry, sizes))) for entry in pdfs] + _shop_pdfs(data, sizes)
    prepare([(game_output.parent.parent / path, args) for path, args in checks])
    for path, args in checks:
        checked = pdfcheck(game_output.parent.parent / path, *args)
        errors = [f for f in checked["report"]["findings"] if f["severity"] == "error"]
        assert checked["exit"] == 0 and not errors, (path, errors)
    return {(entry["kind"], entry["format"]) for entry in pdfs} | {("cards", "dtc") for _ in _shop_pdfs(data, sizes)}


DTC_BLEED_MM = 3.175                    # 1/8 in: DriveThruCards' page is the trim and this bleed (exports/shops.py)


def _shop_pdfs(data: dict, sizes: dict) -> list[tuple[str, tuple[str, ...]]]:
    """The DriveThruCards export's PDFs (one card a page with the shop's own bleed) and what pdfcheck should
    expect of them: the RGB file of each deck (a PDF/X-1a file, written only with Ghostscript, is checked by
    tests/exports/test_dtc.py)."""
    found = []
    for entry in data["outputs"]:
        if entry["format"] != "dtc":
            continue
        for component, facts in entry["info"]["files"].items():
            size = "x".join(f"{v:g}" for v in sizes[facts["component"]])
            found.append((f"{entry['path']}/{component}.pdf",
                          ("--duplex", "off", "--expect-card", size, "--bleed", f"{DTC_BLEED_MM:g}")))
    return found


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
