"""The CI files, ready to copy (issue 21): .github/workflows/release.yml and check.yml, and .gitlab-ci.yml.

Each is parsed (triggers, permissions, steps in order, the commands they run); every script parses with bash,
every `make` target it names exists and every `pnp` command and option it gives is one the CLI has. Then the
check workflow's steps run as they are, in a temporary clone of this repository where a pull request changed
Build It's workbook: under GITHUB_ACTIONS, problems come out as annotations and the job summary holds the
diff's Markdown. `make test` (the suite itself) and the release (its own tests) are not run here."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import openpyxl
import pytest
import yaml

import pipeline
from tests.conftest import set_cell

REPO = Path(__file__).resolve().parents[2]
CHECK, RELEASE, GITLAB = (REPO / ".github" / "workflows" / "check.yml", REPO / ".github" / "workflows" / "release.yml",
                          REPO / ".gitlab-ci.yml")
PNP = ".venv/bin/pnp"
BASE = "pnp-base"                       # the pull request's base branch, as origin/<BASE> in the clone


def _load(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def _on(workflow: dict) -> dict:
    return workflow.get("on", workflow.get(True))          # YAML 1.1 reads a bare `on` key as true


def _steps(path: Path) -> list[dict]:
    (job,) = _load(path)["jobs"].values()
    return job["steps"]


def _step(path: Path, name: str) -> dict:
    return next(step for step in _steps(path) if step.get("name") == name)


def _scripts(path: Path) -> list[str]:
    """Every shell script the file runs: a workflow's `run` steps, a GitLab job's before_script + script."""
    if path == GITLAB:
        jobs = {name: job for name, job in _load(path).items() if isinstance(job, dict) and "stage" in job}
        setup = _load(path)[".python"]["before_script"]
        return ["\n".join(([] if job.get("image") else setup) + job["script"]) for job in jobs.values()]
    return [step["run"] for step in _steps(path) if "run" in step]


def _pnp_calls(script: str) -> list[list[str]]:
    """`pnp COMMAND ARGS…` as the script writes them (up to a pipe, `||`, `;` or `)`)."""
    return [shlex.split(match) for match in re.findall(rf"{re.escape(PNP)} ([^|;)\n]*)", script)]


def _uses(step: dict, action: str) -> bool:
    return step.get("uses", "").split("@")[0] == action


# --- the files as written --------------------------------------------------------------------------------

def test_release_runs_on_a_version_tag_with_the_right_to_publish():
    workflow = _load(RELEASE)
    assert _on(workflow) == {"push": {"tags": ["v*"]}}
    assert workflow["permissions"] == {"contents": "write"}
    assert workflow["defaults"]["run"]["shell"] == "bash"           # -eo pipefail: a failing command fails


def test_release_steps_in_order():
    steps = _steps(RELEASE)
    assert _uses(steps[0], "actions/checkout") and steps[0]["with"]["fetch-depth"] == 0   # history and tags
    assert _uses(steps[1], "actions/setup-python")
    assert tuple(map(int, steps[1]["with"]["python-version"].split("."))) >= (3, 11)
    assert [step.get("run", "").strip() for step in steps[2:4]] == ["make .venv/.installed",
                                                                    "make test"]
    release = steps[4]["run"]
    assert 'SOURCE_DATE_EPOCH="$(git log -1 --format=%ct "$GITHUB_SHA")"' in release.splitlines()[0]
    assert release.splitlines()[1].split("#")[0].strip() == "export SOURCE_DATE_EPOCH"   # apart (SC2155)
    assert release.index("SOURCE_DATE_EPOCH") < release.index(f"{PNP} release")
    assert [step["name"] for step in steps[5:]] == ["Gather the release files", "Publish the release"]
    publish = steps[6]
    assert publish["env"] == {"GH_TOKEN": "${{ github.token }}"}
    assert "gh release create \"$tag\" --verify-tag --title \"$tag\" --notes-file release-notes.md" in publish["run"]
    assert "gh release upload \"$tag\" release-files/* --clobber" in publish["run"]


def test_check_runs_on_pull_requests_validation_balance_and_diff_in_order():
    workflow = _load(CHECK)
    assert _on(workflow) == {"pull_request": None} and workflow["permissions"] == {"contents": "read"}
    steps = _steps(CHECK)
    assert _uses(steps[0], "actions/checkout") and steps[0]["with"]["fetch-depth"] == 0   # origin/<base>
    assert _uses(steps[1], "actions/setup-python") and steps[1]["with"]["cache"] == "pip"
    runs = [step.get("run", "").strip() for step in steps[2:5]]
    assert runs[:3] == ["make .venv/.installed", f"{PNP} validate --strict", f"{PNP} validate --balance --workers 2"]
    diff = steps[5]["run"]
    assert f'{PNP} diff "$game" "origin/$GITHUB_BASE_REF" --summary "$GITHUB_STEP_SUMMARY"' in diff
    assert f"$({PNP} list | awk" in diff                      # every game, as `pnp list` names them
    assert all(step.get("if") == "${{ !cancelled() }}" for step in steps[4:])   # every problem in one run
    assert _uses(steps[6], "actions/upload-artifact") and steps[6]["with"]["path"] == "output/*/diff/"


def test_gitlab_has_the_same_two_jobs():
    ci = _load(GITLAB)
    assert ci["variables"]["GIT_DEPTH"] == 0 and ci["stages"] == ["check", "release", "publish"]
    check, release, publish = ci["check"], ci["release"], ci["publish"]
    assert check["rules"] == [{"if": '$CI_PIPELINE_SOURCE == "merge_request_event"'}]
    assert release["rules"] == publish["rules"] == [{"if": "$CI_COMMIT_TAG =~ /^v/"}]
    assert [call[:2] for call in _pnp_calls("\n".join(check["script"]))] == \
        [["validate", "--strict"], ["validate", "--balance"], ["list"], ["diff", "$game"]]
    assert "--summary diff.md" in check["script"][0] and check["artifacts"]["when"] == "always"
    assert ci[".python"]["before_script"] == ["make .venv/.installed"]
    assert release["script"][1:5] == ["make test",
                                      'SOURCE_DATE_EPOCH="$(git log -1 --format=%ct "$CI_COMMIT_SHA")"',
                                      "export SOURCE_DATE_EPOCH", f"{PNP} release"]
    assert release["artifacts"]["expire_in"] == "never" and release["artifacts"]["reports"]["dotenv"] == "release.env"
    assert publish["image"].startswith("registry.gitlab.com/gitlab-org/release-cli")
    assert publish["needs"] == [{"job": "release", "artifacts": True}]
    assert publish["release"]["tag_name"] == "$CI_COMMIT_TAG" and publish["release"]["description"] == "./notes.md"


@pytest.mark.parametrize("path", [CHECK, RELEASE, GITLAB], ids=lambda p: p.name)
def test_every_script_parses_and_takes_no_expression_inline(path):
    for script in _scripts(path):
        checked = subprocess.run(["bash", "-n"], input=script, capture_output=True, text=True)
        assert checked.returncode == 0, checked.stderr
        assert "${{" not in script          # values come in as environment variables (no script injection)


@pytest.mark.parametrize("path", [CHECK, RELEASE, GITLAB], ids=lambda p: p.name)
def test_every_make_target_named_exists(path):
    targets = {target for script in _scripts(path) for target in re.findall(r"\bmake ([\w./-]+)", script)}
    assert targets >= {".venv/.installed"}
    for target in targets:
        dry = subprocess.run(["make", "-n", "-C", str(REPO), target], capture_output=True, text=True)
        assert dry.returncode == 0, f"make {target}: {dry.stderr}"


def _commands() -> dict:
    import typer.main

    from pipeline.cli.app import app

    return typer.main.get_command(app).commands


@pytest.mark.parametrize("path", [CHECK, RELEASE, GITLAB], ids=lambda p: p.name)
def test_every_pnp_command_and_option_exists(path):
    commands = _commands()
    calls = [call for script in _scripts(path) for call in _pnp_calls(script)]
    assert calls
    for name, *args in calls:
        assert name in commands, f"pnp {name}"
        options = {option for param in commands[name].params for option in param.opts + param.secondary_opts}
        assert {arg.split("=")[0] for arg in args if arg.startswith("--")} <= options, f"pnp {name} {args}"


def test_gathering_names_every_release_file_apart(tmp_path):
    """Every game's folder holds a SHA256SUMS and a CHANGES.md, and reprint sheets when cards changed: the
    release gets them as <folder>-…, the notes are the CHANGES.md one after the other."""
    for folder, reprints in (("nba-v0.2", ["reprint-a4.pdf", "reprint-letter.pdf"]), ("buildit-v0.2", [])):
        (tmp_path / "dist" / folder).mkdir(parents=True)
        for name in [f"{folder}-home-a4.zip", f"{folder}-print-shop.zip", "SHA256SUMS", *reprints]:
            (tmp_path / "dist" / folder / name).write_text(name)
        (tmp_path / "dist" / folder / "CHANGES.md").write_text(f"# {folder}\n")
    run = subprocess.run(["bash", "-eo", "pipefail", "-c", _step(RELEASE, "Gather the release files")["run"]],
                         cwd=tmp_path, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert sorted(path.name for path in (tmp_path / "release-files").iterdir()) == [
        "buildit-v0.2-CHANGES.md", "buildit-v0.2-SHA256SUMS", "buildit-v0.2-home-a4.zip",
        "buildit-v0.2-print-shop.zip", "nba-v0.2-CHANGES.md", "nba-v0.2-SHA256SUMS", "nba-v0.2-home-a4.zip",
        "nba-v0.2-print-shop.zip", "nba-v0.2-reprint-a4.pdf", "nba-v0.2-reprint-letter.pdf"]
    assert (tmp_path / "release-notes.md").read_text() == "# buildit-v0.2\n# nba-v0.2\n"
    assert (tmp_path / "release-files" / "nba-v0.2-reprint-a4.pdf").read_text() == "reprint-a4.pdf"


# --- the check workflow, run in a clone ------------------------------------------------------------------

needs_git = pytest.mark.skipif(shutil.which("git") is None or not (REPO / ".git").exists(),
                               reason="needs git and this repository's history")


def _git(repo: Path, *args: str) -> None:
    done = subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.org",
                           "-c", "commit.gpgsign=false", *args], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def _pull_request(tmp_path: Path, change=None) -> Path:
    """This repository cloned, its HEAD as origin/<BASE>, and a commit on a branch where `change(workbook)`
    (if any) altered sheets/buildit.xlsx; `.venv/bin/pnp` runs this code (the tests' interpreter) on the clone."""
    clone = tmp_path / "clone"
    _git(REPO, "clone", "-q", "--no-hardlinks", str(REPO), str(clone))
    _git(clone, "update-ref", f"refs/remotes/origin/{BASE}", "HEAD")
    _git(clone, "checkout", "-q", "-b", "pull-request")
    if change is not None:
        workbook = openpyxl.load_workbook(clone / "sheets" / "buildit.xlsx")
        change(workbook)
        workbook.save(clone / "sheets" / "buildit.xlsx")
        _git(clone, "commit", "-q", "-am", "a pull request")
    pnp = clone / PNP
    pnp.parent.mkdir(parents=True)
    code = Path(pipeline.__file__).resolve().parent.parent
    pnp.write_text(f"#!/bin/sh\nPYTHONPATH={shlex.quote(str(code))} exec {shlex.quote(sys.executable)} -P -m pipeline "
                   '"$@"\n')             # -P: the code under test, not the clone's copy of the package
    pnp.chmod(0o755)
    return clone


def _run_steps(clone: Path, names: list[str]) -> dict[str, subprocess.CompletedProcess]:
    """The check workflow's steps of these names, as the runner runs them (bash -eo pipefail, GitHub's
    variables set), in order, each whatever the previous gave (their `if: !cancelled()`)."""
    env = dict(os.environ, GITHUB_ACTIONS="true", GITHUB_WORKSPACE=str(clone), GITHUB_BASE_REF=BASE,
               GITHUB_STEP_SUMMARY=str(clone.parent / "summary.md"), PNP_ROOT=str(clone))
    return {name: subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", _step(CHECK, name)["run"]],
                                 cwd=clone, env=env, capture_output=True, text=True, timeout=600)
            for name in names}


