"""Art and fonts from other people, damaged (issue 33): a PNG cut short fails when it is first read (at
validation, with its place), not in the middle of a build's drawing; an image of more pixels than Pillow's
decompression-bomb bound is refused before it is decoded; a TrueType file reportlab trips on (a name table
with no names) is one located line, not an AttributeError."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest
from PIL import Image

from pipeline.core.errors import PipelineError
from pipeline.render.faces import art
from pipeline.render.fonts import _register

ICON = Path(__file__).resolve().parents[2] / "bench" / "data" / "icons" / "icon_0.png"


def _lato() -> bytes:
    import font_lato

    return (Path(font_lato.__file__).parent / "files" / "Lato-Regular.ttf").read_bytes()


def _without_names(font: bytes) -> bytes:
    """The font with its name table's record count set to 0."""
    data = bytearray(font)
    for index in range(struct.unpack(">H", data[4:6])[0]):
        tag, _, offset, _ = struct.unpack(">4sIII", data[12 + 16 * index:28 + 16 * index])
        if tag == b"name":
            data[offset + 2:offset + 4] = b"\0\0"
    return bytes(data)


def test_a_png_cut_short_is_refused_when_first_read(tmp_path):
    path = tmp_path / "cut.png"
    path.write_bytes(ICON.read_bytes()[:300])          # its header (and size) whole, its pixels cut
    with pytest.raises(art.ArtError, match=r"^cannot read image cut\.png: image file is truncated"):
        art.natural_size(str(path))


def test_an_image_past_the_pixel_bound_is_refused_before_decoding(tmp_path):
    path = tmp_path / "wide.png"
    Image.new("1", (10_000, 9_000)).save(path)           # 90 million pixels, a few kB on disk
    with pytest.raises(art.ArtError, match=r"^image wide\.png is 10000×9000 pixels, above the 89 million"):
        art.natural_size(str(path))


def test_a_font_reportlab_trips_on_is_a_located_problem(tmp_path):
    path = tmp_path / "NoNames.ttf"
    path.write_bytes(_without_names(_lato()))
    with pytest.raises(PipelineError) as caught:
        _register("NoNames-damaged-test", path)
    assert [str(p) for p in caught.value.problems] == ["NoNames.ttf: cannot read the font: it is damaged "
                                                       "(AttributeError) [font]"]
