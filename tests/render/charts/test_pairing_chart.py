"""The generic pairing chart (pipeline/render/charts/pairing.py, templates/common/pairing-chart.yaml): schedules
given as data, not by any game's engine, drawn and read back with pdfplumber cell by cell."""

from __future__ import annotations

import pytest

from pipeline import PROJECT_ROOT
from pipeline.core.units import MM
from pipeline.data.specs import FaceSpec
from pipeline.render.charts.pairing import BYE, ChartGeometry, PairingTable, TEMPLATE, chart_context
from pipeline.render.faces.renderer import FaceRenderer
from pipeline.render.fonts import default_fonts
from tests.render.test_safe_zone import measured_pages

# a hand-made schedule for 3 players and a bye ("Libre" sits out once in each round), and a 2-participant one
THREE = PairingTable("3 joueurs", ("Ana", "Bo", "Cy"), (((0, 1),), ((1, 2),), ((0, 2),)))
FOUR = PairingTable("4 équipes", ("Ana", "Bo", "Cy", "Robot"),
                    (((0, 3), (1, 2)), ((1, 3), (0, 2)), ((2, 3), (0, 1))), frozenset({3}))
TWO = PairingTable("duel", ("Nord", "Sud"), (((0, 1),), ((0, 1),), ((1, 0),)))


def test_opponents_read_both_ways_and_a_bye_is_none():
    assert THREE.opponents() == [[1, None, 2], [0, 2, None], [None, 1, 0]]
    assert FOUR.opponents()[3] == [0, 1, 2]
    assert TWO.opponents() == [[1, 1, 1], [0, 0, 0]]


@pytest.mark.parametrize("rounds, message", [
    ((((0, 1), (1, 2)),), "pairs Bo twice"),
    ((((0, 3),),), "not one of 0…2"),
    ((((1, 1),),), "pairs Bo twice"),
])
def test_a_schedule_that_cannot_be_played_is_refused(rounds, message):
    with pytest.raises(ValueError, match=message):
        PairingTable("3 joueurs", ("Ana", "Bo", "Cy"), rounds)


def test_blocks_fill_the_shortest_column_and_never_overlap():
    geometry = ChartGeometry(columns=2)
    context = chart_context([FOUR, TWO, THREE, TWO], top_mm=10, geometry=geometry, left_mm=4)
    boxes = []
    for block, table in zip(context["blocks"], (FOUR, TWO, THREE, TWO)):
        w, h = geometry.block_width(len(block["rounds"])), geometry.block_height(table)
        boxes.append((block["x"], block["y"], block["x"] + w, block["y"] + h))
    second = 4 + geometry.block_width(3) + geometry.gap_mm
    assert [b[0] for b in boxes] == pytest.approx([4, second, second, 4])
    assert boxes[0][1] == boxes[1][1] == 10   # both columns start at the top
    assert boxes[2][1] == pytest.approx(boxes[1][3] + geometry.gap_mm)
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)
    assert context["height"] == pytest.approx(max(b[3] for b in boxes))


def test_the_drawn_chart_prints_every_opponent_in_its_cell():
    tables = [THREE, FOUR, TWO]
    context = chart_context(tables, top_mm=0)
    renderer = FaceRenderer(PROJECT_ROOT, PROJECT_ROOT / "templates" / "challengers", default_fonts())
    size = (context["width"], context["height"])
    face, problems = renderer.layout(TEMPLATE, context, None, "chart", None, size)
    assert not problems, problems
    page = measured_pages([(FaceSpec(TEMPLATE, context, None, "chart", size_mm=size), face)]).pages[0]
    chars = [c for c in page.chars if c["text"].strip()]
    assert min(c["size"] for c in chars) >= 7
    for block, table in zip(context["blocks"], tables):
        for p, opponents in enumerate(table.opponents()):
            for r, opponent in enumerate(opponents):
                x = block["x"] + context["name_w"] + r * context["cell_w"]
                y = block["y"] + context["title_h"] + (p + 1) * context["row_h"]
                cell = "".join(c["text"] for c in chars if x <= c["x0"] / MM and c["x1"] / MM <= x + context["cell_w"]
                               and y <= c["top"] / MM and c["bottom"] / MM <= y + context["row_h"])
                assert cell == (BYE if opponent is None else table.names[opponent]), (table.title, p, r, cell)
            y = block["y"] + context["title_h"] + (p + 1) * context["row_h"]
            name = "".join(c["text"] for c in chars if block["x"] <= c["x0"] / MM
                           and c["x1"] / MM <= block["x"] + context["name_w"]
                           and y <= c["top"] / MM and c["bottom"] / MM <= y + context["row_h"])
            assert name == table.names[p]
