"""Every bad input gets one line and the run goes on: through `devlint check` and through
flake8, never a traceback."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Callable

import pytest

BUGGY = "import torch\ndevice = torch.device('cuda')\n"  # DEV001 at 2:23: proves the run went on


def nested(depth: int) -> bytes:
    return b"x = " + b"(" * depth + b"1" + b")" * depth + b"\n"


def big_file() -> bytes:
    line = b"value_%07d = compute(alpha, beta, gamma)  # padding to make the file large\n"
    return b"".join(line % i for i in range(130_000))  # about 10 MB


# name -> (bytes, what the diagnostic must say, or None when the file is fine)
CASES: dict[str, tuple[Callable[[], bytes], str | None]] = {
    "syntax_error": (lambda: b"def f(:\n    pass\n", "DEV999 cannot parse"),
    "invalid_utf8": (lambda: b"x = '\xff\xfe'\n", "DEV999 cannot parse: cannot decode as utf-8"),
    "utf8_bom": (lambda: b"\xef\xbb\xbfimport torch\nx = 1\n", None),
    "latin1_cookie": (lambda: "# -*- coding: latin-1 -*-\nname = 'caf\xe9'\n".encode("latin-1"), None),
    "crlf": (lambda: b"import torch\r\nx = 1\r\n", None),
    "lone_cr": (lambda: b"import torch\rx = 1\r", None),
    "mixed_tabs": (lambda: b"if True:\n\tx = 1\n        y = 2\n", "DEV999"),
    "nul_bytes": (lambda: b"x = 1\x00\n", "DEV999 cannot parse: source contains NUL bytes"),
    "empty": (lambda: b"", None),
    "only_comments": (lambda: b"# nothing here\n# at all\n", None),
    "ten_megabytes": (big_file, None),
    "nested_1000": (lambda: nested(1000), "DEV999"),
    "nested_1000_with_cuda": (lambda: b"import torch\nd = torch.device('cuda')\n" + nested(1000), "DEV999"),
    # These two crashed (segfault) and stalled (quadratic) libcst's parser before CPython's
    # parser was asked first.
    "nested_100000_with_cuda": (
        lambda: b"import torch\nd = torch.device('cuda')\n" + nested(100_000), "DEV999"),
    "chain_50000_with_cuda": (
        lambda: b"import torch\nd = torch.device('cuda')\nx = 1" + b" + 1" * 50_000 + b"\n", "DEV999"),
    "python2": (lambda: b"print 'hello'\n", "DEV999 cannot parse"),
    "executes_on_import": (
        lambda: b"import pathlib\npathlib.Path('IMPORTED').write_text('ran')\nraise SystemExit(3)\n",
        None),
}


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=300)


def assert_no_traceback(result: subprocess.CompletedProcess) -> None:
    assert "Traceback" not in result.stdout + result.stderr, result.stdout + result.stderr


@pytest.mark.parametrize("name", sorted(CASES))
def test_bad_input_through_the_cli(name: str, tmp_path: Path) -> None:
    make, expected = CASES[name]
    (tmp_path / f"{name}.py").write_bytes(make())
    (tmp_path / "buggy.py").write_text(BUGGY)
    result = run("devlint", "check", "--no-cache", f"{name}.py", "buggy.py", cwd=tmp_path)
    assert_no_traceback(result)
    mine = [line for line in result.stdout.splitlines() if line.startswith(f"{name}.py:")]
    assert "buggy.py:2:23: DEV001" in result.stdout  # the run went on
    assert result.returncode == 1
    if expected is None:
        assert mine == [], mine
    else:
        assert len(mine) == 1 and expected in mine[0], mine
    assert not (tmp_path / "IMPORTED").exists()  # check parses, never imports


FLAKE8_OWN_CRASHES = {"chain_50000_with_cuda"}  # flake8's ast.parse raises before any plugin


@pytest.mark.parametrize("name", sorted(set(CASES) - FLAKE8_OWN_CRASHES))
def test_bad_input_through_flake8(name: str, tmp_path: Path) -> None:
    make, expected = CASES[name]
    (tmp_path / f"{name}.py").write_bytes(make())
    (tmp_path / "buggy.py").write_text(BUGGY)
    result = run("flake8", "--isolated", "--select", "DEV,E9", f"{name}.py", "buggy.py", cwd=tmp_path)
    assert_no_traceback(result)
    assert "buggy.py:2:23: DEV001" in result.stdout
    mine = [line for line in result.stdout.splitlines() if line.startswith(f"./{name}.py:")
            or line.startswith(f"{name}.py:")]
    if expected is None:
        assert [m for m in mine if " DEV" in m] == []
    else:
        assert len(mine) <= 1  # flake8 reports a file it cannot parse as one E9xx line
    assert not (tmp_path / "IMPORTED").exists()


def test_missing_path_symlink_loop_and_unreadable_file(tmp_path: Path) -> None:
    (tmp_path / "loop").mkdir()
    (tmp_path / "loop" / "again").symlink_to(tmp_path / "loop", target_is_directory=True)
    (tmp_path / "dangling.py").symlink_to(tmp_path / "nowhere.py")
    (tmp_path / "buggy.py").write_text(BUGGY)
    result = run("devlint", "check", "--no-cache", "missing.py", "loop", "dangling.py", "buggy.py",
                 cwd=tmp_path)
    assert_no_traceback(result)
    assert result.returncode == 2  # an unreadable path is an error, the findings still print
    errors = result.stderr.splitlines()
    assert errors == ["devlint: error: missing.py: no such file or directory",
                      f"devlint: error: dangling.py: cannot read: No such file or directory"]
    assert "buggy.py:2:23: DEV001" in result.stdout


def test_a_directory_of_every_bad_input_gives_one_line_per_bad_file(tmp_path: Path) -> None:
    for name, (make, _) in CASES.items():
        (tmp_path / f"{name}.py").write_bytes(make())
    (tmp_path / "buggy.py").write_text(BUGGY)
    result = run("devlint", "check", "--no-cache", ".", cwd=tmp_path)
    assert_no_traceback(result)
    assert result.returncode == 1
    for name, (_, expected) in CASES.items():
        mine = [line for line in result.stdout.splitlines() if line.startswith(f"{name}.py:")]
        assert len(mine) == (0 if expected is None else 1), (name, mine)
    assert result.stderr == ""
