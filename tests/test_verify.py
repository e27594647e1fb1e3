"""`devlint verify` end to end on CPU: real child processes running real scripts."""
from __future__ import annotations

import json
import os
import re
import textwrap
import time
from pathlib import Path

import pytest

pytest.importorskip("torch")

from conftest import TRAINING_SNIPPET  # noqa: E402
from devlint.cli import main  # noqa: E402

pytestmark = pytest.mark.usefixtures("warm_verify")

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
RUNNABLE = sorted(p for p in EXAMPLES.glob("*.py") if not p.name.startswith("buggy_"))
FLOAT = re.compile(r"loss (-?\d+\.\d+)")


def verify_json(capsys, *argv):
    code = main(["verify", "--json", *argv])
    captured = capsys.readouterr()
    return code, json.loads(captured.out), captured.err


def printed_losses(stdout: str) -> list[float]:
    return [float(m.group(1)) for m in FLOAT.finditer(stdout)]


@pytest.mark.parametrize("script", RUNNABLE, ids=lambda p: p.name)
def test_recorded_losses_equal_what_the_script_prints(capsys, script):
    args = ["--", "--hidden", "64", "--batch-size", "16"] if script.name == "large_mlp.py" else []
    code, report, err = verify_json(capsys, str(script), "--devices", "cpu", "--max-steps", "500",
                                    "--max-batches", "0", "--max-epochs", "0", *args)
    run = report["devices"][0]
    assert code == 0, run["error"] or run["stderr_tail"]
    assert run["status"] == "completed"
    printed = printed_losses(run["stdout_tail"])
    assert len(printed) == len(run["losses"]) > 0
    assert [round(v, 6) for v in run["losses"]] == pytest.approx(printed, abs=1.5e-6)
    assert "[1/1] cpu: finished" in err


