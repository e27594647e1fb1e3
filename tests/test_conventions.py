"""The conventions users bring from ruff and flake8: --output-format, -q, --exit-zero, a
file-level `# devlint: noqa`, FORCE_COLOR and NO_COLOR."""
from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from devlint.cli import main
from devlint.lint.analyze import analyze_source
from devlint.lint.report.text import TextStyle

# Two DEV001, two slips: the file chooses a device with a fallback once (line 5), so each
# function (and the module level) that bypasses it is reported on its own.
BUGGY = ("import torch\ndevice = torch.device('cuda')\ndef f():\n    return torch.zeros(3).cuda()\n"
         "y = torch.zeros(1).to('cuda' if torch.cuda.is_available() else 'cpu')\n")


def check(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["check", "--no-cache", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def buggy(tmp_path: Path) -> Path:
    path = tmp_path / "t.py"
    path.write_text(BUGGY, encoding="utf-8")
    return path


def test_output_format_is_format(buggy: Path, capsys) -> None:
    code, out, _ = check(capsys, "--output-format", "json", str(buggy))
    assert code == 1 and len(json.loads(out)["findings"]) == 2


def test_quiet_prints_the_findings_and_nothing_else(buggy: Path, capsys) -> None:
    code, out, _ = check(capsys, "-q", str(buggy))
    assert code == 1 and [line.split(": ")[1].split()[0] for line in out.splitlines()] == ["DEV001"] * 2
    code, out, _ = check(capsys, "--quiet", "--diff", str(buggy))
    assert code == 1 and out.startswith("---") and "Would fix" not in out
    clean = buggy.parent / "ok.py"
    clean.write_text("x = 1\n", encoding="utf-8")
    assert check(capsys, "-q", str(clean)) == (0, "", "")


def test_exit_zero_passes_findings_but_never_errors(buggy: Path, capsys) -> None:
    code, out, _ = check(capsys, "--exit-zero", str(buggy))
    assert code == 0 and "Found 2 findings" in out
    code, _, err = check(capsys, "--exit-zero", str(buggy), str(buggy.parent / "missing.py"))
    assert code == 2 and "missing.py: no such file" in err


@pytest.mark.parametrize("comment, left", [
    ("# devlint: noqa", 0),
    ("#devlint:noqa:DEV001", 0),
    ("# DEVLINT: NOQA: dev00", 0),
    ("# devlint: noqa: DEV002, DEV001", 0),
    ("# devlint: noqa: DEV002", 2),
    ("x = 1  # devlint: noqa", 2),  # only on a comment line of its own, as ruff's
    ("'''\n# devlint: noqa: DEV0XX\n'''", 2),
])
def test_a_file_level_noqa_silences_the_whole_file(comment: str, left: int) -> None:
    assert len(analyze_source(BUGGY + comment + "\n", "t.py")) == left
    assert len(analyze_source(comment + "\n" + BUGGY, "t.py")) == left


def test_a_file_level_noqa_is_never_fixed_and_counts_in_any_notebook_cell(tmp_path: Path, capsys) -> None:
    path = tmp_path / "t.py"
    path.write_text("# devlint: noqa: DEV001\n" + BUGGY, encoding="utf-8")
    assert check(capsys, "--fix", str(path))[0] == 0
    assert path.read_text(encoding="utf-8") == "# devlint: noqa: DEV001\n" + BUGGY
    cells = [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
              "source": source} for source in (BUGGY, "# devlint: noqa\n")]
    notebook = tmp_path / "nb.ipynb"
    notebook.write_text(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4,
                                    "nbformat_minor": 5}), encoding="utf-8")
    assert check(capsys, str(notebook))[0] == 0


def test_a_file_level_noqa_holds_under_flake8(tmp_path: Path) -> None:
    (tmp_path / "t.py").write_text("# devlint: noqa\n" + BUGGY, encoding="utf-8")
    (tmp_path / "u.py").write_text(BUGGY, encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "flake8", "--isolated", "--select", "DEV",
                             "t.py", "u.py"], cwd=tmp_path, capture_output=True, text=True)
    assert [line.split(":")[0] for line in result.stdout.splitlines()] == ["u.py", "u.py"]


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("env, tty, color", [
    ({}, True, True),
    ({}, False, False),
    ({"NO_COLOR": ""}, True, True),  # set but empty: no-color.org says it does not count
    ({"NO_COLOR": "1"}, True, False),
    ({"FORCE_COLOR": "1"}, False, True),
    ({"FORCE_COLOR": ""}, False, False),
    ({"FORCE_COLOR": "1", "NO_COLOR": "1"}, False, False),
])
def test_force_color_and_no_color_count_only_when_non_empty(monkeypatch, env, tty, color) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert TextStyle.for_stream(Terminal() if tty else io.StringIO()).color is color
