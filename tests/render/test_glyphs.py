"""The fallback chain glyph by glyph (pipeline/render/glyphs.py): which font draws which character, how
card text measures and draws runs of several fonts, and the single-line labels of charts and dice."""

from __future__ import annotations

from dataclasses import replace
from io import BytesIO

import pypdfium2 as pdfium
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reportlab.pdfgen.canvas import Canvas

from pipeline.render.fonts import default_fonts
from pipeline.render.glyphs import missing, problems_in, segments, string_width

NOTO = "NotoSans-wdth-wght"


@pytest.fixture(scope="module")
def fonts():
    return default_fonts()


def test_text_the_primary_font_has_is_one_run_and_not_copied(fonts):
    text = "Nikola Jokić, Luka Dončić"[:13]                   # "Nikola Jokić,": Lato has ć
    parts = segments(text, "Lato-Regular", fonts.fallbacks)
    assert parts == [("Lato-Regular", text)] and parts[0][1] is text
    assert missing(text, "Lato-Regular", fonts.fallbacks) == [] and problems_in(text, fonts.chain()) == []


def test_each_character_goes_to_the_first_font_that_has_it_spaces_and_signs_stay_in_their_run(fonts):
    assert segments("Luka Dončić и Петар", "Lato-Regular", fonts.fallbacks) == [
        ("Lato-Regular", "Luka Don"), (NOTO, "č"), ("Lato-Regular", "ić "), (NOTO, "и Петар")]
    assert segments("Цена: 3. Jokić, (Петар).", "Lato-Regular", fonts.fallbacks) == [
        (NOTO, "Цена: "), ("Lato-Regular", "3. Jokić, "), (NOTO, "(Петар).")]
    assert segments("Петар\u00a0Јокић", "Lato-Regular", fonts.fallbacks) == [(NOTO, "Петар\u00a0Јокић")]


def _char_fonts(parts) -> list[str]:
    return [name for name, part in parts for _ in part]
    assert segments("Петар\u00a0Јокић", "Lato-Regular", fonts.fallbacks) == [(NOTO, "Петар\u00a0Јокић")]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab ćčЖж\u00a0\u00ad\u200bΩ≤≡😀.,3", max_size=24), st.sampled_from(["Lato-Regular", "FjallaOne-Regular"]))
def test_segments_put_each_character_in_the_first_font_that_has_it(text, font):
    from pipeline.render.glyphs import INVISIBLE, SPACES, coverage, font_for

    fonts = default_fonts()
    chain = (font, *fonts.behind(font))
    parts = segments(text, font, fonts.behind(font))
    assert "".join(part for _, part in parts) == "".join(c for c in text if c not in INVISIBLE)
    assert all(a[0] != b[0] for a, b in zip(parts, parts[1:])) and all(part for _, part in parts[1:])
    previous = font
    for name, part in parts:
        for char in part:
            if char in SPACES:                       # a space stays with the character before it
                assert name == previous, (text, parts)
            elif char in ".,3":                      # a sign: a font that has it
                assert char in coverage(name), (text, parts)
            else:                                    # a letter: the first font that has it
                assert name == (font_for(char, chain) or font), (text, parts)
            previous = name
    shown = "".join(c for c in text if c not in INVISIBLE)        # a word alone is cut as on its line (render/faces/text.py
    line = _char_fonts(parts)                                     # measures words, draws lines)
    position = 0
    for word in shown.split(" "):
        if word.strip():
            alone = segments(word, font, fonts.behind(font))
            assert _char_fonts(alone)[len(word) - len(word.lstrip()):] == \
                line[position:position + len(word)][len(word) - len(word.lstrip()):], (text, word)
        position += len(word) + 1
    kept = segments(text, font, fonts.behind(font), keep_invisible=True)          # a paragraph's: every character
    assert "".join(part for _, part in kept) == text
    assert len(kept) == 1 or not coverage(font).issuperset(text)


def test_invisible_characters_are_not_drawn_but_platypus_keeps_them(fonts):
    word = "Zaż\u00adółć\u200b"
    assert segments(word, "Lato-Regular", fonts.fallbacks) == [("Lato-Regular", "Zażółć")]
    assert segments(word, "Lato-Regular", fonts.fallbacks, keep_invisible=True) == [("Lato-Regular", word)]
    assert string_width(word, "Lato-Regular", 10, fonts.fallbacks) == string_width("Zażółć", "Lato-Regular", 10)


