"""The CLI as users run it: exit codes, formats, config, bad input. Always in a subprocess."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from conftest import ROOT
from file_modes import devlint_bound_by_modes

BUGGY = textwrap.dedent(
    """\
    import torch
    device = torch.device("cuda")
    """
)
CLEAN = "import torch\ndevice = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\n"


def devlint(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "devlint", *args], cwd=cwd, capture_output=True, text=True,
        timeout=120,
    )


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_clean_file_exits_0(tmp_path: Path) -> None:
    write(tmp_path / "ok.py", CLEAN)
    result = devlint("check", "ok.py", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "No findings" in result.stdout


def test_finding_is_flake8_style_and_exits_1(tmp_path: Path) -> None:
    write(tmp_path / "bad.py", BUGGY)
    result = devlint("check", "bad.py", cwd=tmp_path)
    assert result.returncode == 1
    first = result.stdout.splitlines()[0]
    assert first.startswith("bad.py:2:23: DEV001 hard-coded device 'cuda'")
    assert "Found 1 finding in 1 file" in result.stdout


def test_default_path_is_current_directory_recursively(tmp_path: Path) -> None:
    write(tmp_path / "pkg" / "deep" / "bad.py", BUGGY)
    write(tmp_path / ".venv" / "lib" / "bad.py", BUGGY)
    write(tmp_path / "build" / "bad.py", BUGGY)
    result = devlint("check", cwd=tmp_path)
    assert result.returncode == 1
    paths = {line.split(":")[0] for line in result.stdout.splitlines() if "DEV" in line}
    assert paths == {os.path.join("pkg", "deep", "bad.py")}


def test_select_and_ignore(tmp_path: Path) -> None:
    write(tmp_path / "bad.py", BUGGY)
    assert devlint("check", "--ignore", "DEV001", "bad.py", cwd=tmp_path).returncode == 0
    assert devlint("check", "--select", "DEV002", "bad.py", cwd=tmp_path).returncode == 0
    assert devlint("check", "--select", "DEV00", "bad.py", cwd=tmp_path).returncode == 1


def test_exclude_glob(tmp_path: Path) -> None:
    write(tmp_path / "gen" / "bad.py", BUGGY)
    write(tmp_path / "src" / "ok.py", CLEAN)
    assert devlint("check", "--exclude", "gen", ".", cwd=tmp_path).returncode == 0


def test_noqa_bare_and_with_codes(tmp_path: Path) -> None:
    write(tmp_path / "a.py", "import torch\nd = torch.device('cuda')  # noqa\n")
    write(tmp_path / "b.py", "import torch\nd = torch.device('cuda')  # noqa: DEV001\n")
    write(tmp_path / "c.py", "import torch\nd = torch.device('cuda')  # noqa: E501\n")
    result = devlint("check", "a.py", "b.py", "c.py", cwd=tmp_path)
    assert result.returncode == 1
    assert [line.split(":")[0] for line in result.stdout.splitlines() if " DEV" in line] == ["c.py"]


def test_pyproject_config_select_ignore_exclude_per_file(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", textwrap.dedent(
        """\
        [tool.devlint]
        exclude = ["vendored"]
        per-file-ignores = { "scripts/*" = ["DEV001"] }
        """
    ))
    write(tmp_path / "vendored" / "bad.py", BUGGY)
    write(tmp_path / "scripts" / "gpu_only.py", BUGGY)
    write(tmp_path / "train.py", BUGGY)
    result = devlint("check", cwd=tmp_path)
    assert result.returncode == 1
    paths = {line.split(":")[0] for line in result.stdout.splitlines() if "DEV" in line}
    assert paths == {"train.py"}
    # A flag overrides the config.
    assert devlint("check", "--ignore", "DEV001", cwd=tmp_path).returncode == 0


def test_bad_config_is_a_one_line_usage_error(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", "[tool.devlint]\nslect = ['DEV001']\n")
    write(tmp_path / "ok.py", CLEAN)
    result = devlint("check", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "unknown [tool.devlint] keys: slect" in result.stderr


def test_json_format(tmp_path: Path) -> None:
    write(tmp_path / "bad.py", BUGGY)
    result = devlint("check", "--format", "json", "bad.py", cwd=tmp_path)
    assert result.returncode == 1
    payload = json.loads(result.stdout)
    assert payload["files_checked"] == 1
    assert [(f["path"], f["line"], f["column"], f["code"]) for f in payload["findings"]] == [
        ("bad.py", 2, 23, "DEV001")
    ]


def test_missing_path_is_reported_and_the_run_goes_on(tmp_path: Path) -> None:
    write(tmp_path / "bad.py", BUGGY)
    result = devlint("check", "nope.py", "bad.py", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.strip() == "devlint: error: nope.py: no such file or directory"
    assert "bad.py:2:23: DEV001" in result.stdout


@pytest.mark.skipif(not hasattr(os, "geteuid"), reason="no POSIX file modes")
def test_unreadable_file(tmp_path: Path) -> None:
    path = write(tmp_path / "secret.py", CLEAN)
    path.chmod(0)
    result = devlint_bound_by_modes("check", "secret.py", cwd=tmp_path)
    assert result.returncode == 2
    assert "secret.py: cannot read" in result.stderr


def test_dangling_symlink_is_a_read_error_even_as_root(tmp_path: Path) -> None:
    (tmp_path / "gone.py").symlink_to(tmp_path / "missing-target.py")
    write(tmp_path / "bad.py", BUGGY)
    result = devlint("check", "gone.py", "bad.py", cwd=tmp_path)
    assert result.returncode == 2
    assert "gone.py: cannot read" in result.stderr and "Traceback" not in result.stderr
    assert "bad.py:2:23: DEV001" in result.stdout


@pytest.mark.parametrize(
    "content, reason",
    [
        (b"def f(:\n    pass\n", "cannot parse"),
        (b"x = '\xff\xfe'\n", "cannot decode as utf-8"),
        (b"x = 1\x00\n", "NUL bytes"),
        (b"print 'hello'\n", "cannot parse"),
    ],
    ids=["syntax-error", "invalid-utf8", "nul-bytes", "python2"],
)
def test_unparsable_file_is_dev999_and_run_goes_on(tmp_path: Path, content: bytes, reason: str) -> None:
    (tmp_path / "broken.py").write_bytes(content)
    write(tmp_path / "bad.py", BUGGY)
    result = devlint("check", "broken.py", "bad.py", cwd=tmp_path)
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert lines[0].startswith("broken.py:") and " DEV999 " in lines[0] and reason in lines[0]
    assert lines[1].startswith("bad.py:2:23: DEV001")
    assert "Traceback" not in result.stdout + result.stderr


def test_rule_explains_itself(tmp_path: Path) -> None:
    result = devlint("rule", "dev002", cwd=tmp_path)
    assert result.returncode == 0
    for heading in ("# DEV002 batch-not-moved", "## What it does", "## Why is this bad",
                    "## Example", "## Use instead", "## Fix"):
        assert heading in result.stdout
    listing = devlint("rule", "--all", cwd=tmp_path)
    from devlint.lint.docs import entries

    assert [line.split()[0] for line in listing.stdout.splitlines()] == [e.code for e in entries()]
    assert devlint("rule", "DEV990", cwd=tmp_path).returncode == 2


def test_usage_error_exits_2(tmp_path: Path) -> None:
    assert devlint("check", "--format", "yaml", cwd=tmp_path).returncode == 2
    assert devlint(cwd=tmp_path).returncode == 2


def test_linting_never_imports_torch(tmp_path: Path) -> None:
    code = (
        "import sys, devlint.cli\n"
        "devlint.cli.main(['check', '--format', 'json', %r])\n"
        "assert 'torch' not in sys.modules, 'torch was imported'\n" % str(ROOT / "fixtures")
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
