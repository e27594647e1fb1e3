"""`devlint bench SCRIPT`: the user's own loop, run through verify's runner on each device.

The runner already times every optimizer step and every host-to-device copy (CUDA events on a
GPU). On a machine without a GPU the script also runs once on the simulated CUDA device: its
times say nothing about a GPU, but the bytes it copies per step are exactly what a GPU run
would copy, which is what the PCIe estimate needs.
"""
from __future__ import annotations

import json
import statistics
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

from devlint.bench.report import TRANSFER_BOUND, byte_size, seconds, unstable_line
from devlint.bench.sweep import (
    COPIES_PER_STEP, PCIE_ASSUMPTION, disagree, estimated_copy_s, half_medians,
)
from devlint.lint.report.columns import aligned
from devlint.verify.runner import DeviceRun, VerifyOptions, describe_status, launcher_for, run_all
from devlint.verify.session import DeviceSummary, check_usage, resolve_target
from devlint.verify.spec import CPU, CUDA, CUDA_SIM, DEVICE_LABELS


@dataclass
class ScriptBench:
    script: Path
    timed: list[DeviceSummary] = field(default_factory=list)  # cpu, and cuda when present
    simulated: Optional[DeviceSummary] = None  # cuda-sim on a machine without a GPU: bytes only

    @property
    def accelerated(self) -> bool:
        return any(s.run.device == CUDA for s in self.timed)

    def summary(self, device: str) -> Optional[DeviceSummary]:
        return next((s for s in self.timed if s.run.device == device), None)

    @property
    def runs(self) -> list[DeviceSummary]:
        return self.timed + ([self.simulated] if self.simulated is not None else [])

    @property
    def crashed(self) -> list[DeviceSummary]:
        """The runs that did not get to their end: on the simulated device too, where a crash
        is the crash the script would have on a GPU."""
        return [s for s in self.runs if not s.run.ran]

    @property
    def _copy_steps(self) -> list[dict]:
        """The steps that copied batches to a (real or simulated) GPU."""
        source = self.summary(CUDA) or self.simulated
        return source.measured_steps if source is not None else []

    @property
    def batch_bytes_per_step(self) -> Optional[float]:
        steps = self._copy_steps
        return statistics.median(s["batch_bytes"] for s in steps) if steps else None

    @property
    def estimated_transfer_s(self) -> Optional[float]:
        steps = self._copy_steps
        if not steps:
            return None
        copies = statistics.median(s.get("copies", COPIES_PER_STEP) for s in steps)
        return estimated_copy_s(self.batch_bytes_per_step or 0, copies)

    def speedup(self) -> Optional[float]:
        cpu, cuda = self.summary(CPU), self.summary(CUDA)
        if cpu is None or cuda is None or not cpu.median_step_s or not cuda.median_step_s:
            return None
        return cpu.median_step_s / cuda.median_step_s


def bench_script(script: Path, args: list[str], devices: list[str], budget_s: float,
                 max_steps: int, progress: Callable[[str], None]) -> ScriptBench:
    plan = list(devices) + ([CUDA_SIM] if CUDA not in devices and CUDA_SIM not in devices else [])
    # one run at a time (the timings are the point), and the whole data: steps are timed, not
    # epochs checked
    options = VerifyOptions(script=script, args=args, devices=plan, max_steps=max_steps,
                            max_batches=0, max_epochs=0, timeout=max(budget_s / len(plan), 1.0),
                            parallel=False, coverage=False)
    check_usage(options)
    with launcher_for(options) as launcher, tempfile.TemporaryDirectory(
            prefix="devlint-bench-") as tmp:
        target, _ = resolve_target(options, Path(tmp))
        runs: list[DeviceRun] = run_all(options, target, progress, launcher)
    result = ScriptBench(script)
    for run in runs:
        if run.device == CUDA_SIM:
            result.simulated = DeviceSummary(run)
        else:
            result.timed.append(DeviceSummary(run))
    return result


def render_text(bench: ScriptBench) -> str:
    header = ["device", "status", "steps", "step (median)", "batch copy", "copy share",
              "batch bytes/step", "vs cpu"]
    rows = []
    for summary in bench.timed:
        run = summary.run
        cuda = run.device == CUDA
        rows.append([
            run.device, run.status, str(len(run.steps)), seconds(summary.median_step_s),
            seconds(summary.median_part("batch_time_s")) if cuda else "-",
            f"{summary.transfer_share:.0%}" if cuda and summary.transfer_share is not None else "-",
            byte_size(bench.batch_bytes_per_step or 0) if cuda else "-",
            _vs_cpu(bench) if cuda else "1.00x",
        ])
    lines = [f"devlint bench {bench.script}", "", *aligned([header, *rows], rule=True), ""]
    lines += verdict_lines(bench)
    return "\n".join(lines) + "\n"


