"""pnp's own preflight on a real build (the session's shared Build It build, tests/conftest.py): every PDF
it wrote passes `pnp preflight`, and the cards it reads back are the ones the build report says it placed."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from pipeline.cli.app import app
from pipeline.preflight import Options, check_file
from tests.conftest import built_game


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    return built_game(tmp_path_factory, "buildit")


def test_every_pdf_of_a_build_passes(built):
    result = CliRunner().invoke(app, ["preflight", str(built)])
    assert result.exit_code == 0, result.output
    assert "preflight passed" in result.output.splitlines()[-1]


def test_the_cards_read_back_are_the_cards_placed(built):
    report = json.loads((built / "report.json").read_text())
    decks = [e for e in report["outputs"] if e["kind"] == "cards" and e["format"] == "pnp"
             and e["backs_mode"] == "duplex" and not e["path"].endswith("-ink-saver.pdf")]
    assert decks
    for entry in decks:
        size = tuple(entry["size_mm"])
        checked = check_file(built.parent.parent / entry["path"], Options(card=size, duplex="on"))
        assert checked.errors == [], entry["path"]
        fronts = checked.cards[0::2]
        assert sum(len(c.rects) for c in fronts) == entry["cards"], entry["path"]
        assert len(checked.duplex) == len(fronts) and max(w for _, _, w in checked.duplex) <= 0.1
