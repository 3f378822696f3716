"""Secret-backed tokens (pipeline/games/secret_tokens.py): a toy family of two groups drawn by toy templates in a
scratch project; the public sides are compared as layouts and as the bytes of the PDF pages they draw."""

from __future__ import annotations

from dataclasses import replace
from io import BytesIO

import pytest

from pipeline.data.specs import CardDeck, FaceSpec
from pipeline.games.secret_tokens import SecretGroup, public_sides_differ, secret_tokens
from pipeline.render.faces.renderer import FaceRenderer
from pipeline.render.fonts import default_fonts
from pipeline.render.pdf import new_canvas

PUBLIC = """size: [20, 20]
bleed: 2
elements:
  - rect: {x: -2, y: -2, w: 24, h: 24, fill: "#223344"}
  - text: {x: 2, y: 2, w: 16, h: 16, text: "{{ %s }}", size: 20, align: center, valign: middle, color: white}
"""
HIDDEN = """size: [20, 20]
bleed: 2
elements:
  - text: {x: 2, y: 2, w: 16, h: 16, text: "{{ value }}", size: 20, align: center, valign: middle}
"""
GROUPS = [SecretGroup("a", {"round": 1}, ({"value": 2}, {"value": 2}, {"value": 3})),
          SecretGroup("b", {"round": 2}, ({"value": 3}, {"value": 4}))]


@pytest.fixture
def renderer(tmp_path):
    folder = tmp_path / "templates" / "toy"
    folder.mkdir(parents=True)
    (folder / "public.yaml").write_text(PUBLIC % "medal.round", encoding="utf-8")
    (folder / "blank.yaml").write_text(PUBLIC % "'?'", encoding="utf-8")      # forgets the group
    (folder / "hidden.yaml").write_text(HIDDEN, encoding="utf-8")
    return FaceRenderer(tmp_path, folder, default_fonts())


def layout_with(renderer):
    def layout(spec: FaceSpec):
        face, problems = renderer.layout(spec.template, spec.context, spec.ref, spec.name)
        assert not problems, problems
        return face
    return layout


def page_bytes(face) -> bytes:
    buffer = BytesIO()
    canvas = new_canvas(buffer, (face.width, face.height), default_fonts())
    face.draw(canvas)
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def group_of(front: FaceSpec):
    return front.context["medal"]["round"]


def test_the_family_is_a_deck_of_hidden_fronts_each_backed_by_its_groups_public_side():
    deck = secret_tokens("medals", "Médailles", GROUPS, "hidden.yaml", "public.yaml", (20, 20), group_key="medal")
    assert [f.context["value"] for f in deck.fronts] == [2, 2, 3, 3, 4]
    assert [f.context["card"]["copy"] for f in deck.fronts] == [1, 2, 3, 1, 2]
    assert [dict(b.context) for b in deck.backs] == [{"medal": {"round": 1}}] * 3 + [{"medal": {"round": 2}}] * 2
    assert all("value" not in str(b.context) for b in deck.backs)        # the value cannot reach the public side
    assert deck.size_mm == (20, 20) and len({b.name for b in deck.backs}) == 2


def test_public_sides_are_one_drawing_within_a_group_and_differ_across_groups(renderer):
    deck = secret_tokens("medals", "Médailles", GROUPS, "hidden.yaml", "public.yaml", (20, 20), group_key="medal")
    layout = layout_with(renderer)
    assert public_sides_differ(deck, layout, group_of) == []
    drawn = [page_bytes(layout(back)) for back in deck.backs]
    assert drawn[0] == drawn[1] == drawn[2] and drawn[3] == drawn[4]
    assert drawn[0] != drawn[3]
    hidden = [page_bytes(layout(front)) for front in deck.fronts]
    assert hidden[0] == hidden[1] != hidden[2]          # the values differ where the rounds do not


def test_a_public_side_that_shows_a_value_or_forgets_its_group_is_reported(renderer):
    layout = layout_with(renderer)
    deck = secret_tokens("medals", "Médailles", GROUPS, "hidden.yaml", "public.yaml", (20, 20), group_key="medal")
    # a family built by hand, its backs drawn with each token's value: group a now shows 2 and 3 face up
    leaky = replace(deck, backs=tuple(FaceSpec("hidden.yaml", front.context, None, f"{front.name}-b")
                                      for front in deck.fronts))
    found = public_sides_differ(leaky, layout, group_of)
    assert any("group 1 are 2 different drawings" in line for line in found), found
    assert any("group 2 are 2 different drawings" in line for line in found), found
    blank = secret_tokens("medals", "Médailles", GROUPS, "hidden.yaml", "blank.yaml", (20, 20), group_key="medal")
    assert public_sides_differ(blank, layout, group_of) == ["medals: groups 1, 2 share one public side"]


def test_refs_must_match_the_tokens():
    with pytest.raises(ValueError, match="2 refs for 3 tokens"):
        SecretGroup("a", {"round": 1}, ({"value": 2},) * 3, (None, None))
    assert isinstance(secret_tokens("m", "M", [], "h.yaml", "p.yaml", (20, 20)), CardDeck)
