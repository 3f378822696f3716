"""Spatial rules are drawn, not written (issue 20): every board example and Contract plan of Build It, NBA's
boards, river and attack, All-Star's Station de Bus and buses, Fightball's field, Challengers' benches are
figures generated from the data, drawn in the built rulebooks at print size (no word under 6 pt), and no text
grid is left in the books."""

from __future__ import annotations

import re
from io import BytesIO

import pdfplumber
import pytest

from pipeline.core.units import MM
from pipeline.games import load_game
from pipeline.games.buildit.engine.geometry import groups, matches, parse_plan
from pipeline.games.buildit.rulebook.diagrams import BOARD_EXAMPLES, MARGIN_MM, PLOT_MM, plot_xy
from pipeline.render.faces.primitives import Group, Polygon
from pipeline.render.rulebook.source import render_chapters
from tests.conftest import ROOT
from tests.render.rulebook.rulebooks import Book, drawn, small_words, write_book

MIN_PT = 6.0
DIAGRAMS = {   # game -> the drawn figures its chapters must show (name prefixes)
    "buildit": ("board-plateau", "board-voisines-avant", "board-construire-avant", "board-construire-apres", "board-tour-avant", "board-tour-apres",
                "plan-"),
    "nba": ("court-plan", "markets-plan", "court-setup", "attack", "track-full", "track-hole"),
    "allstar": ("station-match", "buses-round", "fanzone-lap"),
    "fightball": ("field-plan",),          # its piles of cards are stack figures (tests/games/fightball/test_fightball_rulebook.py)
    "challengers": ("bench-end-",),        # the told match's piles are stack figures (tests/games/challengers/test_challengers_rulebook.py)
}


def _book(game_id: str) -> Book:
    return write_book(load_game(game_id, ROOT))


@pytest.fixture(scope="module")
def books() -> dict:
    return {game_id: _book(game_id) for game_id in DIAGRAMS}


def _diagrams(book: dict) -> list[str]:
    """The drawn figures (fig-*.yaml) the book shows (a stack figure is a pile of cards, not a drawn face)."""
    return [name for name in book.info["figures"]
            if getattr(book.spec.figures[name], "template", "").startswith("fig-")]


@pytest.mark.parametrize("game_id", list(DIAGRAMS))
def test_the_chapters_show_their_diagrams(books, game_id):
    shown = _diagrams(books[game_id])
    for wanted in DIAGRAMS[game_id]:
        assert any(name.startswith(wanted) for name in shown), (wanted, shown)
    if game_id == "buildit":       # every Contract's plan is drawn
        assert {f"plan-{r['id']}" for r in books[game_id].records["contracts"]} <= set(shown)


@pytest.mark.parametrize("game_id", list(DIAGRAMS))
def test_no_text_grid_is_left(books, game_id):
    """No table row of plots or slots in the chapters as rendered, and no "X· / ·X" plan in the printed text."""
    book = books[game_id]
    chapters, problems = render_chapters(book.game.template_dir / book.spec.source, book.spec.context, ROOT)
    assert not problems
    rows = [line for chapter in chapters for line in chapter.text.splitlines() if line.lstrip().startswith("|")]
    grid = re.compile(r"\|\s*(Chantier|Permis|Constr\.?|Construction)s? (bleu|rouge|jaune|vert)e?s?\s*\||"
                      r"\|\s*·\s*\|\s*·\s*\||\|\s*\*?[a-g]\*?\s*\|\s*\*?[a-g]\*?\s*\|")
    assert not [row for row in rows if grid.search(row)]
    with pdfplumber.open(BytesIO(book.pdf)) as pdf:
        text = " ".join(" ".join((page.extract_text() or "") for page in pdf.pages).split())
    assert not re.search(r"[X#]·|·[X#]|[X#·]{2,} / [X#·]{2,}", text)


@pytest.mark.parametrize("game_id", list(DIAGRAMS))
def test_every_diagram_is_drawn_with_words_of_6_pt_or_more(books, game_id):
    """Each diagram's face is framed by its background, a rect of its own proportions: find it in the PDF by
    those proportions and the very characters the face writes, and measure every character in it."""
    book = books[game_id]
    names = _diagrams(book)
    assert small_words(book, names, MIN_PT) == []
    for name in names:
        for page, rect, _ in drawn(book, name):
            assert rect["width"] <= book.figures[name].width + 0.5, f"{name}: drawn larger than its print size"


def _pawns(face) -> list[tuple[float, float, tuple]]:
    """The pawn groups of a fig-board face: their top-left corner in mm from the face's top-left, and their
    silhouettes' points as drawn (group-local points, mm, y up)."""
    height = face.height / MM
    out = []
    for outer in face.primitives:
        if not isinstance(outer, Group):
            continue
        for pawn in outer.children:
            if not (isinstance(pawn, Group) and any(isinstance(child, Group) for child in pawn.children)):
                continue     # a plot or a mark: no silhouette group inside
            shapes = tuple(tuple((round(x / MM, 2), round(y / MM, 2)) for x, y in poly.points)
                           for state in pawn.children if isinstance(state, Group)
                           for poly in state.children if isinstance(poly, Polygon))
            out.append((round((outer.x + pawn.x) / MM, 2), round(height - (outer.y + pawn.y) / MM, 2), shapes))
    return out


