"""The composite GitHub Action (action.yml), its steps run here as a runner runs them: each
`run:` under `bash --noprofile --norc -eo pipefail`, with GITHUB_ACTION_PATH set and the
`${{ inputs.* }}` expressions filled in, in a fresh virtualenv (its install step builds devlint
from a snapshot of this checkout), on a project with findings and on a clean one."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import venv
from pathlib import Path

import pytest
import yaml

from conftest import ROOT
from test_precommit import BUGGY, FIXED, GIT, snapshot_of_this_repository

pytestmark = pytest.mark.slow

EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


def action() -> dict:
    return yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))


def fill(text: str, inputs: dict[str, str]) -> str:
    """The only expressions action.yml may use: its inputs (anything else would not run here)."""
    def value(match: re.Match) -> str:
        name = match.group(1)
        assert name.startswith("inputs."), f"action.yml uses {name!r}: teach this test about it"
        return inputs[name[len("inputs."):]]

    return EXPRESSION.sub(value, text)


def run_action(action_path: Path, workspace: Path, bin_dir: Path,
               **given: str) -> subprocess.CompletedProcess:
    spec = action()
    assert spec["runs"]["using"] == "composite"
    inputs = {name: given.get(name.replace("-", "_"), field.get("default", ""))
              for name, field in spec["inputs"].items()}
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
           "GITHUB_ACTION_PATH": str(action_path), "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    env.pop("DEVLINT_CACHE_DIR", None)  # as on a runner: the cache lives in the project
    output = []
    for step in spec["runs"]["steps"]:
        assert step["shell"] == "bash"
        step_env = {**env, **{k: fill(str(v), inputs) for k, v in step.get("env", {}).items()}}
        assert "${{" not in step["run"], "inputs must reach the script through env"
        result = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
                                cwd=workspace, env=step_env, capture_output=True, text=True,
                                timeout=1200)
        output.append(result.stdout + result.stderr)
        if result.returncode != 0:
            return subprocess.CompletedProcess(step["name"], result.returncode, "".join(output), "")
    return subprocess.CompletedProcess("action", 0, "".join(output), "")


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    if GIT is None:
        pytest.skip("git is not installed")
    root = tmp_path_factory.mktemp("action")
    action_path = snapshot_of_this_repository(root / "devlint")
    environment = root / "venv"
    venv.create(environment, with_pip=True)
    return action_path, environment / "bin"


def test_the_action_annotates_findings_writes_sarif_and_fails(installed, tmp_path: Path) -> None:
    action_path, bin_dir = installed
    (tmp_path / "pyproject.toml").write_text('[tool.devlint]\nexclude = ["legacy"]\n', encoding="utf-8")
    (tmp_path / "legacy").mkdir()
    (tmp_path / "legacy" / "old.py").write_text(BUGGY, encoding="utf-8")
    (tmp_path / "train.py").write_text(BUGGY, encoding="utf-8")
    result = run_action(action_path, tmp_path, bin_dir, sarif_file="devlint.sarif")
    assert result.returncode == 1, result.stdout
    assert result.args == "devlint check"
    assert "::error file=train.py,line=5,col=23,title=DEV001::DEV001 " in result.stdout
    assert "legacy" not in result.stdout
    sarif = json.loads((tmp_path / "devlint.sarif").read_text(encoding="utf-8"))
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            for r in sarif["runs"][0]["results"]}
    assert uris == {"train.py"}


def test_the_action_passes_a_clean_project_and_takes_args(installed, tmp_path: Path) -> None:
    action_path, bin_dir = installed
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "train.py").write_text(FIXED, encoding="utf-8")
    (tmp_path / "other.py").write_text(BUGGY, encoding="utf-8")
    clean = run_action(action_path, tmp_path, bin_dir, paths="src")
    assert clean.returncode == 0 and "::error" not in clean.stdout, clean.stdout
    selected = run_action(action_path, tmp_path, bin_dir, paths="other.py", args="--select DEV002")
    assert selected.returncode == 1 and "DEV001" not in selected.stdout, selected.stdout


def test_the_action_on_this_repository_itself_passes(installed) -> None:
    """What .github/workflows/ci.yml runs: `uses: ./` with `paths: .` on the repository."""
    action_path, bin_dir = installed
    result = run_action(action_path, action_path, bin_dir, paths=".")
    assert result.returncode == 0 and "::error" not in result.stdout, result.stdout[-3000:]