def test_every_role_is_backed_by_the_body_font_last(fonts):
    """Fjalla One and Noto Sans lack ≤ and ∞ that Lato has: a title still prints them, in Lato."""
    title = fonts.name("title")
    assert fonts.behind(title) == (*fonts.fallbacks, "Lato-Regular") and fonts.behind("Lato-Regular") == fonts.fallbacks
    assert segments("Coût ≤ 3, Łódź", title, fonts.behind(title)) == [
        (title, "Coût "), ("Lato-Regular", "≤ "), (title, "3, Łód"), (NOTO, "ź")]
    assert fonts.family_names(fonts.chain("title")) == ("Fjalla One", "Noto Sans")


def test_fitted_card_text_measures_and_draws_runs_of_each_font(fonts):
    from pipeline.render.faces.text import TextStyle, fit_text

    style = TextStyle(fonts.name("body"), fonts.bold("body"), 10, 6, 1.2, "left", "top",
                      fonts.behind(fonts.name("body")))
    source = "**Съешь** же ещё Jokić"
    fitted = fit_text(source, (0, 100, 500, 100), style, lambda name: None)
    assert [(run.font, run.text) for run in fitted.runs] == [
        (NOTO, "Съешь "), (NOTO, "же ещё "), ("Lato-Regular", "Jokić")]
    for run, after in zip(fitted.runs, fitted.runs[1:]):          # each run ends where the next begins
        assert after.x == pytest.approx(run.x + string_width(run.text, run.font, 10))
    right = fit_text(source, (0, 100, 500, 100), replace(style, align="right"), lambda name: None)
    assert right.runs[-1].x + string_width(right.runs[-1].text, "Lato-Regular", 10) == pytest.approx(500)


def test_wrapped_lines_are_as_wide_as_measured_whatever_font_draws_their_spaces(fonts):
    """A space after a Cyrillic word is Noto's (wider than Lato's): right-aligned lines still end at the edge."""
    from pipeline.render.faces.text import TextStyle, fit_text

    style = TextStyle(fonts.name("body"), fonts.bold("body"), 10, 6, 1.2, "right", "top",
                      fonts.behind(fonts.name("body")))
    source = ("Съешь же ещё этих мягких французских булок, да выпей чаю. Jokić и **Дончич** идут :star: "
              "на площадку; Γαζέες καὶ μυρτιὲς δὲν θὰ βρῶ πιὰ στὸ χρυσαφὶ ξέφωτο.")
    fitted = fit_text(source, (0, 300, 150, 300), style, lambda name: 1.0)
    lines: dict[float, list] = {}
    for run in fitted.runs:
        lines.setdefault(run.y, []).append(run)
    assert len(lines) >= 5 and fitted.fits
    for y, runs in lines.items():
        icons = [icon for icon in fitted.icons if icon.y == y and icon.x > runs[-1].x]
        end = icons[-1].x + icons[-1].width if icons else runs[-1].x + string_width(runs[-1].text.rstrip(), runs[-1].font, 10)
        assert end == pytest.approx(150), (runs, end)


def test_chart_labels_use_the_chain(fonts):
    from pipeline.render.charts import draw as charts

    buffer = BytesIO()
    canvas = Canvas(buffer, invariant=1, initialFontName=fonts.name("body"))
    charts.text(canvas, 10, 10, "Bogdan Bogdanović · Богдан", fonts.name("body"), 9, room=400)
    canvas.save()
    text = pdfium.PdfDocument(buffer.getvalue()).get_page(0).get_textpage().get_text_range()
    assert "Bogdan Bogdanović · Богдан" in text


def test_die_labels_are_fitted_and_drawn_with_the_chain(fonts):
    from pipeline.render.sheets.dice import _centred_text, _fit

    label, size = _fit("Кубик защиты Ґ", fonts, "bold", 9, 25)
    assert string_width(label, "Lato-Bold", size, fonts.behind("Lato-Bold")) <= 25 * 72 / 25.4
    buffer = BytesIO()
    canvas = Canvas(buffer, invariant=1, initialFontName=fonts.name("body"))
    _centred_text(canvas, fonts, "bold", "Кубик защиты Ґ", 6, 50, 50, align="right")
    canvas.save()
    assert "Кубик защиты Ґ" in pdfium.PdfDocument(buffer.getvalue()).get_page(0).get_textpage().get_text_range()
