"""What devlint reads and writes: every input read once (pipes, standard input), only regular
files walked, the report written after the analysis and atomically, and every failure of the
output (a closed pipe, a full disk, Ctrl-C) one line with its exit status."""
from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from devlint.cli import main

BUGGY = "import torch\ndevice = torch.device('cuda')\n"  # DEV001 at 2:23
LOOP = (
    "import torch\n"
    "device = torch.device('cuda')\n"
    "model = torch.nn.Linear(4, 1).to(device)\n"
    "for x, y in loader:\n"
    "    out = model(x)\n"
)  # DEV001 at 2:23, DEV002 at 5:17


def devlint(*args: str, cwd: Path, stdin: str | None = None, timeout: float = 120,
            env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "devlint", *args], cwd=cwd, input=stdin,
                          capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **(env or {})})


def assert_one_error_line(result: subprocess.CompletedProcess, says: str) -> None:
    assert "Traceback" not in result.stderr, result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("devlint: error:")]
    assert len(errors) == 1 and says in errors[0], result.stderr


# -- read once ---------------------------------------------------------------------------


def test_a_pipe_is_read_once_with_the_cache_on(tmp_path: Path) -> None:
    """The cache used to hash the pipe's bytes, then analyse a second, empty read: exit 0."""
    result = devlint("check", "/dev/stdin", cwd=tmp_path, stdin=LOOP)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "/dev/stdin:2:23: DEV001" in result.stdout and "/dev/stdin:5:17: DEV002" in result.stdout


def test_standard_input_is_checked_under_its_stdin_filename(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.devlint]\nper-file-ignores = { "scripts/*" = ["DEV001"] }\n', encoding="utf-8")
    plain = devlint("check", "-", cwd=tmp_path, stdin=LOOP)
    assert plain.returncode == 1 and plain.stdout.startswith("-:2:23: DEV001"), plain.stdout
    named = devlint("check", "-", "--stdin-filename", "train.py", cwd=tmp_path, stdin=LOOP)
    assert named.stdout.startswith("train.py:2:23: DEV001"), named.stdout
    # the config of the named file's project, its per-file-ignores, from another directory
    (tmp_path / "elsewhere").mkdir()
    ignored = devlint("check", "-", "--stdin-filename", str(tmp_path / "scripts" / "gpu.py"),
                      cwd=tmp_path / "elsewhere", stdin=LOOP)
    assert "DEV001" not in ignored.stdout and " DEV002 " in ignored.stdout, ignored.stdout
    # the name alone reads standard input, as ruff does
    alone = devlint("check", "--stdin-filename", "nb.py", "--format", "json", cwd=tmp_path, stdin=LOOP)
    assert {f["path"] for f in json.loads(alone.stdout)["findings"]} == {"nb.py"}


def test_standard_input_can_be_diffed_but_not_fixed_in_place(tmp_path: Path) -> None:
    diff = devlint("check", "-", "--stdin-filename", "t.py", "--diff", cwd=tmp_path, stdin=LOOP)
    assert diff.returncode == 1 and "--- a/t.py\n+++ b/t.py\n" in diff.stdout, diff.stdout
    fixed = devlint("check", "-", "--fix", cwd=tmp_path, stdin=LOOP)
    assert fixed.returncode == 2 and fixed.stdout == ""
    assert_one_error_line(fixed, "for standard input use --diff")
    assert not list(tmp_path.iterdir())