def _problems_have_annotations(stderr: str) -> int:
    """Every problem line is followed by its annotation (file= for a file of the clone); how many problems."""
    lines = stderr.splitlines()
    problems = [i for i, line in enumerate(lines) if line.startswith(("error ", "warning "))]
    for i in problems:
        severity = lines[i].split(" ", 1)[0]
        assert lines[i + 1].startswith(f"::{severity} file="), lines[i:i + 2]
    return len(problems)


def _contract(sheet, contract: str, column: str) -> str:
    header = [cell.value for cell in sheet[1]]
    row = next(cells[0].row for cells in sheet.iter_rows(min_row=2) if cells[header.index("id")].value == contract)
    return f"{openpyxl.utils.get_column_letter(header.index(column) + 1)}{row}"


@needs_git
@pytest.mark.slow
def test_check_workflow_on_a_pull_request_that_changes_cards(tmp_path):
    def change(workbook):
        set_cell(workbook["normal_cards"], "id", "coin_gain_4", "cost", 1)
        set_cell(workbook["contracts"], "id", "hyperthune", "name", "Magasin *Hyper|Fortune*")

    clone = _pull_request(tmp_path, change)
    steps = [step["name"] for step in _steps(CHECK) if "run" in step and step["name"] != "Set up"]
    ran = _run_steps(clone, steps)
    strict, balance, diff = (ran[name] for name in steps)
    _problems_have_annotations(strict.stderr)
    assert strict.returncode == 0, strict.stderr                 # the shipped data: only NBA's recorded erratum
    assert [line for line in strict.stderr.splitlines() if line.startswith(("error ", "warning "))] == [
        line for line in strict.stderr.splitlines() if line.startswith("warning ") and line.endswith("[erratum]")]
    assert balance.returncode == 0, balance.stdout + balance.stderr
    assert "holds" in balance.stdout
    assert diff.returncode == 0, diff.stderr
    summary = (tmp_path / "summary.md").read_text(encoding="utf-8")
    games = re.findall(rf"^(?:### (\w+): changes|\*\*(\w+)\*\*: no change) since origin/{BASE}\.?$", summary, re.M)
    listed = subprocess.run([str(clone / PNP), "list"], cwd=clone, env=dict(os.environ, PNP_ROOT=str(clone)),
                            capture_output=True, text=True).stdout
    assert ["".join(game) for game in games] == re.findall(r"^(\w+) — ", listed, flags=re.M)
    assert games.count(("buildit", "")) == 1
    buildit = summary.split("### buildit:")[1].split("###")[0]
    assert "Cards: 2 changed; 2 to reprint." in buildit
    assert "| changed | contracts › Magasin \\*Hyper\\|Fortune\\* (contracts row" in buildit
    assert "| changed | normal › Gain de Pièces (normal_cards row 5, copy 1/1) | normal_cards › E5 (cost): 0 → 1 |" \
           in buildit
    assert (clone / "output" / "buildit" / "diff" / "reprint-a4.pdf").is_file()


