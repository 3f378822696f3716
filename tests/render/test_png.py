"""pipeline/render/png.py: the PNG writer every drawn image goes through (sheets' PNG pages, exports)."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from pipeline.render import png


def _noisy(mode: str, size=(37, 23), seed=7) -> Image.Image:
    rng = random.Random(seed)
    channels = {"L": 1, "RGB": 3, "RGBA": 4}[mode]
    return Image.frombytes(mode, size, bytes(rng.randrange(256) for _ in range(size[0] * size[1] * channels)))


@pytest.mark.parametrize("mode", ["L", "RGB", "RGBA"])
@pytest.mark.parametrize("level", [1, 6, 9])
def test_pillow_reads_back_every_pixel(mode, level):
    image = _noisy(mode)
    back = Image.open(io.BytesIO(png.encode(image, level=level)))
    back.load()
    assert (back.mode, back.size) == (mode, image.size)
    assert back.tobytes() == image.tobytes()


def test_the_resolution_is_the_tag_pillow_reads():
    back = Image.open(io.BytesIO(png.encode(_noisy("RGB"), dpi=300)))
    assert back.info["dpi"] == pytest.approx((300, 300), abs=0.01)
    assert "dpi" not in Image.open(io.BytesIO(png.encode(_noisy("RGB")))).info


def test_other_modes_are_written_as_rgb():
    paletted = _noisy("RGB").convert("P")
    back = Image.open(io.BytesIO(png.encode(paletted)))
    assert back.mode == "RGB" and back.tobytes() == paletted.convert("RGB").tobytes()


def test_same_pixels_same_bytes_and_only_the_four_chunks():
    data = png.encode(_noisy("RGB"), dpi=150)
    assert data == png.encode(_noisy("RGB"), dpi=150)
    assert data != png.encode(_noisy("RGB", seed=8), dpi=150)
    kinds, at = [], 8
    while at < len(data):
        length = int.from_bytes(data[at:at + 4], "big")
        kinds.append(data[at + 4:at + 8])
        at += 12 + length
    assert kinds == [b"IHDR", b"pHYs", b"IDAT", b"IEND"] and at == len(data)


def test_pixels_that_do_not_fill_the_size_are_refused():
    with pytest.raises(ValueError, match="not 4 × 2 pixels"):
        png.pack(b"\x00" * 23, 4, 2, 2, 3)