# -- only regular files, bounded -----------------------------------------------------------


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_or_a_device_in_a_tree_is_skipped_and_never_read(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(BUGGY, encoding="utf-8")
    os.mkfifo(tmp_path / "pipe.py")  # opening it would wait for a writer forever
    (tmp_path / "zero.py").symlink_to("/dev/zero")  # reading it would never end
    result = devlint("check", "--no-cache", ".", cwd=tmp_path, timeout=60)
    assert result.returncode == 1 and "a.py:2:23: DEV001" in result.stdout
    assert result.stderr.splitlines() == [
        "devlint: warning: pipe.py: a FIFO, not a regular file; skipped",
        "devlint: warning: zero.py: a device, not a regular file; skipped",
    ]


def test_a_named_device_is_an_error_and_never_read(tmp_path: Path) -> None:
    (tmp_path / "zero.py").symlink_to("/dev/zero")
    for cache in ([], ["--no-cache"]):
        result = devlint("check", *cache, "zero.py", cwd=tmp_path, timeout=60)
        assert result.returncode == 2
        assert_one_error_line(result, "zero.py: cannot read: not a regular file")


def test_input_beyond_the_size_cap_is_one_error_line(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.setattr("devlint.workspace.source.MAX_SOURCE_BYTES", 1000)
    (tmp_path / "big.py").write_text("x = 1\n" * 200, encoding="utf-8")
    assert main(["check", "--no-cache", str(tmp_path / "big.py")]) == 2
    err = capsys.readouterr().err
    assert err == f"devlint: error: {tmp_path / 'big.py'}: larger than 0 MiB; not checked\n"


def test_a_path_longer_than_path_max_is_one_line(tmp_path: Path) -> None:
    deep = tmp_path / "deep"
    os.makedirs(deep)
    here = os.getcwd()
    try:
        os.chdir(deep)
        for _ in range(220):  # 4,620 characters: more than PATH_MAX (4096)
            os.mkdir("d" * 20)
            os.chdir("d" * 20)
        Path("t.py").write_text(BUGGY, encoding="utf-8")
    finally:
        os.chdir(here)
    (tmp_path / "ok.py").write_text("x = 1\n", encoding="utf-8")
    result = devlint("check", "--no-cache", "deep", "ok.py", cwd=tmp_path)
    assert result.returncode == 2
    assert_one_error_line(result, "File name too long")
    assert "1 file checked" in result.stdout  # the run went on


# -- the report --------------------------------------------------------------------------


def test_an_output_file_that_is_also_an_input_is_refused_and_the_source_kept(tmp_path: Path) -> None:
    """`-o train.py train.py` truncated the source before reading it and exited 0."""
    (tmp_path / "train.py").write_text(LOOP, encoding="utf-8")
    result = devlint("check", "--no-cache", "-o", "train.py", "train.py", cwd=tmp_path)
    assert result.returncode == 2
    assert_one_error_line(result, "train.py is also a file being checked")
    assert (tmp_path / "train.py").read_text(encoding="utf-8") == LOOP
    through_a_directory = devlint("check", "-o", "train.py", ".", cwd=tmp_path)
    assert through_a_directory.returncode == 2
    assert (tmp_path / "train.py").read_text(encoding="utf-8") == LOOP


def test_the_report_replaces_the_output_file_whole_and_keeps_its_mode(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(LOOP, encoding="utf-8")
    report = tmp_path / "report.json"
    report.write_text("old report\n", encoding="utf-8")
    report.chmod(0o640)
    before = report.stat().st_ino
    result = devlint("check", "--format", "json", "-o", "report.json", "train.py", cwd=tmp_path)
    assert result.returncode == 1 and result.stdout == ""
    assert len(json.loads(report.read_text(encoding="utf-8"))["findings"]) == 2
    assert report.stat().st_ino != before  # renamed over, never truncated in place
    assert stat.S_IMODE(report.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.json", "train.py"]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
@pytest.mark.parametrize("content", [LOOP, "x = 1\n"], ids=["findings", "clean"])
def test_a_full_disk_is_one_line_and_exit_2(tmp_path: Path, content: str) -> None:
    (tmp_path / "t.py").write_text(content, encoding="utf-8")
    to_file = devlint("check", "-o", "/dev/full", "t.py", cwd=tmp_path)
    assert to_file.returncode == 2
    assert_one_error_line(to_file, "cannot write /dev/full: No space left on device")
    with open("/dev/full", "w") as full:
        to_stdout = subprocess.run([sys.executable, "-m", "devlint", "check", "t.py"], cwd=tmp_path,
                                   stdout=full, stderr=subprocess.PIPE, text=True, timeout=120)
    assert to_stdout.returncode == 2
    assert_one_error_line(to_stdout, "cannot write the report: No space left on device")


def test_a_reader_that_leaves_early_is_one_line_and_exit_2(tmp_path: Path) -> None:
    """`devlint check | head -1`: a BrokenPipeError traceback and exit 1 ("findings")."""
    for i in range(50):
        (tmp_path / f"m{i}.py").write_text(BUGGY, encoding="utf-8")
    process = subprocess.Popen([sys.executable, "-m", "devlint", "check", "--no-cache", "."],
                               cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    process.stdout.close()  # the reader is gone before the first finding is written
    err = process.stderr.read()
    assert process.wait(timeout=120) == 2
    assert err == "devlint: error: the output was closed before the report ended (broken pipe)\n"


def test_no_findings_line_never_follows_an_error(tmp_path: Path) -> None:
    (tmp_path / "ok.py").write_text("x = 1\n", encoding="utf-8")
    result = devlint("check", "missing.py", "ok.py", cwd=tmp_path)
    assert result.returncode == 2
    assert "No findings" not in result.stdout
    assert result.stdout == "Found 0 findings and 1 error (1 file checked).\n"


def test_diff_headers_of_an_absolute_path_have_one_slash(tmp_path: Path) -> None:
    path = tmp_path / "t.py"
    path.write_text(LOOP, encoding="utf-8")
    result = devlint("check", "--diff", str(path), cwd=tmp_path)
    relative = str(path).lstrip("/")
    assert f"--- a/{relative}\n+++ b/{relative}\n" in result.stdout, result.stdout


# -- Ctrl-C --------------------------------------------------------------------------------


def test_ctrl_c_during_fix_names_the_files_already_rewritten(tmp_path: Path, monkeypatch, capsys) -> None:
    import devlint.lint.fix as fix

    paths = [tmp_path / f"m{i}.py" for i in range(5)]
    for path in paths:
        path.write_text(BUGGY, encoding="utf-8")
    real, calls = fix.check_and_fix, []

    def fix_then_interrupt(*args, **kwargs):
        real(*args, **kwargs)
        calls.append(args[0])
        if len(calls) == 3:
            raise KeyboardInterrupt  # after the third file was written

    monkeypatch.setattr(fix, "check_and_fix", fix_then_interrupt)
    assert main(["check", "--fix", *map(str, paths)]) == 130
    err = capsys.readouterr().err.splitlines()
    assert err[0] == "devlint: error: interrupted; 3 files had already been fixed:"
    assert err[1:] == [f"  {p}" for p in paths[:3]]
    assert [p.read_text(encoding="utf-8") == BUGGY for p in paths] == [False] * 3 + [True] * 2


def test_a_real_sigint_during_fix_exits_130_with_the_list(tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    tree.mkdir()
    for i in range(400):
        (tree / f"m{i:03d}.py").write_text(BUGGY, encoding="utf-8")
    process = subprocess.Popen([sys.executable, "-m", "devlint", "check", "--fix", "-j1", "tree"],
                               cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    deadline = time.monotonic() + 120
    while (tree / "m000.py").read_text(encoding="utf-8") == BUGGY and time.monotonic() < deadline:
        time.sleep(0.01)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=120)
    fixed = sorted(f"tree/{p.name}" for p in tree.iterdir() if p.read_text(encoding="utf-8") != BUGGY)
    # The signal leaves after the first of 400 files: a run that ends 0 with all of them fixed
    # ignored it, which is the failure this test is for.
    assert process.returncode == 130 and "Traceback" not in err, (process.returncode, err)
    assert 0 < len(fixed) < 400
    lines = err.splitlines()
    assert lines[0].startswith("devlint: error: interrupted;")
    assert sorted(line.strip() for line in lines[1:]) == fixed and fixed