def test_table_verdict_and_plot_for_the_seed_loop(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    plot = tmp_path / "verify.png"
    code = main(["verify", str(EXAMPLES / "seed_loop.py"), "--devices", "cpu", "-q",
                 "--plot", str(plot)])
    out = capsys.readouterr().out
    assert code == 0
    assert re.search(r"^cpu\s+completed\s+16\s+[\d.]+ ms\s+0%\s+[\d.]+\s+-\s+-\s+baseline$", out, re.M)
    assert "verdict: OK" in out
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_max_steps_ends_the_loop_cleanly_and_the_script_goes_on(capsys):
    code, report, _ = verify_json(capsys, str(EXAMPLES / "seed_loop.py"), "--devices", "cpu",
                                  "--max-steps", "5")
    run = report["devices"][0]
    assert code == 0 and run["status"] == "completed"
    assert len(run["steps"]) == 5
    # the script prints after optimizer.step(): the fifth step's print happens, then the loops
    # (the batch loop and the epoch loop around it) end as at the end of their data
    assert printed_losses(run["stdout_tail"]) == pytest.approx(
        [round(v, 6) for v in run["losses"]], abs=1.5e-6)
    assert [(c["line"], c["reason"]) for c in run["cuts"]] == [(18, "steps"), (19, "steps")]


def test_hard_coded_cuda_fails_the_cpu_run_and_maps_to_dev001(capsys):
    code, report, _ = verify_json(capsys, str(EXAMPLES / "buggy_seed_loop.py"), "--devices", "cpu")
    run = report["devices"][0]
    assert code == 1 and run["status"] == "error"
    assert "Torch not compiled with CUDA enabled" in run["error"]["message"]
    assert run["error"]["frame"]["line"] == 15
    codes = [(f["code"], f["line"]) for f in run["explanation"]["findings"]]
    assert codes == [("DEV001", 8)]


def test_fix_verifies_a_corrected_copy_and_never_touches_the_script(tmp_path, capsys):
    script = tmp_path / "buggy.py"
    script.write_bytes((EXAMPLES / "buggy_seed_loop.py").read_bytes())
    before = script.read_bytes()
    code, report, _ = verify_json(capsys, str(script), "--devices", "cpu", "--fix")
    assert code == 0, report["devices"][0]["error"]
    assert {f["code"] for f in report["fixes_applied"]} == {"DEV001", "DEV002", "DEV003", "DEV004"}
    assert script.read_bytes() == before
    assert report["devices"][0]["status"] == "completed"  # its epoch loop ended at --max-epochs


SCRIPT_PREAMBLE = """\
import torch
import torch.nn as nn
torch.manual_seed(0)
model = nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
def step():
    opt.zero_grad()
    loss = model(torch.randn(4, 2)).pow(2).mean()
    loss.backward()
    opt.step()
"""


def run_snippet(tmp_path, capsys, body, *extra):
    script = tmp_path / "snippet.py"
    script.write_text(SCRIPT_PREAMBLE + textwrap.dedent(body))
    return verify_json(capsys, str(script), "--devices", "cpu", *extra)


def test_a_script_that_raises_is_reported_with_its_line(tmp_path, capsys):
    code, report, _ = run_snippet(tmp_path, capsys, """\
        step()
        raise ValueError("bad batch")
    """)
    run = report["devices"][0]
    assert code == 1 and run["status"] == "error"
    assert run["error"]["type"] == "ValueError" and run["error"]["message"] == "bad batch"
    assert run["error"]["frame"]["line"] == SCRIPT_PREAMBLE.count("\n") + 2
    assert len(run["steps"]) == 1
    assert run["explanation"]["findings"] == []


def test_sys_exit_zero_is_a_clean_end_and_non_zero_a_failure(tmp_path, capsys):
    code, report, _ = run_snippet(tmp_path, capsys, "step()\nimport sys\nsys.exit(0)\n")
    assert code == 0 and report["devices"][0]["status"] == "completed"
    code, report, _ = run_snippet(tmp_path, capsys, "step()\nimport sys\nsys.exit(3)\n")
    assert code == 1 and report["devices"][0]["status"] == "exited"
    assert report["devices"][0]["exit_code"] == 3


def test_except_exception_in_the_script_cannot_swallow_max_steps(tmp_path, capsys):
    code, report, _ = run_snippet(tmp_path, capsys, """\
        for _ in range(100):
            try:
                step()
            except Exception:
                pass
    """, "--max-steps", "3")
    assert code == 0 and report["devices"][0]["status"] == "completed"  # the loop ended
    assert len(report["devices"][0]["steps"]) == 3
    # a loop verify cannot end (exec'd code is not rewritten) is stopped by the backstop
    code, report, _ = run_snippet(tmp_path, capsys, """\
        exec("for _ in range(100):\\n    try:\\n        step()\\n"
             "    except Exception:\\n        pass\\n")
    """, "--max-steps", "3")
    run = report["devices"][0]
    assert code == 0 and run["status"] == "stopped" and len(run["steps"]) == 6
    assert run["stop"]["backstop"] == 6


def hanging_script(pids: Path) -> str:
    """Two DataLoader workers write their pids to `pids`, then the loop hangs."""
    return f"""\
        import os, time
        from torch.utils.data import DataLoader
        def remember(worker_id):
            with open({str(pids)!r}, "a") as f:
                f.write(f"{{os.getpid()}}\\n")
        loader = DataLoader(list(range(64)), batch_size=4, num_workers=2, worker_init_fn=remember)
        for batch in loader:
            time.sleep(1000)
    """


@pytest.mark.slow
def test_a_hanging_script_is_killed_with_its_dataloader_workers(tmp_path, capsys):
    # the timeout must outlast the workers' start on a slow runner; `import torch` happens in
    # the launcher, before a run's clock starts
    pids = tmp_path / "pids"  # outside the script's folder: where the run's writes land
    (tmp_path / "project").mkdir()
    code, report, _ = run_snippet(tmp_path / "project", capsys, hanging_script(pids),
                                  "--timeout", "30")
    assert code == 1 and report["devices"][0]["status"] == "timeout"
    workers = [int(p) for p in pids.read_text().split()]
    assert len(workers) == 2
    deadline = time.monotonic() + 5
    while any(map(_running, workers)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(map(_running, workers))


def _running(pid: int) -> bool:
    """Alive and not a zombie waiting for a reaper (a container's init may never reap)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True
    return state not in ("Z", "X")


def test_usage_errors_exit_2(tmp_path, capsys):
    assert main(["verify", str(tmp_path / "missing.py")]) == 2
    assert main(["verify", str(EXAMPLES / "seed_loop.py"), "--devices", "tpu"]) == 2
    err = capsys.readouterr().err
    assert "no such file" in err and "unknown device 'tpu'" in err


def test_without_torch_verify_says_how_to_install_it(monkeypatch, capsys):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "torch" else real(name, *a))
    assert main(["verify", str(EXAMPLES / "seed_loop.py")]) == 2
    assert "pip install '.[verify]' in a devlint checkout" in capsys.readouterr().err


def _cuda_available() -> bool:
    import torch

    return torch.cuda.is_available()


@pytest.mark.skipif(not _cuda_available(), reason="needs a CUDA GPU")
def test_real_cuda_matches_the_cpu_on_the_seed_loop(capsys):
    code, report, _ = verify_json(capsys, str(EXAMPLES / "seed_loop.py"), "--devices", "cpu,cuda")
    assert code == 0
    cuda = report["devices"][1]
    assert cuda["comparison"]["verdict"] in ("match", "identical")
    assert cuda["steps"][1]["batch_bytes"] > 0


@pytest.mark.slow
def test_ctrl_c_stops_the_script_and_its_workers(tmp_path):
    """SIGINT reaches devlint only (the child has its own session): devlint must stop the
    child's whole process group, DataLoader workers included, and exit 130."""
    import signal
    import subprocess
    import sys

    pids = tmp_path / "pids"  # outside the script's folder: where the run's writes land
    (tmp_path / "project").mkdir()
    script = tmp_path / "project" / "hang.py"
    script.write_text(textwrap.dedent(hanging_script(pids)))
    parent = subprocess.Popen([sys.executable, "-m", "devlint", "verify", str(script), "--devices",
                               "cpu", "--timeout", "300"], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while (not pids.exists() or len(pids.read_text().split()) < 2) and time.monotonic() < deadline:
        time.sleep(0.2)
    workers = [int(p) for p in pids.read_text().split()]
    parent.send_signal(signal.SIGINT)
    _, err = parent.communicate(timeout=60)
    assert parent.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err
    deadline = time.monotonic() + 5
    while any(map(_running, workers)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(map(_running, workers))


SAVING = TRAINING_SNIPPET + """\
import os
os.makedirs("out", exist_ok=True)
torch.save(model.state_dict(), "out/model.pt")
# one file per device: the runs go side by side, and a file outside the user's folders that
# the other run wrote last is not this run's to convert
torch.save({"weight": model.weight}, os.environ["ABSOLUTE_SAVE"] + "." + device)
assert torch.load("out/model.pt")["weight"].device.type == device  # as a GPU run reloads it
"""


def test_kept_outputs_and_absolute_saves_load_on_a_cpu_machine(tmp_path, capsys, monkeypatch):
    """Files the simulated run saved record its device while it runs (so it reloads them as
    a GPU run would) and plain CPU locations once it ends, so `torch.load` works after."""
    import torch

    project = tmp_path / "project"
    project.mkdir()
    (project / "train.py").write_text(SAVING)
    monkeypatch.chdir(project)
    monkeypatch.setenv("ABSOLUTE_SAVE", str(tmp_path / "absolute.pt"))
    keep = tmp_path / "kept"
    code, report, _ = verify_json(capsys, "train.py", "--keep-outputs", str(keep))
    assert code == 0, [d["error"] for d in report["devices"]]
    assert sorted(os.listdir(project)) == ["train.py"]  # the runs wrote into their views
    for device in ("cpu", "cuda-sim"):
        state = torch.load(keep / device / "out" / "model.pt")  # a plain CPU torch.load
        assert state["weight"].shape == (1, 4)
        assert not (keep / device / "train.py").exists()  # the script is not an output
    torch.load(tmp_path / "absolute.pt.cuda")  # the simulated run's, converted
    torch.load(tmp_path / "absolute.pt.cpu")
    sim = report["devices"][1]
    assert sim["kept"] == str(keep / "cuda-sim") and len(sim["converted"]) == 2


def test_under_fix_errors_point_at_the_users_file(tmp_path, capsys):
    script = tmp_path / "buggy.py"
    script.write_text('import torch\nmodel = torch.nn.Linear(2, 1).to("cuda")\n'
                      'raise ValueError("after the fixable line")\n')
    code, report, _ = verify_json(capsys, str(script), "--devices", "cpu", "--fix")
    frame = report["devices"][0]["error"]["frame"]
    assert code == 1 and report["fixes_applied"]
    assert frame["path"] == str(script) and frame["line"] == 3
    text = main(["verify", str(script), "--devices", "cpu", "--fix", "-q"])
    out = capsys.readouterr().out
    assert text == 1 and "buggy.py:3 (in the fixed copy): raise ValueError" in out


def test_an_error_raised_inside_the_standard_library_is_located_at_the_scripts_line(
        tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, report, _ = run_snippet(tmp_path, capsys, """\
        import os
        os.makedirs("runs/exp1")
        os.makedirs("runs/exp1")
    """)
    frame = report["devices"][0]["error"]["frame"]
    assert code == 1 and report["devices"][0]["error"]["type"] == "FileExistsError"
    assert frame["path"] == str(tmp_path / "snippet.py")  # not <frozen os>
    assert frame["line"] == SCRIPT_PREAMBLE.count("\n") + 3


def test_runs_started_as_fresh_interpreters_report_the_same(capsys, monkeypatch):
    """A real GPU's run (CUDA must not be initialised before a fork), and every run where
    forking after `import torch` is unsafe, execs a fresh interpreter instead."""
    monkeypatch.setattr("devlint.verify.runner.FORK_AFTER_IMPORT", False)
    code, report, _ = verify_json(capsys, str(EXAMPLES / "seed_loop.py"))
    assert code == 0, [d["error"] for d in report["devices"]]
    assert [d["status"] for d in report["devices"]] == ["completed", "completed"]
    assert report["devices"][1]["comparison"]["verdict"] == "identical"
