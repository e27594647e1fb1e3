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


def big_line_file(size: int) -> bytes:
    line = b"value = compute(alpha, [1, 2, 3], key='k')  # a generated table\n"
    return line * (size // len(line) + 1)


def big_file() -> bytes:
    line = b"value_%07d = compute(alpha, beta, gamma)  # padding to make the file large\n"
    return b"".join(line % i for i in range(130_000))  # about 10 MB


# name -> (bytes, what the diagnostic must say, or None when the file is fine)
LFS_POINTER = (b"version https://git-lfs.github.com/spec/v1\n"
               b"oid sha256:07dd1adc9b3c4f0e2a5d8b6c7e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f\n"
               b"size 101271593\n")
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
    # a clone made without `git lfs`: the file is three lines naming its content
    "lfs_pointer": (lambda: LFS_POINTER, "1:1: DEV999 cannot parse: a Git LFS pointer, not the "
                                         "file's content (fetch it with `git lfs pull`)"),
    # Valid Python: never DEV999. Either analysed, or DEV998 with the reason.
    "paren_annotated_target": (
        lambda: b"import torch\nd = torch.device('cuda')\n(z): int = 3\n",
        "3:1: DEV998 devlint cannot analyse this file: its parser cannot read the syntax here"),
    "tab_after_spaces": (
        lambda: b"import torch\nd = torch.device('cuda')\nif True:\n    if True:\n\t        x = 1\n",
        "DEV998 devlint cannot analyse this file"),
    "implicit_concat_500_with_cuda": (
        lambda: b"import torch\nd = torch.device('cuda')\nx = (\n"
                + b"".join(b"    'line %d'\n" % i for i in range(500)) + b")\n",
        "2:18: DEV001"),
    "attribute_chain_800_with_cuda": (
        lambda: b"import torch\nd = torch.device('cuda')\nx = df" + b".a" * 800 + b"\n", "2:18: DEV001"),
    "subscript_chain_2000_with_cuda": (
        lambda: b"import torch\nd = torch.device('cuda')\nx = a" + b"[0]" * 2000 + b"\n",
        "3:5: DEV998 devlint cannot analyse this file: an expression here nests or chains more than"),
    "four_megabytes_with_cuda": (
        lambda: b"import torch\nd = torch.device('cuda')\n" + big_line_file(4_100_000),
        "1:1: DEV998 devlint cannot analyse this file: the file is 4.1 MB; devlint analyses files up to 4 MB"),
    "executes_on_import": (
        lambda: b"import pathlib\npathlib.Path('IMPORTED').write_text('ran')\nraise SystemExit(3)\n",
        None),
}


def test_a_notebook_left_as_a_git_lfs_pointer_says_so(tmp_path: Path) -> None:
    (tmp_path / "explore.ipynb").write_bytes(LFS_POINTER)
    (tmp_path / "buggy.py").write_text(BUGGY)
    result = run("devlint", "check", "--no-cache", "explore.ipynb", "buggy.py", cwd=tmp_path)
    assert_no_traceback(result)
    assert "buggy.py:2:23: DEV001" in result.stdout
    assert "explore.ipynb:1:1: DEV999 cannot parse: not a notebook: a Git LFS pointer, not the " \
           "file's content (fetch it with `git lfs pull`)" in result.stdout
    assert result.returncode == 1


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


# flake8's ast.parse raises before any plugin runs; pyflakes recurses once per chained link.
FLAKE8_OWN_CRASHES = {"chain_50000_with_cuda", "attribute_chain_800_with_cuda",
                      "subscript_chain_2000_with_cuda"}
FLAKE8_OWN_COST = {"four_megabytes_with_cuda"}  # flake8 builds CPython's tree of it first: slow


@pytest.mark.parametrize("name", sorted(set(CASES) - FLAKE8_OWN_CRASHES - FLAKE8_OWN_COST))
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


def test_an_input_too_costly_for_libcst_never_reaches_it(monkeypatch) -> None:
    """Ten chains of 1900 subscripts (57 kB) took libcst 37 CPU s; ten of 900 still take
    seconds each. CPython's tree is screened first: libcst is never asked."""
    import devlint.lint.analyze as analyze

    def parse_module(text):
        raise AssertionError("libcst was asked to parse it")

    monkeypatch.setattr(analyze, "parse_module", parse_module)
    head = "import torch\nd = torch.device('cuda')\n"
    for length in (1900, 900):
        text = head + "".join(f"x{i} = a" + "[0]" * length + "\n" for i in range(10))
        (finding,) = analyze.analyze_source(text, "chains.py")
        assert finding.code == "DEV998" and finding.line >= 3, finding


def test_dev998_is_selected_and_ignored_like_any_code() -> None:
    from devlint.lint.analyze import analyze_source
    from devlint.core.selection import Selection

    text = "import torch\nd = torch.device('cuda')\n(z): int = 3\n"
    assert [f.code for f in analyze_source(text, "t.py")] == ["DEV998"]
    assert analyze_source(text, "t.py", Selection(ignore=("DEV998",))) == []
    assert analyze_source(text, "t.py", Selection(select=("DEV001",))) == []


@pytest.mark.parametrize("text, code", [
    ("import torch\nx = = 1  # noqa\n", "DEV999"),
    ("import torch\nd = torch.device('cuda')\n(z): int = 3  # noqa: DEV998\n", "DEV998"),
], ids=["syntax error", "cannot analyse"])
def test_a_line_noqa_never_hides_that_a_file_was_not_checked(text: str, code: str) -> None:
    """Found by the fuzz campaign: `# noqa` on the broken line silenced DEV999, exit 0."""
    from devlint.lint.analyze import analyze_source

    assert [f.code for f in analyze_source(text, "t.py")] == [code]
