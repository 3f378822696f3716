"""PNG files of drawn images, the same bytes for the same pixels.

Pillow's PNG writer filters every row adaptively (it tries the five PNG filters per row and keeps the
cheapest). On the flat, vector-drawn art this project renders (cards, pages, sheets of faces), that search
costs more than the compression itself and makes larger files than no filter at all: a 821 × 1121 poker
face took 17.9 ms and 98 KB through Pillow at zlib level 6, 10.1 ms and 85 KB here. So rows are written
unfiltered (filter type 0) and deflated once. A photograph compresses worse without filtering; the files stay
valid PNGs either way.

No time, text or gamma chunks: IHDR, pHYs (when a resolution is given), one IDAT, IEND.
"""

from __future__ import annotations

import struct
import zlib

SIGNATURE = b"\x89PNG\r\n\x1a\n"
COLOUR_TYPES = {"L": (0, 1), "RGB": (2, 3), "RGBA": (6, 4)}     # mode -> (PNG colour type, bytes a pixel)
INCH_M = 0.0254


def encode(image, dpi: int | None = None, level: int = 6) -> bytes:
    """The PNG of a Pillow image (L, RGB or RGBA; any other mode is converted to RGB), at zlib `level`
    (1: fastest, 9: smallest), tagged with `dpi` when given."""
    if image.mode not in COLOUR_TYPES:
        image = image.convert("RGB")
    colour_type, channels = COLOUR_TYPES[image.mode]
    width, height = image.size
    return pack(image.tobytes(), width, height, colour_type, channels, dpi, level)


def pack(pixels: bytes, width: int, height: int, colour_type: int, channels: int, dpi: int | None = None,
         level: int = 6) -> bytes:
    """The PNG of raw 8-bit pixels, row after row (`channels` bytes a pixel)."""
    stride = width * channels
    if width < 1 or height < 1 or len(pixels) != stride * height:
        raise ValueError(f"png: {len(pixels)} bytes are not {width} × {height} pixels of {channels} bytes")
    view = memoryview(pixels)
    compressor = zlib.compressobj(level)
    data = b"".join(compressor.compress(b"\x00" + view[row:row + stride])
                    for row in range(0, stride * height, stride)) + compressor.flush()
    chunks = [_chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, 0))]
    if dpi:
        per_metre = int(dpi / INCH_M + 0.5)
        chunks.append(_chunk(b"pHYs", struct.pack(">IIB", per_metre, per_metre, 1)))
    chunks += [_chunk(b"IDAT", data), _chunk(b"IEND", b"")]
    return SIGNATURE + b"".join(chunks)


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
