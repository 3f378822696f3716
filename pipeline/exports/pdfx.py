"""PDF/X-1a for DriveThruCards: an RGB print PDF turned CMYK by Ghostscript, then fixed with pikepdf.

Facts from ../shared/EXPORTS.md §6:
- Only Ghostscript 10.05 and later write PDF/X-1a (`-dPDFX=1`); before that `-dPDFX` meant PDF/X-3 only, and
  Debian 12's 10.0.0 fails on `-dPDFX=1` (§6.2). Below 10.05 nothing is converted: the caller says so.
- Ghostscript is AGPL: it runs here as a separate program (`subprocess`), never as a linked library, and
  none of its files (def files, ICC profiles) is copied: the def file below is pnp's own (§6.5).
- The output intent NAMES the registered SWOP characterization ("CGATS TR 001", registry
  http://www.color.org) instead of embedding a CMYK profile: no free CMYK profile exists to embed, and
  Ghostscript's own is AGPL (§6.4). Whether DTC's preflight accepts a named intent is uncertain [U]; so is
  whether Acrobat calls the result PDF/X-1a:2003 compliant [U] (§6.3).
- In X-1 mode Ghostscript drops the TrimBox and BleedBox for an ArtBox (§6.2): the post-pass copies both back
  from the source PDF and removes the ArtBox; it labels the file PDF/X-1a:2003 (what DTC asks for), pins the
  dates to a constant and derives the /ID from the content, so the same input gives the same bytes. The
  Producer string is left as Ghostscript wrote it (§6.2: AGPL §7(b) term).
- Success is judged by the exit code, not by stderr (Ghostscript warns about reportlab's ToUnicode maps).
- A page with transparency (an image with alpha) comes out as one raster in PDF/X-1a (§6.2): `transparent_pages`
  finds such pages before conversion.
"""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

MIN_VERSION = (10, 5, 0)
PDFX_VERSION = "PDF/X-1a:2003"
FIXED_DATE = "D:20000101000000+00'00'"       # constant: a build's files do not depend on when it ran
TIMEOUT_S = 600

# pnp's own PostScript prefix for Ghostscript's pdfwrite (the pdfmark operator, as Adobe's pdfmark reference
# describes it): the PDF/X label in the document information and a named output intent in the catalog.
DEF_FILE = """%!PS
% pnp: the PDF/X-1a output intent of a DriveThruCards card file.
% The intent names the registered SWOP printing condition; no colour profile is embedded.
[ /GTS_PDFXVersion (PDF/X-1a:2003) /Trapped /False /DOCINFO pdfmark
[ /_objdef {pnpOutputIntent} /type /dict /OBJ pdfmark
[ {pnpOutputIntent} <<
    /Type /OutputIntent
    /S /GTS_PDFX
    /OutputCondition (Offset web, coated paper: U.S. Web Coated SWOP)
    /OutputConditionIdentifier (CGATS TR 001)
    /RegistryName (http://www.color.org)
    /Info (CGATS TR 001, SWOP)
>> /PUT pdfmark
[ {Catalog} << /OutputIntents [ {pnpOutputIntent} ] >> /PUT pdfmark
"""


class ConversionError(RuntimeError):
    """Ghostscript did not produce a PDF (its exit code and the end of what it printed)."""


def find_gs() -> tuple[str, tuple[int, int, int]] | None:
    """`gs` on PATH and its version, or None when there is none (or it does not say its version)."""
    path = shutil.which("gs")
    if path is None:
        return None
    version = gs_version(path)
    return (path, version) if version is not None else None


def gs_version(gs_path: str) -> tuple[int, int, int] | None:
    """What `gs --version` says, as (10, 7, 0); None when it cannot be run or says no version."""
    try:
        done = subprocess.run([gs_path, "--version"], capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    found = re.search(r"(\d+)\.(\d+)(?:\.(\d+))?", done.stdout)
    if done.returncode != 0 or found is None:
        return None
    return int(found.group(1)), int(found.group(2)), int(found.group(3) or 0)


def version_text(version: tuple[int, int, int] | None) -> str:
    """(10, 7, 0) -> "10.07.0", (10, 0, 0) -> "10.0.0" (as Ghostscript names its releases), None -> "none"."""
    if version is None:
        return "none"
    major, minor, patch = version
    return f"{major}.{minor:02d}.{patch}" if minor else f"{major}.{minor}.{patch}"


def can_convert(version: tuple[int, int, int] | None) -> bool:
    return version is not None and tuple(version) >= MIN_VERSION


def convert(pdf: bytes, gs_path: str) -> bytes:
    """`pdf` (RGB, TrimBox and BleedBox set) as PDF/X-1a:2003 in CMYK: Ghostscript as a separate process, then
    `post_pass`. Raises ConversionError when Ghostscript fails."""
    with tempfile.TemporaryDirectory(prefix="pnp-pdfx-") as folder:
        folder = Path(folder)
        source, target, prefix = folder / "rgb.pdf", folder / "x1a.pdf", folder / "pnp_pdfx_def.ps"
        source.write_bytes(pdf)
        prefix.write_text(DEF_FILE, encoding="ascii")
        command = [gs_path, "-dBATCH", "-dNOPAUSE", "-dQUIET", "-sDEVICE=pdfwrite", "-dPDFX=1",
                   "-sColorConversionStrategy=CMYK", f"-sOutputFile={target}", str(prefix), str(source)]
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT_S, check=False,
                                  cwd=folder)
        except (OSError, subprocess.SubprocessError) as error:
            raise ConversionError(f"Ghostscript could not run: {error}") from error
        if done.returncode != 0 or not target.exists() or target.stat().st_size == 0:
            said = " ".join((done.stderr or done.stdout or "").split())[-300:]
            raise ConversionError(f"Ghostscript exited with {done.returncode}: {said}")
        return post_pass(target.read_bytes(), pdf)


