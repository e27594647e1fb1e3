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
