"""The verify report from recorded runs (no torch, no GPU): the table, the speed verdict in
words, JSON. The runs are built the way a child reports them."""
import json
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


def test_a_run_that_placed_nothing_is_not_checked_and_exits_3():
    cpu = DeviceRun("cpu", "completed", steps=steps(20, 0.001))
    sim = DeviceRun("cuda-sim", "completed", steps=steps(20, 0.001),
                    accelerator={"used": False, "type": "cuda"})
    result = verification(cpu, sim)
    result.devices[1].hint = "pass `-- --device {device}`"
    text = render_text(result)
    assert result.exit_code == 3 and result.devices[1].placement == "not checked"
    assert "placement NOT checked: the script never put a tensor on cuda" in text
    assert "pass `-- --device {device}`" in text
    assert "verdict: NOT CHECKED" in text and "verdict: OK" not in text


def test_torch_compile_the_simulator_cannot_run_is_its_own_state():
    cpu = DeviceRun("cpu", "completed", steps=steps(5, 0.001))
    sim = DeviceRun("cuda-sim", "error", error={
        "type": "BackendCompilerFailed", "message": "backend='eager' raised: boom",
        "compiler": True}, accelerator={"used": True, "type": "cuda"})
    result = verification(cpu, sim)
    text = render_text(result)
    assert result.devices[1].placement == "unsupported" and result.exit_code == 3
    assert "torch.compile is not supported on the simulated device" in text
    assert "FAILED" not in text


def test_an_error_on_every_device_is_printed_once_as_not_a_device_problem():
    error = {"type": "RuntimeError", "message": "mat1 and mat2 shapes cannot be multiplied",
             "frame": {"path": "train.py", "line": 9, "function": "<module>", "code": "y = m(x)"}}
    result = verification(DeviceRun("cpu", "error", error=dict(error)),
                          DeviceRun("cuda-sim", "error", error=dict(error)))
    text = render_text(result)
    assert text.count("mat1 and mat2 shapes") == 1
    assert "fails on every device: not a device problem" in text
    assert text.rstrip().endswith("verdict: FAILED: fails on every device: not a device problem")


def test_the_report_says_what_was_cut_and_which_lines_never_ran():
    loaders = [{"dataset": "TensorDataset", "samples": 50016, "batches_per_epoch": 1563,
                "drawn": 8, "epochs": 2, "cut": True}]
    cuts = [{"line": 27, "reason": "epochs", "iterations": 2, "times": 1, "steps": 16}]
    runs = [DeviceRun(d, "completed", steps=steps(16, 0.001), loaders=loaders, cuts=cuts,
                      accelerator={"used": True}, coverage={"executable": 40, "never_run": never})
            for d, never in (("cpu", [30, 31, 32, 38]), ("cuda-sim", [31, 32, 38, 39]))]
    result = verification(*runs)
    result.device_lines, result.loop_ends = {29: "move", 38: "meet"}, {27: 33}
    text = render_text(result)
    assert ("data: TensorDataset (50,016 samples): 8 of 1,563 batches per epoch (cut); the loop "
            "at line 27 ended after 2 epochs (--max-epochs 2)") in text
    assert "never ran: lines 31-32, line 38 (3 of 40 lines)" in text
    report = json.loads(render_json(result))
    assert report["data_cut"] == [
        {"kind": "loader", **loaders[0]},
        {"kind": "loop", "line": 27, "reason": "epochs", "iterations": 2, "device": True}]
    assert [(n["line"], n["device"]) for n in report["never_run"]] == [
        (31, False), (32, False), (38, True), (39, False)]


def test_a_device_line_the_accelerator_never_ran_is_partial_not_ok():
    runs = [DeviceRun(d, "completed", steps=steps(8, 0.001), accelerator={"used": True},
                      coverage={"executable": 20, "never_run": never})
            for d, never in (("cpu", [12]), ("cuda-sim", [12, 15, 16]))]
    result = verification(*runs)
    result.device_lines = {5: "move", 15: "move", 16: "meet"}
    text = render_text(result)
    assert result.exit_code == 4
    assert text.rstrip().endswith(
        "verdict: PARTIAL: every device ran and the losses match, but device lines never ran on "
        "cuda (simulated on CPU): lines 15-16, so they were not checked (exit 4)")
    result.device_lines = {5: "move"}
    assert result.exit_code == 0 and "verdict: OK" in render_text(result)


def test_mixed_precision_on_one_side_is_compared_with_its_own_tolerance():
    from devlint.verify.compare import MIXED_PRECISION, STRICT, compare_losses

    base = [1.0 * 0.97 ** i for i in range(30)]
    half = [v * (1 + 4e-3 * (-1) ** i) for i, v in enumerate(base)]  # float16's gap
    assert compare_losses(base, half, MIXED_PRECISION, mixed_precision=True).ok
    assert not compare_losses(base, half, STRICT).ok
    wrong = [v * 1.2 for v in base]  # a bug is still a bug
    assert not compare_losses(base, wrong, MIXED_PRECISION, mixed_precision=True).ok
