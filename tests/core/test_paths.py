"""The one path check (pipeline/core/paths.py): every form a path takes on some system is refused from its text,
a link that leads out of the project from the disk; and a path that passes never lands outside the project
on any system (a property over arbitrary text)."""

from __future__ import annotations

import os
from pathlib import PurePosixPath, PureWindowsPath

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.core.paths import path_problem, resolve_inside

REFUSED = {
    "/etc/passwd": "absolute path",
    "\\Windows\\win.ini": "absolute path",
    "C:/Windows/win.ini": "Windows drive",
    "c:art.png": "Windows drive",
    "Z:\\x.png": "Windows drive",
    "\\\\server\\share\\x.png": "network path",
    "//server/share/x.png": "network path",
    "file:///etc/passwd": "URL",
    "https://example.com/a.png": "URL",
    "data:image/png;base64,AAAA": "URL",
    "~/art.png": "home folder",
    "~root/art.png": "home folder",
    "art/../../secret.png": "'..'",
    "..": "'..'",
    "art\\castle.png": "backslash",
    "art/castle\x00.png": "control character",
    "art/\u202ecastle.png": "control character",       # right-to-left override: shows another name
    "art/castle\n.png": "control character",
}
ACCEPTED = ["art/castle.png", "castle.png", "art/sous-dossier/tour (2).svg", "art/élan.png", "./art/x.png",
            "art/..x.png", "art/x..png"]


@pytest.mark.parametrize("text, why", sorted(REFUSED.items()))
def test_every_form_of_a_path_out_is_refused_from_its_text(text, why):
    problem = path_problem(text)
    assert problem is not None and why in problem
    assert "relative to the game's folder" in problem or why == "'..'"


@pytest.mark.parametrize("text", ACCEPTED)
def test_a_plain_relative_path_passes(text):
    assert path_problem(text) is None


def test_a_one_letter_scheme_is_a_drive_and_a_longer_one_a_url():
    assert "Windows drive" in path_problem("a:b/x.png")
    assert "URL" in path_problem("ab:x.png")


_segment = st.text(st.characters(blacklist_categories=("Cs",)), min_size=0, max_size=8)


@settings(max_examples=400, deadline=None)
@given(st.lists(_segment, min_size=1, max_size=5).map("/".join) | st.text(max_size=30))
def test_a_path_that_passes_stays_inside_on_every_system(text):
    if path_problem(text) is not None:
        return
    for pure in (PurePosixPath, PureWindowsPath):
        path = pure(text)
        assert not path.is_absolute() and not path.drive and not path.anchor, (pure, text)
        assert ".." not in path.parts, (pure, text)


def test_a_link_that_leads_out_is_refused_and_one_inside_is_followed(tmp_path):
    root = tmp_path / "project"
    art = root / "templates" / "game" / "art"
    art.mkdir(parents=True)
    (root / "shared").mkdir()
    (root / "shared" / "castle.png").write_bytes(b"png")
    (tmp_path / "secret.png").write_bytes(b"png")
    os.symlink(tmp_path, art / "out")
    os.symlink(root / "shared", art / "in")
    base = (root / "templates" / "game",)
    with pytest.raises(ValueError, match="leads out of the project through a link"):
        resolve_inside(root.resolve(), base, "art/out/secret.png")
    found, _ = resolve_inside(root.resolve(), base, "art/out/project/shared/castle.png")   # out, then back in
    assert found == (root / "shared" / "castle.png").resolve()
    found, first = resolve_inside(root.resolve(), base, "art/in/castle.png")
    assert found == (root / "shared" / "castle.png").resolve() == first
    assert resolve_inside(root.resolve(), base, "art/none.png") == (None, (art / "none.png").resolve())


def test_the_first_base_that_has_the_file_wins(tmp_path):
    first, second = tmp_path / "data", tmp_path / "game"
    for folder in (first, second):
        folder.mkdir()
    (second / "icon.png").write_bytes(b"png")
    assert resolve_inside(tmp_path.resolve(), (first, second), "icon.png")[0] == (second / "icon.png").resolve()
    (first / "icon.png").write_bytes(b"png")
    assert resolve_inside(tmp_path.resolve(), (first, second), "icon.png")[0] == (first / "icon.png").resolve()
