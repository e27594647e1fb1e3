"""The sweep as a table, a verdict, JSON and a plot."""
from __future__ import annotations

import json
from typing import Optional

from devlint.bench.measure import MAX_STEPS, WARMUP_STEPS
from devlint.bench.sweep import CPU, PCIE_ASSUMPTION, BenchResult, DeviceResult, PointResult
from devlint.lint.report.columns import aligned

# A losing accelerator step no more than this over its smallest step is launch-bound: it does
# not grow with the arithmetic, so kernel launches and Python, not FLOPs, set its length.
LAUNCH_BOUND = 2.0
TRANSFER_BOUND = 0.5  # a share of the step spent copying batches above this: copy-bound


def seconds(value: Optional[float]) -> str:
    if value is None:
        return "-"
    if value < 1e-3:
        return f"{value * 1e6:.0f} us"
    if value < 1:
        return f"{value * 1e3:.2f} ms"
    return f"{value:.2f} s"


def quantity(value: float, unit: str = "") -> str:
    for size, prefix in ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(value) >= size:
            return f"{value / size:.3g} {prefix}{unit}"
    return f"{value:.3g} {unit}".rstrip()


def byte_size(value: float) -> str:
    for size, prefix in ((2**30, "GiB"), (2**20, "MiB"), (2**10, "KiB")):
        if value >= size:
            return f"{value / size:.3g} {prefix}"
    return f"{value:.0f} B"


def unstable_line(what: str, medians: tuple[float, float]) -> str:
    return (f"Warning: {what}: the medians of the first and second half of its steps disagree "
            f"({seconds(medians[0])} and {seconds(medians[1])}): the machine was busy while it "
            f"was measured; rerun it before trusting this point.")


def verdict_lines(bench: BenchResult) -> list[str]:
    if not bench.accelerators:
        return [
            "No accelerator: torch sees no CUDA or MPS device on this machine, so only the CPU "
            "curve was measured.",
            f"The 'est. copy' column is an estimate, not a measurement: the batch copies a GPU "
            f"step would add, at {PCIE_ASSUMPTION}. A GPU can only win where its compute saves "
            f"more than that plus ~10-20 us of kernel launches per layer.",
        ]
    lines = []
    for device in bench.accelerators:
        lines += _device_verdict(bench, device)
    return lines


def _device_verdict(bench: BenchResult, device: str) -> list[str]:
    measured = [p for p in bench.points if p.results[device].speedup is not None]
    if not measured:
        return [f"{device}: no point was measured on both {device} and the CPU."]
    wins = [p for p in measured if p.results[device].speedup > 1.0]
    lines = []
    if wins:
        first = wins[0]
        best = max(measured, key=lambda p: p.results[device].speedup)
        lines.append(
            f"{device} wins from {first.point.name} ({first.point.describe()}, "
            f"{quantity(first.shape.flops, 'FLOP')}/step): {first.results[device].speedup:.2f}x "
            f"the CPU's speed there, up to {best.results[device].speedup:.1f}x at {best.point.name}"
            + (" (against the CPU's predicted step)" if best.results[device].speedup_estimated else "")
            + ".")
    else:
        lines.append(f"{device} is never faster than the CPU on the points measured.")
    lines += crossover_share_lines(bench, measured, device)
    losing = [p for p in measured if p.results[device].speedup <= 1.0]
    for cause in ("transfer", "launch overhead", "compute"):
        names = [p.point.name for p in losing if loss_cause(bench, p, device) == cause]
        if names:
            lines.append(f"Where it loses ({', '.join(names)}): {_explain(cause, device)}")
    return lines


def crossover_share_lines(bench: BenchResult, measured: list[PointResult],
                          device: str) -> list[str]:
    """The transfer share on both sides of the crossover, and whether copies set it: where
    the last loss before the first win is copy-bound, a step whose copies take that share of
    it does not pay on this accelerator."""
    ordered = sorted(measured, key=lambda p: p.shape.flops)
    first = next((i for i, p in enumerate(ordered) if p.results[device].speedup > 1.0), None)
    if first is None:
        return []
    win = ordered[first]
    win_share = win.results[device].transfer_share or 0.0
    if first == 0:
        return [f"Transfer share at the crossover: batch copies are {win_share:.0%} of the "
                f"{device} step at {win.point.name}, the first point measured (it wins there)."]
    before = ordered[first - 1]
    before_share = before.results[device].transfer_share or 0.0
    head = (f"Transfer share at the crossover: batch copies are {before_share:.0%} of the "
            f"{device} step at {before.point.name} (the last loss) and {win_share:.0%} at "
            f"{win.point.name} (the first win)")
    cause = loss_cause(bench, before, device)
    if cause == "transfer":
        return [head + f": the copies set the crossover; a step whose batch copies take "
                       f"{before_share:.0%} of it or more does not pay on this {device} "
                       f"(`devlint verify --profile` names the lines that copy)."]
    return [head + f": {cause}, not the copies, sets the crossover."]