def post_pass(converted: bytes, source: bytes) -> bytes:
    """Ghostscript's PDF/X-1a with the source's TrimBox and BleedBox back on every page (no ArtBox), labelled
    PDF/X-1a:2003, its dates pinned and its /ID derived from its content."""
    import pikepdf

    with pikepdf.open(io.BytesIO(source)) as original, pikepdf.open(io.BytesIO(converted)) as pdf:
        if len(original.pages) != len(pdf.pages):
            raise ConversionError(f"Ghostscript wrote {len(pdf.pages)} pages for {len(original.pages)}")
        for before, after in zip(original.pages, pdf.pages):
            for box in ("/TrimBox", "/BleedBox"):
                if box in before.obj:
                    after.obj[box] = pikepdf.Array([float(v) for v in before.obj[box]])
            if "/ArtBox" in after.obj:
                del after.obj["/ArtBox"]
        info = pdf.docinfo
        info["/GTS_PDFXVersion"] = pikepdf.String(PDFX_VERSION)
        info["/Trapped"] = pikepdf.Name("/False")
        info["/CreationDate"] = pikepdf.String(FIXED_DATE)
        info["/ModDate"] = pikepdf.String(FIXED_DATE)
        _pin_metadata(pdf)
        if "/ID" in pdf.trailer:
            del pdf.trailer["/ID"]
        out = io.BytesIO()
        pdf.save(out, deterministic_id=True)
        return out.getvalue()


def _pin_metadata(pdf) -> None:
    """The XMP packet Ghostscript may write repeats the dates and carries a random document id: pin them."""
    if "/Metadata" not in pdf.Root:
        return
    stream = pdf.Root.Metadata
    text = stream.read_bytes().decode("utf-8", "replace")
    iso = "2000-01-01T00:00:00Z"
    for tag in ("xmp:CreateDate", "xmp:ModifyDate", "xmp:MetadataDate"):
        text = re.sub(rf"(<{tag}>)[^<]*(</{tag}>)", rf"\g<1>{iso}\g<2>", text)
        text = re.sub(rf'({tag}=")[^"]*(")', rf"\g<1>{iso}\g<2>", text)
    for tag in ("xmpMM:DocumentID", "xmpMM:InstanceID"):
        text = re.sub(rf"(<{tag}>)[^<]*(</{tag}>)", r"\g<1>uuid:pnp\g<2>", text)
        text = re.sub(rf'({tag}=")[^"]*(")', r"\g<1>uuid:pnp\g<2>", text)
    text = re.sub(r"(rdf:about=\")uuid:[^\"]*(\")", r"\g<1>\g<2>", text)
    stream.write(text.encode("utf-8"))


def transparent_pages(pdf: bytes) -> list[int]:
    """The pages (1-based) that use transparency: an image with a soft mask, a transparency group, or a
    graphics state with an alpha below 1. Such a page is flattened to one raster by PDF/X-1a conversion."""
    import pikepdf

    found = []
    with pikepdf.open(io.BytesIO(pdf)) as document:
        for number, page in enumerate(document.pages, start=1):
            if _transparent(page.obj, set()):
                found.append(number)
    return found


def _transparent(holder, seen: set) -> bool:
    """Whether a page or form XObject (its /Group and /Resources, forms within forms) uses transparency."""
    import pikepdf

    group = holder.get("/Group")
    if group is not None and group.get("/S") == pikepdf.Name("/Transparency"):
        return True
    resources = holder.get("/Resources")
    if resources is None:
        return False
    for state in (resources.get("/ExtGState") or {}).values():
        if any(float(state.get(key, 1)) < 1 for key in ("/ca", "/CA")) or \
                state.get("/SMask", pikepdf.Name("/None")) != pikepdf.Name("/None"):
            return True
    for xobject in (resources.get("/XObject") or {}).values():
        ident = xobject.objgen
        if ident != (0, 0):
            if ident in seen:
                continue
            seen.add(ident)
        if "/SMask" in xobject or "/SMaskInData" in xobject and int(xobject.SMaskInData) != 0:
            return True
        if xobject.get("/Subtype") == pikepdf.Name("/Form") and _transparent(xobject, seen):
            return True
    return False


