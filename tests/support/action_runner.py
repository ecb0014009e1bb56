"""Run action.yml's composite steps as the GitHub runner would, on this machine, offline.

Every `run:` step runs for real: its `${{ }}` expressions are substituted, its `env:` set,
its script run by `bash --noprofile --norc -eo pipefail` (the runner's `shell: bash`) in
the workspace, with a fresh GITHUB_OUTPUT file whose `name=value` lines become
`steps.<id>.outputs`. `if:` conditions are evaluated, step status functions included.
The `uses:` steps are the runner's own actions and are played by this module:

- actions/setup-python puts a `python` on PATH (this test environment's interpreter);
- actions/cache/restore and actions/cache/save copy the cached path to and from a
  directory that stands for GitHub's cache service (restore: exact key only).

Only the expression grammar action.yml uses is supported (contexts, string literals,
== != ! && || and the status functions); anything else raises, so a new construct in
action.yml cannot be silently misread.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
ACTION = ROOT / "action.yml"
EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")
STATUS_FUNCTION = re.compile(r"\b(always|success|failure|cancelled)\(\)")
TOKEN = re.compile(r"\s*(?:(&&|\|\||==|!=|!|\(|\))|'((?:[^']|'')*)'|([A-Za-z_][\w.-]*))")


def load_action() -> dict:
    """action.yml as data."""
    return yaml.safe_load(ACTION.read_text(encoding="utf-8"))


@dataclass
class StepResult:
    """What one step did: its outcome, outputs, and (for run steps) its exit code and logs."""

    id: str | None
    name: str
    outcome: str  # success | failure | skipped
    outputs: dict[str, str] = field(default_factory=dict)
    returncode: int | None = None
    stdout: str = ""
    stderr: str = ""


@dataclass
class ActionRun:
    """One run of the action: every step's result and the action's evaluated outputs."""

    steps: list[StepResult]
    outputs: dict[str, str]

    def step(self, step_id: str) -> StepResult:
        """The result of the step with this id."""
        return next(s for s in self.steps if s.id == step_id)

    @property
    def failed(self) -> bool:
        """Whether the action failed (any step failed, as a composite action does)."""
        return any(s.outcome == "failure" for s in self.steps)


class Expressions:
    """Evaluates `${{ }}` expressions and `if:` conditions against the run's contexts."""

    def __init__(self, contexts: dict, results: list[StepResult]) -> None:
        self.contexts = contexts
        self.results = results

    def substitute(self, text: str) -> str:
        """Replace every ${{ expr }} in text by its value."""
        return EXPRESSION.sub(lambda m: self.text(self.evaluate(m.group(1))), str(text))

    def condition(self, text: str | None) -> bool:
        """An `if:` value (bare or wrapped in ${{ }}); absent means success()."""
        if text is None:
            return self.evaluate("success()")
        wrapped = EXPRESSION.fullmatch(str(text).strip())
        source = wrapped.group(1) if wrapped else str(text)
        if not STATUS_FUNCTION.search(source):  # the runner's implicit success() && (...)
            source = f"success() && ({source})"
        return bool(self.evaluate(source))

    @staticmethod
    def text(value) -> str:
        """A value as the runner prints it into a string."""
        if value is None:
            return ""
        if isinstance(value, bool):
            return "true" if value else "false"
        return str(value)

    def evaluate(self, source: str):
        """Parse and evaluate one expression."""
        self.tokens = self._tokenize(source)
        value = self._or()
        if self.tokens:
            raise ValueError(f"unsupported expression: {source!r}")
        return value

    @staticmethod
    def _tokenize(source: str) -> list[tuple[str, str]]:
        tokens, position = [], 0
        source = source.strip()
        while position < len(source):
            match = TOKEN.match(source, position)
            if not match or match.end() == position:
                raise ValueError(f"unsupported expression: {source!r}")
            operator, string, name = match.groups()
            tokens.append(("op", operator) if operator else ("str", string.replace("''", "'"))
                          if string is not None else ("name", name))
            position = match.end()
        return tokens

    def _take(self, kind: str, value: str | None = None) -> bool:
        """Whether the next token is of this kind (and value)."""
        return bool(self.tokens) and self.tokens[0][0] == kind and value in (None, self.tokens[0][1])

    def _chain(self, operator: str, operand, combine):
        """operand (operator operand)*, folded left with combine (every operand is evaluated)."""
        value = operand()
        while self._take("op", operator):
            self.tokens.pop(0)
            value = combine(value, operand())
        return value

    def _or(self):
        return self._chain("||", self._and, lambda left, right: left or right)

    def _and(self):
        return self._chain("&&", self._comparison, lambda left, right: left and right)

    def _comparison(self):
        value = self._unary()
        for operator in ("==", "!="):
            if self._take("op", operator):
                self.tokens.pop(0)
                equal = self.text(value).lower() == self.text(self._unary()).lower()  # case-insensitive
                return equal if operator == "==" else not equal
        return value

    def _unary(self):
        if self._take("op", "!"):
            self.tokens.pop(0)
            return not self._unary()
        if self._take("op", "("):
            self.tokens.pop(0)
            value = self._or()
            self.tokens.pop(0)  # ")"
            return value
        kind, value = self.tokens.pop(0)
        if kind == "str":
            return value
        if kind == "name" and self._take("op", "("):
            self.tokens[:2] = []  # "(" ")": the status functions take no arguments
            return self._status(value)
        return self._lookup(value)

    def _status(self, function: str) -> bool:
        failed = any(r.outcome == "failure" for r in self.results)
        statuses = {"always": True, "success": not failed, "failure": failed, "cancelled": False}
        if function not in statuses:
            raise ValueError(f"unsupported function: {function}()")
        return statuses[function]

    def _lookup(self, path: str):
        value = self.contexts
        for part in path.split("."):
            value = value.get(part) if isinstance(value, dict) else None
        return value