def loss_cause(bench: BenchResult, point: PointResult, device: str) -> str:
    """What dominates an accelerator's step where it loses: transfer, launch overhead, compute."""
    result = point.results[device]
    if (result.transfer_share or 0.0) >= TRANSFER_BOUND:
        return "transfer"
    floor = min(p.results[device].median_step_s for p in bench.points if p.results[device].measured)
    return "launch overhead" if result.median_step_s <= LAUNCH_BOUND * floor else "compute"


def _explain(cause: str, device: str) -> str:
    if cause == "transfer":
        return "copying each batch to the device takes most of the step."
    if cause == "launch overhead":
        return (f"the {device} step costs about the same whatever the model's size: kernel "
                f"launches and Python, not arithmetic. Larger batches or models amortise it.")
    return f"the {device} spends longer on this arithmetic than the CPU does."


def render_table(bench: BenchResult) -> str:
    accelerated = bool(bench.accelerators)
    header = ["point", "params", "FLOP/step", "batch", "device", "step (median)", "batch copy",
              "copy share", "FLOP/s", "vs cpu" if accelerated else "est. copy"]
    rows = [_row(entry, device, accelerated) for entry in bench.points for device in bench.devices]
    return "\n".join(aligned([header, *rows], rule=True))


def _row(entry: PointResult, device: str, accelerated: bool) -> list[str]:
    result = entry.results[device]
    head = [entry.point.name, quantity(entry.shape.params), quantity(entry.shape.flops),
            byte_size(entry.shape.batch_bytes), device]
    if not result.measured:
        note = "skipped (--budget)" if result.status == "skipped" else f"failed: {result.reason[:40]}"
        return head + [note, "", "", "", ""]
    share = result.transfer_share
    last = (_speedup(result) if accelerated else f"~{seconds(entry.estimated_transfer_s)}")
    return head + [
        seconds(result.median_step_s) + (" (unstable)" if result.unstable else ""),
        seconds(result.median_transfer_s) if device != CPU else "-",
        f"{share:.0%}" if share is not None and device != CPU else "-",
        quantity(entry.achieved_flops(device) or 0.0, "FLOP/s"),
        last,
    ]


def _speedup(result: DeviceResult) -> str:
    if result.device == CPU:
        return "1.00x"
    if result.speedup is None:
        return "-"
    return f"{result.speedup:.2f}x" + (" (est.)" if result.speedup_estimated else "")


def render_text(bench: BenchResult) -> str:
    names = ", ".join(f"{d}: {bench.device_names[d]}" for d in bench.devices)
    lines = [f"devlint bench: torch {bench.torch_version}; {names}", "",
             render_table(bench), ""]
    lines += verdict_lines(bench)
    lines += [f"Not measured: {entry.point.name} on {device}: {result.reason}"
              for entry in bench.points for device, result in entry.results.items()
              if not result.measured]
    lines += [unstable_line(f"{entry.point.name} on {device}", result.half_medians)
              for entry in bench.points for device, result in entry.results.items()
              if result.unstable]
    lines += [f"Warning: {name} on {device} was measured on an overloaded machine ({why}): "
              f"marked on the plot; rerun it on a quiet machine before trusting it."
              for device in bench.devices for name, why in bench.suspects(device).items()]
    lines.append(f"({bench.elapsed_s:.1f} s of a {bench.budget_s:g} s budget; medians of up to "
                 f"{MAX_STEPS} steps after {WARMUP_STEPS} warm-up steps; FLOPs counted by torch's "
                 f"FlopCounterMode)")
    return "\n".join(lines) + "\n"


def to_dict(bench: BenchResult) -> dict:
    from devlint import __version__

    return {
        "devlint_version": __version__,
        "torch_version": bench.torch_version,
        "devices": bench.devices,
        "device_names": bench.device_names,
        "accelerator_present": bool(bench.accelerators),
        "budget_s": bench.budget_s,
        "elapsed_s": bench.elapsed_s,
        "transfer_estimate_assumption": PCIE_ASSUMPTION,
        "points": [_point_dict(entry) for entry in bench.points],
        "cores": bench.cores,
        "overloaded": {device: bench.suspects(device) for device in bench.devices},
        "verdict": verdict_lines(bench),
    }


