"""Characters str.splitlines() breaks at and Python does not: a form feed (an Emacs page
break), \\x0b, \\x1c-\\x1e, \\x85, U+2028, U+2029. Above a finding they must shift nothing:
not noqa, not --fix, not --show-source, not the flake8 plugin, not a notebook's cells."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from devlint.lint.analyze import analyze_source
from devlint.core.lines import split_lines
from devlint.lint.notebooks import analyze_notebook

SEPARATORS = ["\x0c", "\x0b", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]
IDS = [f"U+{ord(c):04X}" for c in SEPARATORS]


def program(separator: str, noqa_on: str) -> str:
    """A finding on line 6; the `# noqa` on line 5 (the loop) or 6 (the finding's own)."""
    loop_noqa = "  # noqa" if noqa_on == "loop" else ""
    own_noqa = "  # noqa: DEV002" if noqa_on == "own" else ""
    return (
        "import torch\n"
        f"# section{separator}break\n"
        "device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\n"
        "model = torch.nn.Linear(4, 1).to(device)\n"
        f"for x, y in loader:{loop_noqa}\n"
        f"    out = model(x){own_noqa}\n"
    )


@pytest.mark.parametrize("separator", SEPARATORS, ids=IDS)
def test_split_lines_breaks_only_where_python_does(separator: str) -> None:
    text = f"a{separator}b\r\nc\rd\ne"
    assert split_lines(text) == [f"a{separator}b", "c", "d", "e"]
    assert len(text.splitlines()) == 5  # the trap


@pytest.mark.parametrize("separator", SEPARATORS, ids=IDS)
def test_noqa_is_read_on_the_findings_own_line(separator: str) -> None:
    assert [(f.line, f.code) for f in analyze_source(program(separator, "loop"), "t.py")] == [(6, "DEV002")]
    assert analyze_source(program(separator, "own"), "t.py") == []


@pytest.mark.parametrize("separator", ["\x0c", "\u2028"], ids=["FF", "U+2028"])
def test_fix_leaves_the_noqa_line_alone_and_show_source_shows_the_right_line(
        separator: str, tmp_path: Path) -> None:
    path = tmp_path / "t.py"
    path.write_text(program(separator, "own"), encoding="utf-8")
    before = path.read_bytes()
    fixed = subprocess.run([sys.executable, "-m", "devlint", "check", "--no-cache", "--fix", "t.py"],
                           cwd=tmp_path, capture_output=True, text=True)
    assert fixed.returncode == 0 and path.read_bytes() == before, fixed.stdout
    path.write_text(program(separator, "loop"), encoding="utf-8")
    shown = subprocess.run([sys.executable, "-m", "devlint", "check", "--no-cache", "--show-source",
                            "t.py"], cwd=tmp_path, capture_output=True, text=True, encoding="utf-8")
    assert "t.py:6:17: DEV002" in shown.stdout
    assert "    out = model(x)\n" in shown.stdout


@pytest.mark.parametrize("separator", ["\x0c", "\x1c", "\x85", "\u2028"], ids=["FF", "FS", "NEL", "U+2028"])
def test_flake8_reports_the_finding_and_honours_its_noqa(separator: str, tmp_path: Path) -> None:
    pytest.importorskip("flake8")
    (tmp_path / "loop.py").write_text(program(separator, "loop"), encoding="utf-8")
    (tmp_path / "own.py").write_text(program(separator, "own"), encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "flake8", "--select", "DEV", "loop.py", "own.py"],
                            cwd=tmp_path, capture_output=True, text=True)
    lines = result.stdout.splitlines()
    assert len(lines) == 1 and lines[0].startswith("loop.py:6:17: DEV002 "), result.stdout


def test_a_notebook_cell_with_a_separator_in_a_string_keeps_its_lines() -> None:
    source = ["import torch\n", "note = 'a\u2028b\x0cc'  # noqa\n", "x = torch.zeros(3).cuda()  # noqa\n",
              "y = torch.zeros(3).cuda()\n"]
    notebook = {"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
                           "source": source}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    findings = analyze_notebook(json.dumps(notebook).encode(), "nb.ipynb")
    assert [(f.path, f.cell, f.line, f.code) for f in findings] == [("nb.ipynb", 1, 4, "DEV001")]