def run_action(workspace: Path, inputs: dict[str, str], *, home: Path, temp: Path, cache: Path,
               env: dict[str, str] | None = None, extra_path: tuple[Path, ...] = (),
               action_path: Path = ROOT) -> ActionRun:
    """Run action.yml's steps in workspace with these inputs; `cache` stands for GitHub's cache."""
    action = load_action()
    declared = action["inputs"]
    unknown = set(inputs) - set(declared)
    if unknown:
        raise ValueError(f"inputs the action does not declare: {sorted(unknown)}")
    results: list[StepResult] = []
    steps_context: dict[str, dict] = {}
    contexts = {
        "inputs": {name: inputs.get(name, spec.get("default", "")) for name, spec in declared.items()},
        "github": {"action_path": str(action_path), "workspace": str(workspace)},
        "runner": {"temp": str(temp), "os": "Linux"},
        "steps": steps_context,
    }
    expressions = Expressions(contexts, results)
    tools = temp / "tool-bin"  # what setup-python puts on PATH
    base_env = {
        "PATH": ":".join(map(str, (*extra_path, tools, "/usr/bin", "/bin"))),
        "HOME": str(home),
        "CI": "true",
        "GITHUB_ACTIONS": "true",
        "GITHUB_WORKSPACE": str(workspace),
        "GITHUB_ACTION_PATH": str(action_path),
        "RUNNER_TEMP": str(temp),
        "LANG": "C.UTF-8",
        **(env or {}),
    }
    for number, step in enumerate(action["runs"]["steps"]):
        name = step.get("name") or step.get("uses") or f"step {number}"
        if not expressions.condition(step.get("if")):
            result = StepResult(step.get("id"), name, "skipped")
        elif "run" in step:
            result = _run_script(step, name, number, expressions, base_env, workspace, temp)
        else:
            result = _uses(step, name, expressions, base_env, tools, home, cache)
        results.append(result)
        if result.id:
            steps_context[result.id] = {"outcome": result.outcome, "conclusion": result.outcome,
                                        "outputs": result.outputs}
    outputs = {name: expressions.substitute(spec["value"]) for name, spec in action.get("outputs", {}).items()}
    return ActionRun(results, outputs)


