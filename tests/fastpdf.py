"""pdfplumber, the tests' PDF reader, with its content streams tokenized by pikepdf (qpdf, C++) instead of by
pdfminer's pure-Python parser, which was most of the time pdfplumber spent on a page of card faces.

Only the reading of the stream's bytes changes: pdfminer's interpreter receives the same operands and
operators in the same order, with the same argument stack, and does all it did with them (fonts, matrices,
colours, characters, paths), so every object pdfplumber gives is the one it gave before. A stream drawn again
(a card back, a Form XObject on many pages) is tokenized once. pdfminer parses a content stream itself
whenever the two readings could differ: several content streams on one page (pdfminer reads them as one), an
inline image, a dictionary operand (pdfminer keeps a null in it), a null, a name with a #xx escape or not in
UTF-8, an operator pdfminer does not know (qpdf reads `1e5` as one operator, pdfminer as a number and an
operator). tests/test_fastpdf.py compares both readings on real PDFs.

pdfplumber's resolve_all, called on every attribute of every object it gives, returns a number or a string
as it is and a tuple or list of them anew: it now does so without its isinstance tests; the name of a
character's colour space is decoded once.

The test process's own reading only: the pipeline does not use pdfminer, and the preflight (pdfcheck) runs in
a process of its own."""

from __future__ import annotations

import re
from decimal import Decimal
from functools import lru_cache

import pikepdf
import pdfplumber.page
from pdfminer import pdfinterp
from pdfminer.psparser import KWD, LIT, PSKeyword

ORIGINAL_EXECUTE = pdfinterp.PDFPageInterpreter.execute
ORIGINAL_RESOLVE_ALL = pdfplumber.page.resolve_all
ORIGINAL_RESOLVE_AND_DECODE = pdfplumber.page.resolve_and_decode
ORIGINAL_PROCESS_OBJECT = pdfplumber.page.Page.process_object
_SCRATCH = pikepdf.new()                # qpdf parses the stream of a document: this one owns the streams made
_OPERATORS = {name[3:].replace("_a", "*").replace("_w", '"').replace("_q", "'").encode()
              for name in dir(pdfinterp.PDFPageInterpreter) if name.startswith("do_")}
_PLAIN = (int, float, str, bool, type(None))
# the versions whose internals this replaces (execute, resolve_all, resolve_and_decode) and whose readings
# tests/test_fastpdf.py found the same: another version is read by pdfminer alone until checked again
VERIFIED = {"pdfminer": "20260107", "pdfplumber": "0.11.10"}


class Unsupported(Exception):
    """A content stream pdfminer might read otherwise than qpdf does: pdfminer parses it itself."""


def _operand(value):
    kind = type(value)
    if kind is int or kind is bool:
        return value
    if kind is Decimal:
        return float(value)             # both round the decimal text to the nearest double
    if isinstance(value, pikepdf.Name):
        name = bytes(value.unparse())[1:]
        if b"#" in name:
            raise Unsupported(name)     # qpdf decodes #xx escapes; keep pdfminer's own reading of them
        try:
            return LIT(name.decode("utf-8"))
        except UnicodeDecodeError:
            raise Unsupported(name) from None
    if isinstance(value, pikepdf.String):
        return bytes(value)
    if isinstance(value, pikepdf.Array):
        return [_operand(item) for item in value]
    raise Unsupported(repr(value))      # None (null), dictionaries, inline images, anything else


def tokens(data: bytes) -> list:
    """The objects pdfminer's PDFContentParser.nextobject gives for one content stream, operands then their
    operator (a PSKeyword), in order; Unsupported if pdfminer could read them otherwise."""
    found: list = []
    for operands, operator in pikepdf.parse_content_stream(pikepdf.Stream(_SCRATCH, data)):
        name = bytes(operator.unparse())
        if name not in _OPERATORS:
            raise Unsupported(name)
        found.extend(_operand(value) for value in operands)
        found.append(KWD(name))
    return found


def _stream_tokens(interpreter, streams) -> list | None:
    """The tokens of the one content stream `execute` is given, kept on the stream (pdfminer keeps one
    object per PDF object of a document); None when pdfminer must parse it."""
    if len(streams) != 1:
        return None
    stream = pdfinterp.stream_value(streams[0])
    if stream.objid is None or stream.objid in interpreter.parent_stream_ids:
        return None                     # pdfminer's own warnings and refusals
    found = getattr(stream, "_fastpdf_tokens", None)
    if found is None:
        try:
            found = tokens(stream.get_data())
        except Unsupported:
            found = False
        stream._fastpdf_tokens = found
    if found is False:
        return None
    interpreter.stream_ids.clear()
    interpreter.stream_ids.add(stream.objid)
    return found


