"""Findings in another file's code: a bug that only an importer's values show (a CPU tensor in
the `forward` of a model that train.py moves) is reported in that file, once, with the call in
the importer that reached it, and only when that file is checked."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import FIXTURES
from devlint.workspace.cache import Cache

PROJECT = FIXTURES / "projects" / "forward_noise"
MODEL_LINE = 13  # `noise = torch.randn(x.shape) * 0.1` in model.py


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    root = tmp_path / "forward_noise"
    shutil.copytree(PROJECT, root)
    return root


def devlint(cwd: Path, *args: str, cache: Path | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "DEVLINT_CACHE_DIR": str(cache or cwd / ".cache")}
    return subprocess.run([sys.executable, "-m", "devlint", "check", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=120, env=env)


def findings(done: subprocess.CompletedProcess) -> list[dict]:
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)["findings"]


def test_the_finding_is_in_the_model_file_with_the_call_that_reached_it(project: Path) -> None:
    (found,) = findings(devlint(project, "--no-cache", "--format", "json", "."))
    assert (found["path"], found["line"], found["code"]) == ("model.py", MODEL_LINE, "DEV006")
    reached = found["reached_from"]
    assert reached["path"] in ("train.py", "evaluate.py")
    assert f"(reached from {reached['path']}:{reached['line']})" in found["message"]
    assert "fix" not in found  # a fix would edit a file the importer's run only read


def test_a_warm_run_gives_what_the_cold_one_gave(project: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    cold = devlint(project, "--format", "json", ".", cache=cache)
    warm = devlint(project, "--format", "json", ".", cache=cache)
    assert findings(cold) and warm.stdout == cold.stdout
    stored = Cache.open(cache).index.read_text()
    assert "model.py" in stored and str(project) not in stored  # paths relative to the file


def test_editing_the_model_file_rechecks_its_importers(project: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    assert findings(devlint(project, "--format", "json", ".", cache=cache))
    model = project / "model.py"
    model.write_text(model.read_text().replace("torch.randn(x.shape)", "torch.randn_like(x)"))
    assert findings(devlint(project, "--format", "json", ".", cache=cache)) == []


def test_only_a_checked_file_gets_findings(project: Path) -> None:
    done = devlint(project, "--no-cache", "--format", "json", "train.py", "evaluate.py")
    assert findings(done) == [] and done.returncode == 0


def test_the_model_files_own_noqa_and_per_file_ignores_silence_it(project: Path) -> None:
    model = project / "model.py"
    original = model.read_text()
    model.write_text(original.replace("* 0.1  # error: DEV006", "* 0.1  # noqa: DEV006"))
    assert findings(devlint(project, "--no-cache", "--format", "json", ".")) == []
    model.write_text(original)
    (project / "pyproject.toml").write_text(
        (project / "pyproject.toml").read_text() + 'per-file-ignores = {"model.py" = ["DEV006"]}\n')
    assert findings(devlint(project, "--no-cache", "--format", "json", ".")) == []


def test_an_excluded_importer_is_no_context(project: Path) -> None:
    """The context of a partial run is the walk a whole-project run makes: what that run would
    not check, it does not read for context either."""
    (project / "pyproject.toml").write_text(
        (project / "pyproject.toml").read_text() + 'exclude = ["train.py", "evaluate.py"]\n')
    assert findings(devlint(project, "--no-cache", "--format", "json", ".")) == []
    assert findings(devlint(project, "--no-cache", "--format", "json", "model.py")) == []


def test_fix_reports_it_and_leaves_the_model_file_alone(project: Path) -> None:
    before = (project / "model.py").read_bytes()
    done = devlint(project, "--no-cache", "--fix", ".")
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"model.py:{MODEL_LINE}:" in done.stdout
    assert (project / "model.py").read_bytes() == before


def test_sarif_relates_the_call_in_the_importer(project: Path) -> None:
    done = devlint(project, "--no-cache", "--format", "sarif", ".")
    (result,) = json.loads(done.stdout)["runs"][0]["results"]
    uris = [r["physicalLocation"]["artifactLocation"]["uri"] for r in result["relatedLocations"]]
    assert uris[0].endswith("model.py") and uris[-1].endswith((".py")) and len(uris) == 2
    assert not uris[-1].endswith("model.py")  # the second one is in the importer


def test_verify_explains_a_failure_in_the_model_file_by_it(project: Path) -> None:
    """The simulated GPU run fails in model.py's `forward`; the explanation is the finding that
    only train.py's values show, not "no static finding explains it"."""
    from devlint.verify.errors import explain

    model, train = str(project / "model.py"), str(project / "train.py")
    error = {
        "type": "RuntimeError",
        "message": "Expected all tensors to be on the same device, but found at least two "
                   "devices, cuda:0 and cpu!",
        "frame": {"path": model, "line": MODEL_LINE + 1, "function": "forward"},
        "user_frames": [{"path": model, "line": MODEL_LINE + 1, "function": "forward"},
                        {"path": train, "line": 12, "function": "<module>"}],
        "cpu_origin": {"path": model, "line": MODEL_LINE, "device": "cpu"},
    }
    explained = explain(error)
    assert [(f.code, f.line) for f in explained.findings] == [("DEV006", MODEL_LINE)]
    assert "reached from" in explained.findings[0].message


def test_show_source_shows_the_importers_line_too(project: Path) -> None:
    done = devlint(project, "--no-cache", "--show-source", "model.py")
    lines = done.stdout.splitlines()
    assert "noise = torch.randn(x.shape) * 0.1" in lines[1] and lines[2].strip() == "^"
    assert lines[3].strip().startswith(("train.py:", "evaluate.py:")) and "model(x)" in lines[3]


def test_fix_skips_the_second_pass_only_when_no_file_imports_another(tmp_path: Path) -> None:
    from devlint.workspace.importers import imports_between, new_run

    (tmp_path / ".git").mkdir()
    (tmp_path / "a.py").write_text("import torch\n")
    (tmp_path / "b.py").write_text("import os\n")
    assert not imports_between([tmp_path / "a.py", tmp_path / "b.py"])
    (tmp_path / "b.py").write_text("from a import torch\n")
    # a run looks at each file's version once (`--fix` starts a new one after each file it
    # writes, before it asks this); an edit by hand is seen by the next run
    assert not imports_between([tmp_path / "a.py", tmp_path / "b.py"])
    new_run()
    assert imports_between([tmp_path / "a.py", tmp_path / "b.py"])
