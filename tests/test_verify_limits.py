"""`devlint verify` says what it could not check: the simulator's own limits, GPU-only scripts,
interrupted and stalled runs (issue 31, items 3-5). Real child processes, real scripts."""
from __future__ import annotations

import json
import textwrap

import pytest

pytest.importorskip("torch")

from devlint.cli import main  # noqa: E402

pytestmark = pytest.mark.usefixtures("warm_verify")


def verify_json(capsys, *argv):
    code = main(["verify", "--json", "-q", *argv])
    return code, json.loads(capsys.readouterr().out)


def write(tmp_path, name: str, source: str):
    path = tmp_path / name
    path.write_text(textwrap.dedent(source).lstrip(), encoding="utf-8")
    return path


# line 8 is an API cuda-sim cannot run; line 13 fails on every device (a 0-dim tensor)
LEGACY_THEN_GAP_THEN_BUG = """
import torch
import torch.nn as nn
cuda = torch.cuda.is_available()
Tensor = torch.cuda.FloatTensor if cuda else torch.FloatTensor
model = nn.Linear(4, 1).cuda() if cuda else nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = Tensor(8, 4).fill_(0.5)
snapshot = torch.cuda.memory_snapshot() if cuda else []
for step in range(3):
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward(); opt.step()
print(loss.data[0])
"""


def test_a_simulator_gap_is_devlints_limit_and_the_later_real_failure_is_found(tmp_path, capsys):
    script = write(tmp_path, "train.py", LEGACY_THEN_GAP_THEN_BUG)
    code, report = verify_json(capsys, str(script), "--devices", "cpu,cuda-sim")
    cpu, sim = report["devices"]
    assert code == 1
    # the legacy typed constructor ran on the simulated GPU: the run stopped at line 8, not 7
    assert sim["placement"] == "unsupported" and sim["error"]["frame"]["line"] == 8
    assert sim["accelerator"]["used"]
    assert cpu["error"]["type"] == "IndexError" and cpu["error"]["frame"]["line"] == 13
    verdict = report["verdict"]
    assert verdict.startswith("FAILED: the script's own failure, on cpu at ")
    assert "train.py:13 (IndexError" in verdict
    assert "cuda-sim cannot run this: not checked past line 8" in verdict
    assert "false negative" not in json.dumps(report)


GPU_ONLY = """
import torch
import torch.nn as nn
device = "cuda"
model = nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    loss = model(torch.ones(8, 4, device=device)).pow(2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
"""


def test_a_cuda_default_is_judged_on_the_accelerator_alone(tmp_path, capsys):
    script = write(tmp_path, "train.py", GPU_ONLY)
    code = main(["verify", "-q", str(script), "--devices", "cpu,cuda-sim"])
    out = capsys.readouterr().out
    assert code == 0
    assert ("no CPU baseline: this script needs a GPU: it chose CUDA at "
            f"{script}:3 (`device = \"cuda\"`); the accelerator rows are judged alone") in out
    assert "verdict: OK (no CPU baseline: this script needs a GPU): cuda (simulated on CPU) ran " \
           "and placement was checked; losses not compared" in out
    assert "false negative" not in out


def test_a_device_argument_gets_the_device_substitution_with_its_own_name(tmp_path, capsys):
    source = GPU_ONLY.replace('device = "cuda"\n', (
        'import argparse\nparser = argparse.ArgumentParser()\n'
        'parser.add_argument("--compute-device", default="cuda")\n'
        'device = parser.parse_args().compute_device\n'))
    script = write(tmp_path, "train.py", source)
    code, report = verify_json(capsys, str(script), "--devices", "cpu,cuda-sim")
    assert code == 0
    assert report["gpu_only"]["kind"] == "argument" and report["gpu_only"]["line"] == 5
    assert report["gpu_only"]["flag"] == "--compute-device"
    assert report["gpu_only"]["says"].endswith(
        f"for a CPU baseline, give each run its own device: "
        f"`devlint verify {script} -- --compute-device={{device}}`")
    # the substitution it suggests gives the cpu run its own device: a CPU baseline again
    code, report = verify_json(capsys, str(script), "--devices", "cpu,cuda-sim", "--",
                               "--compute-device={device}")
    assert code == 0 and report["gpu_only"] is None
    assert report["devices"][1]["comparison"]["verdict"] == "identical"