def _point_dict(entry: PointResult) -> dict:
    return {
        "name": entry.point.name,
        "kind": entry.point.kind,
        "description": entry.point.describe(),
        "batch": entry.point.batch,
        "params": entry.shape.params,
        "flops_per_step": entry.shape.flops,
        "batch_bytes_per_step": entry.shape.batch_bytes,
        "model_bytes": entry.shape.model_bytes,
        "estimated_batch_transfer_s": entry.estimated_transfer_s,
        "results": {device: {
            "status": result.status,
            "reason": result.reason,
            "steps": len(result.step_times_s),
            "median_step_s": result.median_step_s,
            "median_batch_transfer_s": result.median_transfer_s,
            "transfer_share": result.transfer_share,
            "model_transfer_s": result.model_transfer_s,
            "achieved_flops_per_s": entry.achieved_flops(device),
            "speedup_vs_cpu": result.speedup,
            "speedup_estimated": result.speedup_estimated,
            "predicted_step_s": result.predicted_step_s,
            "half_medians_s": result.half_medians,
            "unstable": result.unstable,
            "load_average": result.load,
            "step_times_s": result.step_times_s,
        } for device, result in entry.results.items()},
    }


def render_json(bench: BenchResult) -> str:
    return json.dumps(to_dict(bench), indent=2) + "\n"


OVERLOADED_LABEL = "measured on an overloaded machine: not trusted"


def write_plot(bench: BenchResult, path: str) -> None:
    fig = plot_figure(bench)
    import matplotlib.pyplot as plt

    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_figure(bench: BenchResult):
    """Step time against FLOPs per step per device (log axes, crossover marked), and the share
    of each step spent copying batches (estimated at PCIe speed where no GPU was measured)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (times, shares) = plt.subplots(1, 2, figsize=(12, 4.6))
    flagged = False
    for device in bench.devices:
        xs, ys = _curve(bench, device, lambda e, r: r.median_step_s)
        if xs:
            times.plot(xs, ys, marker="o", label=f"{device} ({bench.device_names[device]})")
        for entry in bench.points:
            if entry.point.name in bench.suspects(device):
                step = entry.results[device].median_step_s
                times.plot([entry.shape.flops], [step], marker="x", color="red", markersize=10,
                           linestyle="none", label=None if flagged else OVERLOADED_LABEL)
                times.annotate("overloaded", (entry.shape.flops, step), xytext=(4, 4),
                               textcoords="offset points", fontsize=7, color="red")
                flagged = True
    if not bench.accelerators:
        xs, ys = _curve(bench, CPU, lambda e, r: e.estimated_transfer_s)
        times.plot(xs, ys, linestyle="--", color="grey",
                   label="batch copy at PCIe speed (estimate)")
    crossover = _crossover(bench)
    if crossover is not None:
        times.axvline(crossover.shape.flops, color="grey", linestyle="--")
        times.annotate(f"accelerator wins from\n{crossover.point.name}",
                       (crossover.shape.flops, times.get_ylim()[0]), xytext=(6, 12),
                       textcoords="offset points", fontsize=8)
    times.set_xscale("log")
    times.set_yscale("log")
    times.set_xlabel("FLOPs per training step")
    times.set_ylabel("median step time (s)")
    times.set_title("step time vs work per step")
    times.legend(fontsize=8)
    for device in bench.accelerators:
        xs, ys = _curve(bench, device, lambda e, r: 100 * (r.transfer_share or 0.0))
        shares.plot(xs, ys, marker="o", label=f"{device}: measured")
    if not bench.accelerators:
        xs, ys = _curve(bench, CPU, lambda e, r: 100 * e.estimated_transfer_s
                        / (e.estimated_transfer_s + r.median_step_s))
        shares.plot(xs, ys, marker="o", linestyle="--",
                    label="estimate: PCIe batch copy / (copy + this CPU's step)")
    shares.set_xscale("log")
    shares.set_ylim(0, 100)
    shares.set_xlabel("FLOPs per training step")
    shares.set_ylabel("batch copy, % of the step")
    shares.set_title("transfer share")
    shares.legend(fontsize=8)
    fig.suptitle(f"devlint bench (torch {bench.torch_version})")
    fig.tight_layout()
    return fig


def _curve(bench: BenchResult, device: str, value) -> tuple[list[float], list[float]]:
    xs, ys = [], []
    for entry in sorted(bench.points, key=lambda e: e.shape.flops):
        result = entry.results.get(device)
        if result is not None and result.measured:
            xs.append(entry.shape.flops)
            ys.append(value(entry, result))
    return xs, ys


def _crossover(bench: BenchResult) -> Optional[PointResult]:
    for entry in sorted(bench.points, key=lambda e: e.shape.flops):
        if any((entry.results[d].speedup or 0.0) > 1.0 for d in bench.accelerators):
            return entry
    return None