def _vs_cpu(bench: ScriptBench) -> str:
    speedup = bench.speedup()
    return "-" if speedup is None else f"{speedup:.2f}x"


def verdict_lines(bench: ScriptBench) -> list[str]:
    lines = [f"{DEVICE_LABELS.get(s.run.device, s.run.device)}: {describe_status(s.run)}"
             + (" (it would crash on a GPU: devlint verify says where)"
                if s.run.device == CUDA_SIM else "") for s in bench.crashed]
    for summary in bench.timed:
        medians = half_medians([step["time_s"] for step in summary.measured_steps])
        if disagree(medians):
            lines.append(unstable_line(f"the step on {summary.run.device}", medians))
    cpu = bench.summary(CPU)
    if not bench.accelerated:
        lines.append("No accelerator: torch sees no CUDA device on this machine, so only the CPU "
                     "step was timed.")
        estimate = bench.estimated_transfer_s
        if estimate is not None:
            lines.append(
                f"A GPU run would copy {byte_size(bench.batch_bytes_per_step or 0)} of batches per "
                f"step (counted on the simulated CUDA device); estimated at {PCIE_ASSUMPTION}: "
                f"~{seconds(estimate)} per step (an estimate, not a measurement)"
                + (f", against {seconds(cpu.median_step_s)} of CPU step." if cpu and cpu.median_step_s else "."))
        return lines
    speedup = bench.speedup()
    cuda = bench.summary(CUDA)
    if speedup is None or cuda is None:
        return lines + ["No step was timed on both the CPU and the GPU."]
    if speedup > 1.0:
        lines.append(f"The GPU runs this loop {speedup:.2f}x as fast as the CPU.")
    else:
        share = cuda.transfer_share or 0.0
        cause = ("copying each batch to the GPU takes most of its step" if share >= TRANSFER_BOUND else
                 "its step is too small for the GPU: kernel launches and Python, not arithmetic, "
                 "set its length")
        lines.append(f"The GPU is no faster here ({speedup:.2f}x): {cause}.")
    return lines


def render_json(bench: ScriptBench) -> str:
    return json.dumps({
        "script": str(bench.script),
        "accelerator_present": bench.accelerated,
        "devices": {s.run.device: {
            "status": s.run.status,
            "steps": len(s.run.steps),
            "median_step_s": s.median_step_s,
            "median_batch_transfer_s": s.median_part("batch_time_s"),
            "transfer_share": s.transfer_share,
            "step_times_s": [step["time_s"] for step in s.run.steps],
        } for s in bench.timed},
        "crashed": [s.run.device for s in bench.crashed],
        "batch_bytes_per_step": bench.batch_bytes_per_step,
        "speedup_vs_cpu": bench.speedup(),
        "estimated_batch_transfer_s": None if bench.accelerated else bench.estimated_transfer_s,
        "transfer_estimate_assumption": PCIE_ASSUMPTION,
        "verdict": verdict_lines(bench),
    }, indent=2) + "\n"


def write_plot(bench: ScriptBench, path: str) -> None:
    """The bench chart of one script: each device's step times over the run, and its median
    step split into compute and batch copies (on a machine without a GPU, the copies a GPU step
    would add, estimated at PCIe speed from the bytes the simulated run moved)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (curves, bars) = plt.subplots(1, 2, figsize=(11, 4.2))
    for summary in bench.timed:
        times = [step["time_s"] * 1000 for step in summary.measured_steps]
        if times:
            curves.plot(range(2, len(times) + 2), times, label=summary.run.device)
    curves.set_yscale("log")
    curves.set_xlabel("optimizer step")
    curves.set_ylabel("step time (ms)")
    curves.set_title("step time over the run")
    curves.legend()
    labels, compute, copies = [], [], []
    for summary in bench.timed:
        if summary.median_step_s is None:
            continue
        copy = summary.median_part("batch_time_s") if summary.run.device == CUDA else 0.0
        labels.append(summary.run.device)
        compute.append(max(summary.median_step_s - copy, 0.0) * 1000)
        copies.append(copy * 1000)
    estimate = bench.estimated_transfer_s
    if not bench.accelerated and estimate is not None and compute:
        labels.append("GPU copies\n(estimate)")
        compute.append(0.0)
        copies.append(estimate * 1000)
    bars.bar(labels, compute, label="compute")
    bars.bar(labels, copies, bottom=compute, label="batch copy", hatch="//")
    bars.set_ylabel("median ms per step")
    bars.set_title("where a step's time goes")
    bars.legend()
    fig.suptitle(f"devlint bench {bench.script}")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