def execute(self, streams) -> None:
    """PDFPageInterpreter.execute on qpdf's tokens: push an operand, call an operator's do_ method with as
    many operands as it takes from the stack (when there are as many), ignore an operator it has not."""
    found = _stream_tokens(self, streams)
    if found is None:
        return ORIGINAL_EXECUTE(self, streams)
    methods: dict = {}
    for obj in found:
        if obj.__class__ is not PSKeyword:
            self.argstack.append(obj)
            continue
        method = methods.get(obj)
        if method is None:
            name = pdfinterp.keyword_name(obj)
            func = getattr(self, "do_{}".format(name.replace("*", "_a").replace('"', "_w").replace("'", "_q")),
                           None)
            method = methods[obj] = (func, func.__code__.co_argcount - 1) if func is not None else (None, 0)
        func, nargs = method
        if func is None:
            continue
        if nargs:
            args = self.pop(nargs)
            if len(args) == nargs:
                func(*args)
        else:
            func()


def resolve_all(x):
    """pdfplumber's resolve_all: a number or a string as it is, a tuple or a list made anew of its items
    resolved, anything else (a reference, a dictionary) by pdfplumber's own."""
    kind = x.__class__
    if kind in _PLAIN:
        return x
    if kind is tuple or kind is list:
        return kind([resolve_all(v) for v in x])
    return ORIGINAL_RESOLVE_ALL(x)


@lru_cache(maxsize=256)
def _decoded_name(name: str) -> str:
    return ORIGINAL_RESOLVE_AND_DECODE(name)


def resolve_and_decode(x):
    """pdfplumber's resolve_and_decode, which it calls on the colour space's name of every character: a name
    (a string) decoded once."""
    return _decoded_name(x) if x.__class__ is str else ORIGINAL_RESOLVE_AND_DECODE(x)


_KINDS: dict = {}


def process_object(self, obj) -> dict:
    """pdfplumber's Page.process_object (0.11.10), line for line, but for its per-attribute function calls:
    the object's kind named once per class, plain attribute values taken as they are."""
    from pdfplumber.page import ALL_ATTRS, LTChar, LTCurve, LTTextContainer, fix_fontname_bytes, \
        normalize_unicode

    cls = obj.__class__
    kind = _KINDS.get(cls)
    if kind is None:
        kind = _KINDS[cls] = re.sub(pdfplumber.page.lt_pat, "", cls.__name__).lower()
    attr = {k: (v if v.__class__ in _PLAIN else resolve_all(v)) for k, v in obj.__dict__.items() if k in ALL_ATTRS}
    attr["object_type"] = kind
    attr["page_number"] = self.page_number
    for cs in ("ncs", "scs"):
        if hasattr(obj, cs):
            attr[cs] = resolve_and_decode(getattr(obj, cs).name)
    if isinstance(obj, (LTChar, LTTextContainer)):
        text = obj.get_text()
        attr["text"] = normalize_unicode(self.pdf.unicode_norm, text) if self.pdf.unicode_norm is not None else text
    if isinstance(obj, LTChar):
        gs = obj.graphicstate
        attr["stroking_color"] = gs.scolor if isinstance(gs.scolor, tuple) else (gs.scolor,)
        attr["non_stroking_color"] = gs.ncolor if isinstance(gs.ncolor, tuple) else (gs.ncolor,)
        if isinstance(attr["fontname"], bytes):
            attr["fontname"] = fix_fontname_bytes(attr["fontname"])
    elif isinstance(obj, LTCurve):
        attr["pts"] = list(map(self.point2coord, attr["pts"]))
        attr["path"] = [(cmd, *map(self.point2coord, pts)) for cmd, *pts in obj.original_path]
        attr["dash"] = obj.dashing_style
    mb_x0, mb_top = self.mediabox[:2]
    if "y0" in attr:
        height = self.height
        attr["top"] = (height - attr["y1"]) + mb_top
        attr["bottom"] = (height - attr["y0"]) + mb_top
        attr["doctop"] = self.initial_doctop + attr["top"]
    if "x0" in attr and mb_x0 != 0:
        attr["x0"] = attr["x0"] + mb_x0
        attr["x1"] = attr["x1"] + mb_x0
    return attr


def verified() -> bool:
    import pdfminer

    return pdfminer.__version__ == VERIFIED["pdfminer"] and pdfplumber.__version__ == VERIFIED["pdfplumber"]


def install() -> None:
    """From now on, in this process, pdfminer (and so pdfplumber) tokenizes content streams with qpdf."""
    pdfinterp.PDFPageInterpreter.execute = execute
    pdfplumber.page.resolve_all = resolve_all
    pdfplumber.page.resolve_and_decode = resolve_and_decode
    pdfplumber.page.Page.process_object = process_object


def uninstall() -> None:
    pdfinterp.PDFPageInterpreter.execute = ORIGINAL_EXECUTE
    pdfplumber.page.resolve_all = ORIGINAL_RESOLVE_ALL
    pdfplumber.page.resolve_and_decode = ORIGINAL_RESOLVE_AND_DECODE
    pdfplumber.page.Page.process_object = ORIGINAL_PROCESS_OBJECT