# cuda-sim fails at line 8 (a CPU batch); the cpu run then stalls at line 11 after 3 steps
FAILS_THEN_STALLS = """
import time
import torch
import torch.nn as nn
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    loss = model(torch.ones(2, 4)).sum()
    opt.zero_grad(); loss.backward(); opt.step()
print("trained", flush=True)
time.sleep(300)
"""


@pytest.fixture(scope="module", params=["SIGINT", "SIGTERM"])
def interrupted(request, tmp_path_factory):
    """verify run as a user runs it, stopped from outside once the simulated GPU failed and the
    heartbeat (every second here) spoke for the stalled cpu run."""
    import os
    import signal
    import subprocess
    import sys
    import threading

    script = write(tmp_path_factory.mktemp("stall"), "train.py", FAILS_THEN_STALLS)
    proc = subprocess.Popen(
        [sys.executable, "-m", "devlint", "verify", str(script), "--devices", "cuda-sim,cpu",
         "--heartbeat", "1", "--timeout", "120"], stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, cwd=script.parent, env=dict(os.environ))
    progress: list[str] = []
    seen = threading.Event()

    def read_progress():
        for line in proc.stderr:
            progress.append(line)
            text = "".join(progress)
            if "cuda-sim: failed" in text and "cpu: still running" in text:
                seen.set()

    reader = threading.Thread(target=read_progress, daemon=True)
    reader.start()
    try:
        assert seen.wait(90), "".join(progress)
        proc.send_signal(getattr(signal, request.param))
        out = proc.communicate(timeout=60)[0]
    finally:
        if proc.poll() is None:
            proc.kill()
    reader.join(10)
    return request.param, proc.returncode, out, "".join(progress)


def test_the_heartbeat_says_where_a_quiet_run_is(interrupted):
    _, _, _, progress = interrupted
    assert "[2/2] cpu: still running after " in progress
    assert ": 3 steps done, none in the last " in progress
    assert "; now at train.py:11 in <module>: time.sleep(300)" in progress


def test_an_interruption_prints_what_each_device_did_so_far(interrupted):
    name, code, out, _ = interrupted
    assert code == {"SIGINT": 130, "SIGTERM": 143}[name]
    what = {"SIGINT": "Ctrl-C", "SIGTERM": "SIGTERM"}[name]
    # the device that failed before the interruption, with its rule
    assert "cuda (simulated on CPU): RuntimeError: Expected all tensors to be on the same " \
           "device" in out
    assert "explained by DEV006 at train.py:8" in out
    # the one that was running: its steps, and where it was
    assert "cpu: interrupted after 3 steps" in out
    assert "where it was (innermost first): train.py:11 in <module>" in out
    assert (f"verdict: INTERRUPTED by {what}: a partial report of what each device did; "
            f"already failed: cuda (simulated on CPU) (RuntimeError at train.py:8)") in out


@pytest.mark.parametrize("source, failing, message, expected", [
    ('import torch\nimport torch.distributed as dist\ndist.init_process_group(backend="nccl")\n',
     3, "Distributed package doesn't have NCCL built in", ("nccl", 3)),
    ("import os, torch\nrank = int(os.environ['LOCAL_RANK'])\ntorch.cuda.set_device(rank)\n",
     3, "Torch not compiled with CUDA enabled", ("set_device", 3)),
    ('import torch\nother = "cuda:1"\ndevice = "cuda"\nx = torch.ones(2).to(device)\n',
     4, "Torch not compiled with CUDA enabled", ("default", 3)),
    # a placement error is not the lack of a GPU: no choice to blame
    ('import torch\ndevice = "cuda"\nx = torch.ones(2).to(device) + torch.ones(2)\n', 3,
     "Expected all tensors to be on the same device, but found at least two devices", None),
])
def test_the_line_that_chose_cuda(source, failing, message, expected):
    from devlint.verify.gpu_only import cuda_choice

    frame = {"path": "train.py", "line": failing}
    error = {"type": "RuntimeError", "message": message, "frame": frame, "user_frames": [frame]}
    choice = cuda_choice(error, "train.py", source)
    assert (choice.kind, choice.line) == expected if expected else choice is None