@needs_git
@pytest.mark.slow
def test_check_workflow_on_a_pull_request_that_damages_a_cell(tmp_path):
    cell = {}

    def damage(workbook):
        cell["at"] = _contract(workbook["contracts"], "hyperthune", "plots")
        set_cell(workbook["contracts"], "id", "hyperthune", "plots", "deux")

    clone = _pull_request(tmp_path, damage)
    ran = _run_steps(clone, ["Strict validation", "What changed since the base branch"])
    strict, diff = ran["Strict validation"], ran["What changed since the base branch"]
    assert strict.returncode == 1 and _problems_have_annotations(strict.stderr)
    located = f"contracts › {cell['at']} (plots): 'deux' is not a whole number"
    assert f"error sheets/buildit.xlsx › {located} [type]" in strict.stderr.splitlines()
    assert f"::error file=sheets/buildit.xlsx,title=type::buildit.xlsx › {located}" in strict.stderr.splitlines()
    assert diff.returncode == 1
    assert f"::error file=sheets/buildit.xlsx,title=type::buildit.xlsx › {located}" in diff.stderr.splitlines()
    summary = (tmp_path / "summary.md").read_text(encoding="utf-8")
    assert f"### buildit: changes since origin/{BASE}\n\nThe diff failed:\n\n" \
           f"- sheets/buildit.xlsx › {located} \\[type\\]\n" in summary


@needs_git
@pytest.mark.slow
def test_a_summary_that_cannot_be_written_is_a_usage_error(tmp_path):
    clone = _pull_request(tmp_path)
    done = subprocess.run([str(clone / PNP), "diff", "buildit", f"origin/{BASE}", "--summary",
                           str(tmp_path / "missing" / "summary.md")], cwd=clone,
                          env=dict(os.environ, PNP_ROOT=str(clone)), capture_output=True, text=True, timeout=300)
    assert done.returncode == 2
    assert done.stderr.strip() == f"error: --summary: cannot write {tmp_path / 'missing' / 'summary.md'} " \
                                  "(No such file or directory)"
