"""Issue 17's verify repros and issue 21's signals: no process outlives `devlint verify` (not
the training child, its workers, a setsid grandchild or a double-forked daemon) whether it
ends by SIGTERM, SIGHUP, Ctrl-C or --timeout; hostile scripts get honest statuses."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

pytest.importorskip("torch")

from conftest import TRAINING_SNIPPET  # noqa: E402
from devlint.cli import main  # noqa: E402
from devlint.verify.launcher import child_pids  # noqa: E402

HOSTILE = """\
import os, subprocess, sys, time
import torch
pids = {pids!r}
def remember(pid):
    with open(pids, "a") as f:
        f.write(f"{{pid}}\\n")
remember(subprocess.Popen(["sleep", "3001"], start_new_session=True).pid)
if os.fork() == 0:  # a daemon: fork, setsid, fork again, the middle one exits
    os.setsid()
    grandchild = os.fork()
    if grandchild == 0:
        os.execvp("sleep", ["sleep", "3002"])
    remember(grandchild)
    os._exit(0)
model = torch.nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for _ in range(3):
    opt.zero_grad()
    model(torch.randn(8, 4)).pow(2).mean().backward()
    opt.step()
remember(os.getpid())
time.sleep(3600)
"""


def _alive(pid: int) -> bool:
    """Running and not a zombie waiting for a reaper (a container's init may never reap)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def _descendants(pid: int) -> set[int]:
    found, frontier = set(), [pid]
    while frontier:
        children = child_pids(frontier.pop())
        found.update(children)
        frontier += children
    return found


def _wait_for(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return condition()


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc").is_dir(), reason="counts processes through /proc")
@pytest.mark.parametrize("how, code", [("SIGTERM", 143), ("SIGHUP", 129), ("SIGINT", 130),
                                        ("timeout", 1)])
def test_no_process_outlives_verify(tmp_path, how, code):
    pids = tmp_path / "pids"  # outside the script's folder: where the runs' writes land
    (tmp_path / "project").mkdir()
    script = tmp_path / "project" / "hostile.py"
    script.write_text(HOSTILE.format(pids=str(pids)))
    timeout = ["--timeout", "25"] if how == "timeout" else ["--timeout", "300"]
    parent = subprocess.Popen(
        [sys.executable, "-m", "devlint", "verify", str(script), "--devices", "cpu,cuda-sim",
         *timeout], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    # three pids per device run: the setsid sleep, the daemon's grandchild, the run itself
    assert _wait_for(lambda: pids.exists() and len(pids.read_text().split()) >= 6, 120), (
        parent.poll(), pids.read_text() if pids.exists() else "")
    started = {int(p) for p in pids.read_text().split()} | _descendants(parent.pid)
    if how != "timeout":
        parent.send_signal(getattr(signal, how))
    out, err = parent.communicate(timeout=120)
    assert parent.returncode == code, err
    assert "Traceback" not in err
    if how == "timeout":
        assert "timed out" in out and "with 3 steps done" in out
    else:
        assert "the script's processes were stopped" in err
    assert _wait_for(lambda: not any(map(_alive, started)), 10), [
        (p, Path(f"/proc/{p}/cmdline").read_bytes()) for p in started if _alive(p)]


SNIPPET = TRAINING_SNIPPET


def verify_json(capsys, *argv):
    import json

    code = main(["verify", "--json", "-q", *argv])
    return code, json.loads(capsys.readouterr().out)


@pytest.mark.usefixtures("warm_verify")
def test_os_exit_zero_is_a_clean_end_with_its_steps(tmp_path, capsys):
    script = tmp_path / "exits.py"
    script.write_text(SNIPPET + "import os\nos._exit(0)\n")
    code, report = verify_json(capsys, str(script), "--devices", "cpu")
    run = report["devices"][0]
    assert code == 0 and run["status"] == "completed" and len(run["steps"]) == 3


@pytest.mark.usefixtures("warm_verify")
def test_huge_output_is_kept_as_a_bounded_tail(tmp_path, capsys):
    script = tmp_path / "loud.py"
    script.write_text(SNIPPET + textwrap.dedent("""\
        import sys
        line = "x" * 1023 + "\\n"
        for _ in range(32 * 1024):  # 32 MiB
            sys.stdout.write(line)
        print("the end")
    """))
    code, report = verify_json(capsys, str(script), "--devices", "cpu")
    tail = report["devices"][0]["stdout_tail"]
    assert code == 0 and len(tail) <= 4000 and tail.endswith("the end\n")


@pytest.mark.parametrize("argv, message", [
    (["--seed", "-1"], "--seed must be between 0 and 4294967295"),
    (["--seed", str(2 ** 32)], "--seed must be between 0 and 4294967295"),
    (["--timeout", "nan"], "--timeout must be a positive number of seconds"),
    (["--timeout", "inf"], "--timeout must be a positive number of seconds"),
    (["--timeout", "0"], "--timeout must be a positive number of seconds"),
    (["--max-batches", "-1"], "--max-batches must be 0 (no cap) or more"),
    (["--devices", "cpu,cuda"], "--devices cuda: no CUDA GPU on this machine"),
])
def test_bad_options_are_usage_errors_not_script_failures(tmp_path, capsys, argv, message):
    from devlint.verify import probe

    if "cuda" in argv[-1] and probe.gpu_present():
        pytest.skip("this machine has a GPU")
    script = tmp_path / "ok.py"
    script.write_text(SNIPPET)
    assert main(["verify", str(script), *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_inputs_verify_cannot_run_are_refused_in_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    empty = tmp_path / "empty.ipynb"
    empty.write_text('{"cells": [{"cell_type": "markdown", "source": "# notes"}], "metadata": {}}')
    broken = tmp_path / "broken.ipynb"
    broken.write_text("{not json")
    keep = tmp_path / "kept"
    keep.mkdir()
    (keep / "old").write_text("x")
    script = tmp_path / "ok.py"
    script.write_text(SNIPPET)
    cases = [
        (["verify", str(empty)], "no code cells to run"),
        (["verify", str(broken)], "not a notebook"),
        (["verify", "-m", "no_such_pkg.train"], "-m no_such_pkg.train: no such module"),
        (["verify", str(script), "-m", "x"], "give a SCRIPT or -m MODULE (one of them)"),
        (["verify", str(script), "--keep-outputs", str(keep)], "choose a new or empty directory"),
    ]
    for argv, message in cases:
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert message in err and len(err.strip().splitlines()) == 1, err


def test_the_parent_never_imports_torch(tmp_path):
    script = tmp_path / "ok.py"
    script.write_text(SNIPPET)
    check = ("import sys; from devlint.cli import main; code = main(['verify', sys.argv[1], "
             "'-q']); assert 'torch' not in sys.modules, 'torch imported'; sys.exit(code)")
    proc = subprocess.run([sys.executable, "-c", check, str(script)], capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]


@pytest.mark.usefixtures("warm_verify")
@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="needs two cores")
def test_device_runs_go_side_by_side_when_cores_allow(tmp_path, capsys, monkeypatch):
    marks = tmp_path / "marks"
    # outside the script's folder: the runs' isolation keeps what they write there apart
    monkeypatch.setenv("MARKS", str(marks))
    (tmp_path / "project").mkdir()
    script = tmp_path / "project" / "slow.py"
    # A barrier, not a sleep: each run marks its start, then waits (up to 60 s) for the other's.
    # Side by side, both see two starts however unevenly torch's import delays them; one after
    # the other, the first waits alone and says so.
    script.write_text(SNIPPET + textwrap.dedent("""\
        import os, time
        with open(os.environ["MARKS"], "a") as f:
            f.write("start\\n")
        deadline = time.time() + 60
        while time.time() < deadline:
            with open(os.environ["MARKS"]) as f:
                if f.read().count("start") >= 2:
                    break
            time.sleep(0.05)
        with open(os.environ["MARKS"]) as f:
            together = f.read().count("start") >= 2
        with open(os.environ["MARKS"], "a") as f:
            f.write("together\\n" if together else "alone\\n")
    """))
    code, _ = verify_json(capsys, str(script))
    assert code == 0
    marks_seen = marks.read_text().split()
    # both runs started before either finished waiting
    assert sorted(marks_seen) == ["start", "start", "together", "together"], marks_seen
