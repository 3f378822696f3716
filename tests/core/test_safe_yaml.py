"""The one YAML door (pipeline/core/safe_yaml.py): aliases counted before anything is built, depth and size
bounded, refusals located at their line, strings NFC; and what the shipped templates use still loads."""

from __future__ import annotations

import pytest

from pipeline.core.errors import SourceRef
from pipeline.core.safe_yaml import MAX_ALIAS_NODES, MAX_BYTES, MAX_DEPTH, YamlRefused, load_yaml, read_yaml
from pipeline.render.faces.layout import TemplateLoader
from tests.conftest import ROOT


def _refusal(text: str) -> YamlRefused:
    with pytest.raises(YamlRefused) as caught:
        load_yaml(text)
    return caught.value


def _bomb(levels: int) -> str:
    lines = ["lol0: &lol0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    lines += [f"lol{n}: &lol{n} [{', '.join([f'*lol{n - 1}'] * 9)}]" for n in range(1, levels + 1)]
    return "\n".join(lines) + "\n"


def test_a_billion_laughs_is_refused_at_the_alias_that_passes_the_budget():
    refused = _refusal(_bomb(9))
    assert refused.line == 5            # lol3 stands for 7,381 values: its second alias, on lol4's line
    assert f"aliases repeat more than {MAX_ALIAS_NODES:,} values" in refused.message
    assert "*lol3 alone stands for 7,381" in refused.message


def test_aliases_within_the_budget_load():
    data = load_yaml(_bomb(2))                  # 820 values
    assert data["lol2"] == [data["lol1"]] * 9 and data["lol1"] == [["lol"] * 9] * 9


def test_merge_keys_still_work():
    data = load_yaml("base: &base {x: 1, y: 2}\ncard:\n  <<: *base\n  y: 3\n")
    assert data["card"] == {"x": 1, "y": 3}


def test_an_alias_inside_its_own_anchor_is_refused():
    refused = _refusal("a: 1\nloop: &loop {next: [*loop]}\n")
    assert refused.line == 2 and "*loop is inside its own anchor &loop" in refused.message


def test_nesting_is_bounded_written_out_or_through_an_alias():
    load_yaml("x: " + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1))      # the mapping is level 1
    refused = _refusal("x:\n  y: " + "[" * MAX_DEPTH + "]" * MAX_DEPTH)
    assert refused.line == 2 and f"nested more than {MAX_DEPTH} deep" in refused.message
    refused = _refusal("a: &a " + "[" * 40 + "]" * 40 + "\nb: " + "[" * 30 + "*a" + "]" * 30 + "\n")
    assert refused.line == 2 and f"the alias *a nests lists and mappings more than {MAX_DEPTH}" in refused.message


def test_size_is_bounded_before_parsing(tmp_path):
    path = tmp_path / "big.yaml"
    line = "#" * 99 + "\n"
    path.write_text("a: 1\n" + line * ((MAX_BYTES - 5) // 100), encoding="utf-8")
    assert read_yaml(path) == {"a": 1}
    path.write_text("a: 1\n" + line * (MAX_BYTES // 100 + 10), encoding="utf-8")
    with pytest.raises(YamlRefused) as caught:
        read_yaml(path)
    assert caught.value.line == 2 + (MAX_BYTES - 5) // 100 and "larger than 256 KiB" in caught.value.message


def test_a_file_that_is_not_utf8_is_refused_at_its_line(tmp_path):
    path = tmp_path / "latin.yaml"
    path.write_bytes(b"a: 1\nb: caf\xe9\n")
    with pytest.raises(YamlRefused) as caught:
        read_yaml(path)
    assert caught.value.line == 2 and "not UTF-8" in caught.value.message


def test_syntax_errors_and_unknown_aliases_keep_their_line():
    assert _refusal("a: [1, 2\nb: 3\n").line is not None
    refused = _refusal("a: 1\nb: *nowhere\n")
    assert refused.line == 2 and "undefined alias" in refused.message


def test_strings_and_keys_come_out_nfc():
    data = load_yaml('"Cafe\u0301": "e\u0301te\u0301"\nlist: [Zoe\u0308]\n')
    assert data == {"Caf\u00e9": "\u00e9t\u00e9", "list": ["Zo\u00eb"]}


def test_no_python_objects():
    assert "YAML error" in _refusal("a: !!python/object/apply:os.system [echo hi]\n").message


def test_every_shipped_template_loads_through_the_door():
    """hockey.yaml draws its index twice with `*index`: the one alias the shipped templates use."""
    for game in ("allstar", "buildit", "nba", "benchdeck"):
        folder = ROOT / "templates" / game
        loader = TemplateLoader(ROOT, (ROOT / "templates", folder))
        for path in sorted(folder.glob("*.yaml")):
            if path.name in ("game.yaml", "fonts.yaml"):
                read_yaml(path)
                continue
            template, problems = loader.load(path)
            assert not [p for p in problems if "YAML" in p.message or "alias" in p.message], problems


def test_a_yaml_position_reads_line_and_a_sheet_position_row():
    assert str(SourceRef("templates/x/front.yaml", None, 12)) == "templates/x/front.yaml › line 12"
    assert str(SourceRef("bench/data/c.csv", "cards", 3)) == "bench/data/c.csv › cards › row 3"
    assert str(SourceRef("templates/benchdeck/game.yaml", "manifest", 1)) == \
        "templates/benchdeck/game.yaml › manifest › row 1"
