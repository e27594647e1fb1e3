"""Issue 6 end to end: on a CPU-only machine, `devlint verify` with the simulated CUDA device
fails each runnable bad fixture with PyTorch's own message and the rule code `devlint check`
reports, and passes the fixed copy with losses identical to the CPU run."""
from __future__ import annotations

import shutil

import pytest

from conftest import expected_findings, fixture_files
from devlint.verify.errors import DEVICE_MISMATCH, EXPLAINING_CODES, NO_CUDA, NUMPY_ON_DEVICE
from devlint.verify.runner import VerifyOptions
from devlint.verify.session import verify

pytest.importorskip("torch")
pytestmark = pytest.mark.usefixtures("warm_verify")

RUNNABLE_MARK = "# runnable: prints its losses on CPU"
RUNNABLE = [p for p in fixture_files()
            if p.name.startswith("bad_") and RUNNABLE_MARK in p.read_text(encoding="utf-8")]
# A GPU raises for these; a wasted per-step move (DEV007) or a missing map_location on a
# checkpoint that was saved on the CPU does not.
RAISING = {code for kind, codes in EXPLAINING_CODES.items() if kind != NO_CUDA for code in codes}


def run(path, devices, fix=False, max_steps=50):
    options = VerifyOptions(script=path, devices=devices, fix=fix, max_steps=max_steps,
                            timeout=300)
    return verify(options, progress=lambda line: None)


@pytest.mark.slow
@pytest.mark.parametrize("fixture", RUNNABLE, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_simulated_cuda_raises_what_a_gpu_raises_and_names_the_rule(tmp_path, fixture):
    script = tmp_path / fixture.name
    shutil.copyfile(fixture, script)
    static = {code for _, code in expected_findings(fixture)}
    sim = run(script, ["cuda-sim"]).devices[0]
    if not static & RAISING:
        assert sim.run.ran, sim.run.error
        return
    assert sim.run.status == "error", f"no device error raised; static: {sorted(static)}"
    error = sim.run.error
    # PyTorch's own wording, whichever kernel raised it
    assert sim.explanation.kind in (DEVICE_MISMATCH, NUMPY_ON_DEVICE), error["message"]
    explained = {f.code for f in sim.explanation.findings}
    assert explained and explained <= static, (explained, static, error["frame"])


@pytest.mark.slow
@pytest.mark.parametrize("fixture", RUNNABLE, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_fixed_copy_runs_on_simulated_cuda_with_the_cpu_losses(tmp_path, fixture):
    script = tmp_path / fixture.name
    shutil.copyfile(fixture, script)
    result = run(script, ["cpu", "cuda-sim"], fix=True)
    cpu, sim = result.devices
    assert cpu.run.ran and sim.run.ran, (cpu.run.error, sim.run.error)
    assert sim.comparison.verdict in ("identical", "match"), sim.comparison
    assert script.read_bytes() == fixture.read_bytes()