def _run_script(step, name, number, expressions, base_env, workspace, temp) -> StepResult:
    """A `run:` step: the script with its expressions substituted, run by bash."""
    if step.get("shell") != "bash":
        raise ValueError(f"step {name!r}: only shell: bash is played here")
    script = temp / f"step-{number}.sh"
    script.write_text(expressions.substitute(step["run"]), encoding="utf-8")
    output_file = temp / f"step-{number}.output"
    output_file.write_text("")
    env = {**base_env, "GITHUB_OUTPUT": str(output_file)}
    env.update({key: expressions.substitute(value) for key, value in (step.get("env") or {}).items()})
    done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)], cwd=workspace,
                          env=env, capture_output=True, text=True, timeout=300)
    outputs = dict(line.split("=", 1) for line in output_file.read_text().splitlines() if "=" in line)
    return StepResult(step.get("id"), name, "success" if done.returncode == 0 else "failure", outputs,
                      done.returncode, done.stdout, done.stderr)


def _uses(step, name, expressions, base_env, tools, home, cache) -> StepResult:
    """The runner's own actions this action uses, played locally."""
    action, _, _ref = step["uses"].partition("@")
    inputs = {key: expressions.substitute(value) for key, value in (step.get("with") or {}).items()}
    if action == "actions/setup-python":
        tools.mkdir(parents=True, exist_ok=True)
        python = tools / "python"
        # A wrapper, not a symlink: the interpreter must keep this virtualenv's packages.
        python.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
        python.chmod(0o755)
        return StepResult(step.get("id"), name, "success", {"python-version": inputs["python-version"]})
    path = Path(inputs["path"].replace("~", str(home), 1))
    entry = cache / re.sub(r"[^\w.-]", "_", inputs["key"])
    if action == "actions/cache/restore":
        hit = entry.is_dir()
        if hit:
            shutil.rmtree(path, ignore_errors=True)
            shutil.copytree(entry, path)
        return StepResult(step.get("id"), name, "success", {"cache-hit": "true" if hit else "false"})
    if action == "actions/cache/save":
        if entry.exists():  # GitHub refuses to overwrite a key
            return StepResult(step.get("id"), name, "failure")
        shutil.copytree(path, entry)
        return StepResult(step.get("id"), name, "success")
    raise ValueError(f"step {name!r}: {action} is not played here")


def offline_pip(site: Path) -> dict[str, str]:
    """pip settings of an offline runner for the install step: no index, no downloads.

    The package is built from the action's checkout and installed for real, into `site`
    (put first on PYTHONPATH; its console scripts land in site/bin, to put on PATH); its
    dependencies are this test environment's (PIP_NO_DEPS), as is setuptools.
    """
    return {
        "PIP_NO_INDEX": "1",
        "PIP_NO_DEPS": "1",
        "PIP_NO_BUILD_ISOLATION": "0",  # pip reads this "no-" switch inverted: 0 turns isolation off
        "PIP_TARGET": str(site),
        "PYTHONPATH": str(site),
    }


def checkout(destination: Path) -> Path:
    """A copy of this repository's files (tracked and new, not ignored): the action at its ref.

    The runner downloads an action's repository before running it; building from a copy
    also keeps the build's leftovers out of the working tree.
    """
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            cwd=ROOT, capture_output=True, check=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():
            target = destination / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    return destination


def git(repo: Path, *args: str) -> None:
    """Run git in the repository (an isolated identity; no global config read)."""
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", *args], cwd=repo,
                   check=True, capture_output=True, env={"PATH": "/usr/bin:/bin", "HOME": str(repo),
                                                         "GIT_CONFIG_NOSYSTEM": "1"})


def run_offline(repo: Path, inputs: dict[str, str], *, temp: Path, home: Path, cache: Path,
                action_path: Path) -> ActionRun:
    """One job of the action in `repo` on an offline runner: pip installs the action's
    checkout with no index (offline_pip), Scryfall is a closed local port."""
    temp.mkdir()
    site = temp / "site"
    return run_action(repo, inputs, home=home, temp=temp, cache=cache,
                      env={"SCRYFALL_API_URL": "http://127.0.0.1:9", **offline_pip(site)},
                      extra_path=(site / "bin",), action_path=action_path)
