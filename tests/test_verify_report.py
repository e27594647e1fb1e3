"""The verify report from recorded runs (no torch, no GPU): the table, the speed verdict in
words, JSON. The runs are built the way a child reports them."""
from pathlib import Path

from devlint.verify.report import render_json, render_text, speed_verdict
from devlint.verify.runner import DeviceRun, VerifyOptions
from devlint.verify.session import DeviceSummary, Verification, summarize


def steps(n, step_s, batch_s=0.0, model_s=0.0, loss=1.0, decay=0.9):
    return [{"losses": [loss * decay ** i], "time_s": step_s, "batch_bytes": 512 if batch_s else 0,
             "batch_time_s": batch_s, "model_bytes": 0, "model_time_s": model_s, "copies": 1}
            for i in range(n)]


def verification(*runs):
    result = Verification(VerifyOptions(script=Path("train.py"), devices=[r.device for r in runs]))
    result.devices = summarize(list(runs), strict=False)
    return result


def test_a_transfer_bound_gpu_step_is_called_so():
    cpu = DeviceRun("cpu", "completed", steps=steps(20, 0.0002))
    cuda = DeviceRun("cuda", "completed", steps=steps(20, 0.0002, batch_s=0.00014))
    base, gpu = verification(cpu, cuda).devices
    line = speed_verdict(base, gpu)
    assert "transfer is 70% of a CUDA step" in line
    assert "expect little or no speedup" in line


def test_a_compute_bound_gpu_step_is_a_clear_speedup():
    cpu = DeviceRun("cpu", "completed", steps=steps(20, 0.120))
    cuda = DeviceRun("cuda", "completed", steps=steps(20, 0.004, batch_s=0.0002))
    base, gpu = verification(cpu, cuda).devices
    line = speed_verdict(base, gpu)
    assert "30.0x faster on the GPU" in line and "transfer is 5%" in line


def test_table_marks_a_diverged_device_and_fails():
    cpu = DeviceRun("cpu", "completed", steps=steps(20, 0.001))
    sim = DeviceRun("cuda-sim", "completed", steps=steps(20, 0.002, loss=1.5),
                    accelerator={"used": True, "type": "cuda"})
    result = verification(cpu, sim)
    text = render_text(result)
    assert not result.ok
    assert ("cuda (simulated on CPU): placement checked: the run held tensors on cuda, timings "
            "not representative") in text
    assert "diverged" in text and "verdict: FAILED: cuda (simulated on CPU) diverged" in text


def test_first_step_is_left_out_of_the_step_time():
    run = DeviceRun("cpu", "completed", steps=steps(1, 7.0))
    assert DeviceSummary(run).median_step_s is None
    run = DeviceRun("cpu", "completed", steps=[*steps(1, 7.0), *steps(3, 0.001)])
    assert DeviceSummary(run).median_step_s == 0.001


def test_a_failed_cpu_run_makes_the_other_device_not_comparable_but_failed():
    cpu = DeviceRun("cpu", "error", error={"type": "AssertionError",
                                           "message": "Torch not compiled with CUDA enabled"})
    sim = DeviceRun("cuda-sim", "completed", steps=steps(5, 0.001))
    result = verification(cpu, sim)
    assert not result.ok
    assert result.devices[1].comparison.reason == "the cpu run failed: nothing to compare with"
    assert '"ok": false' in render_json(result)