def test_the_drawn_boards_hold_the_examples_pawns(books):
    """Each pawn is drawn in the plot the example names, and the buildings of the examples' 'après' boards
    have the plans of the workbook's Contracts the chapters say they fulfil."""
    book = books["buildit"]
    plans = {r["id"]: r["plan"] for r in book.records["contracts"]}
    rules = book.spec.context["rules"]
    for example, spec in BOARD_EXAMPLES.items():
        left, top = plot_xy(spec["window"][0])
        if "apres" not in spec:
            continue
        for moment in ("avant", "apres"):
            face = book.figures[f"board-{example}-{moment}"]
            drawn = sorted((x, y) for x, y, _ in _pawns(face))
            wanted = sorted((round(MARGIN_MM + (plot_xy(p)[0] - left) * PLOT_MM + 1, 2),
                             round(MARGIN_MM + (plot_xy(p)[1] - top) * PLOT_MM + 1, 2)) for p in spec[moment])
            assert drawn == wanted, (example, moment)
        built = {plot_xy(p)[::-1] for p, kind in spec["apres"].items() if kind == "blue-construction"}
        buildings = groups(built)
        fulfilled = {cid for cid, plan in plans.items()
                     if any(matches(b, parse_plan(plan), rules["allow_rotation"], rules["allow_reflection"])
                            for b in buildings)}
        expected = {"construire": {"poqueboule", "citedor"}, "tour": {"citedor"}}[example]
        assert expected <= fulfilled, (example, fulfilled)


def test_the_pawns_are_drawn_with_the_pawn_tokens_shapes(books):
    """fig-board.yaml repeats pawn.yaml's silhouettes scaled to its plots: the same polygons, point for point."""
    book = books["buildit"]
    pawn_deck = next(c for c in book.game.components(book.records) if c.id == "pawns")
    k = (PLOT_MM - 2) / 18
    window = plot_xy(BOARD_EXAMPLES["construire"]["window"][0])
    board = book.figures["board-construire-avant"]
    for state in ("site", "construction"):
        token = next(f for f in pawn_deck.fronts if f.context["state"] == state)
        face = book.renderer.layout(token.template, token.context, None, token.name)[0]
        token_shapes = tuple(tuple((round(x / MM * k, 2), round(y / MM * k, 2)) for x, y in poly.points)
                             for group in face.primitives if isinstance(group, Group)
                             for poly in group.children if isinstance(poly, Polygon))
        plot = next(p for p, what in BOARD_EXAMPLES["construire"]["avant"].items() if what == f"blue-{state}")
        corner = tuple(round(MARGIN_MM + (plot_xy(plot)[i] - window[i]) * PLOT_MM + 1, 2) for i in (0, 1))
        drawn = next(shapes for x, y, shapes in _pawns(board) if (x, y) == corner)
        assert token_shapes and drawn == token_shapes, state


def test_the_neighbours_drawn_are_the_eight_plots_around(books):
    """The adjacency figure tints exactly the plots that touch its centre by a side or a corner."""
    spec = BOARD_EXAMPLES["voisines"]
    centre = next(p for p, word in spec["marks"]["avant"].items() if word)
    cx, cy = plot_xy(centre)
    tinted = {plot_xy(p) for p, word in spec["marks"]["avant"].items() if not word}
    assert tinted == {(cx + dx, cy + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)}
    context = books["buildit"].spec.figures["board-voisines-avant"].context
    assert sorted((m["x"], m["y"]) for m in context["marks"] if m["tint"]) == sorted(
        (x - plot_xy(spec["window"][0])[0], y - plot_xy(spec["window"][0])[1]) for x, y in tinted)


def test_the_chapters_text_names_the_drawn_plots(books):
    with pdfplumber.open(BytesIO(books["buildit"].pdf)) as pdf:
        text = " ".join(" ".join((page.extract_text() or "") for page in pdf.pages).split())
    sites = sorted(p for p, kind in BOARD_EXAMPLES["construire"]["avant"].items() if kind == "blue-site")
    line = sorted(sites, key=lambda p: (plot_xy(p)[1], plot_xy(p)[0]))[:3]
    assert f"les trois parcelles {line[0]}, {line[1]} et {line[2]}" in text and "{" not in text   # words, not sets


def test_the_river_diagrams_follow_the_engine(books):
    """The track figures are the engine's push: a full track loses its last card, a hole stops the push."""
    figures = books["nba"].spec.figures
    full = figures["track-full"].context["rows"]
    assert full[1]["cells"][0] == "g" and full[1]["out"] == full[0]["cells"][-1]
    hole = figures["track-hole"].context["rows"]
    assert hole[0]["cells"][1] == "" and hole[1]["cells"][1:] == hole[0]["cells"][:1] + hole[0]["cells"][2:]
    assert hole[1]["out"] == ""


def test_the_attack_diagram_adds_up(books):
    steps = books["nba"].spec.figures["attack"].context
    kept = [sum(d["value"] for d in step["dice"] if d["kept"]) for step in steps["steps"]]
    assert [step["total"] for step in steps["steps"]] == [f"= {v}" for v in kept]
    assert steps["result"]["sum"].startswith(f"{kept[0]} − {kept[1]} = {max(0, kept[0] - kept[1])} point")


def test_the_board_window_follows_the_board_size(tmp_path):
    """A board example that no longer fits the board is refused with its name, not drawn off the grid."""
    from pipeline.data.specs import CardDeck
    from pipeline.games.buildit.rulebook.diagrams import board_figures
    with pytest.raises(ValueError, match="off the 4 × 4 board"):
        board_figures(CardDeck("pawns", "Pions", (), None), 4)
