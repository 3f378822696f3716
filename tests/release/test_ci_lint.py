"""The CI files pass their linters (issue 33): shellcheck finds nothing in any script they run, and each
file matches its published schema (GitHub workflow, GitLab CI) as check-jsonschema ships them, offline. Each
check also fails on a deliberately broken copy, and the scripts are read as the CI runs them (their shell,
their lines in the file, GitHub expressions substituted, GitLab's `extends` and `default:` resolved)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.release.ci_lint import PLACEHOLDER, schema_problems, scripts, shellcheck

REPO = Path(__file__).resolve().parents[2]
WORKFLOWS = sorted((REPO / ".github" / "workflows").glob("*.yml"))
CI_FILES = [*WORKFLOWS, REPO / ".gitlab-ci.yml"]
RELEASE, GITLAB = REPO / ".github" / "workflows" / "release.yml", REPO / ".gitlab-ci.yml"
SC2155 = 'export SOURCE_DATE_EPOCH="$(git log -1 --format=%ct "$GITHUB_SHA")"'


def _copy(tmp_path: Path, source: Path, text: str) -> Path:
    copy = tmp_path / source.name
    copy.write_text(text, encoding="utf-8")
    return copy


def _line_of(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if text in line)


# --- the files as written --------------------------------------------------------------------------------

def test_every_ci_file_is_here():
    assert [path.name for path in CI_FILES] == ["check.yml", "release.yml", ".gitlab-ci.yml"]


@pytest.mark.parametrize("path", CI_FILES, ids=lambda p: p.name)
def test_every_script_passes_shellcheck(path):
    found = scripts(path)
    assert found
    assert shellcheck(found) == []


@pytest.mark.parametrize("path", CI_FILES, ids=lambda p: p.name)
def test_every_file_matches_its_published_schema_offline(path, tmp_path):
    assert schema_problems(path, tmp_path / "cache") == []
    assert not (tmp_path / "cache").exists() or not any((tmp_path / "cache").rglob("*"))   # nothing downloaded


def test_every_run_step_and_job_script_is_linted_at_its_lines():
    release = {script.step: script for script in scripts(RELEASE)}
    assert list(release) == ["Set up", "Test", "Release", "Gather the release files", "Publish the release"]
    assert {script.shell for script in release.values()} == {"bash"}
    gitlab = {script.job: script for script in scripts(GITLAB)}
    assert {job: script.shell for job, script in gitlab.items()} == {"check": "bash", "release": "bash",
                                                                    "publish": "sh"}   # release-cli: Alpine, sh
    assert gitlab["release"].text.startswith("make .venv/.installed\ngit fetch")   # .python's before_script first
    for script in [*release.values(), *gitlab.values()]:
        text = script.file.read_text(encoding="utf-8").splitlines()
        assert len(script.lines) == len(script.text.splitlines())
        for line, number in zip(script.text.splitlines(), script.lines):
            assert line.strip() in text[number - 1], (script.file.name, number, line)


# --- each check fails on a broken copy -------------------------------------------------------------------

def test_an_export_hiding_a_failing_command_is_caught_in_a_workflow(tmp_path):
    text = RELEASE.read_text(encoding="utf-8")
    first = next(line for line in text.splitlines() if 'SOURCE_DATE_EPOCH="$(git log' in line)
    broken = _copy(tmp_path, RELEASE, text.replace(first, first.replace("SOURCE_DATE_EPOCH=", "export SOURCE_DATE_EPOCH=")))
    assert shellcheck(scripts(broken)) == [
        f"release.yml:{_line_of(broken, SC2155)} job release, step 'Release': SC2155 (warning) "
        "Declare and assign separately to avoid masking return values."]


def test_an_export_hiding_a_failing_command_is_caught_in_gitlab(tmp_path):
    text = GITLAB.read_text(encoding="utf-8").replace("    - SOURCE_DATE_EPOCH=", "    - export SOURCE_DATE_EPOCH=")
    broken = _copy(tmp_path, GITLAB, text)
    line = _line_of(broken, "- export SOURCE_DATE_EPOCH=")
    assert shellcheck(scripts(broken)) == [
        f".gitlab-ci.yml:{line} job release, step 'before_script + script': SC2155 (warning) "
        "Declare and assign separately to avoid masking return values."]


def test_a_bash_only_test_is_caught_where_the_image_has_only_sh(tmp_path):
    text = GITLAB.read_text(encoding="utf-8").replace('- echo "publishing $CI_COMMIT_TAG"',
                                                      '- if [[ -n "$CI_COMMIT_TAG" ]]; then echo publishing; fi')
    problems = shellcheck(scripts(_copy(tmp_path, GITLAB, text)))
    line = _line_of(GITLAB, 'echo "publishing')
    assert [problem.split(" (")[0] for problem in problems] == [
        f".gitlab-ci.yml:{line} job publish, step 'before_script + script': SC3010"]


def test_github_expressions_are_linted_as_a_variable_and_other_shells_are_left_alone(tmp_path):
    broken = _copy(tmp_path, RELEASE, RELEASE.read_text(encoding="utf-8").replace(
        "          tag=\"$GITHUB_REF_NAME\"\n",
        "          tag=\"$GITHUB_REF_NAME\"\n          echo ${{ github.ref }}\n").replace(
        "      - name: Set up\n        run: make .venv/.installed\n",
        "      - name: Set up\n        shell: pwsh\n        run: Write-Output $env:X\n"))
    found = scripts(broken)
    assert [script.step for script in found if PLACEHOLDER in script.text] == ["Publish the release"]
    assert "Set up" not in [script.step for script in found]
    line = _line_of(broken, "echo ${{")
    assert [problem.split(" (")[0] for problem in shellcheck(found)] == [
        f"release.yml:{line} job release, step 'Publish the release': SC2086"]


def test_an_invalid_key_is_caught_in_a_workflow(tmp_path):
    check = REPO / ".github" / "workflows" / "check.yml"
    broken = _copy(tmp_path, check, check.read_text(encoding="utf-8").replace("runs-on:", "runs_on:"))
    assert schema_problems(broken, tmp_path / "cache") == ["check.yml: $.jobs.check: 'runs-on' is a required property"]


def test_an_invalid_key_is_caught_in_gitlab(tmp_path):
    broken = _copy(tmp_path, GITLAB, GITLAB.read_text(encoding="utf-8").replace("  stage: release\n",
                                                                                "  stages: release\n"))
    assert schema_problems(broken, tmp_path / "cache") == [
        ".gitlab-ci.yml: $.release: Additional properties are not allowed ('stages' was unexpected)"]