def preflight(pdf: bytes, media_box: tuple, trim_box: tuple) -> list[str]:
    """What keeps a converted file from being the PDF/X-1a card file DTC asks for, by EXPORTS.md §6.6's
    structural checks (no open-source PDF/X-1a validator is known: this is the offline substitute [U]);
    [] when none."""
    import pikepdf

    found = []
    with pikepdf.open(io.BytesIO(pdf)) as document:
        info = document.docinfo
        if document.is_encrypted:
            found.append("encrypted")
        if tuple(int(part) for part in document.pdf_version.split(".")) > (1, 4):
            found.append(f"PDF {document.pdf_version}, not 1.4 or lower")
        if not str(info.get("/GTS_PDFXVersion", "")).startswith("PDF/X-1a"):
            found.append("no GTS_PDFXVersion PDF/X-1a")
        found += [f"no {key[1:]} in its information" for key in ("/Trapped", "/CreationDate", "/ModDate")
                  if key not in info]
        if "/ID" not in document.trailer:
            found.append("no /ID")
        if not any(_intent_ok(intent) for intent in document.Root.get("/OutputIntents", [])):
            found.append("no GTS_PDFX output intent (a CMYK profile or a registered condition)")
        if len(document.pages) % 2:
            found.append(f"{len(document.pages)} pages: not front/back pairs")
        for number, page in enumerate(document.pages, start=1):
            found += [f"page {number}: {what}" for what in _page_problems(page, media_box, trim_box)]
        for item in document.objects:
            if isinstance(item, pikepdf.Dictionary) and item.get("/Type") == pikepdf.Name("/FontDescriptor") \
                    and not any(key in item for key in ("/FontFile", "/FontFile2", "/FontFile3")):
                found.append(f"font {item.get('/FontName')} not embedded")
    return found


def _intent_ok(intent) -> bool:
    if intent.get("/S") != "/GTS_PDFX":
        return False
    profile = intent.get("/DestOutputProfile")
    if profile is not None:
        return int(profile.get("/N", 0)) == 4
    return bool(str(intent.get("/OutputConditionIdentifier", ""))) and "/RegistryName" in intent


def _page_problems(page, media_box: tuple, trim_box: tuple) -> list[str]:
    import pikepdf

    found = []
    boxes = {name: [round(float(v), 3) for v in page.obj[name]] for name in ("/MediaBox", "/TrimBox", "/ArtBox")
             if name in page.obj}
    if boxes.get("/MediaBox") != [round(float(v), 3) for v in media_box]:
        found.append(f"MediaBox {boxes.get('/MediaBox')}")
    if boxes.get("/TrimBox") != [round(float(v), 3) for v in trim_box]:
        found.append(f"TrimBox {boxes.get('/TrimBox')}")
    if "/TrimBox" in boxes and "/ArtBox" in boxes:
        found.append("both TrimBox and ArtBox")
    if _transparent(page.obj, set()):
        found.append("transparency")
    holders, seen = [page.obj], set()
    while holders:
        holder = holders.pop()
        resources = holder.get("/Resources") or {}
        spaces = list((resources.get("/ColorSpace") or {}).values())
        for xobject in (resources.get("/XObject") or {}).values():
            if xobject.objgen in seen and xobject.objgen != (0, 0):
                continue
            seen.add(xobject.objgen)
            if xobject.get("/Subtype") == pikepdf.Name("/Form"):
                holders.append(xobject)
            elif "/ColorSpace" in xobject:
                spaces.append(xobject.ColorSpace)
        if any(_rgb(space) for space in spaces):
            found.append("an RGB colour space")
        operators = {str(op) for _, op in pikepdf.parse_content_stream(holder)} \
            if holder is not page.obj or "/Contents" in holder else set()
        if operators & {"rg", "RG"}:
            found.append("RGB colour operators (rg/RG)")
    return sorted(set(found))


def _rgb(space) -> bool:
    import pikepdf

    if isinstance(space, pikepdf.Name):
        return space == pikepdf.Name("/DeviceRGB")
    if isinstance(space, pikepdf.Array) and len(space) > 1 and space[0] == pikepdf.Name("/ICCBased"):
        return int(space[1].get("/N", 0)) == 3
    if isinstance(space, pikepdf.Array) and len(space) > 1 and space[0] == pikepdf.Name("/Indexed"):
        return _rgb(space[1])
    return False
