"""The `devlint` pre-commit hook through the real pre-commit, on a throwaway git repository.

pre-commit builds the hook's virtualenv from this repository (`pip install .`, libcst from
PyPI), so the test needs the network and a minute or two; `-m "not slow"` skips it.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from conftest import ROOT

pytestmark = pytest.mark.slow

GIT = shutil.which("git")
GIT_IDENTITY = {
    "GIT_AUTHOR_NAME": "devlint tests",
    "GIT_AUTHOR_EMAIL": "tests@devlint.invalid",
    "GIT_COMMITTER_NAME": "devlint tests",
    "GIT_COMMITTER_EMAIL": "tests@devlint.invalid",
}
# Building the hook's environment downloads from PyPI; leave plenty of room for a slow index.
PRE_COMMIT_TIMEOUT = 1200

BUGGY = textwrap.dedent(
    """\
    import torch
    from torch import nn
    from torch.utils.data import DataLoader, TensorDataset

    device = torch.device("cuda")
    model = nn.Linear(4, 2).to(device)
    data = TensorDataset(torch.randn(8, 4), torch.randint(0, 2, (8,)))
    loader = DataLoader(data, batch_size=4)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
    """
)
FIXED = BUGGY.replace(
    'torch.device("cuda")', 'torch.device("cuda" if torch.cuda.is_available() else "cpu")'
).replace(
    "    optimizer.zero_grad()\n",
    "    x, y = x.to(device), y.to(device)\n    optimizer.zero_grad()\n",
)


def git(*args: str, cwd: Path) -> str:
    env = {**os.environ, **GIT_IDENTITY}
    result = subprocess.run(
        [GIT, "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false", *args],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, f"git {' '.join(args)}: {result.stderr}"
    return result.stdout


def commit_all(repo: Path, message: str) -> None:
    git("add", "--all", cwd=repo)
    git("commit", "--quiet", "--no-verify", "-m", message, cwd=repo)


def snapshot_of_this_repository(dest: Path) -> Path:
    """The working tree as it is now (uncommitted and new files too), committed in a new repo.

    `pre-commit try-repo PATH` alone would see only PATH's committed files plus changes to
    tracked ones (it never adds untracked files), so a new hook or module would be missed.
    Listing the files with git also leaves out what .gitignore names (.venv, build outputs).
    """
    if (ROOT / ".git").exists():
        listed = git("ls-files", "-z", "--cached", "--others", "--exclude-standard", cwd=ROOT)
        for name in filter(None, listed.split("\0")):
            source = ROOT / name
            if source.is_file():  # a tracked file deleted in the working tree is skipped
                (dest / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, dest / name)
    else:  # e.g. an unpacked sdist
        shutil.copytree(
            ROOT, dest, dirs_exist_ok=True,
            ignore=shutil.ignore_patterns(
                ".git", ".venv", ".ci-venv", "build", "dist", "*.egg-info", "__pycache__",
                ".pytest_cache",
            ),
        )
    git("init", "--quiet", cwd=dest)
    commit_all(dest, "snapshot for the pre-commit test")
    return dest


def try_repo(hook_repo: Path, cwd: Path, hook: str = "devlint") -> subprocess.CompletedProcess:
    env = {**os.environ, **GIT_IDENTITY, "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    env.pop("PRE_COMMIT", None)
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "try-repo", str(hook_repo), hook, "--all-files",
         "--color", "never", "--verbose"],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=PRE_COMMIT_TIMEOUT,
    )


def test_precommit_hook_fails_on_findings_and_passes_when_fixed(tmp_path: Path) -> None:
    if GIT is None:
        pytest.skip("git is not installed; pre-commit needs it")
    hook_repo = snapshot_of_this_repository(tmp_path / "devlint")
    project = tmp_path / "project"
    project.mkdir()
    git("init", "--quiet", cwd=project)
    (project / "train.py").write_text(BUGGY, encoding="utf-8")
    (project / "README.md").write_text("not python: the hook must not see it\n", encoding="utf-8")
    commit_all(project, "a buggy training script")

    failed = try_repo(hook_repo, project)
    output = failed.stdout + failed.stderr
    assert failed.returncode != 0, output
    assert "- exit code: 1" in output, output
    assert "train.py:5:23: DEV001 hard-coded device 'cuda'" in output, output
    assert "train.py:14:28: DEV002 batch `x`" in output, output
    assert "DEV999" not in output, output  # README.md was not passed: `types_or: [python, jupyter]`

    (project / "train.py").write_text(FIXED, encoding="utf-8")
    passed = try_repo(hook_repo, project)
    output = passed.stdout + passed.stderr
    assert passed.returncode == 0, output
    assert "DEV0" not in output, output


def test_hooks_leave_excluded_files_alone_and_run_as_one_process(tmp_path: Path) -> None:
    """pre-commit names every file, and `exclude` used to apply only to what devlint walks:
    devlint-fix rewrote excluded files. With require_serial: false, pre-commit also started
    one devlint per batch of files, each printing its own summary."""
    if GIT is None:
        pytest.skip("git is not installed; pre-commit needs it")
    hook_repo = snapshot_of_this_repository(tmp_path / "devlint")
    project = tmp_path / "project"
    (project / "legacy").mkdir(parents=True)
    git("init", "--quiet", cwd=project)
    (project / "pyproject.toml").write_text('[tool.devlint]\nexclude = ["legacy"]\n',
                                            encoding="utf-8")
    for i in range(40):  # enough files for pre-commit to split them without require_serial
        (project / "legacy" / f"old_{i}.py").write_text(BUGGY, encoding="utf-8")
    (project / "train.py").write_text(BUGGY, encoding="utf-8")
    commit_all(project, "a buggy script and excluded legacy code")

    report = try_repo(hook_repo, project)
    output = report.stdout + report.stderr
    assert report.returncode != 0 and "train.py:5:23: DEV001" in output, output
    assert "legacy" not in output, output
    assert re.findall(r"\(\d+ files? checked\)", output) == ["(1 file checked)"], output

    fixed = try_repo(hook_repo, project, hook="devlint-fix")
    output = fixed.stdout + fixed.stderr
    assert fixed.returncode != 0, output  # pre-commit fails a hook that changed files
    assert (project / "train.py").read_text(encoding="utf-8") != BUGGY
    assert all(p.read_text(encoding="utf-8") == BUGGY for p in (project / "legacy").iterdir())
